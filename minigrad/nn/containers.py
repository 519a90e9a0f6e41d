"""Sequential and ModuleList, as in `torch.nn`: modules held under the names "0", "1", ...

A plain list attribute already works in minigrad (`self.layers = [Linear(4, 4), ...]` gives
`layers.0.weight`, as `Module` says); these two exist so that PyTorch code reads the same and
its state dicts copy across: `Sequential(Linear(4, 8), ReLU(), Linear(8, 2))` has the
parameters `0.weight`, `0.bias`, `2.weight`, `2.bias`, as PyTorch's.

Each submodule is an ordinary attribute whose name is its position (set with `setattr`, since
"0" is not a Python name), so `named_parameters`, `state_dict`, `train` and the repr find them
as they find any other attribute, in order.
"""

from minigrad.nn.module import Module


class ModuleList(Module):
    """A list of modules: indexing, len, iteration, append and extend. It has no forward; the
    module that holds it calls its members (`for block in self.blocks: x = block(x)`)."""

    def __init__(self, modules=()):
        for module in modules:
            self.append(module)

    def _positions(self):
        """The submodules in order: the attributes named "0", "1", ..."""
        return [value for name, value in vars(self).items() if name.isdigit()]

    def append(self, module):
        if not isinstance(module, Module):
            raise TypeError(f"{type(self).__name__}: expected a Module, got a "
                            f"{type(module).__name__}")
        setattr(self, str(len(self)), module)
        return self

    def extend(self, modules):
        for module in modules:
            self.append(module)
        return self

    @classmethod
    def _of(cls, modules):
        """A new container of this kind holding `modules` (what a slice returns)."""
        return cls(modules)

    def __len__(self):
        return len(self._positions())

    def __iter__(self):
        return iter(self._positions())

    def __getitem__(self, index):
        modules = self._positions()
        if isinstance(index, slice):
            return self._of(modules[index])
        try:
            return modules[index]
        except IndexError:
            raise IndexError(f"{type(self).__name__}: index {index} is out of range for "
                             f"{len(modules)} modules") from None


class Sequential(ModuleList):
    """Modules called one after another: `Sequential(a, b, c)(x)` is `c(b(a(x)))`.

    Indexing, len, iteration and append as ModuleList; a slice is a Sequential of the slice.
    """

    def __init__(self, *modules):
        super().__init__(modules)

    @classmethod
    def _of(cls, modules):
        return cls(*modules)

    def forward(self, x):
        for module in self:
            x = module(x)
        return x
