"""A checkpoint's `config` entry, the training settings it was saved with, checked field by field
as the options would check them, before any command uses it.

`evaluate`, `translate`, `draw` and `explore` read these settings, and `train --resume` takes
every one not written again on its command line; a checkpoint may come from someone else. So a
value no option could have given is refused here, naming the entry ("config.fused"), rather
than taken: "yes" is not true, and a run resumed with it would train and save a checkpoint that
no command could load again.

    each field of TrainConfig   of its type: bool fields true or false (not 0 or "yes"), str
                                fields a str, numbers as settings.RULES says (an int where an
                                int belongs), None only where the field may be None
    arch, attention, wiring,    one of settings.CHOICES, the lists the options offer
    level, norm, positions
    sep, columns, rnn, block    sep not empty, columns "S,T" as --columns parses them, rnn
                                and block FILE.py:CLASS; with a built-in task, sep a tab and
                                columns None (train refuses --sep and --columns there)
    level                       the token level the checkpoint's 'level' entry records
                                (None: the task's own; `check_level`)
    the other model's fields    an LSTM run saves the Transformer's as None; a Transformer run
                                saves the LSTM's at their values when not written
                                (arch.LSTM_ONLY): nothing else
    sizes and choices that      an LSTM's embed_size, hidden_size, attention, wiring,
    model_config also records   bidirectional; a Transformer's d_model, heads, layers,
                                d_ff, dropout, norm, positions: the same in both
                                (`check_agrees`, once model_config is known to fit the weights)

A key TrainConfig does not have is accepted (a later version may add settings) and never used:
train_options.resumed_config takes only TrainConfig's fields. A field that is missing is one an
older version did not save; the command's own default applies.
"""

import dataclasses
import typing

from minigrad.settings import SettingError, SettingTypeError, check_number
from seq2seq.commands.entry_error import EntryError
from seq2seq.commands.messages import message
from seq2seq.commands.settings import CHOICES, RULES
from seq2seq.data.vocab import control_character

# What each model records in its model_config that the config records too, and that decides its
# weights or what they compute. Not fused: the fused and the composed LSTM hold the same weights,
# and a resume with --composed rebuilds the model (train.load_run).
SHARED = {"lstm": ("embed_size", "hidden_size", "attention", "wiring", "bidirectional"),
          "transformer": ("d_model", "heads", "layers", "d_ff", "dropout", "norm", "positions")}


def check_config_entry(config, model_config):
    """Raise EntryError for the first field of the saved `config` (a dict) that no run could
    have saved; `model_config`: the checkpoint's, checked on its own elsewhere. The values both
    record are compared by `check_agrees`, once model_config is known to be right."""
    from seq2seq.commands.train import TrainConfig
    if not isinstance(config, dict):
        raise EntryError("config", message("expect.settings"), config)
    fields = {f.name: f for f in dataclasses.fields(TrainConfig)}
    for name, found in config.items():
        if name in fields:
            _field(name, found, fields[name].type)
    _pairs(config)
    _arch(config, model_config)
    _other_model(config)


def _field(name, found, annotation):
    """One field: its type (`annotation`, TrainConfig's: `int`, `str | None`, ...), its rule or
    its choices."""
    kinds = typing.get_args(annotation) or (annotation,)
    if found is None:
        if type(None) not in kinds:
            raise EntryError(f"config.{name}", message("expect.not_none", type=kinds[0].__name__),
                             found)
        return
    if bool in kinds:
        if not isinstance(found, bool):
            raise EntryError(f"config.{name}", message("expect.flag"), found)
    elif str in kinds:
        if not isinstance(found, str) or control_character(found) is not None:
            optional = "_or_none" if type(None) in kinds else ""
            raise EntryError(f"config.{name}", message("expect.plain_str" + optional), found)
        if name in CHOICES and found not in CHOICES[name]:
            raise EntryError(f"config.{name}", message(
                "expect.one_of" + ("_or_none" if type(None) in kinds else ""),
                choices=", ".join(map(repr, CHOICES[name]))), found)
    elif name in RULES:
        try:
            check_number(name, found, **RULES[name])
        except (SettingError, SettingTypeError):
            raise EntryError(f"config.{name}", _wanted(RULES[name]), found) from None
    else:                                   # a number without a rule: none today
        raise EntryError(f"config.{name}", message("expect.known"), found)


