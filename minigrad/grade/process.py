"""The grader's side of the graded code's process: start it (`python -m minigrad.grade.child`),
hand it the cases, wait for it within a time limit, and read back what it computed, as data.

The grader never imports the student's file: its code runs in that other process, which can
change nothing in the grader's. Neither its exit status nor what it prints is a verdict; only
the arrays it gives back count, and the grader compares them itself. A process that ends
before it gives them back, gives back something else, or runs past the time limit fails, with
a line that says which.
"""

import json
import os
import signal
import subprocess
import sys
import tempfile
import types
from pathlib import Path

import numpy as np

from minigrad.grade.solution import SolutionFailed

TIME_LIMIT = 60                 # seconds for all of an exercise's cases; grading takes 1 to 5
ROOT = str(Path(__file__).resolve().parents[2])         # the folder holding the minigrad package


def answer_specs(answers):
    """(blocked, watched) for the child: the reference modules among the answers, by file, no
    one may open there; the functions and classes, by name, it watches for (answers.py)."""
    blocked, watched = [], []
    for answer in answers:
        if isinstance(answer, types.ModuleType):
            blocked.append([answer.__file__, answer.__name__])
        else:
            watched.append(f"{answer.__module__}:{answer.__qualname__}")
    return blocked, watched


def run_child(exercise, path, runner, meta, arrays, time_limit=None):
    """Run `runner` ('module:function', called in the child with the loaded solution) on the
    student's file at `path`; return its Results. `meta` (JSON) and `arrays` go with the
    request."""
    blocked, watched = answer_specs(exercise.answers)
    meta = dict(meta, path=str(Path(path).resolve()), runner=runner, blocked=blocked,
                watched=watched, exercise={"name": exercise.name, "defines": exercise.defines,
                                           "signature": exercise.signature})
    limit = TIME_LIMIT if time_limit is None else time_limit
    with tempfile.TemporaryDirectory(prefix="minigrad-grade-") as folder:
        request, result = Path(folder) / "request.npz", Path(folder) / "result.npz"
        np.savez(request, meta=np.array(json.dumps(meta)), **arrays)
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            [ROOT] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
        child = subprocess.Popen(
            [sys.executable, "-m", "minigrad.grade.child", str(request), str(result)],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=env, start_new_session=True)            # its own group: killed as one
        try:
            _, err = child.communicate(timeout=limit)
        except subprocess.TimeoutExpired:
            _kill(child)
            raise SolutionFailed(f"{exercise.name}: your code ran for more than {limit} s "
                                 f"without finishing the cases (an endless loop?); grading "
                                 f"takes a few seconds") from None
        finally:
            _kill(child)                                # and anything it started
        return Results(exercise, result, child.returncode, err.decode(errors="replace"))


def _kill(child):
    """End the child and what it started (its process group, where there are groups)."""
    try:
        if hasattr(os, "killpg"):
            os.killpg(child.pid, signal.SIGKILL)
        elif child.poll() is None:
            child.kill()
    except (ProcessLookupError, PermissionError):
        pass
    child.wait()


class Results:
    """What the graded code's process gave back: `facts` (text, from JSON) and arrays, each
    checked to be a number array before the grader reads it."""

    def __init__(self, exercise, file, status, stderr):
        self.exercise = exercise
        ended = (f"your code's process ended (exit status {status}) before it gave back its "
                 f"results")
        tail = [line for line in stderr.strip().splitlines() if line.strip()][-3:]
        if tail:
            ended += ": " + " | ".join(tail)
        if not Path(file).is_file():
            raise SolutionFailed(f"{exercise.name}: {ended} (os._exit? a crash?)")
        try:
            with np.load(file, allow_pickle=False) as found:
                self.arrays = {name: found[name] for name in found.files}
            self.facts = json.loads(str(self.arrays.pop("meta")))
            self.cases = list(self.facts.get("cases", []))
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            raise SolutionFailed(f"{exercise.name}: your code's process gave back results the "
                                 f"grader cannot read (was the results file replaced?)") from None
        self.ended = ended

    def case(self, number, where):
        """The facts of case `number` (a dict), or SolutionFailed when there are none. Text
        for the diagnosis that is not text is dropped: it only ever adds to a failure."""
        if number > len(self.cases) or not isinstance(self.cases[number - 1], dict):
            raise SolutionFailed(f"{self.exercise.name}: your code gave back no results for "
                                 f"{where}")
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
            raise SolutionFailed(f"{self.exercise.name}: your code gave back no {what} for "
                                 f"{where}")
        found = self.arrays[key]
        if not (np.issubdtype(found.dtype, np.number) or found.dtype == bool):
            raise SolutionFailed(f"{self.exercise.name}: {what} came back as {found.dtype} "
                                 f"values, not numbers, for {where}")
        return found
