"""Graders for the attention coursework (docs/coursework.md), built on minigrad.grade's
machinery:

    python -m attention.grade general_attention my_attention.py  # also: multi_head, encoder_block

exercises   what each exercise asks for, and the inputs it is checked on
encoder_block  the encoder block's cases, and its diagnosis: a residual left out, a layer norm
              in the other order's place
expected.npz  the right answers, stored (made by the reference solutions, which are in the
              project's tests, tests/reference/attention_reference.py, not in this package)
"""

from minigrad.grade import grader
from minigrad.grade.grader import SolutionFailed
from attention.grade.exercises import EXERCISES

__all__ = ["grade", "case_inputs", "SolutionFailed", "EXERCISES"]


def grade(exercise, path):
    """Grade the file at `path` for `exercise`: the 'passed: ...' line, or SolutionFailed."""
    return grader.grade(EXERCISES, exercise, path)


def case_inputs(exercise, number):
    """(arrays by argument name, settings) of case `number` (from 1), for a debugger."""
    return grader.case_inputs(EXERCISES, exercise, number)
