"""Bad input gets a clear error, never a wrong number: each test asserts the error's type and that
its message names the op and the shapes involved."""

import numpy as np
import pytest

import minigrad.functional as F
from minigrad import Function, Tensor
from minigrad.ops.shapes import AxisError


def t(*shape):
    return Tensor(np.ones(shape), requires_grad=True)


def assert_names(error, *parts):
    message = str(error.value)
    for part in parts:
        assert part in message, f"{part!r} not in {message!r}"


# ---- shapes that do not fit -------------------------------------------------------------------

@pytest.mark.parametrize("a_shape, b_shape",
                         [((2, 3), (4, 5)), ((3,), (4,)), ((2, 2, 3), (5, 3, 2))])
def test_matmul_shape_mismatch(a_shape, b_shape):
    with pytest.raises(ValueError) as error:
        t(*a_shape) @ t(*b_shape)
    assert_names(error, "MatMul", str(a_shape), str(b_shape))


def test_matmul_of_a_scalar():
    with pytest.raises(ValueError) as error:
        t() @ t(3)
    assert_names(error, "MatMul", "()", "(3,)")


@pytest.mark.parametrize("op, name", [(lambda a, b: a + b, "Add"), (lambda a, b: a - b, "Sub"),
                                      (lambda a, b: a * b, "Mul"), (lambda a, b: a / b, "Div"),
                                      (lambda a, b: a ** b, "Pow"),
                                      (lambda a, b: F.where(np.ones((2, 3), bool), a, b), "Where")])
def test_broadcasting_mismatch(op, name):
    with pytest.raises(ValueError) as error:
        op(t(2, 3), t(4))
    assert_names(error, name, "(2, 3)", "(4,)")


def test_broadcasting_mismatch_with_an_array_on_the_left():
    with pytest.raises(ValueError) as error:
        np.ones((5, 2)) * t(3)
    assert_names(error, "Mul", "(5, 2)", "(3,)")


def test_concat_mismatch():
    with pytest.raises(ValueError) as error:
        F.concat([t(2, 3), t(3, 3)], axis=1)
    assert_names(error, "Concat(axis=1)", "(2, 3)", "(3, 3)")


def test_stack_mismatch():
    with pytest.raises(ValueError) as error:
        F.stack([t(2, 3), t(2, 4)])
    assert_names(error, "Stack", "(2, 3)", "(2, 4)")


def test_reshape_to_a_different_size():
    with pytest.raises(ValueError) as error:
        t(2, 3).reshape(4, 2)
    assert_names(error, "Reshape(shape=(4, 2))", "(2, 3)")


def test_split_into_unequal_parts():
    with pytest.raises(ValueError) as error:
        F.split(t(2, 5), 2, axis=1)
    assert_names(error, "split", "(2, 5)", "2 equal parts")


def test_cross_entropy_targets_of_the_wrong_shape():
    with pytest.raises(ValueError) as error:
        F.cross_entropy(t(4, 3), np.zeros(3, dtype=int))
    assert_names(error, "CrossEntropy", "(4, 3)", "(3,)")


# ---- dtypes -----------------------------------------------------------------------------------

def test_integer_tensor_cannot_require_grad():
    with pytest.raises(TypeError) as error:
        Tensor(np.arange(3), requires_grad=True, name="ids")
    assert_names(error, "'ids'", "int64", "floating-point")


def test_float_targets_and_ids_are_refused():
    with pytest.raises(TypeError) as error:
        F.cross_entropy(t(2, 3), np.array([0.0, 1.0]))
    assert_names(error, "cross_entropy", "float64")
    with pytest.raises(TypeError) as error:
        F.embedding(t(5, 2), np.array([0.5]))
    assert_names(error, "embedding", "float64")


# ---- unknown axes -----------------------------------------------------------------------------

@pytest.mark.parametrize("call, name", [
    (lambda x: x.sum(axis=3), "Sum(axis=3"),
    (lambda x: x.mean(axis=-4), "Mean(axis=-4"),
    (lambda x: x.max(axis=(0, 5)), "Max(axis=(0, 5)"),
    (lambda x: x.min(axis=7), "Min(axis=7"),
    (lambda x: F.softmax(x, axis=3), "Softmax(axis=3)"),
    (lambda x: F.log_softmax(x, axis=3), "LogSoftmax(axis=3)"),
    (lambda x: x.transpose(0, 1, 5), "Transpose(axes=(0, 1, 5))"),
    (lambda x: x.swapaxes(0, 3), "swapaxes"),
    (lambda x: x.expand_dims(5), "expand_dims"),
    (lambda x: x.squeeze(4), "squeeze"),
    (lambda x: F.split(x, 2, axis=3), "split"),
    (lambda x: F.concat([x, x], axis=3), "Concat(axis=3)"),
    (lambda x: F.stack([x, x], axis=5), "Stack(axis=5)"),
])
def test_unknown_axis(call, name):
    with pytest.raises(AxisError) as error:        # a ValueError and an IndexError
        call(t(2, 3, 4))
    assert_names(error, name, "(2, 3, 4)")


