"""Training: padded batches, Adam, gradient clipping, validation and a checkpoint each epoch.

A run is a folder: `checkpoint.npz` (model, optimiser, vocabularies, config, history) and
`report.json` (made from the checkpoint's history), each written atomically. `resume=True`
continues from the last finished epoch and gives exactly the weights an uninterrupted run would:
each epoch's shuffle and dropout masks come from (seed, epoch) alone, and the optimiser's state
(its step count, where a warm-up schedule resumes) is saved with the model. The folder's rules
(one run at a time, nothing replaced unasked, what a resumed run may change) are in runs.py;
one epoch's steps, and the checks that stop a run that diverges, in epoch.py (both here).
"""

import dataclasses
import time
from pathlib import Path

import numpy as np

import minigrad
from minigrad.memory import keep_freed_memory
from seq2seq.commands import arch, reports, rnn_failures, rnn_file, runs, sizes, task_file
from seq2seq.commands.checkpoint_history import check_resumed_steps
from seq2seq.commands.epoch import run_epoch
from seq2seq.commands.messages import message
from seq2seq.commands.progress import blank_warning, epoch_report, level_note, say, starting_line
from seq2seq.commands.settings import check_split, check_train_config
from seq2seq.data import heldout, tasks
from seq2seq.data.batching import encode_source, encode_target
from seq2seq.data.vocab import Vocab, tokenize
from seq2seq.models.rnn import Seq2Seq
from seq2seq.models.transformer import Transformer
from seq2seq.translator import CHECKPOINT, Translator, load_translator


@dataclasses.dataclass(frozen=True)
class TrainConfig:
    task: str = "toy-ja-en"         # a built-in task, or a file of source/target pairs
    out: str = "runs/model"
    arch: str = "lstm"              # "lstm" (Seq2Seq) or "transformer"
    sep: str = "\t"                 # the separator of a pairs file
    columns: str | None = None      # "1,2": the source's and the target's columns of a pairs file
    attention: str | None = "dot"   # "dot", "general", "additive", "uniform" or None (plain)
    wiring: str = "luong"           # "luong" or "bahdanau"
    embed_size: int = 16
    hidden_size: int = 256
    batch_size: int = 128
    epochs: int = 10
    lr: float = 1e-3
    lr_decay: float = 1.0           # the learning rate of epoch e is lr * lr_decay**e
    clip: float = 5.0
    reverse_input: bool = False
    bidirectional: bool = False     # a second encoder LSTM reading right to left
    level: str | None = None        # "char" or "word"; None: the task's own
    val_fraction: float = 0.1
    seed: int = 0
    threads: int = 1
    resume: bool = False            # continue the run in `out` (runs.check_resume)
    overwrite: bool = False         # replace the run in `out` (by default a run is never replaced)
    num_examples: int = 20000       # pairs generated for a built-in task
    min_len: int | None = None      # source lengths of a built-in task
    max_len: int | None = None
    teacher_forcing_ratio: float = 1.0
    fused: bool = True
    rnn: str | None = None          # the recurrent layer, "FILE.py:CLASS"; None: the LSTM
    block: str | None = None        # the Transformer's encoder block, "FILE.py:CLASS"; None: ours
    progress: bool = True
    label_smoothing: float = 0.0    # F.cross_entropy's; the Transformer paper's is 0.1
    # The Transformer's (--arch transformer); None: its default (arch.TRANSFORMER_DEFAULTS)
    d_model: int | None = None
    heads: int | None = None
    layers: int | None = None
    d_ff: int | None = None
    dropout: float | None = None
    norm: str | None = None         # "pre" or "post"
    positions: str | None = None    # "sinusoidal" or "learned"
    warmup: int | None = None       # NoamLR's warm-up updates; None: no schedule


