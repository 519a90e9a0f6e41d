"""Training for a budget of CPU time rather than a number of epochs: what compare-architectures
gives each model, so that a model whose updates cost more makes fewer of them.

The clock is the process's CPU time (time.process_time), started when the first batch starts:
other programs on a shared machine do not count, and neither does making the data or the model.
Training goes epoch after epoch, each shuffled as `train` shuffles it, and stops at the end of
the batch during which the budget ran out, so a model always makes at least one update and
overruns its budget by less than one update. Nothing is scored during training; the run folder
is written once, at the end, as `train` writes it (checkpoint.npz and report.json), so that
`python -m seq2seq evaluate`, `translate` and `draw` take it as they take any run. Its history
has one record per epoch begun, the last one cut short where the budget ran out, each with its
`updates` and `cpu_seconds`.

A budget of updates (`updates=N`) stops it after the N-th update instead: the same work for
each model rather than the same time, and figures that do not depend on the machine's speed or
load (a CPU-time budget gives a loaded machine fewer updates, and its models learn less).
"""

import dataclasses
import time
from pathlib import Path

import numpy as np

from minigrad.memory import keep_freed_memory
from seq2seq.commands import arch, runs
from seq2seq.commands.epoch import run_epoch
from seq2seq.commands.messages import message
from seq2seq.commands.settings import check_split, check_train_config
from seq2seq.commands.train import build, save_run, task_pairs, token_level
from seq2seq.data import heldout, tasks
from seq2seq.data.batching import encode_source, encode_target
from seq2seq.data.vocab import tokenize


def train_for(config, budget, log, updates=None, watch=None):
    """Train the model of `config` for `budget` CPU seconds, or for `updates` updates when that
    is given (then `budget` is not used), into config.out (a folder that holds no run).
    `watch`: run_epoch's, called at every update (seq2seq.commands.epoch.run_epoch).
    Returns (translator, facts): facts = {"updates", "cpu_seconds" (of training),
    "batches_per_epoch", "epochs" (updates / batches_per_epoch)}."""
    from threadpoolctl import threadpool_limits
    check_train_config(config)
    arch.check_arch(config)
    config = arch.with_defaults(config)
    keep_freed_memory()                 # as `train` does (minigrad.memory)
    out = Path(runs.check_out(config.out))
    created = runs.make_folder(out)
    with threadpool_limits(limits=config.threads), runs.hold(out, log, created):
        pairs = task_pairs(config)
        train_pairs, val_pairs = tasks.split_pairs(pairs, config.val_fraction, seed=config.seed)
        check_split(len(pairs), len(train_pairs), config.val_fraction)
        split = heldout.make_record(train_pairs, val_pairs,
                                    heldout.corpus_sha256(config.task, pairs))
        runs.start(out, config, token_level(config), log)
        translator = build(config, train_pairs)
        model = translator.model
        optimizer = arch.make_optimizer(model, config)
        schedule = arch.make_schedule(optimizer, config)
        longest = max(len(tokenize(s, translator.level)) for s, _ in train_pairs)
        examples = [(encode_source(s, translator.src_vocab, translator.level,
                                   config.reverse_input),
                     encode_target(t, translator.tgt_vocab, translator.level))
                    for s, t in train_pairs]
        history, made, started = [], 0, time.process_time()

        def spent():
            if updates is not None:
                return made >= updates
            return time.process_time() - started >= budget

        def used():                     # after every update: is the budget spent?
            nonlocal made
            made += 1
            return spent()

        model.train()
        while not history or not spent():
            epoch, before, epoch_started = len(history), made, time.process_time()
            if schedule is None:
                optimizer.lr = config.lr * config.lr_decay ** epoch
            rng = np.random.default_rng([config.seed, epoch])       # as `train` shuffles
            loss = run_epoch(model, optimizer, examples, config, rng, epoch, log, schedule,
                             until=used, watch=watch)
            history.append({"epoch": epoch + 1, "loss": loss, "updates": made - before,
                            "cpu_seconds": time.process_time() - epoch_started})
        seconds = time.process_time() - started
        model.eval()
        config = dataclasses.replace(config, epochs=len(history))      # the epochs begun
        save_run(out, config, translator, optimizer, history, split, longest)
    per_epoch = -(-len(examples) // config.batch_size)
    log(message("papers.budget_done", updates=made, epochs=made / per_epoch, batches=per_epoch,
                seconds=seconds, loss=history[-1]["loss"]))
    return translator, {"updates": made, "cpu_seconds": seconds,
                        "batches_per_epoch": per_epoch, "epochs": made / per_epoch}
