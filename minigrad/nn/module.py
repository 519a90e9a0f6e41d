"""Module and Parameter: the base of every layer, as in `torch.nn`.

A `Parameter` is a tensor that a module learns. A `Module` is a plain Python object: its
parameters and submodules are ordinary attributes, set in `__init__`. There is no bookkeeping on
assignment (no `__setattr__`): `named_parameters()` finds everything by walking `vars(self)` in
the order the attributes were set, going into submodules, and into lists and dicts of them.

    class Tagger(Module):
        def __init__(self):
            self.embedding = Embedding(10, 8)     # -> embedding.weight
            self.lstm = LSTM(8, 16)               # -> lstm.weight_ih_l0, ...
            self.heads = [Linear(16, 5)]          # -> heads.0.weight, heads.0.bias

        def forward(self, ids):
            outputs, _ = self.lstm(self.embedding(ids))
            return self.heads[0](outputs)
"""

from collections import namedtuple

import numpy as np

from minigrad.settings import check_number
from minigrad.tensor import Tensor


class Parameter(Tensor):
    """A tensor that a module learns: it requires grad, and `Module.parameters()` finds it.

    A NumPy array keeps its dtype; Python numbers and lists become float32, the default dtype of
    parameters (as in PyTorch).
    """

    __slots__ = ()                        # Tensor uses __slots__; a Parameter adds nothing

    def __init__(self, data, requires_grad=True, name=None, dtype=None):
        if dtype is None and not isinstance(data, (np.ndarray, Tensor)):
            dtype = np.float32
        super().__init__(data, requires_grad=requires_grad, name=name, dtype=dtype)

    def __repr__(self):
        return "Parameter" + super().__repr__()[len("Tensor"):]


IncompatibleKeys = namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])


class Module:
    """The base class of layers and models.

    Subclasses set parameters and submodules as attributes in `__init__` and write `forward`;
    calling the module calls `forward`. `training` is True until `eval()`.
    """

    training = True                       # a class default: subclasses need not call __init__

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f"{type(self).__name__} has no forward")

    # ---- finding parameters and submodules ------------------------------------------------

    def named_parameters(self, remove_duplicate=True):
        """(dotted name, Parameter) pairs, depth first, in the order the attributes were set.
        A parameter shared by two modules is listed once, under the first name it is found at.
        (PyTorch lists a module's own parameters before its submodules'; here the order is
        simply that of the attributes, as `__init__` sets them.)"""
        for name, member in _walk(self, "", remove_duplicate):
            if isinstance(member, Parameter):
                yield name, member

    def parameters(self):
        for _, parameter in self.named_parameters():
            yield parameter

    def named_modules(self):
        """(dotted name, Module) pairs: this module (named "") and then each submodule, once."""
        yield "", self
        for name, member in _walk(self, "", remove_duplicate=True):
            if isinstance(member, Module):
                yield name, member

    def modules(self):
        for _, module in self.named_modules():
            yield module

    def num_parameters(self):
        """How many numbers the module learns (a shared parameter counts once)."""
        return sum(p.size for p in self.parameters())

    # ---- training ---------------------------------------------------------------------------

    def zero_grad(self):
        """Forget the gradients of every parameter (they add up over backward calls until then)."""
        for p in self.parameters():
            p.grad = None

    def train(self, mode=True):
        """Set `training` on this module and every submodule (Dropout looks at it). Returns self."""
        for module in self.modules():
            module.training = mode
        return self

    def eval(self):
        """The same as `train(False)`."""
        return self.train(False)

    # ---- dtype ------------------------------------------------------------------------------

    def to(self, dtype):
        """Convert every parameter (and its gradient, if any) to `dtype`, in place. Returns self.
        The Parameter objects stay the same, so an optimiser that holds them keeps working."""
        dtype = np.dtype(dtype)
        if not np.issubdtype(dtype, np.floating):
            raise TypeError(f"{type(self).__name__}.to: parameters must be floating-point, "
                            f"not {dtype}")
        for p in self.parameters():
            if p.dtype != dtype:            # assigning the same array back would count as a change
                p.data = p.data.astype(dtype)
            if p.grad is not None:
                p.grad = p.grad.astype(dtype, copy=False)
        return self

    def float(self):
        return self.to(np.float32)

    def double(self):
        return self.to(np.float64)

    # ---- saving and loading -------------------------------------------------------------

    def state_dict(self):
        """{dotted name: a copy of the parameter's array}. A shared parameter appears under each
        of its names, as in PyTorch, so the dict loads into the same PyTorch model."""
        return {name: p.data.copy() for name, p in self.named_parameters(remove_duplicate=False)}

    def load_state_dict(self, state_dict, strict=True):
        """Copy arrays into the parameters, by name. Values may be NumPy arrays, minigrad
        tensors or PyTorch tensors; each is converted to its parameter's dtype.

        With strict=True, a name that the module has and the dict lacks (missing), or the other
        way round (unexpected), is an error. A shape mismatch is always an error. Nothing is
        copied unless everything fits. Returns (missing_keys, unexpected_keys).
        """
        own = dict(self.named_parameters(remove_duplicate=False))
        missing = [name for name in own if name not in state_dict]
        unexpected = [name for name in state_dict if name not in own]
        arrays, problems = {}, []
        if strict and missing:
            problems.append(f"missing keys (in the model, not in the state dict): {missing}")
        if strict and unexpected:
            problems.append(f"unexpected keys (in the state dict, not in the model): {unexpected}")
        for name, p in own.items():
            if name in state_dict:
                arrays[name] = _as_array(state_dict[name])
                kind = arrays[name].dtype.kind
                if kind not in "biuf":          # numbers only: no objects, strings, dates
                    problems.append(f"{name} holds an array of dtype {arrays[name].dtype}, "
                                    "not numbers")
                elif arrays[name].shape != p.shape:
                    problems.append(f"shape mismatch for {name}: the state dict has "
                                    f"{arrays[name].shape}, the model has {p.shape}")
        if problems:
            raise RuntimeError(f"{type(self).__name__}.load_state_dict: "
                               + "; ".join(problems))
        for name, array in arrays.items():
            own[name].data = np.array(array, dtype=own[name].dtype)   # a copy, never shared
        return IncompatibleKeys(missing, unexpected)

    # ---- printing ---------------------------------------------------------------------------

    def extra_repr(self):
        """The settings shown in the module's header line, e.g. 'in_features=3, out_features=2'."""
        return ""

    def __repr__(self):
        """The tree of submodules, each with its parameters' shapes and dtypes:

        Linear(in_features=3, out_features=2, bias=True)
          weight: (2, 3) float32
          bias: (2,) float32
        """
        header = f"{type(self).__name__}({self.extra_repr()})"
        return "\n".join([header] + _tree(self, 1, {id(self): "the module itself"}))


