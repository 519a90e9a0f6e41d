"""The exercise layer_norm_op: layer normalisation as one op of the student's own, its backward
derived by hand. A right op passes; the known mistakes of its backward fail with a line naming
the mistake and the term of the formula (minigrad/grade/layer_norm_mistakes.py); a right answer
is never diagnosed; the op rule, the by-hand rule and the refusal of the project's own layer
norms hold as for logsumexp and layer_norm."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from minigrad import Tensor
from minigrad.grade import EXERCISES, SolutionFailed, grade
from minigrad.grade.exercises import EXPECTED
from minigrad.grade.expected import stored
from minigrad.grade.layer_norm_mistakes import MISTAKES, diagnosis, normalised
from tests.reference import minigrad_reference as reference

from conftest import student_file

ROOT = Path(__file__).resolve().parent.parent

OP = """
import numpy as np
from minigrad import Function


class LayerNormOp(Function):
    settings = ("eps",)
    saves = ("xhat", "inv_sigma", "weight")

    def __init__(self, eps=1e-5):
        self.eps = eps

    def forward(self, x, weight, bias):
        mean = x.mean(axis=-1, keepdims=True)
        variance = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
        self.inv_sigma = 1 / np.sqrt(variance + self.eps)
        self.xhat = (x - mean) * self.inv_sigma
        self.weight = weight
        return self.xhat * weight + bias

    def backward(self, grad_y):
        xhat, leading = self.xhat, tuple(range(grad_y.ndim - 1))
        g = grad_y * self.weight
        mean_g = g.mean(axis=-1, keepdims=True)
        mean_g_xhat = (g * xhat).mean(axis=-1, keepdims=True)
        grad_x = (g - mean_g - xhat * mean_g_xhat) * self.inv_sigma
        grad_weight = (grad_y * xhat).sum(axis=leading)
        grad_bias = grad_y.sum(axis=leading)
        return grad_x, grad_weight, grad_bias


def layer_norm_op(x, weight, bias, eps=1e-5):
    return LayerNormOp(eps)(x, weight, bias)
