"""Every op, gradchecked in float64 (central differences, random upstream gradient) over several
shapes, broadcasting included; and the forward values that a wrong op would get wrong."""

import operator

import numpy as np
import pytest

import minigrad
import minigrad.functional as F
from minigrad import Tensor, gradcheck

from conftest import away_from, leaf

pytestmark = pytest.mark.filterwarnings("error")      # no NaN or overflow warning anywhere

# Pairs of shapes that broadcast: equal, a new leading axis, axes of length 1, scalars.
BROADCAST_PAIRS = [
    ((3,), (3,)),
    ((2, 3), (3,)),
    ((2, 3), (2, 1)),
    ((1, 3), (2, 1)),
    ((4, 1, 3), (2, 3)),
    ((), (2, 3)),
    ((2, 3), ()),
]


# ---- arithmetic ----------------------------------------------------------------------------

@pytest.mark.parametrize("a_shape, b_shape", BROADCAST_PAIRS)
@pytest.mark.parametrize("op", ["add", "sub", "mul", "div", "pow"])
def test_binary_op_gradients_with_broadcasting(rng, op, a_shape, b_shape):
    a = leaf(rng, a_shape, 0.5, 2.0) if op == "pow" else leaf(rng, a_shape)
    b = leaf(rng, b_shape, 0.5, 2.0) if op in ("div", "pow") else leaf(rng, b_shape)
    fn = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
          "div": lambda a, b: a / b, "pow": lambda a, b: a ** b}[op]
    out = fn(a, b)
    expected = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide,
                "pow": np.power}[op](a.data, b.data)
    np.testing.assert_allclose(out.data, expected)
    assert gradcheck(fn, a, b)


@pytest.mark.parametrize("op", ["add", "sub", "mul", "div", "pow"])
def test_python_numbers_on_either_side(rng, op):
    x = leaf(rng, (2, 3), 0.5, 2.0)
    left = {"add": lambda x: 2.5 + x, "sub": lambda x: 2.5 - x, "mul": lambda x: 2.5 * x,
            "div": lambda x: 2.5 / x, "pow": lambda x: 2.5 ** x}[op]
    right = {"add": lambda x: x + 2.5, "sub": lambda x: x - 2.5, "mul": lambda x: x * 2.5,
             "div": lambda x: x / 2.5, "pow": lambda x: x ** 2.5}[op]
    numpy_op = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide,
                "pow": np.power}[op]
    np.testing.assert_allclose(left(x).data, numpy_op(2.5, x.data))
    np.testing.assert_allclose(right(x).data, numpy_op(x.data, 2.5))
    assert gradcheck(left, x) and gradcheck(right, x)


OPERATORS = [operator.add, operator.sub, operator.mul, operator.truediv, operator.pow,
             operator.matmul]        # operator.add(a, b) is exactly `a + b`


@pytest.mark.parametrize("op", OPERATORS, ids=lambda op: op.__name__)
def test_arrays_and_lists_on_either_side(rng, op):
    x = leaf(rng, (3, 3), 0.5, 2.0)
    array = rng.uniform(0.5, 2.0, (3, 3))
    as_list = array.tolist()
    for left, right in [(array, x), (x, array), (as_list, x), (x, as_list)]:
        out = op(left, right)
        assert isinstance(out, Tensor)
        expected = op(*[np.asarray(getattr(v, "data", v)) for v in (left, right)])
        np.testing.assert_allclose(out.data, expected)
    assert gradcheck(lambda x: op(array, x) + op(x, as_list), x)


def test_neg(rng):
    x = leaf(rng, (2, 3))
    np.testing.assert_array_equal((-x).data, -x.data)
    assert gradcheck(lambda x: -x, x)


@pytest.mark.parametrize("p", [2, 3, 0.5, -1.0, 1, 0])
def test_power_by_a_fixed_number(rng, p):
    x = leaf(rng, (2, 3), 0.5, 2.0)
    np.testing.assert_allclose((x ** p).data, x.data ** p)
    assert gradcheck(lambda x: x ** p, x)


def test_power_by_zero_has_zero_gradient_at_zero():
    x = Tensor([0.0, 2.0], requires_grad=True)
    (x ** 0).sum().backward()
    np.testing.assert_array_equal(x.grad, [0.0, 0.0])


