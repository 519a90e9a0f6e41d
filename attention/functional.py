"""Attention as functions: one query (or several) and n candidates in, one vector per query out.

    1. score   each candidate by its dot product with the query       s_j = q . k_j
    2. weigh   the scores with softmax: positive, summing to 1          a = softmax(s)
    3. mix     the values in those proportions                          c = sum_j a_j v_j

Like a multiplexer that outputs the value whose key most resembles q, but softly: the runners-up
are mixed in a little, and the result is still one vector. Because the mixture is soft, every
step has a derivative, and backprop trains whatever produced q, the keys and the values.
`hard_attention` makes the choice hard (argmax, one-hot) for comparison: its scores get no
gradient at all.

Shapes (the leading `...` are batch axes, broadcast as in `@`):
    query   (..., d)       one query per batch element, or (..., m, d) m queries
    keys    (..., n, d)    n candidates, compared with the query
    values  (..., n)       one number per candidate, or (..., n, dv) one vector per candidate
    ->  context (..., [m,] [dv])   weights (..., [m,] n)
A query is a single query when `query.ndim == keys.ndim - 1`; values are numbers when
`values.ndim == keys.ndim - 1`. With m queries stacked as rows of Q, and K, V likewise, this is
Attention(Q, K, V) = softmax(Q K^T) V, softmax along each query's row.
"""

import math

import numpy as np

import minigrad.functional as F
from minigrad import Tensor
from minigrad.settings import check_number
from attention.masks import checked_mask
from attention.softmax import softmax


def dot_product_attention(query, keys, values, mask=None, scale=None):
    """(context, weights) of attending from `query` over `keys`, mixing `values`.

    mask   boolean, True = may be attended; broadcastable to the weights' shape (..., [m,] n).
           A query with nothing to attend gets zero weights and a zero context, never NaN.
    scale  None: plain dot products; True: divide the scores by sqrt(d) (Vaswani et al., 2017);
           a number: multiply the scores by it (as `scale` in PyTorch's
           scaled_dot_product_attention).
    """
    query, keys, values, mask, unstack = as_matrices(query, keys, values, mask)
    scores = query @ keys.swapaxes(-1, -2)          # 1. score   (..., m, n)
    scores = _scaled(scores, scale, keys.shape[-1])
    weights = softmax(_masked(scores, mask, "dot_product_attention"))   # 2. weigh   (..., m, n)
    context = weights @ values                      # 3. mix     (..., m, dv)
    return unstack(context, weights)


def attend(scores, values, mask=None):
    """Steps 2 and 3 for scores made any way (e.g. by an additive or bilinear score function).

    scores (..., m, n)    values (..., n, dv)    mask broadcastable to (..., m, n)
    ->  context (..., m, dv), weights (..., m, n)
    """
    weights = softmax(_masked(scores, mask, "attend"))  # (..., m, n)
    context = weights @ values                      # (..., m, dv)
    return context, weights


def hard_attention(query, keys, values):
    """(context, weights) with the softmax replaced by a hard choice: weight 1 on the best-scoring
    candidate, 0 on the rest. Shapes as in `dot_product_attention`.

    The one-hot weights are built from the scores' values, outside the graph: argmax is a step
    function, flat almost everywhere, so the scores (and the query and keys that made them) get no
    gradient at all. The values still get one, through the one-hot mixture.
    """
    query, keys, values, _, unstack = as_matrices(query, keys, values)
    scores = query.data @ np.swapaxes(keys.data, -1, -2)    # 1. score   (..., m, n), a plain array
    weights = one_hot_argmax(scores)                        # 2. choose  (..., m, n), no creator
    context = weights @ values                              # 3. mix     (..., m, dv)
    return unstack(context, weights)


def one_hot_argmax(scores):
    """Weight 1 on the largest score of each row (the first, if tied), 0 on the rest: a constant
    tensor with no creator, so nothing flows back from it to the scores.
    scores (..., n) array or tensor  ->  weights (..., n)"""
    scores = np.asarray(getattr(scores, "data", scores))
    best = np.argmax(scores, axis=-1)                                    # (...)
    onehot = np.arange(scores.shape[-1]) == best[..., None]              # (..., n)
    return Tensor(onehot.astype(scores.dtype), name="one-hot")


