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
                 "path", "sep")),
           (posixpath, ("realpath", "_joinrealpath", "abspath", "normpath", "_path_normpath",
                        "isabs", "join", "split", "basename", "isdir", "os", "stat",
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
    """(args with every path argument plain, None), or (args, why it is refused)."""
    places = PATH_ARGUMENTS.get(event, ())
    if not places:
        return args, None
    found = list(args)
    for i in places:
        if i >= len(found) or (event == "socket.bind" and type(found[i]) is tuple):
            continue                        # no such argument; an address, not a path
        value = plain(found[i])
        if isinstance(value, TypeError):
            return args, (f"names a path with an object of its own type ({value}), which "
                          f"could name one file to the check and another to the call ({event})")
        found[i] = value
    return tuple(found), None


# The path arguments that may be relative to a folder's handle: {path's: dir_fd's}.
DIR_FDS = {"os.rename": {0: 2, 1: 3}, "os.remove": {0: 1}, "os.rmdir": {0: 1},  # path: dir_fd
           "os.mkdir": {0: 2}, "os.chmod": {0: 2}, "os.chown": {0: 3}, "os.utime": {0: 3},
           "os.link": {1: 3}, "os.symlink": {1: 2}}


def against(path, args, at):
    """`path` as the event names it: a relative one given with a folder's handle (`dir_fd`, in
    argument `at`: shutil.rmtree removes a folder's files by name, relative to its handle) is
    joined to that folder's path, not to the working folder."""
    dir_fd = args[at] if at is not None and at < len(args) else None
    if not isinstance(dir_fd, int) or dir_fd < 0 or isinstance(path, int) or path is None:
        return path
    path = os.fsdecode(os.fspath(path))
    if os.path.isabs(path):
        return path
    return os.path.join(os.readlink(f"/proc/self/fd/{dir_fd}"), path)
