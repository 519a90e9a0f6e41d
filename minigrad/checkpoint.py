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
refused, never unpickled. Nor does a hostile file make `load` block or exhaust memory (the
careful reading is in minigrad/npz_reader.py):

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
      deep structure is a CheckpointError, not a RecursionError (a state dict needs 2 or 3);
    - `load(path, check=...)` shows the caller the object with each array as its header
      declares it (a `Declared`: shape and dtype) before any array's data is read, so that an
      array bigger than the caller expects is refused without taking its memory.

`save` refuses what `load` would refuse. Saving is atomic (`minigrad.files.atomic_write`): the
archive is written to a temporary file beside the target, flushed to disk, then renamed over it,
so a crash in the middle of a save leaves the previous checkpoint as it was.
"""

import json
import math
import os
import reprlib
import zipfile

import numpy as np

from minigrad import npz_reader
from minigrad.files import atomic_write, no_directory
from minigrad.messages import message
from minigrad.npz_reader import Declared, NpzRefused, open_regular, read_header, read_member, size
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

    if not os.path.isdir(os.path.dirname(os.path.abspath(path))):
        raise no_directory(path, verb="save to")
    atomic_write(path, lambda file: np.savez(file, **arrays))


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
            raise CheckpointError(f"cannot save to {path!r}: {what} would take {size(nbytes)}, "
                                  f"over the {size(limit)} a checkpoint may hold")


# ---------------------------------------------------------------------------------------------
# load
# ---------------------------------------------------------------------------------------------

_ZIP_MAGIC = b"PK\x03\x04"


class _Refused(Exception):
    """The error a `check` raised, carried past load's own handlers to its caller unchanged."""

    def __init__(self, error):
        super().__init__(str(error))
        self.error = error


def load(path, check=None):
    """Read back what `save` wrote to `path`. Raises `CheckpointError` (naming the file) for a
    file that is not a minigrad checkpoint, or is truncated, corrupt, too large or too deeply
    nested (see the limits above); never runs its code, never reads a member nothing refers to.

    check  a function called, before any array's data is read, with the object as it will be
           loaded but each array (and Tensor, and NumPy scalar) replaced by what its .npy header
           declares, a `Declared` (its .shape, .dtype and .nbytes). It may raise to refuse the
           file: an array the object should not have is then refused without taking memory."""
    path = os.fspath(path)
    try:
        file = open_regular(path)               # a missing file: FileNotFoundError, as usual
    except NpzRefused as error:                 # a FIFO, a device, a directory
        raise CheckpointError(str(error)) from None
    with file:
        head = file.read(4)
        if head != _ZIP_MAGIC:
            why = message("files.pickle" if head[:1] == b"\x80" else "files.not_npz")
            raise CheckpointError(message("files.not_checkpoint", path=path, why=why))
        file.seek(0)
        try:
            with zipfile.ZipFile(file) as archive:
                return _read_checkpoint(archive, path, check)
        except CheckpointError:
            raise
        except _Refused as refused:                 # by the caller's check: its own error
            raise refused.error from None
        except NpzRefused as error:                 # a member's header or size
            raise CheckpointError(str(error)) from None
        except RecursionError as error:             # json's parser, on absurdly nested metadata
            raise CheckpointError(message("checkpoint.metadata_too_deep", path=path,
                                          depth=MAX_DEPTH)) from error
        except (ValueError, zipfile.BadZipFile, OSError, EOFError, KeyError, TypeError,
                AttributeError, RuntimeError) as error:     # RuntimeError: e.g. encrypted
            raise CheckpointError(message("checkpoint.truncated", path=path,
                                          error=npz_reader.zip_reason(error))) from error


