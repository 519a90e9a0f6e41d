"""The grader's machinery: run a student's file in a process of its own, compare what it gives
back with the stored right answers, and say exactly what differs.

An exercise that asks for a function of tensors (`function_exercise`) is checked case by case.
The student's function runs in the graded code's process (process.py, child.py, run_cases.py),
on fresh float64 tensors, with the upstream gradients this process sends; it gives back its
outputs, its gradients and its gradient check's halves, as arrays. Here, for each case:

1. the right outputs, gradients and named intermediates are read from the grade package's
   stored expected values (expected.py; the reference solutions that made them are in the
   project's tests, not in the package);
2. every output is compared, element by element;
3. with the upstream gradient stored with them sent back through the student's function, the
   gradient of every input is compared;
4. the student's gradients are compared with their finite differences (`minigrad.gradcheck`'s
   check, its halves computed there, compared here).

The first difference stops the grading with a `SolutionFailed` whose message names the exercise,
the case and its input shapes, the output or the gradient that is wrong, the element, both
values, and how many elements are off; and where in the student's code to look (`diagnose`:
the first named intermediate that differs, a cut graph; or the known mistake that wrong outputs
or gradients match, from the exercise's `output_mistakes` or `mistakes`). `case_inputs` hands
the same inputs back, for a debugger.

The verdict is written here, from the arrays alone: what the graded code prints, its exit status
or anything it changes in its own process is no verdict. It cannot open the expected values there
(nor the reference solutions, in a clone that has them), nor run the project's own version of the
piece unnoticed (answers.py, audit.py). Loading and calling the student's code is in `solution`;
comparing arrays and writing what differs, in `compare`. Other packages (attention, seq2seq)
build their graders from these same pieces.
"""

import shlex
import sys
from dataclasses import dataclass, field

from minigrad.command import (
    Parser,
    RawDescriptionDefaultsFormatter,
    add_debug_option,
    debug_wanted,
    drop_stdout,
    run,
)
from minigrad.gradcheck import GradcheckError, disagreement
from minigrad.grade import diagnose
from minigrad.grade.compare import compare_arrays, compare_gradients, describe, difference
from minigrad.grade.process import run_child
from minigrad.grade.requests import request, request_arrays
from minigrad.grade.solution import (
    SolutionFailed,
    call,
    load_solution,
    require,
    solution_file,
    visible,
)
from minigrad.language import add_language_option
from minigrad.messages import message

__all__ = ["Case", "Exercise", "SolutionFailed", "call", "case_inputs", "compare_arrays",
           "function_exercise", "grade", "load_solution", "main", "require"]


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
    run(path, exercise) grades the file at `path`, run in a process of its own
    (process.run_child), and returns a one-line summary, or raises SolutionFailed. `answers`:
    the project's own versions of the piece (functions, classes), which that process may not
    run (answers.py). What it may not open, the expected values and the reference solutions,
    is process.blocked_files()'s list, the same for every exercise."""
    name: str
    title: str
    defines: str                    # the function (or class) the file must define
    signature: str
    run: object
    cases: object = None            # () -> list of Case, for case_inputs
    answers: tuple = ()
    outputs: tuple = ()             # a function exercise's output names
    intermediates: tuple = ()       # and the names of the intermediates its diagnosis compares


# ---- A function of tensors, checked against the expected values ----------------------------

