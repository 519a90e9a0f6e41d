"""The engine: the base class of every op, and the backward pass.

Read this file in one sitting; it is all of reverse-mode autodiff:

- An op is a `Function`. Calling it runs `forward` on plain NumPy arrays and, when a gradient is
  wanted, records the op as the `creator` of its output and keeps its `inputs` (a list, in
  argument order).
- `backward(root)` sorts the graph (an iterative depth-first search, so long chains never hit
  Python's recursion limit), then walks it from the root to the leaves, calling each op's
  `backward` once with the gradient that arrived at its output.
- Gradients of intermediate tensors live in a dict local to one backward call; only leaves keep
  theirs, adding up over calls until `zero_grad()`.
- An op notes the version clock when it is recorded; if an array it saved was changed in place
  through a tensor since, its backward is not run: an error says so (`minigrad/versions.py`).

The walk itself is the generator `backward_pass`, which can pause after each op: `backward()` runs
it in one go, and `minigrad.debug.backward_steps` hands you one op at a time. `minigrad.debug` also
watches the ops go by (trace, anomaly detection, the saved-array guard) through `watchers`.
"""

import inspect
import warnings

import numpy as np

from minigrad import grad_mode, scopes, versions
from minigrad.tensor import Tensor


# ---------------------------------------------------------------------------------------------
# Watchers: how minigrad.debug sees every op go by
# ---------------------------------------------------------------------------------------------

watchers = []       # objects with after_forward(op, inputs, out), before_backward(op, out, grad_y)
                    # and after_backward(op, out, grad_y, grads_in): `minigrad.debug`'s trace(),
                    # detect_anomaly() and guard_saved() add one while open. While the list is
                    # empty they cost one `if` per op.


# ---------------------------------------------------------------------------------------------
# Function: the base class of every op
# ---------------------------------------------------------------------------------------------

class Function:
    """One op. Subclasses write `forward(*arrays) -> array` and `backward(grad_y) -> tuple`.

    Settings go to `__init__` (they show in the op's repr); whatever `backward` needs is saved on
    `self` by `forward`, as arrays. `backward` returns one gradient per input, each of that
    input's shape, or `None` where an input needs none. One instance is one call of the op.
    """

    inputs = ()
    scope = ()
    recorded_at = 0     # the version clock when the op was recorded (see minigrad/versions.py)

    def __call__(self, *args):
        inputs = [x if isinstance(x, Tensor) else _constant(x, args) for x in args]
        try:
            y = self.forward(*[x._data for x in inputs])
        except (ValueError, IndexError, TypeError) as error:
            raise _with_op_and_shapes(error, self, inputs) from error
        out = Tensor._from_op(y)
        if grad_mode.enabled:                           # not inside `no_grad()`
            for x in inputs:
                if x.requires_grad:                     # one input is enough: record the op
                    out.requires_grad = True
                    out.creator = self
                    self.inputs = inputs
                    self.scope = scopes.current     # the names of `minigrad.scope` blocks
                    self.recorded_at = versions.clock   # checked before backward
                    break
        if watchers:                                    # minigrad.debug is watching
            for watcher in watchers:
                watcher.after_forward(self, inputs, out)
        return out

    def forward(self, *arrays):
        raise NotImplementedError(f"{type(self).__name__} has no forward")

    def backward(self, grad_y):
        raise NotImplementedError(f"{type(self).__name__} has no backward")

    def settings(self):
        """The op's settings: the arguments of its `__init__`, read back from `self`."""
        names = _init_parameters(type(self))
        return {name: getattr(self, name) for name in names if hasattr(self, name)}

    def __repr__(self):
        settings = ", ".join(f"{k}={_short(v)}" for k, v in self.settings().items())
        return f"{type(self).__name__}({settings})"


def _constant(value, args):
    """A non-tensor argument as a constant tensor. A Python number is "weak", as in NumPy 2: it
    takes a floating tensor's dtype (so `x32 * 2.0` stays float32, also for a 0-d x32 and on
    NumPy 1.x); lists become float64; NumPy arrays and NumPy scalars keep their dtype."""
    if isinstance(value, (int, float)) and not isinstance(value, np.generic):
        like = next((a.data for a in args if isinstance(a, Tensor)), None)
        if like is None:
            dtype = np.float64
        elif np.issubdtype(like.dtype, np.floating):
            dtype = like.dtype
        else:
            dtype = np.result_type(like, value)
        return Tensor(np.asarray(value, dtype=dtype))
    return Tensor(value)


