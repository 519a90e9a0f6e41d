"""Softmax built again from primitive ops, so that a rendered graph shows each of its steps.

    softmax(x)_i = exp(x_i - c) / sum_j exp(x_j - c)        c = max_j x_j

Subtracting c changes nothing (the factor exp(-c) cancels) but keeps `exp` from overflowing:
scores of 1e4 are fine. A `-inf` score is a position that may not be attended: exp(-inf) = 0,
so it gets weight 0. A row that is all `-inf` (nothing may be attended) gets weights 0, not NaN.
Integer and boolean scores are taken as float64 first, as `minigrad.functional.softmax` takes
them: in int8, -100 - 100 would wrap round to 56.

`minigrad.functional.softmax` is the same function as one fused op with a hand-written backward;
the two agree in values and in gradients (see tests/test_attention_softmax.py). Here backward
comes for free: each step is an op that already has one.
"""

import numpy as np

import minigrad.functional as F
from minigrad import Tensor
from minigrad.ops.arithmetic import as_floating
from minigrad.ops.pytorch_words import axis_or_dim


def softmax(x, axis=-1, *, dim=None):
    """Weights that are positive and sum to 1 along `axis`, larger where `x` is larger.

    x: a Tensor of any shape  ->  weights of the same shape. (`dim`, PyTorch's word for `axis`,
    works too.) The four steps are four ops: subtract the max, exp, sum, divide.
    """
    axis = axis_or_dim("softmax", axis, dim, default=-1)
    if x.dtype.kind in "biu":           # integers never require grad: a float64 leaf loses nothing
        x = Tensor(as_floating(x.data), name=x.name)
    # c = the maximum along the axis. It is a constant shift, not part of the graph: softmax(x - c)
    # is softmax(x) for every c, so no gradient has to flow through c. A row that is all -inf is
    # shifted by 0 instead (-inf - -inf would be NaN).
    peak = np.max(x.data, axis=axis, keepdims=True)                    # (..., 1, ...)
    peak = Tensor(np.where(np.isneginf(peak), 0, peak).astype(x.dtype), name="max")

    shifted = x - peak                                  # step 1: every entry <= 0
    exps = shifted.exp()                                # step 2: in (0, 1]; 0 where x = -inf
    total = exps.sum(axis=axis, keepdims=True)          # step 3: >= 1, or 0 if all were -inf
    if not np.all(total.data > 0):                      # a row all masked: divide by 1, not 0,
        one = Tensor(np.ones((), x.dtype), name="1 (rows all masked -> weights 0)")
        total = F.where(total.data > 0, total, one)     # so its weights are 0 (drawn only then)
    return exps / total                                 # step 4: the weights, summing to 1