MATMUL_SHAPES = [
    ((2, 3), (3, 4)),
    ((3,), (3, 4)),
    ((2, 3), (3,)),
    ((3,), (3,)),
    ((5, 2, 3), (3, 4)),
    ((2, 3), (5, 3, 4)),
    ((5, 1, 2, 3), (4, 3, 2)),
]


@pytest.mark.parametrize("a_shape, b_shape", MATMUL_SHAPES)
def test_matmul_gradients_including_vectors_and_batches(rng, a_shape, b_shape):
    a, b = leaf(rng, a_shape), leaf(rng, b_shape)
    np.testing.assert_allclose((a @ b).data, a.data @ b.data)
    assert gradcheck(lambda a, b: a @ b, a, b)


@pytest.mark.parametrize("a_shape", [(5, 2, 3), (2, 3, 2, 3)])
@pytest.mark.parametrize("contiguous", [True, False])
def test_a_stack_times_one_matrix_is_one_product_of_rows_with_the_same_gradients(
        rng, a_shape, contiguous):
    """(..., n, k) @ (k, m), as in a Linear layer on (batch, time, in): forward and both
    gradients are 2-d products (one BLAS call each, dL/dB summed over the stack by it)."""
    from minigrad.ops.arithmetic import MatMul
    products = []

    class Recorded(np.ndarray):                     # notes the shapes of every `@` on it
        def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
            plain = [np.asarray(x) for x in inputs]
            if ufunc is np.matmul:
                products.append([x.ndim for x in plain])
            return getattr(ufunc, method)(*plain, **kwargs)

    a = rng.standard_normal(a_shape if contiguous else a_shape[:-2] + a_shape[:-3:-1])
    a = a if contiguous else np.swapaxes(a, -1, -2)              # a transposed stack
    b, grad_y = rng.standard_normal((3, 4)), rng.standard_normal(a_shape[:-1] + (4,))
    op = MatMul()
    op.needs_input_grad = (True, True)
    y = op.forward(a.view(Recorded), b.view(Recorded))
    grad_a, grad_b = op.backward(grad_y)
    assert products == [[2, 2]] * 3                              # forward, dL/dA, dL/dB
    np.testing.assert_allclose(np.asarray(y), a @ b, rtol=1e-13)
    np.testing.assert_allclose(np.asarray(grad_a), grad_y @ b.T, rtol=1e-13)
    summed = np.swapaxes(a, -1, -2) @ grad_y                     # A^T dL/dY, each matrix
    summed = summed.reshape(-1, 3, 4).sum(axis=0)                # summed over the stack
    np.testing.assert_allclose(np.asarray(grad_b), summed, rtol=1e-12)
    x, w = leaf(rng, a_shape), leaf(rng, (3, 4))
    assert gradcheck(lambda x, w: x @ w, x, w)


# ---- elementwise functions -------------------------------------------------------------------

SHAPES = [(), (4,), (2, 3), (2, 1, 3)]

ELEMENTWISE = {        # name: (function, NumPy reference, domain of x)
    "exp": (lambda x: x.exp(), np.exp, None),
    "log": (lambda x: x.log(), np.log, (0.2, 3.0)),
    "sqrt": (lambda x: x.sqrt(), np.sqrt, (0.2, 3.0)),
    "tanh": (lambda x: x.tanh(), np.tanh, None),
    "sigmoid": (lambda x: x.sigmoid(), lambda a: 1 / (1 + np.exp(-a)), None),
}


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("name", list(ELEMENTWISE))
def test_elementwise_gradients(rng, name, shape):
    fn, reference, domain = ELEMENTWISE[name]
    x = leaf(rng, shape) if domain is None else leaf(rng, shape, *domain)
    np.testing.assert_allclose(fn(x).data, reference(x.data), rtol=1e-12)
    assert gradcheck(fn, x)


@pytest.mark.parametrize("shape", SHAPES[1:])
def test_relu_and_abs_gradients_away_from_the_kink(rng, shape):
    x = away_from(rng, shape, [0.0])
    np.testing.assert_array_equal(x.relu().data, np.maximum(x.data, 0))
    np.testing.assert_array_equal(x.abs().data, np.abs(x.data))
    assert gradcheck(lambda x: x.relu(), x)
    assert gradcheck(lambda x: x.abs(), x)


