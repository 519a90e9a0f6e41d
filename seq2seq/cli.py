"""`python -m seq2seq COMMAND`: train, evaluate, translate, demo, draw, explore, and the
reproductions of the attention papers' figures (seq2seq.papers): compare-lengths, alignments,
uniform-and-seeds, compare-scoring.

Every failure is one line on stderr and a non-zero exit status; `--debug` (or MINIGRAD_DEBUG=1)
shows the traceback instead.
"""

import dataclasses
import json
import sys

from minigrad.command import Parser, add_debug_option, debug_wanted, run
from seq2seq.settings import check_settings, check_train_config, too_large
from seq2seq.train import TrainConfig


def add_train_options(parser, defaults=TrainConfig()):
    parser.add_argument("--task", default=defaults.task,
                        help="toy-ja-en, dates, reverse, copy, or a file of source/target pairs")
    parser.add_argument("--out", default=defaults.out, help="the run folder")
    parser.add_argument("--sep", default=defaults.sep, help="separator in a pairs file (tab)")
    add_columns_option(parser, defaults.columns)
    parser.add_argument("--attention", default=defaults.attention,
                        choices=["dot", "general", "additive", "uniform", "none"],
                        help="the score function; uniform: every source position weighs 1/S "
                        "(a baseline), none: the plain encoder-decoder")
    parser.add_argument("--wiring", default=defaults.wiring, choices=["luong", "bahdanau"])
    parser.add_argument("--embed-size", type=int, default=defaults.embed_size)
    parser.add_argument("--hidden-size", type=int, default=defaults.hidden_size)
    parser.add_argument("--batch-size", type=int, default=defaults.batch_size)
    parser.add_argument("--epochs", type=int, default=defaults.epochs)
    parser.add_argument("--lr", type=float, default=defaults.lr)
    parser.add_argument("--lr-decay", type=float, default=defaults.lr_decay,
                        help="multiply the learning rate by this after every epoch")
    parser.add_argument("--clip", type=float, default=defaults.clip,
                        help="clip the gradients' total norm to this")
    parser.add_argument("--reverse-input", action="store_true", default=defaults.reverse_input,
                        help="feed the source to the encoder last token first")
    parser.add_argument("--bidirectional", action="store_true", default=defaults.bidirectional,
                        help="a second encoder LSTM reads the source right to left")
    parser.add_argument("--level", choices=["char", "word"], default=defaults.level)
    parser.add_argument("--val-fraction", type=float, default=defaults.val_fraction)
    parser.add_argument("--num-examples", type=int, default=defaults.num_examples,
                        help="pairs generated for a built-in task")
    parser.add_argument("--min-len", type=int, default=defaults.min_len)
    parser.add_argument("--max-len", type=int, default=defaults.max_len)
    parser.add_argument("--teacher-forcing-ratio", type=float,
                        default=defaults.teacher_forcing_ratio)
    parser.add_argument("--composed", dest="fused", action="store_false",
                        help="use the LSTM built from primitive ops instead of the fused one")
    parser.add_argument("--rnn", metavar="FILE.py:CLASS", default=defaults.rnn,
                        help="a recurrent layer of your own in place of the LSTM, e.g. "
                        "my_gru.py:GRU (the contract: minigrad/nn/recurrent.py); the run "
                        "folder keeps a copy of the file, and later commands run only that "
                        "copy, or a file you name (--rnn-file), if it hashes as recorded")
    parser.add_argument("--seed", type=int, default=defaults.seed)
    parser.add_argument("--threads", type=int, default=defaults.threads,
                        help="BLAS threads (one is often fastest on a small shared machine)")
    parser.add_argument("--resume", action="store_true",
                        help="continue the run in --out; options left out take its saved "
                        "values (refused if an option written differs where its model cannot "
                        "honour it: sizes, attention, wiring, task, data split, ...)")
    parser.add_argument("--overwrite", action="store_true",
                        help="replace the run in --out (without it or --resume, a folder "
                        "holding a run is refused)")
    parser.add_argument("--no-progress", dest="progress", action="store_false")


