"""The grader's machinery: load a student's file by its path, run their code and the reference
on the same random inputs, and say exactly what differs.

An exercise that asks for a function of tensors (`function_exercise`) is checked case by case.
For each case:

1. the student's function and the reference run on fresh float64 tensors holding the same
   numbers;
2. every output is compared, element by element;
3. the same random upstream gradient is sent back through both, and the gradient of every
   input is compared;
4. `minigrad.gradcheck` compares the student's gradients with finite differences.

The first difference stops the grading with a `SolutionFailed` whose message names the exercise,
the case and its input shapes, the output or the gradient that is wrong, the element, both
values, and how many elements are off; and, from `diagnose`, where in the student's code to look
(the first named intermediate that differs, a cut graph). `case_inputs` hands the same inputs
back, for a debugger.

A solution that runs the exercise's answer (the reference, or the project's own version of
the piece) fails, whatever it computes: see `answers`. Loading and calling the student's code
is in `solution`; comparing arrays and writing what differs, in `compare`.

Other packages (attention, seq2seq) build their graders from these same pieces.
"""

import argparse
import sys
from dataclasses import dataclass, field

import numpy as np

from minigrad.command import Parser, add_debug_option, debug_wanted, run
from minigrad.gradcheck import GradcheckError, gradcheck, send_back
from minigrad.grade import diagnose
from minigrad.grade.compare import as_outputs, compare_arrays, describe, difference
from minigrad.grade.solution import (
    SolutionFailed,
    call,
    error_text,
    load_solution,
    refusing_answers,
    require,
)
from minigrad.tensor import Tensor


@dataclass
class Case:
    """One set of inputs. `arrays`: the tensors' values, in argument order, by argument name
    (each becomes a float64 tensor that requires grad); `settings`: keyword arguments passed as
    they are (eps, axis, num_heads, a mask)."""
    label: str
    arrays: dict
    settings: dict = field(default_factory=dict)


@dataclass
class Exercise:
    """What a student's file must define and how it is checked.
    run(solution, exercise) checks the loaded module and returns a one-line summary, or raises
    SolutionFailed. `answers`: modules, functions, classes whose code the solution may not run
    (the reference, the project's own version; see minigrad.grade.answers)."""
    name: str
    title: str
    defines: str                    # the function (or class) the file must define
    signature: str
    run: object
    cases: object = None            # () -> list of Case, for case_inputs
    answers: tuple = ()


# ---- A function of tensors, checked against a reference -------------------------------------

def tensors(case):
    """Fresh float64 leaves named after their arguments."""
    return [Tensor(np.array(a, dtype=np.float64), requires_grad=True, name=name)
            for name, a in case.arrays.items()]


def function_exercise(name, title, defines, signature, reference, cases, outputs,
                      atol=1e-8, rtol=1e-6, extra=None, package="minigrad.grade", answers=(),
                      intermediates=(), parts=None):
    """An Exercise for a function of tensors: `reference(*tensors, **settings)` gives the right
    outputs (named by `outputs`) and gradients; `cases()` lists the inputs. `extra(solution,
    fn, case, where, outputs)` may add checks of its own (raising SolutionFailed); `answers`
    what the solution may not run (Exercise). For the diagnosis (diagnose.py):
    `intermediates`, ((local name, what it is), ...) in the formulas' order, are compared when
    an output is wrong; `parts`, {input name: (block names)}, names the blocks of a stacked
    weight that a cut graph may starve."""

    def run(solution, exercise):
        fn = require(solution, exercise)
        path = getattr(solution, "__file__", None)
        all_cases = cases()
        for number, case in enumerate(all_cases, 1):
            try:
                grade_case(exercise, solution, fn, path, case, number, len(all_cases))
            except SolutionFailed as failure:
                raise SolutionFailed(f"{failure}\n  to get these inputs: from {package} import "
                                     f"case_inputs; case_inputs({name!r}, {number})") from None
        return (f"{name}: {len(all_cases)} cases; the outputs ({', '.join(outputs)}) and the "
                f"gradients with respect to {', '.join(case_names(all_cases))} agree with the "
                f"reference, and your gradients with finite differences")

    def grade_case(exercise, solution, fn, path, case, number, total):
        where = describe(case, number, total)
        inputs, reference_inputs = tensors(case), tensors(case)
        names = [local for local, _ in intermediates]
        kept = {}

        def keeping(*args, **settings):                 # fn, its locals `names` kept
            result, found = diagnose.keeping_locals(lambda: fn(*args, **settings), fn, names)
            kept.update(found)
            return result

        with diagnose.StudentLines(path) as lines:
            result = call(exercise, keeping, inputs, case.settings, where, path)
        mine = as_outputs(result, exercise, outputs, where)
        expected, reference_kept = diagnose.keeping_locals(
            lambda: reference(*reference_inputs, **case.settings), reference, names)
        expected = expected if isinstance(expected, tuple) else (expected,)
        for out_name, got, want in zip(outputs, mine, expected):
            try:
                compare_arrays(f"{name}: the output {out_name}", got.data, want.data, where,
                               atol, rtol)
            except SolutionFailed as failure:
                more = diagnose.after_wrong_output(got, intermediates, kept, reference_kept,
                                                   lines, lambda a, b: difference(a, b, atol, rtol))
                raise SolutionFailed("\n  ".join([str(failure)] + more)) from None
        if extra is not None:
            extra(solution, fn, case, where, mine)
        compare_gradients(exercise, where, (inputs, mine), (reference_inputs, expected),
                          outputs, path, number, atol, rtol,
                          diagnosis=(solution, lines, parts or {}))
        run_gradcheck(exercise, fn, case, where, path)

    return Exercise(name, title, defines, signature, run, cases, answers)


