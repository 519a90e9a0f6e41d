"""Checkpoints: `save(obj, path)` and `load(path)` for state dicts, optimiser state, configs,
vocabularies and epoch counters, without pickle.

A checkpoint is an ordinary NumPy `.npz` archive (a zip of `.npy` files):

    metadata     a 0-d string array holding JSON: {"format": "minigrad-checkpoint",
                 "version": 1, "object": <the saved object, arrays replaced by their names>}
    a0, a1, ...  the arrays, bit for bit, in their own dtype and shape

What can be saved, and what comes back:

    None, bool, int, float (nan and inf too), str      the same values, in JSON
    dict                                                a dict, keys in the same order; keys
                                                        must be str or int
    list, tuple                                         a list, a tuple (nested up to MAX_DEPTH)
    np.ndarray of bool, int, uint, float or complex     the same array, bit for bit, same dtype
    NumPy scalar (np.float32(1.5), np.int64(3), ...)    the same scalar type and value
    minigrad Tensor                                     a Tensor with the same data, name and
                                                        requires_grad (not its graph or .grad)

Loading never runs code: the metadata is JSON and each array is read from its .npy header and raw
bytes (what `np.load(..., allow_pickle=False)` does), so a pickle dressed up as a checkpoint is
refused, never unpickled. Nor does a hostile file make `load` block or exhaust memory:

    - only regular files are read: a FIFO, device or directory is refused before it is read
      (so a FIFO named checkpoint.npz cannot make `load` wait forever);
    - only the members the metadata refers to are decompressed; anything else in the zip is
      never read (a 1 MB zip can hold a member that inflates to gigabytes);
    - a member's .npy header is checked before any of its data is read: bool or numeric dtype,
      and a size that agrees with the zip directory's and that its compressed bytes can hold;
      no more than that size is ever read, a MiB at a time;
    - MAX_BYTES (4 GiB) bounds the arrays of one checkpoint together, and MAX_METADATA_BYTES
      (64 MiB, i.e. 16 million characters of JSON) its metadata: an array the metadata refers
      to does take its full size in memory, however well it compresses. A checkpoint of this
      teaching framework is far smaller; a larger one is an error, not a swap storm. Raise them
      (they are read at each call) to save and load something bigger on purpose;
    - MAX_DEPTH (100) bounds how deep containers may nest, in `save` and in `load` alike, so a
      deep structure is a CheckpointError, not a RecursionError (a state dict needs 2 or 3).

`save` refuses what `load` would refuse. Saving is atomic: the archive is written to a temporary
file beside the target, flushed to disk, then renamed over it, so a crash in the middle of a save
leaves the previous checkpoint as it was.
"""

import json
import math
import os
import reprlib
import secrets
import stat
import zipfile

import numpy as np

from minigrad.tensor import Tensor

FORMAT = "minigrad-checkpoint"
VERSION = 1
MAX_DEPTH = 100                         # containers inside containers; a state dict needs 2 or 3
MAX_BYTES = 4 * 1024 ** 3               # the arrays of one checkpoint, together
MAX_METADATA_BYTES = 64 * 1024 ** 2     # its JSON (stored as UTF-32: 16 million characters)


class CheckpointError(ValueError):
    """A checkpoint could not be saved or loaded; the message names the file and the reason."""


# ---------------------------------------------------------------------------------------------
# save
# ---------------------------------------------------------------------------------------------

def save(obj, path):
    """Write `obj` to `path` (a `.npz` archive; the name is used as given) atomically."""
    path = os.fspath(path)
    arrays = {}
    tree = _encode(obj, arrays, path, where="obj", parents=set(), depth=0)
    metadata = {"format": FORMAT, "version": VERSION, "object": tree}
    arrays["metadata"] = np.array(json.dumps(metadata, ensure_ascii=False, allow_nan=False))
    _check_loadable(arrays, path)

    directory, name = os.path.split(os.path.abspath(path))
    if not os.path.isdir(directory):
        raise FileNotFoundError(f"cannot save to {path!r}: no directory {directory!r}")
    temporary = os.path.join(directory, f".{name}.{secrets.token_hex(4)}.tmp")
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)   # umask applies
        with os.fdopen(fd, "wb") as file:
            np.savez(file, **arrays)
            file.flush()
            os.fsync(file.fileno())         # the bytes are on disk before the rename
        os.replace(temporary, path)         # atomic: readers see the old file or the new one
    except BaseException:
        if os.path.exists(temporary):
            os.remove(temporary)
        raise
    _fsync_directory(directory)             # the rename itself survives a power cut


