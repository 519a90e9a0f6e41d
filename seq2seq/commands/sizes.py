"""How much memory a model of given sizes takes, estimated from the settings alone, so that a
size nobody meant (`--embed-size 10000000`, a zero too many) is refused in one line before
anything is allocated, instead of allocating gigabytes and then failing.

    parameter_count(...)   the weights of the LSTM model, exactly (another recurrent layer's may
                           differ a little; the estimate is for the LSTM), or of the Transformer
                           (a model_config with d_model: `transformer_shapes`)
    check_training(...)    training keeps each weight four times (the weight, its gradient and
                           Adam's two moments) and, for one batch, the graph's activations
    check_inference(...)   loading a checkpoint keeps each weight twice (the arrays read and the
                           model's copy)

Each is checked against the memory this machine has available now (minigrad.memory), or
FALLBACK_LIMIT where that cannot be read. The estimate is rough, and on the low side: for
training runs of the built-in tasks (hidden sizes 128 to 1,024, batches of 128 to 512) it came
to 0.5 to 1.0 times the process's measured peak memory. So a run refused here would not fit;
one let through may still be too big.
"""

import math

from minigrad.memory import available_bytes
from minigrad.npz_reader import size
from minigrad.settings import SettingError
from seq2seq.commands.messages import message

FLOAT = 8                       # bytes: the model trains in float64
FALLBACK_LIMIT = 16 * 1024 ** 3
SIZE_SETTINGS = ("embed_size", "hidden_size", "batch_size", "d_model", "d_ff", "layers",
                 "max_len")
OWN_SIZES = {"lstm": ("embed_size", "hidden_size"),             # what each model is sized by
             "transformer": ("d_model", "d_ff", "layers")}


def lstm_shapes(prefix, input_size, hidden_size):
    """nn.LSTM's weights, PyTorch's layout: W_ih (4H, I), W_hh (4H, H), two biases (4H,)."""
    H4 = 4 * hidden_size
    return {f"{prefix}.weight_ih_l0": (H4, input_size), f"{prefix}.weight_hh_l0": (H4, hidden_size),
            f"{prefix}.bias_ih_l0": (H4,), f"{prefix}.bias_hh_l0": (H4,)}


def expected_shapes(src_vocab_size, tgt_vocab_size, embed_size=None, hidden_size=None,
                    attention="dot", wiring="luong", bidirectional=False, **transformer):
    """Seq2Seq's state dict with these settings (with LSTM layers), or the Transformer's (when
    they hold d_model), as {name: shape}: what a checkpoint's weights are checked against
    before they are read."""
    if transformer.get("d_model") is not None:
        return transformer_shapes(src_vocab_size, tgt_vocab_size, **transformer)
    E, H = embed_size, hidden_size
    shapes = {"encoder.embedding.weight": (src_vocab_size, E),
              **lstm_shapes("encoder.rnn", E, H)}
    if bidirectional:
        shapes.update(lstm_shapes("encoder.rnn_reverse", E, H))
    shapes["decoder.embedding.weight"] = (tgt_vocab_size, E)
    bahdanau = attention is not None and wiring == "bahdanau"     # the context joins the input
    shapes.update(lstm_shapes("decoder.rnn", E + H if bahdanau else E, H))
    if attention == "general":
        shapes["decoder.attention.W.weight"] = (H, H)
    if attention == "additive":
        shapes.update({"decoder.attention.W.weight": (H, H), "decoder.attention.U.weight": (H, H),
                       "decoder.attention.v.weight": (1, H)})
    shapes["decoder.out.weight"] = (tgt_vocab_size, H if attention is None else 2 * H)
    shapes["decoder.out.bias"] = (tgt_vocab_size,)
    return shapes


def transformer_shapes(src_vocab_size, tgt_vocab_size, d_model, layers, d_ff, norm="pre",
                       positions="sinusoidal", max_len=1, **_):
    """The Transformer's state dict (seq2seq/models/transformer.py) as {name: shape}."""
    d = d_model
    attention = {"in_proj_weight": (3 * d, d), "in_proj_bias": (3 * d,),
                 "out_proj.weight": (d, d), "out_proj.bias": (d,)}
    shapes = {}
    for side, vocab, names in (("encoder", src_vocab_size, ("self_attn",)),
                               ("decoder", tgt_vocab_size, ("self_attn", "multihead_attn"))):
        shapes[f"{side}.embedding.tokens.weight"] = (vocab, d)
        if positions == "learned":
            shapes[f"{side}.embedding.positions.embedding.weight"] = (max_len, d)
        for i in range(layers):
            block = f"{side}.layers.{i}."
            shapes.update({block + f"{name}.{key}": shape for name in names
                           for key, shape in attention.items()})
            shapes.update({block + "linear1.weight": (d_ff, d), block + "linear1.bias": (d_ff,),
                           block + "linear2.weight": (d, d_ff), block + "linear2.bias": (d,)})
            shapes.update({block + f"norm{n}.{key}": (d,) for n in range(1, len(names) + 2)
                           for key in ("weight", "bias")})
        if norm == "pre":
            shapes.update({f"{side}.norm.weight": (d,), f"{side}.norm.bias": (d,)})
    shapes.update({"decoder.out.weight": (tgt_vocab_size, d),
                   "decoder.out.bias": (tgt_vocab_size,)})
    return shapes


