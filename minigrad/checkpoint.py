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
    list, tuple                                         a list, a tuple (nested as deep as needed)
    np.ndarray of bool, int, uint, float or complex     the same array, bit for bit, same dtype
    NumPy scalar (np.float32(1.5), np.int64(3), ...)    the same scalar type and value
    minigrad Tensor                                     a Tensor with the same data, name and
                                                        requires_grad (not its graph or .grad)

Loading never runs code: the file is read with `np.load(..., allow_pickle=False)` and JSON, so a
pickle dressed up as a checkpoint is refused, never unpickled. Saving is atomic: the archive is
written to a temporary file beside the target, flushed to disk, then renamed over it, so a crash
in the middle of a save leaves the previous checkpoint as it was.
"""

import json
import math
import os
import secrets
import zipfile

import numpy as np

from minigrad.tensor import Tensor

FORMAT = "minigrad-checkpoint"
VERSION = 1


class CheckpointError(ValueError):
    """A checkpoint could not be saved or loaded; the message names the file and the reason."""


# ---------------------------------------------------------------------------------------------
# save
# ---------------------------------------------------------------------------------------------

def save(obj, path):
    """Write `obj` to `path` (a `.npz` archive; the name is used as given) atomically."""
    path = os.fspath(path)
    arrays = {}
    tree = _encode(obj, arrays, path, where="obj", parents=set())
    metadata = {"format": FORMAT, "version": VERSION, "object": tree}
    arrays["metadata"] = np.array(json.dumps(metadata, ensure_ascii=False, allow_nan=False))

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


def _encode(obj, arrays, path, where, parents):
    """`obj` as JSON: plain values as themselves, everything else as {"kind": value}.
    Arrays go into `arrays` under a name ("a0", "a1", ...) that the JSON refers to."""
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
        parents = parents | {id(obj)}
    if isinstance(obj, dict):
        items = []
        for key, value in obj.items():
            if isinstance(key, bool) or not isinstance(key, (str, int)):
                raise CheckpointError(f"cannot save to {path!r}: {where} has the key {key!r} "
                                      f"of type {type(key).__name__}; keys must be str or int")
            items.append([key, _encode(value, arrays, path, f"{where}[{key!r}]", parents)])
        return {"dict": items}                  # a list of pairs keeps order and int keys
    if isinstance(obj, (list, tuple)):
        values = [_encode(v, arrays, path, f"{where}[{i}]", parents) for i, v in enumerate(obj)]
        return {"tuple" if isinstance(obj, tuple) else "list": values}
    raise CheckpointError(f"cannot save to {path!r}: {where} has the type {type(obj).__name__}; a "
                          "checkpoint holds None, bool, int, float, str, dict, list, tuple, "
                          "NumPy arrays and scalars, and Tensors")


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


def load(path):
    """Read back what `save` wrote to `path`. Raises `CheckpointError` (naming the file) for a
    file that is not a minigrad checkpoint, or is truncated or corrupt; never runs its code."""
    path = os.fspath(path)
    with open(path, "rb") as file:              # a missing file: FileNotFoundError, as usual
        head = file.read(4)
    if head != _ZIP_MAGIC:
        what = "a pickle" if head[:1] == b"\x80" else "not an .npz archive"
        raise CheckpointError(f"{path!r} is not a minigrad checkpoint ({what}; refused)")
    try:
        with np.load(path, allow_pickle=False) as archive:
            if "metadata" not in archive.files:
                raise CheckpointError(f"{path!r} is not a minigrad checkpoint (an .npz archive "
                                      "without metadata, e.g. written by np.savez)")
            metadata = json.loads(archive["metadata"].item())
            if not isinstance(metadata, dict) or metadata.get("format") != FORMAT:
                raise CheckpointError(f"{path!r} is not a minigrad checkpoint (its metadata "
                                      "does not name the format)")
            if metadata.get("version") != VERSION:
                raise CheckpointError(f"{path!r} is a minigrad checkpoint of version "
                                      f"{metadata.get('version')!r}; this minigrad reads "
                                      f"version {VERSION}")
            arrays = {name: archive[name] for name in archive.files if name != "metadata"}
        return _decode(metadata["object"], arrays, path)
    except CheckpointError:
        raise
    except ValueError as error:
        if "allow_pickle" in str(error):        # NumPy refused an array stored as a pickle
            raise CheckpointError(f"{path!r} holds pickled data, which is never loaded "
                                  "(refused; nothing in it was run)") from error
        raise CheckpointError(f"{path!r} is truncated or corrupt: {error}") from error
    except (zipfile.BadZipFile, OSError, EOFError, KeyError, TypeError, AttributeError) as error:
        raise CheckpointError(f"{path!r} is truncated or corrupt: {error}") from error


def _decode(node, arrays, path):
    """The inverse of `_encode`."""
    if node is None or isinstance(node, (bool, int, float, str)):
        return node
    if isinstance(node, dict) and len(node) == 1:
        (kind, value), = node.items()
        if kind == "dict":
            return {key: _decode(v, arrays, path) for key, v in value}
        if kind == "list":
            return [_decode(v, arrays, path) for v in value]
        if kind == "tuple":
            return tuple(_decode(v, arrays, path) for v in value)
        if kind == "float":
            return float(value)
        if kind == "array":
            return _array(arrays, value, path)
        if kind == "scalar":
            return _array(arrays, value, path)[()]     # a 0-d array -> its NumPy scalar
        if kind == "tensor":
            data = _array(arrays, value["array"], path)
            return Tensor(data, requires_grad=value["requires_grad"], name=value["name"])
    raise CheckpointError(f"{path!r} is corrupt: unexpected entry {str(node)[:80]} in its "
                          "metadata")


def _array(arrays, name, path):
    if name not in arrays:
        raise CheckpointError(f"{path!r} is corrupt: the array {name!r} is missing")
    return arrays[name]
