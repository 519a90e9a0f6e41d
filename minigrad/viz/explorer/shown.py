"""The numbers as the page shows them, and the answer a learner works out from them, so that
predict mode (question.py) accepts a right method worked on rounded numbers.

The page lists a small array as its drawings do (`minigrad.viz.labels.value_lines`: four
significant digits of the largest entry, at most three decimals, every entry alike), and a large
one as a summary with its first values to four significant digits: `shown` rounds an array the
same way (four significant digits for a summarised one). The exact numbers are there too, on
demand; a learner who uses them is closer still.

    shown([0.24412, 0.0903])     ->  [0.244, 0.090]        (listed: three decimals)

`worked` runs the op's own rule on those numbers: a new op of the same class and settings, its
forward on the shown inputs, then, where it keeps its output for backward (Sigmoid, Tanh,
Softmax keep `y`), the shown output in its place (the learner reads y, not sigmoid of a rounded
x), and its backward on the shown gradient arriving. The graph is not touched.
"""

import numpy as np

from minigrad.viz import labels


def shown(array):
    """`array` rounded as the page shows it, as float64 (integers and booleans as they are)."""
    array = np.asarray(array)
    if array.dtype.kind not in "fc" or array.size == 0:
        return array
    if labels.listed(array):
        write = labels.number_format(array)
        flat = [float(write(v)) for v in array.ravel()]
    else:
        flat = [float(f"{v:.4g}") for v in array.astype(np.float64).ravel()]
    return np.array(flat, dtype=np.float64).reshape(array.shape)


def worked(op, out, grad_y, position):
    """The gradient the op sends input `position`, worked from the numbers the page shows (its
    inputs, output and the gradient arriving, each rounded by `shown`); None when the op cannot
    be run again this way."""
    try:
        fresh = type(op)(**{name: getattr(op, name) for name in op.settings})
        fresh.needs_input_grad = op.needs_input_grad
        fresh.forward(*[shown(x.data) for x in op.inputs])
        output = np.asarray(out.data)
        for name in fresh.saves:                # the output kept for backward: as shown
            kept = getattr(op, name, None)
            if (isinstance(kept, np.ndarray) and kept.shape == output.shape
                    and np.array_equal(kept, output, equal_nan=True)):
                setattr(fresh, name, shown(output))
        grad = fresh.backward(shown(grad_y))[position]
    except Exception:                           # an op that cannot run this way: no widening
        return None
    x = op.inputs[position]
    return np.asarray(grad) if grad is not None and np.shape(grad) == x.shape else None


def worked_softmax(y, grad_y):
    """What a softmax along the last axis sends back to its input, y * (g - sum(g * y)), from
    its output y and the gradient g arriving there, both as shown; None when y's rows do not
    sum to 1 (a softmax along another axis)."""
    y = np.asarray(y, dtype=np.float64)
    if y.ndim == 0 or not np.allclose(np.sum(y, axis=-1), 1.0, atol=1e-4):
        return None
    y, g = shown(y), shown(grad_y)
    return y * (g - np.sum(g * y, axis=-1, keepdims=True))
