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
forged while no grading ran, of a module this process loaded (the grader's own), fails the
next grading before it starts, and is removed (`no_forged_caches`); one of a module it did
not load is not looked for.
"""

import hashlib
import importlib.util
import marshal
import os
import sys
from pathlib import Path

from minigrad.grade.solution import SolutionFailed
from minigrad.messages import message


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
    is not forged."""
    return is_cache(path) and (not there or not forged(path))


def forged(cache):
    """Whether Python would run the bytecode cache `cache` (its magic number is this Python's,
    its stamp its source's: time and size, or the source's hash) and it holds other code than
    its source compiles to (compared as code objects: the same bytecode, constants, names,
    line table). A cache that cannot be read counts as forged."""
    try:
        source = importlib.util.source_from_cache(cache)
        data, code = Path(cache).read_bytes(), Path(source).read_bytes()
        if data[:4] != importlib.util.MAGIC_NUMBER:
            return False                                # another Python's: never run here
        flags = int.from_bytes(data[4:8], "little")
        stat = os.stat(source)
        if flags == 0 and (int.from_bytes(data[8:12], "little") != int(stat.st_mtime) & MASK
                           or int.from_bytes(data[12:16], "little") != stat.st_size & MASK):
            return False                                # stale: Python compiles the source
        if flags & 3 == 3 and data[8:16] != importlib.util.source_hash(code):
            return False
        level = int(cache.rsplit(".opt-", 1)[1][0]) if ".opt-" in cache else 0
        return marshal.loads(data[16:]) != compile(code, source, "exec", dont_inherit=True,
                                                   optimize=level)
    except (OSError, ValueError, EOFError, TypeError, SyntaxError, IndexError):
        return True


MASK = 0xFFFFFFFF
CHECKED = set()         # (cache, its time, size and inode): found not forged in this process


def forged_loaded_caches(folders):
    """The bytecode caches of the modules loaded in this process from `folders` (the project's
    packages: the grader's own code among them) that are forged, removed: a forged cache left
    before this grading started, that this process may have run. Each cache is compiled and
    compared once per process, while it stays as it was."""
    roots = tuple(os.path.realpath(folder) + os.sep for folder in folders)
    found = []
    for module in list(sys.modules.values()):
        cache, file = getattr(module, "__cached__", None), getattr(module, "__file__", None)
        if not isinstance(cache, str) or not isinstance(file, str) or \
                not os.path.realpath(file).startswith(roots):
            continue
        try:
            stat = os.stat(cache)
        except OSError:
            continue                                    # no cache: the source ran
        key = (cache, stat.st_mtime_ns, stat.st_size, stat.st_ino)
        if key in CHECKED:
            continue
        if forged(cache):
            found.append(cache)
            try:
                os.remove(cache)
            except OSError:
                pass
        else:
            CHECKED.add(key)
    return sorted(found)


def no_forged_caches(exercise, folders):
    """Raise SolutionFailed, before a grading starts, when a cache of a module this process
    loaded from `folders` is forged (forged_loaded_caches, which removes it)."""
    caches = forged_loaded_caches(folders)
    if caches:
        raise SolutionFailed(message("refusal.forged_caches", name=exercise.name,
                                     files=", ".join(caches[:3])))


def wrote_into_the_grader(exercise, changed):
    """The failure message for a grading after which the grader's files had changed."""
    shown = ", ".join(changed[:3]) + (message("refusal.and_more", count=len(changed) - 3)
                                      if len(changed) > 3 else "")
    caches = (message("refusal.caches_removed") if any(is_cache(path) for path in changed)
              else "")
    return message("refusal.wrote_into_grader", name=exercise.name, shown=shown, caches=caches)
