"""The paths an audited call names, read by the audit hook (audit.py) exactly as the call read
them.

An audit event hands the hook the object the call was given, not the path the call made of it.
For a str or bytes those are the same. An object of the student's with a `__fspath__` is asked
a second time by the hook, and may answer otherwise (the grader's expected values to the
call, a harmless file to the hook): the hook would pass a path that was never opened. So a
path argument is taken only when asking again cannot change the answer:

- a str or bytes (of a subclass too: the call reads its characters, and so does the hook);
- an int, an open file's number, or None;
- a path of pathlib's own classes, while those classes (and what their `__fspath__` runs) are
  as they were when the hook was installed: its text is computed once and kept on the path;
- an `os.DirEntry` (from `os.scandir`), whose path is fixed when it is made.

Anything else in a path argument (an object with a `__fspath__` of its own, a bytearray for a
socket's address) is refused, with its type named. And `posixpath`'s and `os`'s functions that
the hook reads paths with must be the ones they were when it was installed: a file that
replaced `os.path.realpath` could have the hook read every path as a harmless one.
"""

import builtins
import genericpath
import os
import pathlib
import posixpath
import stat
import sys
from urllib.parse import unquote, urlsplit

from minigrad.grade.refusals import reason

# event -> the positions of its arguments that name a path
PATH_ARGUMENTS = {"open": (0,), "os.link": (0, 1), "os.symlink": (0, 1),
                  "shutil.copyfile": (0, 1), "os.rename": (0, 1), "os.remove": (0,),
                  "os.rmdir": (0,), "os.mkdir": (0,), "os.truncate": (0,), "os.chmod": (0,),
                  "os.chown": (0,), "os.utime": (0,), "shutil.rmtree": (0,),
                  "sqlite3.connect": (0,), "socket.bind": (1,), "os.setxattr": (0,),
                  "os.removexattr": (0,), "os.listdir": (0,), "os.scandir": (0,)}
PATH_CLASSES = (pathlib.PurePath, pathlib.PurePosixPath, pathlib.PureWindowsPath, pathlib.Path,
                pathlib.PosixPath, pathlib.WindowsPath)
FSPATH_NAMES = ("__fspath__", "__str__", "_str")   # str(self), its text computed once, kept
READERS = ((os, ("fspath", "fsdecode", "fsencode", "lstat", "stat", "readlink", "getcwd",
                 "listdir", "path", "sep")),
           (posixpath, ("realpath", "_joinrealpath", "abspath", "normpath", "_path_normpath",
                        "isabs", "join", "split", "basename", "dirname", "isdir", "os", "stat",
                        "genericpath", "_get_sep", "sep", "curdir", "pardir")),
           (genericpath, ("isdir", "os", "stat")), (stat, ("S_ISLNK", "S_ISDIR")),
           (builtins, ("str", "bytes", "int", "type", "isinstance", "issubclass", "len",
                       "tuple", "list", "next", "any", "getattr", "vars", "zip")),
           (sys, ("_getframe", "getprofile")))


def snapshot():
    """What must stay as it is for the hook to decide as the call acts: (pathlib's classes with
    what their __fspath__ reads, the functions the hook reads paths with, and every name of
    the hook's own modules, audit.py and this one: replaced for one call and put back, a
    function of theirs would let that call through unseen, and the grader's comparison of
    its modules after the grading, child.unchanged, would find nothing). Frozen: tuples."""
    # audit.py imports this module: its own is imported here, when the hook is installed
    from minigrad.grade import audit
    classes = tuple((cls, tuple(vars(cls).get(name) for name in FSPATH_NAMES))
                    for cls in PATH_CLASSES)
    own = tuple((module, tuple(name for name in vars(module) if not name.startswith("__")))
                for module in (audit, sys.modules[__name__]))
    readers = tuple((module, tuple((name, getattr(module, name, None)) for name in names))
                    for module, names in READERS + own)
    return classes, readers


def readers_changed(kept):
    """'os.path.realpath' (say) when a function the hook relies on was replaced since `kept`
    (snapshot()); else None."""
    classes, readers = kept
    for module, names in readers:
        for name, value in names:
            if getattr(module, name, None) is not value:
                return f"{module.__name__}.{name}"
    if "str" in vars(pathlib):
        return "pathlib.str"
    for cls, values in classes:
        for name, value in zip(FSPATH_NAMES, values):
            if vars(cls).get(name) is not value:
                return f"pathlib.{cls.__name__}.{name}"
    return None


def restore(kept):
    """Put back what `kept` (snapshot()) holds, so that the grader's own process can write its
    results after a file that replaced them."""
    classes, readers = kept
    for module, names in readers:
        for name, value in names:
            setattr(module, name, value)
    vars(pathlib).pop("str", None)
    for cls, values in classes:
        for name, value in zip(FSPATH_NAMES, values):
            if value is None:
                if name in vars(cls):
                    delattr(cls, name)
            elif vars(cls).get(name) is not value:
                setattr(cls, name, value)


def plain(value):
    """`value`, a path argument, as a str, bytes, int or None the hook may read as the call
    did; or a `TypeError` when it is something that could answer otherwise when asked again."""
    kind = type(value)
    if value is None or kind in (str, bytes) or issubclass(kind, int):
        return value
    if issubclass(kind, str):
        return str.__str__(value)           # its characters, as the call reads them
    if issubclass(kind, bytes):
        return bytes.__getitem__(value, slice(None))
    if kind in PATH_CLASSES or kind is os.DirEntry:
        return os.fspath(value)             # pathlib's own code, unchanged (readers_changed)
    return TypeError(kind.__qualname__)


