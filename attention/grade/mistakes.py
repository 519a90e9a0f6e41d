"""The classic mistakes of the Transformer exercises, as small NumPy functions, and the diagnosis
that names the one a wrong solution made.

When an output of `positional_encoding` or `causal_attention` is wrong, the grader (in its own
process, never the graded code's) computes what each known mistake gives on the same case and
compares the solution's outputs with it, to the grader's tolerances: the first that agrees is
named in one line. A mistake's NaN stands for "anything": masking the diagonal leaves the first
query nothing to attend, which one softmax turns into NaN and another into zeros.

Positional encoding (Vaswani et al., 2017, section 3.5; attention/positions.py):

    PE[pos, 2i] = sin(pos / 10000^(2i / d))       PE[pos, 2i + 1] = cos(pos / 10000^(2i / d))

mistaken as: sin and cos swapped; [sin ..., cos ...] in two halves instead of interleaved; the
exponent i/d, or each feature's own index j/d; pos multiplied by the power; (pos / 10000) to the
power; positions counted from 1; and any other base than 10000, which the diagnosis reads off
the solution's pair i = 1 at position 1 (atan2 of its sine and cosine).

Causal self-attention, softmax(q k^T / sqrt(d)) with key j > query t masked (-inf), mistaken as:
the mask transposed, the diagonal masked too, no mask, no 1/sqrt(d), 1/sqrt of the values' width
(where it differs from the keys'), and -1e4 in place of -inf,
written into the scores or added to them (on the case whose scores reach 2e4, where numbers
near -1e4 give the same weights: from -11000 to -2600 written in, -23200 to -6300 added). With
no mistake named, weight on a later key still says that the future leaks.

The graded code's process may not run this module (it is among both exercises' answers).
"""

import numpy as np

from attention.messages import message

ATOL, RTOL = 1e-8, 1e-6                 # the grader's tolerances (grader.function_exercise)


def agrees(got, mistake):
    """Whether `got` is `mistake` to the tolerances, where the mistake is not NaN."""
    got, mistake = np.asarray(got, np.float64), np.asarray(mistake, np.float64)
    if got.shape != mistake.shape:
        return False
    known = ~np.isnan(mistake)
    with np.errstate(invalid="ignore"):
        close = np.abs(got - mistake) <= ATOL + RTOL * np.abs(mistake)
    return bool(np.all(close[known] | (got[known] == mistake[known])))


# ---- positional encoding: tables (T, d) -----------------------------------------------------