def test_relu_and_abs_at_zero_pass_no_gradient():
    x = Tensor([-1.0, 0.0, 2.0], requires_grad=True)
    (x.relu() * 3 + x.abs() * 5).sum().backward()
    np.testing.assert_array_equal(x.grad, [-5.0, 0.0, 8.0])


def test_sigmoid_is_exact_and_quiet_for_huge_inputs():
    x = Tensor([-1e4, -50.0, 0.0, 50.0, 1e4])
    with np.errstate(over="raise", invalid="raise", divide="raise"):
        y = x.sigmoid().data
    np.testing.assert_allclose(y, [0.0, 1.9287498479639178e-22, 0.5, 1.0, 1.0], rtol=1e-14)


@pytest.mark.parametrize("low, high", [(-0.5, 0.7), (None, 0.3), (-0.3, None)])
def test_clip_gradient(rng, low, high):
    x = away_from(rng, (3, 4), [p for p in (low, high) if p is not None], margin=0.05)
    np.testing.assert_array_equal(x.clip(low, high).data, np.clip(x.data, low, high))
    assert gradcheck(lambda x: F.clip(x, low, high), x)
    x.clip(low, high).sum().backward()
    inside = np.ones(x.shape, bool)
    if low is not None:
        inside &= x.data >= low
    if high is not None:
        inside &= x.data <= high
    np.testing.assert_array_equal(x.grad, inside.astype(float))


@pytest.mark.parametrize("cond_shape, a_shape, b_shape",
                         [((2, 3), (2, 3), (2, 3)), ((2, 3), (3,), (2, 1)), ((3,), (2, 3), ())])
def test_where_gradients_with_broadcasting(rng, cond_shape, a_shape, b_shape):
    cond = rng.random(cond_shape) > 0.5
    a, b = leaf(rng, a_shape), leaf(rng, b_shape)
    np.testing.assert_array_equal(F.where(cond, a, b).data, np.where(cond, a.data, b.data))
    assert gradcheck(lambda a, b: F.where(cond, a, b), a, b)


def test_where_with_a_number():
    x = Tensor([1.0, -2.0, 3.0], requires_grad=True)
    y = F.where(x > 0, x, 0.0)
    (y * Tensor([1.0, 2.0, 3.0])).sum().backward()
    np.testing.assert_array_equal(y.data, [1.0, 0.0, 3.0])
    np.testing.assert_array_equal(x.grad, [1.0, 0.0, 3.0])


# ---- reductions -------------------------------------------------------------------------------

AXES = [None, 0, -1, (0, 2), 1]


@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("axis", AXES)
@pytest.mark.parametrize("name", ["sum", "mean", "max", "min"])
def test_reduction_gradients(rng, name, axis, keepdims):
    x = leaf(rng, (2, 3, 4))            # continuous values: no ties
    fn = lambda x: getattr(x, name)(axis=axis, keepdims=keepdims)   # noqa: E731
    reference = getattr(np, name)(x.data, axis=axis, keepdims=keepdims)
    np.testing.assert_allclose(fn(x).data, reference)
    assert fn(x).shape == reference.shape
    assert gradcheck(fn, x)


def test_reduction_axis_as_list():
    x = Tensor(np.arange(24.0).reshape(2, 3, 4), requires_grad=True)
    np.testing.assert_array_equal(x.sum(axis=[0, 2]).data, x.data.sum(axis=(0, 2)))


def test_max_splits_the_gradient_evenly_between_ties():
    x = Tensor([[1.0, 3.0, 3.0], [2.0, 0.0, -1.0], [5.0, 5.0, 5.0]], requires_grad=True)
    x.max(axis=1).backward(np.array([6.0, 1.0, 3.0]))
    np.testing.assert_array_equal(x.grad, [[0, 3, 3], [1, 0, 0], [1, 1, 1]])


def test_min_of_everything_splits_between_ties():
    x = Tensor([[1.0, 3.0], [1.0, 2.0]], requires_grad=True)
    x.min().backward()
    np.testing.assert_array_equal(x.grad, [[0.5, 0], [0.5, 0]])


def test_mean_gradient_is_one_over_count():
    x = Tensor(np.zeros((2, 5)), requires_grad=True)
    x.mean(axis=1).sum().backward()
    np.testing.assert_array_equal(x.grad, np.full((2, 5), 0.2))


