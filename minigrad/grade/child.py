"""The graded code's own process: `python -m minigrad.grade.child REQUEST RESULT`.

The grader (process.py) starts this process with a request: the student's file, the function
it must define, the cases' inputs and the upstream gradients. Here the file is loaded, the
function called on every case, and what came out is written to RESULT: outputs, gradients,
finite differences, the named intermediates, and the diagnosis's text (which line made what).
Nothing here decides a verdict. The grader compares the results with the reference in its own
process, which never imports the student's code: whatever the graded code does here (print a
'passed' line, end the process, replace the grader's functions) changes this process alone.

First this process forks (`step_aside`): the graded code runs in the new one, whose parent
is this one, not the grader, and each dies with its parent (`die_with_parent`).

Before the student's file is loaded, an audit hook (`sys.addaudithook`; Python has no call to
remove one) guards the process for as long as it runs (`guard`):

- the grade packages' stored expected values (expected.npz) cannot be opened, nor the
  reference solutions in the project's tests (tests/reference/, in a clone that has them):
  importing a reference, loading it from its path or a link to it, `exec` of its source read
  here, copying it elsewhere to load the copy, reading the expected values, all fail;
- no other process can be started (a copy made by `cp`, a grader of one's own), nor sent a
  signal (`os.kill` of the grader, to stop or kill it);
- `gc.get_objects` and its kin are refused: they reach the hook's own data;
- no file can be written, moved or removed outside the temporary folder: a graded file that
  rewrote the grader's code (or numpy's) on disk would pass its next grading, and others';
- `sys.setprofile` called from outside minigrad's own files is noted: it would switch off the
  watch for the project's own versions of the piece (answers.py); so is replacing a function's
  `__code__`.

And the grader's modules here (minigrad.grade.*, minigrad.gradcheck) are compared, name by
name, before the student's file is loaded and after their code has run (`unchanged`): a name
replaced, added or removed (the watch swapped for one that watches nothing) is noted too.

Each of these is reported as a refusal, and the solution fails. None of it is a wall: code in
this process set on getting round it can (through the interpreter's C API, say). It guards the
watch for answers against the plain ways round it; the verdict needs no guard, as it is written
in the grader's own process from the numbers.
"""

import ctypes
import functools
import importlib
import json
import os
import signal
import sys
import tempfile
import threading
import types
from types import SimpleNamespace

import numpy as np

from minigrad.debug.watch import MINIGRAD

PROCESS_EVENTS = ("subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn",
                  "os.fork", "os.forkpty", "pty.spawn")
FILE_EVENTS = ("open", "os.link", "os.symlink", "shutil.copyfile")
CHANGE_EVENTS = {"os.rename": (0, 1), "os.remove": (0,), "os.rmdir": (0,), "os.mkdir": (0,),
                 "os.truncate": (0,), "os.chmod": (0,), "os.chown": (0,), "os.utime": (0,),
                 "os.link": (1,), "os.symlink": (1,), "shutil.copyfile": (1,),
                 "shutil.rmtree": (0,)}            # the arguments that name what changes
WRITING = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC
THREADING = os.path.abspath(threading.__file__)
SIGNAL_EVENTS = ("os.kill", "os.killpg")
NAMED_PLACES = {"sqlite3.connect": 0, "socket.bind": 1}  # each makes a file at a path it names
GC_EVENTS = ("gc.get_objects", "gc.get_referrers", "gc.get_referents")   # finds the hook's data
EVENTS = frozenset(PROCESS_EVENTS + FILE_EVENTS + SIGNAL_EVENTS + GC_EVENTS + tuple(CHANGE_EVENTS)
                   + tuple(NAMED_PLACES)
                   + ("sys.setprofile", "object.__setattr__"))


def guard(blocked, scratch):
    """Install the audit hook; return the list it notes refusals in (their messages' middles).
    `blocked`: [(path, what it is)] no one may open here (process.blocked_files): a file, or a
    folder and all in it; `scratch`: the one folder the graded code may write in, this grading's
    own temporary folder (not the system's: a checkout or an install may sit inside that one).

    The hook is a `functools.partial` of `refused_or_not` over frozen data (tuples, frozensets,
    a string): no flag or dict in it that `gc.get_objects()` finds and flips or empties. (A
    partial can still be rebuilt by `__setstate__`, and this module's globals replaced: code in
    this process can reach everything in it.)"""
    files = tuple((os.path.realpath(path), what) for path, what in blocked)
    caches = tuple((os.path.join(os.path.dirname(file), "__pycache__"),
                    os.path.splitext(os.path.basename(file))[0] + ".", what)
                   for file, what in files if file.endswith(".py"))   # reference.cpython-311.pyc
    noted = []
    scratch = os.path.realpath(scratch) + os.sep
    sys.addaudithook(functools.partial(hook, files, caches, scratch, os.getpid(), noted))
    return noted