def _encode(obj, arrays, path, where, parents, depth):
    """`obj` as JSON: plain values as themselves, everything else as {"kind": value}.
    Arrays go into `arrays` under a name ("a0", "a1", ...) that the JSON refers to. `depth`
    counts the containers around `obj`, checked on the way down, before the stack runs out."""
    if obj is None or isinstance(obj, (bool, str)):
        return obj
    if isinstance(obj, int) and not isinstance(obj, np.generic):
        return int(obj)
    if isinstance(obj, float) and not isinstance(obj, np.generic):
        return float(obj) if math.isfinite(obj) else {"float": repr(float(obj))}  # "nan", "inf"
    if isinstance(obj, (np.ndarray, np.generic, Tensor)):
        data = obj.data if isinstance(obj, Tensor) else np.asarray(obj)
        if data.dtype.kind not in "biufc":
            raise CheckpointError(f"cannot save to {path!r}: {where} is an array of dtype "
                                  f"{data.dtype}; only bool and numeric arrays can be saved")
        name = f"a{len(arrays)}"
        arrays[name] = data
        if isinstance(obj, Tensor):
            return {"tensor": {"array": name, "name": obj.name,
                               "requires_grad": obj.requires_grad}}
        return {"array" if isinstance(obj, np.ndarray) else "scalar": name}

    if isinstance(obj, (dict, list, tuple)):
        if id(obj) in parents:
            raise CheckpointError(f"cannot save to {path!r}: {where} contains itself")
        if depth >= MAX_DEPTH:
            where = where if len(where) < 60 else f"{where[:40]}...{where[-16:]}"
            raise CheckpointError(f"cannot save to {path!r}: {where} is nested deeper than the "
                                  f"{MAX_DEPTH} levels a checkpoint may have")
        parents, depth = parents | {id(obj)}, depth + 1
    if isinstance(obj, dict):
        items = []
        for key, value in obj.items():
            if isinstance(key, bool) or not isinstance(key, (str, int)):
                raise CheckpointError(f"cannot save to {path!r}: {where} has the key {key!r} "
                                      f"of type {type(key).__name__}; keys must be str or int")
            items.append([key, _encode(value, arrays, path, f"{where}[{key!r}]", parents, depth)])
        return {"dict": items}                  # a list of pairs keeps order and int keys
    if isinstance(obj, (list, tuple)):
        values = [_encode(v, arrays, path, f"{where}[{i}]", parents, depth)
                  for i, v in enumerate(obj)]
        return {"tuple" if isinstance(obj, tuple) else "list": values}
    raise CheckpointError(f"cannot save to {path!r}: {where} has the type {type(obj).__name__}; a "
                          "checkpoint holds None, bool, int, float, str, dict, list, tuple, "
                          "NumPy arrays and scalars, and Tensors")


def _check_loadable(arrays, path):
    """Refuse to write what `load` would refuse to read (the limits above)."""
    total = sum(a.nbytes for name, a in arrays.items() if name != "metadata")
    for what, nbytes, limit in [("its arrays", total, MAX_BYTES),
                                ("its metadata", arrays["metadata"].nbytes, MAX_METADATA_BYTES)]:
        if nbytes > limit:
            raise CheckpointError(f"cannot save to {path!r}: {what} would take {_size(nbytes)}, "
                                  f"over the {_size(limit)} a checkpoint may hold")


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


# ---------------------------------------------------------------------------------------------
# load
# ---------------------------------------------------------------------------------------------

_ZIP_MAGIC = b"PK\x03\x04"
_CHUNK = 1 << 20                # an array is read a MiB at a time, so memory follows the bytes
                                # really found, never the size a header merely declares