def parameter_count(*sizes, **config):
    """The number of weights of the model these settings (expected_shapes') make."""
    return sum(math.prod(shape) for shape in expected_shapes(*sizes, **config).values())


def activation_floats(config, examples, src_len, tgt_len, tgt_vocab_size):
    """A rough lower bound of the numbers one training batch keeps for backward: per source
    position the embedding and the LSTM's gates and states, per target position the same plus
    the attention weights, the logits and their softmax. A batch holds at most `examples`."""
    B = min(config["batch_size"], examples)
    if config.get("arch") == "transformer":     # per position and layer: the sublayers' outputs
        d, f, h, n = (config[name] for name in ("d_model", "d_ff", "heads", "layers"))
        per_source = n * (12 * d + 2 * f + 2 * h * src_len)
        per_target = n * (18 * d + 2 * f + 2 * h * (tgt_len + src_len)) + 2 * tgt_vocab_size
        return B * (src_len * per_source + tgt_len * per_target)
    E, H = config["embed_size"], config["hidden_size"]
    directions = 2 if config.get("bidirectional") else 1
    per_source = directions * (E + 4 * H)
    per_target = E + 6 * H + src_len + 2 * tgt_vocab_size
    return B * (src_len * per_source + tgt_len * per_target)


def memory_limit():
    """The bytes a run may take: what the machine has available now, FALLBACK_LIMIT where that
    cannot be read."""
    return available_bytes() or FALLBACK_LIMIT


def check_training(config, src_vocab_size, tgt_vocab_size, examples, src_len, tgt_len,
                   model_config=None):
    """Refuse, naming the setting most likely at fault, a training run whose weights, gradients,
    Adam's moments and one batch's activations would not fit in memory. `config` is a dict of
    the model's and the batch's settings; `examples` the training pairs, src_len and tgt_len
    the longest sequences, in tokens; `model_config`, the Transformer's (its own sizes)."""
    weights = parameter_count(**(model_config or dict(
        config, src_vocab_size=src_vocab_size, tgt_vocab_size=tgt_vocab_size)))
    activations = activation_floats(config, examples, src_len, tgt_len, tgt_vocab_size)
    need = FLOAT * (4 * weights + activations)
    _check(need, message("sizes.training_needs", need=size(need), weights=f"{weights:,}"), config,
           src_vocab_size, tgt_vocab_size)


def check_inference(config):
    """Refuse a model (a checkpoint's model_config) whose weights would not fit in memory."""
    config = dict(config, **{name: int(config[name]) for name in   # NumPy ints: no overflow
                             ("src_vocab_size", "tgt_vocab_size", "embed_size", "hidden_size",
                              "d_model", "d_ff", "layers", "max_len") if name in config})
    weights = parameter_count(**config)
    need = FLOAT * 2 * weights
    _check(need, message("sizes.weights_need", weights=f"{weights:,}", need=size(need)), config,
           config["src_vocab_size"], config["tgt_vocab_size"])


def _check(need, what, config, src_vocab_size, tgt_vocab_size):
    limit = memory_limit()
    if need <= limit:
        return
    what = message("sizes.more_than_memory", what=what, limit=size(limit))
    sizes = dict(config, src_vocab_size=src_vocab_size, tgt_vocab_size=tgt_vocab_size)
    name = _largest(sizes)
    if name in SIZE_SETTINGS:
        raise SettingError(name, message("sizes.too_large", value=sizes[name], what=what))
    side = "source" if name == "src_vocab_size" else "target"     # from the data, not a setting
    raise ValueError(message(f"sizes.{side}_vocabulary", tokens=f"{sizes[name]:,}", what=what))


def _largest(sizes):
    """The size furthest above its usual value: the one the message blames, among the settings
    of the model `sizes` describes (a Transformer's config holds an --embed-size it never uses),
    the batch, the longest sequence (--max-len) and the vocabularies."""
    from seq2seq.commands.settings import SIZE_DEFAULTS
    usual = dict(SIZE_DEFAULTS, src_vocab_size=1000, tgt_vocab_size=1000)
    arch = "transformer" if isinstance(sizes.get("d_model"), int) else "lstm"
    names = [name for name in (*OWN_SIZES[arch], "batch_size", "max_len", "src_vocab_size",
                               "tgt_vocab_size")
             if isinstance(sizes.get(name), int) and not isinstance(sizes.get(name), bool)]
    return max(names, key=lambda name: sizes[name] / usual[name])


def check_saved(model, what):
    """Refuse, before any training, a model whose checkpoint could not be written: its weights
    and Adam's two moments over the bytes a checkpoint may hold. For a layer of the user's
    (--rnn, --block), whose real size the estimate above cannot know; `what` names it."""
    from minigrad.checkpoint import MAX_BYTES
    weights = sum(p.data.size for p in model.parameters())
    need = 3 * sum(p.data.nbytes for p in model.parameters())
    if need > MAX_BYTES:
        raise ValueError(message("sizes.checkpoint_too_large", what=what, weights=f"{weights:,}",
                                 need=size(need), most=size(MAX_BYTES)))
