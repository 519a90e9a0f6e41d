"""Property-based tests (hypothesis): broadcasting and indexing gradients for shapes and indices
drawn at random, checked against an oracle that shares no code with the engine: each output
element is traced back to the input element it came from (`positions`), and its upstream
gradient is added there with `np.bincount`."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import minigrad.functional as F
from minigrad import Tensor, gradcheck

pytestmark = pytest.mark.filterwarnings("error")
SETTINGS = settings(max_examples=40, deadline=None)


def gradient_by_tracing(positions, upstream, shape):
    """dL/dx for y = x picked at `positions` (flat indices into x, one per element of y)."""
    size = int(np.prod(shape))
    return np.bincount(positions.ravel(), weights=upstream.ravel(), minlength=size).reshape(shape)


def flat_positions(shape):
    return np.arange(int(np.prod(shape))).reshape(shape)


# ---- broadcasting -----------------------------------------------------------------------------

broadcast_pairs = hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=4,
                                                    max_side=3)


@SETTINGS
@given(shapes=broadcast_pairs, seed=st.integers(0, 2**16))
def test_add_and_mul_gradients_sum_over_the_broadcast_copies(shapes, seed):
    (a_shape, b_shape), y_shape = shapes
    rng = np.random.default_rng(seed)
    a = Tensor(rng.standard_normal(a_shape), requires_grad=True)
    b = Tensor(rng.standard_normal(b_shape), requires_grad=True)
    upstream = rng.standard_normal(y_shape)
    a_positions = np.broadcast_to(flat_positions(a_shape), y_shape)
    b_positions = np.broadcast_to(flat_positions(b_shape), y_shape)

    (a + b).backward(upstream)
    np.testing.assert_allclose(a.grad, gradient_by_tracing(a_positions, upstream, a_shape))
    np.testing.assert_allclose(b.grad, gradient_by_tracing(b_positions, upstream, b_shape))

    a.zero_grad(), b.zero_grad()
    (a * b).backward(upstream)
    b_copies = np.broadcast_to(b.data, y_shape)
    a_copies = np.broadcast_to(a.data, y_shape)
    np.testing.assert_allclose(a.grad,
                               gradient_by_tracing(a_positions, upstream * b_copies, a_shape))
    np.testing.assert_allclose(b.grad,
                               gradient_by_tracing(b_positions, upstream * a_copies, b_shape))


@SETTINGS
@given(shapes=broadcast_pairs, seed=st.integers(0, 2**16))
def test_sub_div_where_gradcheck_for_any_broadcast(shapes, seed):
    (a_shape, b_shape), y_shape = shapes
    rng = np.random.default_rng(seed)
    a = Tensor(rng.standard_normal(a_shape), requires_grad=True)
    b = Tensor(rng.uniform(0.5, 2.0, b_shape), requires_grad=True)
    cond = rng.random(y_shape) > 0.5
    assert gradcheck(lambda a, b: (a - b) / b, a, b)
    assert gradcheck(lambda a, b: F.where(cond, a, b), a, b)


@SETTINGS
@given(shape=hnp.array_shapes(min_dims=1, max_dims=4, max_side=3), data=st.data())
def test_sum_over_any_axes_spreads_the_gradient_back(shape, data):
    axis = data.draw(st.none() | hnp.valid_tuple_axes(len(shape), min_size=1))
    keepdims = data.draw(st.booleans())
    rng = np.random.default_rng(0)
    x = Tensor(rng.standard_normal(shape), requires_grad=True)
    y = x.sum(axis=axis, keepdims=keepdims)
    upstream = rng.standard_normal(y.shape)
    y.backward(upstream)
    kept_shape = np.sum(x.data, axis=axis, keepdims=True).shape      # reduced axes of length 1
    spread = np.broadcast_to(upstream.reshape(kept_shape), shape)
    np.testing.assert_allclose(x.grad, spread)


# ---- indexing ---------------------------------------------------------------------------------

shapes = hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4)


def check_index(shape, index, seed):
    """y = x[index]: forward as NumPy, gradient as traced positions (repeats add up)."""
    rng = np.random.default_rng(seed)
    x = Tensor(rng.standard_normal(shape), requires_grad=True)
    y = x[index]
    np.testing.assert_array_equal(y.data, x.data[index])
    upstream = rng.standard_normal(y.shape)
    y.backward(upstream)
    expected = gradient_by_tracing(flat_positions(shape)[index], upstream, shape)
    np.testing.assert_allclose(x.grad, expected)


@SETTINGS
@given(shape=shapes, data=st.data(), seed=st.integers(0, 2**16))
def test_basic_indexing_gradient(shape, data, seed):
    index = data.draw(hnp.basic_indices(shape, allow_newaxis=True, allow_ellipsis=True))
    check_index(shape, index, seed)


@SETTINGS
@given(shape=shapes, data=st.data(), seed=st.integers(0, 2**16))
def test_integer_array_indexing_gradient_accumulates_repeats(shape, data, seed):
    index = data.draw(hnp.integer_array_indices(
        shape, result_shape=hnp.array_shapes(min_dims=1, max_dims=2, max_side=5)))
    check_index(shape, index, seed)


@SETTINGS
@given(shape=shapes, data=st.data(), seed=st.integers(0, 2**16))
def test_boolean_mask_gradient(shape, data, seed):
    mask = data.draw(hnp.arrays(bool, shape))
    check_index(shape, mask, seed)


@SETTINGS
@given(shape=hnp.array_shapes(min_dims=2, max_dims=3, min_side=1, max_side=4), data=st.data(),
       seed=st.integers(0, 2**16))
def test_slice_then_integer_array_gradient(shape, data, seed):
    ids = data.draw(hnp.arrays(np.int64, st.integers(1, 6),
                               elements=st.integers(-shape[1], shape[1] - 1)))
    check_index(shape, (slice(None), ids), seed)