def hook(files, caches, scratch, own, noted, event, args):
    if event not in EVENTS:             # the watch for answers raises events on every call
        return                          # (builtins.id, ...): those pass at once
    why = refused(files, caches, scratch, own, event, args)
    if why is not None:
        noted.append(why)
        raise PermissionError(f"the grader refuses this: {why}")


def changed(scratch, event, args):
    """The paths outside the temporary folder that the event writes to or changes. Opening a
    folder counts, for reading too: its handle, as `dir_fd`, would let later calls name files
    in it by a relative path that this check reads against the working folder."""
    if event == "open":
        writes = isinstance(args[2], int) and args[2] & WRITING
        paths = [args[0]] if writes or folder(args[0]) else []
    elif event in NAMED_PLACES:
        paths = [args[NAMED_PLACES[event]]]
        if not isinstance(paths[0], (str, bytes)) or paths[0] in (":memory:", "", b"") or \
                paths[0][:1] in ("\0", b"\0"):             # a database in memory, an abstract
            return []                                       # socket, an address: no file
    else:
        paths = [args[i] for i in CHANGE_EVENTS.get(event, ()) if i < len(args)]
    paths = [os.path.realpath(os.fsdecode(os.fspath(path))) for path in paths
             if path is not None and not isinstance(path, int)]
    return [path for path in paths if path != os.devnull and not path.startswith(scratch)
            and path != scratch.rstrip(os.sep)]         # O_TMPFILE opens the folder itself


def folder(path):
    """Whether `path` (a path, or an open file's number) names a folder."""
    if isinstance(path, int) or path is None:
        return False
    return os.path.isdir(os.fsdecode(os.fspath(path)))


def blocked_file(files, caches, path):
    """'what it is (file name)' when `path` is a blocked file, in a blocked folder, or a
    blocked module's compiled file; else None."""
    if isinstance(path, int) or path is None:               # an open file descriptor
        return None
    full = os.path.realpath(os.fsdecode(os.fspath(path)))
    folder, name = os.path.split(full)
    what = next((what for file, what in files
                 if full == file or full.startswith(file + os.sep)), None) or next(
        (what for where, stem, what in caches if folder == where and name.startswith(stem)),
        None)
    pyc = os.path.basename(folder) == "__pycache__"         # name the source, not its .pyc
    return None if what is None else f"{what} ({name.split('.')[0] + '.py' if pyc else name})"


def refused(files, caches, scratch, own, event, args):
    what = blocked_file(files, caches, args[0]) if event in FILE_EVENTS else None
    if what is not None:
        return f"opens {what}"
    outside = changed(scratch, event, args)
    if outside and event == "open" and folder(args[0]):
        return f"writes to {outside[0]}, or could: it opens that folder, whose handle names files"
    if outside:
        return f"writes to {outside[0]}"
    if event in PROCESS_EVENTS:
        return f"starts another process ({event})"
    if event in SIGNAL_EVENTS and (event == "os.killpg" or args[0] != own):
        return f"sends a signal to another process ({event})"
    if event in GC_EVENTS:
        return f"looks through the interpreter's objects ({event})"
    if event == "sys.setprofile" and not minigrads_own(sys._getframe(1).f_back):
        return "calls sys.setprofile (your file, or a module it imports)"
    if (event == "object.__setattr__" and args[1] == "__code__"
            and not minigrads_own(sys._getframe(1).f_back)):
        return f"replaces the code of {getattr(args[0], '__qualname__', 'a function')}"
    return None


def minigrads_own(caller):
    """Whether the frame `caller` (the one that raised an event; 0 in the hook is the hook's
    own, 1 `refused`) runs a file of the minigrad package, or threading's: a new thread sets
    the profile hook that `threading.setprofile` gave it (the watch, in answers.py)."""
    if caller is None:
        return False
    file = os.path.abspath(caller.f_code.co_filename)
    return file.startswith(MINIGRAD + os.sep) or file == THREADING


def grader_modules():
    """{module: a copy of its names} for the grader's modules loaded here."""
    return {module: dict(vars(module)) for name, module in list(sys.modules.items())
            if name.startswith("minigrad.grade") or name in ("minigrad.gradcheck", "__main__")}


