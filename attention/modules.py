"""Attention as modules: the same three steps, with different score functions.

    score(q, k)                                   module                      parameters
    q . k                                         DotProductAttention         none
    q . k / sqrt(d)                               ScaledDotProductAttention   none
    q^T W k                   (Luong et al., 2015) GeneralAttention            W (dq, dk)
    v^T tanh(W q + U k)    (Bahdanau et al., 2015) AdditiveAttention           W, U, v
    per head: (q W_q) . (k W_k) / sqrt(d_head)    MultiHeadAttention          PyTorch's layout
    0, for every pair: weights 1/n  (a baseline)  UniformAttention            none

A score function has no per-position parameters: the same function, with the same weights,
scores every candidate, so one module serves sequences of any length.

Every module is called as module(query, keys, values, mask=None) -> (context, weights), with the
shapes of `attention.dot_product_attention`, and keeps the last weights as a NumPy array in
`self.weights` (what a heatmap draws).
"""

import math

import numpy as np

import minigrad.functional as F
from minigrad import Tensor, scope
from minigrad.nn import Linear, Module, Parameter, init
from minigrad.nn.module import check_dtype, check_sizes
from attention.functional import _masked, as_matrices, attend, dot_product_attention
from attention.masks import checked_mask


class DotProductAttention(Module):
    """score(q, k) = q . k (times `scale`: see dot_product_attention). No parameters."""

    def __init__(self, scale=None):
        self.scale = scale
        self.weights = None

    def forward(self, query, keys, values, mask=None):
        context, weights = dot_product_attention(query, keys, values, mask=mask, scale=self.scale)
        self.weights = weights.data
        return context, weights

    def extra_repr(self):
        return "" if self.scale is None else f"scale={self.scale}"


class ScaledDotProductAttention(DotProductAttention):
    """score(q, k) = q . k / sqrt(d) (Vaswani et al., 2017): for query and key entries of
    variance 1, the scores have variance 1 whatever d is, so the softmax does not saturate."""

    def __init__(self):
        super().__init__(scale=True)

    def extra_repr(self):
        return ""


class GeneralAttention(Module):
    """score(q, k) = q^T W k = q . (W k)        W: (query_size, key_size), Luong's "general" score.

    The keys are projected to the query's size, W k, and compared with q by a dot product; the
    values are mixed as they are. W is `W.weight` (a Linear without bias, from key_size to
    query_size).
    """

    def __init__(self, query_size, key_size):
        check_sizes("GeneralAttention", query_size=query_size, key_size=key_size)
        self.W = Linear(key_size, query_size, bias=False)
        self.weights = None

    def forward(self, query, keys, values, mask=None):
        projected_keys = self.W(keys)                                   # (..., n, query_size)
        context, weights = dot_product_attention(query, projected_keys, values, mask=mask)
        self.weights = weights.data
        return context, weights


class AdditiveAttention(Module):
    """score(q, k) = v^T tanh(W q + U k)     (Bahdanau, Cho and Bengio, 2015: the alignment model)

    A one-layer network scores each (query, key) pair: W: (hidden, query_size),
    U: (hidden, key_size), v: (1, hidden), all without bias (as in the paper).
    U k does not depend on the query, so it is computed once for all queries.
    """

    def __init__(self, query_size, key_size, hidden_size):
        check_sizes("AdditiveAttention", query_size=query_size, key_size=key_size,
                    hidden_size=hidden_size)
        self.W = Linear(query_size, hidden_size, bias=False)
        self.U = Linear(key_size, hidden_size, bias=False)
        self.v = Linear(hidden_size, 1, bias=False)
        self.weights = None

    def forward(self, query, keys, values, mask=None):
        query, keys, values, mask, unstack = as_matrices(query, keys, values, mask,
                                                         same_size=False)
        projected_queries = self.W(query).expand_dims(-2)               # (..., m, 1, hidden)
        projected_keys = self.U(keys).expand_dims(-3)                   # (..., 1, n, hidden)
        features = (projected_queries + projected_keys).tanh()          # (..., m, n, hidden)
        scores = self.v(features).squeeze(-1)                           # (..., m, n)
        context, weights = attend(scores, values, mask)                 # (..., m, dv), (..., m, n)
        context, weights = unstack(context, weights)
        self.weights = weights.data
        return context, weights


