"""Checkers for the attention coursework (docs/coursework.md), built on minigrad.check's
machinery:

    python -m attention.check general_attention my_attention.py      # also: multi_head

exercises   what each exercise asks for, and the inputs it is checked on
reference   the reference solutions (a valid solution file for both exercises)
"""

from minigrad.check import checker
from minigrad.check.checker import CheckFailure
from attention.check.exercises import EXERCISES

__all__ = ["check", "case_inputs", "CheckFailure", "EXERCISES"]


def check(exercise, path):
    """Check the file at `path` for `exercise`: the 'passed: ...' line, or CheckFailure."""
    return checker.check(EXERCISES, exercise, path)


def case_inputs(exercise, number):
    """(arrays by argument name, settings) of case `number` (from 1), for a debugger."""
    return checker.case_inputs(EXERCISES, exercise, number)
