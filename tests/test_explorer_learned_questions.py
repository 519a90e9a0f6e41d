"""Predict mode's questions and known mistakes where Transformers are learned, on small graphs of
the engine's own ops: a residual (the direct path), a scale by a constant, a layer norm in one
op, and a mask (an element it leaves out gets exactly 0). Each answer is the engine's number
(backward), accepted within its tolerance; each named mistake's number is computed here apart
from the page and must be recognised (within the tolerance) and not be the answer."""

import numpy as np
import pytest

import minigrad.functional as F
from minigrad import Tensor
from minigrad.nn.fused_layer_norm import fused_layer_norm
from minigrad.viz import explore
from attention.softmax import softmax as softmax_from_ops

RNG = np.random.default_rng(7)
R = RNG.standard_normal((3, 4))                         # the root's weights: sum(R * y)


def leaf(values, name):
    return Tensor(np.array(values, dtype=np.float64), requires_grad=True, name=name)


def gradient(make, values):
    """d sum(R * make(x)) / dx by the engine's backward."""
    x = leaf(values, "x")
    (make(x) * Tensor(R)).sum().backward()
    return x.grad


def only(page, kind):
    """The one question whose mistakes include `kind`, and that mistake's number."""
    found = [(q, m["value"]) for q in page.questions for m in q["mistakes"] if m["kind"] == kind]
    assert len(found) == 1, [q["mistakes"] for q in page.questions]
    return found[0]


def accepted(q, number):
    return abs(number - q["answer"]) <= q["tolerance"]


def recognised(q, number, kind):
    """What the page does with a typed number: the first mistake within the tolerance."""
    match = next((m for m in q["mistakes"] if abs(number - m["value"]) <= q["tolerance"]), None)
    return not accepted(q, number) and match is not None and match["kind"] == kind


X = RNG.standard_normal((3, 4))
W = RNG.standard_normal((4, 4))


def sublayer(x):
    return (x @ Tensor(W)).tanh()


def test_a_residuals_input_is_asked_its_whole_gradient_and_names_sublayer_only():
    x = leaf(X, "x")
    page = explore(((x + sublayer(x)) * Tensor(R)).sum(), predict=True)
    q, value = only(page, "sublayer_only")
    index = tuple(q["index"])
    assert q["total"] and page.data["tensors"][q["tensor"]]["name"] == "x"
    assert accepted(q, gradient(lambda x: x + sublayer(x), X)[index])
    forgot = gradient(sublayer, X)[index]              # the sublayer's term alone
    assert value == pytest.approx(forgot, abs=1e-12)
    assert recognised(q, forgot, "sublayer_only")
    assert "a residual, y = x + f(x)" in next(m["text"] for m in q["mistakes"]
                                              if m["kind"] == "sublayer_only")


def test_a_tensor_used_twice_without_a_residual_has_no_sublayer_only_mistake():
    x = leaf(X, "x")
    page = explore(((x * x.tanh()) * Tensor(R)).sum(), predict=True)
    kinds = {m["kind"] for q in page.questions for m in q["mistakes"]}
    assert "missed_sum" in kinds and "sublayer_only" not in kinds


@pytest.mark.parametrize("scaled, factor", [(lambda x: x / 2.0, 0.5),
                                            (lambda x: x * 0.25, 0.25),
                                            (lambda x: x / np.sqrt(3.0), 1 / np.sqrt(3.0))])
def test_a_scale_by_a_constant_forgotten_in_backward_is_named(scaled, factor):
    x = leaf(X, "x")
    page = explore((scaled(x) * Tensor(R)).sum(), predict_at=["Div", "Mul"])
    q, value = only(page, "scale_forgotten")
    index = tuple(q["index"])
    assert accepted(q, gradient(scaled, X)[index]) and accepted(q, R[index] * factor)
    assert value == R[index] and recognised(q, R[index], "scale_forgotten")


def test_a_product_of_two_tensors_is_no_scale():
    x, y = leaf(X, "x"), leaf(X.T @ X, "y")
    page = explore(((x @ y) * Tensor(R)).sum(), predict_at=["Mul"])
    assert "scale_forgotten" not in {m["kind"] for q in page.questions for m in q["mistakes"]}


