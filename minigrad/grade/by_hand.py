"""Whether a backward was derived by hand.

The logsumexp exercise asks for an op whose backward is derived on paper and written with
NumPy. A backward can get the right numbers without that: by central differences of the op's
own forward, (f(x + h) - f(x - h)) / 2h, element by element, inside backward. Those numbers
agree with the reference to about 1e-9, within the grader's tolerance, so the numbers alone
do not tell.

What tells is what runs: while the engine sends the upstream gradient back through the
student's graph, a profile hook notes every call of a function named `forward` defined in the
student's file, and of the student's exercise function itself. A backward derived by hand
runs neither (the forward ran before, and saved what backward needs); a numerical one runs
one of them twice per element. Such a solution fails with a message that says so.

A forward rebuilt under another name (`types.FunctionType(LogSumExp.forward.__code__.replace(
co_name="helper"), ...)`) is still the forward: its code is known by what it is (bytecode,
constants, file and first line), not by its name or its identity.

What this does not catch: a backward that computes the forward's numbers again with lines of
its own (a copy of forward's body, or a helper that forward does not call by that name), and
then takes their differences. Those are the student's own lines, and they give numbers that
only finite differences of one's own code would give: the grader cannot tell them from a
derivative without reading the code.
"""

import os
import types
from contextlib import contextmanager
from sys import getprofile, setprofile


@contextmanager
def forward_watch(path, fn, wanted=True):
    """Run the block (backward through the student's graph) and collect in the list it yields
    the qualified name of every `forward` of the student's file, or of `fn`, that ran in it.
    `wanted` False: watch nothing, yield an empty list."""
    ran = []
    if not wanted or path is None:
        yield ran
        return
    own = os.path.realpath(path)
    function = getattr(fn, "__code__", None)
    known = watched_code(fn, own)           # what each watched code is -> its qualified name
    real = {}                               # a code's file name -> its real path
    previous = getprofile()                 # the watch for answers goes on

    def profile(frame, event, arg):
        if previous is not None:
            previous(frame, event, arg)
        if event != "call":
            return
        code = frame.f_code
        if code is function:
            ran.append(code.co_qualname)
            return
        name = code.co_filename
        if name not in real:
            real[name] = os.path.realpath(name)
        if real[name] != own:
            return
        if code.co_name == "forward":
            ran.append(code.co_qualname)
        elif what_it_is(code, own) in known:    # rebuilt under another name
            ran.append(f"{known[what_it_is(code, own)]}, again as {code.co_qualname}")

    setprofile(profile)
    try:
        yield ran
    finally:
        setprofile(previous)


def what_it_is(code, real_file):
    """A code object by what it is, whatever it is called: bytecode, constants, file, line."""
    return code.co_code, code.co_consts, real_file, code.co_firstlineno


def watched_code(fn, own):
    """{what_it_is(code): qualified name} for `fn` and every `forward` defined in the student's
    file (`own`, a real path): those of the classes and functions in fn's module, and the code
    nested in theirs (a class defined inside a function)."""
    found, todo = {}, []
    if hasattr(fn, "__code__"):
        todo.append(fn.__code__)
    for value in list(getattr(fn, "__globals__", {}).values()):
        if isinstance(value, type):
            for member in list(vars(value).values()):
                member = getattr(member, "__func__", member)
                if hasattr(member, "__code__"):
                    todo.append(member.__code__)
        elif hasattr(value, "__code__") and isinstance(value.__code__, types.CodeType):
            todo.append(value.__code__)
    seen = set()
    while todo:
        code = todo.pop()
        if id(code) in seen or os.path.realpath(code.co_filename) != own:
            continue
        seen.add(id(code))
        if code.co_name == "forward" or code is getattr(fn, "__code__", None):
            found[what_it_is(code, own)] = code.co_qualname
        todo.extend(c for c in code.co_consts if isinstance(c, types.CodeType))
    return found


def numerical_backward(exercise, name, where):
    """The failure message for a backward that ran the student's forward (`name`)."""
    return (f"{exercise.name}: your backward runs your forward ({name}) again, for {where}: "
            f"that is a numerical derivative (finite differences, not a derivative derived by "
            f"hand). Derive dL/dx on paper and write it in backward with NumPy, from what "
            f"forward saved on self.")
