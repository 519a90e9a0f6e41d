"""The grader's own files, unchanged by a grading.

The graded code's process may write only in its temporary folder (audit.py), but code in C
(ctypes, an extension module, PyTorch's file functions called by their C names) writes
without an audit event. A file that rewrote the grader's entry point that way would have every
later grading print "passed". So the grader notes the contents of the project's packages'
files before each grading (`fingerprint`) and compares after it: a file changed, added or
removed fails that grading, with its name (`changed_files`). Compiled files (__pycache__) are
left out: Python rewrites them itself, in any process that imports the package.
"""

import hashlib
import os
from pathlib import Path


def fingerprint(folders):
    """{path: sha256 of its bytes} of every file in `folders` (the project's packages)."""
    found = {}
    for folder in folders:
        for where, names, files in os.walk(folder):
            names[:] = sorted(name for name in names if name != "__pycache__")
            for name in sorted(files):
                path = Path(where) / name
                try:
                    found[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
                except OSError:
                    found[str(path)] = None
    return found


def changed_files(before, folders):
    """The files in `folders` whose contents differ from `before` (fingerprint()), or that
    were added or removed since: sorted paths."""
    after = fingerprint(folders)
    return sorted(path for path in set(before) | set(after)
                  if before.get(path, "") != after.get(path, ""))


def wrote_into_the_grader(exercise, changed):
    """The failure message for a grading after which the grader's files had changed."""
    shown = ", ".join(changed[:3]) + (f" and {len(changed) - 3} more" if len(changed) > 3 else "")
    return (f"{exercise.name}: the grader's own files changed while your code was graded "
            f"({shown}): the graded code wrote into the grader. Put them back (git checkout, "
            f"or reinstall) before grading again.")