def test_a_layer_norm_with_its_mean_and_variance_taken_as_constants_is_named():
    weight, bias = 1 + 0.3 * RNG.standard_normal(4), 0.3 * RNG.standard_normal(4)

    def norm(x):
        return fused_layer_norm(x, Tensor(weight), Tensor(bias))

    x = leaf(X, "x")
    page = explore((norm(x) * Tensor(R)).sum(), predict_at=["FusedLayerNorm"])
    q, value = only(page, "norm_constants")
    index = tuple(q["index"])
    assert accepted(q, gradient(norm, X)[index])
    sigma = np.sqrt(X.var(axis=-1, keepdims=True) + 1e-5)        # the biased variance
    constants = R * weight / sigma
    assert value == pytest.approx(constants[index], rel=1e-12)
    assert recognised(q, constants[index], "norm_constants")


CAUSAL = np.tri(3, 4, k=0, dtype=bool)                  # query i attends keys 0 ... i


@pytest.mark.parametrize("softmax", [F.softmax, softmax_from_ops], ids=["fused", "from ops"])
def test_a_masked_score_gets_exactly_zero_and_the_unmasked_softmaxs_gradient_is_named(softmax):
    def masked(scores):
        return softmax(F.where(CAUSAL, scores, Tensor(np.array(-np.inf))))

    scores = leaf(X, "scores")
    page = explore((masked(scores) * Tensor(R)).sum(), predict_at=["Where"])
    q, value = only(page, "through_mask")
    index = tuple(q["index"])
    assert not CAUSAL[index] and q["answer"] == 0.0 and q["tolerance"] < 1e-2
    assert gradient(masked, X)[index] == 0.0 and accepted(q, 0.0)
    unmasked = gradient(softmax, X)[index]              # the same weights' gradient, no mask
    assert value == pytest.approx(unmasked, abs=1e-12) and abs(unmasked) > 10 * q["tolerance"]
    assert recognised(q, unmasked, "through_mask")
    # Asked where the softmax starts, before the mask's step shows the zero arriving.
    first, last = q["span"]
    ops = [page.data["ops"][page.data["steps"][k - 1]["op"]]["type"] for k in (first, last)]
    assert q["mask"] and q["step"] == first < last and ops == [
        "Softmax" if softmax is F.softmax else "Div", "Where"]


def test_a_mask_before_any_other_op_is_asked_at_its_own_step_and_names_dl_dy_passed_on():
    scores = leaf(X, "scores")
    kept = F.where(CAUSAL, scores, Tensor(np.zeros((3, 4))))
    page = explore(((kept * Tensor(W[:3])) * Tensor(R)).sum(), predict_at=["Where"])
    q, value = only(page, "through_mask")
    index = tuple(q["index"])
    assert q["span"] is None and q["answer"] == 0.0 and not CAUSAL[index]
    assert page.data["ops"][page.data["steps"][q["step"] - 1]["op"]]["type"] == "Where"
    passed_on = W[:3][index] * R[index]                 # dL/dy at the mask's output
    assert value == pytest.approx(passed_on, rel=1e-12) and recognised(q, passed_on,
                                                                       "through_mask")


def test_a_mask_that_leaves_nothing_out_is_not_asked_for_a_zero():
    scores = leaf(X, "scores")
    kept = F.where(np.ones((3, 4), dtype=bool), scores, Tensor(np.array(-np.inf)))
    with pytest.warns(UserWarning, match="no element's gradient stands apart"):
        page = explore((F.softmax(kept) * Tensor(R)).sum(), predict_at=["Where"])
    assert page.questions == []


def test_a_layer_norm_built_from_ops_with_its_mean_and_variance_constant_is_named():
    from minigrad.nn.layer_norm import layer_norm

    weight, bias = 1 + 0.3 * RNG.standard_normal(4), 0.3 * RNG.standard_normal(4)

    def norm(x):
        return layer_norm(x, Tensor(weight), Tensor(bias))

    x = leaf(X, "x")
    page = explore((norm(x) * Tensor(R)).sum(), predict=True)      # x: used by two ops
    q, value = only(page, "norm_constants")
    index = tuple(q["index"])
    assert q["total"] and page.data["tensors"][q["tensor"]]["name"] == "x"
    assert accepted(q, gradient(norm, X)[index])
    sigma = np.sqrt(X.var(axis=-1, keepdims=True) + 1e-5)
    constants = R * weight / sigma
    assert value == pytest.approx(constants[index], rel=1e-12)
    assert recognised(q, constants[index], "norm_constants")
