"""A checkpoint's history, epoch by epoch, and against the rest of the checkpoint.

    "history":  [{"epoch": 1, "loss": float, ...}, ...]   epochs 1, 2, ... in order, every number
                finite and one a float holds: report.json is written from it, and JSON has no NaN;
                blank_outputs <= examples, and examples the split's validation pairs
    "epochs":   int >= 0, the epochs trained: as many as the history holds (older checkpoints
                have no such entry); the optimizer's steps agree as well: none before the first
                epoch, at least one an epoch after it, and, where the steps an epoch takes are
                known, no more than the history's epochs take (`check_steps_cover_history`)
"""

import math

from seq2seq.commands.entry_error import EntryError, list_of
from seq2seq.commands.messages import message


def check_history(state):
    """The checkpoint's history checked record by record, then against the other entries."""
    _history(state["history"])
    _history_agrees(state)


# An epoch's record as `train` writes it: what the numbers must be, key by key; a record may
# leave out the validation scores (no validation pairs), and `changed` ({option: [old, new]})
# is there on the first epoch of a resumed run that changed an option.
SCORES = ("exact_match", "token_accuracy", "bleu")          # in [0, 1]
COUNTS = ("examples", "blank_outputs")                      # whole numbers >= 0
BLEU_TOKENS = ("char", "13a")


def _history(value):
    """Each epoch's record: its number (1, 2, ... in order), a finite loss >= 0, scores in
    [0, 1], counts >= 0, and nothing that JSON cannot hold (NaN, infinity, an array)."""
    list_of(value, "history", dict, message("expect.epochs_dicts"))
    for i, record in enumerate(value):
        where = f"history[{i}]"
        epoch = record.get("epoch")
        if isinstance(epoch, bool) or epoch != i + 1 or not isinstance(epoch, int):
            raise EntryError(f"{where}.epoch", message("expect.epoch", number=i + 1), epoch)
        if "loss" not in record:
            raise EntryError.missing(f"{where}.loss")
        for key, item in record.items():
            if key == "loss":
                _number(item, f"{where}.loss", message("expect.loss"), 0, math.inf)
            elif key in SCORES:
                _number(item, f"{where}.{key}", message("expect.score"), 0, 1)
            elif key in COUNTS:
                if isinstance(item, bool) or not isinstance(item, int) or item < 0:
                    raise EntryError(f"{where}.{key}", message("expect.count"), item)
            elif key == "bleu_tokens" and item not in BLEU_TOKENS:
                raise EntryError(f"{where}.{key}", message("expect.bleu_tokens"), item)
            elif key != "epoch":
                _plain(item, f"{where}.{key}")


def _history_agrees(state):
    """The history against the rest of the checkpoint: as many epochs as the checkpoint says it
    trained (its `epochs` entry, its optimizer's step count), and each epoch's counts with each
    other and with the split. `train --resume` starts after the last epoch of the history, so a
    history emptied or cut short would train the saved weights again from epoch 1."""
    history = state["history"]
    epochs = state.get("epochs")
    if epochs is not None:
        if isinstance(epochs, bool) or not isinstance(epochs, int) or epochs < 0:
            raise EntryError("epochs", message("expect.epochs"), epochs)
        if epochs != len(history):
            raise EntryError("history", message("expect.epochs_long", epochs=epochs), None,
                             f"{len(history)}")
    steps = _optimizer_steps(state.get("optimizer"))
    if steps is not None and (steps < len(history) or (steps > 0 and not history)):
        wanted = (message("expect.one_epoch", steps=steps) if not history
                  else message("expect.at_most_epochs", steps=steps))
        raise EntryError("history", wanted, None, f"{len(history)}")
    check_steps_cover_history(state, _built_in_training_pairs(state))
    split = state.get("split")
    val_pairs = split.get("val_pairs") if isinstance(split, dict) else None
    for i, record in enumerate(history):
        examples, blank = record.get("examples"), record.get("blank_outputs")
        if isinstance(val_pairs, list) and examples is not None and examples != len(val_pairs):
            raise EntryError(f"history[{i}].examples", message("expect.examples",
                                                               count=len(val_pairs)), examples)
        if blank is not None and (examples is None or blank > examples):
            raise EntryError(f"history[{i}].blank_outputs", message("expect.blank",
                                                                    examples=examples), blank)


