"""Watcher: the base of trace(), detect_anomaly(), guard_saved() and record_sites(); and where
an op was made.

While a watcher's `with` block is open it sits in `minigrad.autograd.watchers`, and the engine
calls it as the ops go by:

    after_forward(op, inputs, out)              after every op call (recorded or not)
    before_backward(op, out, grad_y)            just before op.backward(grad_y)
    after_backward(op, out, grad_y, grads_in)   with the gradients it returned, before they are
                                                added up
"""

import linecache
import os
import sys
from typing import NamedTuple

from minigrad import autograd

MINIGRAD = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # the package's folder


class Watcher:
    """A context manager that watches the ops while its block is open. Subclasses override the
    three methods they need."""

    def __enter__(self):
        autograd.watchers.append(self)
        return self

    def __exit__(self, *exc):
        autograd.watchers.remove(self)
        return False

    def after_forward(self, op, inputs, out):
        pass

    def before_backward(self, op, out, grad_y):
        pass

    def after_backward(self, op, out, grad_y, grads_in):
        pass


# ---- where an op was created ------------------------------------------------------------------

class record_sites(Watcher):
    """Note, on every op made inside the block, the lines of your code that created it
    (`op.created_at`), for the reports of `check_graph`, of the in-place checks and of
    `detect_anomaly`:

        with minigrad.debug.record_sites():
            loss = model(x)                     # every op remembers its line
        print(minigrad.debug.check_graph(loss))  # ... created at train.py:12

    Not on by default: looking up the caller's lines takes time on every op (a small op such as
    `x + 1.0` on a one-element tensor takes a third to a half longer). Outside the block it
    costs nothing."""

    def after_forward(self, op, inputs, out):
        remember_site(op)


class Site(NamedTuple):
    """A line of code: file, line number, function."""
    file: str
    line: int
    function: str

    def __str__(self):
        return f"{short_path(self.file)}:{self.line} in {self.function}"

    @property
    def code(self):
        return linecache.getline(self.file, self.line).strip()


def remember_site(op, depth=3):
    """Note on `op.created_at` the innermost `depth` lines outside minigrad that led to it (the
    user's code), innermost first. Kept only if not noted already."""
    if getattr(op, "created_at", None) is not None:
        return
    sites = []
    frame = sys._getframe(1)
    while frame is not None and len(sites) < depth:
        file = frame.f_code.co_filename
        if file not in _inside:
            _inside[file] = os.path.abspath(file).startswith(MINIGRAD + os.sep)
        if not _inside[file]:
            sites.append(Site(file, frame.f_lineno, frame.f_code.co_name))
        frame = frame.f_back
    op.created_at = tuple(sites)


_inside = {}            # file name -> whether it is part of minigrad


def where_created(op, indent="  "):
    """Lines saying where `op` was created (if `remember_site` saw it), or None."""
    sites = getattr(op, "created_at", None)
    if not sites:
        return None
    lines = []
    for k, site in enumerate(sites):
        lines.append(f"{indent}{'created at' if k == 0 else '  called from'} {site}")
        if site.code:
            lines.append(f"{indent}      {site.code}")
    return "\n".join(lines)


def short_path(file):
    """A file's path relative to the working directory when it is inside it."""
    try:
        relative = os.path.relpath(file)
    except ValueError:                      # another drive (Windows)
        return file
    return file if relative.startswith("..") else relative
