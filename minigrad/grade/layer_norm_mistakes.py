"""The known mistakes of layer normalisation's backward, recognised by their numbers.

The exercise `layer_norm_op` asks for layer normalisation as one op, its backward derived by
hand. With sigma = sqrt(var + eps), xhat = (x - mean) / sigma and g = dL/dy * weight (the
gradient arriving at xhat), over the last axis of each row:

    dL/dx      = (g - mean(g) - xhat * mean(g * xhat)) / sigma
    dL/dweight = sum over every axis but the last of dL/dy * xhat
    dL/dbias   = sum over every axis but the last of dL/dy

Each mistake below is a small function that computes the dL/dx that mistake gives, here in the
grader's process, from the case's inputs and the upstream gradient it sent; what the report says
of it is a message of minigrad's catalogue (`mistake.*`), in the language of the messages. When
the student's dL/dx is wrong and equals one of them, the report says which term is missing. A
dL/dweight or dL/dbias left unsummed has another shape than its input: the engine refuses it
(op_errors.WrongShape keeps what the backward returned, and the graded code's process hands it
back), and the report says it is not summed when its sum over the leading axes is the right
gradient.

A mistake is named only when the student's gradient is wrong, agrees with the mistake's, and
the mistake's differs from the right one on that case (`diagnosis`): a right answer is never
diagnosed.
"""

import numpy as np

from minigrad.grade.compare import difference
from minigrad.messages import message

RIGHT = "dL/dx = (g - mean(g) - xhat * mean(g * xhat)) / sigma"


def normalised(x, eps):
    """(xhat, sigma) of each row of the last axis: xhat (..., D), sigma (..., 1)."""
    centred = x - x.mean(axis=-1, keepdims=True)                            # (..., D)
    sigma = np.sqrt((centred ** 2).mean(axis=-1, keepdims=True) + eps)      # (..., 1)
    return centred / sigma, sigma


def row_mean(a):
    return a.mean(axis=-1, keepdims=True)                                   # (..., 1)


def as_constants(grad_y, weight, xhat, sigma):
    """The mean and the variance treated as constants: dL/dx = g / sigma."""
    return grad_y * weight / sigma


def without_mean_term(grad_y, weight, xhat, sigma):
    """The mean's term forgotten: dL/dx = (g - xhat * mean(g * xhat)) / sigma."""
    g = grad_y * weight
    return (g - xhat * row_mean(g * xhat)) / sigma


def without_variance_term(grad_y, weight, xhat, sigma):
    """The variance's term forgotten: dL/dx = (g - mean(g)) / sigma."""
    g = grad_y * weight
    return (g - row_mean(g)) / sigma


def without_weight(grad_y, weight, xhat, sigma):
    """weight not multiplied into g: the right formula with g = dL/dy."""
    return (grad_y - row_mean(grad_y) - xhat * row_mean(grad_y * xhat)) / sigma


MISTAKES = (                         # each mistake, and the key of what the report says of it
    (as_constants, "mistake.as_constants"),
    (without_mean_term, "mistake.without_mean_term"),
    (without_variance_term, "mistake.without_variance_term"),
    (without_weight, "mistake.without_weight"),
)

SUMS = {"weight": "dL/dy * xhat", "bias": "dL/dy"}


def diagnosis(case, wanted, got, returned, atol=1e-8, rtol=1e-6):
    """Lines naming the mistake the student's gradients show, or [].

    case      the Case: arrays x (..., D), weight, bias (D,); settings (eps)
    wanted    its Expected: the right gradients (x, weight, bias), the upstream gradient
    got       {input name: the student's gradient, an array or None}
    returned  {input name: what the student's backward returned for it, of another shape than
              the input (the engine refused it)}
    """
    x, weight = (np.asarray(case.arrays[k], np.float64) for k in ("x", "weight"))
    grad_y = np.asarray(wanted.upstream[0], np.float64)
    xhat, sigma = normalised(x, case.settings.get("eps", 1e-5))
    right = dict(zip(case.arrays, wanted.grads))
    lines = [_unsummed(name, returned[name], right[name], weight.shape[0])
             for name in SUMS if name in returned]
    mine = got.get("x")
    if not _numbers(mine, right["x"].shape) or agree(mine, right["x"], atol, rtol):
        return [line for line in lines if line]
    for mistake, key in MISTAKES:
        theirs = mistake(grad_y, weight, xhat, sigma)
        if agree(mine, theirs, atol, rtol) and not agree(theirs, right["x"], atol, rtol):
            return [line for line in lines if line] + [message(key, right=RIGHT)]
    return [line for line in lines if line]


def _unsummed(name, mine, right, size):
    """The line for a dL/dweight or dL/dbias whose sum over its leading axes is the right
    gradient, or None."""
    if not _numbers(mine) or mine.ndim < 2 or mine.shape[-1] != size:
        return None
    summed = mine.reshape(-1, size).sum(axis=0)                             # (D,)
    if not agree(summed, right, 1e-8, 1e-6):
        return None
    if all(n == 1 for n in mine.shape[:-1]):
        return message("mistake.keepdims", name=name, shape=mine.shape, size=size)
    return message("mistake.unsummed", name=name, shape=mine.shape, sums=SUMS[name], size=size)


def _numbers(a, shape=None):
    return (isinstance(a, np.ndarray) and a.dtype.kind in "biuf"
            and (shape is None or a.shape == shape))


def agree(a, b, atol, rtol):
    return difference(a, b, atol, rtol) is None
