"""What `draw` and `explore` show of a Transformer's decoder step (seq2seq/models/transformer.py):
the scopes folded at first, the heads run apart, and the names of the tensors worth one.

The step is the one decoding runs: the new token alone, whose queries attend the keys and values
each layer kept from the earlier steps. Those come in as constants ("layer 0 kept keys", ...),
as an LSTM's (h, c) does, run without recording; the whole target prefix is not run again. The
step's scopes:

    encoder                   the source through the encoder's blocks, as `encode` runs it
    embedding, positions      the new token's vector, then its position added
    layer 0 ... layer L-1     the decoder's blocks; in each: self-attention, cross-attention,
                              feed-forward; in each attention: projections, head 0 ... head H-1,
                              output (the heads' contexts joined, then the output projection)
    final norm                (pre-norm only) then output (the Linear to the logits), loss

Folded at first (`default_collapse`): the encoder, every decoder layer but the last, every head,
and the plumbing of the last layer and after: each attention's projections and output, the
feed-forward, the final norm, the output layer. A folded scope holds the parameters only it uses
(its box counts them). So the last layer is drawn as its two attentions, each a LayerNorm, its
projections, a box per head and the residual sum: 69 boxes for 2 layers and 4 heads (about
1,100 with nothing folded). Unfold one (a click in the explorer; in a drawing, --collapse
without its name) to see its ops, a head's scores, softmax and weights. The heads run apart
(attention.show_heads) for the step only, and give the same numbers as all at once; the model is
left as it was.
"""

import contextlib

from minigrad.graph import walk
from attention.modules import MultiHeadAttention, show_heads
from seq2seq.models.transformer import Transformer


def is_transformer(model):
    return isinstance(model, Transformer)


def default_collapse(model):
    """The encoder, the decoder's layers but the last ("layer 0" ... "layer L-2"), every head
    ("head 0" ... "head H-1"), then "projections", "output" (an attention's, where its heads
    join, and the model's last Linear), "feed-forward" and, in a pre-norm model, "final norm"."""
    layers = len(model.decoder.layers)
    heads = model.decoder.layers[0].self_attn.num_heads
    final_norm = ["final norm"] if model.decoder.norm is not None else []
    return ["encoder", *(f"layer {i}" for i in range(layers - 1)),
            *(f"head {h}" for h in range(heads)), "projections", "output", "feed-forward",
            *final_norm]


@contextlib.contextmanager
def heads_apart(model):
    """Inside, every MultiHeadAttention of `model` runs each head in a scope of its own; after,
    each has its own setting again. (A model without one, the LSTM, is left alone.)"""
    before = {id(m): m.heads_apart for m in model.modules() if isinstance(m, MultiHeadAttention)}
    show_heads(model)
    try:
        yield model
    finally:
        for m in model.modules():
            if isinstance(m, MultiHeadAttention):
                m.heads_apart = before[id(m)]


def step_names(loss, state, token_word, position):
    """Names for the tensors of a step's graph (behind `loss`), {name: tensor}: the kept keys and
    values of each layer (the `state` the step started from), the new token's embedding
    ("embedding of <bos>") and that embedding with its position added ("embedding of <bos> at
    position 0"), and every head's attention weights, named by where they are ("layer 1
    cross-attention head 0 weights"; "encoder layer 0 ..." in the encoder): layers and heads
    numbered from 0, as their scopes are."""
    graph = walk([loss])
    made = {id(t.creator): t for t in graph.tensors if t.creator is not None}
    names = {}
    for i, (keys, values) in enumerate(zip(state[0::2], state[1::2])):
        names[f"layer {i} kept keys"], names[f"layer {i} kept values"] = keys, values
    last = {}                                           # scope path -> its last op
    for op in graph.ops:
        last[tuple(op.scope)] = op
    if ("embedding",) in last:
        names[f"embedding of {token_word}"] = made[id(last[("embedding",)])]
    if ("positions",) in last:
        at = f"embedding of {token_word} at position {position}"
        names[at] = made[id(last[("positions",)])]
    for path, op in last.items():                       # a head ends mixing: weights @ values
        if path and path[-1].startswith("head ") and type(op).__name__ == "MatMul":
            names[" ".join(path) + " weights"] = op.inputs[0]
    return names


# Predict mode asks where a Transformer is learned (attention.explore_self's questions), in the
# part of the step the page draws unfolded: the last layer. Its first head of each attention
# starts unfolded there, so that the softmax and the scale are asked where the page shows them.
PREDICT_UNFOLDED = "head 0"


def predict_collapse(collapse):
    """The scopes folded at first on a predict page: the default ones but the first head."""
    return [name for name in collapse if name != PREDICT_UNFOLDED]


def predict_questions(loss, collapse):
    """predict_at for a Transformer's decoder step: a function op -> bool choosing, among the
    ops in no folded scope (a name of `collapse`), those transformer_questions chooses (a
    residual's input where its whole gradient arrives, a layer norm, a softmax, a mask, the
    1/sqrt(d_k) scale). The residuals are the inputs of the Adds that add a tensor to something
    made from it."""
    from minigrad.viz.explorer.mistakes import depends_on
    from attention.explore_self import transformer_questions

    folded = set(collapse)

    def shown(op):
        return not folded.intersection(op.scope)

    residuals = []
    for op in walk([loss]).ops:
        if type(op).__name__ == "Add" and shown(op):
            for x, other in ((op.inputs[0], op.inputs[1]), (op.inputs[1], op.inputs[0])):
                if x.creator is not None and depends_on(other, x):
                    residuals.append(x)
    chosen = transformer_questions(residuals)
    return lambda op: shown(op) and chosen(op)