"""


def op_with(tmp_path, old, new):
    assert old in OP
    return student_file(tmp_path, OP.replace(old, new))


def failure(path):
    with pytest.raises(SolutionFailed) as caught:
        grade("layer_norm_op", path)
    return str(caught.value)


def test_a_right_op_passes(tmp_path):
    report = grade("layer_norm_op", student_file(tmp_path, OP))
    assert report.startswith("passed: layer_norm_op: 4 cases")


def test_the_reference_op_is_one_op_of_three_inputs():
    arrays = EXERCISES["layer_norm_op"].cases()[1].arrays
    inputs = [Tensor(a, requires_grad=True) for a in arrays.values()]
    y = reference.layer_norm_op(*inputs)
    assert isinstance(y.creator, reference.LayerNormOp) and y.creator.inputs == inputs


# ---- each known mistake is named, with its term ------------------------------------------------

GRAD_X = "grad_x = (g - mean_g - xhat * mean_g_xhat) * self.inv_sigma"


@pytest.mark.parametrize("old, new, words", [
    (GRAD_X, "grad_x = g * self.inv_sigma",
     "your dL/dx is g / sigma (g = dL/dy * weight): the mean and the variance are treated as "
     "constants"),
    (GRAD_X, "grad_x = (g - xhat * mean_g_xhat) * self.inv_sigma",
     "the mean's term of the gradient is missing: your dL/dx is (g - xhat * mean(g * xhat)) / "
     "sigma"),
    (GRAD_X, "grad_x = (g - mean_g) * self.inv_sigma",
     "the variance's term of the gradient is missing: your dL/dx is (g - mean(g)) / sigma"),
    ("g = grad_y * self.weight", "g = grad_y",
     "weight is not multiplied into g: your dL/dx is the right formula with g = dL/dy"),
], ids=["constants", "mean term", "variance term", "weight"])
def test_a_known_mistake_in_dx_is_named_with_its_term(tmp_path, old, new, words):
    message = failure(op_with(tmp_path, old, new)).splitlines()
    assert message[0].startswith('layer_norm_op: the gradient with respect to x is wrong for '
                                 'case 1 of 4, "rows of 6"')
    assert message[3].startswith(f"  {words}")
    assert message[3].endswith("dL/dx = (g - mean(g) - xhat * mean(g * xhat)) / sigma")
    assert len(message) == 5 and "case_inputs('layer_norm_op', 1)" in message[4]


@pytest.mark.parametrize("name, old, new", [
    ("weight", "grad_weight = (grad_y * xhat).sum(axis=leading)", "grad_weight = grad_y * xhat"),
    ("bias", "grad_bias = grad_y.sum(axis=leading)", "grad_bias = grad_y"),
])
def test_a_gradient_not_summed_over_the_broadcast_rows_is_named(tmp_path, name, old, new):
    message = failure(op_with(tmp_path, old, new)).splitlines()
    assert message[0].startswith("layer_norm_op: backward through your layer_norm_op raised "
                                 "WrongShape")
    summed = {"weight": "dL/dy * xhat", "bias": "dL/dy"}[name]
    assert message[1] == (f"  dL/d{name} is not summed over the leading axes: yours has shape "
                          f"(4, 6), {summed} for every row; {name} (6,) is broadcast over the "
                          f"rows of x, so dL/d{name} = the sum of {summed} over every axis but "
                          f"the last")


def test_a_sum_over_the_first_axis_only_is_named_on_the_3d_case(tmp_path):
    """Right on every 2-d case; the 3-d input (2, 3, 5) shows it."""
    path = op_with(tmp_path, "grad_bias = grad_y.sum(axis=leading)", "grad_bias = grad_y.sum(0)")
    message = failure(path).splitlines()
    assert 'case 2 of 4, "a 3-d input"' in message[0]
    assert message[1].startswith("  dL/dbias is not summed over the leading axes: yours has "
                                 "shape (3, 5)")


def test_a_sum_that_keeps_its_axes_is_named_as_such(tmp_path):
    path = op_with(tmp_path, "grad_bias = grad_y.sum(axis=leading)",
                   "grad_bias = grad_y.sum(axis=leading, keepdims=True)")
    assert failure(path).splitlines()[1] == ("  dL/dbias has shape (1, 6): it is summed over the "
                                             "rows, but keeps their axes (keepdims): bias is "
                                             "(6,), so its gradient is too")


def test_another_wrong_dx_gets_no_diagnosis_but_the_generic_hint(tmp_path):
    message = failure(op_with(tmp_path, GRAD_X, "grad_x = (g - mean_g) * 2 * self.inv_sigma"))
    assert "term of the gradient" not in message and "constants" not in message
    assert "(the outputs are right: look at the backward of your LayerNormOp" in message


# ---- the diagnosis never fires on a right answer ------------------------------------------------

def expected_values():
    cases = EXERCISES["layer_norm_op"].cases()
    return cases, stored(EXPECTED, "layer_norm_op")(cases, ("y",), [])


def test_the_right_gradients_get_no_diagnosis_on_any_case():
    cases, wanted = expected_values()
    for case, right in zip(cases, wanted):
        grads = dict(zip(case.arrays, right.grads))
        assert diagnosis(case, right, grads, {}) == []
        summed_right = {"weight": grads["weight"][None], "bias": grads["bias"][None] * 2}
        assert all("not summed" not in line for line in diagnosis(case, right, grads,
                                                                  summed_right))


def test_every_mistake_differs_from_the_right_gradient_on_every_case():
    """So that each diagnosis is a claim the numbers make, on whichever case fails first."""
    cases, wanted = expected_values()
    for case, right in zip(cases, wanted):
        xhat, sigma = normalised(case.arrays["x"], case.settings.get("eps", 1e-5))
        for mistake, _ in MISTAKES:
            theirs = mistake(right.upstream[0], case.arrays["weight"], xhat, sigma)
            assert not np.allclose(theirs, right.grads[0], rtol=1e-6, atol=1e-8), mistake


# ---- the rules of an op of one's own --------------------------------------------------------

def test_a_composed_layer_norm_is_not_an_op_of_ones_own(tmp_path):
    path = student_file(tmp_path, """
        def layer_norm_op(x, weight, bias, eps=1e-5):
            centred = x - x.mean(axis=-1, keepdims=True)
            variance = (centred ** 2).mean(axis=-1, keepdims=True)
            return centred / (variance + eps).sqrt() * weight + bias
    """)
    message = failure(path)
    assert message.startswith("layer_norm_op: the output should be made by your own op")
    assert "made by Add" in message


def test_a_numerical_backward_is_refused(tmp_path):
    path = op_with(tmp_path, "    def backward(self, grad_y):\n", """    def backward(self, grad_y):
        x = self.xhat / self.inv_sigma
        bump = np.zeros_like(x)
        bump.flat[0] = 1e-6
        self.forward(x + bump, self.weight, np.zeros_like(self.weight))
