"""check_graph(root): find the op whose backward is wrong, inside a graph of any size.

`gradcheck` checks a whole function at once; in a large model it can only say that something is
wrong. `check_graph` checks each op of the graph on its own. For every op, in the order backward
visits them, it runs the op's forward again on the arrays the op received (in float64, on a
fresh copy of the op, so the graph is left as it was) and compares the op's backward, given a
random upstream gradient r, with central differences of sum(forward(x) * r). The first op that
disagrees is reported: the op, the input and the worst element, where the op's backward is
written, and where the op was created (when the graph was built inside `record_sites()`, `trace()`
or `detect_anomaly()`; noting the line takes time on every op, so it is not done by default).

It returns; it prints nothing. In a script, print the result (`print(check_graph(loss))`: a
`Mismatch` prints as the report, a correct graph as None), test it (`if mismatch:` a `Mismatch`
is true, None false), or pass `raise_on_mismatch=True` to get a `GraphCheckError` instead.

- Inputs of up to `max_elements` elements are checked element by element; larger ones at that
  many elements picked at random, and then once more along a random direction, which a wrong
  gradient anywhere in the array changes.
- An element where the forward has a kink (ReLU at 0, a tie in max, clip at its bounds) has no
  derivative to compare: its slopes to the left and to the right differ. It is skipped.
- Forward is run again with the random generator as it was, so dropout draws the same mask.
- Values that hold NaN (or an inf where the check lands on it) leave nothing to compare: that is
  a `ValueError` naming the op and the input, not a mismatch blamed on a correct backward. Find
  where the NaN came from with `detect_anomaly()`. (An inf that a mask puts into scores is fine:
  no gradient flows through it, and none is compared there.)
- A root that no recorded op made (a leaf, or a result computed under `no_grad()`) leaves
  nothing to check: a `ValueError` too, rather than a None that would read "all ops agree".
"""

import copy
from dataclasses import dataclass

import numpy as np

from minigrad import random
from minigrad.autograd import topological_order
from minigrad.debug.show import label
from minigrad.debug.watch import short_path, where_created
from minigrad.finite_differences import central_difference
from minigrad.settings import check_number
from minigrad.tensor import Tensor


class GraphCheckError(AssertionError):
    """check_graph(..., raise_on_mismatch=True) found an op whose backward is wrong. The message
    is the Mismatch's report; the Mismatch itself is `error.mismatch`."""

    def __init__(self, mismatch):
        super().__init__(str(mismatch))
        self.mismatch = mismatch


@dataclass
class Mismatch:
    """The first op whose backward disagrees with finite differences of its forward."""
    step: int                   # its place in backward order (1: the op that made the root)
    op: object                  # the op itself: look at op.inputs, or call op.backward
    input: int                  # the input whose gradient is wrong
    element: tuple = None       # the worst element (None: seen only along a random direction)
    backward: float = None      # what the op's backward gave there
    numeric: float = None       # what finite differences give
    wrong: int = 0              # how many of the `checked` elements disagree
    checked: int = 0
    problem: str = ""           # in words, when it is not a plain disagreement (a wrong shape)

    def __str__(self):
        x = self.op.inputs[self.input]
        where = f"input {self.input} ({label(x)}, shape {x.shape})"
        if self.problem:
            detail = f"  {where}: {self.problem}"
        elif self.element is None:
            detail = (f"  {where}, along a random direction: backward gives {self.backward:.8g}, "
                      f"finite differences {self.numeric:.8g} (the {self.checked} elements "
                      "checked one by one agreed)")
        else:
            detail = (f"  {where}, element {self.element}: backward gives {self.backward:.8g}, "
                      f"finite differences {self.numeric:.8g} ({self.wrong} of "
                      f"{self.checked} checked elements disagree)")
        site = where_created(self.op) or ("  created at: unknown (build the graph inside "
                                          "`with minigrad.debug.record_sites():` to know)")
        return (f"check_graph: step {self.step} of backward, {self.op!r}, disagrees with finite "
                f"differences of its own forward\n{detail}\n{written_at(self.op)}\n{site}")

    __repr__ = __str__


def written_at(op):
    """'  its backward: my_ops.py:12 (Swish.backward)': where the code to look at is."""
    backward = type(op).backward
    code = getattr(backward, "__code__", None)
    if code is None:
        return f"  its backward: {backward.__qualname__}"
    return (f"  its backward: {short_path(code.co_filename)}:{code.co_firstlineno} "
            f"({backward.__qualname__})")


def check_graph(root, eps=1e-6, atol=1e-5, rtol=1e-4, max_elements=64, seed=0,
                raise_on_mismatch=False):
    """Check every op behind `root`, in backward order; return the first `Mismatch`, or None
    when every op's backward agrees with its forward. It prints nothing: print the result.
    With `raise_on_mismatch=True` a mismatch raises `GraphCheckError` (an AssertionError)."""
    _check_arguments(root, eps, atol, rtol, max_elements, seed, raise_on_mismatch)
    rng = np.random.default_rng(seed)
    generator = random.generator()
    state = generator.bit_generator.state
    ops = [t.creator for t in reversed(topological_order(root)) if t.creator is not None]
    try:
        for step, op in enumerate(ops, 1):
            mismatch = check_op(op, rng, eps, atol, rtol, max_elements)
            if mismatch is not None:
                mismatch.step = step
                if raise_on_mismatch:
                    raise GraphCheckError(mismatch)
                return mismatch
    finally:
        generator.bit_generator.state = state         # as if nothing had been drawn
    return None


