"""Tensor: a NumPy array, the op that made it, and (after backward) its gradient.

What is where: `minigrad/tensor_base.py` holds what a tensor *is* (TensorBase: its array, its
creator, its gradient, its hooks, its repr); this file holds what a tensor *does*. Every operator
is a plain method here that calls an op from `minigrad.ops`, so "go to definition" on `x + y`
leads to `Tensor.__add__` and from there to the `Add` op.
"""

import numpy as np

from minigrad import versions
from minigrad.tensor_base import TensorBase


class Tensor(TensorBase):
    """A NumPy array in a computation graph: `data`, `grad`, `requires_grad`, `creator`, `name`,
    `hooks`, `retains_grad` (described in `TensorBase`), and the methods below."""

    __slots__ = ()
    __array_ufunc__ = None     # `array + tensor` calls Tensor.__radd__; np.exp(tensor) is an error
    __hash__ = object.__hash__       # comparisons return arrays, so keep identity hashing

    def detach(self):
        """The same array as a new leaf that does not require grad."""
        return Tensor(self.data, name=self.name)

    def backward(self, grad=None, break_on=None):
        """Compute d(self)/d(leaf) for every leaf; `grad` is needed when self is not a scalar.
        break_on="Softmax" (an op's class name, or a predicate op -> bool) opens the debugger
        just before that op's backward."""
        autograd.backward(self, grad, break_on)

    # ---- arithmetic (argument order is kept: `2 - x` is Sub(2, x)) -------------------------

    def __add__(self, other):
        return arithmetic.add(self, other)

    def __radd__(self, other):
        return arithmetic.add(other, self)

    def __sub__(self, other):
        return arithmetic.sub(self, other)

    def __rsub__(self, other):
        return arithmetic.sub(other, self)

    def __mul__(self, other):
        return arithmetic.mul(self, other)

    def __rmul__(self, other):
        return arithmetic.mul(other, self)

    def __truediv__(self, other):
        return arithmetic.div(self, other)

    def __rtruediv__(self, other):
        return arithmetic.div(other, self)

    def __pow__(self, other):
        return arithmetic.pow(self, other)

    def __rpow__(self, other):
        return arithmetic.pow(other, self)

    def __matmul__(self, other):
        return arithmetic.matmul(self, other)

    def __rmatmul__(self, other):
        return arithmetic.matmul(other, self)

    def __neg__(self):
        return arithmetic.neg(self)

    # ---- in place: allowed where PyTorch allows it (see minigrad/versions.py) ------------------

    def __iadd__(self, other):
        return versions.in_place(self, other, np.add, "+=", arithmetic.add)

    def __isub__(self, other):
        return versions.in_place(self, other, np.subtract, "-=", arithmetic.sub)

    def __imul__(self, other):
        return versions.in_place(self, other, np.multiply, "*=", arithmetic.mul)

    def __itruediv__(self, other):
        return versions.in_place(self, other, np.true_divide, "/=", arithmetic.div)

    # ---- comparisons: plain boolean arrays, outside the graph -------------------------------

    def __eq__(self, other):
        return self.data == _data(other)

    def __ne__(self, other):
        return self.data != _data(other)

    def __lt__(self, other):
        return self.data < _data(other)

    def __le__(self, other):
        return self.data <= _data(other)

    def __gt__(self, other):
        return self.data > _data(other)

    def __ge__(self, other):
        return self.data >= _data(other)

    # ---- elementwise functions ---------------------------------------------------------------

    def exp(self):
        return elementwise.exp(self)

    def log(self):
        return elementwise.log(self)

    def sqrt(self):
        return elementwise.sqrt(self)

    def tanh(self):
        return elementwise.tanh(self)

    def sigmoid(self):
        return elementwise.sigmoid(self)

    def relu(self):
        return elementwise.relu(self)

    def abs(self):
        return elementwise.abs(self)

    def clip(self, low=None, high=None):
        return elementwise.clip(self, low, high)

    # ---- reductions (PyTorch's dim= and keepdim= work too: minigrad/ops/pytorch_words.py) -----

    def sum(self, axis=None, keepdims=False, *, dim=None, keepdim=None):
        return reduce.sum(self, axis, keepdims, dim=dim, keepdim=keepdim)

    def mean(self, axis=None, keepdims=False, *, dim=None, keepdim=None):
        return reduce.mean(self, axis, keepdims, dim=dim, keepdim=keepdim)

    def max(self, axis=None, keepdims=False, *, dim=None, keepdim=None):
        """NumPy's max: the values. With dim=, PyTorch's: (values, indices)."""
        return reduce.max(self, axis, keepdims, dim=dim, keepdim=keepdim)

    def min(self, axis=None, keepdims=False, *, dim=None, keepdim=None):
        """NumPy's min: the values. With dim=, PyTorch's: (values, indices)."""
        return reduce.min(self, axis, keepdims, dim=dim, keepdim=keepdim)

    # ---- shapes ------------------------------------------------------------------------------

    def reshape(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        return shapes.reshape(self, shape)

    def transpose(self, *axes):
        """NumPy's transpose: `axes` is an order of ALL the axes (none given: reversed).
        PyTorch's x.transpose(0, 1), which swaps two axes, is x.swapaxes(0, 1) here; called
        that way where NumPy's meaning differs, it is an error, never a silent no-op."""
        if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
            axes = tuple(axes[0])
        elif len(axes) == 2 and (self.ndim != 2 or [a % 2 for a in axes] == [0, 1]):
            got = "the order they have" if self.ndim == 2 else "two of them only"
            raise ValueError(f"transpose{axes}: NumPy's transpose (this one) takes the new order "
                             f"of all {self.ndim} axes, and {axes} is {got}; to swap two axes, as "
                             f"PyTorch's transpose does, write swapaxes{axes}")
        return shapes.transpose(self, axes or None)

    @property
    def T(self):
        return shapes.transpose(self, None)

    def swapaxes(self, axis1, axis2):
        return shapes.swapaxes(self, axis1, axis2)

    def expand_dims(self, axis=None, *, dim=None):
        return shapes.expand_dims(self, axis, dim=dim)

    def squeeze(self, axis=None, *, dim=None):
        return shapes.squeeze(self, axis, dim=dim)

    def __getitem__(self, index):
        return shapes.getitem(self, index)


def _data(x):
    return x.data if isinstance(x, Tensor) else x


# The ops need Tensor, so they are imported once it exists.
from minigrad import autograd  # noqa: E402
from minigrad.ops import arithmetic, elementwise, reduce, shapes  # noqa: E402