def unchanged(before):
    """None, or the first name of a grader's module that the student's code replaced, added
    or removed since `before` (grader_modules())."""
    for module, names in before.items():
        now = vars(module)
        for name in sorted(set(names) | set(now)):
            if name.startswith("__") and name.endswith("__"):
                continue                    # __warningregistry__ and the like
            if name not in names and isinstance(now[name], types.ModuleType):
                continue                    # a submodule imported since: a package's name
            if names.get(name, unchanged) is not now.get(name, unchanged):
                return f"changes {module.__name__}.{name}, the grader's own code in its process"
    return None


def refusal_text(exercise, why):
    """The failure message for a refusal the hook noted."""
    if why.startswith("writes"):
        return (f"{exercise['name']}: your code {why} while it is graded: it may write files in "
                f"its own temporary folder only ({tempfile.gettempdir()}), so that it cannot "
                f"change the grader, or any other code, for the next grading.")
    if why.startswith("opens"):
        return (f"{exercise['name']}: your code {why}, an answer to this exercise, while it is "
                f"graded: importing or reading it would pass whatever you wrote. Write it "
                f"yourself: reading the answer is allowed, running it is not.")
    if why.startswith("sends a signal"):
        return (f"{exercise['name']}: your code {why} while it is graded: it may signal its own "
                f"process only, so that it cannot stop or kill the grader.")
    return (f"{exercise['name']}: your code {why} while it is graded, which would hide from the "
            f"grader whether it runs an answer to this exercise. Write it yourself: reading the "
            f"answer is allowed, running it is not.")


def read(path):
    """(meta, {name: array}) from an .npz written by `write`; data only, never a pickle."""
    with np.load(path, allow_pickle=False) as found:
        arrays = {name: found[name] for name in found.files}
    return json.loads(str(arrays.pop("meta"))), arrays


def write(path, meta, arrays):
    np.savez(path, meta=np.array(json.dumps(meta)), **arrays)


def resolve(spec):
    """'attention.modules:MultiHeadAttention' -> the class (or function) it names."""
    module, _, name = spec.partition(":")
    found = importlib.import_module(module)
    for part in name.split("."):
        found = getattr(found, part)
    return found


def die_with_parent(parent):
    """Have the kernel kill this process when `parent` ends (PR_SET_PDEATHSIG, Linux; nothing
    elsewhere), and end now if it already has: no graded code lives on without its grader."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError, TypeError):
        pass
    if os.getppid() != parent:
        os._exit(1)


def step_aside():
    """Fork: this process waits for the one that runs the graded code, and ends as it ends
    (128 + the signal, for a signal). So the graded code's `os.getppid()` is this process, not
    the grader: what it sends its parent ends at most this process, which takes its child with
    it (die_with_parent), and the grader sees a process that ended without results."""
    me = os.getpid()
    pid = os.fork()
    if pid == 0:
        die_with_parent(me)
        return
    while True:
        try:
            _, status = os.waitpid(pid, 0)
            break
        except InterruptedError:
            continue
    code = os.waitstatus_to_exitcode(status)
    os._exit(code if code >= 0 else 128 - code)


def main(request_path, result_path, grader=None):
    if grader is not None:
        die_with_parent(int(grader))
    if hasattr(os, "fork"):
        step_aside()
    # No .pyc files for what the student's file imports: they go beside the code, outside the
    # temporary folder, and a .pyc put there is what the next grading would run.
    sys.dont_write_bytecode = True
    meta, arrays = read(request_path)
    from minigrad.grade.solution import SolutionFailed, load_solution, require
    runner = resolve(meta["runner"])
    exercise = SimpleNamespace(**meta["exercise"],
                               answers=tuple(resolve(spec) for spec in meta["watched"]))
    noted = guard(meta["blocked"], os.path.dirname(os.path.abspath(result_path)))
    before, compare = grader_modules(), unchanged       # bound before the student's file runs
    result, facts = {}, {"cases": []}
    try:
        solution = load_solution(meta["path"])
        fn = require(solution, exercise)
        runner(exercise, solution, fn, meta, arrays, result, facts["cases"])
    except SolutionFailed as failure:
        facts["failed"] = str(failure)
    changed = compare(before)
    if noted or changed:
        facts["refused"] = refusal_text(meta["exercise"], noted[0] if noted else changed)
    write(result_path, facts, result)
    os._exit(0)         # now: not after threads the student's code left running, nor its atexit


if __name__ == "__main__":
    main(*sys.argv[1:4])
