"""The numeric settings of seq2seq, checked in one place: the training config (whether it comes
from `python -m seq2seq train`, `demo`, `compare-lengths` or a `TrainConfig` in Python) and the
options of `evaluate`, `translate` and `draw`.

Every setting has one rule, in RULES; `check_settings` applies them with
`minigrad.settings.check_number`, so NaN, infinity and wrong types are refused as well as values
out of range. The error names the setting as the API spells it (`hidden_size`); the command line
shows it as its option (`--hidden-size`, see `minigrad.command`).
"""

import dataclasses

from minigrad.settings import SettingError, check_number
from seq2seq.commands.messages import Phrase, message

INTEGER_AT_LEAST_1 = dict(low=1, integer=True)
INTEGER_AT_LEAST_0 = dict(low=0, integer=True)

# Upper bounds, so that a typo (an extra zero or ten) is refused at once instead of running for
# hours. A source is at most MAX_TOKENS long because translate takes no longer text
# (seq2seq.translator.MAX_SOURCE_TOKENS, the same number; a test keeps them equal); decoding runs
# at most 2 S + 10 steps, so no step beyond MAX_STEP exists. MAX_EXAMPLES is 500 times the
# default count (20,000): generating that many dates pairs alone takes minutes.
MAX_TOKENS = 1000
MAX_STEP = 2 * MAX_TOKENS + 9
MAX_EXAMPLES = 10_000_000
# Beam search weighs beam_size candidates from each of beam_size hypotheses, one by one in
# Python, at every step: beam_size**2 a step. 100 is 10,000 a step; 100,000 would never finish.
# Beams wider than a few tens seldom change a translation.
MAX_BEAM = 100
# A Transformer's stacks: the 2017 paper's base model has 6 layers, its big one 6 too; 100 would
# take minutes a step here. Heads: each is one attention over all positions, one by one.
MAX_LAYERS = 100
MAX_HEADS = 1024
# Epochs: each writes the checkpoint and adds a record to its history. Threads: BLAS's, one a
# core.
MAX_EPOCHS = 100_000
MAX_THREADS = 1024

# The settings that take one of a few words: the options offer these choices, and a checkpoint's
# saved config is held to them (seq2seq.commands.config_entry). attention None: the plain
# encoder-decoder (--attention none); level None: the task's own.
CHOICES = {
    "arch": ("lstm", "transformer"),
    "attention": ("dot", "general", "additive", "uniform"),
    "wiring": ("luong", "bahdanau"),
    "level": ("char", "word"),
    "norm": ("pre", "post"),                    # the Transformer's
    "positions": ("sinusoidal", "learned"),
}

RULES = {
    "embed_size": INTEGER_AT_LEAST_1,
    "d_model": INTEGER_AT_LEAST_1,              # the Transformer's (--arch transformer)
    "d_ff": INTEGER_AT_LEAST_1,
    "layers": dict(low=1, high=MAX_LAYERS, integer=True),
    "heads": dict(low=1, high=MAX_HEADS, integer=True),
    "dropout": dict(low=0, high=1, high_open=True),
    "warmup": dict(low=0, high=10 ** 9, integer=True,   # updates before the rate peaks
                   why_high=Phrase("settings.why_warmup")),
    "label_smoothing": dict(low=0, high=1, high_open=True,
                            why_high=Phrase("settings.why_smoothing")),
    "hidden_size": INTEGER_AT_LEAST_1,
    "batch_size": dict(low=1, high=MAX_EXAMPLES, integer=True,   # larger: the whole data set
                       why_high=Phrase("settings.why_batch")),
    "epochs": dict(low=1, high=MAX_EPOCHS, integer=True,
                   why_high=Phrase("settings.why_epochs")),
    "lr": dict(low=0, low_open=True),
    "lr_decay": dict(low=0, low_open=True, high=1),     # a decay: lr * lr_decay**epoch
    "clip": dict(low=0, low_open=True),
    "val_fraction": dict(low=0, high=1, high_open=True),
    "num_examples": dict(low=1, high=MAX_EXAMPLES, integer=True),
    "min_len": dict(low=1, high=MAX_TOKENS, integer=True),
    "max_len": dict(low=1, high=MAX_TOKENS, integer=True),
    "test_max_len": dict(low=1, high=MAX_TOKENS, integer=True),     # compare-lengths
    "seeds": dict(low=2, high=10, integer=True),        # uniform-and-seeds: two to compare
    "teacher_forcing_ratio": dict(low=0, high=1),
    "seed": INTEGER_AT_LEAST_0,                 # NumPy's generators take no negative seed
    "threads": dict(low=1, high=MAX_THREADS, integer=True,
                    why_high=Phrase("settings.why_threads")),
    "beam_size": dict(low=1, high=MAX_BEAM, integer=True,     # evaluate, translate
                      why_high=Phrase("settings.why_beam")),
    "step": dict(low=0, high=MAX_STEP, integer=True),  # draw: which output step
    "max_elements": INTEGER_AT_LEAST_0,         # explore: the largest array embedded in full
    "max_bytes": INTEGER_AT_LEAST_0,            # explore: the numbers a page embeds, at most
}

