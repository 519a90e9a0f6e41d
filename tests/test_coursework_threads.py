"""Every thread of the graded code's process is watched, those started while the student's file
was imported included: a thread pool started at import that runs the project's own version of
the piece is refused; one that runs the student's own code passes."""

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from minigrad.grade import SolutionFailed, grade
from minigrad.grade.answers import watching
from minigrad.grade.threads import relay, watch_every_thread
import attention.grade

from conftest import student_file

STARTED_AT_IMPORT = """
from concurrent.futures import ThreadPoolExecutor

from minigrad.nn.layer_norm import layer_norm as theirs

_pool = ThreadPoolExecutor(1)
_pool.submit(lambda: None).result()         # the worker starts now, before the grading


def mine(x, weight, bias, eps):
    centred = x - x.mean(axis=-1, keepdims=True)
    variance = (centred ** 2).mean(axis=-1, keepdims=True)
    return centred / (variance + eps).sqrt() * weight + bias


def layer_norm(x, weight, bias, eps=1e-5):
    return _pool.submit(WHOSE, x, weight, bias, eps).result()
"""


def test_the_projects_layer_norm_run_by_a_pool_started_at_import_is_refused(tmp_path):
    path = student_file(tmp_path, STARTED_AT_IMPORT.replace("WHOSE", "theirs"))
    with pytest.raises(SolutionFailed) as caught:
        grade("layer_norm", path)
    assert str(caught.value).startswith("layer_norm: your layer_norm runs "
                                        "minigrad.nn.layer_norm.layer_norm, an answer")


def test_ones_own_layer_norm_run_by_a_pool_started_at_import_passes(tmp_path):
    path = student_file(tmp_path, STARTED_AT_IMPORT.replace("WHOSE", "mine"))
    assert grade("layer_norm", path).startswith("passed: layer_norm")


def test_the_projects_general_attention_run_by_a_pool_started_at_import_is_refused(tmp_path):
    path = student_file(tmp_path, """
        from concurrent.futures import ThreadPoolExecutor

        from attention import GeneralAttention

        _pool = ThreadPoolExecutor(1)
        _pool.submit(lambda: None).result()

        def theirs(query, keys, values, weight, mask):
            layer = GeneralAttention(query.shape[-1], keys.shape[-1])
            layer.W.weight = weight
            return layer(query, keys, values, mask=mask)

        def general_attention(query, keys, values, weight, mask=None):
            return _pool.submit(theirs, query, keys, values, weight, mask).result()
    """)
    with pytest.raises(SolutionFailed) as caught:
        attention.grade.grade("general_attention", path)
    assert "runs attention.modules.GeneralAttention.__init__, an answer" in str(caught.value)


def answer():
    return 42


def test_a_thread_started_before_the_watch_is_watched_through_the_relay():
    before = threading.getprofile()
    try:
        watch_every_thread()
        with ThreadPoolExecutor(1) as pool:
            pool.submit(int).result()               # the worker starts, with the relay
            with watching((answer,)) as ran:
                assert pool.submit(answer).result() == 42
            assert ran == [f"{__name__}.answer"]
            with watching((answer,)) as ran:
                assert pool.submit(int).result() == 0
            assert ran == []
    finally:
        threading.setprofile(before)
    assert threading.getprofile() is not relay
