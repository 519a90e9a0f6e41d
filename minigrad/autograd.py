"""The engine: the base class of every op, and the backward walk.

Read this file in one sitting; it is all of reverse-mode autodiff:

- An op is a `Function`. Calling it runs `forward` on plain NumPy arrays and, when a gradient is
  wanted, records the op as the `creator` of its output and keeps its `inputs` (a list, in
  argument order).
- `backward_walk(root)` sorts the graph (an iterative depth-first search, so long chains never
  hit Python's recursion limit), then walks it from the root to the leaves, calling each op's
  `backward` once with the gradient that arrived at its output. It is a generator: it hands out
  each tensor with its gradient, and writes no `.grad` itself.
- `backward(root)` runs that walk and keeps the gradients of the leaves, adding up over calls
  until `zero_grad()`. Gradients of intermediate tensors live in the walk, one call long.
  `minigrad.debug.backward_steps` and the drawings' gradients read the same walk.
- Everything around an op's backward (the checks on what it returns, `minigrad.debug`'s
  watchers, the debugger for `break_on`, the in-place check of `minigrad/versions.py`) sits in
  one helper, `_run_backward`, so that the loop itself stays short.
"""

import warnings

import numpy as np
from numpy import ndarray  # asked twice per op; `np.ndarray` is a slow lookup in Python 3.11

from minigrad import grad_mode, op_errors, scopes, versions
from minigrad.tensor import Tensor

# ---------------------------------------------------------------------------------------------
# Watchers: how minigrad.debug sees every op go by
# ---------------------------------------------------------------------------------------------

strict = False      # True inside gradcheck: ops get read-only arrays, so that a forward or backward
                    # that writes into an array it was given fails at once, named (op_errors.py)
watchers = []       # objects with after_forward(op, inputs, out), before_backward(op, out, grad_y)
                    # and after_backward(op, out, grad_y, grads_in): `minigrad.debug`'s trace(),
                    # detect_anomaly() and guard_saved() add one while open. While the list is
                    # empty they cost one `if` per op.
_patterns = {}      # (True, False) -> (True, False): the needs_input_grad tuples seen, so that ops
                    # share them. Each object an op keeps alive is one more for Python's garbage
                    # collector to count and scan while the graph lives (see bench/engine.py),
                    # and ops come in a handful of patterns.


# ---------------------------------------------------------------------------------------------
# Function: the base class of every op
# ---------------------------------------------------------------------------------------------

class Function:
    """One op. Subclasses write `forward(*arrays) -> array` and `backward(grad_y) -> tuple`.

    The contract every op keeps, and every tool relies on:

    settings          the names of the op's settings: `__init__` takes them and keeps each on
                      `self` under its name (`Softmax(axis=-1)` keeps `self.axis`); the op's
                      repr and the drawings show them.
    saves             the names of what `forward` keeps on `self` for `backward` (`self.y = y`),
                      and nothing else: PyTorch's `ctx.save_for_backward`, declared on the
                      class. The in-place checks, the saved-array guard and the drawings read it.
    needs_input_grad  set by the call, one bool per input: whether that input wants a gradient.
                      `backward` returns one gradient per input, of that input's shape, and may
                      return `None` (and skip the work) for an input that needs none.

    One instance is one call: calling it again is an error, since its backward would use what
    the second call saved with the inputs of the first.
    """

    settings = ()
    saves = ()
    inputs = None           # the input tensors, in argument order, once called
    needs_input_grad = ()
    scope = ()              # the names of the `minigrad.scope` blocks it was called in
    recorded_at = 0         # the version clock when the op was recorded (see minigrad/versions.py)

    def __call__(self, *args):
        if self.inputs is not None:
            raise RuntimeError(f"{self!r} was called a second time; an op instance is one call "
                               f"(its backward keeps the first call's inputs): make a new "
                               f"{type(self).__name__}(...) for each call, inside your function")
        inputs, arrays, needs_input_grad = [], [], []   # one loop: cheaper per op than a
        for x in args:                                  # comprehension for each list
            if not isinstance(x, Tensor):
                x = _constant(x, args)
            inputs.append(x)
            arrays.append(x._data)
            needs_input_grad.append(x.requires_grad)
        if strict:
            arrays = op_errors.read_only(arrays)
        try:
            y = self.forward(*arrays)
        except (ValueError, IndexError, TypeError) as error:
            raise op_errors.with_op_and_shapes(error, self, inputs) from error
        if type(y) is not ndarray or self.inputs is not None:   # a NumPy scalar, a Tensor,
            y = op_errors.forward_output(self, y)                   # or self.inputs was set
        self.inputs = inputs
        if grad_mode.enabled and True in needs_input_grad:      # one input is enough: record
            needs_input_grad = tuple(needs_input_grad)  # shared by the ops of one pattern
            self.needs_input_grad = _patterns.setdefault(needs_input_grad, needs_input_grad)
            self.scope = scopes.current
            self.recorded_at = versions.clock           # checked before backward
            out = Tensor._from_op(y, self)
        else:
            out = Tensor._from_op(y, None)
        if watchers:                                    # minigrad.debug is watching
            for watcher in watchers:
                watcher.after_forward(self, inputs, out)
        return out

    def forward(self, *arrays):
        raise NotImplementedError(f"{type(self).__name__} has no forward")

    def backward(self, grad_y):
        raise NotImplementedError(f"{type(self).__name__} has no backward")

    def __repr__(self):
        settings = ", ".join(f"{name}={op_errors.short(getattr(self, name, '?'))}"
                             for name in self.settings)
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


