"""Ops that move elements around without changing them: reshape, transpose, indexing, concat,
stack. Their backward moves the gradient back to where each element came from."""

import numpy as np

from minigrad.autograd import Function
from minigrad.tensor import Tensor


class Reshape(Function):
    """y = x with shape `shape` (same elements, same order)      dL/dx = dL/dy reshaped back"""

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

    def __init__(self, axes=None):
        self.axes = axes

    def forward(self, x):
        return np.transpose(x, self.axes)

    def backward(self, grad_y):
        if self.axes is None:
            return (np.transpose(grad_y),)
        return (np.transpose(grad_y, np.argsort(self.axes)),)


class GetItem(Function):
    """y = x[index]    (ints, slices, None, ..., boolean masks, integer arrays)
    dL/dx = zeros of x's shape, with dL/dy added at x[index]. Added, not assigned: an element
    picked twice by an integer array gets both gradients (np.add.at)."""

    def __init__(self, index):
        self.index = index

    def forward(self, x):
        self.x_shape = x.shape
        return x[self.index]

    def backward(self, grad_y):
        grad_x = np.zeros(self.x_shape, dtype=grad_y.dtype)
        if _is_basic(self.index):
            grad_x[self.index] = grad_y              # a view: every element is picked once
        else:
            np.add.at(grad_x, self.index, grad_y)    # repeated indices accumulate
        return (grad_x,)


def _is_basic(index):
    """True for NumPy's 'basic' indexing (ints, slices, None, ...): no element is picked twice."""
    parts = index if isinstance(index, tuple) else (index,)
    return all(p is None or p is Ellipsis or isinstance(p, (int, np.integer, slice)) for p in parts)


class Concat(Function):
    """y = the inputs joined along `axis`      dL/dx_i = the slice of dL/dy that x_i filled
    (2, 3) and (2, 5), axis=1  ->  (2, 8)"""

    def __init__(self, axis=0):
        self.axis = axis

    def forward(self, *xs):
        self.sizes = [x.shape[self.axis] for x in xs]
        return np.concatenate(xs, axis=self.axis)

    def backward(self, grad_y):
        cuts = np.cumsum(self.sizes)[:-1]
        return tuple(np.split(grad_y, cuts, axis=self.axis))


class Stack(Function):
    """y = the inputs (all of one shape) stacked along a new `axis`
    dL/dx_i = dL/dy at position i of that axis          n x (2, 3), axis=0  ->  (n, 2, 3)"""

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
    """Tensors and lists inside an index become arrays; boolean masks become integer arrays
    (`np.nonzero`), so backward can add into exactly the picked elements."""
    parts = index if isinstance(index, tuple) else (index,)
    plain = []
    for p in parts:
        if isinstance(p, Tensor):
            p = p.data
        if isinstance(p, list):
            p = np.asarray(p)
        if isinstance(p, np.ndarray) and p.dtype == bool:
            plain.extend(np.nonzero(p))
        else:
            plain.append(p)
    return tuple(plain) if isinstance(index, tuple) or len(plain) > 1 else plain[0]


def concat(tensors, axis=0):
    """Join tensors along an existing axis (NumPy's concatenate)."""
    return Concat(axis)(*tensors)


def stack(tensors, axis=0):
    """Join tensors of one shape along a new axis."""
    return Stack(axis)(*tensors)


def split(x, indices_or_sections, axis=0):
    """Cut `x` along `axis` into a list of tensors, as `np.split` does: a number of equal parts,
    or the indices where to cut. Each part is its own slice of `x` in the graph."""
    length = x.shape[axis]
    if isinstance(indices_or_sections, int):
        if length % indices_or_sections:
            raise ValueError(f"split: axis {axis} of shape {x.shape} has length {length}, "
                             f"which does not divide into {indices_or_sections} equal parts")
        step = length // indices_or_sections
        cuts = list(range(step, length, step))
    else:
        cuts = list(indices_or_sections)
    bounds = zip([0] + cuts, cuts + [length])
    axis = axis % x.ndim
    return [x[(slice(None),) * axis + (slice(start, stop),)] for start, stop in bounds]
