"""PyTorch's file functions, checked as Python's `open` is, in the graded code's process.

`torch.save`, `torch.load`, `torch.from_file` and the storages' `from_file` open their files in
C++, where Python raises no audit event: `torch.from_file(path, shared=True)` maps any file
for writing (the grader's own code included), and `torch.save` writes anywhere. So when the
graded code imports torch, each is wrapped to raise the `open` audit event first, with the
flags of what it does (reading, or writing for a save or a shared mapping), and the audit hook
(audit.py) decides as for any `open`. Torch is wrapped when the graded code imports it, by a
finder put first in `sys.meta_path` (`watch_torch_import`); a file that never imports torch
never loads it.

Code that calls torch's C functions by other names (`torch._C`) still gets round it; the
grader's check of its own files after each grading (untouched.py) finds what was written.
"""

import functools
import inspect
import os
import sys

READING, WRITING = os.O_RDONLY, os.O_WRONLY | os.O_CREAT | os.O_TRUNC


def opening(function, place, flags):
    """`function`, which first raises the `open` audit event for the file it is given (at
    positional `place`, or the keyword named in `flags`' entry): (name, read or write flags,
    or a function of the call's arguments giving them)."""
    name, how = flags

    @functools.wraps(function)
    def checked(*args, **kwargs):
        path = args[place] if len(args) > place else kwargs.get(name)
        if isinstance(path, (str, bytes, os.PathLike)):
            mode = how(args, kwargs) if callable(how) else how
            sys.audit("open", path, "wb" if mode & WRITING else "rb", mode)
        return function(*args, **kwargs)

    checked.checked_by_the_grader = True
    return checked


def shared(position):
    """The flags of a from_file: writing when the mapping is shared (written back to the
    file), its argument at `position` or named `shared`."""
    def flags(args, kwargs):
        on = args[position] if len(args) > position else kwargs.get("shared", False)
        return WRITING if on else READING
    return flags


def class_call(storage):
    """storage.from_file as a function of (cls, *args): a Python classmethod's own function
    (TypedStorage's, so that FloatStorage.from_file still makes a FloatStorage), or the C
    method bound to the class (UntypedStorage's)."""
    raw = inspect.getattr_static(storage, "from_file")
    if isinstance(raw, classmethod):
        return lambda cls, *args, **kwargs: raw.__func__(cls, *args, **kwargs)
    bound = storage.from_file
    return lambda cls, *args, **kwargs: bound(*args, **kwargs)


def wrap(torch):
    """Wrap torch's file functions in place (once)."""
    if getattr(torch.save, "checked_by_the_grader", False):
        return
    torch.save = torch.serialization.save = opening(torch.save, 1, ("f", WRITING))
    torch.load = torch.serialization.load = opening(torch.load, 0, ("f", READING))
    torch.from_file = opening(torch.from_file, 0, ("filename", shared(1)))
    for storage in (torch.UntypedStorage, torch.TypedStorage):
        storage.from_file = classmethod(opening(class_call(storage), 1, ("filename", shared(2))))
    jit = getattr(torch, "jit", None)
    if jit is not None:
        jit.save = opening(jit.save, 1, ("f", WRITING))
        jit.load = opening(jit.load, 0, ("f", READING))


class TorchFinder:
    """A meta path finder that finds nothing itself: for `torch`, it has the finder that does
    find it load it, then wraps torch's file functions."""

    def find_spec(self, name, path=None, target=None):
        if name != "torch":
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None and spec.loader is not None:
                run = spec.loader.exec_module

                def exec_module(module, run=run):
                    run(module)
                    wrap(module)

                spec.loader.exec_module = exec_module
                return spec
        return None


def watch_torch_import():
    """From now on, torch is wrapped when imported (now, if it already is)."""
    if "torch" in sys.modules:
        wrap(sys.modules["torch"])
    else:
        sys.meta_path.insert(0, TorchFinder())