def _check_arguments(root, eps, atol, rtol, max_elements, seed, raise_on_mismatch):
    """One line naming the argument that is wrong, before any work."""
    if not isinstance(root, Tensor):
        raise TypeError(f"check_graph: root should be a minigrad Tensor (the loss), got "
                        f"{type(root).__name__}")
    if root.creator is None:
        made = ("a leaf" if root.requires_grad else "a leaf, or a result computed under "
                "no_grad() or from tensors that do not require grad")
        raise ValueError(f"check_graph: root was made by no recorded op ({made}): there is no "
                         f"backward to check")
    check_number("eps", eps, low=0, low_open=True, where="check_graph")
    check_number("atol", atol, low=0, where="check_graph")
    check_number("rtol", rtol, low=0, where="check_graph")
    check_number("max_elements", max_elements, low=0, integer=True, where="check_graph")
    check_number("seed", seed, low=0, integer=True, where="check_graph")
    if not isinstance(raise_on_mismatch, bool):
        raise TypeError(f"check_graph: raise_on_mismatch should be True or False, got "
                        f"{raise_on_mismatch!r}")


def _not_finite(op, what, values):
    """The ValueError for values that hold NaN (or inf): no comparison is possible."""
    values = np.asarray(values, dtype=np.float64)
    nans, infs = int(np.isnan(values).sum()), int(np.isinf(values).sum())
    held = " and ".join(f"{n} {kind}" for n, kind in ((nans, "NaN"), (infs, "inf")) if n)
    return ValueError(f"check_graph: {what} of {op!r} holds {held} of {values.size} "
                      f"element(s): the values are not finite, so there is nothing to compare "
                      f"(find where they come from with minigrad.debug.detect_anomaly())")


def check_op(op, rng, eps=1e-6, atol=1e-5, rtol=1e-4, max_elements=64):
    """One op: its backward against finite differences of its forward (a Mismatch, or None)."""
    generator = random.generator()
    start = generator.bit_generator.state

    def forward(arrays):
        twin = copy.copy(op)                        # the op in the graph keeps what it saved
        generator.bit_generator.state = start       # the same random draws every time
        with np.errstate(all="ignore"):
            return twin, np.asarray(twin.forward(*arrays), dtype=np.float64)

    arrays = [x.data.astype(np.float64) if np.issubdtype(x.dtype, np.floating) else x.data
              for x in op.inputs]
    for i, (x, a) in enumerate(zip(op.inputs, arrays)):
        if np.issubdtype(a.dtype, np.floating) and np.isnan(a).any():
            raise _not_finite(op, f"input {i} ({label(x)}, shape {x.shape})", a)
    twin, y = forward(arrays)
    if np.isnan(y).any():
        raise _not_finite(op, "the output", y)
    finite = np.isfinite(y)                         # an inf output (a mask's -inf) is constant:
    upstream = np.where(finite, rng.standard_normal(y.shape), 0.0)   # no gradient flows there
    with np.errstate(all="ignore"):
        grads = twin.backward(upstream)
    if not isinstance(grads, tuple) or len(grads) != len(arrays):
        return Mismatch(0, op, 0, problem=f"backward returned {_count(grads)} gradient(s) for "
                                          f"{len(arrays)} input(s)")

    def weighted_sum(arrays):                       # s = sum(forward(x) * r), a number
        with np.errstate(all="ignore"):
            return float(np.sum(np.where(finite, forward(arrays)[1] * upstream, 0.0)))

    def slope(i, direction, base):                  # ds along `direction` in input i (None:
        def moved(step):                            # a kink, no derivative to compare)
            return weighted_sum(arrays[:i] + [arrays[i] + step * direction] + arrays[i + 1:])
        return central_difference(moved, eps, base)

    base = weighted_sum(arrays)
    for i, x in enumerate(op.inputs):
        if not x.requires_grad:
            continue
        grad = np.zeros(x.shape) if grads[i] is None else np.asarray(grads[i], np.float64)
        if grad.shape != x.shape:
            return Mismatch(0, op, i, problem=f"backward returned a gradient of shape "
                                              f"{grad.shape} for an input of shape {x.shape}")
        size = x.data.size
        picks = (range(size) if size <= max_elements
                 else np.sort(rng.choice(size, max_elements, replace=False)))
        worst, wrong, checked = None, 0, 0
        for flat in picks:
            k = np.unravel_index(flat, x.shape)
            unit = np.zeros(x.shape)
            unit[k] = 1.0
            numeric = slope(i, unit, base)
            if numeric is None:
                continue
            checked += 1
            error = abs(grad[k] - numeric)
            if not error <= atol + rtol * abs(numeric):         # NaN counts as wrong
                wrong += 1
                if not np.isfinite(arrays[i][k]):          # an inf that no mask hides
                    raise _not_finite(op, f"input {i} ({label(x)}, shape {x.shape})", arrays[i])
                if worst is None or not error <= worst[0]:
                    worst = (error, tuple(int(j) for j in k), float(grad[k]), numeric)
        if worst is not None:
            return Mismatch(0, op, i, worst[1], worst[2], worst[3], wrong, checked)
        if size > max_elements:
            direction = rng.standard_normal(x.shape)
            numeric = slope(i, direction, base)
            along = float(np.sum(grad * direction))
            scale = float(np.sum(np.abs(grad * direction)))
            if numeric is not None and not abs(along - numeric) <= atol + rtol * scale:
                return Mismatch(0, op, i, None, along, numeric, 1, checked)
    return None


def _count(grads):
    return len(grads) if isinstance(grads, tuple) else type(grads).__name__