# The sizes an out-of-memory error may come from, and what they are when nobody changes them.
SIZE_DEFAULTS = {"hidden_size": 256, "embed_size": 16, "batch_size": 128, "num_examples": 20000,
                 "max_len": 100, "beam_size": 1, "threads": 1, "d_model": 64, "d_ff": 256,
                 "layers": 2}


def check_settings(**settings):
    """Check each setting named in RULES (None: not given, the default applies; others are
    ignored). Raises SettingError (a ValueError) or SettingTypeError (a TypeError)."""
    for name, value in settings.items():
        if name in RULES and value is not None:
            check_number(name, value, **RULES[name])
    d_model, heads = settings.get("d_model"), settings.get("heads")
    if d_model is not None and heads is not None and d_model % heads:
        raise SettingError("heads", message("settings.heads", heads=heads, d_model=d_model))
    low, high = settings.get("min_len"), settings.get("max_len")
    if low is not None and high is not None and low > high:
        raise SettingError("min_len", message("settings.min_above_max", low=low, high=high))
    if "sep" in settings and settings["sep"] == "":
        raise SettingError("sep", message("settings.sep_empty"))
    if isinstance(settings.get("columns"), str):   # "1,2"
        from seq2seq.data.corpus import parse_columns
        parse_columns(settings["columns"])
    from seq2seq.commands.rnn_file import KINDS, split
    for kind in KINDS:                              # FILE.py:CLASS (a class, in Python: as is)
        if isinstance(settings.get(kind.entry), str):
            split(settings[kind.entry], kind)


def check_train_config(config):
    """Every numeric setting of a TrainConfig (or any dataclass with such fields), and none that
    a pairs file would ignore (`check_generating`)."""
    settings = dataclasses.asdict(config)
    check_settings(**settings)
    check_generating(settings, {f.name: f.default for f in dataclasses.fields(config)})


def check_generating(settings, defaults):
    """Refuse, as `train --task FILE --num-examples N` is refused and in its words, a setting
    that generates a built-in task's pairs (train_options.GENERATING) set otherwise than its
    default (`defaults`) when the task is a pairs file, which is read whole: it would be
    ignored. Not on resume: the values are then the run's own, which
    seq2seq.commands.runs.check_resume holds the config to."""
    from seq2seq.commands.train_options import GENERATING, check_pairs_options
    if not settings.get("resume") and isinstance(settings.get("task"), str):
        check_pairs_options(settings["task"], None, None, [
            name for name in GENERATING if name in settings and settings[name] != defaults[name]])


def check_split(n_pairs, n_train, val_fraction):
    """A validation split must leave something to train on."""
    if n_train == 0:
        raise SettingError("val_fraction", message("settings.no_pair_left",
                                                   val_fraction=val_fraction, pairs=n_pairs))


def too_large(settings):
    """The size setting furthest above its usual value, as a hint for an out-of-memory error:
    'is --hidden-size 10000000000 too large?' (or '' if every size is at most its usual value)."""
    ratios = {name: settings[name] / usual for name, usual in SIZE_DEFAULTS.items()
              if isinstance(settings.get(name), int) and settings[name] > usual}
    if not ratios:
        return ""
    name = max(ratios, key=ratios.get)
    return message("settings.too_large", option=name.replace("_", "-"), value=settings[name])
