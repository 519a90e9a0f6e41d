"""The training settings on the command line: the options `train` takes (and `evaluate`'s
pairs-file options), their checks, and how `--resume` fills in the options not written again
from the saved run. `seq2seq.commands.cli` wires them to the commands."""

import dataclasses

from minigrad.settings import SettingError
from seq2seq.commands.messages import message
from seq2seq.commands.settings import CHOICES, check_train_config
from seq2seq.commands.train import TrainConfig


def separator(text):
    """--sep as typed: a tab may be written as the two characters \\t (as the help shows the
    default), which a shell passes on as they are."""
    return "\t" if text == "\\t" else text


def add_train_options(parser, defaults=TrainConfig()):
    parser.add_argument("--task", default=defaults.task,
                        help="toy-ja-en, dates, reverse, copy (digit strings), sort "
                        "(strings of the digits 0, 1 and 2), or a file of source/target pairs")
    parser.add_argument("--out", default=defaults.out, help="the run folder")
    parser.add_argument("--sep", default=defaults.sep, type=separator,
                        help="separator in a pairs file (a tab: '\\t' or a real tab)")
    add_columns_option(parser, defaults.columns)
    parser.add_argument("--arch", default=defaults.arch, choices=CHOICES["arch"],
                        help="the model: the LSTM encoder-decoder (with --attention), or the "
                        "Transformer (with --layers, --heads, --d-model, ...)")
    add_transformer_options(parser, defaults)
    parser.add_argument("--label-smoothing", type=float, default=defaults.label_smoothing,
                        help="spread this much of each target's probability over the "
                        "vocabulary (the Transformer paper's 0.1)")
    parser.add_argument("--attention", default=defaults.attention,
                        choices=[*CHOICES["attention"], "none"],
                        help="the score function; uniform: every source position weighs 1/S "
                        "(a baseline), none: the plain encoder-decoder")
    parser.add_argument("--wiring", default=defaults.wiring, choices=CHOICES["wiring"],
                        help="where attention sits: after the LSTM step (luong) or before it")
    parser.add_argument("--embed-size", type=int, default=defaults.embed_size,
                        help="the size of a token's embedding")
    parser.add_argument("--hidden-size", type=int, default=defaults.hidden_size,
                        help="the LSTMs' state size")
    parser.add_argument("--batch-size", type=int, default=defaults.batch_size,
                        help="pairs per training step")
    from seq2seq.commands.arch import TRAINING_DEFAULTS as by_arch
    parser.add_argument("--epochs", type=int, help="passes over the training pairs (" + ", ".join(
        f"{arch}: {d['epochs']}" for arch, d in by_arch.items()) + ")")
    parser.add_argument("--lr", type=float, help="the learning rate; the transformer's peak, "
                        "after --warmup (" + ", ".join(f"{arch}: {d['lr']:g}"
                                                       for arch, d in by_arch.items()) + ")")
    parser.add_argument("--lr-decay", type=float, default=defaults.lr_decay,
                        help="multiply the learning rate by this after every epoch")
    parser.add_argument("--clip", type=float, default=defaults.clip,
                        help="clip the gradients' total norm to this")
    parser.add_argument("--reverse-input", action="store_true", default=defaults.reverse_input,
                        help="feed the source to the encoder last token first")
    parser.add_argument("--bidirectional", action="store_true", default=defaults.bidirectional,
                        help="a second encoder LSTM reads the source right to left")
    parser.add_argument("--level", choices=CHOICES["level"], default=defaults.level,
                        help="tokens: characters or words (default: the task's own; char for a "
                        "pairs file)")
    parser.add_argument("--val-fraction", type=float, default=defaults.val_fraction,
                        help="the share of distinct sources held out to validate")
    parser.add_argument("--num-examples", type=int, default=defaults.num_examples,
                        help="pairs generated for a built-in task")
    parser.add_argument("--min-len", type=int, default=defaults.min_len,
                        help="the shortest source of a built-in task (default: the task's own)")
    parser.add_argument("--max-len", type=int, default=defaults.max_len,
                        help="the longest source of a built-in task (default: the task's own)")
    parser.add_argument("--teacher-forcing-ratio", type=float,
                        default=defaults.teacher_forcing_ratio,
                        help="the share of decoder steps fed the right previous token")
    parser.add_argument("--composed", dest="fused", action="store_false",
                        help="use the LSTM built from primitive ops instead of the fused one")
    parser.add_argument("--rnn", metavar="FILE.py:CLASS", default=defaults.rnn,
                        help="a recurrent layer of your own in place of the LSTM, e.g. "
                        "my_gru.py:GRU (the contract: minigrad/nn/recurrent.py); the run "
                        "folder keeps a copy of the file, and later commands run only that "
                        "copy, or a file you name (--rnn-file), if it hashes as recorded")
    parser.add_argument("--seed", type=int, default=defaults.seed,
                        help="seeds the data, the split and the weights")
    parser.add_argument("--threads", type=int, default=defaults.threads,
                        help="BLAS threads (one is often fastest on a small shared machine)")
    parser.add_argument("--resume", action="store_true",
                        help="continue the run in --out; options left out take its saved "
                        "values (refused if an option written differs where its model cannot "
                        "honour it: sizes, attention, wiring, task, data split, ...)")
    parser.add_argument("--overwrite", action="store_true",
                        help="replace the run in --out (without it or --resume, a folder "
                        "holding a run is refused)")
    parser.add_argument("--no-progress", dest="progress", action="store_false",
                        help="no progress bar or per-epoch lines")


