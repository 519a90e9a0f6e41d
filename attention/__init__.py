"""Softmax and attention built on minigrad, from first principles.

    from attention import dot_product_attention
    context, weights = dot_product_attention(query, keys, values)

softmax      softmax from primitive ops (subtract the max, exp, sum, divide)
functional   dot_product_attention, hard_attention, self_attention, attend, one_hot_argmax
modules      DotProductAttention, ScaledDotProductAttention, GeneralAttention,
             AdditiveAttention, MultiHeadAttention, UniformAttention (a baseline)
masks        causal_mask, padding_mask (boolean, True = may attend)
positions    SinusoidalPositions, LearnedPositions (added to a (B, T, d) input)
cache        KeyValueCache, the keys and values of earlier steps (decoding one step at a time)
blocks       EncoderBlock, DecoderBlock: the Transformer's layers, pre-norm or post-norm
to_torch     a block copied into torch.nn.TransformerEncoderLayer / TransformerDecoderLayer
demo         `python -m attention demo`: why the soft mixture trains and the hard choice cannot
"""

from minigrad import __version__  # one version for the three packages
from attention.blocks import DecoderBlock, EncoderBlock
from attention.cache import KeyValueCache
from attention.functional import (
    attend,
    dot_product_attention,
    hard_attention,
    one_hot_argmax,
    self_attention,
)
from attention.masks import causal_mask, padding_mask
from attention.modules import (
    AdditiveAttention,
    DotProductAttention,
    GeneralAttention,
    MultiHeadAttention,
    ScaledDotProductAttention,
    UniformAttention,
    show_heads,
)
from attention.positions import LearnedPositions, SinusoidalPositions
from attention.softmax import softmax

__all__ = ["__version__", "softmax", "dot_product_attention", "attend", "hard_attention",
           "one_hot_argmax", "self_attention", "DotProductAttention", "ScaledDotProductAttention",
           "GeneralAttention", "AdditiveAttention", "MultiHeadAttention", "UniformAttention",
           "causal_mask", "padding_mask", "SinusoidalPositions", "LearnedPositions",
           "KeyValueCache", "EncoderBlock", "DecoderBlock", "show_heads"]