# ---- shapes -----------------------------------------------------------------------------------

SHAPE_OPS = {
    "reshape": lambda x: x.reshape(6, 4),
    "reshape -1": lambda x: x.reshape((-1, 3)),
    "transpose": lambda x: x.transpose(2, 0, 1),
    "transpose negative": lambda x: x.transpose(-1, 0, -2),
    "transpose reversed": lambda x: x.transpose(),
    "T": lambda x: x.T,
    "swapaxes": lambda x: x.swapaxes(0, -1),
    "expand_dims": lambda x: x.expand_dims(1),
    "squeeze": lambda x: x.expand_dims(0).expand_dims(-1).squeeze(),
    "squeeze axis": lambda x: x.expand_dims(2).squeeze(2),
}

NUMPY_SHAPE_OPS = {
    "reshape": lambda a: a.reshape(6, 4),
    "reshape -1": lambda a: a.reshape(-1, 3),
    "transpose": lambda a: a.transpose(2, 0, 1),
    "transpose negative": lambda a: a.transpose(-1, 0, -2),
    "transpose reversed": lambda a: a.transpose(),
    "T": lambda a: a.T,
    "swapaxes": lambda a: a.swapaxes(0, -1),
    "expand_dims": lambda a: np.expand_dims(a, 1),
    "squeeze": lambda a: a,
    "squeeze axis": lambda a: a,
}


@pytest.mark.parametrize("name", list(SHAPE_OPS))
def test_shape_op_gradients(rng, name):
    x = leaf(rng, (2, 3, 4))
    np.testing.assert_array_equal(SHAPE_OPS[name](x).data, NUMPY_SHAPE_OPS[name](x.data))
    assert gradcheck(SHAPE_OPS[name], x)


INDEXES = {
    "int": 1,
    "negative int": -1,
    "slice": slice(1, None),
    "step slice": (slice(None), slice(None, None, -2)),
    "None and ellipsis": (None, Ellipsis, 0),
    "mixed basic": (0, slice(None), None, slice(1, 3)),
    "boolean mask": np.array([True, False, True]),
    "2-d boolean mask": np.array([[True, False, True, False]] * 3),
    "integer array with repeats": np.array([0, 2, 0, 0]),
    "two integer arrays with repeats": (np.array([0, 1, 0]), slice(None), np.array([1, 1, 1])),
    "integer array after a slice": (slice(None), np.array([[3, 3], [0, 3]])),
    "list": [2, 2, 1],
}


@pytest.mark.parametrize("name", list(INDEXES))
def test_getitem_gradients(rng, name):
    index = INDEXES[name]
    x = leaf(rng, (3, 4, 5)) if name != "2-d boolean mask" else leaf(rng, (3, 4, 2))
    np.testing.assert_array_equal(x[index].data, x.data[index])
    assert gradcheck(lambda x: x[index], x)


def test_repeated_indices_accumulate():
    x = Tensor([10.0, 20.0, 30.0], requires_grad=True)
    x[np.array([0, 2, 0, 0])].backward(np.array([1.0, 2.0, 3.0, 4.0]))
    np.testing.assert_array_equal(x.grad, [8.0, 0.0, 2.0])


def test_index_with_a_tensor_mask_and_a_tensor_of_ids():
    x = Tensor([1.0, -2.0, 3.0], requires_grad=True)
    np.testing.assert_array_equal(x[x > 0].data, [1.0, 3.0])
    ids = Tensor(np.array([1, 1]))
    x[ids].sum().backward()
    np.testing.assert_array_equal(x.grad, [0.0, 2.0, 0.0])


# ---- functional: joining and cutting ----------------------------------------------------------

@pytest.mark.parametrize("axis", [0, 1, -1])
def test_concat_gradients(rng, axis):
    shapes = {0: [(1, 3), (2, 3), (4, 3)], 1: [(2, 1), (2, 3)], -1: [(2, 1), (2, 3)]}[axis]
    xs = [leaf(rng, s) for s in shapes]
    np.testing.assert_array_equal(F.concat(xs, axis).data,
                                  np.concatenate([x.data for x in xs], axis))
    assert gradcheck(lambda *xs: F.concat(xs, axis), *xs)


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_stack_gradients(rng, axis):
    xs = [leaf(rng, (2, 3)) for _ in range(3)]
    np.testing.assert_array_equal(F.stack(xs, axis).data, np.stack([x.data for x in xs], axis))
    assert gradcheck(lambda *xs: F.stack(xs, axis), *xs)


