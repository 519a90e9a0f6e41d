"""Grad mode: whether ops record the graph. `with no_grad():` (or `@no_grad()`) turns it off, for
evaluation and for updating parameters; `Function.__call__` reads `enabled`."""

import functools

enabled = True


def is_grad_enabled():
    """True unless inside `no_grad()`."""
    return enabled


class no_grad:
    """Run ops without recording the graph: `with no_grad(): ...` or `@no_grad()` on a function.

    Nothing is recorded inside: outputs have no creator and do not require grad, and the ops
    keep nothing alive. The previous mode comes back on the way out, even after an exception.
    """

    def __init__(self):
        self.previous = []              # the mode before each `with` still open on this object

    def __enter__(self):
        global enabled
        self.previous.append(enabled)
        enabled = False
        return self

    def __exit__(self, *exc):
        global enabled
        enabled = self.previous.pop()
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def fn_without_grad(*args, **kwargs):
            with no_grad():            # a fresh context per call, so recursion restores correctly
                return fn(*args, **kwargs)
        return fn_without_grad
