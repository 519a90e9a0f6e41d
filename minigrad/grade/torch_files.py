"""PyTorch's file functions, checked as Python's `open` is, in the graded code's process.

`torch.save`, `torch.load`, `torch.from_file`, the storages' `from_file`, TorchScript's save
and load (`torch.jit.script(m).save(path)`), `torch.export`'s, `torch.package`'s,
`torch.onnx.export`, TorchScript's files for phones (`torch.jit.mobile`), the profilers'
traces and torch.distributed's FileStore open their files in C++, where Python raises no audit
event:
`torch.from_file(path, shared=True)` maps any file for writing (the grader's own code
included), and `torch.save` writes anywhere. So when the graded code imports torch, each
(file_functions) is wrapped to raise the `open` audit event first, with the flags of what it
does (reading, or writing for a save or a shared mapping), and the audit hook (audit.py)
decides as for any `open`. Torch is wrapped when the graded code imports it, by a finder put
first in `sys.meta_path` (`watch_torch_import`); a file that never imports torch never loads
it. Importing torch with that finder taken out is refused (`import_refused`, at the `import`
audit event), and a function found unwrapped when the results are handed back fails the
solution (`unchecked`, child.py), as does something other than torch in `sys.modules`: that
check runs after the student's code, with the watch over, so it reads every attribute as
stored (stored.py), never through a property or a module's `__getattr__`.

Code that calls torch's C functions by other names (`torch._C`), or the originals kept in the
wrappers' closures, still gets round it; the grader's check of its own files after each
grading (untouched.py) finds what was written there.
"""

import functools
import inspect
import os
import sys
import types

from minigrad.grade.refusals import reason
from minigrad.grade.stored import MISSING, entry, own, stored

READING, WRITING = os.O_RDONLY, os.O_WRONLY | os.O_CREAT | os.O_TRUNC
FUNCTION_DICT = types.FunctionType.__dict__["__dict__"].__get__
TYPE_NAME = type.__dict__["__name__"].__get__


def opening(function, paths):
    """`function`, which first raises the `open` audit event for each file it is given: `paths`
    is ((positional place, keyword, read or write flags, or a function of the call's arguments
    giving them), ...)."""

    @functools.wraps(function)
    def checked(*args, **kwargs):
        for place, name, how in paths:
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


def reads(place, name):
    return ((place, name, READING),)


def writes(place, name):
    return ((place, name, WRITING),)


def file_functions(torch, modules=None):
    """[(owner, name, paths)]: each of torch's functions and methods that opens a file by a
    path in C++, on the module or class that holds it, loaded now (in `modules`, sys.modules by
    default: never imported here), with the paths it is given (opening). Every attribute is
    read as stored (stored.py): no code of what `modules` holds runs."""
    def part(name):
        return entry(modules if modules is not None else sys.modules, f"torch.{name}")

    def inside(owner, *names):
        for name in names:
            owner = stored(owner, name)
        return owner

    serialization, C = stored(torch, "serialization"), stored(torch, "_C")
    found = [(torch, "save", writes(1, "f")), (torch, "load", reads(0, "f")),
             (serialization, "save", writes(1, "f")), (serialization, "load", reads(0, "f")),
             (torch, "from_file", ((0, "filename", shared(1)),))]
    jit = part("jit")
    if jit is not MISSING:
        jit_files = part("jit._serialization")
        for owner in (jit,) if jit_files is MISSING else (jit, jit_files):
            found += [(owner, "save", writes(1, "f")), (owner, "load", reads(0, "f"))]
        found += [(jit, "save_jit_module_to_flatbuffer", writes(1, "filename")),
                  (jit_files, "jit_module_from_flatbuffer", reads(0, "f"))]
        found += [(cls, "save", writes(1, "f")) for cls in (
            stored(jit, "ScriptModule"), stored(jit, "RecursiveScriptModule"),
            stored(C, "ScriptModule"), stored(C, "ScriptFunction")) if own(cls, "save")
            is not MISSING]
        found += [(stored(jit, "RecursiveScriptModule"), "_save_for_lite_interpreter",
                   writes(1, "filename")),
                  (stored(C, "ScriptModule"), "_save_for_mobile", writes(1, "filename"))]
    mobile = part("jit.mobile")                 # TorchScript for phones: its files by path
    found += [(mobile, name, reads(0, "f_input")) for name in (
        "_get_model_bytecode_version", "_get_mobile_model_contained_types",
        "_backport_for_mobile_to_buffer", "_get_model_ops_and_info")]
    found += [(mobile, "_load_for_lite_interpreter", reads(0, "f")),
              (mobile, "_backport_for_mobile", reads(0, "f_input") + writes(1, "f_output"))]
    kineto, autograd = part("profiler.profiler"), part("autograd.profiler")   # the profilers
    found += [(stored(kineto, "_KinetoProfile"), "export_chrome_trace", writes(1, "path")),
              (stored(kineto, "ExecutionTraceObserver"), "register_callback",
               writes(1, "output_file_path")),
              (stored(autograd, "profile"), "export_chrome_trace", writes(1, "path")),
              (inside(C, "_autograd", "_ProfilerResult"), "save", writes(1, "path"))]
    c10d = part("_C._distributed_c10d")         # torch.distributed's file store makes its file
    found += [(stored(c10d, "FileStore"), "__init__", writes(1, "file_name"))]
    export, package, onnx = part("export"), part("package"), part("onnx")
    found += [(export, "save", writes(1, "f")), (export, "load", reads(0, "f")),
              (stored(package, "PackageExporter"), "__init__", writes(1, "f")),
              (stored(package, "PackageImporter"), "__init__", reads(1, "file_or_buffer")),
              (onnx, "export", writes(2, "f"))]
    return [entry_ for entry_ in found if stored(entry_[0], entry_[1]) is not MISSING]


