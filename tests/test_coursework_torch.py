"""PyTorch's file functions, which open files in C++ (no audit event), stay checked while the
graded code runs: torch imported past the finder that wraps them is refused, a function left
unwrapped when the results are handed back fails the solution, and TorchScript's save, which
writes by a path of its own, is checked as `torch.save` is."""

import subprocess
import sys
import textwrap
import types
from pathlib import Path

import pytest

from minigrad.grade import SolutionFailed, grade

from conftest import honest_layer_norm_file

pytest.importorskip("torch")
ROOT = Path(__file__).resolve().parent.parent


def failure(path, exercise="layer_norm"):
    with pytest.raises(SolutionFailed) as caught:
        grade(exercise, path)
    return str(caught.value)


def test_torch_imported_past_the_graders_finder_is_refused(tmp_path):
    outside = tmp_path / "outside.pt"
    path = honest_layer_norm_file(tmp_path, f"""
        import sys

        sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != "TorchFinder"]
        try:
            import torch
            torch.save(torch.zeros(2), {str(outside)!r})
        except ImportError:
            pass
    """)
    assert failure(path).startswith("layer_norm: your code uses torch past the grader's finder "
                                    "that checks its file functions (taken out of sys.meta_path)")
    assert not outside.exists()


def test_a_file_function_of_torch_left_unwrapped_fails_the_solution(tmp_path):
    path = honest_layer_norm_file(tmp_path, """
        import importlib

        import torch
        import torch.serialization

        importlib.reload(torch.serialization)          # its save and load, as they were
    """)
    assert failure(path).startswith("layer_norm: your code uses torch with "
                                    "torch.serialization.save unchecked by the grader")


def test_a_torchscript_module_saved_outside_the_temporary_folder_is_refused(tmp_path):
    outside = tmp_path / "scripted.pt"
    path = honest_layer_norm_file(tmp_path, f"""
        import torch

        torch.jit.script(torch.nn.Linear(2, 2)).save({str(outside)!r})
    """)
    assert failure(path).startswith(f"layer_norm: your code writes to {outside}")
    assert not outside.exists()


WRITERS = {
    "a lite interpreter's copy of a scripted module": """
        torch.jit.script(torch.nn.Linear(2, 2))._save_for_lite_interpreter(OUTSIDE)
    """,
    "its C method": """
        torch.jit.script(torch.nn.Linear(2, 2))._c._save_for_mobile(OUTSIDE)
    """,
    "a lite interpreter's file backported": """
        import os
        import tempfile

        import torch.jit.mobile

        inside = os.path.join(tempfile.gettempdir(), "lite.ptl")
        torch.jit.script(torch.nn.Linear(2, 2))._save_for_lite_interpreter(inside)
        torch.jit.mobile._backport_for_mobile(inside, OUTSIDE, 5)
    """,
    "the profiler's chrome trace": """
        with torch.profiler.profile() as profiler:
            torch.ones(2).sum()
        profiler.export_chrome_trace(OUTSIDE)
    """,
    "the autograd profiler's chrome trace": """
        with torch.autograd.profiler.profile() as profiler:
            torch.ones(2).sum()
        profiler.export_chrome_trace(OUTSIDE)
    """,
    "a distributed file store": """
        import torch.distributed

        torch.distributed.FileStore(OUTSIDE, 1)
    """,
    "an execution trace": """
        observer = torch.profiler.ExecutionTraceObserver().register_callback(OUTSIDE)
        observer.start()
        torch.ones(2).sum()
        observer.stop()
        observer.unregister_callback()
    """,
}


@pytest.mark.parametrize("writer", WRITERS.values(), ids=list(WRITERS))
def test_torchs_mobile_and_profiler_files_written_outside_are_refused(tmp_path, writer):
    outside = tmp_path / "written.out"
    path = honest_layer_norm_file(tmp_path, f"import torch\n\nOUTSIDE = {str(outside)!r}\n"
                                  + textwrap.dedent(writer))
    assert failure(path).startswith(f"layer_norm: your code writes to {outside}")
    assert not outside.exists()