@pytest.mark.parametrize("sections, axis", [(3, 1), ([1, 4], 1), (2, 0), ([2], -1)])
def test_split_gradients(rng, sections, axis):
    x = leaf(rng, (4, 6))
    parts = F.split(x, sections, axis)
    for part, expected in zip(parts, np.split(x.data, sections, axis)):
        np.testing.assert_array_equal(part.data, expected)
    assert len(parts) == len(np.split(x.data, sections, axis))
    assert gradcheck(lambda x: tuple(F.split(x, sections, axis)), x)


def test_split_concat_round_trip_gradient(rng):
    x = leaf(rng, (3, 6))
    y = F.concat(F.split(x, 3, axis=1)[::-1], axis=1)
    np.testing.assert_array_equal(y.data[:, :2], x.data[:, 4:])
    assert gradcheck(lambda x: F.concat(F.split(x, 3, axis=1)[::-1], axis=1) ** 2, x)


# ---- functional: softmax family, embedding, dropout -------------------------------------------

@pytest.mark.parametrize("shape, axis", [((5,), -1), ((3, 4), -1), ((3, 4), 0), ((2, 3, 4), 1)])
def test_softmax_and_log_softmax_gradients(rng, shape, axis):
    x = leaf(rng, shape)
    e = np.exp(x.data - x.data.max(axis=axis, keepdims=True))
    expected = e / e.sum(axis=axis, keepdims=True)
    np.testing.assert_allclose(F.softmax(x, axis).data, expected, rtol=1e-12)
    np.testing.assert_allclose(F.log_softmax(x, axis).data, np.log(expected), rtol=1e-12)
    assert gradcheck(lambda x: F.softmax(x, axis), x)
    assert gradcheck(lambda x: F.log_softmax(x, axis), x)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("logits_shape", [(4, 5), (2, 3, 5), (5,)])
def test_cross_entropy_gradients(rng, logits_shape, reduction):
    logits = leaf(rng, logits_shape)
    targets = rng.integers(0, 5, logits_shape[:-1])
    log_p = np.log(F.softmax(logits).data)
    losses = -np.take_along_axis(log_p, targets[..., None], -1)[..., 0]
    expected = {"mean": losses.mean(), "sum": losses.sum(), "none": losses}[reduction]
    np.testing.assert_allclose(F.cross_entropy(logits, targets, reduction=reduction).data, expected)
    assert gradcheck(lambda z: F.cross_entropy(z, targets, reduction=reduction), logits)


def test_cross_entropy_ignore_index_adds_no_loss_and_no_gradient(rng):
    logits = leaf(rng, (4, 3))
    targets = np.array([2, -100, 0, -100])
    loss = F.cross_entropy(logits, targets, ignore_index=-100)
    kept = F.cross_entropy(Tensor(logits.data[[0, 2]]), targets[[0, 2]])
    np.testing.assert_allclose(loss.data, kept.data)
    loss.backward()
    np.testing.assert_array_equal(logits.grad[[1, 3]], 0.0)
    assert np.all(logits.grad[[0, 2]] != 0)
    assert gradcheck(lambda z: F.cross_entropy(z, targets, ignore_index=-100), logits)


@pytest.mark.parametrize("value, shown", [(float("nan"), "nan (float)"), (1.5, "1.5 (float)"),
                                           ("x", "'x' (str)"), (1.0, "1.0 (float)")])
def test_cross_entropy_refuses_an_ignore_index_that_is_not_an_integer_naming_it(value, shown):
    with pytest.raises(TypeError) as raised:
        F.cross_entropy(Tensor(np.zeros((2, 3))), np.array([0, 1]), ignore_index=value)
    assert str(raised.value) == f"cross_entropy: ignore_index must be an integer, got {shown}"


def test_cross_entropy_takes_a_numpy_integer_ignore_index():
    loss = F.cross_entropy(Tensor(np.zeros((2, 3))), np.array([0, 1]), ignore_index=np.int64(1))
    assert loss.data == pytest.approx(np.log(3))


