"""`python -m seq2seq evaluate RUN`: a run's scores on held-out pairs, and which pairs those are.

By default the pairs are the validation split the run recorded; with a built-in --task, newly
generated pairs less those whose source the run trained on (dropped and counted); with a pairs
file, its pairs, those the run trained on counted. `evaluate_run` is the whole path from the
run folder to the scores; the command prints them, and `compare-architectures`
(seq2seq.papers.architectures) scores its models with it, so both score alike.
"""

import sys

from seq2seq.commands.messages import message


def evaluate_run(run, task=None, sep=None, columns=None, num_examples=None, seed=None,
                 min_len=None, max_len=None, beam_size=1, layer_file=None, warn=None,
                 lengths_note=None):
    """The scores of the run in `run` (Translator.evaluate's, with `seen_in_training` and
    `dropped_as_seen`) on the pairs described above. `warn(line)`: where notes go (stderr);
    `lengths_note(line)`: where the note on a generated task's lengths goes (default: warn),
    which a caller that says it once itself silences."""
    from seq2seq.commands.reports import repair_report
    from seq2seq.commands.train_options import check_pairs_options
    from seq2seq.data import heldout, tasks
    from seq2seq.translator import load_translator
    warn = warn or (lambda line: print(line, file=sys.stderr))
    check_pairs_options(task, sep, columns)
    translator, state = load_translator(run, layer_file)    # refused: report kept
    repair_report(run, log=warn)
    record = heldout.read_record(state, run)
    dropped = 0
    for option, given in (("--num-examples", num_examples), ("--seed", seed)):
        if given is not None and task not in tasks.TASKS:
            raise ValueError(message("evaluate.needs_task", option=option,
                                     tasks=", ".join(tasks.TASKS)))
    if (min_len is not None or max_len is not None) and task not in tasks.TASKS:
        raise ValueError(message("evaluate.lengths_need_task", tasks=", ".join(tasks.TASKS)))
    if task is None:
        if record is None:
            raise ValueError(message("evaluate.no_record", run=run))
        warn_if_changed(state, record, run, warn)
        pairs = [(s, t) for s, t in record["val_pairs"]]
        for i, (source, _) in enumerate(pairs):     # the checkpoint's, not a text of the user's
            problem = translator.source_problem(source)
            if problem is not None:
                raise ValueError(message("evaluate.bad_source", file=checkpoint_file(run), i=i,
                                         problem=problem))
    elif task in tasks.TASKS:
        low, high, origin = heldout.task_lengths(task, state["config"], min_len, max_len)
        if low > high:
            raise ValueError(message("evaluate.min_above_max", low=low, high=high))
        origin = message(f"evaluate.origin_{origin}")
        if high > translator.most_source_tokens():      # refused before any is translated
            raise ValueError(message("evaluate.too_long", task=task, high=high, origin=origin,
                                     most=translator.most_source_tokens()))
        (lengths_note or warn)(message("evaluate.lengths", task=task, low=low, high=high,
                                       origin=origin))
        pairs = tasks.make_task(task, 1000 if num_examples is None else num_examples,
                                seed=12345 if seed is None else seed, min_len=low, max_len=high)
        if record is not None:
            pairs, dropped = heldout.drop_seen(pairs, record)
    else:
        columns = None if columns is None else tasks.parse_columns(columns)
        pairs = tasks.load_pairs(task, sep="\t" if sep is None else sep, columns=columns,
                                 level=translator.level)
    if record is None:
        warn(message("evaluate.no_split", run=run))
    if not pairs:
        raise ValueError(message("evaluate.split_empty") if task is None
                         else message("evaluate.all_seen", dropped=dropped, task=task))
    scores = translator.evaluate(pairs, beam_size=beam_size)
    seen = (None if record is None
            else sum(heldout.seen_in_training([s for s, _ in pairs], record)))
    scores.update(seen_in_training=seen, dropped_as_seen=dropped)
    if scores["blank_outputs"] == scores["examples"]:
        warn(message("evaluate.all_blank", count=scores["examples"]))
    return scores


def warn_if_changed(state, record, run, warn):
    """One line, to `warn`, when the run's pairs file is no longer what it trained on: the score
    is still on the recorded split, but training again would not give this run. The file is the
    one the run recorded (seq2seq.commands.task_file), from any folder, and it is only hashed,
    and only if it is a regular file of a pairs file's size outside the system's folders: the
    checkpoint may name any file (task_file.hashed_bytes)."""
    import os

    from seq2seq.commands.task_file import hashed_bytes, not_the_file, recorded_path
    task = recorded_path(state)
    if task is None or not os.path.lexists(task):
        return
    digest = hashed_bytes(task)
    if digest == record["corpus_sha256"]:
        return
    what = (not_the_file(task) if digest is None
            else message("evaluate.file_changed", task=task))
    warn(message("evaluate.not_as_trained", what=what, count=len(record["val_pairs"])))


def checkpoint_file(run):
    """The checkpoint of `run` (a run folder, or the file itself)."""
    from pathlib import Path

    from seq2seq.translator import CHECKPOINT
    return Path(run) / CHECKPOINT if Path(run).is_dir() else Path(run)
