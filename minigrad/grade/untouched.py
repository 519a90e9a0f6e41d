"""The grader's own files, unchanged by a grading.

The graded code's process may write only in its temporary folder (audit.py), but code in C
(ctypes, an extension module, PyTorch's file functions called by their C names) writes
without an audit event. A file that rewrote the grader's entry point that way would have every
later grading print "passed". So the grader notes the contents of the project's packages'
files before each grading (`fingerprint`) and compares after it: a file changed, added or
removed fails that grading, with its name (`changed_files`).

The bytecode caches (__pycache__/*.pyc) count too: Python runs a cache whose header carries
its source's modification time and size instead of the source, so a forged one (stamped
so) is what every later process importing that module runs, the grader's comparisons
included. The graded code's process writes none (PYTHONDONTWRITEBYTECODE, process.py); another
process may, meanwhile, so a cache that holds exactly what its source compiles to is no
change, and a removed one is none either (Python compiles the source again). Any other changed
cache fails the grading and is removed, so that the next process compiles the source. A cache
forged while no grading runs is not found here.
"""

import hashlib
import importlib.util
import marshal
import os
from pathlib import Path


def fingerprint(folders):
    """{path: sha256 of its bytes} of every file in `folders` (the project's packages), their
    bytecode caches included."""
    found = {}
    for folder in folders:
        for where, names, files in os.walk(folder):
            names.sort()
            for name in sorted(files):
                path = Path(where) / name
                try:
                    found[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
                except OSError:
                    found[str(path)] = None
    return found


def changed_files(before, folders):
    """The files in `folders` whose contents differ from `before` (fingerprint()), or that
    were added or removed since, but for caches that are harmless (`harmless_cache`): sorted
    paths. A changed cache among them is removed."""
    after = fingerprint(folders)
    changed = sorted(path for path in set(before) | set(after)
                     if before.get(path, "") != after.get(path, ""))
    changed = [path for path in changed if not harmless_cache(path, path in after)]
    for path in changed:
        if is_cache(path) and path in after:
            try:
                os.remove(path)
            except OSError:
                pass
    return changed


def is_cache(path):
    return os.path.basename(os.path.dirname(path)) == "__pycache__" and path.endswith(".pyc")


def harmless_cache(path, there):
    """Whether `path`, a changed file, is a bytecode cache that was removed (`there` False) or
    holds exactly the code its source compiles to (compared as code objects: the same
    bytecode, constants, names, line table)."""
    if not is_cache(path):
        return False
    if not there:
        return True
    try:
        source = importlib.util.source_from_cache(path)
        data = Path(path).read_bytes()
        if data[:4] != importlib.util.MAGIC_NUMBER:
            return False
        level = int(path.rsplit(".opt-", 1)[1][0]) if ".opt-" in path else 0
        compiled = compile(Path(source).read_bytes(), source, "exec", dont_inherit=True,
                           optimize=level)
        return marshal.loads(data[16:]) == compiled
    except (OSError, ValueError, EOFError, TypeError, SyntaxError, IndexError):
        return False


def wrote_into_the_grader(exercise, changed):
    """The failure message for a grading after which the grader's files had changed."""
    shown = ", ".join(changed[:3]) + (f" and {len(changed) - 3} more" if len(changed) > 3 else "")
    caches = (" (the changed bytecode caches were removed: Python compiles their sources "
              "again)" if any(is_cache(path) for path in changed) else "")
    return (f"{exercise.name}: the grader's own files changed while your code was graded "
            f"({shown}): the graded code wrote into the grader{caches}. Put them back (git "
            f"checkout, or reinstall) before grading again.")
