"""Reference solutions of the engine-level exercises (docs/coursework.md). The grader does not
run them: it compares a student's file with the values they give, stored in
minigrad/grade/expected.npz by regenerate.py beside this file. They are not part of the
installed package. Given to the grader as a solution from here, this file is refused (the
graded code's process may not open this folder: docs/coursework.md, "Your own work"); a copy of
its lines is not.

Its `GRU` layer (gru_cell run over time) trains in the translator, from a clone:

    python -m seq2seq train --task reverse --rnn tests/reference/minigrad_reference.py:GRU

Try the exercise before reading on.
"""

import math

import numpy as np

from minigrad import Function, nn


def gru_cell(x, h, weight_ih, weight_hh, bias_ih, bias_hh):
    """One GRU step, as torch.nn.GRUCell (gates stacked in the order r, z, n):

        r  = sigmoid(x W_ir^T + b_ir + h W_hr^T + b_hr)      reset gate
        z  = sigmoid(x W_iz^T + b_iz + h W_hz^T + b_hz)      update gate
        n  = tanh(x W_in^T + b_in + r * (h W_hn^T + b_hn))   candidate state
        h' = (1 - z) * n + z * h

    x: (B, I)  h: (B, H)  weight_ih: (3H, I)  weight_hh: (3H, H)  biases: (3H,)  ->  h': (B, H)
    """
    H = h.shape[-1]
    from_x = x @ weight_ih.T + bias_ih                          # (B, 3H)
    from_h = h @ weight_hh.T + bias_hh                          # (B, 3H)
    r = (from_x[:, 0 * H:1 * H] + from_h[:, 0 * H:1 * H]).sigmoid()       # reset gate (B, H)
    z = (from_x[:, 1 * H:2 * H] + from_h[:, 1 * H:2 * H]).sigmoid()       # update gate (B, H)
    n = (from_x[:, 2 * H:3 * H] + r * from_h[:, 2 * H:3 * H]).tanh()      # candidate (B, H)
    return (1 - z) * n + z * h                                  # (B, H)


class GRU(nn.Recurrent):
    """A GRU layer: `gru_cell` run over time by `nn.Recurrent`, which also keeps a padded
    row's state as it was. Its state is one tensor, h (B, H): `state_parts` stays ("h",).

    Parameters as torch.nn.GRU's first layer, so a state dict copies across:
    weight_ih_l0 (3H, I), weight_hh_l0 (3H, H), bias_ih_l0, bias_hh_l0 (3H,), blocks r, z, n,
    each uniform in [-1/sqrt(H), 1/sqrt(H)).
    """

    def __init__(self, input_size, hidden_size):
        self.input_size, self.hidden_size = input_size, hidden_size
        H, bound = hidden_size, 1 / math.sqrt(hidden_size)
        shapes = [(3 * H, input_size), (3 * H, H), (3 * H,), (3 * H,)]
        params = [nn.Parameter(np.empty(shape, dtype=np.float32)) for shape in shapes]
        for p in params:
            nn.init.uniform_(p, -bound, bound)
        self.weight_ih_l0, self.weight_hh_l0, self.bias_ih_l0, self.bias_hh_l0 = params

    def cell(self, x, h):
        """One step: x (B, I), h (B, H) -> h' (B, H)."""
        return gru_cell(x, h, self.weight_ih_l0, self.weight_hh_l0, self.bias_ih_l0,
                        self.bias_hh_l0)


def layer_norm(x, weight, bias, eps=1e-5):
    """Normalise each row of the last axis to mean 0 and variance 1, then scale and shift:

        y = (x - mean) / sqrt(var + eps) * weight + bias
        mean, var over the last axis; var the biased variance (divide by D, not D - 1)

    x: (..., D)  weight, bias: (D,)  ->  y: (..., D)        as torch.nn.LayerNorm(D)
    """
    mean = x.mean(axis=-1, keepdims=True)                       # (..., 1)
    centred = x - mean                                          # (..., D)
    variance = (centred ** 2).mean(axis=-1, keepdims=True)      # (..., 1)
    return centred / (variance + eps).sqrt() * weight + bias    # (..., D)


class LayerNormOp(Function):
    """Layer normalisation as one op, over the last axis, as torch.nn.LayerNorm(D):

        sigma = sqrt(var + eps)     xhat = (x - mean) / sigma     y = xhat * weight + bias

    With g = dL/dy * weight (the gradient arriving at xhat), means over each row:
        dL/dx      = (g - mean(g) - xhat * mean(g * xhat)) / sigma
        dL/dweight = sum of dL/dy * xhat,  dL/dbias = sum of dL/dy,  over every axis but the last
    (mean and sigma depend on every x_j of the row: d mean/d x_j = 1/D, d sigma/d x_j =
    xhat_j / D; the two terms subtracted from g are theirs.)
    x: (..., D)  weight, bias: (D,)  ->  y: (..., D)
    """

    settings = ("eps",)
    saves = ("xhat", "inv_sigma", "weight")

    def __init__(self, eps=1e-5):
        self.eps = eps

    def forward(self, x, weight, bias):
        mean = x.mean(axis=-1, keepdims=True)                               # (..., 1)
        centred = x - mean                                                  # (..., D)
        variance = (centred ** 2).mean(axis=-1, keepdims=True)              # (..., 1)
        self.inv_sigma = 1 / np.sqrt(variance + self.eps)                   # (..., 1)
        self.xhat = centred * self.inv_sigma                                # (..., D)
        self.weight = weight                                                # (D,)
        return self.xhat * weight + bias                                    # (..., D)

    def backward(self, grad_y):                                             # (..., D)
        xhat, leading = self.xhat, tuple(range(grad_y.ndim - 1))
        g = grad_y * self.weight                                            # (..., D)
        grad_x = self.inv_sigma * (g - g.mean(axis=-1, keepdims=True)
                                   - xhat * (g * xhat).mean(axis=-1, keepdims=True))
        grad_weight = (grad_y * xhat).sum(axis=leading)                     # (D,)
        grad_bias = grad_y.sum(axis=leading)                                # (D,)
        return grad_x, grad_weight, grad_bias


def layer_norm_op(x, weight, bias, eps=1e-5):
    return LayerNormOp(eps)(x, weight, bias)


class LogSumExp(Function):
    """y = log sum_i exp(x_i)   along `axis`          as torch.logsumexp(x, dim, keepdim)

    Computed as m + log sum_i exp(x_i - m), m = max_i x_i, so that large x do not overflow.
    dL/dx_i = dL/dy * exp(x_i - y) = dL/dy * softmax(x)_i
    x: any shape  ->  y: x's shape without `axis` (or with length 1 there when keepdims)
    """

    settings = ("axis", "keepdims")
    saves = ("softmax",)

    def __init__(self, axis=-1, keepdims=False):
        self.axis, self.keepdims = axis, keepdims

    def forward(self, x):
        peak = np.max(x, axis=self.axis, keepdims=True)                     # (..., 1, ...)
        total = np.sum(np.exp(x - peak), axis=self.axis, keepdims=True)     # (..., 1, ...)
        y = peak + np.log(total)                                            # (..., 1, ...)
        self.softmax = np.exp(x - y)                                        # x's shape
        return y if self.keepdims else np.squeeze(y, axis=self.axis)

    def backward(self, grad_y):
        if not self.keepdims:
            grad_y = np.expand_dims(grad_y, self.axis)                      # (..., 1, ...)
        return (grad_y * self.softmax,)


def logsumexp(x, axis=-1, keepdims=False):
    return LogSumExp(axis, keepdims)(x)
