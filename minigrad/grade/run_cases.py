"""The student's function run on every case, in the graded code's process (child.py): what
comes out is written down for the grader, which compares it with the reference in its own
process (grader.py). Nothing here compares anything.

For case k (from 1) it keeps, as arrays: `k/out/j` the output j; `k/kept/NAME` the named
intermediates (r, z, n) of the student's function; `k/grad/NAME` each input's gradient for the
upstream gradients `k/upstream/j` that the grader sent; `k/analytic/i`, `k/numeric/i` the
gradient check's halves (minigrad.gradcheck.analytic_and_numeric); `k/returned/NAME` what an
op's backward returned for input NAME when the engine refused its shape. And as text, the
diagnosis's (diagnose.py): the line of the student's file that made each output and
intermediate, the tensors from outside the graph, which op made the output. The first error
stops it, noted with the stage it stopped at ("call", "backward", "gradcheck"): the grader
checks what came before it first.
"""

import os
import sys
from sys import getprofile, setprofile

import numpy as np

from minigrad import autograd
from minigrad.grad_mode import is_grad_enabled
from minigrad.gradcheck import GradcheckError, analytic_and_numeric, send_back
from minigrad.grade import diagnose
from minigrad.grade.by_hand import forward_watch, numerical_backward
from minigrad.grade.compare import as_outputs, describe
from minigrad.grade.solution import SolutionFailed, call, error_text, refusing_answers
from minigrad.messages import message
from minigrad.op_errors import WrongShape
from minigrad.tensor import Tensor


class Case:
    """A case as the request holds it: the inputs' arrays, the settings (arrays among them)."""

    def __init__(self, number, spec, arrays):
        self.label = spec["label"]
        self.arrays = {name: arrays[f"{number}/in/{name}"] for name in spec["arrays"]}
        self.settings = dict(spec["settings"])
        self.settings.update({name: arrays[f"{number}/setting/{name}"]
                              for name in spec["array_settings"]})
        self.upstream = [arrays[f"{number}/upstream/{j}"] for j in range(spec["outputs"])]


def tensors(case):
    """Fresh float64 leaves named after their arguments."""
    return [Tensor(np.array(a, dtype=np.float64), requires_grad=True, name=name)
            for name, a in case.arrays.items()]


def function_results(exercise, solution, fn, meta, arrays, result, facts):
    """Run `fn` on every case of the request; fill `result` (arrays) and `facts` (one dict of
    text per case, in order)."""
    path = getattr(solution, "__file__", None)
    specs = meta["cases"]
    for number, spec in enumerate(specs, 1):
        case = Case(number, spec, arrays)
        found = {"stage": "call"}
        facts.append(found)
        try:
            run_case(exercise, solution, fn, path, case, describe(case, number, len(specs)),
                     meta, result, found, prefix=f"{number}/")
        except SolutionFailed as failure:
            found["failed"] = str(failure)
            return                                      # the grader stops at this case


def run_case(exercise, solution, fn, path, case, where, meta, result, found, prefix):
    names = meta["intermediates"]
    inputs, kept = tensors(case), {}

    def keeping(*args, **settings):                 # fn, its locals `names` kept
        value, locals_found = diagnose.keeping_locals(lambda: fn(*args, **settings), fn, names)
        kept.update(locals_found)
        return value

    with diagnose.StudentLines(path) as lines:
        value = call(exercise, keeping, inputs, case.settings, where, path)
    mine = as_outputs(value, exercise, meta["outputs"], where)
    for j, out in enumerate(mine):
        result[f"{prefix}out/{j}"] = out.data      # copied and sealed as it is recorded
    found["output_lines"] = [lines.line_of(out.creator) for out in mine]
    found["kept_lines"] = {}
    for name, tensor in kept.items():
        if isinstance(tensor, Tensor):
            result[f"{prefix}kept/{name}"] = tensor.data
            found["kept_lines"][name] = lines.line_of(tensor.creator)
    found.update(made_by(mine[0].creator))

    found["stage"] = "backward"
    for out_name, out in zip(meta["outputs"], mine):
        if not out.requires_grad:
            raise SolutionFailed(message("grade.not_connected", name=exercise.name,
                                         output=out_name, where=where))
    try:
        with refusing_answers(exercise), forward_watch(fn, mine, meta.get("by_hand")) as again:
            send_back(mine, case.upstream)
        if again:
            raise SolutionFailed(numerical_backward(exercise, again[0], where))
    except SolutionFailed:
        raise
    except (Exception, SystemExit) as error:  # the student's code: anything can happen
        keep_returned(error, inputs, result, prefix)
        raise SolutionFailed(message("grade.backward_raised", name=exercise.name,
                                     defines=exercise.defines, error=error_text(error, path),
                                     where=where)) from None
    for x in inputs:
        if x.grad is not None:
            result[f"{prefix}grad/{x.name}"] = x.grad
    found["suspects"] = diagnose.suspects(mine, inputs, lines)
    found["hint"] = diagnose.wrong_gradient_hint(mine, inputs, solution, lines)

    found["stage"] = "gradcheck"
    found["checked"] = gradcheck_halves(exercise, fn, case, where, path, result, prefix)


