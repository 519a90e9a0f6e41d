"""Writing a file all at once or not at all.

    atomic_write("report.json", lambda f: f.write(text), text=True)
    atomic_write("picture.png", lambda f: figure.savefig(f, format="png"))

`write(file)` fills a temporary file beside the target (`.NAME.XXXXXXXX.tmp`, in the same
folder so that the rename below never crosses a file system); the bytes are flushed and fsynced,
then `os.replace` renames the temporary file over the target. A reader, or the next run after a
kill, sees the old file or the new one, never half of one. `os.replace` replaces a symlink at
`path` itself, never the file it points to. A temporary file left by a killed process is found
by `stale_temporaries(folder)`.

A command's default output: `output_path(args.out, "step.svg")` is the path the user gave with
--out, or `runs/step.svg` (with `runs/` made) when none was given, so that what a command makes
lands under `runs/`, which git ignores, and never among the files of the folder it runs in.

Reading, the other way round: `open_regular(path, what)` opens a file only if it is a regular one,
so that a FIFO given where a file is expected is refused at once instead of blocking forever.

Why the system refused (an OSError's reason, "No such file or directory") is said in the
language of the messages by `os_reason(error)`, never pasted from the error as it came.
"""

import errno
import os
import re
import secrets
import shlex
import stat

from minigrad.messages import message

TEMPORARY = re.compile(r"^\..+\.[0-9a-f]{8}\.tmp$")        # .NAME.XXXXXXXX.tmp


def atomic_write(path, write, text=False):
    """Call `write(file)` on a new temporary file beside `path`, then rename it over `path`.
    The file is opened in binary mode, or as UTF-8 text with `text=True`. Returns `path`.
    If `write` raises (or the process is interrupted), `path` is as it was and the temporary
    file is removed."""
    directory, name = os.path.split(os.path.abspath(os.fspath(path)))
    if not os.path.isdir(directory):
        raise no_directory(path)
    temporary = os.path.join(directory, f".{name}.{secrets.token_hex(4)}.tmp")
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)   # umask applies
        with os.fdopen(fd, "w" if text else "wb", **({"encoding": "utf-8"} if text else {})) \
                as file:
            write(file)
            file.flush()
            os.fsync(file.fileno())         # the bytes are on disk before the rename
        os.replace(temporary, path)         # atomic: readers see the old file or the new one
    except OSError as error:                # named by the path asked for, not the temporary
        if os.path.exists(temporary):
            os.remove(temporary)
        raise type(error)(message("files.cannot_write", path=os.fspath(path),
                                  reason=os_reason(error))) from error
    except BaseException:
        if os.path.exists(temporary):
            os.remove(temporary)
        raise
    _fsync_directory(directory)             # the rename itself survives a power cut
    return path


RUNS = "runs"                     # where a command writes what the user did not name


def default_path(name):
    """`runs/NAME`, as the help of an --out option spells its default."""
    return f"{RUNS}/{name}"


def output_path(given, name):
    """The file a command writes: `given` (its --out) if the user gave one, which is left as it
    is (a missing folder is refused where it is written, with `no_directory`'s hint), else
    `runs/NAME`, with `runs/` made in the current folder if it is missing."""
    if given is not None:
        return given
    os.makedirs(RUNS, exist_ok=True)
    return default_path(name)


def no_directory(path, verb="write"):
    """The error for a file whose folder does not exist, saying how to make it:
    "cannot write 'nodir/step.html': no directory 'nodir' (create it first: mkdir -p nodir)".
    Every command that writes a file the user names reports a missing folder with this. When
    what stands where a folder should is a file ('notes.txt/step.html'), it says so instead:
    mkdir -p would fail there too."""
    given = os.path.dirname(os.fspath(path)) or "."
    said = message(VERBS[verb]) if verb in VERBS else verb
    found = given
    while found and not os.path.exists(found) and os.path.dirname(found) != found:
        found = os.path.dirname(found)      # the nearest part of the path that is there
    if found and os.path.exists(found) and not os.path.isdir(found):
        return NotADirectoryError(message("files.not_a_folder", verb=said, path=os.fspath(path),
                                          folder=found))
    return FileNotFoundError(message("files.no_directory", verb=said, path=os.fspath(path),
                                     folder=given, command=shlex.quote(given)))


VERBS = {"write": "files.verb_write", "save to": "files.verb_save_to", "draw": "files.verb_draw"}

