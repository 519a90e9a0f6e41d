"""Watching the student's code as it runs, for the grader's diagnosis (diagnose.py): which line
of their file made each op and each tensor made without an op (`StudentLines`), and the values
of their local variables when their function returns (`keeping_locals`).
"""

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from sys import getprofile, setprofile  # the real ones, whatever a student's file does to sys

from minigrad.debug.watch import MINIGRAD, Watcher
from minigrad.messages import message
from minigrad.tensor import Tensor

TENSOR_INIT = Tensor.__init__.__code__       # the code a profile hook sees make a leaf
DETACH = Tensor.detach.__code__


@dataclass(eq=False)
class Copy:
    """A tensor the student's code made without an op: a copy of values, off the graph."""
    tensor: object
    line: int                   # the line of the student's file that made it
    how: str                    # "tensor": Tensor(...) there; "detach": .detach(); "array": an
    name: str = None            # op given an array; name: the local variable holding it


class StudentLines(Watcher):
    """While open, note for every op made the line of the student's file (`path`) that made it:
    the innermost frame of that file on the stack. An op made by a library the student called
    (attention's functions), not by minigrad's operators on the student's line, is noted as
    made there too, but as made indirectly (`direct`).

    Tensors made without an op (leaves: `Tensor(h.data)`, `r.detach()`) are what cut a graph,
    and the engine sees no op make them; so a profile hook (`sys.setprofile`, chained with any
    other) notes, for each `Tensor(...)` called while the student's code runs, the line of
    theirs that called it and how (`copy_of`), and, when a function of theirs returns, the
    name of the local variable that holds it."""

    def __init__(self, path):
        self.path = os.path.abspath(path) if path else None
        self.lines = {}                             # op -> line number
        self.direct = set()                         # the ops made by the student's line itself
        self.leaves = {}                            # id(tensor) -> (tensor, its Copy)
        self._kinds = {}                            # file name -> "student", "minigrad", "other"
        self._text = None                           # the file's lines, once read
        self._previous = None                       # the profile hook that was there before

    def __enter__(self):
        super().__enter__()
        if self.path is not None:
            self._previous = getprofile()
            setprofile(self._profile)
        return self

    def __exit__(self, *exc):
        if self.path is not None:
            setprofile(self._previous)
        return super().__exit__(*exc)

    def _profile(self, frame, event, arg):
        if self._previous is not None:
            self._previous(frame, event, arg)
        if event == "call" and frame.f_code is TENSOR_INIT:
            self._note_leaf(frame)
        elif (event == "return" and self.leaves
              and self._kind(frame.f_code.co_filename) == "student"):
            for name, value in frame.f_locals.items():
                made = self.copy_of(value)
                if made is not None and made.tensor is value and made.name is None:
                    made.name = name

    def _note_leaf(self, frame):
        """A Tensor(...) call: how it was made, from which line of the student's file.
        'tensor': Tensor(...) written on that line; 'detach': t.detach() on that line; 'array':
        something the line called (an op given a NumPy array) made it."""
        tensor, caller = frame.f_locals.get("self"), frame.f_back
        how = "detach" if caller is not None and caller.f_code is DETACH else "tensor"
        if how == "detach":
            caller = caller.f_back
        while caller is not None and self._kind(caller.f_code.co_filename) != "student":
            how, caller = "array", caller.f_back
        if caller is not None and tensor is not None:
            self.leaves[id(tensor)] = (tensor, Copy(tensor, caller.f_lineno, how))

    def copy_of(self, tensor):
        """The Copy (made without an op, on a line of the student's file) that `tensor` is or
        was computed from without the engine recording it (Tensor(h.data)[:, :5]), or None."""
        leaf = self.leaves.get(id(tensor))
        return None if leaf is None or leaf[0] is not tensor else leaf[1]

    def after_forward(self, op, inputs, out):
        if self.path is None:
            return
        if out.creator is None:             # not recorded: computed from copies alone, such as
            copies = [self.copy_of(x) for x in inputs if self.copy_of(x) is not None]
            made = next((c for c in copies if c.tensor.size > 1),   # Tensor(h.data)[:, :5]: it
                        copies[0] if copies else None)              # goes back to Tensor(...);
                                                                    # 1 - z: to z, not to the 1
            if made is not None:
                self.leaves[id(out)] = (out, made)
        frame, direct = sys._getframe(1), True
        while frame is not None:
            kind = self._kind(frame.f_code.co_filename)
            if kind == "student":
                self.lines[op] = frame.f_lineno
                if direct:
                    self.direct.add(op)
                return
            direct = direct and kind == "minigrad"
            frame = frame.f_back

    def _kind(self, file):
        if file not in self._kinds:
            full = os.path.abspath(file)
            self._kinds[file] = ("student" if full == self.path
                                 else "minigrad" if full.startswith(MINIGRAD + os.sep)
                                 else "other")
        return self._kinds[file]

    def line_of(self, op):
        """'your file, line 7: n = (...).tanh()', or None when no line of the file made `op`."""
        number, code = self.number(op), self.code(op)
        if number is None:
            return None
        return (message("grade.file_line", number=number, code=code) if code
                else message("grade.file_line_only", number=number))

    def number(self, op):
        return self.lines.get(op)

    def code(self, op):
        """The code of the line that made `op`, without its comment ('' if unknown). Read from
        the file itself: `linecache` may hold an older version of a file that was rewritten."""
        return self.code_at(self.lines.get(op))

    def code_at(self, number):
        """The code of line `number` of the student's file, without its comment."""
        if number is None:
            return ""
        if self._text is None:
            self._text = Path(self.path).read_text(encoding="utf-8").splitlines()
        code = self._text[number - 1].strip() if number <= len(self._text) else ""
        return code.split("  #")[0].rstrip()


def keeping_locals(run, fn, names):
    """run() (a call that ends up calling `fn`), keeping the local variables `names` of `fn`
    as they are when it returns. Returns (what run() returned, {name: value} of those found)."""
    code = getattr(fn, "__code__", None)
    kept = {}
    if code is None or not names:
        return run(), kept

    previous = getprofile()         # the grader's watch for answers: it goes on watching

    def profile(frame, event, arg):
        if previous is not None:
            previous(frame, event, arg)
        if event == "return" and frame.f_code is code:
            found = frame.f_locals
            kept.update({name: found[name] for name in names if name in found})

    setprofile(profile)
    try:
        result = run()
    finally:
        setprofile(previous)
    return result, kept