def test_cross_entropy_gradient_is_softmax_minus_onehot_over_n():
    logits = Tensor(np.zeros((2, 4)), requires_grad=True)
    F.cross_entropy(logits, np.array([1, 3])).backward()
    expected = (np.full((2, 4), 0.25) - np.eye(4)[[1, 3]]) / 2
    np.testing.assert_allclose(logits.grad, expected)


@pytest.mark.parametrize("ids", [np.array([0, 3, 3, 1]), np.array([[2, 2], [0, 4]])])
def test_embedding_gradients_with_repeated_ids(rng, ids):
    weight = leaf(rng, (5, 3))
    np.testing.assert_array_equal(F.embedding(weight, ids).data, weight.data[ids])
    assert gradcheck(lambda w: F.embedding(w, ids), weight)


def test_embedding_padding_row_gets_no_gradient():
    weight = Tensor(np.ones((4, 2)), requires_grad=True)
    F.embedding(weight, np.array([0, 2, 2, 0]), padding_idx=0).sum().backward()
    np.testing.assert_array_equal(weight.grad, [[0, 0], [0, 0], [2, 2], [0, 0]])


def test_dropout_gradient_with_a_fixed_mask(rng):
    x = leaf(rng, (4, 5))

    def fn(x):
        minigrad.manual_seed(3)             # the same mask on every call
        return F.dropout(x, p=0.4)

    y = fn(x)
    dropped = y.data == 0
    assert 0 < dropped.sum() < x.size
    np.testing.assert_allclose(y.data[~dropped], x.data[~dropped] / 0.6)
    assert gradcheck(fn, x)


def test_dropout_is_identity_when_not_training(rng):
    x = leaf(rng, (3,))
    assert F.dropout(x, 0.5, training=False) is x


def test_softmax_family_is_stable_for_huge_logits():
    x = Tensor([[1e4, 0.0, -1e4], [-1e4, -1e4, -1e4]], requires_grad=True)
    np.testing.assert_allclose(F.softmax(x).data, [[1, 0, 0], [1 / 3, 1 / 3, 1 / 3]])
    np.testing.assert_allclose(F.log_softmax(x).data[0], [0.0, -1e4, -2e4])
    loss = F.cross_entropy(x, np.array([1, 2]))
    np.testing.assert_allclose(loss.data, (1e4 + np.log(3)) / 2)
    loss.backward()
    assert np.all(np.isfinite(x.grad))


def test_softmax_family_with_masked_rows_gives_no_nan():
    x = Tensor([[0.0, -np.inf, 1.0], [-np.inf, -np.inf, -np.inf]], requires_grad=True)
    weights = F.softmax(x)
    np.testing.assert_allclose(weights.data, [[1 / (1 + np.e), 0, np.e / (1 + np.e)], [0, 0, 0]])
    (weights * Tensor(np.arange(6.0).reshape(2, 3))).sum().backward()
    np.testing.assert_array_equal(x.grad[:, 1], 0.0)
    np.testing.assert_array_equal(x.grad[1], 0.0)
    assert np.all(np.isfinite(x.grad))

    x.zero_grad()
    log_p = F.log_softmax(x)
    assert log_p.data[0, 1] == -np.inf and np.isfinite(log_p.data[0, [0, 2]]).all()
    loss = F.cross_entropy(x, np.array([2, -1]), ignore_index=-1)     # the masked row ignored
    np.testing.assert_allclose(loss.data, np.log(1 + np.e) - 1)
    loss.backward()
    assert np.all(np.isfinite(x.grad)) and np.all(x.grad[1] == 0) and x.grad[0, 1] == 0


@pytest.mark.parametrize("shape, target, expected_axes", [
    ((2, 3, 4), (3, 1), (0, 2)), ((2, 3), (2, 3), ()), ((5,), (), (0,)), ((4, 1, 3), (1, 3), (0,)),
])
def test_unbroadcast_sums_new_axes_and_axes_of_length_one(rng, shape, target, expected_axes):
    from minigrad.ops.arithmetic import unbroadcast
    grad = rng.standard_normal(shape)
    reduced = unbroadcast(grad, target)
    assert reduced.shape == target
    np.testing.assert_allclose(reduced, grad.sum(axis=expected_axes).reshape(target))
