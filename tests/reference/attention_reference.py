"""Reference solutions of the attention exercises (docs/coursework.md). The grader does not run
them: it compares a student's file with the values they give, stored in
attention/grade/expected.npz by regenerate.py beside this file. They are not part of the
installed package. Given to the grader as a solution from here, this file is refused (the
graded code's process may not open this folder: docs/coursework.md, "Your own work"); a copy of
its lines is not.

Try the exercises before reading on.

`Block` makes the encoder block a layer for the translator (`train --arch transformer --block
tests/reference/attention_reference.py:Block`).
"""

import math

import numpy as np

import minigrad.functional as F
from minigrad import Tensor, nn
from minigrad.nn.layer_norm import layer_norm
from attention import dot_product_attention, softmax


def general_attention(query, keys, values, weight, mask=None):
    """Luong's "general" score, score(q, k) = q^T W k, then softmax and the mix of the values.

    q^T W k = q . (W k): project every key with W and take dot products with the query.
    query (B, m, dq)  keys (B, n, dk)  values (B, n, dv)  weight W (dq, dk)
    mask  boolean, True = may attend, broadcastable to (B, m, n); None: everything
    ->  context (B, m, dv), weights (B, m, n)
    """
    projected_keys = keys @ weight.T                                        # (B, n, dq)
    return dot_product_attention(query, projected_keys, values, mask=mask)


def multi_head_attention(query, key, value, in_proj_weight, in_proj_bias, out_proj_weight,
                         out_proj_bias, num_heads, mask=None):
    """num_heads single-head scaled dot-product attentions, each on its own slice of the
    projections, their contexts side by side, projected back (as torch.nn.MultiheadAttention).

    query (B, Tq, E)  key, value (B, Tk, E)
    in_proj_weight (3E, E): rows [W_q; W_k; W_v]   in_proj_bias (3E,)
    out_proj_weight (E, E)  out_proj_bias (E,)     head h uses rows h*Dh .. (h+1)*Dh - 1 of each
    mask  boolean, True = may attend, broadcastable to (B, Tq, Tk), the same for every head
    ->  attn_output (B, Tq, E), attn_weights (B, Tq, Tk) averaged over the heads (PyTorch's names)
    """
    embed_dim = query.shape[-1]
    head_dim = embed_dim // num_heads
    w_q, w_k, w_v = F.split(in_proj_weight, 3)                              # 3 x (E, E)
    b_q, b_k, b_v = F.split(in_proj_bias, 3)                                # 3 x (E,)
    contexts, weights = [], []
    for head in range(num_heads):
        rows = slice(head * head_dim, (head + 1) * head_dim)
        q = query @ w_q[rows].T + b_q[rows]                                 # (B, Tq, Dh)
        k = key @ w_k[rows].T + b_k[rows]                                   # (B, Tk, Dh)
        v = value @ w_v[rows].T + b_v[rows]                                 # (B, Tk, Dh)
        context, weight = dot_product_attention(q, k, v, mask=mask, scale=True)
        contexts.append(context)                                            # (B, Tq, Dh)
        weights.append(weight)                                              # (B, Tq, Tk)
    output = F.concat(contexts, axis=-1) @ out_proj_weight.T + out_proj_bias   # (B, Tq, E)
    average = F.stack(weights, axis=0).mean(axis=0)                         # (B, Tq, Tk)
    return output, average


def encoder_block(x, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias,
                  linear1_weight, linear1_bias, linear2_weight, linear2_bias, norm1_weight,
                  norm1_bias, norm2_weight, norm2_bias, num_heads, mask=None, norm_first=True):
    """One Transformer encoder layer (torch.nn.TransformerEncoderLayer with dropout 0, ReLU,
    batch_first=True): self-attention, then a feed-forward network, each added to its input
    with a layer norm before it (pre-norm, norm_first=True) or after the sum (post-norm).

        pre-norm                              post-norm (the 2017 paper)
        attn = SelfAttention(norm1(x))        attn = SelfAttention(x)
        h    = x + attn                       h    = norm1(x + attn)
        ff   = FeedForward(norm2(h))          ff   = FeedForward(h)
        y    = h + ff                         y    = norm2(h + ff)

    FeedForward(v) = relu(v linear1_weight^T + linear1_bias) linear2_weight^T + linear2_bias

    x (B, T, E)   the attention's weights as multi_head_attention's   linear1_weight (F, E)
    linear1_bias (F,)   linear2_weight (E, F)   linear2_bias (E,)   norm weights, biases (E,)
    mask  boolean, True = may attend, broadcastable to (B, T, T) (padding: (B, 1, T))
    ->  y (B, T, E)
    """

    def self_attention(v):
        output, _ = multi_head_attention(v, v, v, in_proj_weight, in_proj_bias,
                                         out_proj_weight, out_proj_bias, num_heads, mask=mask)
        return output                                                       # (B, T, E)

    def feed_forward(v):
        hidden = F.relu(v @ linear1_weight.T + linear1_bias)                # (B, T, F)
        return hidden @ linear2_weight.T + linear2_bias                     # (B, T, E)

    if norm_first:
        attn = self_attention(layer_norm(x, norm1_weight, norm1_bias))      # (B, T, E)
        h = x + attn                                                        # (B, T, E)
        ff = feed_forward(layer_norm(h, norm2_weight, norm2_bias))          # (B, T, E)
        return h + ff                                                       # (B, T, E)
    attn = self_attention(x)                                                # (B, T, E)
    h = layer_norm(x + attn, norm1_weight, norm1_bias)                      # (B, T, E)
    ff = feed_forward(h)                                                    # (B, T, E)
    return layer_norm(h + ff, norm2_weight, norm2_bias)                     # (B, T, E)


