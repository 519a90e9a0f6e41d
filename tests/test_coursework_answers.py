"""A solution that runs the answer it is graded against fails: the reference solutions are in
the project's tests (a clone has them), and some exercises re-create a piece the project has
(beam search, multi-head attention), so one import would otherwise pass. Each refused file
below is shown to pass once the exercise's answers are emptied and nothing is blocked: the
refusal, and nothing else, is what stops it."""

import dataclasses
import os
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest

import minigrad.grade
from minigrad.grade import SolutionFailed, grader, process
import attention.grade
import seq2seq.grade
from tests.reference import minigrad_reference as reference

from conftest import student_file

ROOT = Path(__file__).resolve().parent.parent
OPENS = "opens the reference solutions (minigrad_reference.py)"
GRADERS = {"minigrad": minigrad.grade.EXERCISES, "attention": attention.grade.EXERCISES,
           "seq2seq": seq2seq.grade.EXERCISES}


def refusal(floor, exercise, path, passes_otherwise=True):
    """The failure message; and the same file passes when nothing counts as an answer and no
    file is blocked."""
    exercises = GRADERS[floor]
    with pytest.raises(SolutionFailed) as caught:
        grader.grade(exercises, exercise, path)
    assert sys.getprofile() is None                 # the watch is gone after grading
    if passes_otherwise:
        open_book = dict(exercises)
        open_book[exercise] = dataclasses.replace(exercises[exercise], answers=())
        folders = process.project_folders() + [str(ROOT / "tests")]     # readable there
        with mock.patch.object(process, "blocked_files", list), \
                mock.patch.object(process, "project_folders", lambda: folders):
            assert grader.grade(open_book, exercise, path).startswith(f"passed: {exercise}")
    return str(caught.value)


@pytest.mark.parametrize("exercise", ["gru_cell", "layer_norm", "logsumexp", "layer_norm_op"])
def test_one_import_of_the_engine_reference_is_refused(tmp_path, exercise):
    """(Without the refusal, the reference's logsumexp and layer_norm_op would still fail: their
    output is not made by an op of the student's file.)"""
    path = student_file(tmp_path, f"from tests.reference.minigrad_reference import {exercise}\n")
    message = refusal("minigrad", exercise, path,
                      passes_otherwise=exercise not in ("logsumexp", "layer_norm_op"))
    assert message.startswith(f"{exercise}: your code opens the reference solutions "
                              "(minigrad_reference.py), an answer to this exercise")
    assert "reading the answer is allowed, running it is not." in message


def test_a_reference_imported_by_a_computed_name_inside_the_function_is_refused(tmp_path):
    path = student_file(tmp_path, """
        import importlib

        def layer_norm(x, weight, bias, eps=1e-5):
            answer = importlib.import_module("tests.reference." + "minigrad_" + "reference")
            return answer.layer_norm(x, weight, bias, eps)
    """)
    assert OPENS in refusal("minigrad", "layer_norm", path)


def test_a_second_copy_of_the_reference_module_loaded_from_its_file_is_refused(tmp_path):
    """The graded code's process cannot open the file, by any name."""
    path = student_file(tmp_path, f"""
        import importlib.util

        spec = importlib.util.spec_from_file_location("my_copy", {reference.__file__!r})
        answer = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(answer)
        gru_cell = answer.gru_cell
    """)
    message = refusal("minigrad", "gru_cell", path)
    assert "opens the reference solutions (minigrad_reference.py), an answer" in message


def test_an_op_whose_backward_alone_runs_the_reference_is_refused(tmp_path):
    """The forward is the student's own; the backward borrows the reference's op: its import is
    refused before any of it runs."""
    path = student_file(tmp_path, """
        import numpy as np
        from minigrad import Function
        from tests.reference.minigrad_reference import LogSumExp as Theirs

        class LogSumExp(Function):
            settings = ("axis", "keepdims")
            saves = ("x",)

            def __init__(self, axis=-1, keepdims=False):
                self.axis, self.keepdims = axis, keepdims

            def forward(self, x):
                self.x = x
                peak = np.max(x, axis=self.axis, keepdims=True)
                y = peak + np.log(np.sum(np.exp(x - peak), axis=self.axis, keepdims=True))
                return y if self.keepdims else np.squeeze(y, axis=self.axis)

            def backward(self, grad_y):
                theirs = Theirs(self.axis, self.keepdims)
                theirs.forward(self.x)
                return theirs.backward(grad_y)

        def logsumexp(x, axis=-1, keepdims=False):
            return LogSumExp(axis, keepdims)(x)
    """)
    assert OPENS in refusal("minigrad", "logsumexp", path)


def test_a_reference_call_whose_error_is_swallowed_is_still_refused(tmp_path):
    path = student_file(tmp_path, """
        from tests.reference import minigrad_reference as reference

        def layer_norm(x, weight, bias, eps=1e-5):
            try:
                reference.layer_norm(x, None, bias, eps)        # raises: None has no shape
            except Exception:
                pass
            return reference.layer_norm(x, weight, bias, eps)
    """)
    assert OPENS in refusal("minigrad", "layer_norm", path)


