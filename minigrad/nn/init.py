"""Initialisation, as in `torch.nn.init`: each function refills a parameter in place (hence the
trailing underscore) and returns it.

Numbers are drawn from `minigrad.random.generator()` in float64 and then rounded to the
parameter's dtype, so `minigrad.manual_seed(s)` gives the same initial weights every run, and
the same weights (to rounding) in float32 and float64.
"""

import numpy as np

from minigrad import random


def uniform_(tensor, low, high):
    """Each element drawn uniformly from [low, high)."""
    tensor.data = random.generator().uniform(low, high, tensor.shape).astype(tensor.dtype)
    return tensor


def normal_(tensor, mean=0.0, std=1.0):
    """Each element drawn from the normal distribution N(mean, std**2)."""
    tensor.data = random.generator().normal(mean, std, tensor.shape).astype(tensor.dtype)
    return tensor


def zeros_(tensor):
    tensor.data = np.zeros(tensor.shape, dtype=tensor.dtype)
    return tensor
