"""Positional encodings: telling attention where each token stands.

Self-attention alone does not know the order of its inputs. Every position is scored against
every other by the same function of their contents, so shuffling the tokens shuffles the outputs
the same way and changes nothing else (it is permutation-equivariant): "dog bites man" and "man
bites dog" give the same three vectors, in another order. Adding to each token a vector that
depends on its position, before the first block, breaks that symmetry.

    SinusoidalPositions(d_model)   fixed waves of many wavelengths (Vaswani et al., 2017), any
                                   position up to max_len; nothing to learn
    LearnedPositions(max_len, d_model)   one learned vector per position (an Embedding over
                                   positions 0 ... max_len - 1, as BERT and GPT-2 do)

Both are modules called on x (B, T, d_model) -> x + P[start : start + T], P (max_len, d_model).
`start` is the position of x's first token: 0 for a whole sequence, t when decoding step t alone.
The sum is recorded in a scope "positions" (a drawing can fold it).
(The paper also multiplies the token embeddings by sqrt(d_model) before adding the positions;
that belongs to the embedding, not here.)
"""

import numpy as np

from minigrad import Tensor, scope
from minigrad.nn import Embedding, Module
from minigrad.nn.module import check_dtype, check_sizes
from minigrad.settings import check_number


class SinusoidalPositions(Module):
    """x + PE[start : start + T], with (Vaswani et al., 2017, section 3.5)

        PE[pos, 2i]     = sin(pos / 10000^(2i / d_model))
        PE[pos, 2i + 1] = cos(pos / 10000^(2i / d_model))

    Each pair of features (2i, 2i + 1) is a point going round a circle as pos grows, with a
    wavelength from 2 pi (i = 0) to 10000 * 2 pi: nearby positions get similar vectors, and
    PE[pos + k] is a fixed rotation of PE[pos] for every pos, which makes "k tokens back" easy to
    express with a linear map. No parameters: the table `pe` (max_len, d_model) is a plain array,
    computed once (in float64; added in the input's dtype, float64 for integers). Nothing flows
    back into it.

    x: (..., T, d_model) tensor  ->  (..., T, d_model)
    """

    def __init__(self, d_model, max_len=5000):
        check_sizes("SinusoidalPositions", d_model=d_model, max_len=max_len)
        self.d_model, self.max_len = d_model, max_len
        self.pe = sinusoids(max_len, d_model)                          # (max_len, d_model)

    def forward(self, x, start=0):
        table = _rows(self, self.pe, x, start)                         # (T, d_model)
        dtype = x.dtype if np.dtype(x.dtype).kind == "f" else np.float64   # integers: float64,
        with scope("positions"):                                        # as as_floating gives
            return x + Tensor(table.astype(dtype), name="positions")   # (..., T, d_model)

    def extra_repr(self):
        return f"d_model={self.d_model}, max_len={self.max_len}"


def sinusoids(num_positions, d_model):
    """The table PE (num_positions, d_model) of `SinusoidalPositions`, in float64.
    An odd d_model has one sine more than cosines (the last feature is a sine)."""
    positions = np.arange(num_positions, dtype=np.float64)[:, None]   # (P, 1)
    two_i = np.arange(0, d_model, 2, dtype=np.float64)                 # (ceil(d/2),) = 2i
    angles = positions / 10000.0 ** (two_i / d_model)                  # (P, ceil(d/2))
    table = np.empty((num_positions, d_model))                         # ours: filling it is safe
    table[:, 0::2] = np.sin(angles)                                    # even features
    table[:, 1::2] = np.cos(angles[:, :d_model // 2])                  # odd features
    return table


class LearnedPositions(Module):
    """x + embedding.weight[start : start + T]: one learned vector per position, trained with
    the rest of the model. It cannot go past max_len (there is no vector for position max_len),
    where the sinusoids go on for ever; in practice both do about as well (Vaswani et al., 2017,
    table 3, row E).

    embedding: Embedding(max_len, d_model), weight ~ N(0, 1) as every Embedding.
    x: (..., T, d_model) tensor  ->  (..., T, d_model)
    """

    def __init__(self, max_len, d_model):
        check_sizes("LearnedPositions", max_len=max_len, d_model=d_model)
        self.max_len, self.d_model = max_len, d_model
        self.embedding = Embedding(max_len, d_model)

    def forward(self, x, start=0):
        _rows(self, self.embedding.weight.data, x, start)              # checks only
        check_dtype(self, x, self.embedding.weight)                    # no silent float64
        positions = np.arange(start, start + x.shape[-2])              # (T,)
        with scope("positions"):
            return x + self.embedding(positions)                       # (..., T, d_model)

    def extra_repr(self):
        return f"max_len={self.max_len}, d_model={self.d_model}"


def _rows(module, table, x, start):
    """The rows start ... start + T - 1 of `table` (max_len, d_model) for x (..., T, d_model),
    after checking that they exist and that x's features are d_model."""
    name = type(module).__name__
    check_number("start", start, low=0, integer=True, where=name)
    if x.ndim < 2 or x.shape[-1] != module.d_model:
        raise ValueError(f"{name}: expected inputs of shape (..., T, {module.d_model}), "
                         f"got {x.shape}")
    end = start + x.shape[-2]
    if end > module.max_len:
        raise ValueError(f"{name}: positions {start} ... {end - 1} go beyond max_len "
                         f"{module.max_len} (positions 0 ... {module.max_len - 1}); make the "
                         f"module with a larger max_len")
    return table[start:end]
