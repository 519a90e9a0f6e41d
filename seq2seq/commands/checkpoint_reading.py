"""Reading a run's checkpoint as data to be checked, never trusted: every entry by type and every
weight's declared shape (seq2seq.commands.checkpoint_entries) before any array's data is read, then
what needs the values (finite weights, a model_config that agrees with the weights and
vocabularies). Whatever is wrong is a ValueError that starts with the file's name and names the
entry. `seq2seq.translator.load_translator` builds a model from what this reads."""

import numpy as np

import minigrad
from minigrad.checkpoint import MAX_BYTES
from seq2seq.commands import checkpoint_entries, sizes
from seq2seq.commands.config_entry import check_agrees, check_level
from seq2seq.commands.messages import message
from seq2seq.commands.settings import MAX_HEADS, MAX_LAYERS
from seq2seq.data.vocab import Vocab
from seq2seq.models.rnn import SCORINGS


def read_checkpoint(file):
    """The state a run's checkpoint `file` holds, every entry checked before any array's data
    is read (`_check_declared`), and what can only be checked once read (`_check_loaded`): all
    but the recurrent layer of a layer file, which load_translator checks as it loads it. Its
    own errors name the file."""
    state = minigrad.load(file, check=lambda declared: _check_declared(declared, file))
    _check_loaded(state, file)
    return state


def _check_loaded(state, file):
    """The checks that need the arrays' values or the entries together: finite weights, a
    model_config that agrees with the weights' shapes and the vocabularies (their sizes, and
    the padding index, <pad>'s), a level and a reverse_input that are what they say."""
    arrays = renamed(state["model"])
    _refused_in(file, checkpoint_entries.check_finite, arrays)
    lstm = state.get("rnn") is None
    config = entry(file, state, "model_config", lambda config: checked_config(
        config, arrays, None if lstm else "a layer"))
    for side in ("src", "tgt"):
        vocab = entry(file, state, f"{side}_vocab", Vocab.from_dict)
        entry(file, state, f"{side}_vocab", lambda _: _same_size(
            len(vocab), config[f"{side}_vocab_size"], f"{side}_vocab_size"))
        entry(file, state, "model_config", lambda config: _same_pad(
            config.get("padding_idx", 0), vocab.pad_id, side))
    level = entry(file, state, "level", _level)
    entry(file, state, "reverse_input", _flag)
    if isinstance(state.get("config"), dict):
        _refused_in(file, check_level, state["config"], level)
        entry(file, state, "config", lambda saved: _same_arch(saved, config))
        entry(file, state, "model_config", lambda _: _same_settings(state["config"], config))
    entry(file, state, "model_config", lambda _: _long_enough(config,
                                                              state.get("longest_source")))


def entry(file, state, name, use):
    """use(state[name]), with any error put in terms of the file and the entry."""
    try:
        return use(state[name])
    except KeyError as error:
        if error.args == (name,):
            raise ValueError(message("checkpoint.no_entry", file=file, name=repr(name))) from error
        problem = error
    except Exception as error:
        problem = error
    raise ValueError(message("checkpoint.entry_error", file=file, name=repr(name),
                             kind=type(problem).__name__, problem=problem)) from problem


def _check_declared(state, file):
    """Every entry of the checkpoint `file` checked (seq2seq.commands.checkpoint_entries), and its
    weights' declared shapes compared with its model_config, before any array's data is read: a file
    whose weights declare gigabytes is refused without taking them."""
    if not isinstance(state, dict):
        raise ValueError(message("checkpoint.not_a_dict", file=file, type=type(state).__name__))
    arrays = _refused_in(file, checkpoint_entries.check_declared, state, renamed)
    lstm = state.get("rnn") is None
    try:
        config = checked_config(state["model_config"], arrays, None if lstm else "a layer")
        sizes.check_inference(config)
    except checkpoint_entries.EntryError as error:       # an entry of model_config, named
        raise ValueError(message("checkpoint.cannot_load", file=file, problem=error)) from error
    except ValueError as error:
        raise ValueError(message("checkpoint.entry_error", file=file, name="'model_config'",
                                 kind=type(error).__name__, problem=error)) from error
    _refused_in(file, checkpoint_entries.check_shapes, arrays, config, lstm,
                state.get("block") is not None)
    if "config" in state:       # the settings both record: the config's, once model_config fits
        _refused_in(file, check_agrees, state["config"], config)


def _refused_in(file, check, *args):
    """check(*args), an EntryError from it put in terms of the file."""
    try:
        return check(*args)
    except checkpoint_entries.EntryError as error:
        raise ValueError(message("checkpoint.cannot_load", file=file, problem=error)) from error


# What a checkpoint says is taken at its word only once it has been checked: "no" is not False,
# and a model_config whose sizes the saved arrays do not have would build (allocate) a model of
# any size before load_state_dict could say the shapes differ.

