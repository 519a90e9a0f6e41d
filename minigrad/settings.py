"""Checking numeric settings: one helper, so every learning rate, size and count is refused the
same way, with the setting's name and the range it must be in.

    check_number("lr", lr, low=0, low_open=True, where="SGD")
        ->  ValueError: SGD: lr must be a finite number > 0, got nan

Why a helper and not `if lr <= 0: raise ...`: every comparison with NaN is False, so such a test
lets NaN through, and NaN then turns every weight into NaN without a word. A string fails
inside the comparison with a message about '<' that names neither the setting nor the layer.
Here NaN and infinity are refused first, and a value of the wrong type is a TypeError that says
what was expected.

The error is a `SettingError` (a ValueError) or a `SettingTypeError` (a TypeError) that keeps
the setting's name, so a command line can show it as its option: `error.as_option()` gives
"--lr must be a finite number > 0, got nan".
"""

import math
import numbers

from minigrad.messages import message


class SettingError(ValueError):
    """A setting out of its range. `name` is the setting as the API spells it (`hidden_size`),
    `where` the layer or function it belongs to (or None)."""

    def __init__(self, name, problem, where=None):
        self.name, self.problem, self.where = name, problem, where
        super().__init__(f"{where}: {name} {problem}" if where else f"{name} {problem}")

    def as_option(self):
        """The message with the setting written as a command-line option: '--hidden-size ...'.
        Errors that belong to a layer (`where` set) are left as they are."""
        if self.where or self.name.startswith("-"):
            return str(self)
        return f"--{self.name.replace('_', '-')} {self.problem}"


class SettingTypeError(SettingError, TypeError):
    """A setting of the wrong type (a string where a number belongs)."""


def check_number(name, value, *, low=None, high=None, low_open=False, high_open=False,
                 integer=False, where=None, why=None, why_high=None):
    """Return `value` if it is a finite number (an integer, with integer=True) in the range
    low ... high; otherwise raise SettingTypeError / SettingError naming `name`.

    low, high            the bounds (None: unbounded on that side)
    low_open, high_open  whether the bound itself is excluded (lr > 0 is low=0, low_open=True)
    where                the layer or function, put in front of the message ("LSTM: ...")
    why                  the reason for the bounds, added to the message of a value outside them
    why_high             the reason for the upper bound, added only to a value above it
    """
    kind = message("setting.integer" if integer else "setting.number")
    bounds = _range(low, high, low_open, high_open)
    wanted = message("setting.wanted", kind=kind, range=bounds) if bounds else kind
    expected_type = numbers.Integral if integer else numbers.Real
    if isinstance(value, bool) or not isinstance(value, expected_type):
        raise SettingTypeError(name, message("setting.wrong_type", wanted=wanted, value=repr(value),
                                             type=type(value).__name__), where)
    if not integer and not _finite(value):
        shown = (message("setting.big_int", bits=value.bit_length()) if isinstance(value, int)
                 else value)
        raise SettingError(name, message("setting.out_of_range", wanted=wanted, value=shown,
                                         reason=""), where)
    too_low = low is not None and (value <= low if low_open else value < low)
    too_high = high is not None and (value >= high if high_open else value > high)
    if too_low or too_high:
        reason = why or (why_high if too_high else None)
        reason = f" ({reason})" if reason else ""
        raise SettingError(name, message("setting.out_of_range", wanted=wanted, value=value,
                                         reason=reason), where)
    return value


def _finite(value):
    """math.isfinite, with an int too large for a float (10**400) not finite as a float."""
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def _range(low, high, low_open, high_open):
    """'> 0', '>= 1', '<= 1', 'in [0, 1)' or '' for no bounds."""
    if low is not None and high is not None:
        return message("setting.between", interval=f"{'(' if low_open else '['}{low}, {high}"
                                                   f"{')' if high_open else ']'}")
    if low is not None:
        return f"{'>' if low_open else '>='} {low}"
    if high is not None:
        return f"{'<' if high_open else '<='} {high}"
    return ""