_DEFLATE_RATIO = 1032           # deflate cannot expand one byte into more than about 1032


def load(path):
    """Read back what `save` wrote to `path`. Raises `CheckpointError` (naming the file) for a
    file that is not a minigrad checkpoint, or is truncated, corrupt, too large or too deeply
    nested (see the limits above); never runs its code, never reads a member nothing refers to."""
    path = os.fspath(path)
    with _open_regular(path) as file:           # a missing file: FileNotFoundError, as usual
        head = file.read(4)
        if head != _ZIP_MAGIC:
            what = "a pickle" if head[:1] == b"\x80" else "not an .npz archive"
            raise CheckpointError(f"{path!r} is not a minigrad checkpoint ({what}; refused)")
        file.seek(0)
        try:
            with zipfile.ZipFile(file) as archive:
                return _read_checkpoint(archive, path)
        except CheckpointError:
            raise
        except RecursionError as error:             # json's parser, on absurdly nested metadata
            raise CheckpointError(f"{path!r} is refused: its metadata is nested deeper than "
                                  f"the {MAX_DEPTH} levels a checkpoint may have") from error
        except (ValueError, zipfile.BadZipFile, OSError, EOFError, KeyError, TypeError,
                AttributeError, RuntimeError) as error:     # RuntimeError: e.g. encrypted
            raise CheckpointError(f"{path!r} is truncated or corrupt: {error}") from error


def _open_regular(path):
    """`path` opened for reading, if it is a regular file. A FIFO, device, socket or directory
    is refused before anything is read from it: it is looked at with stat, then opened with
    O_NONBLOCK (opening a FIFO nobody writes to would otherwise wait forever) and looked at
    again with fstat, in case it was swapped for another file in between."""
    _refuse_special(path, os.stat(path).st_mode)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    try:
        _refuse_special(path, os.fstat(fd).st_mode)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def _refuse_special(path, mode):
    if stat.S_ISREG(mode):
        return
    kind = ("a directory" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode)
            else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
            else "a socket" if stat.S_ISSOCK(mode) else "not a regular file")
    raise CheckpointError(f"{path!r} is not a minigrad checkpoint ({kind}, not a regular file; "
                          "refused, nothing read)")


def _read_checkpoint(archive, path):
    """The metadata first; then, while the object is rebuilt, only the arrays it refers to."""
    names = set(archive.namelist())
    if "metadata.npy" not in names:
        raise CheckpointError(f"{path!r} is not a minigrad checkpoint (an .npz archive "
                              "without metadata, e.g. written by np.savez)")
    text = _read_member(archive, "metadata.npy", path, "U", "MAX_METADATA_BYTES",
                        MAX_METADATA_BYTES)
    if text.shape != ():
        raise CheckpointError(f"{path!r} is corrupt: its metadata is not one string")
    metadata = json.loads(text.item())
    if not isinstance(metadata, dict) or metadata.get("format") != FORMAT:
        raise CheckpointError(f"{path!r} is not a minigrad checkpoint (its metadata "
                              "does not name the format)")
    if metadata.get("version") != VERSION:
        raise CheckpointError(f"{path!r} is a minigrad checkpoint of version "
                              f"{metadata.get('version')!r}; this minigrad reads "
                              f"version {VERSION}")

    arrays, budget = {}, [MAX_BYTES]            # name -> array, read once; bytes still allowed

    def array(name):
        if not isinstance(name, str) or f"{name}.npy" not in names or name == "metadata":
            raise CheckpointError(f"{path!r} is corrupt: the array {name!r} is missing")
        if name not in arrays:
            arrays[name] = _read_member(archive, f"{name}.npy", path, "biufc", "MAX_BYTES",
                                        budget[0])
            budget[0] -= arrays[name].nbytes
        return arrays[name]

    return _decode(metadata["object"], array, path, depth=0)


