"""guard_saved(): catch an array saved for backward and changed in place before backward ran.

    with minigrad.debug.guard_saved():
        loss = model(x)
        x.data[0] = 0              # changes what an op saved, bypassing the version counters
        loss.backward()            # SavedArrayError, naming the op and the tensor

Ops save arrays on `self` in forward (often their inputs' very arrays, not copies) and use them
in backward. Write into one of those arrays in between and backward quietly computes the
gradient of a function you never ran. The guard makes that an error.

The design, and why:
- A fingerprint (CRC-32 of the bytes) of every array an op keeps on itself, taken right after
  its forward, is compared when backward reaches the op. It sees any change, however it was
  made: `t.data[...] = v`, `t.data *= 2`, `np.add(a, b, out=a)`, a change to an index array.
- More than the version counters, which are always on (`minigrad/versions.py`): they see the
  in-place changes made through a tensor (`t.data -= 1`, `t -= 1` under no_grad, optimiser
  steps), also through a view, but not NumPy writes that bypass the tensor (`t.data[i] = v`,
  `out=t.data`, an array held elsewhere). The guard sees those too.
- Not read-only arrays: optimisers change parameters in place after backward, while the last
  graph is still alive, and that is right. Only a backward that then runs through the changed
  array raises; a new forward after `optimizer.step()` saves the new values and is fine.
- Not always on: a checksum reads every saved byte (several GB/s) and costs a call per array,
  which matters in an engine whose whole cost is a few microseconds per op. Off, it costs the
  engine one `if` per op. bench/engine.py measures it on and off.
"""

import weakref
import zlib

import numpy as np

from minigrad.debug.watch import Watcher
from minigrad.versions import SavedArrayError, explain, saved_arrays

__all__ = ["guard_saved", "SavedArrayError", "fingerprints", "checksum", "saved_array"]


class guard_saved(Watcher):
    """Inside the block, fingerprint what each recorded op saves, and check it in backward."""

    def __init__(self):
        self.fingerprints = weakref.WeakKeyDictionary()     # op -> {attribute: checksum}

    def after_forward(self, op, inputs, out):
        if out.creator is op:                   # recorded: its backward may run later
            self.fingerprints[op] = fingerprints(op)

    def before_backward(self, op, out, grad_y):
        before = self.fingerprints.get(op)
        if before is not None:
            now = fingerprints(op)
            if now != before:
                name = next(name for name in before if now.get(name) != before[name])
                raise SavedArrayError(explain(op, out, name, saved_array(op, name)))


def fingerprints(op):
    """{attribute: checksum} for each array the op keeps on itself: `y` for self.y, `index[1]`
    for an array inside a tuple."""
    return {name: checksum(array) for name, array in saved_arrays(op)}


def checksum(a):
    """CRC-32 of the array's bytes."""
    try:
        return zlib.crc32(a)
    except ValueError:                          # not C-contiguous: sum a contiguous copy
        return zlib.crc32(np.ascontiguousarray(a))


def saved_array(op, name):
    """The array `fingerprints` called `name`."""
    if name.endswith("]"):
        name, k = name[:-1].split("[")
        return getattr(op, name)[int(k)]
    return getattr(op, name)