""")
    message = failure(path)
    assert message.startswith("layer_norm_op: your backward runs your forward "
                              "(LayerNormOp.forward) again")


def test_the_projects_fused_layer_norm_inside_the_op_is_refused(tmp_path):
    path = op_with(tmp_path, "        return self.xhat * weight + bias",
                   "        from minigrad.nn.fused_layer_norm import FusedLayerNorm\n"
                   "        return FusedLayerNorm(self.eps).forward(x, weight, bias)")
    message = failure(path)
    assert message.startswith("layer_norm_op: your layer_norm_op runs minigrad.nn."
                              "fused_layer_norm.FusedLayerNorm")


def test_the_graders_own_mistakes_and_the_block_graders_layer_norm_are_refused(tmp_path):
    """The known mistakes' module computes the normalisation, and without_weight given g in
    place of dL/dy is the right dL/dx; the encoder block's grader has a NumPy layer norm."""
    path = op_with(tmp_path, "        return self.xhat * weight + bias",
                   "        from minigrad.grade import layer_norm_mistakes\n"
                   "        self.xhat, _ = layer_norm_mistakes.normalised(x, self.eps)\n"
                   "        return self.xhat * weight + bias")
    assert "minigrad.grade.layer_norm_mistakes" in failure(path)
    path = op_with(tmp_path, "        return self.xhat * weight + bias",
                   "        from attention.grade.encoder_block import _layer_norm\n"
                   "        return _layer_norm(x, weight, bias, self.eps)")
    assert "runs attention.grade.encoder_block._layer_norm" in failure(path)


# ---- from the command line ------------------------------------------------------------------

def test_command_line_passes_a_right_op_and_names_a_mistake(tmp_path):
    good = student_file(tmp_path, OP, "good.py")
    run = subprocess.run([sys.executable, "-m", "minigrad.grade", "layer_norm_op", str(good)],
                         cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("passed: layer_norm_op: 4 cases")

    bad = student_file(tmp_path, OP.replace(GRAD_X, "grad_x = (g - mean_g) * self.inv_sigma"),
                       "bad.py")
    run = subprocess.run([sys.executable, "-m", "minigrad.grade", "layer_norm_op", str(bad)],
                         cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 1 and run.stdout == ""
    assert run.stderr.startswith("failed: layer_norm_op: the gradient with respect to x is wrong")
    assert "  the variance's term of the gradient is missing" in run.stderr


def test_an_op_defined_in_a_module_beside_the_file_is_told_where_it_should_be(tmp_path):
    """The student's own class, in my_ops.py: the refusal said only 'made by LayerNormOp'."""
    folder = tmp_path / "work"
    folder.mkdir()
    (folder / "my_ops.py").write_text(OP)
    graded = folder / "solution.py"
    graded.write_text("from my_ops import LayerNormOp, layer_norm_op  # noqa: F401\n")
    message = failure(graded)
    assert "made by LayerNormOp, defined in " in message and "my_ops.py, not in the file" in message