def add_columns_option(parser, default=None):
    parser.add_argument("--columns", metavar="S,T", default=default,
                        help="the source's and the target's columns of a pairs file whose lines "
                        "have more than two, counted from 1 (a Tatoeba/Anki export: 1,2); "
                        "without it a line must have exactly two")


def config_from(args):
    fields = {f.name for f in dataclasses.fields(TrainConfig)}
    values = {k: v for k, v in vars(args).items() if k in fields}
    if values.get("attention") == "none":
        values["attention"] = None
    return TrainConfig(**values)


def check_config(config):
    """The training settings: seq2seq.settings checks them for every command that trains."""
    check_train_config(config)
    check_pairs_options(config.task, config.sep, config.columns)
    if config.rnn is not None and not config.fused:
        raise ValueError("--composed chooses how the LSTM is computed, and --rnn replaces the "
                         "LSTM: leave one of them out")


def check_pairs_options(task, sep, columns):
    """--sep and --columns say how to read a pairs file: with a built-in task (or, on evaluate,
    the run's recorded split: task None) there is no file to read, and they would be ignored."""
    from seq2seq import data
    if task is not None and task not in data.TASKS:
        return
    given = [option for option, used in (("--sep", sep != "\t"), ("--columns", columns))
             if used]
    if given:
        what = "the recorded validation pairs" if task is None else f"the built-in task {task}"
        raise ValueError(f"{' and '.join(given)} appl{'ies' if len(given) == 1 else 'y'} only "
                         f"to a pairs file (--task FILE), not to {what}: leave "
                         f"{'it' if len(given) == 1 else 'them'} out")


def cmd_train(args):
    from seq2seq.rnn_file import resolved, split
    from seq2seq.runs import check_resume, say
    from seq2seq.train import token_level, train
    config = config_from(args)
    check_config(config)
    config = dataclasses.replace(config, rnn=resolved(config.rnn))     # an absolute path
    saved = saved_run(config) if config.resume and not config.overwrite else None
    if saved is not None:
        config = resumed_config(config, saved["config"], args.given)
        try:                # the command line's values passed above: what fails came from the file
            check_config(config)
        except ValueError as error:
            raise ValueError(f"{config.out}/checkpoint.npz: its 'config' entry, read for the "
                             f"options not written on this command line: {error}") from None
        check_resume(config.out, saved, config, token_level(config))   # what it cannot honour
        done = len(saved.get("history", ()))
        if done >= config.epochs:
            say(f"nothing left to train: {config.out} has already trained {done} epochs "
                f"(--epochs {config.epochs}); pass a larger --epochs to train on")
            return
    # On resume, the saved layer runs from the run folder's copy, or from the file --rnn names
    # on this command line; never from a path the checkpoint alone names (seq2seq.rnn_file).
    named = (split(config.rnn)[0] if config.resume and config.rnn is not None
             and "rnn" in args.given else None)
    train(config, log=say, layer_file=named)
    say(f"checkpoint: {config.out}/checkpoint.npz")


# What --resume takes from the saved run when the command line does not say it: every setting,
# but not where the run is, what to do with it, or whether to show a progress bar.
NOT_RESUMED = ("out", "resume", "overwrite", "progress")


def saved_run(config):
    """The checkpoint in config.out (a dict with the saved config and history), or None when
    there is none (train then says that there is nothing to resume)."""
    from pathlib import Path

    from seq2seq.checkpoint_reading import read_checkpoint  # every entry checked first
    from seq2seq.runs import CHECKPOINT
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


