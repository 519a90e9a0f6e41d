"""`python -m attention explore --self` and `--block`: self-attention, and a whole Transformer
block, as pages that step through their backward pass op by op (minigrad.viz.explore).

    python -m attention explore --self --heads 2 --out self-attention.html
    python -m attention explore --self --causal --predict --out causal.html
    python -m attention explore --block --causal --predict --out block.html
    python -m attention explore --block --composed --predict --out composed.html

The sequence is small and seeded: 4 positions of d_model = 8 numbers, float64, with random
weights (biases and the layer norms' weight and bias too), so that no gradient is a plain copy
of another. `--self` is one self-attention sublayer with its residual,
y = x + MultiHeadAttention(x) (x is used twice: once added, once attended over); `--block` is
a pre-norm encoder block (attention/blocks.py), its layer norms one op each, or built from
primitive ops with `--composed`. The root is a fixed random-weighted sum of the output,
sum(r * y): every element of y gets its own gradient, r. Each head runs in a scope of its own
("head 0", "head 1", ...).

In predict mode the page asks where a Transformer is learned (transformer_questions): the
input of a residual, once its whole gradient has arrived (the known mistake: the sublayer's
term alone, forgetting the direct path); an element of the scores that the causal mask leaves
out (its gradient is exactly 0; the mistake: the unmasked softmax's); each head's softmax; the
1/sqrt(d_k) scale (the mistake: dL/dy passed on unscaled); each layer norm's input (the
mistake: its mean and variance taken as constants).
"""

import numpy as np

from minigrad import Tensor
from minigrad.nn import LayerNorm
from minigrad.settings import check_number
from minigrad.viz.explorer.mistakes import constant_scale
from attention.blocks import EncoderBlock
from attention.masks import causal_mask
from attention.messages import message
from attention.modules import MultiHeadAttention, show_heads

POSITIONS, D_MODEL, HEADS = 4, 8, 2


def self_attention_step(heads=HEADS, causal=False, block=False, d_model=D_MODEL,
                        positions=POSITIONS, seed=0, composed=False):
    """(loss, model, x, residuals): one self-attention sublayer, y = x + MultiHeadAttention(x),
    or with block=True one pre-norm EncoderBlock, over x (positions, d_model), float64, every
    weight seeded at random; loss = sum(r * y) for a fixed random r. `residuals`: the tensors
    added back to their sublayer's output (each used twice). composed=True: the block's layer
    norms from primitive ops (mean, subtract, square, ...: minigrad.nn.layer_norm), a step
    each, rather than one op each."""
    for name, value in (("heads", heads), ("d_model", d_model), ("positions", positions)):
        check_number(name, value, low=1, integer=True, where="explore_self_attention")
    check_number("seed", seed, low=0, integer=True, where="explore_self_attention")
    if composed and not block:
        raise ValueError(message("explore.composed_api"))
    if d_model % heads:
        raise ValueError(message("explore.heads_api", heads=heads, d_model=d_model))
    rng = np.random.default_rng(seed)
    if block:
        model = EncoderBlock(d_model, heads, dim_feedforward=2 * d_model, dropout=0.0)
    else:
        model = MultiHeadAttention(d_model, heads)
    show_heads(model).double()
    for module in model.modules():
        if isinstance(module, LayerNorm):
            module.fused = not composed
    for name, p in model.named_parameters():    # biases too: no gradient a copy of another
        p.data = rng.standard_normal(p.shape) * (0.5 if p.ndim > 1 else 0.3)
        if name.startswith("norm") and name.endswith("weight"):
            p.data = p.data + 1.0               # a layer norm's scale: about 1
    x = Tensor(rng.standard_normal((positions, d_model)), requires_grad=True, name="x")
    mask = causal_mask(positions) if causal else None
    if block:
        y = model(x, mask)                                              # (T, d_model)
        residuals = _residual_inputs(y, x)
    else:
        output, _ = model(x, x, x, mask=mask)                           # (T, d_model)
        y = x + output                                                  # the residual
        residuals = [x]
    y.name = "y"
    _name_scores(y)
    r = Tensor(rng.standard_normal(y.shape), name="r")                  # fixed: no gradient
    loss = (y * r).sum()
    loss.name = "loss"
    return loss, model, x, residuals


