"""Masks for attention: boolean arrays, True = may attend, False = may not.

A mask is not a tensor of the graph: it says which scores are kept. `dot_product_attention`
puts -inf where it is False (exp(-inf) = 0, so those candidates get weight exactly 0, and a query
with nothing to attend gets weights 0, not NaN). Not a large negative number such as -1e9: with
one, a query whose keys are all masked would spread its weight evenly over the masked keys.

    causal_mask(T)            (T, T)     query t may attend keys 0 ... t (the lower triangle)
    padding_mask(lengths)     (B, 1, T)  example b's keys 0 ... lengths[b] - 1 are real
    padding_mask(ids, pad_id) (B, 1, T)  the keys whose id is not pad_id are real

They combine with `&`, broadcasting as NumPy does: a decoder's self-attention over padded targets
is `causal_mask(T) & padding_mask(ids, pad_id)`, of shape (B, T, T).
PyTorch's boolean masks mean the opposite (True = may NOT attend): pass `~mask` to PyTorch.
"""

import numpy as np

from minigrad.settings import check_number


def causal_mask(num_queries, num_keys=None):
    """(num_queries, num_keys) boolean, True on and below the diagonal: query t may attend the
    keys up to and including its own position, never a later one (a decoder must not read the
    words it is about to predict).

    num_keys (default num_queries): more keys than queries are earlier steps kept from before
    (incremental decoding), so the queries are the last num_queries positions: query i stands at
    position i + (num_keys - num_queries) and attends keys 0 ... that position.

        causal_mask(3)            causal_mask(2, 4)
        [[ True, False, False],   [[ True,  True,  True, False],
         [ True,  True, False],    [ True,  True,  True,  True]]
         [ True,  True,  True]]
    """
    check_number("num_queries", num_queries, low=1, integer=True, where="causal_mask")
    num_keys = num_queries if num_keys is None else num_keys
    check_number("num_keys", num_keys, low=num_queries, integer=True, where="causal_mask",
                 why="the queries are the last positions of the keys' sequence")
    past = num_keys - num_queries
    return np.tri(num_queries, num_keys, k=past, dtype=bool)           # (Tq, Tk)


def padding_mask(lengths_or_ids, pad_id=None, length=None):
    """(B, 1, T) boolean, False at padding: a mask over the keys, the same for every query
    (the 1 broadcasts over the queries' axis).

    lengths_or_ids  lengths (B,) of sequences padded at the end: example b is real at positions
                    0 ... lengths[b] - 1 of T = `length` (default: the longest length); or
                    ids (B, T) with pad_id: real wherever ids != pad_id (padding on either side).
    """
    array = np.asarray(getattr(lengths_or_ids, "data", lengths_or_ids))
    if array.dtype.kind not in "iu":
        raise TypeError(f"padding_mask: expected integer lengths (B,) or ids (B, T), "
                        f"got dtype {array.dtype}")
    if array.ndim == 2:
        if pad_id is None:
            raise ValueError(f"padding_mask: ids of shape {array.shape} need pad_id, the id "
                             "that marks padding (lengths are one number per example, shape (B,))")
        if length is not None:
            raise ValueError("padding_mask: length applies to lengths, not to ids (B, T), "
                             "whose T is already given")
        return (array != pad_id)[:, None, :]                           # (B, 1, T)
    if array.ndim != 1:
        raise ValueError(f"padding_mask: expected lengths (B,) or ids (B, T), got shape "
                         f"{array.shape}")
    if pad_id is not None:
        raise ValueError("padding_mask: pad_id applies to ids (B, T), not to lengths (B,)")
    if array.size and array.min() < 0:
        raise ValueError(f"padding_mask: lengths must be >= 0, got {array.min()}")
    longest = int(array.max()) if array.size else 0
    length = longest if length is None else length
    check_number("length", length, low=longest, integer=True, where="padding_mask",
                 why="no sequence is longer than the padded length")
    return (np.arange(length) < array[:, None])[:, None, :]           # (B, 1, T)


def checked_mask(mask, shape, where, what="scores"):
    """The mask (an array, a Tensor or nested lists of booleans) as a boolean array, after
    checking that it is boolean and broadcasts to `shape`, the (..., m queries, n keys) it masks:
    a float or int mask, or one of another length, is refused in one line naming `where` and the
    shape as it was passed, before NumPy would say the same in its own words (or broadcast it)."""
    mask = np.asarray(getattr(mask, "data", mask))
    if mask.dtype != bool:
        raise TypeError(f"{where}: mask must be boolean (True = may attend), not {mask.dtype}")
    try:
        fits = np.broadcast_shapes(mask.shape, tuple(shape)) == tuple(shape)
    except ValueError:                  # NumPy's own message names neither the mask nor us
        fits = False
    if not fits:
        raise ValueError(f"{where}: a mask of shape {mask.shape} does not broadcast to the "
                         f"{what}' shape {tuple(shape)} (..., m queries, n keys): its last axis "
                         f"must be n = {shape[-1]} or 1, and each axis before it match the "
                         f"{what}' or be 1 (a padding mask over the keys: (batch, 1, n))")
    return mask
