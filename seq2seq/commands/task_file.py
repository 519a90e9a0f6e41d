"""A run's pairs file (--task FILE): where it is, and whether a resume names the same data.

What a user typed for --task ("p.txt", "./p.txt", "../data/p.txt") is a path from the folder
the run was started in; from any other folder it names another file, or none. So the checkpoint
keeps, beside the config's `task` as typed, the file the run read:

    "task_file":  {"path": "/home/ana/data/p.txt",   the file's absolute, resolved path
                   "sha256": "9f86d0..."}            its bytes' sha256 (the split's
                                                     corpus_sha256 too); None for a built-in task

`train --resume` without --task reads that path, from whatever folder it runs in, and says which
file is missing if it is gone. With --task, it takes another spelling of the same file
(`same_task`), and --columns by their numbers (`same_columns`): "01,2" is "1,2", and "1,2" is no
--columns at all on a file whose every line has two columns. The data itself is compared later,
by its hash (seq2seq.commands.train.check_same_data).
"""

import os
from pathlib import Path

from seq2seq.data import tasks
from seq2seq.data.heldout import file_sha256


def record(path, digest):
    """The checkpoint's task_file entry for the pairs file at `path` (None: a built-in task)."""
    return None if path is None else {"path": str(Path(path).resolve()), "sha256": digest}


def recorded_path(state):
    """The pairs file the run read: task_file's absolute path, or, in a checkpoint written
    before that entry, config.task as it was typed (a path from where the run was started).
    None for a built-in task."""
    task = state.get("config", {}).get("task")
    if task is None or task in tasks.TASKS:
        return None
    found = state.get("task_file")
    return found["path"] if isinstance(found, dict) else task


def locate(state, out):
    """The pairs file to read when --resume is not given --task: the one the run read, from
    any folder. Refused, naming the file and the way out, when it is no longer there."""
    path = recorded_path(state)
    if path is None or Path(path).is_file():
        return path
    typed = state["config"]["task"]
    how = "" if typed == path else f" (--task {typed} when the run started)"
    raise FileNotFoundError(f"cannot resume {out}: the pairs file it trained on, {path}{how}, "
                            f"is no longer there: name it, or a copy of it, with --task FILE")


def same_task(saved, given, state):
    """Whether --task `given` names the data of the run whose task was `saved`: the same name
    of a built-in task, or a file that is the recorded one (another spelling of its path) or,
    if that one is gone, holds the same bytes. An older checkpoint records only the path as
    typed, which may name another file from here: then the bytes decide."""
    if saved == given:
        return True
    if saved in tasks.TASKS or given in tasks.TASKS or not Path(given).is_file():
        return False
    path = recorded_path(state)
    try:
        if Path(path).exists() and os.path.samefile(path, given):
            return True
        if Path(path).is_absolute() and Path(path).exists():    # it is there: another file
            return False
        # gone, or only typed (an older run's record) and so perhaps another file from here
        return file_sha256(given) == _recorded_sha256(state)
    except (OSError, tasks.CorpusError):
        return False


def _recorded_sha256(state):
    found = state.get("task_file")
    if isinstance(found, dict):
        return found["sha256"]
    split = state.get("split")
    return split.get("corpus_sha256") if isinstance(split, dict) else None


def same_columns(saved, given, file, sep):
    """Whether --columns `given` reads `file` as `saved` did: the same two numbers ("01,2" is
    "1,2"), or 1,2 against none on a file whose every line has exactly two columns (a run
    trained without --columns read such a file; one trained with 1,2 is read again to see)."""
    if saved == given:
        return True
    if file in tasks.TASKS:                     # a built-in task reads no columns
        return False
    try:
        numbers = [None if c is None else tasks.parse_columns(c) for c in (saved, given)]
    except ValueError:                          # a value check_config refuses
        return False
    if numbers[0] == numbers[1]:
        return True
    if set(numbers) != {None, (1, 2)}:
        return False
    if numbers[0] is None:                      # the run read every line as two columns
        return True
    try:
        tasks.load_pairs(file, sep=sep, columns=None)
    except (OSError, tasks.CorpusError):
        return False
    return True
