"""Reductions over axes: sum, mean, max, min. Backward spreads the gradient back over the axes
that were reduced (`axis=None` means all of them). Each takes PyTorch's `dim` and `keepdim` too;
`max` and `min` with `dim` return (values, indices), as PyTorch's do."""

from typing import NamedTuple

import numpy as np

from minigrad.autograd import Function
from minigrad.ops.pytorch_words import axis_or_dim, keepdims_or_keepdim
from minigrad.tensor import Tensor


def _keep_reduced_axes(grad_y, x_shape, axis, keepdims):
    """Put back, with length 1, the axes that the reduction removed, so grad_y broadcasts
    against x.      x: (2, 3, 4), axis=1  ->  grad_y: (2, 4) becomes (2, 1, 4)"""
    if keepdims:
        return grad_y
    axes = range(len(x_shape)) if axis is None else np.atleast_1d(axis)
    axes = tuple(int(a) % len(x_shape) for a in axes)
    return np.expand_dims(grad_y, axes)


class Sum(Function):
    """y = sum of x over `axis`        dL/dx = dL/dy, copied over the summed axes
    x: (2, 3, 4), axis=1  ->  y: (2, 4)"""

    settings = ("axis", "keepdims")
    saves = ("x_shape",)

    def __init__(self, axis=None, keepdims=False):
        self.axis, self.keepdims = axis, keepdims

    def forward(self, x):
        self.x_shape = x.shape
        return np.sum(x, axis=self.axis, keepdims=self.keepdims)

    def backward(self, grad_y):
        grad_y = _keep_reduced_axes(grad_y, self.x_shape, self.axis, self.keepdims)
        return (np.broadcast_to(grad_y, self.x_shape),)


class Mean(Function):
    """y = mean of x over `axis` = sum / n      dL/dx = dL/dy / n, copied over the axes"""

    settings = ("axis", "keepdims")
    saves = ("x_shape", "n")

    def __init__(self, axis=None, keepdims=False):
        self.axis, self.keepdims = axis, keepdims

    def forward(self, x):
        self.x_shape = x.shape
        y = np.mean(x, axis=self.axis, keepdims=self.keepdims)
        self.n = x.size // np.size(y) if x.size else 1   # how many elements each mean averaged
        return y

    def backward(self, grad_y):
        grad_y = _keep_reduced_axes(grad_y, self.x_shape, self.axis, self.keepdims)
        return (np.broadcast_to(grad_y / self.n, self.x_shape),)


class Max(Function):
    """y = max of x over `axis`       dL/dx = dL/dy at the arg-max element(s), else 0;
    ties share the gradient evenly (as in PyTorch's full reduction). `Min` is the same with min."""

    settings = ("axis", "keepdims")
    saves = ("x", "y")

    reduce = staticmethod(np.max)

    def __init__(self, axis=None, keepdims=False):
        self.axis, self.keepdims = axis, keepdims

    def forward(self, x):
        self.x = x
        self.y = self.reduce(x, axis=self.axis, keepdims=True)
        return self.y if self.keepdims else np.squeeze(self.y, self.axis)

    def backward(self, grad_y):
        grad_y = _keep_reduced_axes(grad_y, self.x.shape, self.axis, self.keepdims)
        is_max = self.x == self.y                                     # the winner(s)
        count = np.sum(is_max, axis=self.axis, keepdims=True)         # how many tied
        return (np.where(is_max, grad_y / count, 0).astype(grad_y.dtype, copy=False),)


class Min(Max):
    __doc__ = Max.__doc__
    reduce = staticmethod(np.min)


class ValuesAndIndices(NamedTuple):
    """What `max` and `min` return when called with `dim`, as torch.max(x, dim) does."""
    values: Tensor          # in the graph, as from axis=
    indices: Tensor         # int64 positions along dim (the first, if tied), outside the graph


def _axis(axis):
    """An axis given as a list works too, as a tuple (what NumPy takes)."""
    return tuple(axis) if isinstance(axis, list) else axis


def sum(x, axis=None, keepdims=False, *, dim=None, keepdim=None):
    """The sum over `axis` (None: over all). `dim`, `keepdim`: PyTorch's words for the same."""
    axis, keepdims = axis_or_dim("sum", axis, dim), keepdims_or_keepdim("sum", keepdims, keepdim)
    return Sum(_axis(axis), keepdims)(x)


def mean(x, axis=None, keepdims=False, *, dim=None, keepdim=None):
    """The mean over `axis` (None: over all). `dim`, `keepdim`: PyTorch's words for the same."""
    axis, keepdims = axis_or_dim("mean", axis, dim), keepdims_or_keepdim("mean", keepdims, keepdim)
    return Mean(_axis(axis), keepdims)(x)


def max(x, axis=None, keepdims=False, *, dim=None, keepdim=None):
    """The largest element over `axis` (None: over all), as NumPy's max: the values alone.
    With `dim`, PyTorch's word, PyTorch's result: (values, indices), as torch.max(x, dim)
    returns them, so `x.max(dim=1).values` and `values, indices = x.max(dim=1)` work."""
    return _extreme("max", Max, np.argmax, x, axis, keepdims, dim, keepdim)


def min(x, axis=None, keepdims=False, *, dim=None, keepdim=None):
    """The smallest element over `axis`; with `dim`, (values, indices). See `max`."""
    return _extreme("min", Min, np.argmin, x, axis, keepdims, dim, keepdim)


def _extreme(where, op, arg, x, axis, keepdims, dim, keepdim):
    axis = axis_or_dim(where, axis, dim)
    keepdims = keepdims_or_keepdim(where, keepdims, keepdim)
    if dim is not None and not isinstance(dim, (int, np.integer)):
        raise TypeError(f"{where}: dim={dim!r} must be one axis (PyTorch's {where} along dim "
                        f"returns values and indices); for several axes use axis={dim!r}")
    values = op(_axis(axis), keepdims)(x)
    if dim is None:
        return values
    indices = arg(np.asarray(getattr(x, "data", x)), axis=dim, keepdims=keepdims)
    return ValuesAndIndices(values, Tensor(indices))