def cmd_evaluate(args):
    """Score a run on the validation pairs it recorded, or on --task; count (or, for a generated
    task, drop) the sources it trained on, so that a held-out score is held out."""
    from seq2seq import data, heldout
    from seq2seq.runs import repair_report
    from seq2seq.translator import load_translator
    check_pairs_options(args.task, args.sep, args.columns)
    translator, state = load_translator(args.run, args.rnn_file)      # refused: report kept
    repair_report(args.run, log=lambda line: print(line, file=sys.stderr))
    record = heldout.read_record(state, args.run)
    dropped = 0
    if (args.min_len is not None or args.max_len is not None) and args.task not in data.TASKS:
        raise ValueError("--min-len and --max-len choose the lengths of a generated --task: "
                         "give a built-in one (" + ", ".join(data.TASKS) + ")")
    if args.task is None:
        if record is None:
            raise ValueError(f"{args.run} does not record its validation split (it was saved by "
                             "an older version); evaluate it with --task, or train it again")
        _warn_if_changed(state["config"]["task"], record, args.run)
        pairs = [(s, t) for s, t in record["val_pairs"]]
    elif args.task in data.TASKS:
        low, high, origin = heldout.task_lengths(args.task, state["config"], args.min_len,
                                                 args.max_len)
        print(f"{args.task}: sources of {low} to {high} tokens, {origin}", file=sys.stderr)
        pairs = data.make_task(args.task, args.num_examples, seed=args.seed, min_len=low,
                               max_len=high)
        if record is not None:
            pairs, dropped = heldout.drop_seen(pairs, record)
    else:
        columns = None if args.columns is None else data.parse_columns(args.columns)
        pairs = data.load_pairs(args.task, sep=args.sep, columns=columns, level=translator.level)
    if record is None:
        print(f"warning: {args.run} does not record its training split, so which sources it "
              "trained on is unknown (seen_in_training: null)", file=sys.stderr)
    if not pairs:
        raise ValueError("nothing to evaluate: the validation split is empty (use --task)"
                         if args.task is None else f"nothing to evaluate: all {dropped} pairs "
                         f"of {args.task} have a source the run trained on")
    scores = translator.evaluate(pairs, beam_size=args.beam_size)
    seen = (None if record is None
            else sum(heldout.seen_in_training([s for s, _ in pairs], record)))
    scores.update(seen_in_training=seen, dropped_as_seen=dropped)
    if scores["blank_outputs"] == scores["examples"]:
        print(f"warning: every one of the {scores['examples']} outputs is blank (empty or only "
              "spaces)", file=sys.stderr)
    if args.json:
        print(json.dumps(scores))
        return
    print(f"{'examples':16s} {scores['examples']}")
    print(f"{'seen_in_training':16s} {'unknown' if seen is None else seen}"
          + (f"  ({dropped} generated pairs dropped: the run trained on their sources)"
             if dropped else ""))
    for key in ("exact_match", "token_accuracy", "bleu"):
        print(f"{key:16s} {scores[key]:.4f}")
    print(f"{'bleu_tokens':16s} {scores['bleu_tokens']}"
          f"  ({'characters' if scores['bleu_tokens'] == 'char' else '13a words'})")
    print("exact match by source length: " + ", ".join(
        f"{n}: {acc:.2f}" for n, acc in sorted(scores["by_length"].items())))


def _warn_if_changed(task, record, run):
    """One line on stderr when the run's pairs file is no longer what it trained on: the score
    is still on the recorded split, but training again would not give this run. A task that
    names a file that cannot be read is an error naming the checkpoint and its entry."""
    from pathlib import Path

    from seq2seq import data, heldout
    from seq2seq.translator import CHECKPOINT
    if task in data.TASKS or not Path(task).is_file():
        return
    try:
        digest = heldout.file_sha256(task)
    except (OSError, data.CorpusError) as error:
        file = Path(run) / CHECKPOINT if Path(run).is_dir() else Path(run)
        raise ValueError(f"{file}: its 'config.task' entry names {task!r}, which should be the "
                         f"pairs file the run trained on, but it cannot be read: "
                         f"{getattr(error, 'strerror', None) or error}") from error
    if digest != record["corpus_sha256"]:
        print(f"warning: {task} has changed since the run trained on it; evaluating the "
              f"{len(record['val_pairs'])} validation pairs the run recorded", file=sys.stderr)


