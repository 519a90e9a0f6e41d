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
from minigrad.nn.module import Module
from minigrad.tensor import Tensor

LAYERS = os.path.join(MINIGRAD, "nn")       # minigrad's layers: a learner reads them as a model,
MODULE = os.path.join(LAYERS, "module.py")  # but not Module's machinery (finding parameters)
LIBRARIES = tuple(os.path.abspath(sysconfig.get_paths()[kind]) + os.sep   # Python's own
                  for kind in ("stdlib", "platstdlib", "purelib", "platlib"))   # and NumPy
CALL = Module.__call__.__code__             # a module called: module(x) runs forward(x)
COMPREHENSIONS = ("<genexpr>", "<listcomp>", "<setcomp>", "<dictcomp>")


class local_names:
    """While the block runs, note for each Tensor the name that your code gave it; `as found`
    gives {name: tensor}, filled when the block ends, for `explore(..., variables=found)` (or
    `names=found`). Of the names a tensor had, the first of these wins:

    1. The name given where it was made: the first variable that held it in the function whose
       line made it (`scores = q @ k.T`), even if that name is bound to something else later
       (`x = x + attend(x)` then `x = x + feed_forward(x)`: each sum is an `x`).
    2. A layer's output that no variable named there: the block's call of it, `norm2(x)` for
       `self.norm2(x)` (the block's own name for its sublayer, and for the input it gave, or
       that input's own `name` if it has one when the block ends: `norm2(x1)`).
    3. The first variable of another function that held it, innermost first (as functions
       return): the caller's `h = cell(x)` names what the cell made but never named.
    4. A name that only passes along what a function was given: its parameters, a variable
       holding the same tensor as a parameter (a loop `for x in (query, key)`). `def
       attend(x)` names what it is given `x` only if nothing else named it (as the state an
       RNN's loop passes from step to step). A comprehension's variable names nothing.

    - Your code is any file outside minigrad and the installed libraries (NumPy, Python's own),
      and minigrad's layers (minigrad/nn: lstm_cell's i, f, g, o); minigrad's engine (Tensor's
      methods, the ops, Module's machinery) names nothing. The block's own variables count as
      a function's that returns when the block ends.
    - A name that several tensors had is numbered, those of rule 1 first, then 2, 3, 4, each in
      the order they got it: an LSTM run over three steps gives `h #1`, `h #2`, `h #3`. Same
      code, same names, every run.

    How: a profile hook (`sys.setprofile`) reads a function's locals as it returns, as a
    debugger would; a tensor that minigrad hands back to a function of yours was made there,
    and that function's locals are read again each time it calls another, until one holds it.
    The hook calls any profile function that was there before, and puts it back at the end;
    it keeps the tensors it sees until the block ends. A forward pass runs slower by what the
    hook costs, no more."""

    def __init__(self):
        self.found = {}                     # the {name: tensor} handed out
        self._ranked = ({}, {}, {}, {})     # rules 1 to 4: id(tensor) -> (tensor, name), first
        self._calls = {}                    # id(tensor) -> (tensor, sublayer, its input, the
                                            # block's variables holding the input): rule 2
        self._made = {}                     # id(frame) -> tensors made there, not named yet
        self._seen = {}                     # id(tensor) -> tensor: each tensor is made once
        self._yours = {}                    # code object -> whether it is the learner's
        self._previous = None

    def __enter__(self):
        self._previous = previous = sys.getprofile()
        is_yours, made, name_made = self._is_yours, self._made, self._name_made

        def profile(frame, event, arg):     # (called on every call and return: kept short)
            if previous is not None:
                previous(frame, event, arg)
            caller = frame.f_back
            if event == "call":             # the caller's variables, as it calls on
                if id(caller) in made:
                    name_made(caller)
            elif event == "return":
                if frame.f_code.co_name in COMPREHENSIONS:  # its variables name nothing
                    made.pop(id(frame), None)
                elif is_yours(frame.f_code):
                    self._returned(frame)
                elif isinstance(arg, Tensor) and caller is not None and is_yours(caller.f_code):
                    self._handed(frame, caller, arg)
        sys.setprofile(profile)
        return self.found

    def __exit__(self, *exc):
        sys.setprofile(self._previous)
        self._returned(sys._getframe(1))    # the block's own variables, as if it returned
        for key, (tensor, sublayer, given, held) in self._calls.items():
            self._ranked[1][key] = (tensor, call_name(sublayer, given, held))
        for names in self._ranked[1:]:      # then each rule in turn, where no earlier one named
            for key, named in names.items():
                self._ranked[0].setdefault(key, named)
        self.found.update(numbered(self._ranked[0].values()))
        return False

    def _handed(self, frame, caller, tensor):
        """minigrad returned `tensor` to `caller`, a function of yours: made there (rule 1) if
        never seen before (a leaf handed back is not made); if a module's call returned it,
        named by the call (rule 2)."""
        if id(tensor) not in self._seen and tensor.creator is not None:
            self._seen[id(tensor)] = tensor
            self._made.setdefault(id(caller), []).append(tensor)
        if frame.f_code is CALL and not any(tensor is x for x in frame.f_locals["args"]):
            owner, module = caller.f_locals.get("self"), frame.f_locals["self"]
            sublayer = [name for name, value in getattr(owner, "__dict__", {}).items()
                        if value is module]
            if sublayer and frame.f_locals["args"]:
                given = frame.f_locals["args"][0]
                held = [name for name, value in caller.f_locals.items() if value is given]
                self._calls.setdefault(id(tensor), (tensor, sublayer[0], given, held))

    def _returned(self, frame):
        """A function of yours returns: its tensors made and not named yet get their name
        now or never (rule 1); its other variables are noted for rules 3 and 4."""
        self._name_made(frame)
        self._made.pop(id(frame), None)
        code, variables = frame.f_code, frame.f_locals
        parameters = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
        passed = {id(variables[p]) for p in parameters if isinstance(variables.get(p), Tensor)}
        for name, value in variables.items():
            if isinstance(value, Tensor):
                rule = 3 if name in parameters or id(value) in passed else 2
                self._ranked[rule].setdefault(id(value), (value, name))

    def _name_made(self, frame):
        """Name the tensors made in `frame` that one of its variables holds now (rule 1)."""
        held = {}
        for name, value in frame.f_locals.items():
            if isinstance(value, Tensor):
                held.setdefault(id(value), name)
        left = []
        for tensor in self._made[id(frame)] if id(frame) in self._made else ():
            if id(tensor) in held:
                self._ranked[0].setdefault(id(tensor), (tensor, held[id(tensor)]))
            else:
                left.append(tensor)
        if left:
            self._made[id(frame)] = left
        else:
            self._made.pop(id(frame), None)

    def _is_yours(self, code):
        if code not in self._yours:
            file = os.path.abspath(code.co_filename)
            layer = file.startswith(LAYERS + os.sep) and file != MODULE
            engine = file.startswith(MINIGRAD + os.sep) and not layer
            self._yours[code] = not (engine or file.startswith(LIBRARIES + ("<frozen",)))
        return self._yours[code]


def call_name(sublayer, given, held):
    """`norm2(x)`: a sublayer's name, and its input's: the input's own `name` if it has one
    (given to it since: `norm2(x1)`), else the first of the block's variables that held it;
    `norm2's output` if neither."""
    name = given.name if isinstance(given, Tensor) and given.name else (held or [None])[0]
    return f"{sublayer}({name})" if name else f"{sublayer}'s output"


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