def _read_checkpoint(archive, path, check=None):
    """The metadata first; then, while the object is rebuilt, only the arrays it refers to
    (their headers alone first, for `check`)."""
    npz_reader.check_unique(archive, path)
    names = set(archive.namelist())
    if "metadata.npy" not in names:
        raise CheckpointError(message("checkpoint.no_metadata", path=path))
    text = read_member(archive, "metadata.npy", path, "U", MAX_METADATA_BYTES,
                       f"minigrad.checkpoint.MAX_METADATA_BYTES ({size(MAX_METADATA_BYTES)})")
    if text.shape != ():
        raise CheckpointError(message("checkpoint.metadata_not_string", path=path))
    metadata = json.loads(text.item())
    if not isinstance(metadata, dict) or metadata.get("format") != FORMAT:
        raise CheckpointError(message("checkpoint.no_format", path=path))
    if metadata.get("version") != VERSION:
        raise CheckpointError(message("checkpoint.version", path=path, version=VERSION,
                                      found=repr(metadata.get("version"))))

    arrays, budget = {}, [MAX_BYTES]            # name -> array, read once; bytes still allowed

    def member(name):
        if not isinstance(name, str) or f"{name}.npy" not in names or name == "metadata":
            raise CheckpointError(message("checkpoint.missing_array", path=path, name=name))
        return f"{name}.npy"

    if check is not None:
        declared = {}
        skeleton = _decode(metadata["object"], lambda name: declared.setdefault(
            name, read_header(archive, member(name), path, "biufc")), path, depth=0)
        try:
            check(skeleton)
        except Exception as error:
            raise _Refused(error) from error

    def array(name):
        member(name)
        if name not in arrays:
            arrays[name] = read_member(archive, f"{name}.npy", path, "biufc", budget[0],
                                       "minigrad.checkpoint.MAX_BYTES ("
                                       f"{message('checkpoint.in_all', size=size(MAX_BYTES))})")
            budget[0] -= arrays[name].nbytes
        return arrays[name]

    return _decode(metadata["object"], array, path, depth=0)


def _decode(node, array, path, depth, where="obj"):
    """The inverse of `_encode`; `array(name)` reads an array the first time it is named.
    `where` says where `node` sits in the object (obj['split'][0], as `save` says it), for the
    message when the node is not what its tag says."""
    if node is None or isinstance(node, (bool, int, float, str)):
        return node
    if isinstance(node, dict) and len(node) == 1:
        (kind, value), = node.items()
        if kind in ("dict", "list", "tuple"):
            if depth >= MAX_DEPTH:                      # checked on the way down: no deep stack
                raise CheckpointError(message("checkpoint.object_too_deep", path=path,
                                              depth=MAX_DEPTH))
            _expect(isinstance(value, list), path, where, kind, "a list", value)
            if kind == "dict":
                for item in value:
                    _expect(isinstance(item, list) and len(item) == 2 and isinstance(
                        item[0], (str, int)) and not isinstance(item[0], bool), path, where,
                        kind, "a list of [key, value] pairs, each key a str or an int", item)
                return {key: _decode(v, array, path, depth + 1, f"{where}[{key!r}]")
                        for key, v in value}
            values = [_decode(v, array, path, depth + 1, f"{where}[{i}]")
                      for i, v in enumerate(value)]
            return values if kind == "list" else tuple(values)
        if kind == "float":
            _expect(value in ("nan", "inf", "-inf"), path, where, kind,
                    "'nan', 'inf' or '-inf'", value)
            return float(value)
        if kind == "array":
            return array(value)
        if kind == "scalar":
            found = array(value)
            return found if isinstance(found, Declared) else found[()]     # 0-d -> a scalar
        if kind == "tensor":
            _expect(isinstance(value, dict) and set(value) == {"array", "name", "requires_grad"}
                    and isinstance(value["name"], (str, type(None)))
                    and isinstance(value["requires_grad"], bool), path, where, kind,
                    '{"array": ..., "name": str or null, "requires_grad": bool}', value)
            data = array(value["array"])
            if isinstance(data, Declared):
                return data
            return Tensor(data, requires_grad=value["requires_grad"], name=value["name"])
    raise CheckpointError(message("checkpoint.unexpected", path=path, where=where,
                                  entry=reprlib.repr(node)))


def _expect(holds, path, where, kind, expected, found):
    """A tagged value that is not what its tag says: one line naming the file and where."""
    if not holds:
        where = where if len(where) < 60 else f"{where[:40]}...{where[-16:]}"
        raise CheckpointError(message("checkpoint.tagged", path=path, where=where, kind=kind,
                                      expected=expected, found=reprlib.repr(found)))
