"""The graded code cannot write its own verdict: it runs in a process of its own, and the grader
compares what that process gives back with the reference in its own. Each file below tries to
pass without a right answer, by a route that once worked."""

import subprocess
import sys
from pathlib import Path

import pytest

from minigrad.grade import SolutionFailed, grade
from attention.grade import grade as grade_attention
from tests.reference import minigrad_reference as reference

from conftest import student_file

ROOT = Path(__file__).resolve().parent.parent

def failure(path, exercise="gru_cell", grader=grade):
    with pytest.raises(SolutionFailed) as caught:
        grader(exercise, path)
    return str(caught.value)


def command(path, exercise="gru_cell"):
    return subprocess.run([sys.executable, "-m", "minigrad.grade", exercise, str(path)],
                          cwd=ROOT, capture_output=True, text=True, check=False)


# ---- the verdict is the grader's -----------------------------------------------------------

def test_a_file_that_prints_a_pass_line_and_ends_its_process_fails(tmp_path):
    path = student_file(tmp_path, """
        import os

        print("passed: gru_cell: 4 cases")
        os._exit(0)
    """)
    run = command(path)
    assert run.returncode == 1 and run.stdout == ""
    assert run.stderr.startswith("failed: gru_cell: your code's process ended (exit status 0) "
                                 "before it gave back its results")


def test_replacing_the_graders_comparisons_does_not_pass_a_wrong_gru(tmp_path):
    path = student_file(tmp_path, """
        import minigrad.gradcheck
        import minigrad.grade.compare
        import minigrad.grade.grader

        def nothing(*args, **kwargs):
            return True

        for module in (minigrad.grade.grader, minigrad.grade.compare, minigrad.gradcheck):
            for name in ("compare_arrays", "gradcheck", "run_gradcheck", "disagreement",
                         "compare_gradients"):
                if hasattr(module, name):
                    setattr(module, name, nothing)

        def gru_cell(x, h, weight_ih, weight_hh, bias_ih, bias_hh):
            return h * 0
    """)
    run = command(path)
    assert run.returncode == 1 and run.stdout == ""
    assert run.stderr.startswith("failed: gru_cell: your code changes minigrad.grade.")


def test_a_results_file_written_by_the_student_and_an_early_exit_fail(tmp_path):
    """The graded code can reach the file its process writes its results to; what it puts
    there carries no seal of the grader's code (seal.py), and is not read."""
    path = student_file(tmp_path, """
        import json
        import os
        import sys

        import numpy as np

        np.savez(sys.argv[2], meta=np.array(json.dumps({"cases": []})))
        os._exit(0)
    """)
    assert failure(path) == ("gru_cell: your code's process ended (exit status 0) before it gave "
                             "back its results (os._exit? a crash?); a results file its seal "
                             "does not vouch for is not read")


def test_the_request_holds_the_inputs_and_never_the_expected_values(tmp_path):
    """What the graded code's process is sent: inputs, settings, upstream gradients. (The file
    names what it finds in its error, the one thing of its own that reaches the grader's words.)"""
    path = student_file(tmp_path, """
        import sys

        import numpy as np

        with np.load(sys.argv[1]) as request:
            raise RuntimeError("seen: " + " ".join(request.files) + " :end")
    """)
    message = failure(path)
    names = message[message.index("seen: ") + 6:message.index(" :end")].split()
    assert "meta" in names and "1/in/x" in names and "1/upstream/0" in names
    assert {name.split("/")[1] for name in names if name != "meta"} == {"in", "upstream"}


def test_a_process_that_ends_in_the_middle_of_a_case_fails_with_its_status(tmp_path):
    path = student_file(tmp_path, """
        import os

        def layer_norm(x, weight, bias, eps=1e-5):
            os._exit(3)
    """)
    assert failure(path, "layer_norm").startswith(
        "layer_norm: your code's process ended (exit status 3) before it gave back its results")


def test_a_function_that_never_returns_fails_at_the_time_limit(tmp_path, monkeypatch):
    monkeypatch.setattr("minigrad.grade.process.TIME_LIMIT", 3)
    path = student_file(tmp_path, """
        def layer_norm(x, weight, bias, eps=1e-5):
            while True:
                pass
    """)
    assert failure(path, "layer_norm").startswith(
        "layer_norm: your code ran for more than 3 s without finishing the cases")


