"""The audit hook that guards the graded code's process (child.py) for as long as it runs:
`sys.addaudithook`, installed before the student's file is loaded (Python has no call to remove
one).

- the grade packages' stored expected values (expected.npz) cannot be opened, nor the
  reference solutions in the project's tests (tests/reference/, in a clone that has them):
  importing a reference, loading it from its path or a link to it, `exec` of its source read
  here, copying it elsewhere to load the copy, reading the expected values, all fail;
- nothing else can be read but the student's own folder, the project's packages, installed
  libraries and the system's library and data folders, and no `.git` folder anywhere
  (readable.py): another copy of the project, or the clone's object store, holds the answers;
- no other process can be started (a copy made by `cp`, a grader of one's own), nor sent a
  signal (`os.kill` of the grader, to stop or kill it), nor have its files under /proc opened
  (the grader's memory holds the right answers: /proc/PID/maps says where, /proc/PID/mem
  holds them); the process's own stay open;
- `gc.get_objects` and its kin are refused: they reach the hook's own data;
- no file can be written, moved or removed outside the temporary folder: a graded file that
  rewrote the grader's code (or numpy's) on disk would pass its next grading, and others';
- `sys.setprofile` called from outside minigrad's own code (trusted.py: its code objects, not
  the file a code object names) is noted: it would switch off the watch for the project's own
  versions of the piece (answers.py); so is `sys.settrace` (a
  trace function runs inside this hook, between its check of a path and the open), and
  replacing the `__code__` of a function of the grader or the project (other code may:
  asyncio replaces one of its own when imported);
- every path is read as the call read it (paths.py): a path given as an object that could name
  one file to the call and another to this check (its own `__fspath__`) is noted, and so is
  replacing a function this check reads paths with (`os.path.realpath`), or one of this
  module's own, checked at every event: put back after the call, it would be the same again
  when child.py compares the grader's modules at the end.

Each is noted as a reason (refusals.py: its kind, and its words in the language of the
messages), and the solution fails (`refusals.refusal_text` says why), except a process that
well-known libraries start and do without (`quietly_refused`). None of it is a wall: code in
that process set on getting round it can (through the interpreter's C API, say).
"""

import fnmatch
import functools
import os
import sys

from minigrad.grade.paths import placed, plain_arguments, readers_changed, real, snapshot
from minigrad.grade.readable import readable_places, unreadable
from minigrad.grade.refusals import reason
from minigrad.grade.torch_files import import_refused
from minigrad.grade.trusted import THREADING, own_code, trusted_frame
from minigrad.messages import message

PROCESS_EVENTS = ("subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn",
                  "os.fork", "os.forkpty", "pty.spawn")
FILE_EVENTS = ("open", "os.link", "os.symlink", "shutil.copyfile")
READ_EVENTS = ("open", "os.link", "shutil.copyfile", "os.symlink")   # the first is read
LIST_EVENTS = ("os.listdir", "os.scandir")
CHANGE_EVENTS = {"os.rename": (0, 1), "os.remove": (0,), "os.rmdir": (0,), "os.mkdir": (0,),
                 "os.truncate": (0,), "os.chmod": (0,), "os.chown": (0,), "os.utime": (0,),
                 "os.link": (0, 1), "os.symlink": (1,), "shutil.copyfile": (1,),
                 "shutil.rmtree": (0,), "os.setxattr": (0,),
                 "os.removexattr": (0,)}            # the arguments that name what changes
WRITING = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC
SIGNAL_EVENTS = ("os.kill", "os.killpg")
NAMED_PLACES = {"sqlite3.connect": 0, "socket.bind": 1}  # each makes a file at a path it names
GC_EVENTS = ("gc.get_objects", "gc.get_referrers", "gc.get_referents")   # finds the hook's data
# A new interpreter in the same process (_xxsubinterpreters, _interpreters) starts without this
# hook and without the profile hook: whatever runs in it is unseen, so none may start.
INTERPRETER_EVENTS = ("cpython.PyInterpreterState_New",)
EVENTS = frozenset(PROCESS_EVENTS + FILE_EVENTS + LIST_EVENTS + SIGNAL_EVENTS + GC_EVENTS
                   + tuple(CHANGE_EVENTS) + tuple(NAMED_PLACES) + INTERPRETER_EVENTS
                   + ("sys.setprofile", "sys.settrace", "object.__setattr__", "import"))


