"""A solution that hands in the project's own version of the piece fails, for every exercise
whose piece the project has: layer normalisation (minigrad.nn), logsumexp's pieces (softmax,
log-softmax, cross-entropy, each of which computes a log-sum-exp). And logsumexp's backward
must be derived by hand: a backward that runs the op's forward again (central differences)
fails with a message that says so."""

import dataclasses
from unittest import mock

import pytest

import minigrad.grade
from minigrad.grade import SolutionFailed, grader, process

from conftest import student_file

LOGSUMEXP_FORWARD = """
import numpy as np
from minigrad import Function


class LogSumExp(Function):
    settings = ("axis", "keepdims")
    saves = ("softmax", "x")

    def __init__(self, axis=-1, keepdims=False):
        self.axis, self.keepdims = axis, keepdims

    def forward(self, x):
        self.x = x
        peak = np.max(x, axis=self.axis, keepdims=True)
        total = np.sum(np.exp(x - peak), axis=self.axis, keepdims=True)
        y = peak + np.log(total)
        self.softmax = np.exp(x - y)
        return y if self.keepdims else np.squeeze(y, axis=self.axis)


def logsumexp(x, axis=-1, keepdims=False):
    return LogSumExp(axis, keepdims)(x)
"""

BY_HAND = """
    def backward(self, grad_y):
        if not self.keepdims:
            grad_y = np.expand_dims(grad_y, self.axis)
        return (grad_y * self.softmax,)
"""


def logsumexp_file(tmp_path, backward, head=""):
    source = LOGSUMEXP_FORWARD.replace("\n\ndef logsumexp", backward + "\n\ndef logsumexp")
    return student_file(tmp_path, head + source)


def refusal(exercise, path):
    """The failure message; and the same file passes once the exercise watches nothing."""
    exercises = minigrad.grade.EXERCISES
    with pytest.raises(SolutionFailed) as caught:
        grader.grade(exercises, exercise, path)
    open_book = dict(exercises)
    open_book[exercise] = dataclasses.replace(exercises[exercise], answers=())
    with mock.patch.object(process, "blocked_files", list):
        assert grader.grade(open_book, exercise, path).startswith(f"passed: {exercise}")
    return str(caught.value)


@pytest.mark.parametrize("body", [
    "from minigrad.nn.layer_norm import layer_norm as _ln\n\n"
    "def layer_norm(x, weight, bias, eps=1e-5):\n    return _ln(x, weight, bias, eps)\n",
    "from minigrad.nn.fused_layer_norm import fused_layer_norm\n\n"
    "def layer_norm(x, weight, bias, eps=1e-5):\n"
    "    return fused_layer_norm(x, weight, bias, eps)\n",
    "from minigrad import nn\n\n"
    "def layer_norm(x, weight, bias, eps=1e-5):\n"
    "    norm = nn.LayerNorm(x.shape[-1], eps=eps).double()\n"
    "    norm.weight, norm.bias = weight, bias\n"
    "    return norm(x)\n",
], ids=["layer_norm", "fused_layer_norm", "nn.LayerNorm"])
def test_the_projects_own_layer_norm_is_refused(tmp_path, body):
    message = refusal("layer_norm", student_file(tmp_path, body))
    assert message.startswith("layer_norm: your layer_norm runs minigrad.nn.")
    assert "the project's own version of it" in message


def test_the_projects_softmax_in_logsumexps_backward_is_refused(tmp_path):
    path = logsumexp_file(tmp_path, """
    def backward(self, grad_y):
        from minigrad.ops.softmax import Softmax
        if not self.keepdims:
            grad_y = np.expand_dims(grad_y, self.axis)
        return (grad_y * Softmax(self.axis).forward(self.x),)
""")
    message = refusal("logsumexp", path)
    assert message.startswith("logsumexp: your logsumexp runs minigrad.ops.softmax.Softmax")


