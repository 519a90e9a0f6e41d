"""Named scopes: `with minigrad.scope("attention"):` tags every op recorded inside with the
scope's name, so a drawing can group them (a cluster) or fold them into one node.

Scopes nest: inside `scope("decoder")` and then `scope("attention")` an op's `scope` is
("decoder", "attention"). Outside any scope it is ().
"""

import contextlib

current = ()          # the scope path of the ops recorded now; read by Function.__call__


@contextlib.contextmanager
def scope(name):
    """Tag the ops recorded inside with `name` (nested inside any enclosing scope)."""
    global current
    previous = current
    current = previous + (str(name),)
    try:
        yield current
    finally:
        current = previous
