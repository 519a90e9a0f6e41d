"""The fused LayerNorm at the edges of floating point: rows near 1e30 in float32, whose squares
overflow, give the float64 reference (PyTorch's float32 gives NaN there, ours gave zeros), and
constant rows with eps 0 give NaN, as PyTorch does (before, round-off in the mean made some of
them +-1); gradients included. The composed version is the formula as written, for reading; its
docstring says what it gives there."""

import warnings

import numpy as np
import pytest

from minigrad import Tensor, gradcheck, nn
from minigrad.nn.layer_norm import layer_norm


def run(layer, x, upstream):
    x = Tensor(x, requires_grad=True)
    y = layer(x)
    (y * Tensor(upstream.astype(y.dtype))).sum().backward()
    return y.data, x.grad, layer.weight.grad


@pytest.mark.parametrize("size", [1e20, 1e30, 1e37])
def test_float32_rows_whose_squares_overflow_match_the_float64_reference(rng, size):
    torch = pytest.importorskip("torch")
    x = (rng.standard_normal((3, 6)) * size).astype(np.float32)
    upstream = rng.standard_normal((3, 6))
    with warnings.catch_warnings():
        warnings.simplefilter("error")                  # overflow is handled, not reported
        y, grad_x, grad_weight = run(nn.LayerNorm(6, fused=True), x, upstream)
    reference = torch.nn.LayerNorm(6).double()                  # in float64, finite
    x64 = torch.tensor(x.astype(np.float64), requires_grad=True)
    y64 = reference(x64)
    y64.backward(torch.tensor(upstream))
    assert y.dtype == np.float32 and np.isfinite(y).all()
    np.testing.assert_allclose(y, y64.detach().numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(grad_x, x64.grad.numpy(), rtol=1e-4, atol=1e-4 / size)
    np.testing.assert_allclose(grad_weight, reference.weight.grad.numpy(), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("D", [3, 5, 7, 33])
@pytest.mark.parametrize("value", [0.1, 1 / 3, 3.0, 7.7, 1e8 + 0.5])
def test_a_constant_row_with_eps_0_is_nan_as_in_torch(
        dtype, D, value):
    torch = pytest.importorskip("torch")
    x = np.full((2, D), value, dtype=dtype)
    theirs = torch.nn.functional.layer_norm(torch.from_numpy(x), (D,), eps=0.0).numpy()
    assert np.isnan(theirs).all()
    with np.errstate(all="ignore"):
        ours = nn.LayerNorm(D, eps=0.0, fused=True).to(dtype)(Tensor(x)).data
        assert np.isnan(ours).all(), ours


def test_a_constant_row_with_eps_gives_zeros():
    x = np.full((2, 7), 0.1, dtype=np.float32)
    np.testing.assert_array_equal(nn.LayerNorm(7, fused=True)(Tensor(x)).data, 0)


def test_the_composed_version_gives_zeros_to_round_off_on_a_constant_row():
    x = np.full((2, 7), 0.1)
    composed = layer_norm(x, None, None).data
    assert np.abs(composed).max() < 1e-5        # not exact zeros: round-off over sqrt(eps)


def test_the_composed_version_still_gradchecks_on_large_rows(rng):
    x = Tensor(rng.standard_normal((3, 5)) * 1e3 + 1e4, requires_grad=True)
    weight = Tensor(1 + 0.5 * rng.standard_normal(5), requires_grad=True)
    bias = Tensor(0.5 * rng.standard_normal(5), requires_grad=True)
    assert gradcheck(layer_norm, x, weight, bias)