def keep_returned(error, inputs, result, prefix):
    """When the engine refused a gradient of another shape than its input (WrongShape) from an
    op that takes the exercise's inputs, keep what that op's backward returned for each of them,
    as `k/returned/NAME`: the grader's diagnosis tells a gradient left unsummed over a
    broadcast axis by its numbers (layer_norm_mistakes.py)."""
    if not isinstance(error, WrongShape):
        return
    for x, grad_x in zip(error.op.inputs, error.gradients):
        if any(x is y for y in inputs) and isinstance(grad_x, np.ndarray) and (
                grad_x.shape != x.shape and grad_x.dtype.kind in "biuf"):
            result[f"{prefix}returned/{x.name}"] = np.array(grad_x)


def made_by(creator):
    """What made the first output, as data for the grader to judge (exercises.py): the op's
    class name, the file that defines it, and the qualified names of its classes (its MRO)."""
    if creator is None:
        return {"made_by": None, "made_by_file": None, "made_by_classes": []}
    kind = type(creator)
    module = sys.modules.get(kind.__module__)
    file = getattr(module, "__file__", None)
    return {"made_by": kind.__name__,
            "made_by_file": None if file is None else os.path.realpath(file),
            "made_by_classes": [f"{c.__module__}.{c.__qualname__}" for c in kind.__mro__]}


def gradcheck_halves(exercise, fn, case, where, path, result, prefix):
    """minigrad.gradcheck's first half on the student's function, on fresh inputs, with the
    engine strict (read-only arrays) as gradcheck has it: [(input number, name)], the gradients
    and the central differences kept in `result`.

    The watch for answers sees the recorded forward and its backward. The central differences
    run the same forward again, without grad, twice per input element (hundreds of times):
    watched, they took longer than all the rest, and what they compute is checked against the
    watched backward's gradients, recorded and sealed before they run (seal.py): what they
    change of what was recorded no longer matches its seal."""

    def function(*xs):
        if is_grad_enabled():
            return fn(*xs, **case.settings)
        watch = getprofile()
        setprofile(None)
        try:
            return fn(*xs, **case.settings)
        finally:
            setprofile(watch)

    def analytic_found(gradients):                 # recorded (and sealed) before the reruns
        for i, grad in gradients:
            result[f"{prefix}analytic/{i}"] = grad

    previous, autograd.strict = autograd.strict, True
    try:
        with refusing_answers(exercise):
            halves = analytic_and_numeric(function, tensors(case), analytic_found=analytic_found)
    except SolutionFailed:
        raise
    except GradcheckError as error:
        raise SolutionFailed(message("grade.finite_differences", name=exercise.name,
                                     where=where, error=error)) from None
    except (Exception, SystemExit) as error:  # the student's code: anything can happen
        raise SolutionFailed(message("grade.gradcheck_raised", name=exercise.name,
                                     defines=exercise.defines, error=error_text(error, path),
                                     where=where)) from None
    finally:
        autograd.strict = previous
    for i, _, _, numeric in halves:
        result[f"{prefix}numeric/{i}"] = numeric
    return [[i, name] for i, name, _, _ in halves]
