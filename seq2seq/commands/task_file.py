"""A run's pairs file (--task FILE): where it is, and whether a resume names the same data.

What a user typed for --task ("p.txt", "./p.txt", "../data/p.txt") is a path from the folder
the run was started in; from any other folder it names another file, or none. So the checkpoint
keeps, beside the config's `task` as typed, the file the run read:

    "task_file":  {"path": "/home/ana/data/p.txt",   the file's absolute, resolved path
                   "sha256": "9f86d0..."}            its bytes' sha256 (the split's
                                                     corpus_sha256 too); None for a built-in task

`train --resume` without --task reads that path, from whatever folder it runs in, and says which
file is missing if it is gone. The checkpoint may come from someone else, so the path it names is
taken at its word only once the file there is shown to be the one the run trained on
(`is_recorded_file`): a regular file, outside /proc, /dev and /sys, no larger than a pairs file
may be, whose sha256 is the recorded one; nothing of any other file is parsed or shown.

With --task, it takes another spelling of the same file (`same_task`), and --columns by their
numbers (`same_columns`): "01,2" is "1,2", and "1,2" is no --columns at all on a file whose every
line has two columns. The data itself is compared later, by its hash
(seq2seq.commands.train.check_same_data).
"""

import os
import stat
from pathlib import Path

from seq2seq.commands.messages import message
from seq2seq.data import heldout, tasks
from seq2seq.data.corpus import MAX_FILE_BYTES

# Folders whose files are the system's, not data: /proc/self/environ is a "regular file" there.
SYSTEM_FOLDERS = ("/proc", "/dev", "/sys")


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
    any folder. Refused, naming the file and the way out, when it is no longer there, or when
    what is there is not the file the run trained on (`is_recorded_file`): then nothing of it
    has been parsed or shown."""
    path = recorded_path(state)
    if path is None:
        return path
    typed = state["config"]["task"]
    if not os.path.lexists(path):
        how = "" if typed == path else message("task_file.typed", typed=typed)
        raise FileNotFoundError(message("task_file.gone", out=out, path=path, how=how))
    if not is_recorded_file(path, recorded_sha256(state)):
        raise ValueError(message("task_file.cannot_resume", out=out, why=not_the_file(path)))
    return path


def not_the_file(path):
    """What is said of a recorded path that `is_recorded_file` refuses."""
    return message("task_file.not_the_file", path=path)


def is_recorded_file(path, digest):
    """Whether `path` is the pairs file whose sha256 the run recorded (`digest`): its
    `hashed_bytes` are those. Only hashed, never parsed: a checkpoint from someone else may
    name any file (/etc/shadow), and what it holds must not reach an error message."""
    return isinstance(digest, str) and hashed_bytes(path) == digest


def hashed_bytes(path):
    """The sha256 of the file at `path` if it may be a pairs file at all: a regular file, not in
    SYSTEM_FOLDERS, no larger than MAX_FILE_BYTES, that can be read; else None, and nothing of
    it read."""
    try:
        real = os.path.realpath(path)
        if any(real == folder or real.startswith(folder + "/") for folder in SYSTEM_FOLDERS):
            return None
        found = os.stat(real)
        if not stat.S_ISREG(found.st_mode) or found.st_size > MAX_FILE_BYTES:
            return None
        return heldout.file_sha256(real)
    except (OSError, tasks.CorpusError):
        return None


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
        return heldout.file_sha256(given) == recorded_sha256(state)
    except (OSError, tasks.CorpusError):
        return False


def recorded_sha256(state):
    """The sha256 of the pairs file the run recorded (task_file's, or in an older checkpoint the
    split's corpus_sha256); None if it recorded none."""
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
