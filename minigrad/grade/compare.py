"""Comparing a student's results with the reference's: which element is off, by how much, and
how many are; and the words for a case ('case 2 of 4, "a batch of 3" (x (3, 4), ...)').

Each raises `SolutionFailed` with the message the student reads, or returns what differs.
"""

import numpy as np

from minigrad.grade import diagnose
from minigrad.grade.solution import SolutionFailed
from minigrad.messages import message
from minigrad.tensor import Tensor


def describe(case, number, total):
    """'case 2 of 4, "a batch of 3" (x (3, 4), h (3, 5), eps=0.1)'"""
    parts = [f"{name} {tuple(np.shape(a))}" for name, a in case.arrays.items()]
    for name, value in case.settings.items():
        array = isinstance(value, np.ndarray)
        parts.append(f"{name} {np.shape(value)}" if array else f"{name}={value!r}")
    return message("grade.case", number=number, total=total, label=case.label,
                   parts=", ".join(parts))


def compare_arrays(what, got, expected, where, atol=1e-8, rtol=1e-6):
    """Raise SolutionFailed unless `got` equals `expected` to the tolerances. `what` names the
    output or gradient ("the output h_new"), `where` the case."""
    got = np.asarray(got)
    expected = np.asarray(expected)
    if got.shape != expected.shape:
        raise SolutionFailed(message("grade.wrong_shape", what=what, got=got.shape,
                                     expected=expected.shape, where=where))
    got64, expected64 = got.astype(np.float64), expected.astype(np.float64)
    if not np.all(np.isfinite(got64)) and np.all(np.isfinite(expected64)):
        k = tuple(int(i) for i in np.argwhere(~np.isfinite(got64))[0])
        raise SolutionFailed(message("grade.not_finite", what=what, where=where, element=k,
                                     value=got64[k], expected=f"{expected64[k]:.6g}"))
    found = difference(got64, expected64, atol, rtol)
    if found is not None:
        k, yours, wanted, wrong, total = found
        raise SolutionFailed(message("grade.wrong_values", what=what, where=where, element=k,
                                     yours=f"{yours:.6g}", expected=f"{wanted:.6g}",
                                     off=f"{abs(yours - wanted):.3g}", wrong=wrong, total=total,
                                     atol=atol, rtol=rtol))


def difference(got, expected, atol=1e-8, rtol=1e-6):
    """None when the arrays (of one shape) agree to the tolerances, else (the element that is
    off the most, its value in `got`, in `expected`, how many elements are off, how many
    there are). NaN against a number is off; NaN against NaN, and equal infinities, agree."""
    got, expected = np.asarray(got, np.float64), np.asarray(expected, np.float64)
    with np.errstate(invalid="ignore"):
        error = np.abs(got - expected)                  # NaN where one is NaN, or inf - inf
    same = (got == expected) | (np.isnan(got) & np.isnan(expected))
    error = np.where(same, 0.0, np.where(np.isnan(error), np.inf, error))
    bad = error > atol + rtol * np.abs(np.where(np.isfinite(expected), expected, 0.0))
    if not np.any(bad):
        return None
    k = tuple(int(i) for i in np.unravel_index(np.argmax(np.where(bad, error, -1)), got.shape))
    return k, float(got[k]), float(expected[k]), int(bad.sum()), got.size


def as_outputs(result, exercise, names, where):
    """The student's result as a tuple of tensors, one per name in `names`."""
    results = result if isinstance(result, (tuple, list)) else (result,)
    if len(results) != len(names):
        want = f"{len(names)} ({', '.join(names)})"
        raise SolutionFailed(message("grade.returned_count", name=exercise.name,
                                     defines=exercise.defines, count=len(results), where=where,
                                     wanted=want))
    for name, value in zip(names, results):
        if not isinstance(value, Tensor):
            raise SolutionFailed(message("grade.not_tensor", name=exercise.name, output=name,
                                         type=type(value).__name__, where=where))
    return tuple(results)


def compare_gradients(exercise, where, names, got, wanted, atol, rtol, facts, parts, named=()):
    """Compare the gradient of every input that the graded code's process gave back (`got`,
    an array or None each) with the reference's (`wanted`). A failure says more when it can
    (`facts`, from that process): a cut graph, or whose backward to look at; or, in its
    place, the lines `named` that name a known mistake (the grader's own diagnosis)."""
    for x, grad, want_grad in zip(names, got, wanted):
        try:
            compare_arrays(message("grade.gradient", name=exercise.name, input=x),
                           np.zeros_like(want_grad) if grad is None else grad,
                           want_grad, where, atol, rtol)
        except SolutionFailed as failure:
            cut = diagnose.cut_report(names, got, wanted, facts.get("suspects", []), parts, atol)
            if cut is not None:
                head = message("grade.cut", name=exercise.name, cut=cut[0], where=where)
                raise SolutionFailed("\n  ".join([head] + cut[1:])) from None
            more = list(named) or facts.get("hint", [])
            raise SolutionFailed("\n  ".join([str(failure)] + more)) from None