def _read_member(archive, member, path, kinds, limit, left):
    """The array stored in the archive's `member`, read without trusting its .npy header: the
    declared dtype must be of one of the `kinds` ("biufc": bool and numeric; never object, which
    would be a pickle), the declared size must be what the zip directory says the member holds
    and at most `left` bytes (what the `limit` named leaves), and no more than the declared
    bytes are read."""
    info = archive.getinfo(member)
    corrupt = f"{path!r} is corrupt: its member {member!r}"
    if info.compress_type == zipfile.ZIP_STORED and info.file_size != info.compress_size or \
            info.compress_type == zipfile.ZIP_DEFLATED and \
            info.file_size > _DEFLATE_RATIO * info.compress_size + 1024:
        raise CheckpointError(f"{corrupt} claims {info.file_size} bytes from "
                              f"{info.compress_size} stored, more than they can hold")
    with archive.open(info) as file:
        version = np.lib.format.read_magic(file)
        if version not in ((1, 0), (2, 0)):
            raise CheckpointError(f"{corrupt} is a .npy file of version {version}, which "
                                  "a checkpoint never holds")
        read_header = (np.lib.format.read_array_header_1_0 if version == (1, 0)
                       else np.lib.format.read_array_header_2_0)
        shape, fortran_order, dtype = read_header(file)
        if dtype.hasobject:
            raise CheckpointError(f"{path!r} holds pickled data in {member!r}, which is never "
                                  "loaded (refused; nothing in it was run)")
        if dtype.kind not in kinds:
            raise CheckpointError(f"{corrupt} holds an array of dtype {dtype}, which a "
                                  "checkpoint never holds there")
        count = math.prod(shape)                        # Python ints: no overflow
        nbytes = count * dtype.itemsize
        if file.tell() + nbytes != info.file_size:
            raise CheckpointError(f"{corrupt} declares {count} values of {dtype} "
                                  f"({_size(nbytes)}) but holds "
                                  f"{_size(info.file_size - file.tell())}")
        if nbytes > left:
            raise CheckpointError(f"{path!r} is too large to load: its member {member!r} holds "
                                  f"{_size(nbytes)}, which passes minigrad.checkpoint.{limit} "
                                  f"({_size(globals()[limit])} in all)")
        data = bytearray()
        while len(data) < nbytes:
            chunk = file.read(min(_CHUNK, nbytes - len(data)))
            if not chunk:
                raise CheckpointError(f"{path!r} is truncated or corrupt: its member {member!r} "
                                      f"ends after {len(data)} of its {nbytes} bytes")
            data += chunk
        if file.read(1):                                # also makes zipfile check the CRC
            raise CheckpointError(f"{corrupt} holds more than its {nbytes} bytes")
    flat = np.frombuffer(data, dtype=dtype, count=count)            # writable: data is ours
    return flat.reshape(shape[::-1]).T if fortran_order else flat.reshape(shape)


def _size(nbytes):
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB"):
        if nbytes < 1024 or unit == "TiB":
            return f"{nbytes} bytes" if unit == "bytes" else f"{nbytes:.1f} {unit}"
        nbytes /= 1024


def _decode(node, array, path, depth):
    """The inverse of `_encode`; `array(name)` reads an array the first time it is named."""
    if node is None or isinstance(node, (bool, int, float, str)):
        return node
    if isinstance(node, dict) and len(node) == 1:
        (kind, value), = node.items()
        if kind in ("dict", "list", "tuple"):
            if depth >= MAX_DEPTH:                      # checked on the way down: no deep stack
                raise CheckpointError(f"{path!r} is refused: its object is nested deeper than "
                                      f"the {MAX_DEPTH} levels a checkpoint may have")
            if kind == "dict":
                return {key: _decode(v, array, path, depth + 1) for key, v in value}
            values = [_decode(v, array, path, depth + 1) for v in value]
            return values if kind == "list" else tuple(values)
        if kind == "float":
            return float(value)
        if kind == "array":
            return array(value)
        if kind == "scalar":
            return array(value)[()]                     # a 0-d array -> its NumPy scalar
        if kind == "tensor":
            data = array(value["array"])
            return Tensor(data, requires_grad=value["requires_grad"], name=value["name"])
    raise CheckpointError(f"{path!r} is corrupt: unexpected entry {reprlib.repr(node)} in its "
                          "metadata")
