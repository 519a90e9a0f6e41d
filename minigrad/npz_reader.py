"""Reading arrays out of an .npz file (a zip of .npy files) that may be hostile.

`np.load` trusts the file: it opens whatever the path names (a FIFO blocks it forever), and it
allocates what a member's .npy header declares before reading a byte (a header can declare 10^11
values), and `np.savez` archives are zips, in which a 1 MB member can inflate to gigabytes.
`checkpoint.load` reads through this module instead:

    open_regular(path)            the file, if it is a regular one; a FIFO, device or directory
                                  is refused without blocking and without reading it
    read_member(archive, member)  one member's array, its header checked against the zip
                                  directory, its dtype bool or numeric, its size under a limit,
                                  read a MiB at a time so memory follows the bytes really there
    read_header(archive, member)  what the member declares (shape, dtype), checked the same
                                  way, without reading its data
    check_unique(archive, path)   no name listed twice: a zip may hold two members of one name,
                                  and which a reader takes is its own choice, so neither is

Each refusal is an NpzRefused (a ValueError) whose one-line message names the file and member.
An archive zipfile itself refuses (not a zip, a bad CRC) is said by `zip_reason(error)`.
"""

import errno
import math
import re
import zipfile

import numpy as np

from minigrad import files
from minigrad.messages import message

CHUNK = 1 << 20                 # bytes read at a time: memory grows with the data found, never
                                # with the size a header merely declares
DEFLATE_RATIO = 1032            # deflate cannot expand one byte into more than about 1032


class NpzRefused(ValueError):
    """The file or one of its members is refused; the message names which and why."""


def open_regular(path):
    """`path` opened for reading, if it is a regular file; a FIFO, device, socket or directory is
    an NpzRefused, raised before anything is read (see minigrad.files.open_regular)."""
    return files.open_regular(path, message("files.what_checkpoint"), NpzRefused)


class Declared(tuple):
    """What a member's .npy header declares, read without its data: `shape` and `dtype` (and
    `nbytes`), so that a caller can refuse an array before it takes any memory."""

    shape = property(lambda self: self[0])
    dtype = property(lambda self: self[1])
    nbytes = property(lambda self: math.prod(self[0]) * self[1].itemsize)

    def __new__(cls, shape, dtype):
        return super().__new__(cls, (tuple(shape), np.dtype(dtype)))

    def __repr__(self):
        return f"Declared(shape={self.shape}, dtype={self.dtype})"


def check_unique(archive, path):
    """Refuse an archive that lists a member's name twice."""
    seen = set()
    for name in archive.namelist():
        if name in seen:
            raise NpzRefused(message("npz.two_members", path=path, name=name))
        seen.add(name)


def read_header(archive, member, path, kinds):
    """What `member` of the open zipfile `archive` (of the file `path`) declares, as a Declared:
    its .npy header, checked as read_member checks it, without reading any of its data."""
    with archive.open(archive.getinfo(member)) as file:
        shape, _, dtype, _ = _checked_header(archive, member, path, kinds, file)
    return Declared(shape, dtype)


def read_member(archive, member, path, kinds, left, limit):
    """The array stored in `member` of the open zipfile `archive` (of the file `path`), read
    without trusting its .npy header: the declared dtype must be of one of the `kinds` ("biufc":
    bool and numeric; never object, which would be a pickle), the declared size must be what the
    zip directory says the member holds and at most `left` bytes (the message calls the limit
    `limit`), and no more than the declared bytes are read."""
    with archive.open(archive.getinfo(member)) as file:
        shape, fortran_order, dtype, nbytes = _checked_header(archive, member, path, kinds, file)
        count = math.prod(shape)
        if nbytes > left:
            raise NpzRefused(message("npz.too_large", path=path, member=member,
                                     size=size(nbytes), limit=limit))
        data = bytearray()
        while len(data) < nbytes:
            chunk = file.read(min(CHUNK, nbytes - len(data)))
            if not chunk:
                raise NpzRefused(message("npz.truncated", path=path, member=member,
                                         read=len(data), nbytes=nbytes))
            data += chunk
        if file.read(1):                                # also makes zipfile check the CRC
            raise NpzRefused(message("npz.longer", path=path, member=member, nbytes=nbytes))
    flat = np.frombuffer(data, dtype=dtype, count=count)            # writable: data is ours
    return flat.reshape(shape[::-1]).T if fortran_order else flat.reshape(shape)


