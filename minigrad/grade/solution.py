"""The student's side of grading: their file loaded by its path, their code called, and what
goes wrong with it turned into a `SolutionFailed` that says what and where (the line of their
file, for an error raised in it). All of it runs in the graded code's own process (child.py).

While their code runs, the exercise's answers may not (minigrad.grade.answers): a solution that
calls the reference fails, whatever it computes.
"""

import errno
import importlib.machinery
import importlib.util
import sys
import traceback
from contextlib import contextmanager
from pathlib import Path

from minigrad.command import exit_call
from minigrad.files import os_reason
from minigrad.grade.answers import refusal, watching
from minigrad.messages import message


class SolutionFailed(Exception):
    """A submission that does not do what the exercise asks; the message says what and where."""


class FreshSource(importlib.machinery.SourceFileLoader):
    """Compiles the file each time, never through a .pyc. A cached .pyc is trusted when the
    source has the same size and the same modification time to the second, so a fix saved
    within a second of the last grading, of the same length (`z * n + (1 - z) * h` turned into
    `(1 - z) * n + z * h`), would be graded as the old code."""

    def get_code(self, fullname):
        return self.source_to_code(self.get_data(self.path), self.path)


def solution_file(path):
    """`path` as a Path, if it is a regular file; else SolutionFailed saying what it is: a
    folder, a FIFO or device (which would block or never end), nothing, or a path the system
    cannot look at (a name too long, a folder not to be read), with its reason."""
    path = Path(path)
    try:
        path.stat()
    except OSError as error:            # pathlib's is_dir() takes these for "no file"; not others
        if error.errno not in (errno.ENOENT, errno.ENOTDIR, errno.ELOOP, errno.EBADF):
            raise SolutionFailed(message("grade.cannot_look", path=path,
                                         reason=os_reason(error))) from None
    if path.is_dir():
        raise SolutionFailed(message("grade.directory", path=path))
    if path.exists() and not path.is_file():
        raise SolutionFailed(message("grade.not_regular", path=path))
    if not path.is_file():
        raise SolutionFailed(message("grade.no_file", path=path))
    return path


def load_solution(path):
    """The student's file as a module, imported by its path (it need not be on sys.path)."""
    path = solution_file(path)
    name = f"solution_{abs(hash(str(path.resolve())))}"
    spec = importlib.util.spec_from_file_location(name, path,
                                                  loader=FreshSource(name, str(path)))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module                     # classes and dataclasses look their module up
    try:
        spec.loader.exec_module(module)
    except SyntaxError as error:
        raise SolutionFailed(message("grade.syntax_error", path=path, line=error.lineno,
                                     error=error.msg)) from None
    except (Exception, SystemExit) as error:  # the student's code: anything can happen
        raise SolutionFailed(message("grade.import_raised", path=path,
                                     error=error_text(error, path))) from None
    return module


def require(solution, exercise):
    """The function (or class) the exercise asks for, from the student's module: from its
    namespace, never through a module `__getattr__`, whose code would run here."""
    found = vars(solution).get(exercise.defines)
    if found is None:
        raise SolutionFailed(message("grade.defines_none", name=exercise.name,
                                     defines=exercise.defines, signature=exercise.signature))
    if not callable(found):
        raise SolutionFailed(message("grade.not_callable", name=exercise.name,
                                     defines=exercise.defines, type=type(found).__name__))
    return found


def error_text(error, path=None):
    """'ValueError: message (your file, line 12)': the error and the deepest line of the
    student's file in its traceback, control characters written out (`visible`). A SystemExit
    (sys.exit() in the student's code) is caught as an error: let through, it would end the
    graded code's process before it gave back its results, and the report would not say where.
    (Ctrl-C, a KeyboardInterrupt, still stops the grading.)"""
    if isinstance(error, SystemExit):
        text = message("grade.exit_called", call=exit_call(error))
    else:
        text = f"{type(error).__name__}: {visible(str(error))}"
    frames = traceback.extract_tb(error.__traceback__)
    if path is not None:
        mine = [f for f in frames if Path(f.filename).resolve() == Path(path).resolve()]
        if mine:
            text += message("grade.your_line", line=mine[-1].lineno,
                            code=visible(mine[-1].line or ""))
    return text


def visible(text):
    """`text` with every control character (terminal escapes, carriage returns) written out
    as Python escapes, so that what the student's code printed cannot move the cursor, erase
    the grader's line or draw a fake one."""
    return "".join(c if c.isprintable() or c == " " else repr(c)[1:-1] for c in text)


@contextmanager
def refusing_answers(exercise, importing=False):
    """The student's code runs in this block (their file imported, when `importing`): if one
    of the exercise's answers ran in it, the solution fails, whatever it computed and whatever
    it raised."""
    if not exercise.answers:
        yield
        return
    with watching(exercise.answers) as ran:
        try:
            yield
        finally:
            if ran:
                raise SolutionFailed(refusal(exercise, ran, importing)) from None


def call(exercise, fn, args, settings, case_text, path):
    """fn(*args, **settings), with the student's error turned into a SolutionFailed."""
    try:
        with refusing_answers(exercise):
            return fn(*args, **settings)
    except SolutionFailed:
        raise
    except (Exception, SystemExit) as error:  # the student's code: anything can happen
        raise SolutionFailed(message("grade.call_raised", name=exercise.name,
                                     defines=exercise.defines, case=case_text,
                                     error=error_text(error, path))) from None