def plain_arguments(event, args):
    """(args with every path argument plain, None), or (args, why it is refused: a Reason,
    refusals.py)."""
    places = PATH_ARGUMENTS.get(event, ())
    if not places:
        return args, None
    found = list(args)
    for i in places:
        if i >= len(found) or (event == "socket.bind" and type(found[i]) is tuple):
            continue                        # no such argument; an address, not a path
        value = plain(found[i])
        if isinstance(value, TypeError):
            return args, reason("path_object", type=f"{value}", event=event)
        found[i] = value
    return tuple(found), None


# The path arguments that may be relative to a folder's handle: {path's: dir_fd's}.
DIR_FDS = {"os.rename": {0: 2, 1: 3}, "os.remove": {0: 1}, "os.rmdir": {0: 1},  # path: dir_fd
           "os.mkdir": {0: 2}, "os.chmod": {0: 2}, "os.chown": {0: 3}, "os.utime": {0: 3},
           "os.link": {0: 2, 1: 3}, "os.symlink": {1: 2}, "shutil.rmtree": {0: 1}}
# Events whose call may have been given a folder's handle that the event does not carry:
# `os.open(path, flags, dir_fd=...)` raises `open` with the path and flags alone.
HIDDEN_DIR_FD = ("open",)


def placed(event, args):
    """Every reading of `args` (plain_arguments') with each relative path argument made
    absolute, joined to each folder it could be relative to: its `dir_fd`'s folder when the
    event carries one; else the working folder, and, for an event that may have been given a
    handle it does not carry (HIDDEN_DIR_FD), every folder this process holds open, as its
    handle could be that `dir_fd`. A link's target (os.symlink) is read from the link's
    folder. The hook refuses the event if it refuses any of them."""
    places = PATH_ARGUMENTS.get(event, ())
    readings = [list(args)]
    if event == "sqlite3.connect" and args and isinstance(args[0], (str, bytes)) \
            and os.fsdecode(args[0]).startswith("file:"):   # a URI if uri=True (the event
        # does not say): its path is judged as well
        readings.append([unquote(urlsplit(os.fsdecode(args[0])).path), *args[1:]])
    for i in places:
        if i >= len(args) or not isinstance(args[i], (str, bytes)):
            continue
        path = os.fsdecode(args[i])
        if os.path.isabs(path) or (event == "os.symlink" and i == 0):   # a link's target:
            continue                                                    # below
        at = DIR_FDS.get(event, {}).get(i)
        dir_fd = args[at] if at is not None and at < len(args) else None
        folders = [handle_folder(dir_fd)] if isinstance(dir_fd, int) and dir_fd >= 0 \
            else [os.getcwd()] + (open_folders() if event in HIDDEN_DIR_FD else [])
        readings = [reading[:i] + [os.path.join(folder, os.fsdecode(reading[i]))]
                    + reading[i + 1:] for reading in readings for folder in folders]
    if event == "os.symlink" and len(args) > 1 and isinstance(args[0], (str, bytes)) \
            and not os.path.isabs(os.fsdecode(args[0])):
        readings = [[os.path.join(os.path.dirname(os.fsdecode(reading[1])),
                                  os.fsdecode(args[0]))] + reading[1:] for reading in readings]
    return [tuple(reading) for reading in readings]


def handle_folder(number):
    """The path of the folder the handle `number` names (/proc/self/fd)."""
    return os.readlink(f"/proc/self/fd/{number}")


def open_folders():
    """The paths of every folder this process holds a handle to (listing /proc/self/fd raises
    the `os.listdir` audit event: the hook judges that absolute path as any other)."""
    found = []
    for name in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{name}")
        except OSError:                                 # closed since (the listing's own)
            continue
        if os.path.isabs(target) and os.path.isdir(target) and target not in found:
            found.append(target)
    return found


# The path arguments that name the very entry changed, a link itself, not what it leads to
# (os.link follows a link given as its source: the new name is the file's).
NOT_FOLLOWING = {"os.remove": (0,), "os.rmdir": (0,), "os.rename": (0, 1), "os.link": (1,),
                 "os.symlink": (1,), "os.mkdir": (0,), "shutil.rmtree": (0,)}


def real(event, path, place=0):
    """The real path of what `event` changes at `path`, its argument at `place` (a placed
    one, or an open file's
    number: os.fchmod, os.ftruncate, os.utime of a number change its file): a link's own
    place when the event changes the link (removing a link in the temporary folder that
    leads elsewhere changes nothing there). None for a number that names no file on disk (a
    pipe, a socket, a closed number)."""
    if isinstance(path, int):
        try:
            path = os.readlink(f"/proc/self/fd/{path}")
        except OSError:
            return None
        if not os.path.isabs(path):
            return None
    if path is None:
        return None
    text = os.fsdecode(os.fspath(path))
    head, tail = os.path.split(text.rstrip(os.sep))
    if place in NOT_FOLLOWING.get(event, ()) and head and tail not in ("", ".", ".."):
        return os.path.join(os.path.realpath(head), tail)
    return os.path.realpath(text)