MOST_STEPS = 2 ** 53                    # an optimizer's step count, as minigrad.optim checks it


def check_steps_cover_history(state, training_pairs):
    """A history cut short, told from the optimizer's step count where the `epochs` entry is
    missing (older checkpoints) or agrees with the cut: an epoch takes ceil(training_pairs /
    batch_size) steps, so the steps taken need at least steps / that many epochs. The batch size
    is the smallest the run used (config.batch_size, and those a resume changed, recorded in
    the history's `changed`), which makes the bound safe. `training_pairs`: None when unknown
    (a pairs file, before it is read again on resume), and nothing is checked."""
    history, steps = state["history"], _optimizer_steps(state.get("optimizer"))
    batch_sizes = [_whole(state.get("config", {}).get("batch_size"))]
    for record in history:
        changed = record.get("changed")
        was = changed.get("batch_size") if isinstance(changed, dict) else None
        if was is not None:
            batch_sizes.append(_whole(was[0]) if isinstance(was, list) and was else None)
    if steps is None or steps > MOST_STEPS or not training_pairs or not all(batch_sizes):
        return                          # a count beyond: the optimizer's own check names it
    most_an_epoch = -(-training_pairs // min(batch_sizes))
    needed = -(-steps // most_an_epoch)
    if len(history) < needed:
        raise EntryError("history", message("expect.at_least_epochs", needed=needed,
                                            steps=steps, most=most_an_epoch), None,
                         f"{len(history)}")


def check_resumed_steps(file, state, training_pairs):
    """check_steps_cover_history once a resumed run has read its pairs again and knows how many
    it trains on (a pairs file's count is not in the checkpoint); a refusal names `file`."""
    try:
        check_steps_cover_history(state, training_pairs)
    except EntryError as error:
        raise ValueError(message("checkpoint.cannot_load", file=file, problem=error)) from None


def _built_in_training_pairs(state):
    """How many pairs a run on a built-in task trained on: the pairs it generated
    (config.num_examples) less the validation pairs its split recorded; None otherwise."""
    from seq2seq.data.tasks import TASKS
    config, split = state.get("config"), state.get("split")
    if not isinstance(config, dict) or config.get("task") not in TASKS:
        return None
    count = _whole(config.get("num_examples"))
    if count is None or not isinstance(split, dict) or not isinstance(
            split.get("val_pairs"), list):
        return None
    return count - len(split["val_pairs"]) if count > len(split["val_pairs"]) else None


def _whole(value):
    """value if it is a whole number >= 1, else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 1 \
        else None


def _optimizer_steps(optimizer):
    """The most steps any parameter took, by the optimizer's state (0 when it holds none), or
    None when the state records no steps (an optimizer without them)."""
    if not isinstance(optimizer, dict) or not isinstance(optimizer.get("state"), dict):
        return None
    steps = [entry.get("step") for entry in optimizer["state"].values()
             if isinstance(entry, dict)]
    if not optimizer["state"]:
        return 0
    if not steps or not all(isinstance(s, int) and not isinstance(s, bool) for s in steps):
        return None
    return max(steps)


def _number(value, entry, expected, low, high):
    """A number in [low, high] that a float holds (an int such as 10**400 does not)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise EntryError(entry, expected, value)
    try:
        number = float(value)
    except OverflowError:
        raise EntryError(entry, expected, value) from None
    if not math.isfinite(number) or not low <= number <= high:
        raise EntryError(entry, expected, value)


def _plain(value, entry):
    """Nothing in `value` but what JSON holds as it is: str, finite numbers, True, False,
    None, lists and dicts with str keys (iteratively: no deep stack)."""
    todo = [(entry, value)]
    while todo:
        where, item = todo.pop()
        if isinstance(item, dict):
            if not all(isinstance(key, str) for key in item):
                raise EntryError(where, message("expect.str_keys"), item)
            todo += [(f"{where}.{key}", v) for key, v in item.items()]
        elif isinstance(item, list):
            todo += [(f"{where}[{i}]", v) for i, v in enumerate(item)]
        elif isinstance(item, float) and not math.isfinite(item):
            raise EntryError(where, message("expect.finite_number"), item)
        elif item is not None and not isinstance(item, (str, int, float)):
            raise EntryError(where, message("expect.json"), item)
