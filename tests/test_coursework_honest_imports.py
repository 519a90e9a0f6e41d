"""A correct solution passes whatever well-known library it imports at its top: some replace
the code of one of their own functions when imported (asyncio's types.coroutine), some write a
configuration or cache folder in the home directory (matplotlib). Only replacing the code of the
grader's or the project's functions is refused, and those folders go to the grading's own
temporary folder."""

import importlib.util

import pytest

from minigrad.grade import SolutionFailed, grade

from conftest import honest_layer_norm_file as solution, student_file


def installed(name):
    return pytest.param(name, marks=pytest.mark.skipif(
        importlib.util.find_spec(name.split(".")[0]) is None, reason=f"{name} is not installed"))


@pytest.mark.parametrize("module", ["asyncio", "unittest.mock", installed("matplotlib.pyplot"),
                                    installed("torch")])
def test_a_correct_solution_that_imports_a_well_known_library_passes(tmp_path, module):
    path = solution(tmp_path, f"import {module}\n")
    assert grade("layer_norm", path).startswith("passed: layer_norm")


def test_replacing_the_code_of_a_project_function_is_still_refused(tmp_path):
    path = solution(tmp_path, """
        import minigrad.tensor
        import minigrad.nn.layer_norm


        def mean(self, axis=None, keepdims=False):
            return self


        minigrad.nn.layer_norm.LayerNorm.extra_repr.__code__ = mean.__code__
    """)
    with pytest.raises(SolutionFailed) as caught:
        grade("layer_norm", path)
    assert str(caught.value).startswith("layer_norm: your code replaces the code of "
                                        "LayerNorm.extra_repr while it is graded")


def test_replacing_the_code_of_ones_own_function_passes(tmp_path):
    path = solution(tmp_path, """
        def helper():
            return 1


        def other():
            return 2


        helper.__code__ = other.__code__
    """)
    assert grade("layer_norm", path).startswith("passed: layer_norm")


def test_making_an_existing_folder_again_passes_and_a_new_one_outside_is_refused(tmp_path):
    path = solution(tmp_path, f"""
        import os

        os.makedirs(os.path.expanduser("~"), exist_ok=True)
        try:
            os.makedirs({str(tmp_path / "new")!r}, exist_ok=True)
        except OSError:
            pass
    """)
    with pytest.raises(SolutionFailed) as caught:
        grade("layer_norm", path)
    assert str(caught.value).startswith(f"layer_norm: your code writes to {tmp_path / 'new'}")
    assert not (tmp_path / "new").exists()


@pytest.mark.parametrize("command, passes", [("fc-list", True), ("ls", False)])
def test_fc_list_is_refused_quietly_and_other_processes_fail_the_solution(tmp_path, command,
                                                                          passes):
    path = solution(tmp_path, f"""
        import subprocess

        try:
            subprocess.run([{command!r}], capture_output=True)
        except OSError:
            pass
    """)
    if passes:
        assert grade("layer_norm", path).startswith("passed: layer_norm")
    else:
        with pytest.raises(SolutionFailed) as caught:
            grade("layer_norm", path)
        assert "starts another process (subprocess.Popen)" in str(caught.value)


@pytest.mark.parametrize("helper, passes", [
    ("def centre(x):\n    return x - x.mean(axis=-1, keepdims=True)\n", True),
    ("from minigrad.nn.layer_norm import layer_norm\n\n"
     "def centre(x):\n"
     "    return layer_norm(x, 1.0, 0.0) * 0 + x - x.mean(axis=-1, keepdims=True)\n",
     False),
], ids=["own", "runs-the-projects"])
def test_a_module_beside_the_solution_is_found_from_any_folder_and_watched(tmp_path, helper,
                                                                            passes):
    """Graded from another folder (the tests run from the project's), `from helpers import
    centre` finds helpers.py beside the solution; what it runs is watched as the file's own."""
    student_file(tmp_path, helper, "helpers.py")
    path = student_file(tmp_path, """
        from helpers import centre

        def layer_norm(x, weight, bias, eps=1e-5):
            centred = centre(x)
            variance = (centred ** 2).mean(axis=-1, keepdims=True)
            return centred / (variance + eps).sqrt() * weight + bias
    """)
    if passes:
        assert grade("layer_norm", path).startswith("passed: layer_norm")
    else:
        with pytest.raises(SolutionFailed) as caught:
            grade("layer_norm", path)
        assert str(caught.value).startswith("layer_norm: your layer_norm runs "
                                            "minigrad.nn.layer_norm.layer_norm, an answer")


def test_a_module_of_the_same_name_in_the_working_folder_does_not_shadow_the_students(
        tmp_path, monkeypatch):
    """Graded from a folder holding another helpers.py, the solution's own helpers.py is the
    one imported (the working folder comes after the solution's on the path)."""
    own = tmp_path / "own"
    own.mkdir()
    student_file(own, "def centre(x):\n    return x - x.mean(axis=-1, keepdims=True)\n",
                 "helpers.py")
    path = student_file(own, """
        from helpers import centre

        def layer_norm(x, weight, bias, eps=1e-5):
            centred = centre(x)
            variance = (centred ** 2).mean(axis=-1, keepdims=True)
            return centred / (variance + eps).sqrt() * weight + bias
    """)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "helpers.py").write_text("raise SystemExit('the wrong helpers')\n")
    monkeypatch.chdir(elsewhere)
    assert grade("layer_norm", path).startswith("passed: layer_norm")


@pytest.mark.parametrize("cleanup", [
    "with tempfile.TemporaryDirectory() as d:\n"
    "    os.mkdir(os.path.join(d, 'sub'))\n"
    "    open(os.path.join(d, 'sub', 'check.txt'), 'w').write('x')\n",
    "d = tempfile.mkdtemp()\nopen(os.path.join(d, 'check.txt'), 'w').write('x')\n"
    "shutil.rmtree(d)\n",
], ids=["TemporaryDirectory", "rmtree"])
def test_a_temporary_folder_removed_by_name_under_its_handle_passes(tmp_path, cleanup):
    """shutil.rmtree removes a folder's files by their names relative to the folder's handle
    (dir_fd): those are files in the temporary folder, not in the working folder."""
    path = solution(tmp_path, "import os\nimport shutil\nimport tempfile\n\n" + cleanup)
    assert grade("layer_norm", path).startswith("passed: layer_norm")