# ---------------------------------------------------------------------------------------------
# Walking the attributes
# ---------------------------------------------------------------------------------------------

def _members(module):
    """(name, member) for the Parameters and Modules among the module's attributes, in the order
    they were set; a list or tuple gives 'name.0', 'name.1', ..., a dict 'name.key'."""
    for name, value in vars(module).items():
        if isinstance(value, (Parameter, Module)):
            yield name, value
        elif isinstance(value, (list, tuple)):
            for i, item in enumerate(value):
                if isinstance(item, (Parameter, Module)):
                    yield f"{name}.{i}", item
        elif isinstance(value, dict):
            for key, item in value.items():
                if isinstance(item, (Parameter, Module)):
                    yield f"{name}.{key}", item


def _walk(module, prefix, remove_duplicate, seen=None, ancestors=()):
    """Every Parameter and submodule under `module`, depth first, as (dotted name, member).
    With remove_duplicate, a member met again (shared) is skipped. A reference back up to an
    ancestor (a cycle) is never followed."""
    seen = set() if seen is None else seen
    ancestors = ancestors + (id(module),)
    for name, member in _members(module):
        if id(member) in ancestors:
            continue
        if remove_duplicate:
            if id(member) in seen:
                continue
            seen.add(id(member))
        yield prefix + name, member
        if isinstance(member, Module):
            yield from _walk(member, prefix + name + ".", remove_duplicate, seen, ancestors)


def _tree(module, depth, seen, prefix=""):
    """The lines of a module's repr below its header, indented by `depth`."""
    lines, pad = [], "  " * depth
    for name, member in _members(module):
        if id(member) in seen:
            lines.append(f"{pad}{name}: shared with {seen[id(member)]}")
            continue
        seen[id(member)] = prefix + name
        if isinstance(member, Parameter):
            lines.append(f"{pad}{name}: {member.shape} {member.dtype}")
        else:
            lines.append(f"{pad}{name}: {type(member).__name__}({member.extra_repr()})")
            lines.extend(_tree(member, depth + 1, seen, prefix + name + "."))
    return lines


def _as_array(value):
    """A state-dict value as a NumPy array: arrays as they are, minigrad tensors by their data,
    PyTorch tensors through .detach().cpu().numpy()."""
    if isinstance(value, Tensor):
        return value.data
    if hasattr(value, "detach") and hasattr(value, "cpu"):
        return value.detach().cpu().numpy()
    return np.asarray(value)


def check_dtype(module, x, weight):
    """Refuse an input whose dtype differs from the layer's parameters (as PyTorch does), rather
    than silently computing in the wider of the two."""
    dtype = np.asarray(x.data if isinstance(x, Tensor) else x).dtype
    if dtype != weight.dtype:
        raise TypeError(f"{type(module).__name__}: the input is {dtype} but the layer's "
                        f"parameters are {weight.dtype}; convert one of them (e.g. "
                        f"Tensor(x, dtype=np.{weight.dtype}) or layer.to(np.{dtype}))")


def check_sizes(layer, **sizes):
    """Every size an integer >= 1: a size of 0 makes empty weights (and 1/sqrt(0) in their
    initialisation), a float or a negative size fails deep inside NumPy without naming the layer.
    check_sizes("LSTM", hidden_size=0) -> ValueError: LSTM: hidden_size must be an integer >= 1"""
    for name, size in sizes.items():
        check_number(name, size, low=1, integer=True, where=layer)
