"""PyTorch's file functions, checked as Python's `open` is, in the graded code's process.

`torch.save`, `torch.load`, `torch.from_file`, the storages' `from_file`, TorchScript's save
and load (`torch.jit.script(m).save(path)`), `torch.export`'s, `torch.package`'s and
`torch.onnx.export` open their files in C++, where Python raises no audit event:
`torch.from_file(path, shared=True)` maps any file for writing (the grader's own code
included), and `torch.save` writes anywhere. So when the graded code imports torch, each
(file_functions) is wrapped to raise the `open` audit event first, with the flags of what it
does (reading, or writing for a save or a shared mapping), and the audit hook (audit.py)
decides as for any `open`. Torch is wrapped when the graded code imports it, by a finder put
first in `sys.meta_path` (`watch_torch_import`); a file that never imports torch never loads
it. Importing torch with that finder taken out is refused (`import_refused`, at the `import`
audit event), and a function found unwrapped when the results are handed back fails the
solution (`unchecked`, child.py).

Code that calls torch's C functions by other names (`torch._C`), or the originals kept in the
wrappers' closures, still gets round it; the grader's check of its own files after each
grading (untouched.py) finds what was written there.
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
    del checked.__wrapped__             # the function itself, for any code to call unchecked
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


def file_functions(torch):
    """[(owner, name, place, (keyword, flags))]: each of torch's functions and methods that
    opens a file by a path in C++, on the module or class that holds it, loaded now: the path
    at positional `place` (counting `self` for a method) or keyword `keyword`."""
    jit, export, package, onnx = (sys.modules.get(f"torch.{name}")   # loaded: never import
                                  for name in ("jit", "export", "package", "onnx"))
    found = [(torch, "save", 1, ("f", WRITING)), (torch, "load", 0, ("f", READING)),
             (torch.serialization, "save", 1, ("f", WRITING)),
             (torch.serialization, "load", 0, ("f", READING)),
             (torch, "from_file", 0, ("filename", shared(1)))]
    if jit is not None:
        serialization = sys.modules.get("torch.jit._serialization", jit)
        for owner in {id(jit): jit, id(serialization): serialization}.values():
            found += [(owner, "save", 1, ("f", WRITING)), (owner, "load", 0, ("f", READING))]
        found += [(jit, "save_jit_module_to_flatbuffer", 1, ("filename", WRITING))]
        found += [(cls, "save", 1, ("f", WRITING)) for cls in (
            jit.ScriptModule, jit.RecursiveScriptModule, torch._C.ScriptModule,
            torch._C.ScriptFunction) if "save" in vars(cls)]
    if export is not None:
        found += [(export, "save", 1, ("f", WRITING)), (export, "load", 0, ("f", READING))]
    if package is not None:
        found += [(package.PackageExporter, "__init__", 1, ("f", WRITING)),
                  (package.PackageImporter, "__init__", 1, ("file_or_buffer", READING))]
    if onnx is not None:
        found += [(onnx, "export", 2, ("f", WRITING))]
    return [entry for entry in found if hasattr(entry[0], entry[1])]


def wrap(torch):
    """Wrap torch's file functions in place (each once), and the storages' from_file."""
    for owner, name, place, flags in file_functions(torch):
        function = inspect.getattr_static(owner, name)
        if not getattr(function, "checked_by_the_grader", False):
            setattr(owner, name, opening(getattr(owner, name) if isinstance(owner, type) and
                                         not inspect.isfunction(function) else function,
                                         place, flags))
    for storage in (torch.UntypedStorage, torch.TypedStorage):
        raw = inspect.getattr_static(storage, "from_file")
        if not getattr(getattr(raw, "__func__", raw), "checked_by_the_grader", False):
            storage.from_file = classmethod(opening(class_call(storage), 1,
                                                    ("filename", shared(2))))


def unchecked(modules):
    """'uses torch with torch.save unchecked ...' when torch is in `modules` (sys.modules)
    with one of its file functions (file_functions) not wrapped: torch imported past the
    finder below, or a function put back; else None."""
    torch = modules.get("torch")
    if torch is None or initializing(torch):
        return None
    for owner, name, _, _ in file_functions(torch):
        function = inspect.getattr_static(owner, name)
        if not getattr(function, "checked_by_the_grader", False):
            return (f"uses torch with {getattr(owner, '__name__', owner)}.{name} unchecked by the "
                    f"grader (torch imported past its finder, or the function put back)")
    return None


def initializing(module):
    """Whether `module` is still being imported (its own code running)."""
    return bool(getattr(getattr(module, "__spec__", None), "_initializing", False))


def import_refused(name):
    """Why importing `name` is refused (the audit hook asks at the `import` event): torch, or
    a part of it, while the finder that wraps it (FINDER) is gone from sys.meta_path; else
    None."""
    if (name == "torch" or name.startswith("torch.")) and \
            not any(found is FINDER for found in sys.meta_path):
        return ("uses torch past the grader's finder that checks its file functions (taken "
                "out of sys.meta_path)")
    return None


class TorchFinder:
    """A meta path finder that finds nothing itself: for torch (and the parts of it that it
    imports only when asked, LATER), it has the finder that does find it load it, then wraps
    torch's file functions."""

    def find_spec(self, name, path=None, target=None):
        if name != "torch" and name not in LATER:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None and spec.loader is not None:
                run = spec.loader.exec_module

                def exec_module(module, run=run, name=name):
                    run(module)
                    torch = sys.modules["torch"]        # torch.jit, run in torch's own import,
                    if name == "torch" or not initializing(torch):  # is wrapped after it
                        wrap(torch)

                spec.loader.exec_module = exec_module
                return spec
        return None


LATER = ("torch.onnx", "torch.export", "torch.package", "torch.jit")
FINDER = TorchFinder()


def watch_torch_import():
    """From now on, torch is wrapped when imported (now, if it already is), and again when a
    part of it with file functions is imported later."""
    if "torch" in sys.modules:
        wrap(sys.modules["torch"])
    sys.meta_path.insert(0, FINDER)
