"""Ops that move elements around without changing them: reshape, transpose, indexing, concat,
stack. Their backward moves the gradient back to where each element came from."""

import numpy as np

from minigrad.autograd import Function
from minigrad.ops.pytorch_words import axis_or_dim
from minigrad.tensor import Tensor

AxisError = getattr(np, "exceptions", np).AxisError     # np.exceptions from NumPy 1.25 on


class Reshape(Function):
    """y = x with shape `shape` (same elements, same order)      dL/dx = dL/dy reshaped back"""

    settings = ("shape",)
    saves = ("x_shape",)

    def __init__(self, shape):
        self.shape = shape

    def forward(self, x):
        self.x_shape = x.shape
        return np.reshape(x, self.shape)

    def backward(self, grad_y):
        return (np.reshape(grad_y, self.x_shape),)


class Transpose(Function):
    """y = x with its axes permuted (`axes=None` reverses them)
    dL/dx = dL/dy with the inverse permutation         x: (A, B, C), axes=(2, 0, 1) -> (C, A, B)"""

    settings = ("axes",)
    saves = ("inverse",)

    def __init__(self, axes=None):
        self.axes = axes

    def forward(self, x):
        y = np.transpose(x, self.axes)           # a view; checks the axes
        axes = range(x.ndim)[::-1] if self.axes is None else [a % x.ndim for a in self.axes]
        self.inverse = np.argsort(axes)          # where each axis of x went in y
        return y

    def backward(self, grad_y):
        return (np.transpose(grad_y, self.inverse),)


class GetItem(Function):
    """y = x[index]    (ints, slices, None, ..., boolean masks, integer arrays)
    dL/dx = zeros of x's shape, with dL/dy added at x[index]. Added, not assigned: an element
    that an integer array picks twice gets both gradients (np.add.at)."""

    settings = ("index",)
    saves = ("x_shape",)

    def __init__(self, index):
        self.index = _own_arrays(index)     # the caller may change its index array afterwards

    def forward(self, x):
        self.x_shape = x.shape
        return x[self.index]                     # basic indexing gives a view, not a copy

    def backward(self, grad_y):
        grad_x = np.zeros(self.x_shape, dtype=grad_y.dtype)
        if _picks_each_once(self.index):
            grad_x[self.index] = grad_y          # no element is picked twice: assign
        else:
            np.add.at(grad_x, self.index, grad_y)    # repeated indices accumulate
        return (grad_x,)


def _picks_each_once(index):
    """True unless the index holds an integer array, the only kind that can repeat an element."""
    parts = index if isinstance(index, tuple) else (index,)
    return not any(isinstance(p, np.ndarray) and p.dtype != bool for p in parts)


class Concat(Function):
    """y = the inputs joined along `axis`      dL/dx_i = the slice of dL/dy that x_i filled
    (2, 3) and (2, 5), axis=1  ->  (2, 8)"""

    settings = ("axis",)
    saves = ("sizes",)

    def __init__(self, axis=0):
        self.axis = axis

    def forward(self, *xs):
        y = np.concatenate(xs, axis=self.axis)      # first: it checks the shapes and the axis
        self.sizes = [x.shape[self.axis] for x in xs]
        return y

    def backward(self, grad_y):
        cuts = np.cumsum(self.sizes)[:-1]
        return tuple(np.split(grad_y, cuts, axis=self.axis))


class Stack(Function):
    """y = the inputs (all of one shape) stacked along a new `axis`
    dL/dx_i = dL/dy at position i of that axis          n x (2, 3), axis=0  ->  (n, 2, 3)"""

    settings = ("axis",)
    saves = ()

    def __init__(self, axis=0):
        self.axis = axis

    def forward(self, *xs):
        return np.stack(xs, axis=self.axis)

    def backward(self, grad_y):
        return tuple(np.moveaxis(grad_y, self.axis, 0))


def reshape(x, shape):
    return Reshape(shape)(x)


def transpose(x, axes=None):
    return Transpose(axes)(x)


def getitem(x, index):
    return GetItem(_plain_index(index))(x)


def _plain_index(index):
    """Tensors and lists inside an index become NumPy arrays (boolean or integer)."""
    parts = index if isinstance(index, tuple) else (index,)
    plain = tuple(_plain_part(p) for p in parts)
    return plain if isinstance(index, tuple) else plain[0]