def cmd_translate(args):
    """TEXT may be up to MAX_SOURCE_TOKENS (1,000) tokens long; the text heatmap is shown up to
    MAX_TEXT_TOKENS (100) tokens a side, --plot draws any size (see seq2seq/heatmap.py)."""
    from seq2seq.heatmap import MAX_TEXT_TOKENS
    from seq2seq.translator import load_translator
    translator, state = load_translator(args.run, args.rnn_file)
    translation = translator.translate(args.text, beam_size=args.beam_size)
    if translation.unknown:
        print(translation.unknown_note(), file=sys.stderr)
    longest, length = state.get("longest_source"), len(translation.source_tokens)
    if isinstance(longest, int) and length > longest:       # None: saved before it was recorded
        print(f"warning: the source has {length} tokens, more than the longest the run trained "
              f"on ({longest}): beyond that length the model was never taught", file=sys.stderr)
    if not translation.text.strip():                # a blank line alone would say nothing
        print(f"note: the translation is {'only spaces' if translation.text else 'empty'}",
              file=sys.stderr)
    print(translation.text)
    if translation.weights is not None:
        if max(translation.weights.shape) <= MAX_TEXT_TOKENS:
            print(translation.text_heatmap())
        else:
            print(f"(no text heatmap for more than {MAX_TEXT_TOKENS} tokens a side: "
                  "--plot PNG draws it)")
        if args.plot:
            translation.plot_heatmap(args.plot, overwrite=args.overwrite)
            print(f"heatmap: {args.plot}")


def main(argv=None):
    from seq2seq import rnn_file
    parser = Parser(prog="python -m seq2seq", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    p = train_parser = sub.add_parser("train", help="train a model")
    add_train_options(p)
    p.set_defaults(func=cmd_train)

    p = sub.add_parser("evaluate", help="metrics of a trained model")
    p.add_argument("run", help="the run folder (or its checkpoint.npz)")
    p.add_argument("--task", help="a built-in task or a pairs file (default: the validation "
                                  "pairs the run recorded)")
    p.add_argument("--sep", default="\t")
    add_columns_option(p)
    p.add_argument("--num-examples", type=int, default=1000)
    p.add_argument("--seed", type=int, default=12345, help="for a generated --task")
    p.add_argument("--min-len", type=int, help="source lengths of a generated --task (default: "
                   "the run's, if it trained on that task, else the task's own)")
    p.add_argument("--max-len", type=int)
    p.add_argument("--beam-size", type=int, default=1)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    rnn_file.add_option(p)
    p.set_defaults(func=cmd_evaluate)

    p = sub.add_parser("translate", help="translate one sentence and show the attention")
    p.add_argument("run", help="the run folder (or its checkpoint.npz)")
    p.add_argument("text")
    p.add_argument("--beam-size", type=int, default=1)
    p.add_argument("--plot", metavar="PNG", help="also draw the heatmap to this file")
    p.add_argument("--overwrite", action="store_true", help="replace a file at --plot that no "
                   "earlier figure wrote")
    rnn_file.add_option(p)
    p.set_defaults(func=cmd_translate)

    from seq2seq import draw, experiments, explore, papers
    experiments.add_commands(sub)
    papers.add_commands(sub)
    draw.add_command(sub)
    explore.add_command(sub)

    add_debug_option(parser, sub)
    args = parser.parse_args(argv)
    if args.command == "train":
        args.given = given_options(parser, train_parser, argv)
    settings = vars(args)
    debug = debug_wanted(args)
    return run(lambda: naming_the_layer(lambda: check_options(args) or args.func(args), debug),
               debug=debug, memory_hint=lambda: too_large(settings))


class LayerCodeError(ValueError):
    """An exception raised inside a --rnn layer's code; the message names its file and line."""


def naming_the_layer(command, debug=False):
    """command(), with an exception raised inside a --rnn layer's code put as one line that
    names the layer's file and line (`seq2seq.rnn_file.layer_site`): "boom" alone would not say
    whose code failed. With `debug` the exception goes through as it is, traceback and all. A
    KeyboardInterrupt stays one: a real Ctrl-C stops whatever line is running, most often the
    layer's cell, and the two cannot be told apart."""
    from seq2seq.rnn_file import layer_site, raised
    try:
        return command()
    except Exception as error:
        site = None if debug else layer_site(error)
        if site is None:
            raise
        raise LayerCodeError(f"the --rnn layer's code, {site}, {raised(error)}") from error


def check_options(args):
    """What every subcommand checks before it starts: its numeric options (seq2seq.settings) and
    a text that is not blank."""
    check_settings(**vars(args))
    for name in ("text", "sentence"):
        if isinstance(getattr(args, name, None), str) and not getattr(args, name).strip():
            raise ValueError(f"the {name} to translate is empty")