def is_wrapped(function):
    """Whether `function` (as stored: a function, or a classmethod of one) is a wrapper of
    `opening`, read without running any code of it."""
    if type(function) is classmethod or type(function) is staticmethod:
        function = function.__func__
    return type(function) is types.FunctionType and \
        entry(FUNCTION_DICT(function), "checked_by_the_grader") is True


def wrap(torch):
    """Wrap torch's file functions in place (each once), and the storages' from_file."""
    for owner, name, paths in file_functions(torch):
        function = stored(owner, name)
        if not is_wrapped(function):
            setattr(owner, name, opening(getattr(owner, name) if isinstance(owner, type) and
                                         not inspect.isfunction(function) else function,
                                         paths))
    for storage in (torch.UntypedStorage, torch.TypedStorage):
        raw = inspect.getattr_static(storage, "from_file")
        if not is_wrapped(raw):
            storage.from_file = classmethod(opening(class_call(storage),
                                                    ((1, "filename", shared(2)),)))


def unchecked(modules):
    """A Reason (refusals.py): 'uses torch with torch.save unchecked ...' when torch is in
    `modules` (sys.modules, a dict) with one of its file functions (file_functions) not
    wrapped: torch imported past the finder below, or a function put back; 'puts in
    sys.modules['torch'] something that is not torch' when what is there is no plain module
    holding torch's own names; else None. Called after the student's code has run, it runs
    none of it: every attribute is read as stored."""
    torch = entry(modules, "torch") if type(modules) is dict else MISSING
    if torch is MISSING or torch is None:
        return None
    if type(torch) is not types.ModuleType:
        return reason("torch_not_module", type=TYPE_NAME(type(torch)))
    if initializing(torch):
        return None
    lacks = [name for name in ("save", "load", "from_file", "serialization", "_C")
             if stored(torch, name) is MISSING]
    if lacks:
        return reason("torch_lacks", name=lacks[0])
    for owner, name, _ in file_functions(torch, modules):
        if not is_wrapped(stored(owner, name)):
            return reason("torch_unchecked", function=f"{name_of(owner)}.{name}")
    return None


def name_of(owner):
    """A module's or a class's name, read as stored."""
    if issubclass(type(owner), type):
        return TYPE_NAME(owner)
    name = stored(owner, "__name__")
    return name if type(name) is str else "torch"


def initializing(module):
    """Whether `module` is still being imported (its own code running), read as stored."""
    return stored(stored(module, "__spec__"), "_initializing") is True


def import_refused(name):
    """Why importing `name` is refused (the audit hook asks at the `import` event), a
    Reason (refusals.py): torch, or a part of it, while the finder that wraps it (FINDER) is
    gone from sys.meta_path; else None."""
    if (name == "torch" or name.startswith("torch.")) and \
            not any(found is FINDER for found in sys.meta_path):
        return reason("torch_past_finder")
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
                    torch = entry(sys.modules, "torch")  # torch.jit, run in torch's own
                    if type(torch) is types.ModuleType and (      # import, is wrapped after it
                            name == "torch" or not initializing(torch)):
                        wrap(torch)

                spec.loader.exec_module = exec_module
                return spec
        return None


LATER = ("torch.onnx", "torch.export", "torch.package", "torch.jit", "torch.jit.mobile")
FINDER = TorchFinder()


def watch_torch_import():
    """From now on, torch is wrapped when imported (now, if it already is), and again when a
    part of it with file functions is imported later."""
    if "torch" in sys.modules:
        wrap(sys.modules["torch"])
    sys.meta_path.insert(0, FINDER)
