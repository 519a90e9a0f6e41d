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
import threading
import zipfile
from pathlib import Path

import numpy as np

from minigrad.files import open_regular
from minigrad.grade.seal import NO_END
from minigrad.grade.solution import SolutionFailed, visible
from minigrad.messages import message
from minigrad.npz_reader import NpzRefused, read_member, size

TAIL_BYTES = 4096               # of the process's stderr, the last bytes kept
TAIL_LINES = 3                  # and of those, the last lines shown
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
    unreadable = message("results.unreadable", name=name)
    try:
        handle = open_regular(file, message("files.what_results"), NpzRefused)
    except (OSError, NpzRefused):
        raise SolutionFailed(unreadable) from None
    with handle:
        on_disk = os.fstat(handle.fileno()).st_size
        if on_disk > 4 * limit:
            raise SolutionFailed(message("results.too_large", name=name, size=size(on_disk),
                                         most=size(4 * limit)))
        try:
            with zipfile.ZipFile(handle) as archive:
                arrays, left = {}, 4 * limit
                for member in archive.namelist():
                    found = read_member(archive, member, str(file), "biufcUS", min(limit, left),
                                        message("results.may_hold", size=size(limit)))
                    left -= found.nbytes
                    arrays[member[:-len(".npy")] if member.endswith(".npy") else member] = found
            facts = json.loads(str(arrays.pop("meta")))
        except NpzRefused as refused:
            why = str(refused).replace(repr(str(file)), message("results.the_file"))
            raise SolutionFailed(message("results.refused", name=name, why=why)) from None
        except (OSError, ValueError, KeyError, TypeError, AttributeError, EOFError,
                RuntimeError, zipfile.BadZipFile, RecursionError):
            raise SolutionFailed(unreadable) from None
    if not isinstance(facts, dict):
        raise SolutionFailed(unreadable)
    return arrays, facts


class Tail:
    """The last TAIL_BYTES of a pipe, read by a thread as they come, so that a process writing
    gigabytes to it costs the grader neither their memory nor a blocked pipe."""

    def __init__(self, pipe):
        self.pipe, self.kept = pipe, bytearray()
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self):
        try:
            while chunk := self.pipe.read1(1 << 16):
                self.kept = (self.kept + chunk)[-TAIL_BYTES:]
        except (OSError, ValueError):                   # the pipe closed under it by join()
            pass

    def join(self):
        self.thread.join(timeout=5)                     # the group is dead: the pipe is closed
        self.pipe.close()

    def text(self):
        return bytes(self.kept).decode(errors="replace")


def stderr_tail(stderr):
    """What the failure line shows of the process's stderr: its last TAIL_LINES non-empty lines,
    control characters made visible, after a label (never at the start of a line)."""
    lines = [line for line in stderr.split("\n") if line.strip()][-TAIL_LINES:]   # not at \r
    return message("results.stderr", lines=" | ".join(visible(line)[:300] for line in lines)) \
        if lines else ""


class Results:
    """What the graded code's process gave back: `facts` (text, from JSON) and arrays, each
    checked to be a number array before the grader reads it."""

    def __init__(self, exercise, file, status, stderr, limit, seals):
        self.exercise = exercise
        ended = message("results.ended", status=status) + stderr_tail(stderr)
        if not Path(file).is_file():
            raise SolutionFailed(message("results.crashed", name=exercise.name, ended=ended))
        self.arrays, self.facts = read_results(exercise.name, file, limit)
        wrong = seals.unsealed(file, self.arrays)
        if wrong is NO_END:
            raise SolutionFailed(message("results.unsealed", name=exercise.name, ended=ended))
        if wrong is not None:
            raise SolutionFailed(message("results.changed", name=exercise.name,
                                         array=visible(wrong)[:80]))
        self.cases = list(self.facts.get("cases", []))
        self.ended = ended

    def case(self, number, where):
        """The facts of case `number` (a dict), or SolutionFailed when there are none. Text
        for the diagnosis that is not text is dropped: it only ever adds to a failure."""
        if number > len(self.cases) or not isinstance(self.cases[number - 1], dict):
            raise SolutionFailed(message("results.no_case", name=self.exercise.name,
                                         where=where))
        facts = dict(self.cases[number - 1])
        for key in ("suspects", "hint", "output_lines"):
            found = facts.get(key)
            facts[key] = ([line if isinstance(line, str) else None for line in found]
                          if isinstance(found, list) else [])
        facts["suspects"] = [line for line in facts["suspects"] if line is not None]
        facts["hint"] = [line for line in facts["hint"] if line is not None]
        lines = facts.get("kept_lines")
        facts["kept_lines"] = ({k: v for k, v in lines.items() if isinstance(v, str)}
                               if isinstance(lines, dict) else {})
        return facts

    def has(self, key):
        return key in self.arrays

    def array(self, key, what, where):
        """The array `key`, which must be there and hold numbers; `what` names it in a
        failure ("the output h_new")."""
        if key not in self.arrays:
            raise SolutionFailed(message("results.missing", name=self.exercise.name, what=what,
                                         where=where))
        found = self.arrays[key]
        if not (np.issubdtype(found.dtype, np.number) or found.dtype == bool):
            raise SolutionFailed(message("results.not_numbers", name=self.exercise.name,
                                         what=what, dtype=found.dtype, where=where))
        return found
