"""What a seq2seq checkpoint holds, entry by entry, checked in one place before it is used.

`load_translator` reads a run's checkpoint with `minigrad.load(file, check=...)`, so
`check_declared` sees the JSON records as they are and each array as its .npy header declares it (a
minigrad.checkpoint.Declared: shape and dtype), before any array's data is read. A file whose
split is `7`, whose vocabulary holds a number, or whose weights declare gigabytes the model's
settings do not want, is then one line naming the file, the entry and what was expected, and
takes no memory. `check_finite` runs on the weights once they are read (NaN, infinity, or
beyond seq2seq.commands.epoch.MAX_WEIGHT in size).

    {"model":         {name: float array}        the state dict, shapes as model_config wants
     "model_config":  {src_vocab_size, ...}       seq2seq.translator checks its values
     "src_vocab", "tgt_vocab": {"tokens": [str, ...]}
     "level":         "char" or "word",   "reverse_input": bool
     "config":        {"task": str, ...}          the training settings, each as its option
                                                  takes it: seq2seq.commands.config_entry
     "history", "epochs": each epoch's record, and how many epochs were trained:
                      seq2seq.commands.checkpoint_history checks them
     "split":         None, or the record of seq2seq.data.heldout: its train_sources one hash per
                      training source, so no more hashes than the run could have had sources
                      (config.num_examples for a built-in task, MAX_SOURCES for a pairs file)
     "optimizer":     {"state": ..., "param_groups": [...]}   arrays no larger than the weights
     "longest_source": None or int >= 1           the longest training source, in tokens
     "rnn":           the layer file's record: seq2seq.commands.rnn_file checks it
     "block":         the same for a Transformer's encoder block from a file (--block)
     "task_file":     None, or where the pairs file is: {"path": an absolute path,
                      "sha256": 64 hex digits} (seq2seq.commands.task_file)}

Every array declared anywhere else is no larger than the largest weight either: an archive
member can declare gigabytes that a few MB of zeros deflate to, so no entry's size is taken on
trust.
"""

import math
import os

import numpy as np

from minigrad.checkpoint import Declared
from seq2seq.commands import sizes
from seq2seq.commands.checkpoint_history import check_history
from seq2seq.commands.config_entry import check_config_entry
from seq2seq.commands.entry_error import EntryError, list_of
from seq2seq.commands.epoch import MAX_WEIGHT
from seq2seq.commands.messages import message
from seq2seq.commands.settings import MAX_EXAMPLES
from seq2seq.data.tasks import TASKS
from seq2seq.data.vocab import control_character

# The most training sources a run from a pairs file is taken to have (a built-in task records
# how many pairs it generated): as many as a built-in task may generate, 80 MB of hashes.
MAX_SOURCES = MAX_EXAMPLES

MODEL_ENTRIES = ("model", "model_config", "src_vocab", "tgt_vocab", "level", "reverse_input")
LAYER_PREFIXES = ("encoder.rnn.", "encoder.rnn_reverse.", "decoder.rnn.")
BLOCK_PREFIXES = ("encoder.layers.",)       # a Transformer's encoder blocks


def check_declared(state, renamed):
    """Check every entry that loading a translator (or resuming its training) uses, before any
    array's data is read. `renamed(model)` gives the state dict with this version's names.
    Raises EntryError (a ValueError) for the first entry that is wrong."""
    if not isinstance(state, dict):
        raise EntryError("checkpoint", message("expect.entries"), state)
    for name in MODEL_ENTRIES:
        if name not in state:
            raise EntryError.missing(name)
    model = _dict_of_arrays(state["model"], "model", "f")
    largest = max((a.nbytes for a in model.values()), default=0)
    for name, value in state.items():           # train_sources: bounded by _split
        if name == "split" and isinstance(value, dict):
            value = {key: v for key, v in value.items() if key != "train_sources"}
        if name != "model":
            _no_array_larger(value, name, largest)
    for side in ("src_vocab", "tgt_vocab"):
        _vocab(state[side], side)
    if "config" in state:
        _config(state["config"], state.get("model_config"))
        _layer_named(state["config"], state)
    found = state.get("longest_source")
    if found is not None and (isinstance(found, bool) or not isinstance(found, int)
                              or found < 1):
        raise EntryError("longest_source", message("expect.longest_source"), found)
    if state.get("split") is not None:
        _split(state["split"], _most_sources(state.get("config")))
    if state.get("task_file") is not None:
        _task_file(state["task_file"])
    if "history" in state:
        check_history(state)
    return renamed(model)


def _layer_named(config, state):
    """config.rnn and config.block name a file if and only if the checkpoint records one
    (rnn_file), and the same class: a run resumed would carry a file named in config alone into
    its checkpoint."""
    for entry in ("rnn", "block"):
        named = config.get(entry) if isinstance(config, dict) else None
        record = state.get(entry)
        if named is None and record is not None:
            raise EntryError(f"config.{entry}", message("expect.file_recorded"), named)
        if named is not None and (not isinstance(record, dict)
                                  or named.rpartition(":")[2] != record.get("class")):
            raise EntryError(f"config.{entry}", message("expect.no_file_recorded")
                             if record is None else message("expect.class_recorded",
                                                            name=record.get("class")), named)


def _most_sources(config):
    """The most distinct training sources the run could have had: the pairs a built-in task
    generated (config.num_examples), else MAX_SOURCES."""
    if isinstance(config, dict) and config.get("task") in TASKS:
        count = config.get("num_examples")
        if isinstance(count, int) and not isinstance(count, bool) and count >= 1:
            return min(count, MAX_SOURCES)
    return MAX_SOURCES