def function_exercise(name, title, defines, signature, expected, cases, outputs,
                      atol=1e-8, rtol=1e-6, extra=None, package="minigrad.grade", answers=(),
                      intermediates=(), parts=None, by_hand=False, mistakes=None,
                      explain=None, output_mistakes=None):
    """An Exercise for a function of tensors: `expected(cases, outputs, names)` gives, per case,
    the right outputs (named by `outputs`), gradients and intermediates (expected.stored: read
    from a data file; expected.computed: a reference run here); `cases()` lists the inputs.
    `extra(facts, where, path)` may add checks of its own on what the graded code's process
    noted (`facts`, a dict; raising SolutionFailed); `answers` what the solution may not run
    (Exercise). For the diagnosis (diagnose.py): `intermediates`, ((local name, what it is),
    ...) in the formulas' order, are compared when an output is wrong; `parts`, {input name:
    (block names)}, names the blocks of a stacked weight that a cut graph may starve;
    `explain(case, outputs, kept, output_line)`, lines naming a mistake the exercise knows, said
    in their place when it finds one.
    `output_mistakes(case, outputs)`, lines naming the known mistake wrong outputs match, or [].
    `by_hand`: the backward must be derived by hand; one that runs the student's forward (or
    their function) again, as finite differences do, fails (by_hand.py). `mistakes(case,
    expected, gradients, returned)` gives lines naming a known mistake that a wrong gradient
    shows (layer_norm_mistakes.diagnosis), computed here."""

    def run(path, exercise):
        all_cases = cases()
        names = [local for local, _ in intermediates]
        right = expected(all_cases, outputs, names)
        results = run_child(exercise, path, "minigrad.grade.run_cases:function_results",
                            dict(request(all_cases, outputs, names), by_hand=by_hand),
                            request_arrays(all_cases, right))
        finish_first(results)
        for number, (case, wanted) in enumerate(zip(all_cases, right), 1):
            try:
                grade_case(exercise, results, case, wanted, number, len(all_cases), path)
            except SolutionFailed as failure:
                inputs = message("grade.to_get_inputs", package=package, name=name, number=number)
                raise SolutionFailed(f"{failure}\n  {inputs}") from None
        comma = message("diagnose.joiner").join
        return message("grade.function_passed", name=name, cases=len(all_cases),
                       outputs=comma(outputs), inputs=comma(case_names(all_cases)))

    def grade_case(exercise, results, case, wanted, number, total, path):
        where = describe(case, number, total)
        facts = results.case(number, where)
        if facts.get("stage") == "call" and "failed" in facts:
            raise SolutionFailed(facts["failed"])
        prefix = f"{number}/"
        mine = [results.array(f"{prefix}out/{j}", message("grade.the_output", output=out_name),
                              where)
                for j, out_name in enumerate(outputs)]
        kept = {local: (results.array(f"{prefix}kept/{local}",
                                      message("grade.intermediate", local=local), where),
                        facts["kept_lines"].get(local))
                for local, _ in intermediates if results.has(f"{prefix}kept/{local}")}
        for j, (out_name, got, want) in enumerate(zip(outputs, mine, wanted.outputs)):
            try:
                compare_arrays(message("grade.output", name=name, output=out_name), got, want,
                           where, atol, rtol)
            except SolutionFailed as failure:
                line = (facts["output_lines"] + [None] * len(outputs))[j]
                more = (explain and explain(case, mine, kept, line)) or \
                    (output_mistakes and output_mistakes(case, mine)) or \
                    diagnose.after_wrong_output(line, intermediates, kept, wanted.kept,
                                                lambda a, b: difference(a, b, atol, rtol))
                raise SolutionFailed("\n  ".join([str(failure)] + more)) from None
        if extra is not None:
            extra(facts, where, path)
        got = [results.array(f"{prefix}grad/{x}", message("grade.the_gradient", input=x), where)
               if results.has(f"{prefix}grad/{x}") else None for x in case.arrays]
        returned = {x: results.array(f"{prefix}returned/{x}",
                                     message("grade.the_returned", input=x), where)
                    for x in case.arrays if results.has(f"{prefix}returned/{x}")}
        named = [] if mistakes is None else mistakes(case, wanted, dict(zip(case.arrays, got)),
                                                     returned)
        if facts.get("stage") == "backward" and "failed" in facts:
            raise SolutionFailed("\n  ".join([facts["failed"]] + named))
        compare_gradients(exercise, where, list(case.arrays), got, wanted.grads, atol, rtol,
                          facts, parts or {}, named)
        if facts.get("stage") == "gradcheck" and "failed" in facts:
            raise SolutionFailed(facts["failed"])
        try:
            checked = facts.get("checked", [])
            if sorted(i for i, _ in checked) != list(range(len(case.arrays))):
                raise SolutionFailed(message("grade.no_gradient_check", name=name,
                                             where=where))
            for i, input_name in checked:
                check = message("grade.the_check")
                disagreement(i, input_name,
                             results.array(f"{prefix}analytic/{i}", check, where),
                             results.array(f"{prefix}numeric/{i}", check, where))
        except GradcheckError as error:
            raise SolutionFailed(message("grade.finite_differences", name=name, where=where,
                                         error=error)) from None
        except (TypeError, ValueError):
            raise SolutionFailed(message("grade.unreadable_check", name=name,
                                         where=where)) from None

    return Exercise(name, title, defines, signature, run, cases, answers, tuple(outputs),
                    tuple(local for local, _ in intermediates))