SIZES = ("src_vocab_size", "tgt_vocab_size", "embed_size", "hidden_size")
LSTM_KEYS = (*SIZES, "attention", "wiring", "padding_idx", "fused", "bidirectional")
TRANSFORMER_SIZES = ("src_vocab_size", "tgt_vocab_size", "d_model", "heads", "layers", "d_ff",
                     "max_len")
TRANSFORMER_KEYS = {*TRANSFORMER_SIZES, "dropout", "norm", "positions", "padding_idx"}
# Their ranges: the stacks as config.layers and config.heads are held to, and every width (a
# vocabulary, a layer's size, the positions) no more than a weight of a checkpoint can hold.
MOST = {"layers": MAX_LAYERS, "heads": MAX_HEADS}
WIDEST = MAX_BYTES // 4                 # floats of four bytes, the least a weight takes


def _in_range(config, name):
    """model_config[name] an integer in its range (MOST), before anything is built from it: a
    `layers` of 10**9 would have the expected shapes made layer by layer until memory ran out."""
    value, high = config[name], MOST.get(name, WIDEST)
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not (
            1 <= value <= high):
        raise checkpoint_entries.EntryError(f"model_config.{name}",
                                            message("expect.integer_in", high=high), value)


def _arrays(model):
    if not isinstance(model, dict):
        raise ValueError(message("reading.arrays", type=type(model).__name__))
    return model


def _flag(value):
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(message("reading.flag", value=repr(value)))
    return bool(value)


def _level(value):
    if value not in ("char", "word") or not isinstance(value, str):
        raise ValueError(message("reading.level", value=repr(value)))
    return value


def _same_size(found, expected, name):
    if found != expected:
        raise ValueError(message("reading.size", found=found, name=name, expected=expected))


def _same_pad(found, pad_id, side):
    if found != pad_id:
        raise ValueError(message("reading.pad", found=repr(found), pad_id=pad_id, side=side))


def _same_arch(saved, model_config):
    """The training config's arch is a model this version has, and the one model_config
    describes (a Transformer's holds d_model)."""
    from seq2seq.commands.arch import ARCHS, describes_transformer
    arch = saved.get("arch", "lstm")            # older runs, from before the Transformer
    if arch not in ARCHS or not isinstance(arch, str):
        raise ValueError(message("reading.arch", choices=", ".join(ARCHS), arch=repr(arch)))
    kind = "transformer" if describes_transformer(model_config) else "lstm"
    if arch != kind:
        raise ValueError(message(f"reading.arch_{kind}", arch=repr(arch)))


# The settings a Transformer's training config and its model_config both record: they must agree
# (another divisor of d_model as heads would load the weights and split them otherwise).
SHARED = ("d_model", "heads", "layers", "d_ff", "norm", "positions")


def _same_settings(saved, model_config):
    for name in SHARED if "d_model" in model_config else ():
        if saved.get(name) is not None and saved[name] != model_config[name]:
            raise ValueError(message("reading.settings", name=name, value=repr(model_config[name]),
                                     saved=repr(saved[name])))


def _long_enough(model_config, longest_source):
    """A Transformer's positions cover what training made them for: max_len at least
    2 x the longest training source + 10 (seq2seq.commands.arch.transformer_settings)."""
    if "d_model" not in model_config or longest_source is None:
        return
    least = 2 * longest_source + 10
    if model_config["max_len"] < least:
        raise ValueError(message("reading.max_len_short", max_len=model_config["max_len"],
                                 longest=longest_source, least=least))


def renamed(arrays):
    """The state dict with the names this version gives the recurrent layers: checkpoints saved
    before the layer could be other than an LSTM call them `lstm` and `lstm_reverse`."""
    old = {"encoder.lstm.": "encoder.rnn.", "encoder.lstm_reverse.": "encoder.rnn_reverse.",
           "decoder.lstm.": "decoder.rnn."}
    renamed = {}
    for key, value in arrays.items():
        prefix = next((p for p in old if isinstance(key, str) and key.startswith(p)), None)
        renamed[key if prefix is None else old[prefix] + key[len(prefix):]] = value
    return renamed


