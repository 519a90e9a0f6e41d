"""LayerNorm: the composed version and the fused op gradchecked in float64 with a random upstream
gradient, equal to each other, and equal to torch.nn.LayerNorm in outputs and every gradient;
bad inputs give one-line errors naming the layer and the shapes."""

import numpy as np
import pytest

from minigrad import Tensor, gradcheck, nn
from minigrad.nn.fused_layer_norm import FusedLayerNorm, fused_layer_norm
from minigrad.nn.layer_norm import layer_norm


def random_affine(rng, D):
    """A weight and bias away from ones and zeros, so a backward that ignores them is caught."""
    return (Tensor(1 + 0.5 * rng.standard_normal(D), requires_grad=True),
            Tensor(0.5 * rng.standard_normal(D), requires_grad=True))


@pytest.mark.parametrize("shape", [(5,), (3, 5), (2, 3, 4)])
def test_fused_op_gradcheck_wrt_input_weight_and_bias(rng, shape):
    x = Tensor(rng.standard_normal(shape) * 2 + 1, requires_grad=True)
    weight, bias = random_affine(rng, shape[-1])
    assert gradcheck(lambda x, w, b: FusedLayerNorm(1e-5)(x, w, b), x, weight, bias)


def test_composed_gradcheck_wrt_input_weight_and_bias(rng):
    x = Tensor(rng.standard_normal((2, 3, 4)), requires_grad=True)
    weight, bias = random_affine(rng, 4)
    assert gradcheck(layer_norm, x, weight, bias)


@pytest.mark.parametrize("fused", [False, True])
def test_layer_gradcheck_wrt_input_and_parameters(rng, fused):
    norm = nn.LayerNorm(6, fused=fused).double()
    norm.weight.data, norm.bias.data = (p.data for p in random_affine(rng, 6))
    x = Tensor(rng.standard_normal((4, 6)), requires_grad=True)
    assert gradcheck(lambda x, w, b: norm(x), x, norm.weight, norm.bias)


def run(norm, x_array, upstream):
    x = Tensor(x_array.copy(), requires_grad=True)
    y = norm(x)
    (y * Tensor(upstream)).sum().backward()
    grads = {"x": x.grad}
    grads.update({name: p.grad for name, p in norm.named_parameters()})
    return y.data, grads


@pytest.mark.parametrize("affine, bias", [(True, True), (True, False), (False, True)])
def test_fused_equals_composed_in_output_and_every_gradient(rng, affine, bias):
    x = rng.standard_normal((3, 4, 8)) * 3 - 2
    upstream = rng.standard_normal(x.shape)
    weight, shift = random_affine(rng, 8)
    results = []
    for fused in (False, True):
        norm = nn.LayerNorm(8, eps=1e-3, elementwise_affine=affine, bias=bias,
                            fused=fused).double()
        for name, p in norm.named_parameters():
            p.data = (weight if name == "weight" else shift).data.copy()
        results.append(run(norm, x, upstream))
    (y_composed, g_composed), (y_fused, g_fused) = results
    np.testing.assert_allclose(y_fused, y_composed, rtol=1e-10, atol=1e-12)
    assert list(g_fused) == list(g_composed) == ["x", "weight", "bias"][:1 + affine + affine * bias]
    for name in g_composed:
        np.testing.assert_allclose(g_fused[name], g_composed[name], rtol=1e-10, atol=1e-12,
                                   err_msg=name)


def test_each_row_comes_out_with_mean_zero_and_variance_one(rng):
    x = Tensor(rng.standard_normal((5, 16)) * 10 + 3)
    for fused in (False, True):
        y = nn.LayerNorm(16, eps=0.0, fused=fused).double()(x).data
        np.testing.assert_allclose(y.mean(axis=-1), 0, atol=1e-12)
        np.testing.assert_allclose(y.var(axis=-1), 1, rtol=1e-12)


def test_parameters_start_at_ones_and_zeros_with_pytorch_names():
    norm = nn.LayerNorm((3,))
    assert list(norm.state_dict()) == ["weight", "bias"]
    assert norm.weight.dtype == np.float32 and norm.weight.shape == (3,)
    np.testing.assert_array_equal(norm.weight.data, np.ones(3))
    np.testing.assert_array_equal(norm.bias.data, np.zeros(3))
    assert list(nn.LayerNorm(3, elementwise_affine=False).state_dict()) == []
    assert list(nn.LayerNorm(3, bias=False).state_dict()) == ["weight"]
    assert repr(nn.LayerNorm(3, fused=True)).startswith("LayerNorm((3,), eps=1e-05, fused=True)")