def test_the_attention_softmax_in_logsumexps_backward_is_refused(tmp_path):
    path = logsumexp_file(tmp_path, """
    def backward(self, grad_y):
        import minigrad
        from attention import softmax
        if not self.keepdims:
            grad_y = np.expand_dims(grad_y, self.axis)
        with minigrad.no_grad():
            return (grad_y * softmax(minigrad.Tensor(self.x), axis=self.axis).data,)
""")
    message = refusal("logsumexp", path)
    assert message.startswith("logsumexp: your logsumexp runs attention.softmax.softmax")


def test_the_projects_log_softmax_in_logsumexps_forward_is_refused(tmp_path):
    source = LOGSUMEXP_FORWARD.replace(
        "        total = np.sum(np.exp(x - peak), axis=self.axis, keepdims=True)\n"
        "        y = peak + np.log(total)\n",
        "        from minigrad.ops.softmax import LogSoftmax\n"
        "        y = np.take(x - LogSoftmax(self.axis).forward(x), [0], axis=self.axis)\n")
    path = student_file(tmp_path, source.replace("\n\ndef logsumexp",
                                                  BY_HAND + "\n\ndef logsumexp"))
    message = refusal("logsumexp", path)
    assert message.startswith("logsumexp: your logsumexp runs minigrad.ops.softmax.LogSoftmax")


CENTRAL_DIFFERENCES = """
    def differences(self, grad_y):
        x, h = self.x, 1e-6
        grad_x = np.zeros_like(x)
        for i in np.ndindex(x.shape):
            up, down = x.copy(), x.copy()
            up[i] += h
            down[i] -= h
            slope = (self.forward(up) - self.forward(down)) / (2 * h)
            grad_x[i] = np.sum(grad_y * slope)
        return (grad_x,)
"""


def test_a_logsumexp_derived_by_hand_passes(tmp_path):
    assert grader.grade(minigrad.grade.EXERCISES, "logsumexp",
                        logsumexp_file(tmp_path, BY_HAND)).startswith("passed: logsumexp")


def test_a_numerical_backward_in_logsumexp_is_refused(tmp_path):
    path = logsumexp_file(tmp_path, CENTRAL_DIFFERENCES.replace("def differences", "def backward"))
    with pytest.raises(SolutionFailed) as caught:
        grader.grade(minigrad.grade.EXERCISES, "logsumexp", path)
    message = str(caught.value)
    assert message.startswith("logsumexp: your backward runs your forward "
                              "(LogSumExp.forward)"), message
    assert "finite differences, not a derivative derived by hand" in message


def test_a_backward_that_runs_the_students_logsumexp_again_is_refused(tmp_path):
    path = logsumexp_file(tmp_path, """
    def backward(self, grad_y):
        import minigrad
        x, h = self.x, 1e-6
        grad_x = np.zeros_like(x)
        with minigrad.no_grad():
            for i in np.ndindex(x.shape):
                up, down = x.copy(), x.copy()
                up[i] += h
                down[i] -= h
                slope = (logsumexp(minigrad.Tensor(up), self.axis, self.keepdims).data
                         - logsumexp(minigrad.Tensor(down), self.axis, self.keepdims).data)
                grad_x[i] = np.sum(grad_y * slope / (2 * h))
        return (grad_x,)
""")
    with pytest.raises(SolutionFailed) as caught:
        grader.grade(minigrad.grade.EXERCISES, "logsumexp", path)
    assert str(caught.value).startswith("logsumexp: your backward runs your forward (logsumexp)")


def test_a_numerical_backward_through_a_renamed_copy_of_forward_is_refused(tmp_path):
    path = logsumexp_file(tmp_path, """
    def backward(self, grad_y):
        import types
        helper = types.FunctionType(LogSumExp.forward.__code__.replace(
            co_name="helper", co_qualname="helper"), globals())
        x, h = self.x, 1e-6
        grad_x = np.zeros_like(x)
        for i in np.ndindex(x.shape):
            up, down = x.copy(), x.copy()
            up[i] += h
            down[i] -= h
            slope = (helper(self, up) - helper(self, down)) / (2 * h)
            grad_x[i] = np.sum(grad_y * slope)
        return (grad_x,)
""")
    with pytest.raises(SolutionFailed) as caught:
        grader.grade(minigrad.grade.EXERCISES, "logsumexp", path)
    message = str(caught.value)
    assert message.startswith("logsumexp: your backward runs your forward "
                              "(LogSumExp.forward, again as helper)"), message


