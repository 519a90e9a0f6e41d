"""Writing a file all at once or not at all.

    atomic_write("report.json", lambda f: f.write(text), text=True)
    atomic_write("picture.png", lambda f: figure.savefig(f, format="png"))

`write(file)` fills a temporary file beside the target (`.NAME.XXXXXXXX.tmp`, in the same
folder so that the rename below never crosses a file system); the bytes are flushed and fsynced,
then `os.replace` renames the temporary file over the target. A reader, or the next run after a
kill, sees the old file or the new one, never half of one. `os.replace` replaces a symlink at
`path` itself, never the file it points to. A temporary file left by a killed process is found
by `stale_temporaries(folder)`.
"""

import os
import re
import secrets

TEMPORARY = re.compile(r"^\..+\.[0-9a-f]{8}\.tmp$")        # .NAME.XXXXXXXX.tmp


def atomic_write(path, write, text=False):
    """Call `write(file)` on a new temporary file beside `path`, then rename it over `path`.
    The file is opened in binary mode, or as UTF-8 text with `text=True`. Returns `path`.
    If `write` raises (or the process is interrupted), `path` is as it was and the temporary
    file is removed."""
    directory, name = os.path.split(os.path.abspath(os.fspath(path)))
    if not os.path.isdir(directory):
        raise FileNotFoundError(f"cannot write {os.fspath(path)!r}: no directory {directory!r}")
    temporary = os.path.join(directory, f".{name}.{secrets.token_hex(4)}.tmp")
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)   # umask applies
        with os.fdopen(fd, "w" if text else "wb", **({"encoding": "utf-8"} if text else {})) \
                as file:
            write(file)
            file.flush()
            os.fsync(file.fileno())         # the bytes are on disk before the rename
        os.replace(temporary, path)         # atomic: readers see the old file or the new one
    except BaseException:
        if os.path.exists(temporary):
            os.remove(temporary)
        raise
    _fsync_directory(directory)             # the rename itself survives a power cut
    return path


def stale_temporaries(folder):
    """The names of the temporary files in `folder` that atomic_write leaves when a process is
    killed mid-write (`.NAME.XXXXXXXX.tmp`). Remove them only while no one else writes there."""
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        return []
    return sorted(n for n in names if TEMPORARY.match(n)
                  and os.path.isfile(os.path.join(folder, n)))


def _fsync_directory(directory):
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:                             # e.g. Windows, where directories cannot be opened
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