def _with_op_and_shapes(error, op, inputs):
    """The same kind of error, its message prefixed by the op and followed by the input shapes."""
    shapes = ", ".join(str(x.shape) for x in inputs)
    message = f"{op!r}: {error} (input shapes {shapes})"
    try:
        return type(error)(message)
    except TypeError:                      # an error class that takes other arguments
        return ValueError(message) if isinstance(error, ValueError) else TypeError(message)


_init_cache = {}


def _init_parameters(cls):
    if cls not in _init_cache:
        if cls.__init__ is object.__init__:
            _init_cache[cls] = ()
        else:
            params = inspect.signature(cls.__init__).parameters
            _init_cache[cls] = tuple(n for n in params if n != "self")
    return _init_cache[cls]


def _short(value):
    if isinstance(value, np.ndarray):
        return f"array{value.shape}"
    if isinstance(value, tuple) and any(isinstance(v, np.ndarray) for v in value):
        return "(" + ", ".join(_short(v) for v in value) + ")"
    return repr(value)


# ---------------------------------------------------------------------------------------------
# The backward pass
# ---------------------------------------------------------------------------------------------

def topological_order(root):
    """Every tensor that requires grad and leads to `root`, each after all of its inputs.

    An iterative depth-first search (no recursion limit); inputs are visited in argument order,
    so the order is the same on every run.
    """
    order = []
    visited = set()
    stack = [(root, False)]
    while stack:
        t, inputs_done = stack.pop()
        if inputs_done:
            order.append(t)                     # all of t's inputs are already in `order`
        elif t not in visited:
            visited.add(t)
            stack.append((t, True))
            if t.creator is not None:
                for x in reversed(t.creator.inputs):    # reversed: the first input is visited first
                    if x.requires_grad and x not in visited:
                        stack.append((x, False))
    return order


def backward(root, grad=None, break_on=None):
    """Fill `.grad` of every leaf that `root` depends on with d(root)/d(leaf), times `grad`.

    break_on   an op's class name ("Softmax"), an op class, or a predicate `op -> bool`: Python's
               debugger opens (`breakpoint()`) just before each such op's backward runs.
    """
    for _ in backward_pass(root, root_gradient(root, grad), break_on, pause=False):
        pass                                            # no pauses: this runs the whole walk


def root_gradient(root, grad=None):
    """The gradient arriving at the root, checked: ones for a single number, else `grad`."""
    if not root.requires_grad:
        raise RuntimeError(f"backward: {root!r} does not require grad, so it has no graph to walk")
    if grad is None:
        if root.data.size != 1:
            raise RuntimeError(f"backward: the root has shape {root.shape}, not a single number; "
                               "pass grad= an array of that shape (the gradient arriving at it)")
        return np.ones_like(root.data)
    grad = np.array(grad.data if isinstance(grad, Tensor) else grad, dtype=root.dtype)
    if grad.shape != root.shape:
        raise ValueError(f"backward: grad has shape {grad.shape}, the root has shape {root.shape}")
    return grad