def _own_arrays(index):
    """The index with a copy of each NumPy array in it: backward must scatter into the places the
    forward read, even when the caller reuses its index array (`idx[0] = 2`) before backward.
    NumPy arrays have no version counter to catch that, so the op keeps its own copy (an index
    array is small: integers or booleans, not the data)."""
    if isinstance(index, tuple):
        return tuple(part.copy() if isinstance(part, np.ndarray) else part for part in index)
    return index.copy() if isinstance(index, np.ndarray) else index


def _plain_part(part):
    if isinstance(part, Tensor):
        return part.data
    if isinstance(part, list):
        return np.asarray(part)
    return part


def swapaxes(x, axis1, axis2):
    """x with two axes exchanged: a `Transpose`."""
    axes = list(range(x.ndim))
    for axis in (axis1, axis2):
        if not -x.ndim <= axis < x.ndim:
            raise AxisError(f"swapaxes: axis {axis} is out of range for a tensor "
                                          f"of shape {x.shape}")
    axes[axis1], axes[axis2] = axes[axis2], axes[axis1]
    return transpose(x, tuple(axes))


def expand_dims(x, axis=None, *, dim=None):
    """x with a new axis of length 1 at `axis`: a `Reshape`.      (2, 3), axis=1 -> (2, 1, 3)
    (PyTorch's x.unsqueeze(dim); `dim` is taken here too)."""
    axis = axis_or_dim("expand_dims", axis, dim)
    if axis is None:
        raise TypeError("expand_dims: which axis? Pass axis= (or dim=) the new axis's position")
    try:
        shape = np.expand_dims(np.empty(x.shape, dtype=bool), axis).shape
    except ValueError as error:
        raise type(error)(f"expand_dims: {error}, for a tensor of shape {x.shape}") from error
    return reshape(x, shape)


def squeeze(x, axis=None, *, dim=None):
    """x without axes of length 1 (all of them, or those in `axis`, or `dim`): a `Reshape`."""
    axis = axis_or_dim("squeeze", axis, dim, empty_dim=())
    try:
        shape = np.squeeze(np.empty(x.shape, dtype=bool), axis).shape
    except ValueError as error:
        raise type(error)(f"squeeze: {error}, for a tensor of shape {x.shape}") from error
    return reshape(x, shape)


def concat(tensors, axis=0, *, dim=None):
    """Join tensors along an existing axis (NumPy's concatenate; `dim`: PyTorch's word)."""
    return Concat(axis_or_dim("concat", axis, dim, default=0))(*tensors)


cat = concat            # PyTorch's name: F.cat([a, b], dim=1) is F.concat([a, b], axis=1)


def stack(tensors, axis=0, *, dim=None):
    """Join tensors of one shape along a new axis (as np.stack and torch.stack)."""
    return Stack(axis_or_dim("stack", axis, dim, default=0))(*tensors)


def split(x, indices_or_sections, axis=0, *, dim=None):
    """Cut `x` along `axis` into a list of tensors, as `np.split` does: a number of equal parts,
    or the indices where to cut. Each part is its own slice of `x` in the graph.

    Not torch.split, whose numbers mean other things (a chunk size, or the chunks' sizes), so
    `dim=` is refused: code written for torch.split would cut elsewhere, without an error."""
    if dim is not None:
        raise TypeError(f"split: this is NumPy's split (a number of equal parts, or the indices "
                        f"where to cut), not torch.split (a chunk size, or the chunks' sizes), so "
                        f"dim= is refused: write split(x, parts_or_cuts, axis={dim!r})")
    if not -x.ndim <= axis < x.ndim:
        raise AxisError(f"split: axis {axis} is out of range for a tensor of "
                                      f"shape {x.shape}")
    axis = axis % x.ndim
    length = x.shape[axis]
    if isinstance(indices_or_sections, (int, np.integer)):
        parts = int(indices_or_sections)
        if parts <= 0 or length % parts:
            raise ValueError(f"split: axis {axis} of shape {x.shape} has length {length}, "
                             f"which does not divide into {parts} equal parts")
        step = length // parts
        cuts = list(range(step, length, step))
    else:
        cuts = list(indices_or_sections)
    bounds = zip([0] + cuts, cuts + [length])
    return [x[(slice(None),) * axis + (slice(start, stop),)] for start, stop in bounds]
