"""Softmax and attention built on minigrad, from first principles.

    from attention import dot_product_attention
    context, weights = dot_product_attention(query, keys, values)

softmax          softmax from primitive ops (max, subtract, exp, sum, divide)
functional       dot_product_attention, hard_attention, self_attention, attend
"""

from attention.softmax import softmax
from attention.functional import (attend, dot_product_attention, hard_attention, one_hot_argmax,
                                  self_attention)

__all__ = ["softmax", "dot_product_attention", "attend", "hard_attention", "one_hot_argmax",
           "self_attention"]
