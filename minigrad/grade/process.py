"""The grader's side of the graded code's process: start it (`python -m minigrad.grade.child`),
hand it the cases, wait for it within a time limit, and read back what it computed, as data.

The grader never imports the student's file: its code runs in that other process, which can
change nothing in the grader's. Neither its exit status nor what it prints is a verdict; only
the arrays it gives back count, and the grader compares them itself. A process that ends
before it gives them back, gives back something else, or runs past the time limit fails, with
a line that says which.

The grader also keeps itself bounded against that process, which runs as the same user:

- the process runs in a session (and process group) of its own, and that whole group is
  killed on every way out of `run_child`: a return, an error, the time limit, or SIGTERM,
  SIGHUP or SIGINT sent to the grader (each then ends the grading with one line, no verdict);
- the process is not the grader's child but its grandchild (child.py forks first), so
  `os.getppid()` in the student's code names a process in between, not the grader; and each
  of the two dies with its parent (PR_SET_PDEATHSIG, on Linux), so a grader killed outright
  leaves nothing running behind it;
- of its stderr only the last few KiB are kept, read as it comes; its stdout is not read;
- the results file is read member by member, each checked before its data is read
  (results.py);
- after it ends, the files of the project's packages must be as they were before it started
  (untouched.py): code in C writes without the audit hook seeing it;
- while it runs, the grader is not dumpable (`not_dumpable`): its memory, which holds the
  right answers, is the kernel's to give, and it gives it to no process of the same user
  (root, or a process allowed to trace any other, still gets it). Its settings and caches
  (MPLCONFIGDIR, XDG_CACHE_HOME) are in its temporary folder, the one it may write in.

What it cannot prevent: a process of the same user can find the grader (in /proc, say) and
stop or kill it; a grader stopped or killed so ends without a verdict, never with a pass.
"""

import ctypes
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import types
from pathlib import Path

import numpy as np

from minigrad import language
from minigrad.grade import untouched
from minigrad.grade.results import Results, Tail, member_limit
from minigrad.grade.seal import KEY_BYTES, Seals
from minigrad.grade.solution import SolutionFailed
from minigrad.messages import message

TIME_LIMIT = 60                 # seconds for all of an exercise's cases; grading takes 1 to 5
ROOT = str(Path(__file__).resolve().parents[2])         # the folder holding the minigrad package
STOPPING = ("SIGTERM", "SIGHUP", "SIGINT")              # what ends the grading, group killed


REFERENCE = Path(ROOT) / "tests" / "reference"         # the reference solutions, in a clone


def blocked_files():
    """[[path, what it is]] that no one may open in the graded code's process (child.py): the
    grade packages' stored expected values (PACKAGE/grade/expected.npz beside this package),
    and the folder of the reference solutions, when there is one (a clone or an unpacked
    sdist; an installed package has none), everything in it included; and, as patterns
    ("*/...", fnmatch), the same files of any other copy of the project, wherever it lies.
    What each is, in the language of the messages, is what a refusal to open it says."""
    found = [[str(file), message("blocked.expected")]
             for file in sorted(Path(ROOT).glob("*/grade/expected.npz"))]
    if REFERENCE.is_dir():
        found.append([str(REFERENCE), message("blocked.reference")])
    return found + [["*/grade/expected.npz", message("blocked.expected_copy")],
                    ["*/tests/reference/*", message("blocked.reference_copy")]]


def project_folders():
    """The folders of the project's packages (those with a grader beside minigrad's): the
    graded code may not replace their functions' code (audit.py)."""
    return sorted({str(path.parent) for path in Path(ROOT).glob("*/grade.py")}
                  | {str(path.parent.parent) for path in Path(ROOT).glob("*/grade/__init__.py")})


def answer_specs(answers):
    """(blocked, watched) for the child: the files no one may open there (blocked_files, and
    any module among the answers, by its file); the functions and classes, by name, it
    watches for (answers.py). An answer given as 'module:name' is a piece of a package above
    minigrad's floor (attention): the child finds it by that name, so minigrad imports none."""
    blocked, watched = blocked_files(), []
    for answer in answers:
        if isinstance(answer, str):
            watched.append(answer)
        elif isinstance(answer, types.ModuleType):
            blocked.append([answer.__file__, message("blocked.module", module=answer.__name__)])
        else:
            watched.append(f"{answer.__module__}:{answer.__qualname__}")
    return blocked, watched


class Stopped(BaseException):
    """A signal (SIGTERM, SIGHUP, SIGINT) reached the grader while the graded code ran."""


