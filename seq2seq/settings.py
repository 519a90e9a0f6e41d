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

INTEGER_AT_LEAST_1 = dict(low=1, integer=True)
INTEGER_AT_LEAST_0 = dict(low=0, integer=True)

RULES = {
    "embed_size": INTEGER_AT_LEAST_1,
    "hidden_size": INTEGER_AT_LEAST_1,
    "batch_size": INTEGER_AT_LEAST_1,
    "epochs": INTEGER_AT_LEAST_1,               # a run writes its checkpoint after each epoch
    "lr": dict(low=0, low_open=True),
    "lr_decay": dict(low=0, low_open=True, high=1),     # a decay: lr * lr_decay**epoch
    "clip": dict(low=0, low_open=True),
    "val_fraction": dict(low=0, high=1, high_open=True),
    "num_examples": INTEGER_AT_LEAST_1,
    "min_len": INTEGER_AT_LEAST_1,
    "max_len": INTEGER_AT_LEAST_1,
    "teacher_forcing_ratio": dict(low=0, high=1),
    "seed": INTEGER_AT_LEAST_0,                 # NumPy's generators take no negative seed
    "threads": INTEGER_AT_LEAST_1,
    "beam_size": INTEGER_AT_LEAST_1,            # evaluate, translate
    "step": INTEGER_AT_LEAST_0,                 # draw: which output step
}

# The sizes an out-of-memory error may come from, and what they are when nobody changes them.
SIZE_DEFAULTS = {"hidden_size": 256, "embed_size": 16, "batch_size": 128, "num_examples": 20000,
                 "max_len": 100, "beam_size": 1, "threads": 1}


def check_settings(**settings):
    """Check each setting named in RULES (None: not given, the default applies; others are
    ignored). Raises SettingError (a ValueError) or SettingTypeError (a TypeError)."""
    for name, value in settings.items():
        if name in RULES and value is not None:
            check_number(name, value, **RULES[name])


def check_train_config(config):
    """Every numeric setting of a TrainConfig (or any dataclass with such fields)."""
    check_settings(**dataclasses.asdict(config))


def check_split(n_pairs, n_train, val_fraction):
    """A validation split must leave something to train on."""
    if n_train == 0:
        raise SettingError("val_fraction", f"{val_fraction} leaves no pair to train on: all "
                           f"{n_pairs} pairs are held out for validation")


def too_large(settings):
    """The size setting furthest above its usual value, as a hint for an out-of-memory error:
    'is --hidden-size 10000000000 too large?' (or '' if every size is at most its usual value)."""
    ratios = {name: settings[name] / usual for name, usual in SIZE_DEFAULTS.items()
              if isinstance(settings.get(name), int) and settings[name] > usual}
    if not ratios:
        return ""
    name = max(ratios, key=ratios.get)
    return f"is --{name.replace('_', '-')} {settings[name]} too large?"
