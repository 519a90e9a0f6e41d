"""Tensor: a NumPy array, the op that made it, and (after backward) its gradient.

Every operator is a plain method here that calls an op from `minigrad.ops`, so "go to definition"
on `x + y` leads to `Tensor.__add__` and from there to the `Add` op.
"""

import numpy as np


class Tensor:
    """A NumPy array in a computation graph.

    data           the np.ndarray
    grad           d(root)/d(self) after backward (leaves only), an np.ndarray, or None
    requires_grad  whether gradients flow to this tensor
    creator        the op (a `Function`) that made it; None for a leaf
    name           an optional label, shown in reprs, errors and drawings
    """

    __slots__ = ("data", "grad", "requires_grad", "creator", "name", "__weakref__")
    __array_ufunc__ = None     # `array + tensor` calls Tensor.__radd__; np.exp(tensor) is an error

    def __init__(self, data, requires_grad=False, name=None, dtype=None):
        if isinstance(data, Tensor):
            data = data.data
        if isinstance(data, (np.ndarray, np.generic)):     # NumPy arrays keep their dtype
            data = np.asarray(data, dtype=dtype)
        else:                                   # Python numbers and lists become float64
            data = np.asarray(data, dtype=np.float64 if dtype is None else dtype)
        if requires_grad and not np.issubdtype(data.dtype, np.floating):
            label = "Tensor" if name is None else f"Tensor {name!r}"
            raise TypeError(f"{label}: only floating-point "
                            f"tensors can require grad, this one is {data.dtype}")
        self.data = data
        self.grad = None
        self.requires_grad = bool(requires_grad)
        self.creator = None
        self.name = name

    @classmethod
    def _from_op(cls, data):
        """The output of an op (no checks: the op made the array)."""
        t = cls.__new__(cls)
        t.data = data if type(data) is np.ndarray else np.asarray(data)   # NumPy scalar -> 0-d
        t.grad = None
        t.requires_grad = False
        t.creator = None
        t.name = None
        return t

    # ---- what it is ----------------------------------------------------------------------

    @property
    def shape(self):
        return self.data.shape

    @property
    def ndim(self):
        return self.data.ndim

    @property
    def dtype(self):
        return self.data.dtype

    @property
    def size(self):
        return self.data.size

    def __len__(self):
        return len(self.data)

    def item(self):
        return self.data.item()

    def numpy(self):
        """The array itself (shared, not copied)."""
        return self.data

    def detach(self):
        """The same array as a new leaf that does not require grad."""
        return Tensor(self.data, name=self.name)

    def __repr__(self):
        parts = []
        if self.name is not None:
            parts.append(f"name={self.name!r}")
        parts.append(f"shape={self.data.shape}")
        parts.append(f"dtype={self.data.dtype}")
        if self.creator is not None:
            parts.append(f"creator={type(self.creator).__name__}")
        elif self.requires_grad:
            parts.append("requires_grad=True")
        values = np.array2string(self.data, precision=4, threshold=6, edgeitems=2,
                                 separator=", ").replace("\n", "")
        parts.append(f"data={values}")
        return f"Tensor({', '.join(parts)})"

    __hash__ = object.__hash__       # comparisons return arrays, so keep identity hashing

    # ---- gradients -----------------------------------------------------------------------

    def backward(self, grad=None):
        """Compute d(self)/d(leaf) for every leaf; `grad` is needed when self is not a scalar."""
        autograd.backward(self, grad)

    def zero_grad(self):
        self.grad = None

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

    # ---- reductions --------------------------------------------------------------------------

    def sum(self, axis=None, keepdims=False):
        return reduce.sum(self, axis, keepdims)

    def mean(self, axis=None, keepdims=False):
        return reduce.mean(self, axis, keepdims)

    def max(self, axis=None, keepdims=False):
        return reduce.max(self, axis, keepdims)

    def min(self, axis=None, keepdims=False):
        return reduce.min(self, axis, keepdims)

    # ---- shapes ------------------------------------------------------------------------------

    def reshape(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        return shapes.reshape(self, shape)

    def transpose(self, *axes):
        if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
            axes = tuple(axes[0])
        return shapes.transpose(self, axes or None)

    @property
    def T(self):
        return shapes.transpose(self, None)

    def swapaxes(self, axis1, axis2):
        return shapes.swapaxes(self, axis1, axis2)

    def expand_dims(self, axis):
        return shapes.expand_dims(self, axis)

    def squeeze(self, axis=None):
        return shapes.squeeze(self, axis)

    def __getitem__(self, index):
        return shapes.getitem(self, index)


def _data(x):
    return x.data if isinstance(x, Tensor) else x


# The ops need Tensor, so they are imported once it exists.
from minigrad import autograd  # noqa: E402
from minigrad.ops import arithmetic, elementwise, reduce, shapes  # noqa: E402
