"""Reading back what the graded code's process wrote, as a file that may be hostile.

The results file is written by the student's process, so its code can write anything there:
a member whose .npy header declares terabytes, or a 2 MB deflated member that inflates to
gigabytes. `np.load` would allocate what a header declares, and inflate all of a member, before
the grader could look. Here each member is read through minigrad.npz_reader: its declared
shape and dtype are checked against the zip directory and against a limit derived from the
request (`member_limit`) BEFORE any of its data is read, and a member over the limit is refused
in one line. The file itself must be a regular file (a FIFO would block the grader) of at most
`file_limit` bytes on disk.
"""

import json
import os
import zipfile

import numpy as np

from minigrad.files import open_regular
from minigrad.grade.solution import SolutionFailed
from minigrad.npz_reader import NpzRefused, read_member, size

MEMBER_FLOOR = 4 << 20          # bytes a member may always hold: grading sends small cases, and
                                # an output of a wrong shape must still reach its comparison


def member_limit(arrays):
    """The most bytes one member of the results may declare, for a request whose arrays are
    `arrays`: what comes back (outputs, gradients, checks) is of the inputs' sizes, so 16 times
    all of the request, and never less than MEMBER_FLOOR."""
    return max(MEMBER_FLOOR, 16 * sum(np.asarray(a).nbytes for a in arrays.values()))


def read_results(name, file, limit):
    """({member: array}, facts) from the results file `file`; SolutionFailed naming the exercise
    `name` for a file that is not a regular .npz of arrays (numbers or text, which
    Results.array names) and one text `meta`, or whose
    members declare more than `limit` bytes each (4 * limit in all)."""
    unreadable = (f"{name}: your code's process gave back results the grader cannot read (was "
                  f"the results file replaced?)")
    try:
        handle = open_regular(file, "a results file", NpzRefused)
    except (OSError, NpzRefused):
        raise SolutionFailed(unreadable) from None
    with handle:
        on_disk = os.fstat(handle.fileno()).st_size
        if on_disk > 4 * limit:
            raise SolutionFailed(f"{name}: your code's process gave back a results file of "
                                 f"{size(on_disk)}; the grader reads at most {size(4 * limit)} "
                                 f"(was the results file replaced?)")
        try:
            with zipfile.ZipFile(handle) as archive:
                arrays, left = {}, 4 * limit
                for member in archive.namelist():
                    found = read_member(archive, member, str(file), "biufcUS", min(limit, left),
                                        f"the {size(limit)} a result may hold")
                    left -= found.nbytes
                    arrays[member[:-len(".npy")] if member.endswith(".npy") else member] = found
            facts = json.loads(str(arrays.pop("meta")))
        except NpzRefused as refused:
            raise SolutionFailed(f"{name}: your code's process gave back results the grader "
                                 f"refuses to read: {refused}".replace(repr(str(file)),
                                                                      "the results file")) from None
        except (OSError, ValueError, KeyError, TypeError, AttributeError, EOFError,
                RuntimeError, zipfile.BadZipFile, RecursionError):
            raise SolutionFailed(unreadable) from None
    if not isinstance(facts, dict):
        raise SolutionFailed(unreadable)
    return arrays, facts
