"""Reference solutions of the attention exercises (docs/coursework.md). The grader does not run
them: it compares a student's file with the values they give, stored in
attention/grade/expected.npz by regenerate.py beside this file. They are not part of the
installed package. Given to the grader as a solution from here, this file is refused (the
graded code's process may not open this folder: docs/coursework.md, "Your own work"); a copy of
its lines is not.

Try the exercises before reading on.
"""

import minigrad.functional as F
from attention import dot_product_attention


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