def add_transformer_options(parser, defaults):
    """--arch transformer's own options (refused with --arch lstm); unset, its defaults:
    seq2seq.commands.arch.TRANSFORMER_DEFAULTS."""
    from seq2seq.commands.arch import TRANSFORMER_DEFAULTS as usual
    parser.add_argument("--layers", type=int, default=defaults.layers,
                        help=f"blocks in the encoder and in the decoder ({usual['layers']})")
    parser.add_argument("--heads", type=int, default=defaults.heads,
                        help=f"attention heads, dividing --d-model ({usual['heads']})")
    parser.add_argument("--d-model", type=int, default=defaults.d_model,
                        help=f"the size of every position's vector ({usual['d_model']})")
    parser.add_argument("--d-ff", type=int, default=defaults.d_ff,
                        help=f"the feed-forward's hidden size ({usual['d_ff']})")
    parser.add_argument("--dropout", type=float, default=defaults.dropout,
                        help=f"dropout in the embeddings and every block ({usual['dropout']})")
    parser.add_argument("--norm", choices=CHOICES["norm"], default=defaults.norm,
                        help="LayerNorm before each sublayer (pre, the default) or after its "
                        "residual sum (post, the 2017 paper's)")
    parser.add_argument("--positions", choices=CHOICES["positions"],
                        default=defaults.positions, help="the positional encodings "
                        f"({usual['positions']})")
    parser.add_argument("--block", metavar="FILE.py:CLASS", default=defaults.block,
                        help="an encoder block of your own in place of attention's "
                        "EncoderBlock, e.g. my_block.py:Block (the contract: "
                        "seq2seq/models/block_contract.py); kept and run again as --rnn is "
                        "(--block-file)")
    parser.add_argument("--warmup", type=int, default=defaults.warmup,
                        help="the learning rate rises for this many updates to --lr, then "
                        f"falls as 1/sqrt(update), the paper's schedule ({usual['warmup']}; "
                        "0: a constant rate)")


def add_columns_option(parser, default=None):
    parser.add_argument("--columns", metavar="S,T", default=default,
                        help="the source's and the target's columns of a pairs file whose lines "
                        "have more than two, counted from 1 (a Tatoeba/Anki export: 1,2); "
                        "without it a line must have exactly two")


