"""local_names: name each tensor by the variable of your code that held it, for the explorer.

    with minigrad.debug.local_names() as found:
        h, c = cell(x, (h, c))                  # inside the cell: gates, i, f, g, o, c, h
    explore(h.sum(), names=cell, variables=found)   # the panel reads "i (2, 3)", not "Sigmoid's
                                                    # output (2, 3)"
"""

import os
import sys
import sysconfig

from minigrad.debug.watch import MINIGRAD
from minigrad.tensor import Tensor

LAYERS = os.path.join(MINIGRAD, "nn")       # minigrad's layers: a learner reads them as a model,
MODULE = os.path.join(LAYERS, "module.py")  # but not Module's machinery (finding parameters)
LIBRARIES = tuple(os.path.abspath(sysconfig.get_paths()[kind]) + os.sep   # Python's own
                  for kind in ("stdlib", "platstdlib", "purelib", "platlib"))   # and NumPy


class local_names:
    """While the block runs, note for each Tensor the name of the local variable that held it
    when a function of your code returned; `as found` gives {name: tensor}, filled when the
    block ends, for `explore(..., variables=found)` (or `names=found`).

    - The innermost function wins: in `h = cell(x)`, a tensor that the cell held as `o` is `o`,
      whatever the caller calls it. The block's own variables (`h` here) name what is left.
    - A function's parameters come last: `def attend(x)` names what it is given `x` only if no
      other variable held it (as the state an RNN's loop passes from step to step).
    - Your code is any file outside minigrad and the installed libraries (NumPy, Python's own),
      and minigrad's layers (minigrad/nn: lstm_cell's i, f, g, o); minigrad's engine (Tensor's
      methods, the ops, Module's machinery) names nothing.
    - A name that several tensors had is numbered in the order they got it: an LSTM run over
      three steps gives `h #1`, `h #2`, `h #3`. Same code, same names, every run.

    How: a profile hook (`sys.setprofile`) reads a function's locals as it returns, as a
    debugger would. It calls any profile function that was there before, and puts it back at
    the end. A forward pass runs slower by what the hook costs, no more."""

    def __init__(self):
        self.found = {}                     # the {name: tensor} handed out
        self._named = {}                    # id(tensor) -> (tensor, name), first name only
        self._passed = {}                   # the same, by a parameter's name: used last
        self._yours = {}                    # code object -> whether it is the learner's
        self._previous = None

    def __enter__(self):
        self._previous = previous = sys.getprofile()
        yours, is_yours, note = self._yours, self._is_yours, self._note

        def profile(frame, event, arg):     # (called on every call and return: kept short,
            if previous is not None:        # its names local, the kind of a code cached)
                previous(frame, event, arg)
            if event == "return":
                code = frame.f_code
                if yours.get(code) or (code not in yours and is_yours(code)):
                    note(frame.f_locals, code.co_varnames[:code.co_argcount
                                                          + code.co_kwonlyargcount])
        sys.setprofile(profile)
        return self.found

    def __exit__(self, *exc):
        sys.setprofile(self._previous)
        self._note(sys._getframe(1).f_locals)       # the block's own variables, then
        for key, named in self._passed.items():      # a parameter's name where none other
            self._named.setdefault(key, named)
        self.found.update(numbered(self._named.values()))
        return False

    def _note(self, variables, parameters=()):
        """Name the tensors among `variables` not named yet (by a parameter's name: apart)."""
        for name, value in variables.items():
            if isinstance(value, Tensor) and id(value) not in self._named:
                kept = self._passed if name in parameters else self._named
                kept.setdefault(id(value), (value, name))  # (kept: its id is never reused)

    def _is_yours(self, code):
        if code not in self._yours:
            file = os.path.abspath(code.co_filename)
            layer = file.startswith(LAYERS + os.sep) and file != MODULE
            engine = file.startswith(MINIGRAD + os.sep) and not layer
            self._yours[code] = not (engine or file.startswith(LIBRARIES + ("<frozen",)))
        return self._yours[code]


def numbered(pairs):
    """{name: tensor} from (tensor, name) pairs in order, each name made unique (`unique`)."""
    pairs = list(pairs)
    return dict(zip(unique([name for _, name in pairs]), [tensor for tensor, _ in pairs]))


def unique(names, taken=()):
    """The names, in order, those held by several numbered `name #1`, `name #2`, ... in that
    order, skipping any number that is already a name: ['h', 'x', 'h'] -> ['h #1', 'x', 'h #2'].
    A name in `taken` (held by another already) is numbered from 2: 'x' -> 'x #2'."""
    taken, count = set(taken), {}
    for name in names:
        count[name] = count.get(name, 0) + 1
    used = taken | {name for name, n in count.items() if n == 1}
    last, out = {}, []
    for name in names:
        if count[name] == 1 and name not in taken:
            out.append(name)
            continue
        k = last.get(name, 1 if name in taken else 0) + 1
        while f"{name} #{k}" in used:
            k += 1
        last[name] = k
        out.append(f"{name} #{k}")
        used.add(out[-1])
    return out