def case_names(cases):
    names = []
    for case in cases:
        names += [n for n in case.arrays if n not in names]
    return names


def compare_gradients(exercise, where, student, reference, outputs, path, number, atol, rtol,
                      diagnosis=None):
    """Send one random upstream gradient back through the student's outputs and the
    reference's (each given as (inputs, outputs)); compare the gradient of every input.
    `diagnosis`, (the student's module, their StudentLines, parts), lets a failure say more: a
    cut graph, or whose backward to look at."""
    inputs, mine = student
    reference_inputs, expected = reference
    solution, lines, parts = diagnosis or (None, diagnose.StudentLines(None), {})
    upstream = [np.random.default_rng(number).standard_normal(out.shape) for out in mine]
    for out_name, out in zip(outputs, mine):
        if not out.requires_grad:
            raise SolutionFailed(f"{exercise.name}: the output {out_name} is not connected to the "
                                 f"inputs (it does not require grad) for {where}: compute it with "
                                 f"tensor operations, not on .data or with NumPy")
    try:
        with refusing_answers(exercise):
            send_back(mine, upstream)
    except SolutionFailed:
        raise
    except (Exception, SystemExit) as error:  # the student's code: anything can happen
        raise SolutionFailed(f"{exercise.name}: backward through your {exercise.defines} raised "
                             f"{error_text(error, path)}, for {where}") from None
    send_back(expected, upstream)
    wanted = [np.zeros_like(want.data) if want.grad is None else want.grad
              for want in reference_inputs]
    for x, want_grad in zip(inputs, wanted):
        got = np.zeros_like(want_grad) if x.grad is None else x.grad
        try:
            compare_arrays(f"{exercise.name}: the gradient with respect to {x.name}", got,
                           want_grad, where, atol, rtol)
        except SolutionFailed as failure:
            cut = diagnose.cut_report(inputs, wanted, mine, lines, parts, atol)
            if cut is not None:
                raise SolutionFailed(f"{exercise.name}: {cut[0]}, for {where}:\n  "
                                     + "\n  ".join(cut[1:])) from None
            hint = diagnose.wrong_gradient_hint(mine, inputs, solution, lines)
            raise SolutionFailed("\n  ".join([str(failure)] + hint)) from None


def run_gradcheck(exercise, fn, case, where, path):
    inputs = tensors(case)
    try:
        with refusing_answers(exercise):
            gradcheck(lambda *xs: fn(*xs, **case.settings), *inputs)
    except SolutionFailed:
        raise
    except GradcheckError as error:
        raise SolutionFailed(f"{exercise.name}: your backward disagrees with finite differences "
                             f"for {where}: {error}") from None
    except (Exception, SystemExit) as error:  # the student's code: anything can happen
        raise SolutionFailed(f"{exercise.name}: gradcheck of your {exercise.defines} raised "
                             f"{error_text(error, path)}, for {where}") from None


# ---- Grading, from Python or from the command line ----------------------------------

def grade(exercises, name, path):
    """Grade the file at `path` against exercise `name`; return the 'passed: ...' report or
    raise SolutionFailed."""
    if name not in exercises:
        raise SolutionFailed(f"no exercise {name!r}; the exercises are: {', '.join(exercises)}")
    exercise = exercises[name]
    solution = load_solution(path)
    return f"passed: {exercise.run(solution, exercise)}"


def case_inputs(exercises, name, number):
    """The inputs of case `number` (from 1) of exercise `name`: (arrays by name, settings)."""
    cases = exercises[name].cases()
    if not 1 <= number <= len(cases):
        raise ValueError(f"{name} has cases 1 to {len(cases)}, not {number}")
    case = cases[number - 1]
    return dict(case.arrays), dict(case.settings)


def main(exercises, prog, argv=None):
    """`python -m PACKAGE.grade EXERCISE PATH`: exit status 0 and a 'passed' line, or 1 and
    what is wrong."""
    signatures = "\n".join(f"  {e.signature}" for e in exercises.values())
    parser = Parser(
        prog=prog, description="Grade a coursework solution (the exercises: docs/coursework.md).",
        epilog=f"what your file defines:\n{signatures}",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("exercise", choices=list(exercises),
                        help="; ".join(f"{e.name}: {e.title}" for e in exercises.values()))
    parser.add_argument("path", help="your file")
    add_debug_option(parser)
    args = parser.parse_args(argv)
    return run(lambda: _grade_command(exercises, args), debug=debug_wanted(args))


def _grade_command(exercises, args):
    """The grader's report: 'passed: ...' on stdout, or 'failed: ...' (the whole report, with
    its lines on how to reproduce) on stderr and status 1. Any other error is the grader's
    own, reported on one line by minigrad.command.run."""
    try:
        print(grade(exercises, args.exercise, args.path))
    except SolutionFailed as failure:
        print(f"failed: {failure}", file=sys.stderr)
        return 1
    return 0