def explore_self_attention(heads=HEADS, causal=False, block=False, predict=False, d_model=D_MODEL,
                           positions=POSITIONS, seed=0, composed=False, title=None, lang="en"):
    """The explorer (minigrad.viz.Explorer) of self_attention_step's backward pass; in predict
    mode it asks at the ops transformer_questions chooses. `lang`: the page's language, "en"
    or "ja"."""
    from minigrad.debug import local_names
    from minigrad.viz import explore

    with local_names() as found:                # scores, weights, context... of each head
        loss, model, x, residuals = self_attention_step(heads, causal, block, d_model,
                                                        positions, seed, composed)
    if title is None and lang == "ja":
        what = ("Pre-LN のエンコーダブロック" + ("、層正規化は基本演算で" if composed else "")
                if block else "セルフアテンションと残差接続 y = x + MultiHeadAttention(x)")
        title = (f"{what}: ヘッド {heads} 個、位置 {positions} 個、d_model {d_model}"
                 f"{'、因果マスク' if causal else ''}。sum(r * y) の逆伝播")
    elif title is None:
        what = ("A pre-norm encoder block" + (", its layer norms from primitive ops" if composed
                                              else "") if block else
                "Self-attention with its residual, y = x + MultiHeadAttention(x)")
        title = (f"{what}: {heads} head{'s' if heads > 1 else ''}, {positions} positions, "
                 f"d_model {d_model}{', causal' if causal else ''}; backward of sum(r * y)")
    at = transformer_questions(residuals) if predict else None
    return explore(loss, names=model, variables=found, predict=predict, predict_at=at,
                   title=title, lang=lang)


def transformer_questions(residuals):
    """predict_at for a Transformer's pages: a function op -> bool choosing the ops where
    Transformers are learned. A Where (the mask: an element it leaves out), the first op of
    attention.softmax (x - max: the softmax's question), a scale by a constant (1/sqrt(d_k)), a
    layer norm in one op, and the ops, other than the residual's Add (and a layer norm's
    subtraction of the mean), that use a residual's input: where its whole gradient arrives."""
    def chosen(op):
        name = type(op).__name__
        if name in ("Where", "Softmax", "FusedLayerNorm") or constant_scale(op, 0) is not None:
            return True
        if name == "Sub" and op.inputs[1].creator is None and op.inputs[1].name == "max":
            return True                         # attention.softmax's first step
        return (name not in ("Add", "Sub")      # (a layer norm's x - mean(x) comes first)
                and any(x is r for x in op.inputs for r in residuals))
    return chosen


def _name_scores(y):
    """Name each head's scores for the page: q @ k^T, the scores (scaled by 1/sqrt(d_k)) and,
    under a mask, the masked scores."""
    stack, seen = [y], set()
    while stack:
        t = stack.pop()
        if t.creator is None or id(t) in seen:
            continue
        seen.add(id(t))
        op = t.creator
        if type(op).__name__ == "Div" and constant_scale(op, 0) is not None:
            op.inputs[0].name = op.inputs[0].name or "q @ k^T"
            t.name = t.name or "scores"
        elif type(op).__name__ == "Where":
            t.name = t.name or "masked scores"
        stack.extend(op.inputs)


def _residual_inputs(y, x):
    """The inputs of the block's residual sums, the Adds on the path from y back to x: x, and
    x1 = x + attention (named here), the feed-forward sublayer's input."""
    found, t = [], y
    while t is not x and t.creator is not None and type(t.creator).__name__ == "Add":
        t = t.creator.inputs[0]
        found.append(t)
    for t in found:
        t.name = t.name or "x1"
    return found[::-1]
