"""Cases where the engine once gave a wrong gradient, or an unclear error, without a word: an index
array the caller changes after the forward, a leaf whose data changes shape between two
backwards, a hook that returns something other than a gradient."""

import numpy as np
import pytest

import minigrad.functional as F
from minigrad import Tensor

# ---- index arrays the caller still holds ---------------------------------------------------------

def test_embedding_ids_changed_after_forward_still_get_the_rows_the_forward_read():
    W = Tensor(np.zeros((4, 2)), requires_grad=True)
    ids = np.array([0, 1])
    y = F.embedding(W, ids)
    ids[:] = 3                                  # the caller reuses its array
    (y * Tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
    np.testing.assert_array_equal(W.grad, [[1, 2], [3, 4], [0, 0], [0, 0]])


def test_getitem_index_changed_after_forward_still_scatters_where_the_forward_read():
    x = Tensor([10.0, 20.0, 30.0], requires_grad=True)
    idx = np.array([0, 1])
    y = x[idx]
    idx[0] = 2
    (y * Tensor([1.0, 2.0])).sum().backward()
    np.testing.assert_array_equal(x.grad, [1, 2, 0])


def test_getitem_boolean_mask_inside_a_tuple_changed_after_forward_is_not_used():
    x = Tensor(np.ones((2, 3)), requires_grad=True)
    mask = np.array([True, False, True])
    y = x[:, mask]
    mask[:] = False
    y.sum().backward()
    np.testing.assert_array_equal(x.grad, [[1, 0, 1], [1, 0, 1]])


def test_where_condition_changed_after_forward_still_routes_the_gradient_as_forward_did():
    a = Tensor([1.0, 2.0], requires_grad=True)
    b = Tensor([3.0, 4.0], requires_grad=True)
    cond = np.array([True, False])
    y = F.where(cond, a, b)
    cond[:] = False
    y.sum().backward()
    np.testing.assert_array_equal(a.grad, [1, 0])
    np.testing.assert_array_equal(b.grad, [0, 1])


# ---- a leaf's data replaced by an array of another shape -----------------------------------------

def test_old_grad_of_another_shape_is_an_error_naming_the_tensor_and_both_shapes():
    w = Tensor([1.0, 2.0], requires_grad=True, name="w")
    (w * 2.0).sum().backward()
    w.data = np.ones(3)
    with pytest.raises(ValueError, match=r"'w' .*shape \(2,\).*shape \(3,\).*zero_grad"):
        (w * 3.0).sum().backward()


def test_after_zero_grad_a_leaf_with_new_shape_gets_its_new_gradient():
    w = Tensor([1.0, 2.0], requires_grad=True)
    (w * 2.0).sum().backward()
    w.data = np.ones(3)
    w.zero_grad()
    (w * 3.0).sum().backward()
    np.testing.assert_array_equal(w.grad, [3, 3, 3])


# ---- hooks that return something other than a gradient -------------------------------------------

def test_hook_returning_a_string_names_the_hook_the_tensor_and_what_was_expected():
    x = Tensor([1.0, 2.0], requires_grad=True, name="x")

    def bad_hook(grad):
        return "abc"

    x.register_hook(bad_hook)
    with pytest.raises(TypeError) as error:
        (x * 2.0).sum().backward()
    message = str(error.value)
    assert "bad_hook" in message and "'x'" in message and "\n" not in message
    assert "an array of the gradient's shape (2,), or None" in message


def test_hook_returning_the_wrong_shape_names_the_hook_the_tensor_and_the_shapes():
    x = Tensor([1.0, 2.0], requires_grad=True, name="x")

    def short_hook(grad):
        return grad[:1]

    x.register_hook(short_hook)
    with pytest.raises(ValueError, match=r"short_hook on 'x'.*shape \(1,\); expected an array "
                                         r"of the gradient's shape \(2,\), or None"):
        (x * 2.0).sum().backward()
