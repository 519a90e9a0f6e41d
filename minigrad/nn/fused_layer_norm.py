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

Saved for backward: x itself, each row's mean mu and s = 1/sigma, and the weight, as PyTorch's
native_layer_norm saves input, mean and rstd. Backward makes x - mu again (one subtraction)
rather than keep xhat from the forward: a kept xhat is one more array of x's size alive from
the forward to the backward, and with glibc's malloc as it comes, arrays of this size (160 kB
and up) that outlive a step come back as fresh pages, faulted in one by one; with x saved
instead, forward + backward on (32, 20, 64) went from about 130 page faults per run to none.

Two details keep the arithmetic exact where it can be and finite where it must be (the
composed version writes the formula plainly and has neither): the mean is taken of x - first
(each row's first element) and first added back, so a constant row centres to exact zeros (with
eps 0 it gives 0/0 = NaN, as PyTorch does, not +-1 from round-off); and where the squares of
x - mu overflow, the variance is taken again of (x - mu) / scale (`scaled`), so that a float32
row near 1e30 is normalised rather than zeroed.

The leading axes are flattened into rows, (N, D). Each mean over a row is a matrix-vector
product (x @ (1/D, ..., 1/D), dy @ (weight / D)) and each sum over rows a vector-matrix
product: one BLAS call each, faster than NumPy's general reductions. The forward writes every
step into one array, y. The backward works with xc = x - mu = xhat / s, so that xhat is never
made; with xhat = xc * s the formulas above read

    dweight = s @ (dy * xc)                     (sum over rows, s as the weights)
    dx      = s (g - mean(g) - xc * s^2 mean(g * xc))

and it needs two arrays of x's size: xc, and one that holds dy * xc, then g, then dx.
"""

import numpy as np

from minigrad.autograd import Function
from minigrad.ops.arithmetic import as_floating


class FusedLayerNorm(Function):
    """y = xhat * weight + bias,  xhat = (x - mean(x)) / sigma,  sigma = sqrt(var(x) + eps),
    each mean and var over the row (the last axis; var divides by D, not D - 1):
    dL/dx = (1/sigma) (g - mean(g) - xhat * mean(g * xhat)),  g = dL/dy * weight
    dL/dweight = sum(dL/dy * xhat), dL/dbias = sum(dL/dy), over every axis but the last

    x: (..., D)   weight, bias: (D,)   ->   y: (..., D), float64 for integer x
    (the derivation is in the docstring of fused_layer_norm.py)
    """

    settings = ("eps",)
    saves = ("x", "mu", "inv_sigma", "weight")

    def __init__(self, eps=1e-5):
        self.eps = eps

    def forward(self, x, weight, bias):
        x = as_floating(x)                                      # integers: float64, as mean
        D = x.shape[-1]
        if weight.shape != (D,) or bias.shape != (D,):
            raise ValueError(f"FusedLayerNorm: weight {weight.shape} and bias {bias.shape} "
                             f"should both be ({D},), the last axis of x {x.shape}")
        rows = x.reshape(-1, D)                                 # (N, D): leading axes as rows
        first = rows[:, 0]                                      # (N,): a constant row's value
        y = rows - first[:, None]                               # (N, D), x - first
        shift = y @ _averaging(D, x.dtype)                      # (N,), a matrix-vector product
        y -= shift[:, None]                                     # centred: x - mu, exact zeros
        mu = first + shift                                      # (N,)   for a constant row
        var = np.einsum("ni,ni->n", y, y) / D                   # (N,)  overflow: inf, no
        #                                                         warning (einsum gives none)
        sigma = np.sqrt(var + self.eps)                         # (N,)
        if not np.isfinite(var).all():                          # squares overflowed: again,
            scale, eps_scaled = scaled(y, self.eps)             # scaled, (N, 1) each
            z = y / scale
            sigma = np.sqrt(np.einsum("ni,ni->n", z, z) / D + eps_scaled[:, 0]) * scale[:, 0]
        with np.errstate(divide="ignore"):                      # eps 0, a constant row: NaN
            inv_sigma = 1 / sigma                               # (N,)
        y *= inv_sigma[:, None]                                 # xhat
        y *= weight                                             # xhat * weight
        y += bias                                               # xhat * weight + bias
        self.x, self.mu, self.inv_sigma, self.weight = x, mu, inv_sigma, weight
        return y.reshape(x.shape)                               # (..., D)

    def backward(self, grad_y):                                 # (..., D)
        mu, inv_sigma, weight = self.mu, self.inv_sigma, self.weight        # (N,), (N,), (D,)
        N, D = len(mu), len(weight)
        need_x, need_weight, need_bias = self.needs_input_grad
        rows_grad_y = grad_y.reshape(N, D)                      # (N, D)
        xc = self.x.reshape(N, D) - mu[:, None]                 # (N, D), x - mu = xhat / s
        grad_y_xc = rows_grad_y * xc                            # (N, D), dy * xhat / s
        grad_weight = inv_sigma @ grad_y_xc if need_weight else None        # sum(dy * xhat)
        grad_bias = np.ones(N, dtype=grad_y.dtype) @ rows_grad_y if need_bias else None
        grad_x = None
        if need_x:                                              # with g = dy * weight:
            weight_mean = weight / D                            # (D,)
            mean_g = rows_grad_y @ weight_mean                  # mean(g)               (N,)
            mean_g_xc = grad_y_xc @ weight_mean                 # mean(g * xhat) / s    (N,)
            grad_x = np.multiply(rows_grad_y, weight, out=grad_y_xc)        # g  (buffer reused)
            xc *= (inv_sigma * mean_g_xc * inv_sigma)[:, None]  # xhat * mean(g * xhat); in
            #                                                     this order s^2 cannot underflow
            grad_x -= xc
            grad_x -= mean_g[:, None]
            grad_x *= inv_sigma[:, None]                        # (N, D)
            grad_x = grad_x.reshape(grad_y.shape)               # (..., D)
        return grad_x, grad_weight, grad_bias


def scaled(centred, eps):
    """(scale, eps / scale^2), arrays (..., 1): scale is each row's largest |x - mu|, or 1 if
    that is smaller. Dividing by it keeps every square <= 1 where squares could overflow (past
    |x - mu| ~ 1e19 in float32), and changes nothing elsewhere: sigma = sqrt(var + eps) =
    sqrt(var / scale^2 + eps / scale^2) * scale."""
    largest = np.maximum(centred.max(axis=-1, keepdims=True),     # max |x - mu|, without an
                         -centred.min(axis=-1, keepdims=True))    # array of |x - mu|
    scale = np.maximum(largest, 1)                                  # (..., 1)
    with np.errstate(over="ignore"):                # scale^2 beyond the dtype's range: eps 0
        return scale, eps / scale ** 2


def _averaging(D, dtype):
    """The vector (1/D, ..., 1/D): rows @ it is each row's mean, as one BLAS matrix-vector
    product (faster than np.mean, which is a general reduction)."""
    return np.full(D, 1 / D, dtype=dtype)


def fused_layer_norm(x, weight, bias, eps=1e-5):
    """The same as `layer_norm`, as one op: x (..., D), weight and bias (D,) -> (..., D)."""
    return FusedLayerNorm(eps)(x, weight, bias)