def test_transpose_with_axes_that_are_not_a_permutation():
    with pytest.raises(ValueError) as error:
        t(2, 3, 4).transpose(0, 0, 1)
    assert_names(error, "Transpose(axes=(0, 0, 1))", "(2, 3, 4)")


def test_squeeze_of_an_axis_longer_than_one():
    with pytest.raises(ValueError) as error:
        t(2, 3).squeeze(0)
    assert_names(error, "squeeze", "(2, 3)")


# ---- indexing out of range --------------------------------------------------------------------

@pytest.mark.parametrize("index", [5, -6, (0, 3), np.array([0, 5]), (slice(None), np.array([-4]))])
def test_index_out_of_range(index):
    with pytest.raises(IndexError) as error:
        t(5, 3)[index]
    assert_names(error, "GetItem", "(5, 3)")


def test_boolean_mask_of_the_wrong_length():
    with pytest.raises(IndexError) as error:
        t(5, 3)[np.array([True, False, True])]
    assert_names(error, "GetItem", "(5, 3)", "boolean index")


def test_too_many_indices():
    with pytest.raises(IndexError) as error:
        t(5, 3)[0, 0, 0]
    assert_names(error, "GetItem", "(5, 3)")


def test_embedding_id_out_of_range():
    with pytest.raises(IndexError) as error:
        F.embedding(t(4, 2), np.array([1, 4]))
    assert_names(error, "Embedding", "(4, 2)", "id 4")


def test_cross_entropy_target_out_of_range():
    with pytest.raises(IndexError) as error:
        F.cross_entropy(t(2, 3), np.array([0, 3]))
    assert_names(error, "CrossEntropy", "(2, 3)", "target 3")


# ---- backward ---------------------------------------------------------------------------------

class WrongShape(Function):
    """A broadcasting op whose backward forgets to unbroadcast."""

    def forward(self, a, b):
        return a + b

    def backward(self, grad_y):
        return grad_y, grad_y


def test_backward_returning_a_gradient_of_the_wrong_shape():
    y = WrongShape()(t(2, 3), t(3))
    with pytest.raises(ValueError) as error:
        y.sum().backward()
    assert_names(error, "WrongShape", "input 1", "(2, 3)", "(3,)")


def test_backward_returning_the_wrong_number_of_gradients():
    class OneGradient(WrongShape):
        def backward(self, grad_y):
            return (grad_y,)

    with pytest.raises(TypeError) as error:
        OneGradient()(t(2), t(2)).sum().backward()
    assert_names(error, "OneGradient", "1 gradient(s) for 2 input(s)")


def test_backward_returning_a_bare_array():
    class NotATuple(WrongShape):
        def backward(self, grad_y):
            return grad_y

    with pytest.raises(TypeError) as error:
        NotATuple()(t(2), t(2)).sum().backward()
    assert_names(error, "NotATuple", "ndarray", "tuple")


def test_backward_of_a_non_scalar_needs_a_gradient():
    with pytest.raises(RuntimeError) as error:
        (t(2, 3) * 2).backward()
    assert_names(error, "backward", "(2, 3)", "grad=")


def test_backward_of_a_tensor_that_does_not_require_grad():
    with pytest.raises(RuntimeError) as error:
        Tensor(np.ones(1)).backward()
    assert_names(error, "backward", "does not require grad", "shape=(1,)")


def test_backward_with_a_gradient_of_the_wrong_shape():
    with pytest.raises(ValueError) as error:
        (t(2, 3) * 2).backward(np.ones(3))
    assert_names(error, "backward", "(3,)", "(2, 3)")


# ---- settings ---------------------------------------------------------------------------------

def test_bad_settings():
    with pytest.raises(ValueError, match="dropout: p must be in"):
        F.dropout(t(3), p=1.0)
    with pytest.raises(ValueError, match="reduction must be"):
        F.cross_entropy(t(2, 3), np.array([0, 1]), reduction="average")
