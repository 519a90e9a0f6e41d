"""Layer normalisation (Ba, Kiros and Hinton, 2016), as torch.nn.LayerNorm over the last axis:
the composed version that students read and step through, and the layer that chooses between
it and the fused op (`minigrad.nn.fused_layer_norm`, the same numbers with a hand-derived
backward).

Shapes: x (..., D), D = normalized_shape; weight and bias (D,).
"""

import numpy as np

from minigrad.nn.fused_layer_norm import fused_layer_norm
from minigrad.nn.module import Module, Parameter, check_dtype, check_sizes
from minigrad.settings import check_number
from minigrad.tensor import Tensor


def layer_norm(x, weight, bias, eps=1e-5):
    """Normalise each row of x over its last axis, then scale and shift it, from primitive ops
    (each step on its own line; a drawing shows each as a node):

        mu    = mean(x)                       the row's mean
        var   = mean((x - mu)^2)              its variance (biased: divided by D, as PyTorch)
        sigma = sqrt(var + eps)               eps keeps a constant row from dividing by 0
        xhat  = (x - mu) / sigma              mean 0, variance ~1
        y     = xhat * weight + bias          a learned scale and shift per feature

    This is the formula as written, for reading and stepping through. At the edges of floating
    point it gives what the formula gives there: a constant row with eps 0 may come out as +-1
    from the mean's round-off instead of 0/0 = NaN, and float32 rows whose squares overflow
    (|x - mu| past about 1e19) as zeros. The fused op guards both (fused_layer_norm.py).

    x: (..., D), a tensor or an array   weight, bias: (D,) or None (no scale, no shift)
    ->   y: (..., D) (float64 for integer x, as `mean` gives)
    Backward needs nothing special: every op here has its own.
    """
    x = x if isinstance(x, Tensor) else Tensor(x)   # an array: the methods below are Tensor's
    mu = x.mean(axis=-1, keepdims=True)             # mean                  (..., 1)
    centred = x - mu                                # subtract              (..., D)
    squares = centred ** 2                          # square                (..., D)
    var = squares.mean(axis=-1, keepdims=True)      # mean                  (..., 1)
    sigma = (var + eps).sqrt()                      # add eps, sqrt         (..., 1)
    xhat = centred / sigma                          # divide                (..., D)
    y = xhat if weight is None else xhat * weight   # scale                 (..., D)
    return y if bias is None else y + bias          # shift                 (..., D)


class LayerNorm(Module):
    """y = (x - mean(x)) / sqrt(var(x) + eps) * weight + bias, over the last axis.

    normalized_shape: D, an int or a 1-tuple (D,) (this LayerNorm normalises the last axis
    only; PyTorch's also takes several trailing axes).
    x: (..., D)  ->  y: (..., D)        weight: (D,) ones    bias: (D,) zeros
    elementwise_affine=False: no weight and no bias; bias=False: a weight and no bias (as in
    PyTorch). `fused=True` runs the normalisation as one op with a hand-written backward
    (`minigrad.nn.fused_layer_norm`): the same numbers, fewer nodes, faster.
    """

    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, bias=True,
                 fused=False):
        shape = normalized_shape
        if isinstance(shape, (tuple, list)):
            if len(shape) != 1:
                raise ValueError(f"LayerNorm: normalized_shape {tuple(shape)} has "
                                 f"{len(shape)} axes; this LayerNorm normalises the last axis "
                                 "only: give one size, D or (D,)")
            shape = shape[0]
        check_sizes("LayerNorm", normalized_shape=shape)
        check_number("eps", eps, low=0, where="LayerNorm")
        self.normalized_shape, self.eps = (int(shape),), eps
        self.elementwise_affine, self.fused = elementwise_affine, fused
        self.weight = self.bias = None
        if elementwise_affine:
            self.weight = Parameter(np.ones(shape, dtype=np.float32))
            self.bias = Parameter(np.zeros(shape, dtype=np.float32)) if bias else None

    def reset_parameters(self):
        if self.weight is not None:
            self.weight.data = np.ones_like(self.weight.data)
        if self.bias is not None:
            self.bias.data = np.zeros_like(self.bias.data)

    def forward(self, x):
        D = self.normalized_shape[0]
        if np.ndim(x.data if isinstance(x, Tensor) else x) < 1 or x.shape[-1] != D:
            raise ValueError(f"LayerNorm: expected inputs of shape (..., {D}), got {x.shape}")
        if self.weight is not None:
            check_dtype(self, x, self.weight)
        if not self.fused:
            return layer_norm(x, self.weight, self.bias, self.eps)           # (..., D)
        dtype = (x.data if isinstance(x, Tensor) else np.asarray(x)).dtype
        if dtype.kind in "biu":                 # integers: float64 results, as composed gives
            dtype = np.dtype(np.float64)
        weight = self.weight if self.weight is not None else Tensor(np.ones(D, dtype=dtype))
        bias = self.bias if self.bias is not None else Tensor(np.zeros(D, dtype=dtype))
        return fused_layer_norm(x, weight, bias, self.eps)                   # (..., D)

    def extra_repr(self):
        settings = f"{self.normalized_shape}, eps={self.eps}"
        if not self.elementwise_affine:
            settings += ", elementwise_affine=False"
        elif self.bias is None:
            settings += ", bias=False"
        return settings + (", fused=True" if self.fused else "")