def guard(blocked, scratch, project=(), solution_folder=None):
    """Install the audit hook; return the list it notes refusals in, each a Reason
    (refusals.py). `blocked`: [(path, what it is)] no one may open here
    (process.blocked_files): a file, or a folder and all in it; `scratch`: the one folder the
    graded code may write in, this grading's own temporary folder (not the system's: a
    checkout or an install may sit inside that one);
    `project`: the folders of the project's packages, whose functions' code may not be replaced;
    with `solution_folder` and `scratch`, what besides installed libraries it may read
    (readable.py).

    The hook is a `functools.partial` of `refused_or_not` over frozen data (tuples, frozensets,
    a string): no flag or dict in it that `gc.get_objects()` finds and flips or empties. (A
    partial can still be rebuilt by `__setstate__`, and this module's globals replaced: code in
    this process can reach everything in it.)"""
    files = tuple((path if path.startswith("*") else os.path.realpath(path), what)
                  for path, what in blocked)                    # "*/...": anywhere (fnmatch)
    caches = tuple((os.path.join(os.path.dirname(file), "__pycache__"),
                    os.path.splitext(os.path.basename(file))[0] + ".", what)
                   for file, what in files if file.endswith(".py"))   # reference.cpython-311.pyc
    noted = []
    readable = readable_places(solution_folder, scratch, project)
    scratch = os.path.realpath(scratch) + os.sep
    project = tuple(os.path.realpath(folder) + os.sep for folder in project) + (
        os.path.realpath(THREADING),)
    sys.addaudithook(functools.partial(hook, files, caches, scratch, os.getpid(), project,
                                       readable, snapshot(), readers_changed, own_code(), noted))
    return noted


def hook(files, caches, scratch, own, project, readable, kept, replaced, trusted, noted, event,
         args):
    if event not in EVENTS:             # the watch for answers raises events on every call
        return                          # (builtins.id, ...): those pass at once
    name = replaced(kept)               # what the hook relies on, replaced (paths.py)
    why = None if name is None else reason("replaces", name=name)
    if why is None and event == "import":
        why = import_refused(args[0])               # torch past the finder that wraps it
    if why is None and quietly_refused(event, args):
        raise PermissionError(message("refusal.refused_quietly"))
    if why is None:
        args, why = plain_arguments(event, args)    # each path as the call read it (paths.py)
    for reading in placed(event, args) if why is None else ():  # relative: from each folder
        why = refused(files, caches, scratch, own, project, trusted, event, reading) or \
            not_readable(readable, event, reading)
        if why is not None:
            break
    if why is not None:
        noted.append(why)
        raise PermissionError(message("refusal.refused", why=why))


def quietly_refused(event, args):
    """A process that well-known libraries start at import and do without when it fails,
    refused without failing the solution: matplotlib runs `fc-list` to list the fonts when it
    builds its font cache (in the grading's temporary folder, MPLCONFIGDIR, so at every
    grading), and lists the font folders itself when that fails. Refused, it does not run: a
    solution gains nothing by it."""
    if event != "subprocess.Popen":
        return False
    command = args[1] if len(args) > 1 else None
    first = command[0] if isinstance(command, (list, tuple)) and command else command
    return isinstance(first, (str, bytes)) and os.fsdecode(first) == "fc-list"


def changed(scratch, event, args):
    """The paths outside the temporary folder that the event writes to or changes (`args` as
    paths.placed gives them: absolute). Opening a folder counts, for reading too: its handle,
    as `dir_fd`, would name files in it. An open file's number stands for its file."""
    if event == "open":
        writes = isinstance(args[2], int) and args[2] & WRITING
        paths = [args[0]] if writes or folder(args[0]) else []
    elif event in NAMED_PLACES:
        paths = [args[NAMED_PLACES[event]]]
        if not isinstance(paths[0], (str, bytes)) or paths[0] in (":memory:", "", b"") or \
                paths[0][:1] in ("\0", b"\0"):             # a database in memory, an abstract
            return []                                       # socket, an address: no file
    elif event == "os.mkdir" and args[2] in (None, -1) and folder(args[0]):
        return []               # an existing folder made again (os.makedirs(exist_ok=True)):
                                # it fails and changes nothing
    else:
        paths = [real(event, args[i], i) for i in CHANGE_EVENTS.get(event, ()) if i < len(args)]
        return outside_of(scratch, paths)
    return outside_of(scratch, [real(event, path) for path in paths])


def outside_of(scratch, paths):
    """The real paths among `paths` outside the temporary folder `scratch`."""
    return [path for path in paths if path is not None and path != os.devnull
            and not path.startswith(scratch)
            and path != scratch.rstrip(os.sep)]         # O_TMPFILE opens the folder itself


