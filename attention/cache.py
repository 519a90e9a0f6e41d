"""KeyValueCache: the keys and values of the steps decoded so far, kept for the next step.

A decoder generates one token at a time, and its causal self-attention lets step t attend steps
0 ... t. Run naively, step t runs the whole prefix again: t + 1 queries, when only the last one is
new, and the keys and values of steps 0 ... t - 1 computed once more, the same as before (the
causal mask keeps later steps from changing them). So keep them: each step projects its own key
and value, appends them here, and attends over everything kept, with one query.

    cache = KeyValueCache()
    for t in range(T):
        out_t, _ = attention(x_t, x_t, x_t, cache=cache)     # x_t (B, 1, E); out_t (B, 1, E)

gives the rows of attention(x, x, x, mask=causal_mask(T)), step by step, to round-off. The
kept keys and values are tensors of the graph, so a loss on the outputs still reaches every step.
"""

import minigrad.functional as F


class KeyValueCache:
    """keys, values: (..., H, t, Dh) after t steps (None before the first), as the
    multi-head attention's heads see them (after the input projections)."""

    def __init__(self):
        self.keys = self.values = None

    def __len__(self):
        """How many steps are kept."""
        return 0 if self.keys is None else self.keys.shape[-2]

    def extend(self, keys, values):
        """Append the new steps' keys and values (..., H, Tnew, Dh) after the kept ones, and
        return all of them: (..., H, t + Tnew, Dh) each, the earlier steps first."""
        if self.keys is not None and keys.shape[:-2] != self.keys.shape[:-2]:
            raise ValueError(f"KeyValueCache: new keys {keys.shape} do not continue the kept "
                             f"ones {self.keys.shape}: all but the steps' axis (-2) must match")
        if self.keys is not None and (keys.dtype, values.dtype) != (self.keys.dtype,
                                                                    self.values.dtype):
            raise TypeError(f"KeyValueCache: new keys and values are {keys.dtype} and "
                            f"{values.dtype}, the kept ones {self.keys.dtype} and "
                            f"{self.values.dtype}: continue a cache in the dtype it started in")
        if self.keys is None:
            self.keys, self.values = keys, values
        else:
            self.keys = F.concat([self.keys, keys], axis=-2)               # (..., H, t+Tnew, Dh)
            self.values = F.concat([self.values, values], axis=-2)         # (..., H, t+Tnew, Dh)
        return self.keys, self.values

    def __repr__(self):
        shape = None if self.keys is None else self.keys.shape
        return f"KeyValueCache(steps={len(self)}, keys={shape})"
