"""Whether a backward was derived by hand.

The logsumexp exercise asks for an op whose backward is derived on paper and written with
NumPy. A backward can get the right numbers without that: by central differences of the op's
own forward, (f(x + h) - f(x - h)) / 2h, element by element, inside backward. Those numbers
agree with the reference to about 1e-9, within the grader's tolerance, so the numbers alone
do not tell.

What tells is what runs: while the engine sends the upstream gradient back through the
student's graph, a profile hook notes every call of the student's exercise function itself,
and every call of an op's forward while that op's own backward runs (as the engine tells, and
as the profile hook sees the class's backward called): the forward the op resolves `forward`
to, whatever its code is named (`forward = _forward` in the class body). It does so in every
thread (threads.py): differences computed in a thread pool are seen too. A backward derived
by hand runs neither (the forward ran before, and saved what backward needs); a numerical one
runs one of them twice per element. Such a solution fails with a message that says so.
Another op's forward is not the op's own: a backward that computes softmax(x) with a softmax
op of the student's own is derived by hand.

A forward rebuilt under another name (`types.FunctionType(LogSumExp.forward.__code__.replace(
co_name="helper"), ...)`) is still the forward: its code is known by what it is (bytecode,
constants, file and first line), not by its name or its identity.

What this does not catch: a backward that computes the forward's numbers again with lines of
its own (a copy of forward's body, or a helper that forward calls, called directly), and
then takes their differences. Those are the student's own lines, and they give numbers that
only finite differences of one's own code would give: the grader cannot tell them from a
derivative without reading the code.
"""

import inspect
import os
import types
from contextlib import contextmanager
from sys import getprofile, setprofile

from minigrad.debug.watch import MINIGRAD, Watcher
from minigrad.grade.threads import in_other_threads
from minigrad.messages import message


@contextmanager
def forward_watch(fn, outputs, wanted=True):
    """Run the block (backward from `outputs` through the student's graph) and collect in the
    list it yields the qualified name of `fn` whenever it ran in it, and of an op's forward
    when it ran while that op's own backward ran, in any thread. `wanted` False: watch
    nothing, yield an empty list."""
    ran = []
    if not wanted:
        yield ran
        return
    function = getattr(fn, "__code__", None)
    pairs = own_ops(outputs)                # [(backward's code, forward's code, its name)]
    files = {backward.co_filename for backward, _, _ in pairs}
    running = []                            # the forwards of the backwards running now
    engine = BackwardsRunning()             # and as the engine tells them
    previous = getprofile()                 # the watch for answers goes on

    def profile(frame, event, arg):         # in the main thread, where the engine runs
        if previous is not None:
            previous(frame, event, arg)
        code = frame.f_code
        if code.co_filename in files and event in ("call", "return"):
            for backward, forward, name in pairs:
                if code is backward and event == "call":
                    running.append((forward, name))
                elif code is backward and (forward, name) in running:
                    running.remove((forward, name))
        look(frame, event, arg)

    def look(frame, event, arg):            # in every thread
        if event != "call":
            return
        code = frame.f_code
        if code is function:
            ran.append(code.co_qualname)
            return
        for forward, name in running + engine.running:
            if forward is None:             # a forward with no code found (a wrapper object)
                continue
            if code is forward:
                ran.append(name)
                return
            if code.co_code == forward.co_code and what_it_is(code) == what_it_is(forward):
                ran.append(message("grade.again_as", name=name, function=code.co_qualname))
                return

    setprofile(profile)
    try:
        with in_other_threads(look), engine:
            yield ran
    finally:
        setprofile(previous)


class BackwardsRunning(Watcher):
    """The forward of every op whose backward the engine runs now, as the op itself resolves it
    (an instance's own `backward`, not its class's, is what the engine runs): [(code, name)]."""

    def __init__(self):
        self.running = []

    def before_backward(self, op, out, grad_y):
        forward = code_of(inspect.getattr_static(op, "forward", None))
        self.running.append((forward, forward_name(type(op), forward)) if forward else (None, ""))

    def after_backward(self, op, out, grad_y, grads_in):
        self.running.pop()


def what_it_is(code):
    """A code object by what it is, whatever it is called: bytecode, constants, file, line."""
    return code.co_code, code.co_consts, os.path.realpath(code.co_filename), code.co_firstlineno


def code_of(method):
    """The code object of a method found on a class or an op: a function's, a static or class
    method's, a functools.partialmethod's, a decorator object's function (`__wrapped__`, or
    the one function it holds), a callable object's `__call__`; or None."""
    for _ in range(3):
        code = getattr(method, "__code__", None)
        if isinstance(code, types.CodeType):
            return code
        method = (getattr(method, "__func__", None) or getattr(method, "func", None)
                  or getattr(method, "__wrapped__", None) or wrapped_function(method)
                  or inspect.getattr_static(type(method), "__call__", None))
    return None


def wrapped_function(method):
    """The one plain function an object holds (a decorator written as a class, `Timed(f)`,
    whose `__get__` returns a lambda that calls it), or None."""
    found = [value for value in getattr(method, "__dict__", {}).values()
             if isinstance(value, types.FunctionType)]
    return found[0] if len(found) == 1 else None


def forward_name(kind, forward):
    """'LogSumExp.forward', or 'LogSumExp.forward, which is _forward' when its code is named
    otherwise (`forward = _forward` in the class body)."""
    name = f"{kind.__qualname__}.forward"
    return name if forward.co_qualname == name else message("grade.which_is", name=name,
                                                            function=forward.co_qualname)


def own_ops(outputs):
    """[(backward's code, forward's code, a name for it)] of the classes of the ops in the
    outputs' graph, other than minigrad's own: `forward` and `backward` as the class resolves
    them, whatever their code is named (`forward = _forward` in the class body: named
    'LogSumExp.forward, which is _forward')."""
    pairs, seen = [], {}
    todo = [getattr(out, "creator", None) for out in outputs]
    while todo:
        op = todo.pop()
        if op is None or id(op) in seen:
            continue
        seen[id(op)] = op
        todo.extend(getattr(x, "creator", None) for x in getattr(op, "inputs", ()))
        forward, backward = (code_of(getattr(type(op), name, None))
                             for name in ("forward", "backward"))
        if forward is None or backward is None or os.path.realpath(
                forward.co_filename).startswith(MINIGRAD + os.sep):
            continue
        name = forward_name(type(op), forward)
        if (backward, forward, name) not in pairs:
            pairs.append((backward, forward, name))
    return pairs


def numerical_backward(exercise, name, where):
    """The failure message for a backward that ran the student's forward (`name`)."""
    return message("grade.numerical_backward", name=exercise.name, forward=name, where=where)
