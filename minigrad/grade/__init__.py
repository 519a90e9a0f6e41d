"""Graders for the coursework (docs/coursework.md): run your solution against the reference.

    python -m minigrad.grade gru_cell my_gru.py        # also: layer_norm, logsumexp

or from Python:

    from minigrad.grade import grade
    print(grade("gru_cell", "my_gru.py"))               # raises SolutionFailed with what is wrong

exercises   what each exercise asks for, and the inputs it is checked on
reference   the reference solutions (what the grader compares with; never run as a solution)
grader      the machinery, shared with `attention.grade` and `seq2seq.grade`: the verdict
process     the graded code's own process: started, given the cases, its results read back
child       what runs in that process: the student's file loaded and guarded, results written
run_cases   there, the student's function on every case: outputs, gradients, finite differences
solution    the student's file: loading it, calling it
compare     the student's results against the reference's: the element off, the case
answers     a solution that runs the reference (or the project's own version) is refused
diagnose    where a wrong solution goes wrong (student_code: the lines of yours that made what)
"""

import importlib

from minigrad.grade import grader
from minigrad.grade.grader import SolutionFailed

__all__ = ["grade", "case_inputs", "SolutionFailed", "EXERCISES"]


def __getattr__(name):
    """EXERCISES (and with it the reference) is imported when first asked for, not with the
    package: the graded code's process imports this package's machinery, and must not find
    the reference already loaded there."""
    if name == "EXERCISES":
        return importlib.import_module("minigrad.grade.exercises").EXERCISES
    raise AttributeError(f"module 'minigrad.grade' has no attribute {name!r}")


def grade(exercise, path):
    """Grade the file at `path` for `exercise`: the 'passed: ...' line, or SolutionFailed."""
    return grader.grade(__getattr__("EXERCISES"), exercise, path)


def case_inputs(exercise, number):
    """(arrays by argument name, settings) of case `number` (from 1): the inputs a failure
    message names, to reproduce it in a debugger."""
    return grader.case_inputs(__getattr__("EXERCISES"), exercise, number)