def _interleaved(sines, cosines, d_model):
    """sines (T, ceil(d/2)) in the even features, cosines in the odd ones -> (T, d)."""
    table = np.empty((sines.shape[0], d_model))                 # a new array: ours to fill
    table[:, 0::2] = sines
    table[:, 1::2] = cosines[:, :d_model // 2]
    return table


def _angles(length, d_model, base, first=0):
    """pos / base^(2i/d) for pos = first ... first + T - 1 -> (T, ceil(d/2))."""
    positions = np.arange(first, first + length, dtype=np.float64)[:, None]     # (T, 1)
    two_i = np.arange(0, d_model, 2, dtype=np.float64)                          # (ceil(d/2),)
    return positions / base ** (two_i / d_model)


def swapped(length, d_model):
    angles = _angles(length, d_model, 10000.0)
    return _interleaved(np.cos(angles), np.sin(angles), d_model)


def halves(length, d_model):
    angles = _angles(length, d_model, 10000.0)
    return np.concatenate([np.sin(angles), np.cos(angles)[:, :d_model // 2]], axis=1)


def exponent_i(length, d_model):
    positions = np.arange(length, dtype=np.float64)[:, None]                    # (T, 1)
    i = np.arange((d_model + 1) // 2, dtype=np.float64)                         # the pair index
    angles = positions / 10000.0 ** (i / d_model)
    return _interleaved(np.sin(angles), np.cos(angles), d_model)


def exponent_j(length, d_model):
    positions = np.arange(length, dtype=np.float64)[:, None]                    # (T, 1)
    j = np.arange(d_model)                                                      # the feature
    angles = positions / 10000.0 ** (j / d_model)                               # (T, d)
    return np.where(j % 2 == 0, np.sin(angles), np.cos(angles))


def multiplied(length, d_model):
    positions = np.arange(length, dtype=np.float64)[:, None]
    angles = positions * 10000.0 ** (np.arange(0, d_model, 2) / d_model)
    return _interleaved(np.sin(angles), np.cos(angles), d_model)


def power_of_ratio(length, d_model):
    positions = np.arange(length, dtype=np.float64)[:, None]
    angles = (positions / 10000.0) ** (np.arange(0, d_model, 2) / d_model)
    return _interleaved(np.sin(angles), np.cos(angles), d_model)


def from_one(length, d_model):
    angles = _angles(length, d_model, 10000.0, first=1)
    return _interleaved(np.sin(angles), np.cos(angles), d_model)


def with_base(length, d_model, base):
    angles = _angles(length, d_model, base)
    return _interleaved(np.sin(angles), np.cos(angles), d_model)


# each mistake's table, and the key of its text in the catalogue (attention/messages)
TABLES = ((swapped, "mistake.swapped"), (halves, "mistake.halves"),
          (exponent_i, "mistake.exponent_i"), (exponent_j, "mistake.exponent_j"),
          (multiplied, "mistake.multiplied"), (power_of_ratio, "mistake.power_of_ratio"),
          (from_one, "mistake.from_one"))


def positions_mistake(case, outputs):
    """The known mistake that add_positions's output matches on `case`, as lines ([]: none)."""
    x = np.asarray(case.arrays["x"])
    if np.shape(outputs[0]) != x.shape:
        return []
    length, d_model = x.shape[-2:]
    table = (np.asarray(outputs[0], np.float64) - x).reshape(-1, length, d_model)  # (B, T, d)
    for mistake, key in TABLES:
        if agrees(table, np.broadcast_to(mistake(length, d_model), table.shape)):
            return [message("mistake.known", text=message(key))]
    if length >= 2 and d_model >= 4:                # pair i = 1 at pos 1: sin(w), cos(w)
        step = np.arctan2(table[0, 1, 2], table[0, 1, 3])    # w = 1 / base^(2/d)
        with np.errstate(over="ignore"):
            base = step ** (-d_model / 2) if 0 < step < np.pi else np.inf
        if np.isfinite(base) and not np.isclose(base, 10000.0) and agrees(
                table, np.broadcast_to(with_base(length, d_model, base), table.shape)):
            return [message("mistake.known", text=message("mistake.base", base=base))]
    return []


# ---- causal attention: (context, weights) ---------------------------------------------------

def _attend(scores, allowed, values, fill=-np.inf, add=False):
    """softmax of `scores` with `fill` where `allowed` is False (written in, or added), then the
    mix of the values; a row with nothing allowed is NaN (anything)."""
    if add:
        scores = scores + np.where(allowed, 0.0, fill)
    else:
        scores = np.where(allowed, scores, fill)
    with np.errstate(invalid="ignore"):
        exp = np.exp(scores - scores.max(axis=-1, keepdims=True))   # all -inf: NaN
        weights = exp / exp.sum(axis=-1, keepdims=True)             # (B, T, T)
    return weights @ values, weights


def _scores(case, scaled=True, width=None):
    """q k^T / sqrt(width), the keys' width unless another is given; unscaled if not scaled."""
    query, keys = case.arrays["query"], case.arrays["keys"]
    scores = query @ np.swapaxes(keys, -1, -2)                      # (B, T, T)
    width = keys.shape[-1] if width is None else width
    return scores / np.sqrt(width) if scaled else scores


def causal_mistakes(case):
    """[(text, (context, weights))]: what each known mistake gives on `case`."""
    values = case.arrays["values"]
    length = values.shape[-2]
    below = np.tri(length, dtype=bool)                              # key j <= query t
    scores = _scores(case)
    peak = float(np.abs(scores).max())

    def leak(how):
        return message("mistake.leak", how=message(how), peak=peak)

    d, dv = case.arrays["keys"].shape[-1], values.shape[-1]
    return [
        (message("mistake.transposed"), _attend(scores, below.T, values)),
        (message("mistake.diagonal"), _attend(scores, np.tri(length, k=-1, dtype=bool), values)),
        (message("mistake.no_mask"), _attend(scores, np.ones_like(below), values)),
        (message("mistake.unscaled", d=d), _attend(_scores(case, scaled=False), below, values)),
        (message("mistake.values_width", dv=dv, d=d),
         _attend(_scores(case, width=dv), below, values)),
        (leak("mistake.written"), _attend(scores, below, values, fill=-1e4)),
        (leak("mistake.added"), _attend(scores, below, values, fill=-1e4, add=True)),
    ]


def causal_mistake(case, outputs):
    """The known mistake that causal_attention's outputs match on `case`, as lines ([]: none);
    failing that, the later key that got weight, if one did."""
    for text, mistake in causal_mistakes(case):
        if all(agrees(got, want) for got, want in zip(outputs, mistake)):
            return [message("mistake.known", text=text)]
    weights = np.asarray(outputs[1], np.float64)
    length = case.arrays["values"].shape[-2]
    if weights.shape[-2:] == (length, length):
        later = np.where(np.tri(length, dtype=bool), 0.0, np.nan_to_num(np.abs(weights)))
        if np.any(later != 0):
            k = tuple(int(i) for i in np.unravel_index(np.argmax(later), later.shape))
            return [message("mistake.later_key", query=k[-2], weight=weights[k], key=k[-1],
                            element=k)]
    return []
