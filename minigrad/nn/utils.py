"""Helpers for training, as in `torch.nn.utils`: `clip_grad_norm_`.

They work on anything with `.data` and `.grad` (plain tensors, `module.parameters()`), so this
file imports nothing from `minigrad.nn`.
"""

import numpy as np

from minigrad.settings import check_number


def clip_grad_norm_(parameters, max_norm, norm_type=2.0):
    """Scale the gradients down so that their total norm is at most `max_norm`; return the total
    norm they had before, as a float.

        total_norm = || (||g_1||, ||g_2||, ...) ||      the norm of all gradients as one vector
        coef       = max_norm / (total_norm + 1e-6)
        g_i        = g_i * coef          for every gradient, only when coef < 1

    `parameters` is a tensor or an iterable of tensors; those whose .grad is None are skipped.
    `norm_type` is p of the p-norm (2.0 by default; float("inf") for the largest |g|).
    The trailing underscore says that it changes the gradients (PyTorch's convention); each
    clipped gradient is a new array of the same dtype.
    """
    check_number("max_norm", max_norm, low=0, where="clip_grad_norm_")    # NaN would never clip
    if hasattr(parameters, "grad"):                 # a single tensor
        parameters = [parameters]
    parameters = [p for p in parameters if p.grad is not None]
    if not parameters:
        return 0.0
    norms = [np.linalg.norm(p.grad.ravel(), ord=norm_type) for p in parameters]   # one per grad
    total_norm = float(np.linalg.norm(np.array(norms, dtype=np.float64), ord=norm_type))

    clip_coef = float(max_norm) / (total_norm + 1e-6)
    if clip_coef < 1.0:                             # False for a nan norm: those grads stay nan
        for p in parameters:
            p.grad = p.grad * clip_coef             # a new array; a Python float keeps the dtype
    return total_norm
