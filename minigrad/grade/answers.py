"""Refusing a solution that runs the answer it is graded against.

Some exercises re-create a piece the project already has (`seq2seq.models.decoding.beam_search`,
`attention.MultiHeadAttention`, `minigrad.nn.LayerNorm`, the softmaxes that compute a
log-sum-exp), so a file holding one import of it would compare the answer with itself and pass.
Each exercise names them (its `answers`).

The reference solutions of the other exercises are not in the package (they are in the
project's tests, tests/reference/; the grader compares with values they gave, stored in
expected.npz), and the student's code runs in a process of its own (child.py) where neither
the stored values nor, in a clone, the files in tests/reference/ can be opened: importing a
reference, loading it from another path or a link, running its source with `exec`, copying it
to load the copy or reading the stored values fails, and is refused. The
project's own versions are part of the library the student's code imports, so they cannot be
kept out; what that process can tell is whether one *runs* while the student's code runs. While
the student's function, its backward or its gradient check runs, a profile hook
(`sys.setprofile`, which leaves debuggers alone: they use `sys.settrace`) notes every call of a
Python function (and of an answer written in C, `BuiltinAnswer`), in every thread
(threads.py), and looks it up among the answers' code
objects, and among the files of the answer modules (a module imported a second time, by
`importlib.reload` or from its path, has new code objects but the same file); a function or
class answer's code is also known in its file by its qualified name, or by its bytecode
(answer_code). A solution fails when any answer
ran, whatever its outputs (`solution.refusing_answers`); and when it calls `sys.setprofile`
itself (audit.py).

This watch is there to keep an honest mistake from passing. Code set on getting round it can
(by Python's C API through ctypes, say): it runs in the student's own process. What it cannot
do is change the verdict, which the grader writes in its own process from the numbers.

Reading a reference and writing the same lines in one's own file is allowed: those lines are
then the student's own code, in the student's file.
"""

import inspect
import os
import types
from contextlib import contextmanager
from sys import getprofile, setprofile

from minigrad.grade.threads import in_other_threads
from minigrad.messages import message


class BuiltinAnswer:
    """An answer written in C (torch's `gru_cell`), named 'builtin MODULE:QUALNAME' in an
    exercise's answers ('builtin torch:_VariableFunctionsClass.gru_cell'): the profile hook
    sees its calls as 'c_call' events and knows it by the module and qualified name it reports.
    Nothing is imported for it, so torch is loaded only when the student's code loads it."""

    def __init__(self, spec):
        self.module, _, self.qualname = spec.removeprefix("builtin ").partition(":")
        self.name = f"{self.module}.{self.qualname.rpartition('.')[2]}"


# torch's operators called by the dispatcher's names, torch.ops.aten.gru_cell(...) or its
# overload torch.ops.aten.gru_cell.default(...): the C function the profile hook sees is named
# in this module, with a qualified name pybind11 mangles, and an overload's name is empty.
ATEN = "torch._ops.aten"


def builtin_names(answers):
    """{(module, qualified name): the name a refusal gives} of the answers written in C; a
    torch answer also as (ATEN, its operator's name), as `called` names such a call."""
    names = {}
    for answer in answers:
        if isinstance(answer, BuiltinAnswer):
            names[answer.module, answer.qualname] = answer.name
            if answer.module == "torch":
                names[ATEN, answer.qualname.rpartition(".")[2]] = answer.name
    return names


def called(frame, function):
    """(module, qualified name) of the C function a 'c_call' event calls; torch's operators as
    (ATEN, 'gru_cell'), read from the operator object whose __call__ is `frame`."""
    module = getattr(function, "__module__", None)
    if module != ATEN:
        return module, getattr(function, "__qualname__", None)
    operator = getattr(frame.f_locals.get("self"), "_name", "") or ""
    return module, getattr(function, "__name__", "") or operator.removeprefix("aten::")