def test_outputs_that_are_nan_are_named_as_such(tmp_path):
    path = student_file(tmp_path, """
        def layer_norm(x, weight, bias, eps=1e-5):
            return x * float("nan")
    """)
    assert "element (0, 0) is nan, expected" in failure(path, "layer_norm")


# ---- the reference cannot be run -----------------------------------------------------------

def test_replacing_sys_setprofile_does_not_let_the_reference_run(tmp_path):
    path = student_file(tmp_path, """
        import sys

        sys.setprofile = lambda *args: None
        from tests.reference.minigrad_reference import gru_cell
    """)
    assert failure(path).startswith("gru_cell: your code opens the reference solutions "
                                    "(minigrad_reference.py), an answer to this exercise")


def test_replacing_sys_setprofile_does_not_hide_the_projects_multi_head_module(tmp_path):
    path = student_file(tmp_path, """
        import sys

        sys.setprofile = lambda *args: None
        from attention import MultiHeadAttention

        def multi_head_attention(query, key, value, in_proj_weight, in_proj_bias,
                                 out_proj_weight, out_proj_bias, num_heads, mask=None):
            layer = MultiHeadAttention(query.shape[-1], num_heads)
            layer.in_proj_weight, layer.in_proj_bias = in_proj_weight, in_proj_bias
            layer.out_proj.weight, layer.out_proj.bias = out_proj_weight, out_proj_bias
            return layer(query, key, value, mask=mask)
    """)
    assert "runs attention.modules.MultiHeadAttention.__init__" in failure(
        path, "multi_head", grade_attention)


def test_switching_the_profile_hook_off_is_refused(tmp_path):
    path = student_file(tmp_path, """
        import sys

        from attention import MultiHeadAttention

        def multi_head_attention(query, key, value, in_proj_weight, in_proj_bias,
                                 out_proj_weight, out_proj_bias, num_heads, mask=None):
            sys.setprofile(None)
            layer = MultiHeadAttention(query.shape[-1], num_heads)
            layer.in_proj_weight, layer.in_proj_bias = in_proj_weight, in_proj_bias
            layer.out_proj.weight, layer.out_proj.bias = out_proj_weight, out_proj_bias
            return layer(query, key, value, mask=mask)
    """)
    assert failure(path, "multi_head", grade_attention).startswith(
        "multi_head: your code calls sys.setprofile (your file, or a module it imports) while it "
        "is graded")


@pytest.mark.parametrize("swap", [
    "minigrad.grade.solution.refusing_answers = lambda exercise: contextlib.nullcontext()",
    "minigrad.grade.answers.watching.__code__ = (lambda answers: None).__code__",
])
def test_swapping_the_watch_for_answers_for_one_that_watches_nothing_is_refused(tmp_path, swap):
    path = student_file(tmp_path, f"""
        import contextlib

        import minigrad.grade.answers
        import minigrad.grade.solution
        from attention import MultiHeadAttention

        try:
            {swap}
        except Exception:
            pass

        def multi_head_attention(query, key, value, in_proj_weight, in_proj_bias,
                                 out_proj_weight, out_proj_bias, num_heads, mask=None):
            layer = MultiHeadAttention(query.shape[-1], num_heads)
            layer.in_proj_weight, layer.in_proj_bias = in_proj_weight, in_proj_bias
            layer.out_proj.weight, layer.out_proj.bias = out_proj_weight, out_proj_bias
            return layer(query, key, value, mask=mask)
    """)
    message = failure(path, "multi_head", grade_attention)
    assert message.startswith("multi_head: your code ")
    assert ("changes minigrad.grade.solution.refusing_answers" in message
            or "replaces the code of watching" in message)


def test_a_copy_of_the_reference_made_while_graded_is_refused(tmp_path):
    path = student_file(tmp_path, f"""
        import importlib.util
        import shutil
        import tempfile
        from pathlib import Path

        copy = Path(tempfile.mkdtemp()) / "mine.py"
        shutil.copy({reference.__file__!r}, copy)
        spec = importlib.util.spec_from_file_location("mine", copy)
        mine = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mine)
        gru_cell = mine.gru_cell
    """)
    assert failure(path).startswith("gru_cell: your code opens the reference solutions "
                                    "(minigrad_reference.py), an answer to this exercise")


