"""PyTorch's file functions, which open files in C++ (no audit event), stay checked while the
graded code runs: torch imported past the finder that wraps them is refused, a function left
unwrapped when the results are handed back fails the solution, and TorchScript's save, which
writes by a path of its own, is checked as `torch.save` is."""

import subprocess
import sys
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
    """)
    assert grade("layer_norm", path).startswith("passed: layer_norm")


def test_every_file_function_the_docs_name_is_wrapped_once_torch_is_imported():
    code = """
import sys

from minigrad.grade.torch_files import file_functions, unchecked, watch_torch_import

watch_torch_import()
import torch
import torch.onnx

assert unchecked(sys.modules) is None
print(" ".join(sorted(f"{getattr(owner, '__name__', owner)}.{name}"
                      for owner, name, _, _ in file_functions(torch))))
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
        "torch.onnx.export"}
