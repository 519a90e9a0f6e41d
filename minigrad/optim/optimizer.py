"""Optimizer: the base class of SGD and Adam.

An optimiser holds a list of parameters (tensors, in the order given), its hyper-parameters as
plain attributes (`opt.lr = 0.01` changes the learning rate for the next step, which is all a
schedule needs), and a per-parameter `state` (momentum buffers, moments, step counts) keyed by the
parameter's index in that list.

Each subclass writes its whole update in its own `step()`, so one breakpoint there shows the
algorithm from gradient to new weights. This file holds what they share: checking the
parameters, `zero_grad()`, and `state_dict()` / `load_state_dict()`.

The state dict has PyTorch's layout, so it reads the same as `torch.optim`'s:

    {"state": {0: {"momentum_buffer": array}, 1: {...}},          # only parameters with state
     "param_groups": [{"lr": 0.1, "momentum": 0.9, ..., "params": [0, 1, 2]}]}

and, once a learning-rate schedule has been made on the optimiser, its base "initial_lr" in the
group, as PyTorch keeps it.

minigrad has a single parameter group, so "param_groups" always has one entry.
"""

import numpy as np

from minigrad.settings import check_number


class Optimizer:
    """Holds the parameters, their state and the hyper-parameters; subclasses write `step()`.

    params           the parameters as a list, in the order given (a list, or module.parameters())
    state            {index: {name: array or number}} for parameters that have been updated
    hyperparameters  the names of the hyper-parameters (attributes of the optimiser), in order
    """

    hyperparameters = ()
    state_names = ()        # what one parameter's saved state holds (load_state_dict checks)
    initial_lr = None       # the lr when the first schedule on this optimiser was made: the base
                            # of every schedule on it (lr_scheduler.py), saved with the rest

    def __init__(self, params):
        self.params = list(params)      # the order fixes the indices used by state and state_dict
        self.state = {}
        if not self.params:
            raise ValueError(f"{type(self).__name__}: got an empty parameter list")
        seen = set()
        for i, p in enumerate(self.params):
            where = f"{type(self).__name__}: parameter {i}" + _name(p)
            if not (hasattr(p, "data") and hasattr(p, "grad")):
                raise TypeError(f"{where} is a {type(p).__name__}, not a tensor "
                                "(an object with .data and .grad)")
            if getattr(p, "creator", None) is not None:
                raise ValueError(f"{where} is the output of {type(p.creator).__name__}, not a "
                                 "leaf; optimise the leaf tensors that it was computed from")
            if id(p) in seen:
                raise ValueError(f"{where} appears more than once in the parameter list")
            if not p.data.flags.writeable:
                raise ValueError(f"{where} holds a read-only array, which the optimiser updates "
                                 "in place; give the tensor a copy: Tensor(array.copy())")
            seen.add(id(p))

    def check_hyperparameters(self, settings):
        """Raise a clear error for a hyper-parameter out of range or of the wrong type;
        `settings` maps each name in `hyperparameters` to its value."""

    def zero_grad(self):
        """Forget every parameter's gradient (set it to None), before the next backward."""
        for p in self.params:
            p.grad = None

    def step(self):
        raise NotImplementedError(f"{type(self).__name__} has no step")

    # ---- saving and resuming -----------------------------------------------------------------

    def state_dict(self):
        """The state and hyper-parameters, as copies: saving it with `minigrad.save` and loading
        it into a new optimiser over the same parameters resumes training exactly."""
        state = {i: {name: _copy(value) for name, value in entry.items()}
                 for i, entry in self.state.items()}
        group = {name: getattr(self, name) for name in self.hyperparameters}
        if self.initial_lr is not None:             # a schedule's base lr, as in PyTorch
            group["initial_lr"] = self.initial_lr
        group["params"] = list(range(len(self.params)))
        return {"state": state, "param_groups": [group]}

    def load_state_dict(self, state_dict):
        """Restore the state and hyper-parameters saved by `state_dict()` (arrays are copied
        and cast to their parameter's dtype)."""
        me = type(self).__name__
        if set(state_dict) != {"state", "param_groups"}:
            raise ValueError(f"{me}.load_state_dict: expected the keys 'state' and "
                             f"'param_groups', got {list(state_dict)}")
        if len(state_dict["param_groups"]) != 1:
            raise ValueError(f"{me}.load_state_dict: expected one parameter group, got "
                             f"{len(state_dict['param_groups'])}")
        group = dict(state_dict["param_groups"][0])
        indices = list(group.pop("params", []))
        initial_lr = group.pop("initial_lr", None)     # there once a schedule was made
        if indices != list(range(len(self.params))):
            raise ValueError(f"{me}.load_state_dict: the state dict is for {len(indices)} "
                             f"parameters, this optimiser has {len(self.params)}")
        if set(group) != set(self.hyperparameters):
            raise ValueError(f"{me}.load_state_dict: expected the hyper-parameters "
                             f"{list(self.hyperparameters)}, got {list(group)} "
                             "(a state dict of another kind of optimiser?)")

        self.check_hyperparameters(group)     # a NaN learning rate in a file is refused too
        if initial_lr is not None:
            check_number("initial_lr", initial_lr, low=0, where=f"{me}.load_state_dict")
        state = {}
        for i, entry in state_dict["state"].items():
            i = int(i)
            if not 0 <= i < len(self.params):
                raise ValueError(f"{me}.load_state_dict: state for parameter {i}, but there "
                                 f"are only {len(self.params)}")
            p = self.params[i]
            state[i] = {}
            if set(entry) != set(self.state_names):
                raise ValueError(f"{me}.load_state_dict: the state of parameter {i}{_name(p)} "
                                 f"should hold {list(self.state_names)}, got {list(entry)}")
            for name, value in entry.items():
                problem = self.check_state(name, value)
                if problem is not None:
                    raise ValueError(f"{me}.load_state_dict: state {name!r} of parameter "
                                     f"{i}{_name(p)} {problem}")
                if isinstance(value, np.ndarray):
                    if value.shape != p.data.shape:
                        raise ValueError(f"{me}.load_state_dict: state {name!r} of parameter "
                                         f"{i}{_name(p)} has shape {value.shape}, the "
                                         f"parameter has shape {p.data.shape}")
                    value = np.array(value, dtype=p.data.dtype)     # a copy of our own
                state[i][name] = value
        for name in self.hyperparameters:
            setattr(self, name, group[name])
        self.initial_lr = initial_lr
        self._restore_types()
        self.state = state

    def check_state(self, name, value):
        """None, or what is wrong with one saved state value: an array must hold finite numbers
        (a NaN there would surface later as a NaN weight, blamed on the learning rate); a count
        (Adam's `step`) must be a whole number from 0 to 2**53."""
        if isinstance(value, np.ndarray):
            if value.dtype.kind not in "fiu":
                return f"should hold real numbers, got dtype {value.dtype}"
            if not np.all(np.isfinite(value)):
                return "holds NaN or infinity"
            return None
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            return f"should be a whole number, got {value!r:.40} ({type(value).__name__})"
        if not 0 <= value <= 2 ** 53:
            shown = value if abs(value) < 10 ** 20 else f"a number of {len(str(abs(value)))} digits"
            return f"should be a count from 0 to 2**53, got {shown}"
        return None

    def _restore_types(self):
        """Undo what a round trip through a file may change (e.g. a tuple read back as a list)."""

    def __repr__(self):
        settings = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.hyperparameters)
        return f"{type(self).__name__}({len(self.params)} parameters, {settings})"


def _copy(value):
    return value.copy() if isinstance(value, np.ndarray) else value


def _name(p):
    name = getattr(p, "name", None)
    return "" if name is None else f" ({name!r})"
