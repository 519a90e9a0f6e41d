"""Integer input gives float64 results in every op whose result is not a whole number, as
np.exp, softmax and mean give them: the same numbers as for the same values in float64, never
results cut back to integers (gelu(arange(3)) once gave [0, 0, 1]). And nn.LayerNorm, composed or
fused, takes what the other layers take (a tensor or a NumPy array, integers too) and gives the
same floats either way."""

import math

import numpy as np
import pytest

import minigrad
import minigrad.functional as F
from minigrad import Tensor, nn
from minigrad.nn.fused_layer_norm import fused_layer_norm
from minigrad.nn.layer_norm import layer_norm

INTEGERS = np.array([[0, 1, 2, -3], [4, 0, -1, 7], [2, 2, 5, 1]])        # (3, 4), int64
TARGETS = np.array([0, 3, 1])

OPS = {
    "gelu": lambda x: F.gelu(x),
    "gelu tanh": lambda x: F.gelu(x, approximate="tanh"),
    "nn.GELU": lambda x: nn.GELU()(x),
    "cross_entropy": lambda x: F.cross_entropy(x, TARGETS),
    "cross_entropy sum": lambda x: F.cross_entropy(x, TARGETS, reduction="sum"),
    "cross_entropy none": lambda x: F.cross_entropy(x, TARGETS, reduction="none"),
    "label smoothing": lambda x: F.cross_entropy(x, TARGETS, label_smoothing=0.1),
    "ignore_index": lambda x: F.cross_entropy(x, np.array([0, -1, 1]), ignore_index=-1),
    "fused_layer_norm": lambda x: fused_layer_norm(x, Tensor(np.ones(4)), Tensor(np.zeros(4))),
    "layer_norm": lambda x: layer_norm(x, None, None),
    "exp": F.exp, "sigmoid": F.sigmoid, "tanh": F.tanh, "softmax": F.softmax,
    "log_softmax": F.log_softmax, "mean": F.mean, "sqrt": lambda x: F.sqrt(F.abs(x)),
    "log": lambda x: F.log(F.abs(x) + 1),
}


@pytest.mark.parametrize("op", OPS.values(), ids=OPS.keys())
@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint8, np.int8], ids=str)
def test_integer_input_gives_the_float64_results_of_the_same_values_in_float64(op, dtype):
    values = INTEGERS if np.dtype(dtype).kind == "i" else np.abs(INTEGERS)
    got = op(Tensor(values.astype(dtype))).data
    expected = op(Tensor(values.astype(np.float64))).data
    assert got.dtype == np.float64                  # (NumPy alone gives float16 for int8)
    np.testing.assert_allclose(got, expected, rtol=1e-15)


def test_gelu_of_arange_is_x_times_phi_not_integers():
    x = np.arange(3)
    phi = np.array([0.5 * (1 + math.erf(v / math.sqrt(2))) for v in x])
    np.testing.assert_allclose(F.gelu(Tensor(x)).data, x * phi, rtol=1e-15)    # 0, .841, 1.954
    assert F.gelu(Tensor(x), approximate="tanh").data[1] == pytest.approx(0.8412, abs=1e-4)


def test_cross_entropy_of_equal_integer_logits_is_log_of_the_class_count():
    loss = F.cross_entropy(Tensor(np.zeros((2, 3), np.int64)), np.array([0, 1]))
    assert loss.dtype == np.float64 and loss.data == pytest.approx(math.log(3), rel=1e-15)
    smoothed = F.cross_entropy(Tensor(np.zeros((2, 3), np.int64)), np.array([0, 1]),
                               label_smoothing=0.2)
    assert smoothed.data == pytest.approx(math.log(3), rel=1e-15)


def test_dropout_of_integers_scales_kept_elements_by_one_over_keep_probability():
    minigrad.manual_seed(0)
    y = F.dropout(Tensor(np.full((50, 40), 3)), p=0.75).data
    assert y.dtype == np.float64 and set(np.unique(y)) == {0.0, 12.0}    # 3 / 0.25, never inf


def test_small_integers_are_not_cut_to_float16():
    big = Tensor(np.array([12, 100], dtype=np.int8))
    np.testing.assert_allclose(F.exp(big).data, np.exp([12.0, 100.0]), rtol=1e-15)   # not inf
    unsigned = Tensor(np.array([1, 3], dtype=np.uint8))
    np.testing.assert_allclose(F.sigmoid(unsigned).data, 1 / (1 + np.exp([-1.0, -3.0])),
                               rtol=1e-15)                      # not 0: -x wrapped around


