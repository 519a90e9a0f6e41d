"""TensorBase: what a tensor holds (its array, the op that made it, its gradient, its hooks)
and the methods that only read or set those. `Tensor` (minigrad/tensor.py) builds on it and adds
the methods that compute: its operators, which call the ops. PyTorch's Tensor is built the same
way, on a `TensorBase`."""

import numpy as np

from minigrad import versions


class TensorBase:
    """A NumPy array in a computation graph: the fields. See `minigrad.Tensor`.

    data           the np.ndarray (a property: see `data` below)
    grad           d(root)/d(self) after backward (leaves only), an np.ndarray, or None
    requires_grad  whether gradients flow to this tensor
    creator        the op (a `Function`) that made it; None for a leaf
    name           an optional label, shown in reprs, errors and drawings
    hooks          functions called with its gradient during backward (`register_hook`), or None
    retains_grad   whether an intermediate tensor keeps its gradient (`retain_grad`)
    _version       when its array was last changed in place through it (`minigrad.versions`)

    The fields are slots, not a dict per tensor: each is cheaper to read, and a graph of many
    small ops holds many tensors.
    """

    __slots__ = ("_data", "grad", "requires_grad", "creator", "name", "hooks", "retains_grad",
                 "_version", "__weakref__")

    def __init__(self, data, requires_grad=False, name=None, dtype=None):
        if isinstance(data, TensorBase):
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
    def _from_op(cls, data, creator):
        """The output of an op: an ndarray, checked by `Function.__call__`; `creator` is the op
        when it is recorded in the graph, else None."""
        t = cls.__new__(cls)
        t._data = data
        t._version = 0
        t.grad = None
        t.requires_grad = creator is not None
        t.creator = creator
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

    # ---- gradients -----------------------------------------------------------------------

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


class RemovableHandle:
    """What `register_hook` returns: `handle.remove()` takes the hook off again."""

    def __init__(self, hooks, hook):
        self.hooks, self.hook = hooks, hook

    def remove(self):
        if self.hook in self.hooks:
            self.hooks.remove(self.hook)