# The reasons the system gives most often, by errno: their keys in minigrad/messages
REASONS = {number: f"os.{errno.errorcode[number]}" for number in (
    errno.ENOENT, errno.ENOTDIR, errno.EISDIR, errno.EACCES, errno.EPERM, errno.ENAMETOOLONG,
    errno.EROFS, errno.ENOSPC, errno.EEXIST, errno.ELOOP)}


def os_reason(error):
    """Why the system refused, from an OSError's errno, in the language of the messages: "File
    name too long" or "ファイル名が長すぎます" for the usual errnos (REASONS; the English is the
    system's own, os.strerror's), any other reason as the system said it (its strerror), and
    the error's text when it gives no reason (an OSError the project raised with a sentence)."""
    key = REASONS.get(getattr(error, "errno", None))
    if key is None or not getattr(error, "strerror", None):
        return getattr(error, "strerror", None) or str(error)
    return message(key)


def os_error_text(error):
    """An OSError's whole text, "[Errno 36] File name too long: 'x'", in the language of the
    messages when it is as the system raised it (one file named; a reason os_reason says);
    any other error's text as it is."""
    if (not isinstance(error, OSError) or error.filename is None or error.errno not in REASONS
            or str(error) != f"[Errno {error.errno}] {error.strerror}: {error.filename!r}"):
        return str(error)
    return message("os.error", number=error.errno, reason=os_reason(error), path=error.filename)


def refuse_existing(path, overwrite=False, option="--overwrite"):
    """Raise FileExistsError if something is at `path` (a file, a folder, a link, even a broken
    one) and `overwrite` is false: a command never replaces a file the user has unless told.
    "runs/step.html exists; pass --overwrite to replace it" (`option` names the switch)."""
    if not overwrite and os.path.lexists(path):
        raise FileExistsError(exists_message(path, option))


def exists_message(path, option="--overwrite"):
    """The one line every refusal to replace a file says: "runs/x.svg exists; pass --overwrite
    to replace it" (`option="overwrite=True"` for a function's caller)."""
    return message("files.exists", path=os.fspath(path), option=option)


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


class NotRegularFile(ValueError):
    """A path to read is a FIFO, device, socket or directory; the message names it."""


def open_regular(path, what, error=NotRegularFile):
    """`path` opened for reading in binary mode, if it is a regular file. A FIFO, device, socket
    or directory is `error("'PATH' is not WHAT (a FIFO, not a regular file; ...)")`, raised
    before anything is read from it: it is looked at with stat, then opened with O_NONBLOCK
    (opening a FIFO nobody writes to would otherwise wait forever) and looked at again with
    fstat, in case it was swapped for another file in between. A missing file is
    FileNotFoundError, as usual."""
    _refuse_special(path, os.stat(path).st_mode, what, error)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    try:
        _refuse_special(path, os.fstat(fd).st_mode, what, error)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_small_text(path, most, what):
    """The UTF-8 text of the regular file `path`, if it is at most `most` bytes; else a
    ValueError naming it (NotRegularFile for a FIFO, a device, a directory), with nothing more
    than most + 1 bytes read: a link to /dev/zero or a file of gigabytes is not read through."""
    with open_regular(path, what) as file:
        data = file.read(most + 1)
    if len(data) > most:
        raise ValueError(message("files.too_many_bytes", path=os.fspath(path), most=most,
                                 what=what))
    return data.decode("utf-8")


def _refuse_special(path, mode, what, error):
    if stat.S_ISREG(mode):
        return
    kind = _kind(mode, otherwise="files.kind_not_regular")
    raise error(message("files.not_regular", path=os.fspath(path), what=what, kind=kind))


def missing_file(path, what=None):
    """Why `path` is no file to read, in a few words ("no such file", "is a directory, not a
    .py file", "is a FIFO, not a regular file"), or None for a regular file."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return message("files.missing")
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return message("files.is_directory", what=what or message("files.what_py"))
    return message("files.is_special", kind=_kind(mode, otherwise="files.kind_special"))


def _kind(mode, otherwise):
    """What a file that is not a regular one is, from its stat mode: "a directory", ...;
    `otherwise` is the key of what to say for anything else."""
    return message("files.kind_directory" if stat.S_ISDIR(mode) else
                   "files.kind_fifo" if stat.S_ISFIFO(mode) else
                   "files.kind_device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else
                   "files.kind_socket" if stat.S_ISSOCK(mode) else otherwise)

