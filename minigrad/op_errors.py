"""The engine's error messages: each names the op (with its settings) and the shapes."""

import numpy as np


def with_op_and_shapes(error, op, inputs):
    """The same kind of error, its message prefixed by the op and followed by the input shapes."""
    shapes = ", ".join(str(x.shape) for x in inputs)
    message = f"{op!r}: {error} (input shapes {shapes})"
    try:
        return type(error)(message)
    except TypeError:                      # an error class that takes other arguments
        return ValueError(message) if isinstance(error, ValueError) else TypeError(message)


def short(value):
    """A setting as the repr shows it: arrays by their shape."""
    if isinstance(value, np.ndarray):
        return f"array{value.shape}"
    if isinstance(value, tuple) and any(isinstance(v, np.ndarray) for v in value):
        return "(" + ", ".join(short(v) for v in value) + ")"
    return repr(value)


def wrong_count(op, grads_in):
    got = len(grads_in) if isinstance(grads_in, tuple) else type(grads_in).__name__
    return TypeError(f"{op!r}.backward returned {got} gradient(s) for {len(op.inputs)} "
                     "input(s); return a tuple with one gradient (or None) per input")


def wrong_shape(op, grads_in):
    for i, (x, grad_x) in enumerate(zip(op.inputs, grads_in)):
        if x.requires_grad and grad_x is not None and np.shape(grad_x) != x.data.shape:
            return ValueError(f"{op!r}.backward returned a gradient of shape {np.shape(grad_x)} "
                              f"for input {i}, which has shape {x.data.shape}")
