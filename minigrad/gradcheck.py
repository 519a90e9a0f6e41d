"""gradcheck: compare the gradients backward computes with finite differences.

For a function f of some tensors, draw a random upstream gradient r (of f's output shape) and
look at the number s = sum(f(x) * r). Backward gives ds/dx for every element at once; the
central difference (s(x + eps) - s(x - eps)) / (2 eps) gives it one element at a time
(`minigrad.finite_differences`, shared with `debug.check_graph`). They must agree. A random r
(not all ones) is what catches a backward that forgets to multiply by the gradient arriving at
it.
"""

import inspect

import numpy as np

from minigrad import autograd
from minigrad.autograd import topological_order
from minigrad.finite_differences import central_difference
from minigrad.grad_mode import no_grad
from minigrad.tensor import Tensor


class GradcheckError(AssertionError):
    """The analytic and numeric gradients disagree (the message says where and by how much)."""


def gradcheck(fn, *inputs, eps=1e-6, atol=1e-5, rtol=1e-4, seed=0):
    """Check the gradients of `fn(*inputs)` with respect to every input that requires grad.

    Inputs that require grad must be float64 tensors; they are perturbed in place and restored.
    `fn` may return a tensor or a tuple of tensors. Returns True, or raises `GradcheckError`
    naming the input, the element, the analytic and numeric values and the largest error.

    While it runs, ops get read-only arrays (`autograd.strict`): a forward that writes into its
    inputs, or a backward into `grad_y`, fails at once instead of giving a wrong gradient. Every
    op it meets must keep the op contract (`settings`, `saves`: see `Function`).
    """
    previous, autograd.strict = autograd.strict, True
    try:
        return _gradcheck(fn, inputs, eps, atol, rtol, seed)
    finally:
        autograd.strict = previous


def _gradcheck(fn, inputs, eps, atol, rtol, seed):
    for i, name, grad, numeric in analytic_and_numeric(fn, inputs, eps, seed):
        disagreement(i, name, grad, numeric, atol, rtol)
    return True


def analytic_and_numeric(fn, inputs, eps=1e-6, seed=0, analytic_found=None):
    """[(input number, its name, the gradient backward gives, the central differences'), ...]
    for every input that requires grad: gradcheck's two halves are this and `disagreement`,
    apart so that a grader can compare, in its own process, what another process computed.
    `analytic_found([(input number, gradient), ...])`, if given, is called with the gradients
    before the finite differences run `fn` again: a grader keeps them there, out of reach of
    what those runs do."""
    checked = [(i, x) for i, x in enumerate(inputs) if isinstance(x, Tensor) and x.requires_grad]
    if not checked:
        raise ValueError("gradcheck: no input requires grad, so there is nothing to check")
    for i, x in checked:
        if x.dtype != np.float64:
            raise TypeError(f"gradcheck: input {i} is {x.dtype}; finite differences need float64 "
                            "(use Tensor(..., dtype=np.float64) or module.double())")

    rng = np.random.default_rng(seed)
    outputs = _as_tuple(fn(*inputs))
    for op in _ops(outputs):
        check_contract(op)
    upstream = [rng.standard_normal(out.shape) for out in outputs]

    def weighted_sum():                    # s = sum_k sum(out_k * r_k), a plain number
        with no_grad():
            outputs = _as_tuple(fn(*inputs))
            return sum(float(np.sum(out.data * r)) for out, r in zip(outputs, upstream))

    saved_grads = [x.grad for _, x in checked]
    for _, x in checked:
        x.grad = None
    try:
        send_back(outputs, upstream)
    except ValueError as error:
        if "read-only" not in str(error):
            raise
        raise GradcheckError("gradcheck: a backward wrote into grad_y (or another array it was "
                             "given) in place; that array may be another input's gradient too: "
                             "make a new array instead (grad = grad_y * s, not grad_y *= s). "
                             "The traceback above shows the line") from error
    analytic = [np.zeros_like(x.data) if x.grad is None else x.grad for _, x in checked]
    for (_, x), saved in zip(checked, saved_grads):
        x.grad = saved
    if analytic_found is not None:
        analytic_found([(i, grad) for (i, _), grad in zip(checked, analytic)])

    found = []
    for (i, x), grad in zip(checked, analytic):
        numeric = np.zeros_like(x.data)
        for k in np.ndindex(x.shape):      # each element in turn, nudged in place and restored
            numeric[k] = central_difference(lambda step: nudged(x, k, step, weighted_sum), eps)
        found.append((i, x.name, grad, numeric))
    return found


def disagreement(i, name, grad, numeric, atol=1e-5, rtol=1e-4):
    """Raise GradcheckError when the gradient of input number `i` (named `name`, or None)
    disagrees with its central differences: the element off the most, both values."""
    error = np.abs(grad - numeric)
    bad = error > atol + rtol * np.abs(numeric)
    if np.any(bad):
        k = np.unravel_index(np.argmax(np.where(bad, error, -1)), numeric.shape)
        name = f" ({name!r})" if name else ""
        raise GradcheckError(
            f"gradcheck: input {i}{name} of shape {numeric.shape}, element "
            f"{tuple(map(int, k))}: analytic {grad[k]:.8g}, numeric {numeric[k]:.8g}; "
            f"largest error {error.max():.3g} "
            f"({int(bad.sum())} of {numeric.size} elements off; atol={atol}, rtol={rtol})")


ENGINE_ATTRIBUTES = ("inputs", "needs_input_grad", "scope", "recorded_at", "created_at")


def undeclared(op):
    """What `op` keeps on itself that its class names neither in `settings` nor in `saves`
    (nor is the engine's own)."""
    declared = set(op.settings) | set(op.saves) | set(ENGINE_ATTRIBUTES)
    return [name for name in vars(op) if name not in declared]


def check_contract(op):
    """Raise GradcheckError when `op` keeps something on itself that its class does not declare:
    the in-place checks and the drawings read only the declared names."""
    for where in ("settings", "saves"):
        names = getattr(op, where)
        if not isinstance(names, tuple):
            raise GradcheckError(f"gradcheck: {type(op).__name__}.{where} must be a tuple of "
                                 f"names, not {names!r}: write ({names!r},) for one name")
    names = undeclared(op)
    if names:
        name, kind = names[0], type(op).__name__
        init = () if type(op).__init__ is object.__init__ else inspect.signature(
            type(op).__init__).parameters
        where, why = (("settings", "__init__ takes it") if name in init else
                      ("saves", "forward keeps it for backward"))
        kept = tuple(n for n in getattr(op, where) if n in vars(op)) + (name,)
        raise GradcheckError(
            f"gradcheck: {kind} keeps self.{name} but declares it neither in `settings` nor in "
            f"`saves`; add it to one: `{where} = {kept!r}` ({why})")


def _ops(outputs):
    ops = []
    for out in outputs:
        if out.requires_grad:
            ops += [t.creator for t in topological_order(out) if t.creator is not None]
    return list(dict.fromkeys(ops))


def nudged(x, k, step, weighted_sum):
    """weighted_sum() with element k of x moved by `step`, in place; x is restored after."""
    original = x.data[k]
    try:
        x.data[k] = original + step
        return weighted_sum()
    finally:
        x.data[k] = original


def _as_tuple(out):
    return tuple(out) if isinstance(out, (tuple, list)) else (out,)


def send_back(outputs, upstream):
    """Backpropagate one upstream gradient per output: backward of sum_k sum(out_k * r_k)."""
    total = None
    for out, r in zip(outputs, upstream):
        if out.requires_grad:
            term = (out * Tensor(r)).sum()
            total = term if total is None else total + term
    if total is not None:
        total.backward()