def test_the_attention_reference_and_the_projects_multi_head_module_are_refused(tmp_path):
    imported = student_file(tmp_path, "from tests.reference.attention_reference import *\n",
                            "import.py")
    assert "opens the reference solutions (attention_reference.py)" in refusal(
        "attention", "general_attention", imported)
    module = student_file(tmp_path, """
        from attention import MultiHeadAttention

        def multi_head_attention(query, key, value, in_proj_weight, in_proj_bias,
                                 out_proj_weight, out_proj_bias, num_heads, mask=None):
            layer = MultiHeadAttention(query.shape[-1], num_heads)
            layer.in_proj_weight, layer.in_proj_bias = in_proj_weight, in_proj_bias
            layer.out_proj.weight, layer.out_proj.bias = out_proj_weight, out_proj_bias
            return layer(query, key, value, mask=mask)
    """, "module.py")
    message = refusal("attention", "multi_head", module)
    assert "runs attention.modules.MultiHeadAttention.__init__" in message


def test_the_projects_beam_search_imported_is_refused_and_greedy_is_not(tmp_path):
    path = student_file(tmp_path, "from seq2seq.models.decoding import beam_search\n")
    message = refusal("seq2seq", "beam_search", path)
    assert message.startswith("beam_search: your beam_search runs "
                              "seq2seq.models.decoding.beam_search, an answer to this exercise")
    greedy = student_file(tmp_path, """
        from seq2seq.models.decoding import greedy

        def beam_search(model, src, bos_id, eos_id, beam_size=4, max_len=50):
            [ids], [weights] = greedy(model, src, bos_id, eos_id, max_len)
            return ids, weights
    """, "greedy.py")
    with pytest.raises(SolutionFailed, match="the reference found"):     # wrong, not refused
        seq2seq.grade.grade_file(greedy)


def test_the_command_line_refuses_a_file_that_imports_the_reference(tmp_path):
    path = student_file(tmp_path, "from tests.reference.minigrad_reference import gru_cell\n")
    run = subprocess.run([sys.executable, "-m", "minigrad.grade", "gru_cell", str(path)],
                         cwd=ROOT, capture_output=True, text=True, check=False)
    assert run.returncode == 1 and run.stdout == ""
    assert run.stderr.startswith("failed: gru_cell: your code opens the reference solutions "
                                 "(minigrad_reference.py), an answer")


def test_a_profiler_running_before_grading_is_put_back(tmp_path):
    calls = []
    path = student_file(tmp_path, "from tests.reference.minigrad_reference import layer_norm\n")

    def profiler(frame, event, arg):
        calls.append(event)

    sys.setprofile(profiler)
    try:
        with pytest.raises(SolutionFailed):
            minigrad.grade.grade("layer_norm", path)
        assert sys.getprofile() is profiler
    finally:
        sys.setprofile(None)


def test_the_reference_file_by_a_relative_path_or_a_link_is_refused_too(tmp_path, monkeypatch):
    from minigrad.grade import grade
    link = tmp_path / "link.py"
    link.symlink_to(reference.__file__)
    monkeypatch.chdir(os.path.dirname(reference.__file__))
    for path in ("./minigrad_reference.py", link):
        with pytest.raises(SolutionFailed, match="an answer to this exercise"):
            grade("gru_cell", path)


def test_an_answer_run_in_another_thread_is_refused(tmp_path):
    from minigrad.grade import grade
    path = tmp_path / "threaded.py"
    path.write_text("from concurrent.futures import ThreadPoolExecutor\n"
                    "from tests.reference import minigrad_reference as reference\n\n\n"
                    "def gru_cell(*args):\n"
                    "    with ThreadPoolExecutor(1) as pool:\n"
                    "        return pool.submit(reference.gru_cell, *args).result()\n")
    with pytest.raises(SolutionFailed, match="an answer to this exercise"):
        grade("gru_cell", path)


def test_threads_are_watched_in_the_graded_process_and_ones_own_thread_passes(tmp_path):
    """A new thread sets the watch as its profile hook, from threading's own code: allowed, so
    that the thread is watched (and starts at all)."""
    threaded = """
        from concurrent.futures import ThreadPoolExecutor

        from attention import GeneralAttention, dot_product_attention

        def mine(query, keys, values, weight, mask):
            return dot_product_attention(query, keys @ weight.T, values, mask=mask)

        def theirs(query, keys, values, weight, mask):
            layer = GeneralAttention(query.shape[-1], keys.shape[-1])
            layer.W.weight = weight
            return layer(query, keys, values, mask=mask)

        def general_attention(query, keys, values, weight, mask=None):
            with ThreadPoolExecutor(1) as pool:
                return pool.submit(WHOSE, query, keys, values, weight, mask).result()
    """
    own = student_file(tmp_path, threaded.replace("WHOSE", "mine"), "own.py")
    assert attention.grade.grade("general_attention", own).startswith("passed: general_attention")
    borrowed = student_file(tmp_path, threaded.replace("WHOSE", "theirs"), "borrowed.py")
    assert "runs attention.modules.GeneralAttention.__init__, an answer" in refusal(
        "attention", "general_attention", borrowed)