def checked_config(config, arrays, rnn=None):
    """The checkpoint's model_config, its types and values checked and its sizes compared with
    the shapes of the saved arrays, all before the model is built. `rnn`: the layer's class,
    None for the LSTM (whose weight_hh shows the hidden size as well). A Transformer's
    model_config (it holds a Transformer's own settings): `checked_transformer_config`."""
    from seq2seq.commands.arch import describes_transformer
    if not isinstance(config, dict):
        raise ValueError(message("reading.dict", type=type(config).__name__))
    if describes_transformer(config):
        if rnn is not None:
            raise ValueError(message("reading.transformer_rnn"))
        return checked_transformer_config(config, arrays)
    unknown = [name for name in config if name not in LSTM_KEYS]
    if unknown:                         # refused by name, before the constructor sees it
        raise checkpoint_entries.EntryError(f"model_config.{unknown[0]}", message(
            "expect.no_setting", names=", ".join(LSTM_KEYS)), config[unknown[0]])
    for name in SIZES:
        if name not in config:
            raise checkpoint_entries.EntryError.missing(f"model_config.{name}")
        _in_range(config, name)
    for name in ("fused", "bidirectional"):
        if not isinstance(config.get(name, False), (bool, np.bool_)):
            raise ValueError(message("reading.must_flag", name=name, value=repr(config[name])))
    if config.get("attention", "dot") not in (*SCORINGS, None):
        raise ValueError(message("reading.attention", choices=", ".join(map(repr, SCORINGS)),
                                 value=repr(config["attention"])))
    if config.get("wiring", "luong") not in ("luong", "bahdanau"):
        raise ValueError(message("reading.wiring", value=repr(config["wiring"])))
    pad = config.get("padding_idx", 0)
    if isinstance(pad, bool) or not isinstance(pad, (int, np.integer)) or not (
            0 <= pad < min(config["src_vocab_size"], config["tgt_vocab_size"])):
        raise ValueError(message("reading.padding_idx", value=repr(pad)))
    src, tgt, embed, hidden = (int(config[name]) for name in SIZES)
    outputs = hidden if config.get("attention", "dot") is None else 2 * hidden
    shapes = {"encoder.embedding.weight": (src, embed), "decoder.embedding.weight": (tgt, embed)}
    if rnn is None:
        shapes["encoder.rnn.weight_hh_l0"] = (4 * hidden, hidden)
    shapes["decoder.out.weight"] = (tgt, outputs)       # whatever the layer: H or 2H columns
    for key, shape in shapes.items():
        found = getattr(arrays.get(key), "shape", None)
        if found is None or tuple(found) != shape:
            raise ValueError(message("reading.lstm_shape", src=src, tgt=tgt, embed=embed,
                                     hidden=hidden, key=key, shape=shape, saved=_saved(found)))
    return config


def checked_transformer_config(config, arrays):
    """A Transformer's model_config: exactly its keys, sizes that are integers >= 1 (heads
    dividing d_model), a dropout in [0, 1), a norm and positions it knows, and the embeddings'
    and the output layer's shapes as the saved arrays have them; the other weights' shapes are
    compared by checkpoint_entries.check_shapes."""
    from seq2seq.commands.arch import NORMS, POSITIONS, TRANSFORMER_ENTRIES
    from seq2seq.commands.settings import MAX_STEP
    missing = [f"model_config.{name}" for name in TRANSFORMER_ENTRIES if name not in config]
    if missing:
        raise checkpoint_entries.EntryError.missing(missing[0], None if len(missing) == 1 else
                                                    message("reading.nor", names=", ".join(
                                                        map(repr, missing[1:]))))
    if set(config) != TRANSFORMER_KEYS:
        raise ValueError(message("reading.transformer_keys", keys=", ".join(sorted(
            TRANSFORMER_KEYS)), found=", ".join(sorted(map(str, config)))))
    for name in TRANSFORMER_SIZES:
        _in_range(config, name)
    if config["positions"] == "sinusoidal" and config["max_len"] > MAX_STEP + 1:
        raise ValueError(message("reading.sinusoidal_max_len", most=MAX_STEP + 1,
                                 value=config["max_len"]))
    if config["d_model"] % config["heads"]:
        raise ValueError(message("reading.heads", heads=config["heads"], d_model=config["d_model"]))
    dropout = config["dropout"]
    if isinstance(dropout, bool) or not isinstance(dropout, (int, float)) or not (
            0 <= dropout < 1):
        raise ValueError(message("reading.dropout", value=repr(dropout)))
    if config["norm"] not in NORMS or config["positions"] not in POSITIONS:
        raise ValueError(message("reading.norm_positions", norms=NORMS, positions=POSITIONS,
                                 norm=repr(config["norm"]), position=repr(config["positions"])))
    pad = config["padding_idx"]
    if isinstance(pad, bool) or not isinstance(pad, (int, np.integer)) or not (
            0 <= pad < min(config["src_vocab_size"], config["tgt_vocab_size"])):
        raise ValueError(message("reading.padding_idx", value=repr(pad)))
    src, tgt, d = (int(config[name]) for name in ("src_vocab_size", "tgt_vocab_size", "d_model"))
    for key, shape in {"encoder.embedding.tokens.weight": (src, d),
                       "decoder.embedding.tokens.weight": (tgt, d),
                       "decoder.out.weight": (tgt, d)}.items():
        found = getattr(arrays.get(key), "shape", None)
        if found is None or tuple(found) != shape:
            raise ValueError(message("reading.transformer_shape", src=src, tgt=tgt, d=d,
                                     key=key, shape=shape, saved=_saved(found)))
    return config


def _saved(shape):
    return message("reading.missing") if shape is None else tuple(shape)
