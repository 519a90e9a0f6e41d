"""erf over NumPy arrays (minigrad/ops/erf.py, Cody's rational approximations): equal to
math.erf to about 1e-16 relative over a dense sweep of each of its three ranges, the tails,
both signs, 0, +-inf and NaN; the exact GELU built on it equal to PyTorch's."""

import math

import numpy as np
import pytest

import minigrad.functional as F
from minigrad import Tensor
from minigrad.ops.erf import erf


def sweep():
    """Dense points in each range of the approximation and at its edges, both signs, from
    subnormals to far beyond where erf reaches 1."""
    positive = np.concatenate([
        np.linspace(0, 0.5, 20001), np.linspace(0.5, 4, 50001), np.linspace(4, 7, 20001),
        np.geomspace(5e-324, 1e-3, 2001), np.geomspace(7, 1e300, 201),
        np.nextafter([0.5, 4.0, 6.0], 0), np.nextafter([0.5, 4.0, 6.0], 10)])
    return np.concatenate([positive, -positive])


def test_erf_equals_math_erf_to_1e_15_relative_over_a_dense_sweep():
    x = sweep()
    expected = np.array([math.erf(v) for v in x])
    got = erf(x)
    relative = np.abs(got - expected) / np.maximum(np.abs(expected), np.finfo(float).tiny)
    assert relative.max() < 1e-15, f"worst at x = {x[relative.argmax()]!r}"
    assert np.all(np.signbit(got) == np.signbit(expected))      # -0.0 stays -0.0


def test_erf_at_zero_infinities_and_nan():
    got = erf(np.array([0.0, -0.0, np.inf, -np.inf, np.nan]))
    np.testing.assert_array_equal(got[:4], [0.0, -0.0, 1.0, -1.0])
    assert np.signbit(got[1]) and np.isnan(got[4])


def test_erf_keeps_the_shape_and_float32():
    x = np.linspace(-3, 3, 24, dtype=np.float32).reshape(2, 3, 4)
    got = erf(x)
    assert got.shape == (2, 3, 4) and got.dtype == np.float32
    expected = np.reshape([math.erf(v) for v in x.ravel().tolist()], x.shape)
    np.testing.assert_allclose(got, expected, rtol=1e-7)
    assert erf(np.array([1, 2])).dtype == np.float64


def test_exact_gelu_equals_x_times_phi_from_math_erf_over_a_wide_range():
    x = np.linspace(-12, 12, 4801)
    phi = np.array([0.5 * (1 + math.erf(v / math.sqrt(2))) for v in x])
    # atol: below x = -3, 1 + erf cancels, and erf's last bit (2e-16) is all that is left
    np.testing.assert_allclose(F.gelu(Tensor(x)).data, x * phi, rtol=1e-15, atol=2e-15)


@pytest.mark.parametrize("dtype, tolerance", [(np.float64, 1e-12), (np.float32, 1e-6)])
def test_exact_gelu_and_its_gradient_equal_torch_over_a_wide_range(dtype, tolerance):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    x = np.concatenate([np.linspace(-10, 10, 2001), rng.standard_normal(2000) * 3]).astype(dtype)
    upstream = rng.standard_normal(x.shape).astype(dtype)
    ours = Tensor(x.copy(), requires_grad=True)
    y = F.gelu(ours)
    y.backward(grad=upstream)
    theirs = torch.tensor(x, requires_grad=True)
    y_torch = torch.nn.functional.gelu(theirs)
    y_torch.backward(torch.tensor(upstream))
    assert y.dtype == dtype and ours.grad.dtype == dtype
    np.testing.assert_allclose(y.data, y_torch.detach().numpy(), rtol=tolerance, atol=tolerance)
    np.testing.assert_allclose(ours.grad, theirs.grad.numpy(), rtol=tolerance, atol=tolerance)