def task_pairs(config, pairs_file=None):
    """The (source, target) text pairs of the config's task or file (`pairs_file`, when given:
    where the file config.task names is, seq2seq.commands.task_file.locate)."""
    if config.task in tasks.TASKS:
        return tasks.make_task(config.task, config.num_examples, seed=config.seed,
                              min_len=config.min_len, max_len=config.max_len)
    path = pairs_file or config.task
    if not Path(path).exists():
        raise FileNotFoundError(message("train.no_task", path=path, tasks=", ".join(tasks.TASKS)))
    columns = None if config.columns is None else tasks.parse_columns(config.columns)
    return tasks.load_pairs(path, sep=config.sep, columns=columns, level=token_level(config))


def token_level(config):
    """The config's level, or its task's own: "word" or "char"."""
    return config.level or (tasks.task_level(config.task) if config.task in tasks.TASKS else "char")


def build(config, pairs):
    """Vocabularies from the training pairs, and a fresh model: Seq2Seq (its recurrent layer
    loaded from config.rnn's file, when it names one: the translator's `rnn_record` then records
    it) or, with arch "transformer", a Transformer (seq2seq.commands.arch)."""
    level = token_level(config)
    src_vocab = Vocab.build(tokenize(s, level) for s, _ in pairs)
    tgt_vocab = Vocab.build(tokenize(t, level) for _, t in pairs)
    longest = [max((len(tokenize(text, level)) for text in side), default=1)
               for side in zip(*pairs)] or [1, 1]
    settings = None
    if config.arch == "transformer":
        settings = arch.transformer_settings(config, len(src_vocab), len(tgt_vocab),
                                             max(longest[0], longest[1] + 2), src_vocab.pad_id)
    sizes.check_training(dataclasses.asdict(config), len(src_vocab), len(tgt_vocab), len(pairs),
                         longest[0], longest[1] + 2, settings)  # the target with <bos>, <eos>
    rnn, record = rnn_file.record(rnn_file.resolved(config.rnn))
    block, block_record = rnn_file.record(rnn_file.resolved(config.block, rnn_file.BLOCK),
                                          rnn_file.BLOCK)
    minigrad.manual_seed(config.seed)
    if settings is not None:
        model = arch.transformer(settings, block, config.block)
    else:
        model = Seq2Seq(len(src_vocab), len(tgt_vocab), config.embed_size, config.hidden_size,
                        config.attention, config.wiring, src_vocab.pad_id, config.fused,
                        config.bidirectional, rnn)
    if rnn is not None or block is not None:        # the user's layer: its real size, now
        sizes.check_saved(model, f"--rnn {config.rnn}" if rnn else f"--block {config.block}")
    return Translator(model, src_vocab, tgt_vocab, level, config.reverse_input, record,
                      block_record)


