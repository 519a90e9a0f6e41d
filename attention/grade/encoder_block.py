"""The encoder-block exercise: the inputs it is checked on, and what its diagnosis says beyond
"the output is wrong".

A student's block is compared, when its output is wrong, through its local variables named as
the formulas name them (docs/coursework.md):

    pre-norm (norm_first=True)            post-norm (norm_first=False)
    attn = SelfAttention(norm1(x))        attn = SelfAttention(x)
    h    = x + attn                       h    = norm1(x + attn)
    ff   = FeedForward(norm2(h))          ff   = FeedForward(h)
    y    = h + ff                         y    = norm2(h + ff)

The generic diagnosis (minigrad.grade.diagnose) names the first of attn, h and ff that differs
from the reference's. Two mistakes are common enough to be named for what they are, from the
student's own values and the case's inputs, before that: a residual left out (h, or y, is the
sublayer's output alone, normalised for post-norm) and the layer norm in the other order's
place (the case asks for pre-norm and h is norm1(x + attn), or post-norm and h is x + attn; the
same for y). These checks run in the grader's process, on arrays: the layer norm below is
NumPy's, for comparing, not a solution (it has no gradient).
"""

import numpy as np

from minigrad.grade.grader import Case
from minigrad.messages import message as minigrad_message
from attention.messages import Phrase, message

INTERMEDIATES = (("attn", Phrase("block.attn")), ("h", Phrase("block.h")),
                 ("ff", Phrase("block.ff")))

WEIGHTS = ("in_proj_weight", "in_proj_bias", "out_proj_weight", "out_proj_bias",
           "linear1_weight", "linear1_bias", "linear2_weight", "linear2_bias",
           "norm1_weight", "norm1_bias", "norm2_weight", "norm2_bias")


def encoder_block_cases():
    """E = 4 features (6 for one head), F = 8 hidden units of the feed-forward network."""
    cases = []
    for label, (batch, length, embed, hidden, heads), settings in (
            ("case.pre_norm", (2, 3, 4, 8, 2), {}),
            ("case.post_norm", (2, 3, 4, 8, 2), {"norm_first": False}),
            ("case.padded_start", (2, 4, 4, 8, 2),
             {"mask": True}),
            ("case.one_head_post_norm", (1, 3, 6, 8, 1), {"norm_first": False})):
        rng = np.random.default_rng(len(cases) + 60)
        settings = {"num_heads": heads, **settings}
        if settings.get("mask") is True:
            mask = np.ones((batch, 1, length), dtype=bool)                  # (B, 1, T)
            mask[0, 0, :2] = False                                          # padded on the left
            settings["mask"] = mask
        E, F = embed, hidden
        shapes = {"in_proj_weight": (3 * E, E), "in_proj_bias": (3 * E,),
                  "out_proj_weight": (E, E), "out_proj_bias": (E,),
                  "linear1_weight": (F, E), "linear1_bias": (F,),
                  "linear2_weight": (E, F), "linear2_bias": (E,)}
        arrays = {"x": rng.standard_normal((batch, length, E))}              # (B, T, E)
        arrays.update({name: (0.6 if name.endswith("weight") else 0.2)
                       * rng.standard_normal(shape) for name, shape in shapes.items()})
        for norm in ("norm1", "norm2"):
            arrays[f"{norm}_weight"] = 1 + 0.3 * rng.standard_normal(E)
            arrays[f"{norm}_bias"] = 0.2 * rng.standard_normal(E)
        cases.append(Case(message(label), arrays, settings))
    return cases


def explain(case, outputs, kept, output_line):
    """Lines naming a residual left out or a layer norm in the wrong place, or [] (then the
    generic diagnosis speaks). `outputs`: the student's output arrays; `kept`: {name: (array,
    the line that made it)} of their attn, h and ff; `output_line`: the line that made y."""
    values = {name: value for name, (value, _) in kept.items()}
    lines = {name: line for name, (_, line) in kept.items()}
    if "h" not in values:
        return []
    pre = case.settings.get("norm_first", True)
    #        sublayer, its input, the norm, what the result is, and the line that made it
    for sub, start, norm, result, line in (("attn", "x", "norm1", "h", lines.get("h")),
                                           ("ff", "h", "norm2", "y", output_line)):
        if sub not in values:
            continue
        given = case.arrays["x"] if start == "x" else values["h"]
        got = values["h"] if result == "h" else outputs[0]
        weight, bias = case.arrays[f"{norm}_weight"], case.arrays[f"{norm}_bias"]
        sublayer = values[sub]
        where = (minigrad_message("diagnose.check_line", line=line)      # not the sublayer's
                 if line and line != lines.get(sub)                      # own (h = attn)
                 else minigrad_message("diagnose.check_maker", name=result))
        right = f"{result} = {start} + {sub}" if pre else f"{result} = {norm}({start} + {sub})"
        alone = sublayer if pre else _layer_norm(sublayer, weight, bias)
        if _close(got, alone):
            shown = sub if pre else f"{norm}({sub})"
            return [message("block.no_residual", result=result, shown=shown, start=start,
                            right=right), where]
        other = _layer_norm(given + sublayer, weight, bias) if pre else given + sublayer
        if _close(got, other):
            shown = f"{norm}({start} + {sub})" if pre else f"{start} + {sub}"
            source = f"{norm}({start})" if pre else message("block.itself", start=start)
            return [message("block.wrong_norm", result=result, shown=shown,
                            other="post" if pre else "pre", this="pre" if pre else "post",
                            pre=pre, right=right, sub=sub, source=source), where]
    return []


def _layer_norm(v, weight, bias, eps=1e-5):
    centred = v - v.mean(axis=-1, keepdims=True)
    return centred / np.sqrt((centred ** 2).mean(axis=-1, keepdims=True) + eps) * weight + bias


def _close(got, want):
    return got.shape == want.shape and np.allclose(got, want, rtol=1e-6, atol=1e-8)
