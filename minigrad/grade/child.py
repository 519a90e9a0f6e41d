"""The graded code's own process: `python -m minigrad.grade.child REQUEST RESULT ...`.

The grader (process.py) starts this process with a request: the student's file, the function
it must define, the cases' inputs and the upstream gradients. Here the file is loaded, the
function called on every case, and what came out is written to RESULT: outputs, gradients,
finite differences, the named intermediates, and the diagnosis's text (which line made what).
Each array is sealed to the grader as it is recorded, and the file at the end (seal.py): a
results file the student's code writes itself is not read.
Nothing here decides a verdict. The grader compares the results with the reference in its own
process, which never imports the student's code: whatever the graded code does here (print a
'passed' line, end the process, replace the grader's functions) changes this process alone.

First this process forks (`step_aside`): the graded code runs in the new one, whose parent
is this one, not the grader, and each dies with its parent (`die_with_parent`).

Before the student's file is loaded, an audit hook guards the process for as long as it runs
(audit.py): the expected values and the reference solutions cannot be opened, nor another
process's files under /proc; no other process can be started or sent a signal; no file can be
written outside the temporary folder; `gc.get_objects`, `sys.setprofile`, `sys.settrace`,
replacing the code of the project's functions and naming a path with an object that could
name another file when asked again are refused. And every thread started from then on, while
the file is imported too, carries the watches for answers (threads.py). The file's own folder
is appended to `sys.path`, so that a module beside it (`from helpers import gates`) is found
from any folder, as when it is run from its own, and shadows nothing.

And the grader's modules here (minigrad.grade.*, minigrad.gradcheck) are compared, name by
name, before the student's file is loaded and after their code has run (`unchanged`): a name
replaced, added or removed (the watch swapped for one that watches nothing) is noted too.

Each of these is reported as a refusal, and the solution fails. None of it is a wall: code in
this process set on getting round it can (through the interpreter's C API, say). It guards the
watch for answers against the plain ways round it; the verdict needs no guard, as it is written
in the grader's own process from the numbers that the seals vouch for.
"""


import ctypes
import importlib
import json
import os
import signal
import sys
import types
from types import SimpleNamespace

import numpy as np

from minigrad.grade.answers import BuiltinAnswer
from minigrad.grade.audit import guard
from minigrad.grade.paths import readers_changed, restore, snapshot
from minigrad.grade.refusals import refusal_text
from minigrad.grade.seal import Recorded, read_key, sealer
from minigrad.grade.threads import watch_every_thread
from minigrad.grade.torch_files import unchecked, watch_torch_import


def grader_modules():
    """{module: a copy of its names} for the grader's modules loaded here."""
    return {module: dict(vars(module)) for name, module in list(sys.modules.items())
            if name.startswith("minigrad.grade") or name in ("minigrad.gradcheck", "__main__")}


def unchanged(before):
    """None, or the reason (refusals.py) that names the first name of a grader's module that
    the student's code replaced, added or removed since `before` (grader_modules()), as a
    plain (kind, values) pair: made with no name of this module, which may be the one
    replaced."""
    for module, names in before.items():
        now = vars(module)
        for name in sorted(set(names) | set(now)):
            if name.startswith("__") and name.endswith("__"):
                continue                    # __warningregistry__ and the like
            if name not in names and isinstance(now[name], types.ModuleType):
                continue                    # a submodule imported since: a package's name
            if names.get(name, unchanged) is not now.get(name, unchanged):
                return "changes", {"module": module.__name__, "name": name}
    return None


def read(path):
    """(meta, {name: array}) from an .npz written by `write`; data only, never a pickle."""
    with np.load(path, allow_pickle=False) as found:
        arrays = {name: found[name] for name in found.files}
    return json.loads(str(arrays.pop("meta"))), arrays


def write(path, meta, arrays):
    np.savez(path, meta=np.array(json.dumps(meta)), **arrays)


def resolve(spec):
    """'attention.modules:MultiHeadAttention' -> the class (or function) it names."""
    module, _, name = spec.partition(":")
    found = importlib.import_module(module)
    for part in name.split("."):
        found = getattr(found, part)
    return found


