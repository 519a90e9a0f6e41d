"""Linear, Embedding and Dropout, with PyTorch's parameter names, shapes and initialisation, so
that a state dict copies into the same PyTorch layer as it is; and the activations ReLU and GELU
as layers, for Sequential."""

import math

import numpy as np

import minigrad.functional as F
from minigrad.nn import init
from minigrad.nn.module import Module, Parameter, check_dtype, check_sizes


class Linear(Module):
    """y = x @ weight^T + bias

    x: (..., in_features)  ->  y: (..., out_features)
    weight: (out_features, in_features)   bias: (out_features,)

    Both start uniform in [-1/sqrt(in_features), 1/sqrt(in_features)), as in PyTorch (whose
    kaiming_uniform_ with a=sqrt(5) comes to that same bound for the weight).
    """

    def __init__(self, in_features, out_features, bias=True):
        check_sizes("Linear", in_features=in_features, out_features=out_features)
        self.in_features, self.out_features = in_features, out_features
        self.weight = Parameter(np.empty((out_features, in_features), dtype=np.float32))
        self.bias = Parameter(np.empty(out_features, dtype=np.float32)) if bias else None
        self.reset_parameters()

    def reset_parameters(self):
        bound = 1 / math.sqrt(self.in_features)
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, x):
        check_dtype(self, x, self.weight)
        if x.shape[-1:] != (self.in_features,):
            raise ValueError(f"Linear: expected inputs of shape (..., {self.in_features}), "
                             f"got {x.shape}")
        y = x @ self.weight.T               # (..., out): one matrix product of x's rows (MatMul)
        if self.bias is not None:
            y = y + self.bias
        return y

    def extra_repr(self):
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")


class Embedding(Module):
    """y = weight[ids]: one learned vector per id.

    ids: (...) integers in [0, num_embeddings), a NumPy array or an integer tensor
    ->  y: (..., embedding_dim)          weight: (num_embeddings, embedding_dim) ~ N(0, 1)

    The row `padding_idx` (if given) starts at zero and never gets a gradient, so padding stays
    a vector of zeros.
    """

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None):
        check_sizes("Embedding", num_embeddings=num_embeddings, embedding_dim=embedding_dim)
        if padding_idx is not None:
            if not -num_embeddings <= padding_idx < num_embeddings:
                raise ValueError(f"Embedding: padding_idx {padding_idx} is out of range for "
                                 f"{num_embeddings} embeddings")
            padding_idx %= num_embeddings                   # -1 means the last row
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        self.padding_idx = padding_idx
        self.weight = Parameter(np.empty((num_embeddings, embedding_dim), dtype=np.float32))
        self.reset_parameters()

    def reset_parameters(self):
        init.normal_(self.weight, 0.0, 1.0)
        if self.padding_idx is not None:
            self.weight.data[self.padding_idx] = 0

    def forward(self, ids):
        return F.embedding(self.weight, ids, self.padding_idx)      # (..., E)

    def extra_repr(self):
        pad = "" if self.padding_idx is None else f", padding_idx={self.padding_idx}"
        return f"{self.num_embeddings}, {self.embedding_dim}{pad}"


class Dropout(Module):
    """While training, zero each element with probability p and scale the rest by 1/(1-p), so
    the expected value is unchanged; after `eval()`, pass the input through untouched."""

    def __init__(self, p=0.5):
        if not 0 <= p < 1:
            raise ValueError(f"Dropout: p must be in [0, 1), not {p}")
        self.p = p

    def forward(self, x):
        return F.dropout(x, self.p, self.training)

    def extra_repr(self):
        return f"p={self.p}"


class ReLU(Module):
    """y = max(x, 0), elementwise, as a layer (for Sequential): `F.relu` inside."""

    def forward(self, x):
        return F.relu(x)


class GELU(Module):
    """y = x * Phi(x), elementwise, as a layer: `F.gelu` inside (its docstring has the formula
    and the derivative). approximate="none" (exact, with erf; PyTorch's default) or "tanh"."""

    def __init__(self, approximate="none"):
        if approximate not in ("none", "tanh"):
            raise ValueError(f"GELU: approximate must be 'none' or 'tanh', not {approximate!r}")
        self.approximate = approximate

    def forward(self, x):
        return F.gelu(x, self.approximate)

    def extra_repr(self):
        return "" if self.approximate == "none" else f"approximate={self.approximate!r}"
