"""The right answers the grader compares with: stored, not computed at grading time.

For each exercise and case, a data file in the grade package (`minigrad/grade/expected.npz`,
`attention/grade/expected.npz`) holds, under `EXERCISE/CASE/...`:

    out/J         the output J                              (the reference's, as float64)
    upstream/J    the random upstream gradient sent back from output J (the same one is sent
                  to the graded code, so both gradients answer the same question)
    grad/NAME     the gradient of input NAME for those upstream gradients (zeros where none
                  reaches it)
    kept/NAME     the named intermediates the diagnosis compares (a GRU's r, z, n)

The reference solutions that made these values are not part of the package: they are in the
project's tests (tests/reference/), with the script that writes these files again
(tests/reference/regenerate.py) and a test that the stored values are still what the
reference gives. The file is read with `allow_pickle=False`, and every array is checked (its
dtype, its shape against the case's inputs) before the grader uses it.

`computed(reference)` makes the same values by running a reference function here: for the
regeneration script, and for a test's own small exercise.
"""

import zipfile
from dataclasses import dataclass

import numpy as np

from minigrad.gradcheck import send_back
from minigrad.grade.run_cases import tensors
from minigrad.grade.student_code import keeping_locals
from minigrad.messages import message
from minigrad.npz_reader import zip_reason
from minigrad.tensor import Tensor


class DamagedExpected(Exception):
    """The stored expected values are missing or do not fit the cases: the grader's own
    fault (a damaged installation, a file not regenerated), never the student's."""


@dataclass
class Expected:
    """The right side of one case."""
    outputs: list                   # arrays
    grads: list                     # one array per input, zeros where no gradient reached it
    kept: dict                      # the reference's named intermediates, as arrays
    upstream: list                  # the random upstream gradient, one array per output


def upstream_for(number, shape):
    """The upstream gradient of case `number` (from 1) for an output of `shape`."""
    return np.random.default_rng(number).standard_normal(shape)


def computed(reference):
    """(cases, outputs, names) -> [Expected], by running `reference(*tensors, **settings)` on
    each case here, its locals `names` kept."""

    def expected(cases, outputs, names):
        found = []
        for number, case in enumerate(cases, 1):
            inputs = tensors(case)
            values, kept = keeping_locals(lambda: reference(*inputs, **case.settings),
                                          reference, names)
            values = values if isinstance(values, tuple) else (values,)
            upstream = [upstream_for(number, out.shape) for out in values]
            send_back(values, upstream)
            found.append(Expected(
                [np.asarray(out.data, np.float64) for out in values],
                [np.zeros_like(x.data) if x.grad is None else x.grad for x in inputs],
                {k: v.data for k, v in kept.items() if isinstance(v, Tensor)}, upstream))
        return found

    return expected


def as_arrays(name, cases, expected):
    """{member: array} of exercise `name`'s expected values, as `stored` reads them."""
    arrays = {}
    for number, (case, wanted) in enumerate(zip(cases, expected), 1):
        prefix = f"{name}/{number}/"
        arrays.update({f"{prefix}out/{j}": out for j, out in enumerate(wanted.outputs)})
        arrays.update({f"{prefix}upstream/{j}": g for j, g in enumerate(wanted.upstream)})
        arrays.update({f"{prefix}grad/{x}": g for x, g in zip(case.arrays, wanted.grads)})
        arrays.update({f"{prefix}kept/{k}": v for k, v in wanted.kept.items()})
    return arrays


def stored(file, name):
    """(cases, outputs, names) -> [Expected], read from the data file `file` for exercise
    `name`; DamagedExpected when it is missing or does not fit the cases."""

    def expected(cases, outputs, names):
        try:
            with np.load(file, allow_pickle=False) as found:
                arrays = {k: found[k] for k in found.files if k.startswith(f"{name}/")}
        except (OSError, ValueError, zipfile.BadZipFile) as error:
            raise DamagedExpected(message("expected.unreadable", file=file,
                                          error=zip_reason(error))) from None
        return [read_case(file, name, arrays, number, case, len(outputs), names)
                for number, case in enumerate(cases, 1)]

    return expected


def read_case(file, name, arrays, number, case, count, names):
    prefix = f"{name}/{number}/"

    def get(key, shape=None):
        member = prefix + key
        if member not in arrays:
            raise DamagedExpected(message("expected.no_member", file=file, member=member))
        value = arrays[member]
        if value.dtype != np.float64 or (shape is not None and value.shape != shape):
            raise DamagedExpected(message(
                "expected.wrong_member", file=file, member=member, dtype=value.dtype,
                shape=value.shape,
                wanted=message("expected.any_shape") if shape is None else shape))
        return value

    outputs = [get(f"out/{j}") for j in range(count)]
    upstream = [get(f"upstream/{j}", out.shape) for j, out in enumerate(outputs)]
    grads = [get(f"grad/{x}", np.shape(a)) for x, a in case.arrays.items()]
    kept = {k: get(f"kept/{k}") for k in names}
    return Expected(outputs, grads, kept, upstream)