def _checked_header(archive, member, path, kinds, file):
    """(shape, fortran_order, dtype, nbytes) from the .npy header at the start of `file`, the
    open member: its version, its dtype and its size checked against the zip directory."""
    info = archive.getinfo(member)
    where = {"path": path, "member": member}
    stored = info.compress_type == zipfile.ZIP_STORED
    deflated = info.compress_type == zipfile.ZIP_DEFLATED
    if ((stored and info.file_size != info.compress_size)
            or (deflated and info.file_size > DEFLATE_RATIO * info.compress_size + 1024)):
        raise NpzRefused(message("npz.claims", **where, claimed=info.file_size,
                                 stored=info.compress_size))
    version = np.lib.format.read_magic(file)
    if version not in ((1, 0), (2, 0)):
        raise NpzRefused(message("npz.version", **where, version=version))
    read = (np.lib.format.read_array_header_1_0 if version == (1, 0)
            else np.lib.format.read_array_header_2_0)
    shape, fortran_order, dtype = read(file)
    if dtype.hasobject:
        raise NpzRefused(message("npz.pickled", **where))
    if dtype.kind not in kinds:
        raise NpzRefused(message("npz.dtype", **where, dtype=dtype))
    count = math.prod(shape)                        # Python ints: no overflow
    nbytes = count * dtype.itemsize
    if file.tell() + nbytes != info.file_size:
        raise NpzRefused(message("npz.declares", **where, count=count, dtype=dtype,
                                 size=size(nbytes), held=size(info.file_size - file.tell())))
    return shape, fortran_order, dtype, nbytes


def size(nbytes):
    """1536 -> "1.5 KiB"."""
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB"):
        if nbytes < 1024 or unit == "TiB":
            return message("npz.bytes", count=nbytes) if unit == "bytes" else f"{nbytes:.1f} {unit}"
        nbytes /= 1024


# zipfile's own texts (Python's, in English), matched to say them in the language of the messages
ZIP_ERRORS = (("zip.not_zip", r"File is not a zip file"),
              ("zip.bad_crc", r"Bad CRC-32 for file (?P<member>.+)"),
              ("zip.central_magic", r"Bad magic number for central directory"),
              ("zip.central_truncated", r"Truncated central directory"),
              ("zip.header_magic", r"Bad magic number for file header"),
              ("zip.header_truncated", r"Truncated file header"),
              ("zip.name_differs",
               r"File name in directory (?P<member>'.*?') and header .* differ\."),
              ("zip.extra_field", r"Corrupt extra field .*"),
              ("zip.central_offset", r"Bad offset for central directory"),
              ("zip.compression", r"That compression method is not supported"))


NPY_HEADER = re.compile(r"magic string|[Hh]eader|descr|fortran_order")      # np.lib.format's


def zip_reason(error):
    """Why an archive could not be read, in the language of the messages: zipfile's usual
    errors (ZIP_ERRORS) said in it, the member named as zipfile names it ('a0.npy'); an OSError
    as minigrad.files.os_error_text says it; any other error's text as it is."""
    if isinstance(error, (zipfile.BadZipFile, NotImplementedError)):
        for key, pattern in ZIP_ERRORS:
            found = re.fullmatch(pattern, str(error))
            if found:
                return message(key, **found.groupdict())
        return message("zip.other", text=str(error))
    if isinstance(error, OSError) and error.errno == errno.EINVAL:     # a seek off the file
        return message("zip.offset")
    if isinstance(error, ValueError) and NPY_HEADER.search(str(error)):  # NumPy's own reader
        return message("zip.npy_header", text=str(error))
    if isinstance(error, EOFError):                 # zipfile: a member shorter than it says
        return message("zip.ended")
    if isinstance(error, (KeyError, RuntimeError, TypeError, AttributeError)):
        return message("zip.other", text=str(error) or type(error).__name__)
    return files.os_error_text(error)