def test_a_numerical_backward_through_a_forward_assigned_from_a_function_is_refused(tmp_path):
    """`forward = _forward` in the class body: the class's forward, whatever its code's name."""
    source = LOGSUMEXP_FORWARD.replace("    def forward(self, x):", "    forward = _forward\n\n"
                                       "    def unused(self, x):")
    source = source.replace("class LogSumExp(Function):", """def _forward(self, x):
    self.x = x
    peak = np.max(x, axis=self.axis, keepdims=True)
    y = peak + np.log(np.sum(np.exp(x - peak), axis=self.axis, keepdims=True))
    return y if self.keepdims else np.squeeze(y, axis=self.axis)


class LogSumExp(Function):""")
    backward = CENTRAL_DIFFERENCES.replace("def differences", "def backward")
    path = student_file(tmp_path, source.replace("\n\ndef logsumexp", backward
                                                 + "\n\ndef logsumexp"))
    with pytest.raises(SolutionFailed) as caught:
        grader.grade(minigrad.grade.EXERCISES, "logsumexp", path)
    assert str(caught.value).startswith("logsumexp: your backward runs your forward "
                                        "(LogSumExp.forward, which is _forward) again")


def test_a_numerical_backward_computed_in_a_thread_pool_is_refused(tmp_path):
    path = logsumexp_file(tmp_path, CENTRAL_DIFFERENCES + """
    def backward(self, grad_y):
        from concurrent.futures import ThreadPoolExecutor
        with ThreadPoolExecutor(1) as pool:
            return pool.submit(self.differences, grad_y).result()
""")
    with pytest.raises(SolutionFailed) as caught:
        grader.grade(minigrad.grade.EXERCISES, "logsumexp", path)
    assert str(caught.value).startswith("logsumexp: your backward runs your forward "
                                        "(LogSumExp.forward) again")


def test_a_backward_that_runs_another_op_of_ones_own_file_passes(tmp_path):
    """softmax(x) is logsumexp's derivative: computed by a softmax op of the student's own, it
    is derived by hand, not by running logsumexp's forward again."""
    path = logsumexp_file(tmp_path, """
    def backward(self, grad_y):
        if not self.keepdims:
            grad_y = np.expand_dims(grad_y, self.axis)
        return (grad_y * MySoftmax(self.axis).forward(self.x),)
""", head='''
import numpy as np
from minigrad import Function


class MySoftmax(Function):
    settings = ("axis",)
    saves = ("y",)

    def __init__(self, axis=-1):
        self.axis = axis

    def forward(self, x):
        e = np.exp(x - np.max(x, axis=self.axis, keepdims=True))
        self.y = e / np.sum(e, axis=self.axis, keepdims=True)
        return self.y

    def backward(self, grad_y):
        return (self.y * (grad_y - np.sum(grad_y * self.y, axis=self.axis, keepdims=True)),)
''')
    assert grader.grade(minigrad.grade.EXERCISES, "logsumexp", path).startswith(
        "passed: logsumexp")


def test_a_numerical_backward_set_on_the_op_itself_is_refused(tmp_path):
    """The engine runs the op's own `backward` (one set on the instance too), not its class's:
    the forward it runs again is found from what the engine runs."""
    source = LOGSUMEXP_FORWARD.replace(
        "        self.axis, self.keepdims = axis, keepdims\n",
        "        self.axis, self.keepdims = axis, keepdims\n"
        "        self.backward = self.differences\n", 1)
    path = student_file(tmp_path, source.replace("\n\ndef logsumexp", CENTRAL_DIFFERENCES + """
    def backward(self, grad_y):
        raise NotImplementedError
\n\ndef logsumexp"""))
    with pytest.raises(SolutionFailed) as caught:
        grader.grade(minigrad.grade.EXERCISES, "logsumexp", path)
    assert str(caught.value).startswith("logsumexp: your backward runs your forward "
                                        "(LogSumExp.forward) again")