def test_float32_in_float32_out(rng):
    x = Tensor(rng.standard_normal((2, 4)).astype(np.float32), requires_grad=True)
    for fused in (False, True):
        y = nn.LayerNorm(4, fused=fused)(x)
        y.sum().backward()
        assert y.dtype == np.float32 and x.grad.dtype == np.float32


@pytest.mark.parametrize("make, call, message", [
    (lambda: nn.LayerNorm(4), lambda n: n(Tensor(np.zeros((2, 5), np.float32))),
     "LayerNorm: expected inputs of shape (..., 4), got (2, 5)"),
    (lambda: nn.LayerNorm((2, 4)), None, "LayerNorm: normalized_shape (2, 4) has 2 axes"),
    (lambda: nn.LayerNorm(0), None, "normalized_shape"),
    (lambda: nn.LayerNorm(4), lambda n: n(Tensor(np.zeros((2, 4)))),
     "LayerNorm: the input is float64 but the layer's parameters are float32"),
])
def test_bad_input_gives_one_line_error_naming_layer_and_shapes(make, call, message):
    with pytest.raises((ValueError, TypeError)) as error:
        call(make()) if call else make()
    assert message in str(error.value) and "\n" not in str(error.value)


def test_fused_op_with_wrong_weight_shape_names_the_op_and_shapes():
    x = Tensor(np.zeros((2, 4)))
    with pytest.raises(ValueError, match=r"FusedLayerNorm: weight \(3,\) and bias \(4,\)") as e:
        fused_layer_norm(x, Tensor(np.ones(3)), Tensor(np.zeros(4)))
    assert "\n" not in str(e.value)


def test_fused_op_keeps_for_backward_no_array_of_the_inputs_size_but_the_input(rng):
    """Between forward and backward the op holds x itself and per-row numbers (as PyTorch's
    native_layer_norm: input, mean, rstd), not a normalised copy of x: one array fewer alive
    per LayerNorm in a model, and no fresh pages to fault in on every step."""
    x = rng.standard_normal((4, 5, 8))
    op = FusedLayerNorm(1e-5)
    op(Tensor(x, requires_grad=True), Tensor(np.ones(8)), Tensor(np.zeros(8)))
    saved = [getattr(op, name) for name in op.saves]
    large = [a for a in saved if a.size >= x.size]
    assert len(large) == 1 and np.shares_memory(large[0], x)
    assert sum(a.size for a in saved) == x.size + 2 * 20 + 8    # x, mu and 1/sigma, weight


def test_fused_op_backward_twice_gives_the_same_gradients(rng):
    x = Tensor(rng.standard_normal((3, 6)), requires_grad=True)
    weight, bias = random_affine(rng, 6)
    y = fused_layer_norm(x, weight, bias)
    upstream = rng.standard_normal((3, 6))
    first = y.creator.backward(upstream)
    second = y.creator.backward(upstream)
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)


# ---- against PyTorch ---------------------------------------------------------------------------

@pytest.mark.parametrize("fused", [False, True])
@pytest.mark.parametrize("shape, affine",
                         [((32, 20, 64), True), ((3, 7), True), ((2, 3, 5), False)])
def test_equal_to_torch_layer_norm_in_output_and_every_gradient(rng, fused, shape, affine):
    torch = pytest.importorskip("torch")
    D = shape[-1]
    theirs = torch.nn.LayerNorm(D, elementwise_affine=affine).double()
    ours = nn.LayerNorm(D, elementwise_affine=affine, fused=fused).double()
    if affine:
        with torch.no_grad():
            theirs.weight.copy_(torch.tensor(1 + 0.5 * rng.standard_normal(D)))
            theirs.bias.copy_(torch.tensor(0.5 * rng.standard_normal(D)))
        ours.load_state_dict(theirs.state_dict())
    x = rng.standard_normal(shape) * 2 + 0.5
    upstream = rng.standard_normal(shape)
    y, grads = run(ours, x, upstream)
    x_torch = torch.tensor(x, requires_grad=True)
    y_torch = theirs(x_torch)
    y_torch.backward(torch.tensor(upstream))
    np.testing.assert_allclose(y, y_torch.detach().numpy(), rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(grads["x"], x_torch.grad.numpy(), rtol=1e-10, atol=1e-10)
    for name, p in theirs.named_parameters():
        np.testing.assert_allclose(grads[name], p.grad.numpy(), rtol=1e-10, atol=1e-10,
                                   err_msg=name)
