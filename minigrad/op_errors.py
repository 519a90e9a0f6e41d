"""The engine's checks on what it is given, and its error messages: each names the op (with its
settings) and the shapes."""

import numpy as np

from minigrad.messages import message


def with_op_and_shapes(error, op, inputs):
    """The same kind of error, its message prefixed by the op and followed by the input shapes."""
    shapes = ", ".join(str(x.shape) for x in inputs)
    text = f"{op!r}: {error} (input shapes {shapes})"
    if "read-only" in str(error):                   # gradcheck hands out read-only arrays
        text += message("op.wrote_in_place", kind=type(op).__name__)
    try:
        return type(error)(text)
    except TypeError:                      # an error class that takes other arguments
        return ValueError(text) if isinstance(error, ValueError) else TypeError(text)


def short(value):
    """A setting as the repr shows it: arrays by their shape."""
    if isinstance(value, np.ndarray):
        return f"array{value.shape}"
    if isinstance(value, tuple) and any(isinstance(v, np.ndarray) for v in value):
        return "(" + ", ".join(short(v) for v in value) + ")"
    return repr(value)


def broken_forward(op, y):
    """forward returned a tensor, or kept something under the engine's own name `inputs`."""
    kind = type(op).__name__
    if op.inputs is not None:
        return TypeError(message("op.set_inputs", kind=kind))
    return TypeError(message("op.forward_tensor", kind=kind))


def forward_output(op, y):
    """What forward returned, when it is no ndarray or forward set self.inputs: a NumPy scalar
    (from a 0-d op) becomes a 0-d array; a Tensor, or a forward that used the engine's name
    `inputs`, is an error."""
    if op.inputs is not None or hasattr(y, "requires_grad"):
        raise broken_forward(op, y)
    return np.asarray(y)


def checked_gradients(op, grads_in):
    """The gradients op.backward returned, when one of them is not yet what the walk hands on:
    None where the input needs no gradient, arrays (not NumPy scalars) in the input's dtype. A
    gradient of another shape than its input is an error. The backward pass calls this only when
    its quick look at the gradients found something to do, so a correct op costs nothing more."""
    checked = []
    for x, wanted, grad_x in zip(op.inputs, op.needs_input_grad, grads_in):
        if grad_x is None or not wanted:
            grad_x = None
        else:
            if type(grad_x) is not np.ndarray:          # e.g. a NumPy scalar from a 0-d op
                grad_x = as_array(op, grad_x)
            if grad_x.shape != x._data.shape:
                raise wrong_shape(op, grads_in)
            if grad_x.dtype != x._data.dtype:           # e.g. a float32 input of a float64 op
                grad_x = grad_x.astype(x._data.dtype)
        checked.append(grad_x)
    return tuple(checked)


def as_array(op, grad):
    """A gradient that is not an ndarray (a NumPy scalar from a 0-d op) as an array."""
    if hasattr(grad, "requires_grad"):                      # a Tensor
        raise TypeError(message("op.backward_tensor", op=repr(op)))
    return np.asarray(grad)


def read_only(arrays):
    """Read-only views of the arrays: a write into one raises at once."""
    views = []
    for a in arrays:
        if isinstance(a, np.ndarray) and a.flags.writeable:
            a = a.view()
            a.flags.writeable = False
        views.append(a)
    return views


def wrong_count(op, grads_in):
    got = len(grads_in) if isinstance(grads_in, tuple) else type(grads_in).__name__
    return TypeError(message("op.wrong_count", op=repr(op), got=got, count=len(op.inputs)))


class WrongShape(ValueError):
    """A backward returned a gradient of another shape than its input. It keeps the op and what
    its backward returned (`gradients`, one per input), for a debugger, or the coursework
    grader, to look at: a gradient left unsummed over a broadcast axis shows which."""

    def __init__(self, message, op, gradients):
        super().__init__(message)
        self.op, self.gradients = op, gradients


def wrong_shape(op, grads_in):
    for i, (x, grad_x) in enumerate(zip(op.inputs, grads_in)):
        if x.requires_grad and grad_x is not None and np.shape(grad_x) != x.data.shape:
            hint = ""
            try:
                if np.broadcast_shapes(x.data.shape, np.shape(grad_x)) == np.shape(grad_x):
                    hint = message("op.broadcast_hint")
            except ValueError:
                pass
            return WrongShape(message("op.wrong_shape", op=repr(op), got=np.shape(grad_x),
                                      index=i, shape=x.data.shape, hint=hint), op, grads_in)


def root_gradient(root, grad=None):
    """The gradient arriving at the root, checked: ones for a single number, else `grad`."""
    if not root.requires_grad:
        raise RuntimeError(f"backward: {root!r} does not require grad, so it has no graph to walk")
    if grad is None:
        if root.data.size != 1:
            raise RuntimeError(f"backward: the root has shape {root.shape}, not a single number; "
                               "pass grad= an array of that shape (the gradient arriving at it)")
        return np.ones_like(root.data)
    grad = np.array(grad.data if hasattr(grad, "requires_grad") else grad, dtype=root.dtype)
    if grad.shape != root.shape:
        raise ValueError(f"backward: grad has shape {grad.shape}, the root has shape {root.shape}")
    return grad


def hook_result(hook, t, grad, new):
    """What a hook returned instead of `grad`, as an array of grad's shape and dtype; anything
    else (a string, a list of another length) is an error naming the hook and the tensor."""
    from minigrad.versions import describe
    name = getattr(hook, "__qualname__", repr(hook))
    expected = f"an array of the gradient's shape {grad.shape}, or None"
    try:
        array = np.asarray(getattr(new, "data", new), dtype=grad.dtype)
    except (TypeError, ValueError):
        raise TypeError(f"the hook {name} on {describe(t)} returned {type(new).__name__} "
                        f"{short(new)[:40]}; expected {expected}") from None
    if array.shape != grad.shape:
        raise ValueError(f"the hook {name} on {describe(t)} returned a gradient of shape "
                         f"{array.shape}; expected {expected}")
    return array


def stale_grad(t, grad_t):
    """A leaf whose .grad (from an earlier backward) no longer has the shape of its data."""
    from minigrad.versions import describe
    return ValueError(f"backward: {describe(t)} holds a .grad of shape {t.grad.shape} from an "
                      f"earlier backward, but its gradient now has shape {grad_t.shape} (its "
                      f".data was replaced by an array of another shape); call zero_grad() "
                      f"first")
