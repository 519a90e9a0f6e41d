"""minigrad.settings.check_number: NaN, infinity, wrong types and values out of range are refused
with the setting's name and the range it must be in; seq2seq's settings use it for every
subcommand and for train()."""

import math

import numpy as np
import pytest

from minigrad.settings import SettingError, SettingTypeError, check_number
from seq2seq.commands.settings import check_settings, check_split, too_large


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf"), np.float32("nan")])
def test_non_finite_numbers_are_refused_although_every_comparison_with_nan_is_false(value):
    with pytest.raises(SettingError, match=r"^lr must be a finite number > 0, got -?(nan|inf)$"):
        check_number("lr", value, low=0, low_open=True)


@pytest.mark.parametrize("kwargs, value, message", [
    (dict(low=0, low_open=True), 0.0, "must be a finite number > 0, got 0.0"),
    (dict(low=0), -1e-9, "must be a finite number >= 0, got -1e-09"),
    (dict(low=0, high=1, high_open=True), 1.0, "must be a finite number in [0, 1), got 1.0"),
    (dict(low=0, low_open=True, high=1), 1.5, "must be a finite number in (0, 1], got 1.5"),
    (dict(high=1, high_open=True), 1, "must be a finite number < 1, got 1"),
    (dict(low=1, integer=True), 0, "must be an integer >= 1, got 0"),
])
def test_values_out_of_range_name_the_range(kwargs, value, message):
    with pytest.raises(SettingError) as error:
        check_number("x", value, **kwargs)
    assert str(error.value) == f"x {message}"


@pytest.mark.parametrize("kwargs, value", [
    (dict(low=0), 0), (dict(low=0, low_open=True), 1e-300), (dict(low=0, high=1), 1.0),
    (dict(low=1, integer=True), np.int64(3)), (dict(), -math.pi), (dict(low=0), np.float32(2)),
])
def test_values_in_range_come_back_unchanged(kwargs, value):
    assert check_number("x", value, **kwargs) is value


@pytest.mark.parametrize("value, integer", [("0.1", False), (None, False), (True, False),
                                            ([0.1], False), (2.0, True), (np.float64(3), True)])
def test_wrong_types_are_a_type_error_naming_the_setting_and_the_type(value, integer):
    with pytest.raises(TypeError) as error:
        check_number("lr", value, low=0, integer=integer, where="SGD")
    assert isinstance(error.value, SettingTypeError)
    message = str(error.value)
    assert message.startswith("SGD: lr must be") and type(value).__name__ in message


def test_a_setting_error_is_shown_as_its_option_on_the_command_line():
    error = SettingError("val_fraction", "must be a finite number in [0, 1), got 1.0")
    assert error.as_option() == "--val-fraction must be a finite number in [0, 1), got 1.0"
    layer = SettingError("hidden_size", "must be an integer >= 1, got 0", where="LSTM")
    assert layer.as_option() == str(layer) == "LSTM: hidden_size must be an integer >= 1, got 0"


# ---- seq2seq's rules ------------------------------------------------------------------------

@pytest.mark.parametrize("name, value, message", [
    ("lr", float("nan"), "lr must be a finite number > 0, got nan"),
    ("lr_decay", 1.5, "lr_decay must be a finite number in (0, 1], got 1.5"),
    ("clip", float("inf"), "clip must be a finite number > 0, got inf"),
    ("epochs", 0, "epochs must be an integer in [1, 100000], got 0"),
    ("beam_size", 0, "beam_size must be an integer in [1, 100], got 0"),
    ("step", -2, "step must be an integer in [0, 2009], got -2"),
    ("seed", -1, "seed must be an integer >= 0, got -1"),
    ("teacher_forcing_ratio", float("nan"), "teacher_forcing_ratio must be a finite number in"),
])
def test_seq2seq_rules(name, value, message):
    with pytest.raises(SettingError, match=message.replace("(", r"\(").replace("[", r"\[")):
        check_settings(**{name: value})


def test_seq2seq_check_skips_unset_and_unknown_settings():
    check_settings(epochs=1, max_len=None, out="runs/x", attention=None, lr=1e-3)


def test_a_split_that_leaves_nothing_to_train_on_names_the_counts():
    check_split(20, 1, 0.95)
    with pytest.raises(SettingError) as error:
        check_split(20, 0, 0.99)
    assert error.value.as_option() == ("--val-fraction 0.99 leaves no pair to train on: all 20 "
                                       "pairs are held out for validation")


def test_the_memory_hint_names_the_size_furthest_above_its_usual_value():
    assert too_large({"hidden_size": 10**10, "num_examples": 10**6, "beam_size": 1}) == (
        "is --hidden-size 10000000000 too large?")
    assert too_large({"hidden_size": 256, "num_examples": 100, "out": "x"}) == ""