def run_child(exercise, path, runner, meta, arrays, time_limit=None):
    """Run `runner` ('module:function', called in the child with the loaded solution) on the
    student's file at `path`; return its Results. `meta` (JSON) and `arrays` go with the
    request."""
    blocked, watched = answer_specs(exercise.answers)
    meta = dict(meta, path=str(Path(path).resolve()), runner=runner, blocked=blocked,
                watched=watched, project=project_folders(),
                exercise={"name": exercise.name, "defines": exercise.defines,
                          "signature": exercise.signature})
    limit = TIME_LIMIT if time_limit is None else time_limit
    untouched.no_forged_caches(exercise, meta["project"])   # of the code this process ran
    grader_files = untouched.fingerprint(meta["project"])   # compared after: nothing changes
    with tempfile.TemporaryDirectory(prefix="minigrad-grade-") as folder:
        request, result = Path(folder) / "request.npz", Path(folder) / "result.npz"
        np.savez(request, meta=np.array(json.dumps(meta)), **arrays)
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            [ROOT] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]),
            PYTHONDONTWRITEBYTECODE="1",                # no cache beside the code (untouched)
            TMPDIR=folder, TEMP=folder, TMP=folder,     # the one folder it may write in,
            MPLCONFIGDIR=str(Path(folder) / "matplotlib"),      # with matplotlib's settings
            XDG_CACHE_HOME=str(Path(folder) / "cache"),         # and the caches in it
            **language.environment())           # its failures in the language chosen here
        key = os.urandom(KEY_BYTES)                     # the seals' key (seal.py)
        key_read, key_write = os.pipe()
        seals_read, seals_write = os.pipe()
        with stopping_kills_the_group() as started, not_dumpable():
            try:
                child = subprocess.Popen(
                    [sys.executable, "-m", "minigrad.grade.child", str(request), str(result),
                     str(os.getpid()), str(key_read), str(seals_write)],
                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                    env=env, start_new_session=True,    # its own group: killed as one
                    pass_fds=(key_read, seals_write))
            finally:
                os.close(key_read)
                os.close(seals_write)
            started.append(child)
            os.write(key_write, key)                    # read before the student's file loads
            os.close(key_write)
            tail, seals = Tail(child.stderr), Seals(key, seals_read)
            try:
                child.wait(timeout=limit)
            except subprocess.TimeoutExpired:
                raise SolutionFailed(message("grade.too_long", name=exercise.name,
                                             limit=limit)) from None
            finally:
                _kill(child)                            # and anything it started
                tail.join()
                seals.join()
                changed = untouched.changed_files(grader_files, meta["project"])
                if changed:
                    raise SolutionFailed(untouched.wrote_into_the_grader(exercise, changed))
        return Results(exercise, result, child.returncode, tail.text(),
                       member_limit(arrays), seals)


class not_dumpable:
    """While the block runs, this process is not dumpable (prctl PR_SET_DUMPABLE 0, Linux):
    its /proc/PID files (mem, maps, environ, fd) are then the kernel's, not the user's, and
    other processes of the same user cannot open them, nor trace it, so that the graded code
    cannot read the right answers from the grader's memory, even by a route the audit hook
    does not see (ctypes). It is put back after, for debuggers and profilers. Elsewhere, and
    where prctl is missing, nothing changes."""

    GET, SET = 3, 4                                     # PR_GET_DUMPABLE, PR_SET_DUMPABLE

    def __enter__(self):
        self.prctl, self.before = None, None
        if sys.platform.startswith("linux"):
            try:
                self.prctl = ctypes.CDLL(None, use_errno=True).prctl
                self.before = self.prctl(self.GET, 0, 0, 0, 0)
                self.prctl(self.SET, 0, 0, 0, 0)
            except (OSError, AttributeError, TypeError):
                self.prctl = None
        return self

    def __exit__(self, *error):
        if self.prctl is not None and self.before is not None and self.before > 0:
            self.prctl(self.SET, self.before, 0, 0, 0)
        return False


class stopping_kills_the_group:
    """While the block runs, SIGTERM, SIGHUP and SIGINT raise Stopped (in the main thread, where
    signals are handled) so that the `finally` above kills the child's group; on the way out,
    a Stopped becomes one line with no verdict. The previous handlers come back after."""

    def __enter__(self):
        self.started, self.previous = [], {}
        if threading.current_thread() is threading.main_thread():
            for name in STOPPING:
                number = getattr(signal, name, None)
                if number is not None:
                    self.previous[number] = signal.signal(number, self.stop)
        return self.started

    @staticmethod
    def stop(number, frame):
        raise Stopped(signal.Signals(number).name)

    def __exit__(self, kind, error, traceback):
        for number, handler in self.previous.items():
            signal.signal(number, handler)
        for child in self.started:
            _kill(child)
        if isinstance(error, Stopped):
            raise SolutionFailed(message("grade.stopped", signal=error))
        return False


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