def backward_pass(root, grad, break_on=None, pause=True):
    """The walk from `root` (where `grad` arrives) to the leaves: a generator that, with `pause`,
    pauses after each op's backward and yields `(op, output, grad_y, grads_in, grads)`: the op,
    its output tensor, the gradient that arrived there, the gradients it returned (one per
    input) and the gradients in flight. `backward()` runs it without pauses, in one go."""
    stop = _stop_rule(break_on)
    stopped = False
    grads = {root: grad}                                # gradients in flight, by tensor
    for t in reversed(topological_order(root)):
        grad_t = grads.pop(t, None)                     # pop: freed once it has been passed on
        if grad_t is None:
            continue
        if t.hooks is not None:                         # Tensor.register_hook, retain_grad
            grad_t = _run_hooks(t, grad_t)
        if t.creator is None:                           # a leaf: accumulate until zero_grad()
            t.grad = np.array(grad_t) if t.grad is None else t.grad + grad_t   # its own array
            continue
        op = t.creator
        if watchers:
            for watcher in watchers:
                watcher.before_backward(op, t, grad_t)
        if op.recorded_at != versions.clock:            # something was changed in place since
            versions.check(op, t)                       # the forward: did op save it?
        if stop is not None and stop(op):
            stopped = True
            grads_in = _backward_in_debugger(op, grad_t, t.data)
        else:
            grads_in = op.backward(grad_t)              # <- step into any op from here
        if not isinstance(grads_in, tuple) or len(grads_in) != len(op.inputs):
            raise _wrong_count(op, grads_in)
        if watchers:
            for watcher in watchers:
                watcher.after_backward(op, t, grad_t, grads_in)
        for x, grad_x in zip(op.inputs, grads_in):
            if grad_x is None or not x.requires_grad:
                continue
            if type(grad_x) is not np.ndarray:          # e.g. a NumPy scalar from a 0-d op
                grad_x = np.asarray(grad_x)
            if grad_x.shape != x._data.shape:
                raise _wrong_shape(op, grads_in)
            if grad_x.dtype != x._data.dtype:           # e.g. a float32 input of a float64 op
                grad_x = grad_x.astype(x._data.dtype)
            grads[x] = grad_x if x not in grads else grads[x] + grad_x     # never in place
        if pause:                                       # minigrad.debug.backward_steps
            yield op, t, grad_t, grads_in, grads
    if stop is not None and not stopped:
        warnings.warn(f"backward: no op matched break_on={break_on!r}", stacklevel=4)


def _run_hooks(t, grad):
    """Tensor.register_hook: each hook sees the gradient (read-only) and may return a new one of
    the same shape. Then retain_grad: an intermediate tensor keeps the result in `.grad`."""
    for hook in t.hooks:
        view = grad.view()
        view.flags.writeable = False                    # a hook returns a new array instead
        new = hook(view)
        if new is not None:
            new = np.asarray(new.data if isinstance(new, Tensor) else new, dtype=grad.dtype)
            if new.shape != grad.shape:
                raise ValueError(f"the hook {hook!r} on {t!r} returned a gradient of shape "
                                 f"{new.shape}; it must keep the shape {grad.shape}")
            grad = new
    if t.retains_grad and t.creator is not None:
        t.grad = np.array(grad) if t.grad is None else t.grad + grad
    return grad


def _stop_rule(break_on):
    """break_on as a predicate op -> bool (None: never stop)."""
    if break_on is None:
        return None
    if isinstance(break_on, str):
        return lambda op: type(op).__name__ == break_on
    if isinstance(break_on, type):
        return lambda op: isinstance(op, break_on)
    if callable(break_on):
        return break_on
    raise TypeError(f"backward: break_on must be an op's class name, an op class or a function "
                    f"op -> bool, not {type(break_on).__name__}")


def _backward_in_debugger(op, grad_y, y):
    """`op.backward(grad_y)` with Python's debugger opened just before it. `breakpoint()` calls
    the debugger that $PYTHONBREAKPOINT names: pdb by default, or ipdb, an IDE's, 0 for none."""
    inputs = [x.data for x in op.inputs]    # the arrays the op computed y from
    breakpoint()                            # locals: op, grad_y (dL/dy), inputs, y
    return op.backward(grad_y)              # `s` (step) goes into op.backward


def _wrong_count(op, grads_in):
    got = len(grads_in) if isinstance(grads_in, tuple) else type(grads_in).__name__
    return TypeError(f"{op!r}.backward returned {got} gradient(s) for {len(op.inputs)} "
                     "input(s); return a tuple with one gradient (or None) per input")


def _wrong_shape(op, grads_in):
    for i, (x, grad_x) in enumerate(zip(op.inputs, grads_in)):
        if x.requires_grad and grad_x is not None and np.shape(grad_x) != x.data.shape:
            return ValueError(f"{op!r}.backward returned a gradient of shape {np.shape(grad_x)} "
                              f"for input {i}, which has shape {x.data.shape}")