def train(config, log=say, layer_file=None, pairs_file=None, note_level=True):
    """Train as the config says; returns (translator, history). Writes the run folder, whose
    lock it holds throughout (runs.hold); refuses a folder holding a run unless the config says
    resume or overwrite, and a resume that changes what the saved model cannot honour.
    `layer_file`: on resume, the run's --rnn file named on the command line, taken in place of
    the run folder's copy (seq2seq.commands.rnn_file.class_of); without it, the copy.
    `pairs_file`: where config.task's pairs file is, if not where that path says from here (a
    resumed run's recorded file: task_file.py). `note_level`: say how a pairs file is cut into
    tokens (level_note); False for a file the caller wrote from a built-in task.

    A new run's layer file is first run in a child process (rnn_failures.check_in_child), and
    --overwrite leaves the earlier run as it is until this run's first checkpoint replaces it
    (runs.start), so a run that fails, or is killed, before then leaves the earlier one whole."""
    from threadpoolctl import threadpool_limits
    check_train_config(config)          # NaN, infinity, sizes below 1: refused before any work
    arch.check_arch(config)             # no option of the other model
    config = arch.with_defaults(config)     # the Transformer's settings, recorded as trained
    for kind in rnn_file.KINDS:         # --rnn, --block: absolute paths, but a resumed run's
        spec = getattr(config, kind.entry)              # recorded one may be gone: its copy runs
        if not (config.resume and isinstance(spec, str)
                and not Path(rnn_file.split(spec, kind)[0]).exists()):
            config = dataclasses.replace(config, **{kind.entry: rnn_file.resolved(spec, kind)})
    keep_freed_memory()                 # fewer page faults from step to step (minigrad.memory)
    out = Path(runs.check_out(config.out))
    created = runs.make_folder(out)
    with threadpool_limits(limits=config.threads), runs.hold(out, log, created):
        pairs = task_pairs(config, pairs_file)
        train_pairs, val_pairs = tasks.split_pairs(pairs, config.val_fraction, seed=config.seed)
        check_split(len(pairs), len(train_pairs), config.val_fraction)
        read = None if config.task in tasks.TASKS else pairs_file or config.task
        corpus = heldout.corpus_sha256(read or config.task, pairs)
        split = heldout.make_record(train_pairs, val_pairs, corpus)
        for kind in rnn_file.KINDS:     # an os._exit there is an error here
            if getattr(config, kind.entry) is not None and not config.resume:
                rnn_failures.check_in_child(getattr(config, kind.entry), kind, config)
        state, changed = runs.start(out, config, token_level(config), log, read)   # data good
        if config.task not in tasks.TASKS and note_level:
            log(level_note(token_level(config), config.level))
        if not val_pairs and config.val_fraction > 0:       # a tiny file: no epoch is scored
            sources = len({tasks.source_key(s) for s, _ in pairs})
            log(message("train.no_validation_one" if sources == 1 else "train.no_validation",
                        fraction=f"{config.val_fraction:g}", sources=sources))
        if state is None:
            translator = build(config, train_pairs)
            model = translator.model
            optimizer = arch.make_optimizer(model, config)
            history, start = [], 0
        else:                   # the saved layer, from the run folder's copy or `layer_file`
            config = as_recorded(config, state)
            translator, optimizer, history = load_run(out, config, layer_file)
            if isinstance(translator.model, Transformer):           # --dropout may change
                translator.model.set_dropout(config.dropout)
            check_same_data(out, config, split, state, read)
            model, start = translator.model, len(history)
            log(message("train.resuming", epoch=start) + "".join(
                message("train.resuming_changed", name=name, old=old, new=new)
                for name, (old, new) in changed.items()))
        longest = max(len(tokenize(s, translator.level)) for s, _ in train_pairs)   # translate
        examples = [(encode_source(s, translator.src_vocab, translator.level, config.reverse_input),
                     encode_target(t, translator.tgt_vocab, translator.level))
                    for s, t in train_pairs]
        if state is not None:               # a pairs file's epochs are known only now
            check_resumed_steps(out / CHECKPOINT, state, len(examples))
        schedule = arch.make_schedule(optimizer, config,  # per update, from where a resume is
                                      arch.updates_done(optimizer))
        n_batches = -(-len(examples) // config.batch_size)
        if start < config.epochs:
            log(starting_line(sum(p.data.size for p in model.parameters()), len(examples),
                              len(val_pairs), n_batches, config.batch_size, config.epochs,
                              start + 1))
        for epoch in range(start, config.epochs):
            model.train()
            if schedule is None:
                optimizer.lr = config.lr * config.lr_decay ** epoch
            rng = np.random.default_rng([config.seed, epoch])       # the same on resume
            minigrad.manual_seed([config.seed, epoch, 1])           # dropout's masks: likewise
            started = time.perf_counter()
            loss = run_epoch(model, optimizer, examples, config, rng, epoch, log, schedule)
            seconds = time.perf_counter() - started if config.progress else None
            scores = translator.evaluate(val_pairs) if val_pairs else {}
            history.append({"epoch": epoch + 1, "loss": loss, **{k: v for k, v in scores.items()
                                                                  if k != "by_length"}})
            if changed and epoch == start:          # the options changed when it was resumed
                history[-1]["changed"] = {k: list(v) for k, v in changed.items()}
            log(epoch_report(epoch + 1, config.epochs, loss, scores, n_batches, seconds))
            save_run(out, config, translator, optimizer, history, split, longest,
                     task_file.record(read, corpus))
            if config.overwrite and epoch == start:     # the earlier run is replaced now
                rnn_file.remove_earlier_copies(out, translator.rnn_record
                                               or translator.block_record)
        if history and history[-1].get("blank_outputs", -1) == history[-1].get("examples"):
            log(blank_warning(history[-1]["examples"], translator.level, config.task))
    return translator, history


def save_run(out, config, translator, optimizer, history, split=None, longest_source=None,
             task_record=None):
    """The checkpoint and report.json. `split`: the record of the train/validation split
    (seq2seq.data.heldout), which `evaluate` scores against; `longest_source`: the longest training
    source in tokens, beyond which `translate` warns that the model was never taught;
    `task_record`: where the pairs file is and its hash (seq2seq.commands.task_file). A layer
    from a file is copied into the run folder first (rnn_file.keep_copy): later commands run it
    only from there."""
    for kind, saved in ((rnn_file.RNN, translator.rnn_record),
                        (rnn_file.BLOCK, translator.block_record)):
        if saved is not None:
            rnn_file.keep_copy(out, saved, kind)
    minigrad.save({
        "config": dataclasses.asdict(config),
        "model": translator.model.state_dict(),
        "model_config": translator.model.config,
        "optimizer": optimizer.state_dict(),
        "src_vocab": translator.src_vocab.to_dict(),
        "tgt_vocab": translator.tgt_vocab.to_dict(),
        "level": translator.level,
        "reverse_input": translator.reverse_input,
        "rnn": translator.rnn_record,       # the layer's file and hash, or None for the LSTM
        "block": translator.block_record,   # the encoder block's, or None for EncoderBlock
        "history": history,
        "epochs": len(history),             # checked against the history when read
        "split": split,
        "longest_source": longest_source,
        "task_file": task_record,           # None for a built-in task
    }, Path(out) / CHECKPOINT)
    reports.write_report(out, history)      # after the checkpoint: reports.reconcile_report


def as_recorded(config, state):
    """The config with the run's own task and columns, which a resume accepted in another
    spelling (runs.check_resume): the record keeps the words the run started with."""
    saved = {**TrainConfig().__dict__, **state.get("config", {})}
    return dataclasses.replace(config, task=saved["task"], columns=saved["columns"])


def check_same_data(out, config, split, state, read=None):
    """Refuse to resume a run on other data or another split than it started with: its first
    epochs trained on the old split, so some new validation pairs could be sources it learnt.
    `state`: the run's checkpoint as runs.start read it, every entry checked; `read`: the pairs
    file read (None: a built-in task), which the refusal names as well as config.task."""
    recorded = heldout.read_record(state, out)
    if recorded is None:                # split pair by pair, by an older version: cannot match
        raise ValueError(message("train.no_split_record", out=out))
    if recorded["corpus_sha256"] != split["corpus_sha256"]:
        named = config.task if read in (None, config.task) else f"{read} (--task {config.task})"
        raise ValueError(message("train.other_data", out=out, named=named, now=split[
            "corpus_sha256"][:12], was=recorded["corpus_sha256"][:12]))
    # --val-fraction and --seed, when written, are the saved ones (runs.check_resume): a split
    # that differs is the record's own
    same = {"val_pairs": recorded["val_pairs"] == split["val_pairs"],
            "train_sources": np.array_equal(recorded["train_sources"], split["train_sources"])}
    for name in ("val_pairs", "train_sources"):
        if not same[name]:
            raise ValueError(message(f"train.other_{name}", file=Path(out) / CHECKPOINT))


def load_run(out, config, layer_file=None):
    translator, state = load_translator(out, layer_file)
    model = translator.model
    if isinstance(model, Seq2Seq) and model.config["fused"] != config.fused:   # other LSTM code
        translator.model = Seq2Seq(**{**model.config, "fused": config.fused}, rnn=model.rnn)
        translator.model.load_state_dict(model.state_dict())
    optimizer = arch.make_optimizer(translator.model, config)
    try:
        optimizer.load_state_dict(state["optimizer"])
    except (ValueError, TypeError) as error:                # the file's fault, not --lr's
        raise ValueError(message("train.bad_optimizer", file=Path(out) / CHECKPOINT,
                                 error=error)) from None
    return translator, optimizer, list(state["history"])
