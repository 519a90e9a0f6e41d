"""Bad input gets a clear error, never a wrong number: each test asserts the error's type and that
its message names the op (or layer, or setting) and the shapes or values involved."""

import numpy as np
import pytest

import minigrad.functional as F
from minigrad import Function, Tensor, nn
from minigrad.nn.utils import clip_grad_norm_
from minigrad.ops.shapes import AxisError
from minigrad.optim import SGD, Adam
from attention.modules import AdditiveAttention, GeneralAttention, MultiHeadAttention


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
    assert_names(error, "EmbeddingLookup", "(4, 2)", "id 4")


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


def test_the_wrong_shape_error_keeps_the_op_and_the_gradients_its_backward_returned():
    """For a debugger, or the coursework grader, to see what was returned (unsummed here)."""
    y = WrongShape()(t(2, 3), t(3))
    with pytest.raises(ValueError) as error:
        y.backward(np.arange(6.0).reshape(2, 3))
    assert error.value.op is y.creator
    np.testing.assert_array_equal(error.value.gradients[1], np.arange(6.0).reshape(2, 3))


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


# ---- optimisers: NaN, infinity and strings are refused by name ------------------------------

def param():
    return Tensor(np.zeros(2), requires_grad=True, name="w")


@pytest.mark.parametrize("make, message", [
    (lambda p: SGD([p], lr=float("nan")), "SGD: lr must be a finite number >= 0, got nan"),
    (lambda p: SGD([p], lr=float("inf")), "SGD: lr must be a finite number >= 0, got inf"),
    (lambda p: SGD([p], lr=0.1, momentum=float("nan")), "SGD: momentum must be a finite"),
    (lambda p: SGD([p], lr=0.1, weight_decay=float("inf")), "SGD: weight_decay must be a finite"),
    (lambda p: Adam([p], lr=float("nan")), "Adam: lr must be a finite number >= 0, got nan"),
    (lambda p: Adam([p], eps=float("nan")), "Adam: eps must be a finite number >= 0, got nan"),
    (lambda p: Adam([p], eps=float("inf")), "Adam: eps must be a finite number >= 0, got inf"),
    (lambda p: Adam([p], weight_decay=float("nan")), "Adam: weight_decay must be a finite"),
    (lambda p: Adam([p], betas=(float("nan"), 0.9)), r"Adam: betas\[0\] must be a finite number "
                                                     r"in \[0, 1\), got nan"),
    (lambda p: Adam([p], betas=(0.9, 1.0)), r"Adam: betas\[1\] must be .* got 1.0"),
])
def test_optimiser_settings_that_are_not_finite_are_refused(make, message):
    with pytest.raises(ValueError, match=message):
        make(param())


@pytest.mark.parametrize("make, message", [
    (lambda p: SGD([p], lr="0.1"), "SGD: lr must be a finite number >= 0, got '0.1' (str)"),
    (lambda p: SGD([p], lr=None), "SGD: lr must be a finite number >= 0, got None (NoneType)"),
    (lambda p: SGD([p], lr=0.1, momentum=0.9, nesterov="yes"), "SGD: nesterov must be True or"),
    (lambda p: Adam([p], lr="1e-3"), "Adam: lr must be a finite number >= 0, got '1e-3' (str)"),
    (lambda p: Adam([p], betas=0.9), "Adam: betas must be a pair of numbers (beta1, beta2)"),
])
def test_optimiser_settings_of_the_wrong_type_are_a_type_error(make, message):
    with pytest.raises(TypeError) as error:
        make(param())
    assert message in str(error.value)


def test_a_nan_learning_rate_in_a_state_dict_is_refused_and_nothing_is_changed():
    p = param()
    opt = SGD([p], lr=0.1, momentum=0.9)
    state = opt.state_dict()
    state["param_groups"][0]["lr"] = float("nan")
    with pytest.raises(ValueError, match="SGD: lr must be a finite number >= 0, got nan"):
        opt.load_state_dict(state)
    assert opt.lr == 0.1


# ---- layers: sizes below 1 or not integers --------------------------------------------------