def folder(path):
    """Whether `path` (a path, or an open file's number) names a folder."""
    if isinstance(path, int) or path is None:
        return False
    return os.path.isdir(os.fsdecode(os.fspath(path)))


def blocked_file(files, caches, path):
    """(what it is, its file name) when `path` is a blocked file, in a blocked folder, or a
    blocked module's compiled file; else None."""
    if isinstance(path, int) or path is None:               # an open file descriptor
        return None
    full = os.path.realpath(os.fsdecode(os.fspath(path)))
    folder, name = os.path.split(full)
    what = next((what for file, what in files
                 if full == file or full.startswith(file + os.sep)), None) or next(
        (what for where, stem, what in caches if folder == where and name.startswith(stem)),
        None) or next((what for file, what in files
                       if file.startswith("*") and fnmatch.fnmatchcase(full, file)), None)
    pyc = os.path.basename(folder) == "__pycache__"         # name the source, not its .pyc
    return None if what is None else (what, name.split('.')[0] + '.py' if pyc else name)


def other_process(path, own):
    """The path, when `path` names something under /proc of a process other than `own` (its
    memory, its maps, its open files, its root and working folders); else None. Read both as
    written (/proc/PID/root/... leads elsewhere) and with its links followed (/proc/self/..,
    a relative path from a folder in /proc)."""
    if isinstance(path, int) or path is None:
        return None
    text = os.fsdecode(os.fspath(path))
    for candidate in (os.path.abspath(text), os.path.realpath(text)):
        parts = candidate.split(os.sep)
        if len(parts) > 2 and parts[1] == "proc" and parts[2].isdigit() and int(parts[2]) != own:
            return candidate
    return None


def refused(files, caches, scratch, own, project, trusted, event, args):
    """Why the event is refused, a Reason (refusals.py), or None."""
    found = blocked_file(files, caches, args[0]) if event in FILE_EVENTS else None
    if found is not None:
        return reason("opens", what=found[0], file=found[1])
    elsewhere = other_process(args[0], own) if event in FILE_EVENTS + LIST_EVENTS else None
    if elsewhere is not None:
        return reason("opens_process", path=elsewhere)
    outside = changed(scratch, event, args)
    if outside and event == "open" and folder(args[0]):
        return reason("writes_by_folder", path=outside[0])
    if outside:
        return reason("writes", path=outside[0])
    if event in PROCESS_EVENTS:
        return reason("process", event=event)
    if event in SIGNAL_EVENTS and (event == "os.killpg" or args[0] != own):
        return reason("signal", event=event)
    if event in GC_EVENTS:
        return reason("objects", event=event)
    if event in INTERPRETER_EVENTS:
        return reason("interpreter")
    if event in ("sys.setprofile", "sys.settrace") and \
            not trusted_frame(sys._getframe(1).f_back, trusted):
        return reason("profile", event=event)
    if (event == "object.__setattr__" and args[1] == "__code__" and projects(args[0], project)
            and not trusted_frame(sys._getframe(1).f_back, trusted)):
        return reason("code", function=f"{getattr(args[0], '__qualname__', 'a function')}")
    return None


def not_readable(readable, event, args):
    """The Reason 'reads PATH, why it may not,' when the event reads a file the graded code
    may not read (readable.py), or lists a git folder; else None."""
    path = args[0] if event in READ_EVENTS + LIST_EVENTS and args else None
    if not isinstance(path, (str, bytes)):
        return None                     # an open file's number, or the working folder
    why = unreadable(path, readable)
    if why is None or (event in LIST_EVENTS and why != "git"):
        return None
    return reason(f"reads_{why}", path=os.path.realpath(os.fsdecode(path)))


def projects(function, project):
    """Whether `function` is the project's (the grader's, the watched answers', any of the
    project's packages': by its code's file, or by its module, for a decorated function whose
    code is the decorator's, as @contextmanager's) or threading's (whose setprofile hands the
    watch to new threads). Other code may be replaced: asyncio replaces one of its own
    functions' code when imported (types.coroutine), and a solution's own are its own."""
    file = getattr(getattr(function, "__code__", None), "co_filename", None)
    module = getattr(function, "__module__", None)
    packages = {os.path.basename(folder.rstrip(os.sep)) for folder in project}
    if isinstance(module, str) and module.partition(".")[0] in packages:
        return True
    if not isinstance(file, str):
        return False
    file = os.path.realpath(file)
    return any(file == folder or file.startswith(folder) for folder in project)