def self_attention(x, attention=None, mask=None, scale=None):
    """Every position of the sequence `x` (..., T, d) attends over the same sequence: the queries,
    the keys and the values are all `x`. `attention`: a module (or function) called as
    attention(x, x, x, mask=mask), e.g. a MultiHeadAttention, whose projections make the
    queries, keys and values differ; by default `dot_product_attention` with `scale` (a module
    has its own scaling: giving both is an error). mask: (..., T, T), e.g. `causal_mask(T)`.
    ->  context (..., T, d), weights (..., T, T)"""
    x = x if isinstance(x, Tensor) else Tensor(x)
    if x.ndim < 2:
        raise ValueError(f"self_attention: x must be a sequence (..., T, d), got shape {x.shape}")
    if attention is None:
        return dot_product_attention(x, x, x, mask=mask, scale=scale)
    if scale is not None:
        name = getattr(attention, "__name__", type(attention).__name__)
        raise ValueError(f"self_attention: scale={scale!r} applies to the default dot-product "
                         f"attention; {name} scales its scores itself")
    return attention(x, x, x, mask=mask)


# ---------------------------------------------------------------------------------------------
# Shapes: everything inside works on stacks of queries (..., m, d) and of value vectors (..., n, dv)
# ---------------------------------------------------------------------------------------------

def as_matrices(query, keys, values, mask=None, same_size=True):
    """Bring a single query to one row (..., 1, d) and number values to columns (..., n, 1), and
    return a function `unstack(context, weights)` that takes those axes out again.
    same_size: the query and the keys must have the same last axis (False for score functions
    that project them to a common size first, as additive attention does).
    -> query (..., m, d), keys (..., n, dk), values (..., n, dv), mask (or None), unstack"""
    query, keys, values = (x if isinstance(x, Tensor) else Tensor(x) for x in (query, keys, values))
    if keys.ndim < 2:
        raise ValueError(f"attention: keys must be (..., n, d), got shape {keys.shape}")
    single = query.ndim == keys.ndim - 1
    numbers = values.ndim == keys.ndim - 1
    if same_size and query.shape[-1] != keys.shape[-1]:
        raise ValueError(f"attention: query {query.shape} and keys {keys.shape} must have the same "
                         "last axis d (a query is compared with each key)")
    if values.shape[-1 if numbers else -2] != keys.shape[-2]:
        raise ValueError(f"attention: keys {keys.shape} and values {values.shape} must have the "
                         "same number of candidates n")
    if single:
        query = query.expand_dims(-2)                                    # (..., 1, d)
        if mask is not None:
            mask = np.expand_dims(np.asarray(getattr(mask, "data", mask)), -2)  # (..., 1, n)
    if numbers:
        values = values.expand_dims(-1)                                  # (..., n, 1)

    def unstack(context, weights):
        if numbers:
            context = context.squeeze(-1)                                # (..., m)
        if single:
            context, weights = context.squeeze(-1 if numbers else -2), weights.squeeze(-2)
        return context, weights

    return query, keys, values, mask, unstack


def _scaled(scores, scale, d):
    if scale is None or scale is False:
        return scores
    if scale is True:
        return scores / math.sqrt(d)        # unit-variance q and k: scores of variance 1, not d
    check_number("scale", scale, where="dot_product_attention")     # not NaN, not a string
    return scores * float(scale)


def _masked(scores, mask, where="attention"):
    """-inf where the mask is False: exp(-inf) = 0, so those candidates get weight 0. Built with
    `where`, not by writing into the scores (an earlier op may have saved that very array)."""
    if mask is None:
        return scores
    mask = checked_mask(mask, scores.shape, where)
    masked_score = Tensor(np.array(-np.inf, dtype=scores.dtype), name="masked score")
    masked_scores = F.where(mask, scores, masked_score)         # a drawing names the -inf
    return masked_scores