@pytest.mark.parametrize("make, message", [
    (lambda: nn.LSTM(4, 0), "LSTM: hidden_size must be an integer >= 1, got 0"),
    (lambda: nn.LSTM(0, 4), "LSTM: input_size must be an integer >= 1, got 0"),
    (lambda: nn.LSTMCell(4, -3), "LSTMCell: hidden_size must be an integer >= 1, got -3"),
    (lambda: nn.Linear(0, 3), "Linear: in_features must be an integer >= 1, got 0"),
    (lambda: nn.Linear(3, -1), "Linear: out_features must be an integer >= 1, got -1"),
    (lambda: nn.Embedding(0, 3), "Embedding: num_embeddings must be an integer >= 1, got 0"),
    (lambda: nn.Embedding(3, -2), "Embedding: embedding_dim must be an integer >= 1, got -2"),
    (lambda: GeneralAttention(0, 3), "GeneralAttention: query_size must be an integer >= 1"),
    (lambda: AdditiveAttention(3, 3, 0), "AdditiveAttention: hidden_size must be an integer"),
    (lambda: MultiHeadAttention(4, 0), "MultiHeadAttention: num_heads must be an integer >= 1"),
    (lambda: MultiHeadAttention(0, 2), "MultiHeadAttention: embed_dim must be an integer >= 1"),
])
def test_layer_sizes_below_one_name_the_layer_and_the_size(make, message):
    with pytest.raises(ValueError, match=message):
        make()


@pytest.mark.parametrize("make, message", [
    (lambda: nn.LSTM(4, 2.5), "LSTM: hidden_size must be an integer >= 1, got 2.5 (float)"),
    (lambda: nn.Linear("3", 2), "Linear: in_features must be an integer >= 1, got '3' (str)"),
    (lambda: nn.Embedding(10, 4.0), "Embedding: embedding_dim must be an integer >= 1, got 4.0"),
])
def test_layer_sizes_that_are_not_integers_are_a_type_error(make, message):
    with pytest.raises(TypeError) as error:
        make()
    assert message in str(error.value)


# ---- attention masks, len() and load_state_dict ---------------------------------------------

def test_a_mask_that_does_not_broadcast_names_the_function_and_both_shapes():
    from attention.functional import dot_product_attention
    with pytest.raises(ValueError) as error:
        dot_product_attention(t(2, 3, 4), t(2, 5, 4), t(2, 5, 4), mask=np.ones((2, 4), bool))
    assert_names(error, "dot_product_attention", "mask of shape (2, 4)",
                 "scores' shape (2, 3, 5)", "last axis must be n = 5 or 1")


def test_a_mask_for_a_module_names_attend_for_scores_made_by_the_module():
    with pytest.raises(ValueError) as error:
        AdditiveAttention(4, 4, 3)(Tensor(np.ones((2, 3, 4), np.float32)),
                                   Tensor(np.ones((2, 5, 4), np.float32)),
                                   Tensor(np.ones((2, 5, 4), np.float32)),
                                   mask=np.ones((3, 1, 5), bool))
    assert_names(error, "attend", "(3, 1, 5)", "(2, 3, 5)")


def test_a_scale_that_is_not_a_finite_number_is_refused():
    from attention.functional import dot_product_attention
    with pytest.raises(ValueError, match="dot_product_attention: scale must be a finite number"):
        dot_product_attention(t(3), t(4, 3), t(4), scale=float("nan"))


def test_len_of_a_0d_tensor_is_a_type_error_as_in_numpy():
    assert len(t(4, 2)) == 4
    with pytest.raises(TypeError, match=r"len\(\) of a 0-d tensor"):
        len(Tensor(np.float64(2.5)))


@pytest.mark.parametrize("array, dtype", [
    (np.array([[1, "a"], [2, 3]], dtype=object), "object"),
    (np.array([[1, 2], [2, 3]], dtype=object), "object"),     # numbers, but in Python objects
    (np.array([["1", "2"], ["3", "4"]]), "<U1"),
])
def test_load_state_dict_of_an_array_that_is_not_numbers_names_the_parameter_and_dtype(array,
                                                                                        dtype):
    layer = nn.Linear(2, 2)
    before = layer.weight.data.copy()
    with pytest.raises(RuntimeError) as error:
        layer.load_state_dict({"weight": array, "bias": np.zeros(2)})
    assert_names(error, "Linear.load_state_dict", "weight", f"dtype {dtype}")
    assert np.array_equal(layer.weight.data, before)            # nothing copied


@pytest.mark.parametrize("max_norm", [float("nan"), float("inf"), -1.0])
def test_clip_grad_norm_refuses_a_max_norm_that_would_never_clip(max_norm):
    p = param()
    p.grad = np.full(2, 100.0)
    with pytest.raises(ValueError, match="clip_grad_norm_: max_norm must be a finite number >= 0"):
        clip_grad_norm_([p], max_norm)
    assert np.array_equal(p.grad, np.full(2, 100.0))