def test_torch_files_in_the_temporary_folder_still_work(tmp_path):
    path = honest_layer_norm_file(tmp_path, """
        import os
        import tempfile

        import torch

        folder = tempfile.gettempdir()
        torch.save(torch.ones(2), os.path.join(folder, "ones.pt"))
        assert torch.load(os.path.join(folder, "ones.pt")).sum().item() == 2
        scripted = torch.jit.script(torch.nn.Linear(2, 2))
        scripted.save(os.path.join(folder, "linear.pt"))
        torch.jit.save(scripted, os.path.join(folder, "again.pt"))
        torch.jit.load(os.path.join(folder, "again.pt"))
        scripted._save_for_lite_interpreter(os.path.join(folder, "lite.ptl"))
        import torch.jit.mobile
        torch.jit.mobile._load_for_lite_interpreter(os.path.join(folder, "lite.ptl"))
        with torch.profiler.profile() as profiler:
            torch.ones(2).sum()
        profiler.export_chrome_trace(os.path.join(folder, "trace.json"))
    """)
    assert grade("layer_norm", path).startswith("passed: layer_norm")


def test_every_file_function_the_docs_name_is_wrapped_once_torch_is_imported():
    code = """
import sys

from minigrad.grade.torch_files import file_functions, unchecked, watch_torch_import

watch_torch_import()
import torch
import torch.onnx
import torch.jit.mobile
import torch.distributed

assert unchecked(sys.modules) is None
print(" ".join(sorted(f"{getattr(owner, '__name__', owner)}.{name}"
                      for owner, name, _ in file_functions(torch))))
"""
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=False)
    assert run.returncode == 0, run.stderr[-2000:]
    assert set(run.stdout.split()) == {
        "torch.save", "torch.load", "torch.from_file", "torch.serialization.save",
        "torch.serialization.load", "torch.jit.save", "torch.jit.load",
        "torch.jit._serialization.save", "torch.jit._serialization.load",
        "torch.jit.save_jit_module_to_flatbuffer", "ScriptModule.save",
        "RecursiveScriptModule.save", "ScriptFunction.save", "torch.export.save",
        "torch.export.load", "PackageExporter.__init__", "PackageImporter.__init__",
        "torch.onnx.export", "RecursiveScriptModule._save_for_lite_interpreter",
        "ScriptModule._save_for_mobile", "torch.jit._serialization.jit_module_from_flatbuffer",
        "torch.jit.mobile._load_for_lite_interpreter", "torch.jit.mobile._backport_for_mobile",
        "torch.jit.mobile._get_model_bytecode_version",
        "torch.jit.mobile._get_mobile_model_contained_types",
        "torch.jit.mobile._backport_for_mobile_to_buffer",
        "torch.jit.mobile._get_model_ops_and_info", "_KinetoProfile.export_chrome_trace",
        "ExecutionTraceObserver.register_callback", "profile.export_chrome_trace",
        "_ProfilerResult.save", "FileStore.__init__"}


FAKE_TORCHES = {
    "a module whose __spec__ is a property": """
        class Fake(types.ModuleType):
            @property
            def __spec__(self):
                return act()
        fake = Fake("torch")
    """,
    "an object whose __file__ and __spec__ are properties": """
        class Fake:
            __file__ = property(lambda self: act())
            __spec__ = property(lambda self: act())
            def __getattr__(self, name):
                return act()
        fake = Fake()
    """,
    "a plain module with a __getattr__ of its own": """
        fake = types.ModuleType("torch")
        fake.__getattr__ = lambda name: act()
    """,
}


@pytest.mark.parametrize("fake", FAKE_TORCHES.values(), ids=list(FAKE_TORCHES))
def test_a_fake_torch_in_sys_modules_runs_none_of_its_code_when_checked(fake):
    from minigrad.grade.torch_files import unchecked

    ran, space = [], {"types": types}
    space["act"] = lambda: ran.append(True)
    exec(textwrap.dedent(fake), space)
    message = unchecked({"torch": space["fake"]})
    assert ran == []
    assert message.startswith("puts in sys.modules['torch'] something that is not torch"), message


@pytest.mark.parametrize("fake", FAKE_TORCHES.values(), ids=list(FAKE_TORCHES))
def test_a_fake_torch_left_in_sys_modules_fails_without_running_its_code(tmp_path, fake):
    act = "open(" + repr(str(ROOT / "minigrad" / "grade" / "expected.npz")) + ", 'rb')"
    path = honest_layer_norm_file(tmp_path, "import sys\nimport types\n\n" + "\n".join(
        line[8:] for line in fake.strip("\n").splitlines()) + f"""

def act():
    {act}

sys.modules["torch"] = fake
""")
    message = failure(path)
    assert message.startswith("layer_norm: your code puts in sys.modules['torch'] something "
                              "that is not torch"), message
