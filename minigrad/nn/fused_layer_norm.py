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

Saved for backward: xhat and 1/sigma (the forward's results), and the weight. The leading
axes are flattened into rows, (N, D), so each reduction is one matrix-vector product (or, for
the variance, one einsum), and the sums over the leading axes are sums over rows. Backward
reads mean(g) and mean(g * xhat) as dy @ (weight / D) and (dy * xhat) @ (weight / D), so g is
made once, as the start of dx.
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
        rows = x.reshape(-1, D)                                 # (N, D): leading axes as rows
        mu = rows @ _averaging(D, x.dtype)                      # (N,), a matrix-vector product
        xhat = rows - mu[:, None]                               # (N, D), centred for now
        var = np.einsum("ni,ni->n", xhat, xhat) / D             # (N,)
        inv_sigma = 1 / np.sqrt(var + self.eps)                 # (N,)
        xhat *= inv_sigma[:, None]                              # (N, D), now normalised
        self.xhat, self.inv_sigma, self.weight = xhat, inv_sigma, weight
        y = xhat * weight                                       # (N, D)
        y += bias
        return y.reshape(x.shape)                               # (..., D)

    def backward(self, grad_y):                                 # (..., D)
        xhat, inv_sigma, weight = self.xhat, self.inv_sigma, self.weight    # (N, D), (N,), (D,)
        N, D = xhat.shape
        need_x, need_weight, need_bias = self.needs_input_grad
        rows_grad_y = grad_y.reshape(N, D)                      # (N, D)
        ones = np.ones(N, dtype=grad_y.dtype)                   # sums over rows as BLAS products
        grad_y_xhat = rows_grad_y * xhat                        # (N, D)
        grad_weight = ones @ grad_y_xhat if need_weight else None           # (D,)
        grad_bias = ones @ rows_grad_y if need_bias else None               # (D,)
        grad_x = None
        if need_x:                                              # with g = dy * weight:
            mean_g = rows_grad_y @ (weight / D)                 # mean(g)               (N,)
            mean_g_xhat = grad_y_xhat @ (weight / D)            # mean(g * xhat)        (N,)
            grad_x = rows_grad_y * weight                       # g                     (N, D)
            grad_x -= np.multiply(xhat, mean_g_xhat[:, None], out=grad_y_xhat)  # (reused)
            grad_x -= mean_g[:, None]
            grad_x *= inv_sigma[:, None]                        # (N, D)
            grad_x = grad_x.reshape(grad_y.shape)               # (..., D)
        return grad_x, grad_weight, grad_bias


def _averaging(D, dtype):
    """The vector (1/D, ..., 1/D): rows @ it is each row's mean, as one BLAS matrix-vector
    product (faster than np.mean, which is a general reduction)."""
    return np.full(D, 1 / D, dtype=dtype)


def fused_layer_norm(x, weight, bias, eps=1e-5):
    """The same as `layer_norm`, as one op: x (..., D), weight and bias (D,) -> (..., D)."""
    return FusedLayerNorm(eps)(x, weight, bias)