# ---------------------------------------------------------------------------------------------
# The backward walk
# ---------------------------------------------------------------------------------------------

def topological_order(root):
    """Every tensor that requires grad and leads to `root`, each after all of its inputs.

    An iterative depth-first search (no recursion limit); inputs are visited in argument order,
    so the order is the same on every run.
    """
    order = []
    visited = set()
    stack = [root]
    while stack:
        t = stack.pop()
        if t is None:                           # the mark pushed above the tensor below it:
            order.append(stack.pop())           # all of that tensor's inputs are in `order`
        elif t not in visited:
            visited.add(t)
            stack.append(t)
            stack.append(None)                  # a mark, not a pair (t, done): no object per node
            if t.creator is not None:
                for x in reversed(t.creator.inputs):    # reversed: the first input is visited first
                    if x.requires_grad and x not in visited:
                        stack.append(x)
    return order


def backward(root, grad=None, break_on=None):
    """Fill `.grad` of every leaf that `root` depends on with d(root)/d(leaf), times `grad`.
    Tensors that asked to `retain_grad()` keep theirs too.

    break_on   an op's class name ("Softmax"), an op class, or a predicate `op -> bool`: Python's
               debugger opens (`breakpoint()`) just before each such op's backward runs.
    """
    for t, grad_t, _ in backward_walk(root, grad, break_on):
        if t.creator is None or t.retains_grad:         # a leaf, or retain_grad(): keep it
            keep_grad(t, grad_t)


def keep_grad(t, grad_t):
    """Add grad_t to what t.grad holds, in a new array (never into one the walk or a hook may
    still hold): what `backward` does for leaves and `retain_grad()` tensors."""
    if t.grad is None:
        t.grad = np.array(grad_t)
    elif t.grad.shape != grad_t.shape:      # t.data was replaced by an array of another shape
        raise op_errors.stale_grad(t, grad_t)
    else:
        t.grad = t.grad + grad_t


def backward_walk(root, grad=None, break_on=None):
    """The backward pass from `root`, as a generator of `(t, grad_t, grads_in)`: each tensor the
    gradient reaches, from the root to the leaves, with the gradient that arrived at it (after
    its hooks) and, when an op made it, what that op's backward sent to each of its inputs (None
    for a leaf, and for each input that needs no gradient). `grad` is the gradient arriving at
    the root (checked now, before the first step). It writes no `.grad`: see `backward`."""
    return _walk(root, op_errors.root_gradient(root, grad), break_on)


