"""Checkers for the coursework (docs/coursework.md): run your solution against the reference.

    python -m minigrad.check gru_cell my_gru.py        # also: layer_norm, logsumexp

or from Python:

    from minigrad.check import check
    print(check("gru_cell", "my_gru.py"))               # raises CheckFailure with what is wrong

exercises   what each exercise asks for, and the inputs it is checked on
reference   the reference solutions (a valid solution file for every exercise)
checker     the machinery, shared with `attention.check` and `seq2seq.check`
"""

from minigrad.check import checker
from minigrad.check.checker import CheckFailure
from minigrad.check.exercises import EXERCISES

__all__ = ["check", "case_inputs", "CheckFailure", "EXERCISES"]


def check(exercise, path):
    """Check the file at `path` for `exercise`: the 'passed: ...' line, or CheckFailure."""
    return checker.check(EXERCISES, exercise, path)


def case_inputs(exercise, number):
    """(arrays by argument name, settings) of case `number` (from 1): the inputs a failure
    message names, to reproduce it in a debugger."""
    return checker.case_inputs(EXERCISES, exercise, number)
