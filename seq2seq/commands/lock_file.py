"""A run folder's lock file, `.lock`: taken with fcntl.flock (a lock on its first byte on
Windows), which the operating system drops when the process ends, however it ends. The rules
it serves are seq2seq.commands.runs's (`hold`); here is only how the file is opened and locked.

A refused command removes the .lock it made (the user's folder is left as it was), so a lock is
only good while its file is still the one in the folder: `take` checks that after locking.
Errors are `error(message)`, the caller's exception class, with one line naming the file.
"""

import contextlib
import os
from pathlib import Path

from minigrad.files import os_reason
from seq2seq.commands.messages import message

LOCK = ".lock"


def take(folder, error):
    """Lock folder/.lock: (its fd, True if this call made the file). A refused command removes
    the .lock it made, which another may have opened just before and locks just after: that
    lock is let go and the file now in the folder opened, or a third command could lock a new
    file at the same time."""
    for _ in range(10):
        fd, made = _open(folder, error)
        try:
            _lock(fd, folder, error)
            if same_file(fd, Path(folder) / LOCK):
                return fd, made
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)                        # removed meanwhile: open the one there now
    raise error(busy(folder))


def same_file(fd, path):
    """Is the open file `fd` the one at `path` now?"""
    with contextlib.suppress(OSError):
        there, held = os.stat(path, follow_symlinks=False), os.fstat(fd)
        return (there.st_dev, there.st_ino) == (held.st_dev, held.st_ino)
    return False


def _open(folder, error):
    """Open folder/.lock, never through a symlink (the pid written in it would land in whatever
    file the link names) and only if it is a regular file with no other name (a hard link to
    another file, which the pid would overwrite): (fd, True if this made the file)."""
    path = Path(folder) / LOCK
    if path.is_symlink() or (path.exists() and not path.is_file()):
        raise error(message("lock.not_regular", path=path))
    flags = os.O_RDWR | getattr(os, "O_NOFOLLOW", 0)
    try:
        try:
            fd, made = os.open(path, flags | os.O_CREAT | os.O_EXCL, 0o666), True
        except FileExistsError:
            fd, made = os.open(path, flags), False
    except OSError as problem:
        raise error(message("lock.cannot_open", path=path, error=os_reason(problem))) from None
    import stat
    found = os.fstat(fd)
    if not stat.S_ISREG(found.st_mode) or found.st_nlink > 1:     # a hard link: another name
        os.close(fd)                                                # of someone's file
        raise error(message("lock.hard_link", path=path, names=found.st_nlink)
                    if found.st_nlink > 1 else message("lock.not_own", path=path))
    return fd, made


def _lock(fd, folder, error):
    try:
        import fcntl
    except ImportError:
        # Windows: a lock on the file's first byte, which the system also drops when the
        # process ends
        import msvcrt
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            raise error(busy(folder)) from None
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise error(busy(folder)) from None


def busy(folder):
    """The message for a folder whose lock another process holds, naming it if it can."""
    try:
        pid = (Path(folder) / LOCK).read_text().strip()
    except OSError:
        pid = ""
    who = message("lock.process", pid=pid) if pid.isdigit() else message("lock.another")
    return message("lock.busy", folder=folder, who=who)