def die_with_parent(parent):
    """Have the kernel kill this process when `parent` ends (PR_SET_PDEATHSIG, Linux; nothing
    elsewhere), and end now if it already has: no graded code lives on without its grader."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError, TypeError):
        pass
    if os.getppid() != parent:
        os._exit(1)


def step_aside():
    """Fork: this process waits for the one that runs the graded code, and ends as it ends
    (128 + the signal, for a signal). So the graded code's `os.getppid()` is this process, not
    the grader: what it sends its parent ends at most this process, which takes its child with
    it (die_with_parent), and the grader sees a process that ended without results."""
    me = os.getpid()
    pid = os.fork()
    if pid == 0:
        die_with_parent(me)
        return
    while True:
        try:
            _, status = os.waitpid(pid, 0)
            break
        except InterruptedError:
            continue
    code = os.waitstatus_to_exitcode(status)
    os._exit(code if code >= 0 else 128 - code)


def main(request_path, result_path, grader, key_fd, seals_fd):
    # The seals' key, read and its pipe closed before anything else: no code of the student's
    # has run yet (seal.py). Every array recorded is sealed to the grader as it is recorded.
    result = Recorded(sealer(read_key(int(key_fd)), int(seals_fd)))
    die_with_parent(int(grader))
    if hasattr(os, "fork"):
        step_aside()
    # No .pyc files for what the student's file imports: they go beside the code, outside the
    # temporary folder, and a .pyc put there is what the next grading would run.
    sys.dont_write_bytecode = True
    meta, arrays = read(request_path)
    from minigrad.grade.solution import SolutionFailed, load_solution, refusing_answers, require
    runner = resolve(meta["runner"])
    exercise = SimpleNamespace(**meta["exercise"], answers=tuple(
        BuiltinAnswer(spec) if spec.startswith("builtin ") else resolve(spec)
        for spec in meta["watched"]))
    noted = guard(meta["blocked"], os.path.dirname(os.path.abspath(result_path)),
                  meta.get("project", ()), os.path.dirname(os.path.abspath(meta["path"])))
    before, compare = grader_modules(), unchanged       # bound before the student's file runs
    modules = sys.modules                               # the dict imports go to, whatever
    readers = snapshot()                                # what the hook reads paths with
    watch_every_thread()            # threads the file starts when imported are watched too
    watch_torch_import()            # torch's file functions checked as open() is
    # A module beside the student's file (`from helpers import gates`) is found from any
    # folder, as it is when the file is run from its own; appended, it shadows nothing. The
    # working folder (which minigrad.working_folder took off the front of the path before
    # anything was imported) goes after it, so that a module of the same name there does not
    # shadow the student's own.
    sys.path.append(os.path.dirname(os.path.abspath(meta["path"])))
    if os.getcwd() not in sys.path:
        sys.path.append(os.getcwd())
    facts = {"cases": []}
    try:
        with refusing_answers(exercise, importing=True):     # nor when it is imported
            solution = load_solution(meta["path"])
        # Watched from the look-up to the last result read: whatever of the student's code
        # runs on the way (a property of an output, a method of a returned object) too.
        with refusing_answers(exercise):
            fn = require(solution, exercise)
            runner(exercise, solution, fn, meta, arrays, result, facts["cases"])
    except SolutionFailed as failure:
        facts["failed"] = str(failure)
    # torch's functions read as stored (no code of the student's runs, with the watch over),
    # and the grader's modules compared last: nothing run since goes unseen.
    # Whether one is found is told by `is None` and built-in types alone: the words of a
    # reason (a str, empty if the student's code emptied the catalogue) decide nothing.
    changed = unchecked(modules)
    if changed is None:
        changed = compare(before)
    replaced = readers_changed(readers)
    if replaced is not None:                            # put back, to write the results
        restore(readers)
        if changed is None:
            changed = "replaces", {"name": replaced}
    if noted or changed is not None:
        facts["refused"] = refusal_text(meta["exercise"], noted[0] if noted else changed)
    write(result_path, facts, result)
    result.seal_end(result_path)        # after the final checks: without it, no results count
    os._exit(0)         # now: not after threads the student's code left running, nor its atexit


if __name__ == "__main__":
    main(*sys.argv[1:6])