def config_from(args):
    """The TrainConfig the options give; --epochs and --lr, when not written, the arch's
    (seq2seq.commands.arch.TRAINING_DEFAULTS)."""
    from seq2seq.commands.arch import TRAINING_DEFAULTS
    fields = {f.name for f in dataclasses.fields(TrainConfig)}
    values = {k: v for k, v in vars(args).items() if k in fields}
    for name, value in TRAINING_DEFAULTS.get(values.get("arch"), {}).items():
        if values.get(name) is None:
            values[name] = value
    if values.get("attention") == "none":
        values["attention"] = None
    return TrainConfig(**values)


def check_config(config, given=(), arch=True, pairs=True):
    """The training settings: seq2seq.commands.settings checks them for every command that
    trains; with `arch`, also that no option of the other model is given
    (seq2seq.commands.arch; `given`: the options written on the command line). `pairs`: check
    --sep and --columns against config.task (False when the task is yet to come from the saved
    run)."""
    from seq2seq.commands.arch import check_arch
    check_train_config(config)
    if arch:
        check_arch(config, given)
    if pairs:                   # a config alone cannot tell a tab given from the default one
        check_pairs_options(config.task, None if config.sep == "\t" else config.sep,
                            config.columns)
    if config.rnn is not None and not config.fused:
        raise ValueError(message("train.composed_and_rnn"))


def check_pairs_options(task, sep, columns, generating=()):
    """--sep and --columns say how to read a pairs file: with a built-in task (or, on evaluate,
    the run's recorded split: task None) there is no file to read, and they would be ignored.
    `sep` and `columns` are None when not given: a --sep given its default value, a tab, is
    refused as any other. Conversely `generating`, the options written among those that
    generate a built-in task's pairs (GENERATING), are refused with a pairs file."""
    from seq2seq.data import tasks
    if task is not None and task not in tasks.TASKS:
        for option in generating:
            raise SettingError(option, message("train.generating_only", task=task))
        return
    given = [option for option, used in (("--sep", sep is not None), ("--columns", columns))
             if used]
    if given:
        what = (message("train.recorded_pairs") if task is None
                else message("train.built_in_task", task=task))
        raise ValueError(message("train.pairs_only_one" if len(given) == 1
                                 else "train.pairs_only_two", options=" and ".join(given),
                                 what=what))


# The options that say how a built-in task's pairs are generated: a pairs file is read whole.
GENERATING = ("num_examples", "min_len", "max_len")


def generating_options(given):
    """The options of GENERATING among `given` (dests), as written: ["--num-examples"]."""
    return [f"--{name.replace('_', '-')}" for name in GENERATING if name in given]


# What --resume takes from the saved run when the command line does not say it: every setting,
# but not where the run is, what to do with it, or whether to show a progress bar.
NOT_RESUMED = ("out", "resume", "overwrite", "progress")


def saved_run(config):
    """The checkpoint in config.out (a dict with the saved config and history), or None when
    there is none (train then says that there is nothing to resume)."""
    from pathlib import Path

    from seq2seq.commands.checkpoint_reading import read_checkpoint  # every entry checked first
    from seq2seq.commands.runs import CHECKPOINT
    path = Path(config.out) / CHECKPOINT
    return read_checkpoint(path) if path.is_file() else None


def resumed_config(config, saved, given):
    """With --resume, the options not written on the command line take the saved run's values,
    so a user retypes nothing; those written are compared with the saved ones by train
    (runs.check_resume: refused if the model cannot honour them, recorded if it can)."""
    fields = {f.name for f in dataclasses.fields(TrainConfig)}
    kept = {name: value for name, value in saved.items()
            if name in fields and name not in given and name not in NOT_RESUMED}
    return dataclasses.replace(config, **kept)


def given_options(parser, subparser, argv):
    """The options (their dests) written on the command line, even those given their default
    value: a second parse with every default of `subparser` suppressed leaves out the rest."""
    not_given = object()                # no string: argparse would convert it with the type
    dests = vars(parser.parse_args(argv))
    subparser.set_defaults(**{dest: not_given for dest in dests})
    written = vars(parser.parse_args(argv))
    return {dest for dest, value in written.items() if value is not not_given}