def test_exec_of_the_references_source_is_refused(tmp_path):
    path = student_file(tmp_path, f"""
        with open({reference.__file__!r}) as file:
            exec(file.read())
    """)
    assert failure(path).startswith("gru_cell: your code opens the reference solutions "
                                    "(minigrad_reference.py), an answer to this exercise")


def test_opening_the_graders_own_code_for_writing_is_refused(tmp_path):
    """Rewritten on disk, the grader would pass this file at its next grading. (Opened to
    append nothing: should the refusal fail, the file stays as it is.)"""
    compare = ROOT / "minigrad" / "grade" / "compare.py"
    before = compare.read_bytes()
    path = student_file(tmp_path, f"""
        open({str(compare)!r}, "a").close()
    """)
    assert failure(path).startswith(f"gru_cell: your code writes to {compare} while it is "
                                    f"graded: it may write files in its own temporary folder only")
    assert compare.read_bytes() == before


def test_writing_elsewhere_in_the_systems_temporary_folder_is_refused(tmp_path):
    """The folder the graded code may write in is its grading's own, not the system's: a
    checkout, an install or the next grading's files may sit in the system's (tmp_path does)."""
    target = tmp_path / "written-by-the-graded-code.txt"
    path = student_file(tmp_path, f"""
        open({str(target)!r}, "w").close()
    """)
    assert failure(path).startswith(f"gru_cell: your code writes to {target} while it is graded")
    assert not target.exists()


def test_the_graded_code_may_write_in_its_own_temporary_folder(tmp_path):
    path = student_file(tmp_path, """
        import tempfile

        from minigrad import Tensor

        with tempfile.NamedTemporaryFile("w") as notes:        # in the grading's own folder
            notes.write("notes")

        def gru_cell(x, h, weight_ih, weight_hh, bias_ih, bias_hh):
            H = h.shape[-1]
            from_x = x @ weight_ih.T + bias_ih
            from_h = h @ weight_hh.T + bias_hh
            r = (from_x[:, :H] + from_h[:, :H]).sigmoid()
            z = (from_x[:, H:2 * H] + from_h[:, H:2 * H]).sigmoid()
            n = (from_x[:, 2 * H:] + r * from_h[:, 2 * H:]).tanh()
            return (1 - z) * n + z * h
    """)
    assert grade("gru_cell", path).startswith("passed: gru_cell: 4 cases")


def test_a_copy_made_by_another_process_is_refused(tmp_path):
    path = student_file(tmp_path, f"""
        import subprocess
        import sys

        source = subprocess.run(["cat", {reference.__file__!r}], capture_output=True,
                                text=True).stdout
        exec(source)
    """)
    assert failure(path).startswith("gru_cell: your code starts another process "
                                    "(subprocess.Popen) while it is graded")


@pytest.mark.parametrize("trick", [
    # a handle to the grader's folder, then files in it named relative to that handle
    'd = os.open(GRADE, os.O_RDONLY | os.O_DIRECTORY)\n'
    'os.close(os.open("compare.py", os.O_WRONLY | os.O_APPEND, dir_fd=d))',
    'd = os.open(GRADE, os.O_RDONLY)\n'
    'print(open(os.open("expected.npz", os.O_RDONLY, dir_fd=d), "rb").read(1))',
    'os.chdir(GRADE)\nd = os.open(".", os.O_RDONLY)',
    'import sqlite3\nsqlite3.connect(os.path.join(GRADE, "made.db")).execute("create table t(x)")',
    'import socket\nsocket.socket(socket.AF_UNIX).bind(os.path.join(GRADE, "made.sock"))',
])
def test_routes_round_the_path_check_are_refused(tmp_path, trick):
    """Calls whose audit event names a path the check did not read as a write: a folder's
    handle (then `dir_fd=`), a database file, a socket file."""
    grade_folder = ROOT / "minigrad" / "grade"
    before = sorted(p.name for p in grade_folder.iterdir())
    compare = (grade_folder / "compare.py").read_bytes()
    path = student_file(tmp_path, "import os\nGRADE = " + repr(str(grade_folder)) + "\n"
                        + trick + "\n")
    assert failure(path).startswith("gru_cell: your code writes to ")
    assert sorted(p.name for p in grade_folder.iterdir()) == before
    assert (grade_folder / "compare.py").read_bytes() == compare
