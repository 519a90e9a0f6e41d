"""Graders for the coursework (docs/coursework.md): run your solution, compare it with the
stored right answers.

    python -m minigrad.grade gru_cell my_gru.py   # also: layer_norm, logsumexp, layer_norm_op

or from Python:

    from minigrad.grade import grade
    print(grade("gru_cell", "my_gru.py"))               # raises SolutionFailed with what is wrong

exercises   what each exercise asks for, and the inputs it is checked on
expected    the right answers, stored in expected.npz (made by the reference solutions, which
            are in the project's tests, tests/reference/, not in this package)
grader      the machinery, shared with `attention.grade` and `seq2seq.grade`: the verdict
requests    what the grader sends the graded code's process: the cases, never the answers
process     the graded code's own process: started, given the cases, its results read back
child       what runs in that process: the student's file loaded and guarded, results written
audit       the guard there: what the graded code may not open, start, write or replace
trusted     there, the code the guard trusts: minigrad's own code objects, not their file names
torch_files there, torch's file functions checked as open() is (stored: read without running)
paths       there, each path read as the call read it (no path object that answers twice)
threads     there, every thread watched, those started when the student's file was imported too
run_cases   there, the student's function on every case: outputs, gradients, finite differences
solution    the student's file: loading it, calling it
compare     the student's results against the expected ones: the element off, the case
answers     a solution that runs the project's own version of the piece is refused
by_hand     a backward that runs its own forward again (finite differences) is refused
diagnose    where a wrong solution goes wrong (student_code: the lines of yours that made what)
layer_norm_mistakes  the known mistakes of layer_norm_op's backward, named by their numbers
"""

import importlib

from minigrad.grade import grader
from minigrad.grade.grader import SolutionFailed

__all__ = ["grade", "case_inputs", "SolutionFailed", "EXERCISES"]


def __getattr__(name):
    """EXERCISES is imported when first asked for, not with the package: the graded code's
    process imports this package's machinery, and needs none of the exercises."""
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