def _wanted(rule):
    """What a setting's rule wants, in the words check_number uses ("an integer in [1, 100000]"),
    made from the rule rather than cut out of the error's text, which is in either language."""
    from minigrad.messages import message as minigrad_message
    from minigrad.settings import _range
    kind = minigrad_message("setting.integer" if rule.get("integer") else "setting.number")
    bounds = _range(rule.get("low"), rule.get("high"), rule.get("low_open", False),
                    rule.get("high_open", False))
    return minigrad_message("setting.wanted", kind=kind, range=bounds) if bounds else kind


def _pairs(config):
    """sep, columns, rnn and block as their options take them; min_len no more than max_len."""
    from seq2seq.commands.rnn_file import KINDS, RnnFileError, split
    from seq2seq.data.corpus import parse_columns
    from seq2seq.data.tasks import TASKS
    if config.get("sep") == "":
        raise EntryError("config.sep", message("expect.sep"), "")
    if config.get("columns") is not None:
        try:
            parse_columns(config["columns"])
        except SettingError:
            raise EntryError("config.columns", message("expect.columns"),
                             config["columns"]) from None
    task = config.get("task")
    if isinstance(task, str) and task in TASKS:     # train refuses --sep, --columns on them
        if config.get("sep", "\t") != "\t":
            raise EntryError("config.sep", message("expect.tab", task=task), config["sep"])
        if config.get("columns") is not None:
            raise EntryError("config.columns", message("expect.no_columns", task=task),
                             config["columns"])
    for kind in KINDS:
        if config.get(kind.entry) is not None:
            try:
                split(config[kind.entry], kind)
            except RnnFileError:
                raise EntryError(f"config.{kind.entry}", message("expect.layer_spec"),
                                 config[kind.entry]) from None
    low, high = config.get("min_len"), config.get("max_len")
    if low is not None and high is not None and low > high:
        raise EntryError("config.min_len", message("expect.min_len", high=high), low)


def _other_model(config):
    """The fields of the model a run did not train at what such a run saves (arch.py)."""
    from seq2seq.commands.arch import LSTM_ONLY, TRANSFORMER_ONLY
    arch = config.get("arch", "lstm")
    if arch == "lstm":
        for name in TRANSFORMER_ONLY:
            if config.get(name) is not None:
                raise EntryError(f"config.{name}", message("expect.transformer_setting"),
                                 config[name])
        return
    for name, usual in LSTM_ONLY.items():
        if name in config and config[name] != usual:
            raise EntryError(f"config.{name}", message("expect.lstm_setting", usual=repr(usual)),
                             config[name])
    d_model, heads = config.get("d_model"), config.get("heads")
    if d_model is not None and heads is not None and d_model % heads:
        raise EntryError("config.heads", message("expect.divisor", d_model=d_model), heads)
    if config.get("warmup") and config.get("lr_decay", 1.0) != 1:
        raise EntryError("config.lr_decay", message("expect.one_schedule"), config["lr_decay"])


def _arch(config, model_config):
    """The arch of the model model_config describes (a Transformer's holds its own settings:
    arch.describes_transformer). A missing arch is an older run's, an LSTM's: with a
    Transformer's model_config, it is named as missing, not blamed for the default."""
    from seq2seq.commands.arch import describes_transformer
    if not isinstance(model_config, dict):
        return                              # refused as the model_config entry's own fault
    built = "transformer" if describes_transformer(model_config) else "lstm"
    if "arch" not in config and built == "transformer":
        raise EntryError.missing("config.arch", message("expect.arch_why"))
    arch = config.get("arch", "lstm")
    if arch != built:
        raise EntryError("config.arch", message("expect.arch_built", built=repr(built)), arch)


def check_level(config, level):
    """config.level (None: the task's own) the token level the checkpoint's 'level' entry
    records, which the model was built at: a resume would otherwise take it for a --level."""
    from seq2seq.data.tasks import TASKS, task_level
    task = config.get("task")
    own = task_level(task) if isinstance(task, str) and task in TASKS else "char"
    if (config.get("level") or own) != level:
        raise EntryError("config.level", message(
            "expect.level_or_none" if own == level else "expect.level", level=repr(level)),
            config.get("level"))


def check_agrees(config, model_config):
    """The settings both entries record, equal: the model was built from the config's. Called
    once model_config is known to fit the weights, so that a model_config changed alone is
    blamed on model_config."""
    arch = config.get("arch", "lstm")
    for name in SHARED[arch]:
        if name in config and name in model_config and config[name] != model_config[name]:
            raise EntryError(f"config.{name}", message(
                "expect.as_model_config", value=repr(model_config[name])), config[name])
