"""The code the audit hook (audit.py) trusts to switch the profile hook and to replace a
function's code: the code objects that minigrad's own modules, and threading, defined before
the student's file was loaded, each run with the globals of the module that defined it.

A code object's file name proves nothing: `compile(source, "<a minigrad module's path>",
"exec")` gives code that names that file, and `types.FunctionType(code, globals)` runs the
project's own code with globals of the caller's choosing (`setprofile` rebound to a function
that switches the watch off). So `own_code`, called when the grader installs its hook (before
any of the student's code runs), collects every code object reachable from the functions of
the modules loaded then (module functions, methods, properties, the functions a decorator
wraps, and the code nested in each through `co_consts`), each with its function's globals;
`is_own` trusts a frame by those two, by identity. The objects are kept, so that no other
object can be given the id of one of them.

Code of minigrad loaded after that (a module the student's file imports) is not trusted: none
of it switches the profile hook or replaces a function's code.
"""

import os
import sys
import threading
import types
from typing import NamedTuple

from minigrad.debug.watch import MINIGRAD

THREADING = os.path.abspath(threading.__file__)


class OwnCode(NamedTuple):
    """What `own_code` collected: (id of a code object, id of its globals) pairs, and the
    objects themselves, kept alive so that their ids stay theirs."""
    pairs: frozenset
    kept: tuple


def ours(code):
    """Whether `code` names a file of the minigrad package, or threading's (a first sieve: the
    name alone proves nothing, the identity does)."""
    file = os.path.abspath(code.co_filename)
    return file.startswith(MINIGRAD + os.sep) or file == THREADING


def functions_in(namespace, module_name, seen):
    """Every function reachable from `namespace` (a module's or a class's dict): plain ones,
    those held by staticmethod, classmethod and property, those a decorator wrapped
    (`__wrapped__`), and those of the classes the module defined, nested ones included."""
    for value in list(namespace.values()):
        stack = [value]
        while stack:
            found = stack.pop()
            if id(found) in seen:
                continue
            seen.add(id(found))
            if isinstance(found, (staticmethod, classmethod)):
                stack.append(found.__func__)
            elif isinstance(found, property):
                stack.extend(f for f in (found.fget, found.fset, found.fdel) if f is not None)
            elif isinstance(found, type) and found.__module__ == module_name:
                stack.extend(vars(found).values())
            elif isinstance(found, types.FunctionType):
                yield found
                wrapped = found.__dict__.get("__wrapped__")
                if wrapped is not None:
                    stack.append(wrapped)


def nested(code):
    """`code` and every code object nested in it (functions, lambdas, comprehensions)."""
    stack = [code]
    while stack:
        found = stack.pop()
        yield found
        stack.extend(const for const in found.co_consts if isinstance(const, types.CodeType))


def own_code(modules=None):
    """OwnCode of minigrad's modules and threading's in `modules` (sys.modules by default)."""
    modules = sys.modules if modules is None else modules
    pairs, kept, seen = set(), [], set()
    for name, module in list(modules.items()):
        if not (name == "minigrad" or name.startswith("minigrad.") or name == "threading"):
            continue
        if not isinstance(module, types.ModuleType):
            continue
        for function in functions_in(vars(module), name, seen):
            for code in nested(function.__code__):
                if ours(code):
                    pairs.add((id(code), id(function.__globals__)))
                    kept.append((code, function.__globals__))
    return OwnCode(frozenset(pairs), tuple(kept))


def is_own(code, globals_, own):
    """Whether `code`, run with the globals `globals_`, is one of `own`'s."""
    return (id(code), id(globals_)) in own.pairs


def trusted_frame(caller, own):
    """Whether the frame `caller` (the one that raised an event) runs minigrad's own code, or
    threading's (a new thread sets the profile hook that `threading.setprofile` gave it: the
    watch, in answers.py), with the globals it was defined with."""
    return caller is not None and is_own(caller.f_code, caller.f_globals, own)