class UniformAttention(Module):
    """score(q, k) = 0 for every pair: equal scores, so the softmax gives each position the same
    weight, 1/n (1/(positions left) under a mask), whatever the query. No parameters.

    A baseline, not a model: the weights are frozen to uniform, so the context is the plain mean
    of the values. Wiegreffe and Pinter (2019) train a model with it in place of its attention:
    where that model does as well, the learned weights were not needed, and their map cannot be
    the reason for the model's decisions. (The scores are a constant with no creator: nothing
    flows back through them, and the query gets no gradient from the attention.)
    """

    def __init__(self):
        self.weights = None

    def forward(self, query, keys, values, mask=None):
        query, keys, values, mask, unstack = as_matrices(query, keys, values, mask,
                                                         same_size=False)
        batch = np.broadcast_shapes(query.shape[:-2], keys.shape[:-2])
        scores = Tensor(np.zeros((*batch, query.shape[-2], keys.shape[-2]),
                                 dtype=values.dtype))                     # (..., m, n)
        context, weights = attend(scores, values, mask)                 # (..., m, dv), (..., m, n)
        context, weights = unstack(context, weights)
        self.weights = weights.data
        return context, weights


class MultiHeadAttention(Module):
    """num_heads scaled dot-product attentions side by side, each on its own projection of the
    queries, keys and values to head_dim = embed_dim / num_heads, their contexts concatenated and
    projected back (Vaswani et al., 2017). Parameters as in torch.nn.MultiheadAttention:

        in_proj_weight (3E, E)   rows [W_q; W_k; W_v]       in_proj_bias (3E,)   [b_q; b_k; b_v]
        out_proj.weight (E, E)   out_proj.bias (E,)

    forward(query (B, Tq, E), key (B, Tk, E), value (B, Tk, E), mask=None) -> (output, weights)
    (PyTorch's batch_first=True layout; leading axes other than B work too, or none.)
    mask: boolean, True = may attend (the opposite of PyTorch's boolean attn_mask), broadcastable
    to (B, Tq, Tk); the same for every head. For a padding mask over keys use shape (B, 1, Tk).
    weights: (B, Tq, Tk), averaged over the heads, as PyTorch returns by default; the per-head
    weights (B, H, Tq, Tk) are kept in `self.head_weights`.
    cache: a KeyValueCache (attention.cache) for decoding one step at a time: the new keys and
    values are appended to those kept from earlier steps and the queries attend over all of them
    (Tk counts the kept steps too, for the mask).

    Used as self-attention, query, key and value are the same sequence x: `self_attention(x,
    attention=module, mask=causal_mask(T))`. The projections run in one scope ("projections"),
    the heads' attention in a second, the output projection in a third, so a drawing can fold
    any of them. The heads attend all at once, as one batched attention over a heads axis
    ("heads"): a handful of ops whatever their number, as fast as it can be. With
    `heads_apart=True` (an attribute too; `show_heads(model)` sets it on every module of a
    model) each head runs its own attention in a scope of its own ("head 0", "head 1", ...), so
    that a drawing or the explorer can show one head alone: the same numbers from more ops (self-
    attention over (8, 32, 64), forward and backward: 1.6x as long at 4 heads, 2.0x at 8).
    """

    def __init__(self, embed_dim, num_heads, heads_apart=False):
        check_sizes("MultiHeadAttention", embed_dim=embed_dim, num_heads=num_heads)
        if embed_dim % num_heads:
            raise ValueError(f"MultiHeadAttention: embed_dim {embed_dim} is not divisible by "
                             f"num_heads {num_heads}")
        self.embed_dim, self.num_heads = embed_dim, num_heads
        self.head_dim = embed_dim // num_heads
        self.in_proj_weight = Parameter(np.empty((3 * embed_dim, embed_dim), dtype=np.float32))
        self.in_proj_bias = Parameter(np.zeros(3 * embed_dim, dtype=np.float32))
        self.out_proj = Linear(embed_dim, embed_dim)
        self.heads_apart = heads_apart
        self.weights = self.head_weights = None
        self.reset_parameters()

    def reset_parameters(self):
        """As PyTorch: Xavier-uniform in_proj_weight (fan_in E, fan_out 3E), zero biases."""
        bound = math.sqrt(6 / (self.embed_dim + 3 * self.embed_dim))
        init.uniform_(self.in_proj_weight, -bound, bound)
        init.zeros_(self.in_proj_bias)
        init.zeros_(self.out_proj.bias)

    def forward(self, query, key, value, mask=None, cache=None):
        for x in (query, key, value):
            check_dtype(self, x, self.in_proj_weight)
        self.check_shapes(query, key, value, cache)
        if mask is not None:                            # as passed, against the weights' shape
            kept = 0 if cache is None else len(cache)
            mask = checked_mask(mask, (*query.shape[:-1], kept + key.shape[-2]),
                                "MultiHeadAttention", "weights")
        with scope("projections"):
            q, k, v = self.project(query, key, value)                  # (B, H, Tq|Tk, Dh) each
        if cache is not None:
            k, v = cache.extend(k, v)                   # (B, H, t + Tk, Dh): kept steps first
        if self.heads_apart:
            context, weights = self.each_head_apart(q, k, v, mask)     # (B, H, Tq, Dh), (..Tk)
        else:
            if mask is not None:                        # the same mask for every head
                mask = np.atleast_2d(np.asarray(getattr(mask, "data", mask)))  # (.., Tq, Tk)
                mask = np.expand_dims(mask, -3)                             # (.., 1, Tq, Tk)
            with scope("heads"):                        # H scaled dot-product attentions at once
                context, weights = self.all_heads(q, k, v, mask)    # (B, H, Tq, Dh), (..Tk)
        with scope("output"):
            context = self.merge_heads(context)                         # (B, Tq, E)
            output = self.out_proj(context)                             # (B, Tq, E)
        average = weights.mean(axis=-3)                                 # (B, Tq, Tk)
        self.weights, self.head_weights = average.data, weights.data
        return output, average

    def check_shapes(self, query, key, value, cache):
        """query (B, Tq, E), key and value (B, Tk, E): the same batch axes (a memory of one
        sentence is not spread over a batch of two), E features each, at least one key."""
        E = self.embed_dim
        for name, x in (("query", query), ("key", key), ("value", value)):
            if x.ndim < 2 or x.shape[-1] != E:
                raise ValueError(f"MultiHeadAttention: expected {name} of shape (..., T, {E}), "
                                 f"got {x.shape}")
        if key.shape != value.shape:
            raise ValueError(f"MultiHeadAttention: key {key.shape} and value {value.shape} must "
                             f"have the same shape (one value per key)")
        if query.shape[:-2] != key.shape[:-2]:
            raise ValueError(f"MultiHeadAttention: query {query.shape} and key {key.shape} must "
                             f"have the same batch axes (all but the last two): each row's "
                             f"queries attend that row's keys, nothing is broadcast")
        if key.shape[-2] == 0 and (cache is None or len(cache) == 0):
            raise ValueError(f"MultiHeadAttention: no keys to attend (key of shape {key.shape}): "
                             f"each query needs at least one")

    def all_heads(self, q, k, v, mask):
        """softmax(q k^T / sqrt(Dh)) v for every head at once, batched over the heads axis:
        q (B, H, Tq, Dh), k, v (B, H, Tk, Dh), mask (.., 1, Tq, Tk) -> contexts (B, H, Tq, Dh),
        weights (B, H, Tq, Tk). dot_product_attention's three steps, with the softmax as one op
        (F.softmax, its backward written by hand) where dot_product_attention builds it from
        four, to show them: the same numbers (tests/test_attention_softmax.py), fewer ops.
        `heads_apart` runs dot_product_attention itself, head by head."""
        scores = q @ k.swapaxes(-1, -2) / math.sqrt(self.head_dim)     # (B, H, Tq, Tk)
        weights = F.softmax(_masked(scores, mask, "MultiHeadAttention"))  # (B, H, Tq, Tk)
        return weights @ v, weights                                     # (B, H, Tq, Dh)

    def each_head_apart(self, q, k, v, mask):
        """The heads one by one, head h in scope "head h": q (B, H, Tq, Dh), k, v (B, H, Tk, Dh)
        -> contexts (B, H, Tq, Dh), weights (B, H, Tq, Tk), the same numbers as all at once."""
        contexts, head_weights = [], []
        for h in range(self.num_heads):                 # one scaled dot-product attention each
            with scope(f"head {h}"):
                q_h, k_h, v_h = q[..., h, :, :], k[..., h, :, :], v[..., h, :, :]  # (B, T, Dh)
                context, weights = dot_product_attention(q_h, k_h, v_h, mask=mask, scale=True)
            contexts.append(context)                                    # (B, Tq, Dh)
            head_weights.append(weights)                                # (B, Tq, Tk)
        with scope("output"):                           # where the heads' outputs join
            context = F.stack(contexts, axis=-3)                        # (B, H, Tq, Dh)
        return context, F.stack(head_weights, axis=-3)

    def project(self, query, key, value):
        """q = query W_q^T + b_q, k = key W_k^T + b_k, v = value W_v^T + b_v, each split into
        heads: (B, T, E) -> (B, H, T, Dh). W_q, W_k, W_v are the rows of in_proj_weight (and
        the biases of in_proj_bias) taken E at a time. Each distinct input is projected once,
        as PyTorch does: self-attention (query, key and value the same tensor) multiplies x by
        all 3E rows at once; cross-attention (key and value the same memory) multiplies the
        memory by the 2E rows [W_k; W_v] at once. The same numbers as three products, from
        fewer and larger ones."""
        E, weight, bias = self.embed_dim, self.in_proj_weight, self.in_proj_bias
        if query is key is value:                       # self-attention: [q k v] = x W^T
            return self.split_heads(query @ weight.T + bias, parts=3)
        q, = self.split_heads(query @ weight[:E].T + bias[:E])
        if key is value:                                # cross-attention: [k v] = m [W_k W_v]^T
            k, v = self.split_heads(key @ weight[E:].T + bias[E:], parts=2)
        else:
            k, = self.split_heads(key @ weight[E:2 * E].T + bias[E:2 * E])
            v, = self.split_heads(value @ weight[2 * E:].T + bias[2 * E:])
        return q, k, v

    def split_heads(self, projected, parts=1):
        """(..., T, parts * E) -> a list of `parts` tensors (..., H, T, Dh): in part p, head h
        gets features p*E + h*Dh ... p*E + (h+1)*Dh - 1."""
        split = projected.reshape(*projected.shape[:-1], parts, self.num_heads,
                                  self.head_dim)                              # (.., T, P, H, Dh)
        n = split.ndim - 4                                                    # batch axes
        heads = split.transpose(n + 1, *range(n), n + 2, n, n + 3)            # (P, .., H, T, Dh)
        return [heads[p] for p in range(parts)]                               # P x (.., H, T, Dh)

    def merge_heads(self, heads):
        """(..., H, T, Dh) -> (..., T, E): the heads' outputs side by side."""
        side_by_side = heads.swapaxes(-2, -3)                           # (..., T, H, Dh)
        return side_by_side.reshape(*side_by_side.shape[:-2], self.embed_dim)   # (..., T, E)

    def extra_repr(self):
        apart = ", heads_apart=True" if self.heads_apart else ""
        return f"embed_dim={self.embed_dim}, num_heads={self.num_heads}{apart}"


def show_heads(model, apart=True):
    """Set `heads_apart` on every MultiHeadAttention in `model` (a module, or one itself), so
    that each head runs in a scope of its own: what a drawing or the explorer folds or shows."""
    found = [m for m in model.modules() if isinstance(m, MultiHeadAttention)]
    for module in found:
        module.heads_apart = apart
    return model
