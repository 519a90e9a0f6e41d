"""The ops behind two layers of minigrad.nn: the embedding lookup (`EmbeddingLookup`, behind
`nn.Embedding`) and the dropout mask (`DropoutMask`, behind `nn.Dropout`). The ops carry their own
names so that a drawing or an error message never confuses an op with the layer of the same job."""

import numpy as np

from minigrad import random
from minigrad.autograd import Function
from minigrad.ops.arithmetic import as_floating


class EmbeddingLookup(Function):
    """y = weight[ids]     weight: (V, E)  ids: (...) integers  ->  y: (..., E)
    dL/dweight = zeros (V, E) with each row dL/dy[n] added at row ids[n] (a repeated id adds
    up); rows equal to `padding_idx` get no gradient."""

    settings = ("ids", "padding_idx")
    saves = ("weight_shape",)

    def __init__(self, ids, padding_idx=None):
        self.ids = np.array(ids)        # a copy: the caller may reuse its ids array (ids[:] = 3)
        self.padding_idx = padding_idx  # before backward, which must add where forward read

    def forward(self, weight):
        self.weight_shape = weight.shape
        if self.ids.size and (self.ids.min() < 0 or self.ids.max() >= weight.shape[0]):
            bad = self.ids[(self.ids < 0) | (self.ids >= weight.shape[0])].ravel()[0]
            raise IndexError(f"id {bad} is out of range for an embedding of {weight.shape[0]} rows")
        return weight[self.ids]

    def backward(self, grad_y):                                     # (..., E)
        grad_weight = np.zeros(self.weight_shape, dtype=grad_y.dtype)
        np.add.at(grad_weight, self.ids, grad_y)
        if self.padding_idx is not None:
            grad_weight[self.padding_idx] = 0
        return (grad_weight,)


class DropoutMask(Function):
    """y = x * mask / (1 - p), mask ~ Bernoulli(1 - p) drawn once in forward
    dL/dx = dL/dy * mask / (1 - p)           (the same mask: dropped units get no gradient)"""

    settings = ("p",)
    saves = ("scale",)

    def __init__(self, p):
        self.p = p

    def forward(self, x):
        x = as_floating(x)                      # integers: 1/(1 - p) is not cut to an integer
        keep = random.generator().random(x.shape) >= self.p
        self.scale = keep.astype(x.dtype) / np.asarray(1 - self.p, dtype=x.dtype)
        return x * self.scale

    def backward(self, grad_y):
        return (grad_y * self.scale,)


def embedding(weight, ids, padding_idx=None):
    """Rows of `weight` picked by integer `ids` (an array or an integer tensor)."""
    ids = np.asarray(getattr(ids, "data", ids))
    if not np.issubdtype(ids.dtype, np.integer):
        raise TypeError(f"embedding: ids must be integers, not {ids.dtype}")
    return EmbeddingLookup(ids, padding_idx)(weight)


def dropout(x, p=0.5, training=True):
    """Zero each element with probability `p` and scale the rest by 1/(1-p); identity when not
    training or when p == 0."""
    if not 0 <= p < 1:
        raise ValueError(f"dropout: p must be in [0, 1), not {p}")
    if not training or p == 0:
        return x
    return DropoutMask(p)(x)
