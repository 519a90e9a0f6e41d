"""Layer normalisation as one op, with its backward derived by hand (layer_norm.py composes the
same thing from primitive ops, one step per line).

`layer_norm` in `minigrad.nn.layer_norm` builds the normalisation from nine primitive ops; the
engine records each, and backward calls each. `FusedLayerNorm` is the whole of it as one
`Function`. The numbers are the same (to float64 round-off); the tests check every gradient
against the composed version, against finite differences and against PyTorch.

Forward, over the last axis (D elements), for each row x of the input:

    mu    = mean(x)
    var   = mean((x - mu)^2)                    the biased variance, as PyTorch's
    sigma = sqrt(var + eps)
    xhat  = (x - mu) / sigma                    each row: mean 0, variance ~1
    y     = xhat * weight + bias

Backward: dy = dL/dy arrives. The scale and shift are an elementwise product and a sum, summed
over the leading axes, where weight and bias were broadcast:

    dweight = sum over rows of dy * xhat        dbias = sum over rows of dy          (D,)

Through the normalisation, with g = dy * weight (the gradient arriving at xhat):

    dx = (1/sigma) (g - mean(g) - xhat * mean(g * xhat))                             (..., D)

Why: xhat = (x - mu) / sigma, and both mu and sigma depend on every x_j of the row.
d mu / d x_j = 1/D; d sigma / d x_j = (x_j - mu) / (D sigma) = xhat_j / D. So
    d xhat_i / d x_j = (delta_ij - 1/D) / sigma - xhat_i xhat_j / (D sigma),
and dx_j = sum_i g_i d xhat_i / d x_j = (1/sigma) (g_j - mean(g) - xhat_j mean(g * xhat)).
The gradient is g with its mean and its component along xhat taken out: moving a row along
a constant or along xhat itself does not change xhat.

Saved for backward: xhat and 1/sigma (the forward's results), and the weight.
"""

import numpy as np

from minigrad.autograd import Function


class FusedLayerNorm(Function):
    """y = (x - mean(x)) / sqrt(var(x) + eps) * weight + bias, over the last axis
    (the derivation is in this file's docstring)

    x: (..., D)   weight, bias: (D,)   ->   y: (..., D)
    dx = (1/sigma) (g - mean(g) - xhat * mean(g * xhat)),  g = dy * weight
    dweight = sum(dy * xhat), dbias = sum(dy), over every axis but the last
    """

    settings = ("eps",)
    saves = ("xhat", "inv_sigma", "weight")

    def __init__(self, eps=1e-5):
        self.eps = eps

    def forward(self, x, weight, bias):
        D = x.shape[-1]
        if weight.shape != (D,) or bias.shape != (D,):
            raise ValueError(f"FusedLayerNorm: weight {weight.shape} and bias {bias.shape} "
                             f"should both be ({D},), the last axis of x {x.shape}")
        mu = x.mean(axis=-1, keepdims=True)                     # (..., 1)
        xhat = x - mu                                           # (..., D), centred for now
        var = np.einsum("...i,...i->...", xhat, xhat)[..., None]   # (..., 1), sum of squares
        var /= D
        var += self.eps
        inv_sigma = 1 / np.sqrt(var)                            # (..., 1)
        xhat *= inv_sigma                                       # (..., D), now normalised
        self.xhat, self.inv_sigma, self.weight = xhat, inv_sigma, weight
        y = xhat * weight                                       # (..., D)
        y += bias
        return y

    def backward(self, grad_y):                                 # (..., D)
        xhat, D = self.xhat, self.xhat.shape[-1]
        need_x, need_weight, need_bias = self.needs_input_grad
        grad_x = grad_weight = grad_bias = None
        rows_grad_y = grad_y.reshape(-1, D)                     # (N, D): leading axes as rows
        if need_weight:
            grad_weight = np.einsum("ni,ni->i", rows_grad_y, xhat.reshape(-1, D))   # (D,)
        if need_bias:
            grad_bias = rows_grad_y.sum(axis=0)                 # (D,)
        if need_x:
            g = grad_y * self.weight                            # (..., D): dL/dxhat
            mean_g = g.mean(axis=-1, keepdims=True)             # (..., 1)
            mean_g_xhat = np.einsum("...i,...i->...", g, xhat)[..., None] / D   # (..., 1)
            grad_x = g                                          # g is ours: write into it
            grad_x -= mean_g
            grad_x -= xhat * mean_g_xhat
            grad_x *= self.inv_sigma                            # (..., D)
        return grad_x, grad_weight, grad_bias


def fused_layer_norm(x, weight, bias, eps=1e-5):
    """The same as `layer_norm`, as one op: x (..., D), weight and bias (D,) -> (..., D)."""
    return FusedLayerNorm(eps)(x, weight, bias)