def answer_code(answers):
    """What the watch knows of the answers: ({id(code): (code, 'module.qualname')}, {file
    names}, {file: {qualname: name}}, {co_code: [(co_consts, co_names, name)]}). A module stands
    for every function and class defined in it (and for its file), a class for its methods.

    The last two find an answer's code that is not the very code object but still claims the
    answer's file: a module imported again (`importlib.reload`) makes new functions with the
    same qualified names, and a function rebuilt from an answer's code
    (`types.FunctionType(code.replace(co_name=...))`) keeps its bytecode, constants and names,
    whatever it is called. Code in another file with the same bytecode is a copy of the lines,
    which is allowed: the student's file's own code."""
    codes, files, places, bodies = {}, set(), {}, {}
    for answer in answers:
        if isinstance(answer, types.ModuleType):
            files.update({answer.__file__, os.path.realpath(answer.__file__)})
        for function in _functions(answer):
            function = inspect.unwrap(function)         # @no_grad() wraps: its wrapper's code
            code = function.__code__                    # is shared by every decorated function
            name = f"{function.__module__}.{function.__qualname__}"
            codes[id(code)] = (code, name)
            places.setdefault(os.path.realpath(code.co_filename), {})[code.co_qualname] = name
            bodies.setdefault(code.co_code, []).append((code.co_consts, code.co_names, name))
    return codes, files, places, bodies


def same_body(code, bodies):
    """The answer whose bytecode, constants and names `code` has, or None."""
    return next((name for consts, names, name in bodies.get(code.co_code, ())
                 if consts == code.co_consts and names == code.co_names), None)


def _functions(answer):
    """The Python functions an answer is made of: a function itself, a class's methods, a
    module's functions and classes (those defined in it, not those it imports)."""
    if isinstance(answer, types.ModuleType):
        for value in vars(answer).values():
            if (inspect.isfunction(value) or inspect.isclass(value)) \
                    and value.__module__ == answer.__name__:
                yield from _functions(value)
    elif inspect.isclass(answer):
        for value in vars(answer).values():
            if isinstance(value, (staticmethod, classmethod)):
                value = value.__func__
            if isinstance(value, property):
                yield from (f for f in (value.fget, value.fset, value.fdel) if f is not None)
            elif inspect.isfunction(value):
                yield value
    elif inspect.isfunction(answer):
        yield answer


@contextmanager
def watching(answers):
    """Run the block (the student's code) and collect, in the list it yields, the name of every
    answer that ran inside it, whether the block returned, raised or caught an error."""
    codes, files, places, bodies = answer_code(answers)
    builtins = builtin_names(answers)
    ran = []
    real = {}                       # a code's file name -> its real path (relative, symlinked)
    homes = {code.co_filename for code, _ in codes.values()}     # id() only for calls there:
                                    # in the graded code's process, each id() is an audit event

    previous = getprofile()         # the grader's diagnosis (diagnose.StudentLines) goes on

    def profile(frame, event, arg):
        if previous is not None:
            previous(frame, event, arg)
        look(frame, event, arg)

    def look(frame, event, arg):
        if event == "c_call" and builtins:
            found = builtins.get(called(frame, arg))
            if found is not None:
                ran.append(found)
        elif event == "call":
            code = frame.f_code
            name = code.co_filename
            if name not in real:
                real[name] = os.path.realpath(name)
            known = name in homes and id(code) in codes
            if known or name in files or real[name] in files:
                ran.append(codes[id(code)][1] if known
                           else message("answer.from", function=code.co_name, file=name))
            elif real[name] in places:      # reloaded, or rebuilt: not the answer's own code
                found = (places[real[name]].get(code.co_qualname)
                         or same_body(code, bodies))
                if found is not None:
                    ran.append(message("answer.again", answer=found,
                                       function=code.co_qualname, file=name))

    setprofile(profile)
    try:
        with in_other_threads(profile):         # every other thread is watched too
            yield ran
    finally:
        setprofile(previous)


def refusal(exercise, ran, importing=False):
    """The failure message for a solution in which the answers named in `ran` ran (while its
    file was imported, when `importing`: a table of the answer's outputs built then)."""
    who = (message("refusal.importing") if importing
           else message("refusal.yours", defines=exercise.defines))
    return message("refusal.answer", name=exercise.name, who=who, answer=ran[0])
