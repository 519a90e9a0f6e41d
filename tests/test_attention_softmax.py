"""attention.softmax, built from primitive ops, is the fused minigrad.functional.softmax: the same
values, the same gradients, the same behaviour on huge, on -inf and on integer scores."""

import numpy as np
import pytest

import minigrad.functional as F
from minigrad import Tensor, gradcheck
from attention import softmax


def values_and_grads(fn, x, axis, upstream):
    t = Tensor(x, requires_grad=True)
    y = fn(t, axis=axis)
    y.backward(upstream)
    return y.data, t.grad


@pytest.mark.parametrize("axis", [-1, 0, 1])
def test_softmax_equals_fused_softmax_in_values_and_gradients(axis):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((3, 4, 5)) * 3
    upstream = rng.standard_normal(x.shape)
    y, grad = values_and_grads(softmax, x, axis, upstream)
    y_fused, grad_fused = values_and_grads(F.softmax, x, axis, upstream)
    np.testing.assert_allclose(y, y_fused, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(grad, grad_fused, rtol=1e-10, atol=1e-13)
    np.testing.assert_allclose(y.sum(axis=axis), 1.0)


def test_softmax_known_values():
    y = softmax(Tensor([2.0, 1.0, 3.0, -2.0]))
    np.testing.assert_allclose(y.data, [0.2436364, 0.0896288, 0.6622724, 0.0044624], atol=1e-7)


def test_softmax_gradcheck_with_a_random_upstream_gradient():
    x = Tensor(np.random.default_rng(1).standard_normal((4, 6)), requires_grad=True)
    assert gradcheck(softmax, x)
    assert gradcheck(lambda t: softmax(t, axis=0), x)


def test_softmax_graph_shows_each_step():
    x = Tensor([1.0, 2.0], requires_grad=True)
    y = softmax(x)
    ops = []
    t = y
    while t.creator is not None:                    # follow the first input back to x
        ops.append(type(t.creator).__name__)
        t = t.creator.inputs[0]
    assert ops == ["Div", "Exp", "Sub"]
    assert type(y.creator.inputs[1].creator).__name__ == "Sum"        # no row masked: no guard


def test_the_mask_guard_is_drawn_only_for_a_row_all_masked_and_says_so():
    x = Tensor([[1.0, 2.0], [-np.inf, -np.inf]], requires_grad=True)
    y = softmax(x)
    guard = y.creator.inputs[1].creator
    assert type(guard).__name__ == "Where"
    assert type(guard.inputs[0].creator).__name__ == "Sum"
    assert guard.inputs[1].name == "1 (rows all masked -> weights 0)"
    assert np.array_equal(y.data[1], [0.0, 0.0]) and np.allclose(y.data[0].sum(), 1.0)


def test_softmax_huge_scores_are_finite():
    x = np.array([[1e4, -1e4, 0.0], [1e4, 1e4 - 1, -1e4]])
    upstream = np.random.default_rng(2).standard_normal(x.shape)
    y, grad = values_and_grads(softmax, x, -1, upstream)
    y_fused, grad_fused = values_and_grads(F.softmax, x, -1, upstream)
    assert np.all(np.isfinite(y)) and np.all(np.isfinite(grad))
    np.testing.assert_allclose(y[0], [1, 0, 0])
    np.testing.assert_allclose(y[1, :2], [1 / (1 + np.exp(-1)), np.exp(-1) / (1 + np.exp(-1))])
    np.testing.assert_allclose(grad, grad_fused, atol=1e-12)


def test_softmax_minus_infinity_gets_zero_weight_and_a_full_row_gives_zeros():
    x = np.array([[0.0, -np.inf, 1.0], [-np.inf, -np.inf, -np.inf], [-np.inf, 5.0, -np.inf]])
    upstream = np.random.default_rng(3).standard_normal(x.shape)
    y, grad = values_and_grads(softmax, x, -1, upstream)
    y_fused, grad_fused = values_and_grads(F.softmax, x, -1, upstream)
    assert not np.any(np.isnan(y)) and not np.any(np.isnan(grad))
    np.testing.assert_allclose(y, [[1 / (1 + np.e), 0, np.e / (1 + np.e)], [0, 0, 0], [0, 1, 0]])
    np.testing.assert_allclose(y, y_fused)
    np.testing.assert_allclose(grad, grad_fused, atol=1e-15)
    np.testing.assert_array_equal(grad[1], 0)


def test_softmax_keeps_float32():
    y = softmax(Tensor(np.array([1.0, 2.0], dtype=np.float32)))
    assert y.dtype == np.float32


@pytest.mark.parametrize("x", [np.array([[-100, 100, 0]], np.int8),
                               np.array([[1, 2, 3], [4, 0, 2]], np.uint8),
                               np.array([[-5, 7, 2], [300, 301, -300]], np.int64),
                               np.array([[True, False, True]])],
                         ids=["int8", "uint8", "int64", "bool"])
def test_integer_scores_give_the_fused_softmaxs_float64_weights(x):
    y = softmax(Tensor(x), axis=-1).data
    assert y.dtype == np.float64
    np.testing.assert_allclose(y, F.softmax(Tensor(x), axis=-1).data, rtol=1e-12, atol=0)
    np.testing.assert_allclose(y, F.softmax(Tensor(x.astype(np.float64)), axis=-1).data,
                               rtol=1e-12, atol=0)