def finish_first(results):
    """Raise what stopped the graded code before its cases: a refusal, a file that does not
    load or defines no function."""
    if "refused" in results.facts:
        raise SolutionFailed(results.facts["refused"])
    if "failed" in results.facts:
        raise SolutionFailed(results.facts["failed"])


def case_names(cases):
    return list(dict.fromkeys(name for case in cases for name in case.arrays))   # in order, once


# ---- Grading, from Python or from the command line ----------------------------------

def grade(exercises, name, path):
    """Grade the file at `path` against exercise `name`; return the 'passed: ...' report or
    raise SolutionFailed. The file runs in a process of its own (process.py); this one
    compares what it gives back and writes the verdict."""
    if name not in exercises:
        raise SolutionFailed(message("grade.no_exercise", name=name, names=", ".join(exercises)))
    path = solution_file(path)
    exercise = exercises[name]
    return message("grade.passed", report=exercise.run(path, exercise))


def case_inputs(exercises, name, number):
    """The inputs of case `number` (from 1) of exercise `name`: (arrays by name, settings)."""
    cases = exercises[name].cases()
    if not 1 <= number <= len(cases):
        raise ValueError(message("grade.case_numbers", name=name, count=len(cases),
                                 number=number))
    case = cases[number - 1]
    return dict(case.arrays), dict(case.settings)


# Which command grades which exercise, as plain names: minigrad imports no floor above it, yet
# names their graders (tests/test_coursework.py checks this against each grader's EXERCISES).
GRADERS = {"python -m minigrad.grade": ("gru_cell", "layer_norm", "logsumexp", "layer_norm_op"),
           "python -m attention.grade": ("general_attention", "multi_head", "encoder_block",
                                         "positional_encoding", "causal_attention"),
           "python -m seq2seq.grade": ("beam_search",)}


def graded_elsewhere(name, path, prog):
    """"NAME is graded by python -m OTHER.grade NAME PATH" if another grader has it, else None."""
    for command, names in GRADERS.items():
        if command != prog and name in names:
            return message("grade.elsewhere", name=name, command=command,
                           path=shlex.quote(path))
    return None


def main(exercises, prog, argv=None):
    """`python -m PACKAGE.grade EXERCISE PATH`: exit status 0 and a 'passed' line, or 1 and
    what is wrong. An exercise of another grader is an error naming the command that grades
    it."""
    signatures = "\n".join(f"  {e.signature}" for e in exercises.values())
    parser = Parser(
        prog=prog, description="Grade a coursework solution (the exercises: docs/coursework.md).",
        epilog=f"what your file defines:\n{signatures}",
        formatter_class=RawDescriptionDefaultsFormatter)
    parser.add_argument("exercise", help="; ".join(f"{e.name}: {e.title}"
                                                   for e in exercises.values()))
    parser.add_argument("path", help="your file")
    add_debug_option(parser)
    add_language_option(parser)
    args = parser.parse_args(argv)           # --lang is read before parsing (Parser)
    if args.exercise not in exercises:
        elsewhere = graded_elsewhere(args.exercise, args.path, prog)
        if elsewhere is not None:
            parser.exit(2, message("command.error", message=elsewhere) + "\n")
        parser.error(message("grade.invalid_exercise", name=args.exercise,
                             names=", ".join(exercises)))
    return run(lambda: _grade_command(exercises, args), debug=debug_wanted(args))


def _grade_command(exercises, args):
    """The grader's report: 'passed: ...' on stdout, or 'failed: ...' (the whole report, with
    its lines on how to reproduce) on stderr and status 1. Any other error is the grader's
    own, reported on one line by minigrad.command.run. A report that meets a closed pipe
    (`... | head -n 1`) keeps the verdict's status: a failure never exits 0."""
    try:
        report = grade(exercises, args.exercise, args.path)
    except SolutionFailed as failure:
        say(message("grade.failed", report=printable(str(failure))), sys.stderr)
        return 1
    say(report, sys.stdout)
    return 0


def printable(report):
    """`report` with every control character but its line breaks written out as an escape
    (the student's text is in it: an error message may hold terminal escapes or a carriage
    return), and each line after the first indented, so that no line of a failure starts
    with "passed:"."""
    first, *rest = [visible(line) for line in report.split("\n")]
    return "\n".join([first] + [line if line.startswith(" ") else "  " + line for line in rest])


def say(text, stream):
    """Print `text` to `stream`; a pipe closed early is let go (stream pointed at the null
    device), so that the caller's status stands."""
    try:
        print(text, file=stream, flush=True)
    except BrokenPipeError:
        drop_stdout(stream)
