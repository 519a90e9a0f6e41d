"""Tensor: a NumPy array, the op that made it, and (after backward) its gradient.

Every operator is a plain method here that calls an op from `minigrad.ops`, so "go to definition"
on `x + y` leads to `Tensor.__add__` and from there to the `Add` op.
"""

import numpy as np

from minigrad import versions


class Tensor:
    """A NumPy array in a computation graph.

    data           the np.ndarray (a property: see `data` below)
    grad           d(root)/d(self) after backward (leaves only), an np.ndarray, or None
    requires_grad  whether gradients flow to this tensor
    creator        the op (a `Function`) that made it; None for a leaf
    name           an optional label, shown in reprs, errors and drawings
    hooks          functions called with its gradient during backward (`register_hook`), or None
    retains_grad   whether an intermediate tensor keeps its gradient (`retain_grad`)
    _version       when its array was last changed in place through it (`minigrad.versions`)
    """

    __slots__ = ("_data", "grad", "requires_grad", "creator", "name", "hooks", "retains_grad",
                 "_version", "__weakref__")
    __array_ufunc__ = None     # `array + tensor` calls Tensor.__radd__; np.exp(tensor) is an error

    def __init__(self, data, requires_grad=False, name=None, dtype=None):
        if isinstance(data, Tensor):
            data = data._data
        if isinstance(data, (np.ndarray, np.generic)):     # NumPy arrays keep their dtype
            data = np.asarray(data, dtype=dtype)
        else:                                   # Python numbers and lists become float64
            data = np.asarray(data, dtype=np.float64 if dtype is None else dtype)
        if requires_grad and not np.issubdtype(data.dtype, np.floating):
            label = "Tensor" if name is None else f"Tensor {name!r}"
            raise TypeError(f"{label}: only floating-point "
                            f"tensors can require grad, this one is {data.dtype}")
        self._data = data
        self._version = 0
        self.grad = None
        self.requires_grad = bool(requires_grad)
        self.creator = None
        self.name = name
        self.hooks = None
        self.retains_grad = False

    @classmethod
    def _from_op(cls, data):
        """The output of an op: an ndarray, checked by `Function.__call__`."""
        t = cls.__new__(cls)
        t._data = data
        t._version = 0
        t.grad = None
        t.requires_grad = False
        t.creator = None
        t.name = None
        t.hooks = None
        t.retains_grad = False
        return t

    # ---- what it is ----------------------------------------------------------------------

    @property
    def data(self):
        """The array. Assigning the same array back, which is what `t.data -= 1` does once NumPy
        has changed it in place, is an in-place change: it moves t's version, and a backward that
        would use the array raises. A different array replaces it and moves nothing: no array an
        op saved has changed (minigrad/versions.py)."""
        return self._data

    @data.setter
    def data(self, array):
        if array is self._data:         # `t.data -= 1`: NumPy changed the array in place, then
            versions.bump(self)         # Python assigns the same array back: an in-place change
        else:                           # a new array: what ops saved is untouched, no bump
            self._data = array

    @property
    def shape(self):
        return self._data.shape

    @property
    def ndim(self):
        return self._data.ndim

    @property
    def dtype(self):
        return self._data.dtype

    @property
    def size(self):
        return self._data.size

    def __len__(self):
        """The length of the first axis, as for a NumPy array and a PyTorch tensor."""
        if self.data.ndim == 0:
            raise TypeError(f"len() of a 0-d tensor (shape (), value {self.data.item()!r}); "
                            "use .item() for its value or .size for its number of elements")
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

    def backward(self, grad=None, break_on=None):
        """Compute d(self)/d(leaf) for every leaf; `grad` is needed when self is not a scalar.
        break_on="Softmax" (an op's class name, or a predicate op -> bool) opens the debugger
        just before that op's backward."""
        autograd.backward(self, grad, break_on)

    def zero_grad(self):
        self.grad = None

    def register_hook(self, hook):
        """Call `hook(grad)` during backward, once this tensor's gradient is complete. The hook
        gets the array (read-only) and may return a new one to pass on instead. As in PyTorch;
        returns a handle whose `remove()` takes the hook off."""
        if not self.requires_grad:
            raise RuntimeError("register_hook: this tensor does not require grad, so no gradient "
                               "ever reaches it")
        if self.hooks is None:
            self.hooks = []
        self.hooks.append(hook)
        return RemovableHandle(self.hooks, hook)

    def retain_grad(self):
        """Keep `.grad` on this intermediate tensor after backward (adding up over calls, as on a
        leaf, until zero_grad()). Leaves keep theirs anyway. As in PyTorch."""
        if not self.requires_grad:
            raise RuntimeError("retain_grad: this tensor does not require grad")
        if self.creator is not None:
            self.retains_grad = True            # backward() keeps its gradient, after the hooks

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


class RemovableHandle:
    """What `register_hook` returns: `handle.remove()` takes the hook off again."""

    def __init__(self, hooks, hook):
        self.hooks, self.hook = hooks, hook

    def remove(self):
        if self.hook in self.hooks:
            self.hooks.remove(self.hook)


def _data(x):
    return x.data if isinstance(x, Tensor) else x


# The ops need Tensor, so they are imported once it exists.
from minigrad import autograd  # noqa: E402
from minigrad.ops import arithmetic, elementwise, reduce, shapes  # noqa: E402