def test_float_inputs_keep_their_dtype():
    x = Tensor(INTEGERS.astype(np.float32))
    for name, op in OPS.items():
        if name != "fused_layer_norm":                  # its weight here is float64
            assert op(x).dtype == np.float32, name


# ---- nn.LayerNorm: composed and fused take the same inputs and give the same floats ----------

LAYER_INPUTS = {
    "float32 array": lambda: np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32),
    "float32 tensor": lambda: Tensor(np.random.default_rng(0).standard_normal((3, 4)),
                                     dtype=np.float32),
    "int64 tensor": lambda: Tensor(np.arange(12).reshape(3, 4)),
    "int64 array": lambda: np.arange(12).reshape(3, 4),
    "int32 tensor": lambda: Tensor(INTEGERS.astype(np.int32)),
}


CASES = [(name, affine) for name in LAYER_INPUTS for affine in (True, False)
         if not affine or name.startswith("float32")]      # float32 parameters: float32 input


@pytest.mark.parametrize("name, affine", CASES, ids=[f"{n}-{a}" for n, a in CASES])
def test_composed_and_fused_layer_norm_take_the_same_inputs_and_agree(name, affine):
    x = LAYER_INPUTS[name]()
    dtype = np.asarray(getattr(x, "data", x)).dtype
    composed = nn.LayerNorm(4, elementwise_affine=affine)(x).data
    fused = nn.LayerNorm(4, elementwise_affine=affine, fused=True)(x).data
    assert composed.dtype == fused.dtype == (np.float32 if dtype == np.float32 else np.float64)
    rtol = 1e-5 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(fused, composed, rtol=rtol, atol=rtol)
    rows = np.asarray(getattr(x, "data", x), dtype=np.float64)
    expected = (rows - rows.mean(-1, keepdims=True)) / np.sqrt(rows.var(-1, keepdims=True) + 1e-5)
    np.testing.assert_allclose(composed, expected, rtol=rtol, atol=rtol)


@pytest.mark.parametrize("fused", [False, True], ids=["composed", "fused"])
def test_an_affine_layer_norm_refuses_integers_as_linear_does(fused):
    x = Tensor(np.arange(12).reshape(3, 4))
    with pytest.raises(TypeError, match="^LayerNorm: the input is int64 but the layer's "
                                        "parameters are float32"):
        nn.LayerNorm(4, fused=fused)(x)
    with pytest.raises(TypeError, match="^Linear: the input is int64"):
        nn.Linear(4, 2)(x)


def test_layer_norm_of_an_integer_arange_is_the_normalised_ramp():
    y = nn.LayerNorm(4, elementwise_affine=False, fused=True)(Tensor(np.arange(12).reshape(3, 4)))
    ramp = np.array([-3, -1, 1, 3]) / math.sqrt(5 + 4e-5)         # (x - mu) / sqrt(1.25 + eps)
    np.testing.assert_allclose(y.data, np.tile(ramp, (3, 1)), rtol=1e-12)


def test_layer_norm_of_an_array_backpropagates_into_its_parameters(rng):
    x = rng.standard_normal((3, 4)).astype(np.float32)
    grads = []
    for fused in (False, True):
        norm = nn.LayerNorm(4, fused=fused)
        (norm(x) * Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))).sum().backward()
        grads.append((norm.weight.grad, norm.bias.grad))
    np.testing.assert_allclose(grads[0][0], grads[1][0], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(grads[0][1], grads[1][1], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name, op", [
    ("matrix product", lambda a: a @ a),
    ("absolute value", lambda a: a.abs()),
])
def test_booleans_where_numpy_would_compute_logic_are_refused_naming_the_op(name, op):
    """Booleans @ booleans is logical in NumPy ([[T, F], [T, T]] @ itself has True where numbers
    give 2); PyTorch refuses it, and |x| of booleans, as this does, in one line."""
    mask = Tensor(np.array([[True, False], [True, True]]))
    with pytest.raises(TypeError, match="of booleans is not computed") as error:
        op(mask)
    assert name in str(error.value) and "(input shapes (2, 2)" in str(error.value)
    assert "\n" not in str(error.value)
    numbers = Tensor(np.array([[1.0, 0.0], [1.0, 1.0]]))
    assert op(numbers).data.max() == (2.0 if name == "matrix product" else 1.0)