def check_shapes(arrays, config, layer_is_lstm, own_block=False):
    """Every weight as model_config wants it, by its declared shape, before it is read. The
    weights of a layer from a file (not the LSTM; with `own_block`, not EncoderBlock) have
    shapes only that layer knows: those are checked when loaded, and here only bounded: none
    may be larger than four times the largest weight of the model with these settings."""
    expected = sizes.expected_shapes(**config)
    free = (() if layer_is_lstm else LAYER_PREFIXES) + (BLOCK_PREFIXES if own_block else ())
    for name, array in arrays.items():
        if free and name.startswith(free):
            if math.prod(array.shape) > 4 * max(math.prod(s) for s in expected.values()):
                what = ("expect.block_weight" if name.startswith(BLOCK_PREFIXES)
                        else "expect.layer_weight")
                raise EntryError(f"model.{name}", message(what), array)
            continue
        if name not in expected:
            raise EntryError(f"model.{name}", message("expect.absent"), array)
        if tuple(array.shape) != expected[name]:
            raise EntryError(f"model.{name}", message("expect.shape", shape=expected[name]),
                             array)
    missing = [name for name in expected if name not in arrays
               and not (free and name.startswith(free))]
    if missing:
        raise EntryError.missing(f"model.{missing[0]}")


def check_finite(arrays):
    """Refuse NaN or infinite weights, and weights beyond seq2seq.commands.epoch.MAX_WEIGHT in size:
    a model with them writes nothing sensible (an empty translation, or one digit over and over)
    and gives no sign why. Training never saves such weights (it stops the run first), so a
    checkpoint that holds them was written by something else, and `train --resume` of it
    blames the file, not the learning rate."""
    for name, array in arrays.items():
        if not np.isfinite(array).all():
            bad = int(np.size(array) - np.isfinite(array).sum())
            raise EntryError(f"model.{name}", message("expect.finite"), None,
                             message("expect.found_not_finite", bad=bad, size=np.size(array)))
        largest = float(np.abs(array).max(initial=0.0))
        if largest > MAX_WEIGHT:
            raise EntryError(f"model.{name}", message("expect.bounded", most=f"{MAX_WEIGHT:g}"),
                             None, message("expect.found_beyond", size=np.size(array),
                                           beyond=int((np.abs(array) > MAX_WEIGHT).sum()),
                                           largest=f"{largest:.3g}"))


# ---- one rule per kind of entry ------------------------------------------------------------

def _dict_of_arrays(value, entry, kinds):
    if not isinstance(value, dict):
        raise EntryError(entry, message("expect.arrays"), value)
    for key, array in value.items():
        if not isinstance(key, str):
            raise EntryError(entry, message("expect.str_keys"), key)
        if not isinstance(array, Declared) or array.dtype.kind not in kinds:
            raise EntryError(f"{entry}.{key}", message("expect.float_array"), array)
    return value


def _vocab(value, entry):
    if not isinstance(value, dict) or not isinstance(value.get("tokens"), list):
        raise EntryError(entry, message("expect.vocab"), value)
    for i, token in enumerate(value["tokens"]):
        if not isinstance(token, str) or control_character(token) is not None:
            raise EntryError(f"{entry}.tokens[{i}]", message("expect.token"), token)


def _config(value, model_config):
    """Every training setting as its option would take it: seq2seq.commands.config_entry."""
    check_config_entry(value, model_config)


def _split(value, most_sources):
    if not isinstance(value, dict):
        raise EntryError("split", message("expect.split"), value)
    pairs = list_of(value.get("val_pairs"), "split.val_pairs", list, message("expect.pairs"))
    for i, pair in enumerate(pairs):
        if len(pair) != 2 or not all(isinstance(text, str) and control_character(text) is None
                                     for text in pair):
            raise EntryError(f"split.val_pairs[{i}]", message("expect.pair"), pair)
    hashes = value.get("train_sources")
    if not isinstance(hashes, Declared) or hashes.dtype != np.uint64 or len(hashes.shape) != 1:
        raise EntryError("split.train_sources", message("expect.hashes"), hashes)
    if hashes.shape[0] > most_sources:
        raise EntryError("split.train_sources", message("expect.most_hashes",
                                                        most=f"{most_sources:,}"), hashes)
    for name in ("hash", "corpus_sha256"):
        if not isinstance(value.get(name), str):
            raise EntryError(f"split.{name}", message("expect.str"), value.get(name))


def _task_file(value):
    if not isinstance(value, dict) or set(value) != {"path", "sha256"}:
        raise EntryError("task_file", message("expect.task_file"), value)
    path, digest = value["path"], value["sha256"]
    if not isinstance(path, str) or not os.path.isabs(path) or "\0" in path:
        raise EntryError("task_file.path", message("expect.absolute_path"), path)
    if not (isinstance(digest, str) and len(digest) == 64
            and all(c in "0123456789abcdef" for c in digest)):
        raise EntryError("task_file.sha256", message("expect.sha256"), digest)


def _no_array_larger(value, entry, most):
    """No array anywhere in `value` takes more than `most` bytes (iteratively: no deep stack)."""
    todo = [(entry, value)]
    while todo:
        where, item = todo.pop()
        if isinstance(item, Declared) and item.nbytes > most:
            raise EntryError(where, message("expect.no_larger", most=most), item)
        if isinstance(item, dict):
            todo += [(f"{where}.{key}", v) for key, v in item.items()]
        elif isinstance(item, (list, tuple)):
            todo += [(f"{where}[{i}]", v) for i, v in enumerate(item)]