class Block(nn.Module):
    """encoder_block as a layer, for the translator's encoder (`--block FILE.py:Block`; the
    contract: seq2seq/models/block_contract.py). Its parameters are encoder_block's arguments,
    torch.nn.TransformerEncoderLayer's with "_" for "." (in_proj_weight for
    self_attn.in_proj_weight); the weights uniform in +-sqrt(6 / (fan_in + fan_out)), the
    biases 0, the norms' weights 1. No dropout: the `dropout` asked for is ignored."""

    def __init__(self, d_model, nhead, dim_feedforward, dropout=0.0, norm_first=True):
        self.nhead, self.norm_first = nhead, norm_first
        E, hidden = d_model, dim_feedforward
        for name, shape in (("in_proj", (3 * E, E)), ("out_proj", (E, E)),
                            ("linear1", (hidden, E)), ("linear2", (E, hidden))):
            weight = nn.Parameter(np.empty(shape, dtype=np.float32))
            bound = math.sqrt(6 / sum(shape))
            nn.init.uniform_(weight, -bound, bound)
            setattr(self, f"{name}_weight", weight)
            setattr(self, f"{name}_bias", nn.Parameter(np.zeros(shape[0], dtype=np.float32)))
        for name in ("norm1", "norm2"):
            setattr(self, f"{name}_weight", nn.Parameter(np.ones(E, dtype=np.float32)))
            setattr(self, f"{name}_bias", nn.Parameter(np.zeros(E, dtype=np.float32)))

    def forward(self, x, mask=None):
        """x (B, T, E), mask (B, 1, T) True = may attend -> (B, T, E)"""
        return encoder_block(x, self.in_proj_weight, self.in_proj_bias, self.out_proj_weight,
                             self.out_proj_bias, self.linear1_weight, self.linear1_bias,
                             self.linear2_weight, self.linear2_bias, self.norm1_weight,
                             self.norm1_bias, self.norm2_weight, self.norm2_bias, self.nhead,
                             mask=mask, norm_first=self.norm_first)


def positional_encoding(length, d_model):
    """The sinusoidal table PE (length, d_model) of Vaswani et al. (2017), section 3.5:

        PE[pos, 2i] = sin(pos / 10000^(2i / d_model))    PE[pos, 2i+1] = cos(the same angle)

    positions 0 ... length - 1; an odd d_model ends with a sine (its last pair has no cosine).
    """
    positions = np.arange(length, dtype=np.float64)[:, None]             # (T, 1)
    two_i = np.arange(0, d_model, 2, dtype=np.float64)                  # (ceil(d/2),) = 2i
    angles = positions / 10000.0 ** (two_i / d_model)                   # (T, ceil(d/2))
    table = np.zeros((length, d_model))                                 # a new array: ours
    table[:, 0::2] = np.sin(angles)                                     # even features
    table[:, 1::2] = np.cos(angles[:, :d_model // 2])                   # odd features
    return table


def add_positions(x):
    """x + PE: each position's encoding added to its embedding. x (B, T, d_model) -> the same.
    The table is a constant (no gradient flows into it); x's gradient passes through unchanged.
    """
    length, d_model = x.shape[-2], x.shape[-1]
    return x + Tensor(positional_encoding(length, d_model))             # (B, T, d_model)


def causal_attention(query, keys, values):
    """Scaled dot-product self-attention in which position t attends keys 0 ... t only:

        scores = q k^T / sqrt(d)    key j > query t: -inf    weights = softmax    context = a v

    query, keys (B, T, d)  values (B, T, dv)  ->  context (B, T, dv), weights (B, T, T)
    exp(-inf) = 0: a later key gets weight exactly 0, whatever the scores.
    """
    length, d = keys.shape[-2], keys.shape[-1]
    scores = query @ keys.swapaxes(-1, -2) / math.sqrt(d)               # (B, T, T)
    allowed = np.tri(length, dtype=bool)                                # (T, T): key j <= t
    hidden = Tensor(np.array(-np.inf))
    weights = softmax(F.where(allowed, scores, hidden))                 # (B, T, T)
    return weights @ values, weights                                    # (B, T, dv)