def _walk(root, grad, break_on):
    stop = _stop_rule(break_on)
    grads = {root: grad}                                # gradients in flight, by tensor
    for t in reversed(topological_order(root)):
        grad_t = grads.pop(t, None)                     # pop: freed once it has been passed on
        if grad_t is None:
            continue
        if t.hooks:                                     # Tensor.register_hook
            grad_t = _run_hooks(t, grad_t)
        op = t.creator
        if op is None:                                  # a leaf
            yield t, grad_t, None
            continue
        grads_in = _run_backward(op, t, grad_t, stop)   # op.backward(grad_t), checked
        yield t, grad_t, grads_in
        for x, grad_x in zip(op.inputs, grads_in):
            if grad_x is not None:
                grads[x] = grad_x if x not in grads else grads[x] + grad_x     # never in place
    if stop is not None and not stop.matched:
        warnings.warn(f"backward: no op matched break_on={break_on!r}", stacklevel=4)


def _run_backward(op, out, grad_y, stop):
    """`op.backward(grad_y)` and everything around it: minigrad.debug's watchers, the in-place
    check, the debugger for `break_on`, and the checks on what it returned. Returns one gradient
    per input: an array of the input's shape and dtype, or None where the input needs none."""
    if watchers:
        for watcher in watchers:
            watcher.before_backward(op, out, grad_y)
    if op.recorded_at != versions.clock:                # something was changed in place since
        versions.check(op, out)                         # the forward: did op save it?
    if strict:
        grad_y = op_errors.read_only([grad_y])[0]
    if stop is not None and stop(op):
        grads_in = _backward_in_debugger(op, grad_y, out.data)
    else:
        grads_in = op.backward(grad_y)                  # <- step into any op from here
    if not isinstance(grads_in, tuple) or len(grads_in) != len(op.inputs):
        raise op_errors.wrong_count(op, grads_in)
    for x, wanted, grad_x in zip(op.inputs, op.needs_input_grad, grads_in):
        if grad_x is not None and not (wanted and type(grad_x) is ndarray
                                       and grad_x.shape == x._data.shape
                                       and grad_x.dtype == x._data.dtype):
            grads_in = op_errors.checked_gradients(op, grads_in)    # fixed, or an error
            break
    if watchers:
        for watcher in watchers:
            watcher.after_backward(op, out, grad_y, grads_in)
    return grads_in


def _run_hooks(t, grad):
    """Tensor.register_hook: each hook sees the gradient (read-only) and may return a new one of
    the same shape."""
    for hook in tuple(t.hooks):                         # a hook may remove itself
        view = grad.view()
        view.flags.writeable = False                    # a hook returns a new array instead
        new = hook(view)
        if new is not None:
            grad = op_errors.hook_result(hook, t, grad, new)
    return grad


def _stop_rule(break_on):
    """break_on as a predicate op -> bool (None: never stop) that notes when it says yes."""
    if break_on is None:
        return None
    if isinstance(break_on, str):
        rule = lambda op: type(op).__name__ == break_on           # noqa: E731
    elif isinstance(break_on, type):
        rule = lambda op: isinstance(op, break_on)                # noqa: E731
    elif callable(break_on):
        rule = break_on
    else:
        raise TypeError(f"backward: break_on must be an op's class name, an op class or a "
                        f"function op -> bool, not {type(break_on).__name__}")

    def stop(op):
        if rule(op):
            stop.matched = True                         # for the warning when none did
            return True
        return False

    stop.matched = False
    return stop


def _backward_in_debugger(op, grad_y, y):
    """`op.backward(grad_y)` with Python's debugger opened just before it. `breakpoint()` calls
    the debugger that $PYTHONBREAKPOINT names: pdb by default, or ipdb, an IDE's, 0 for none."""
    inputs = [x.data for x in op.inputs]    # noqa: F841 (the arrays the op computed y from)
    breakpoint()                            # noqa: T100 (locals: op, grad_y, inputs, y)
    return op.backward(grad_y)              # `s` (step) goes into op.backward
