"""dot_product_attention, hard_attention and self_attention: the worked example, the Q/K/V form,
masks, gradients (checked against finite differences and against PyTorch) and stability."""

import numpy as np
import pytest

from minigrad import Tensor, gradcheck
from attention import attend, dot_product_attention, hard_attention, self_attention


def tensor(rng, *shape, scale=1.0):
    return Tensor(rng.standard_normal(shape) * scale, requires_grad=True)


# ---- the worked example ----------------------------------------------------------------------

def test_worked_example_scores_weights_and_output():
    q = Tensor([2.0, 1.0])
    keys = Tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [-1.0, 0.0]])
    values = Tensor([10.0, 20.0, 30.0, 40.0])
    np.testing.assert_array_equal((keys @ q).data, [2, 1, 3, -2])               # the scores
    context, weights = dot_product_attention(q, keys, values)
    assert weights.shape == (4,) and context.shape == ()
    np.testing.assert_array_equal(np.round(weights.data, 3), [0.244, 0.090, 0.662, 0.004])
    assert round(context.item(), 2) == 24.28
    assert weights.data.sum() == pytest.approx(1.0)


# ---- shapes: one query, many queries, Q/K/V ----------------------------------------------------

def test_stacked_queries_give_one_row_per_single_query():
    rng = np.random.default_rng(0)
    Q, K, V = tensor(rng, 5, 3), tensor(rng, 7, 3), tensor(rng, 7, 4)
    context, weights = dot_product_attention(Q, K, V)
    assert context.shape == (5, 4) and weights.shape == (5, 7)
    for i in range(5):
        context_i, weights_i = dot_product_attention(Q[i], K, V)
        np.testing.assert_allclose(context.data[i], context_i.data, rtol=1e-12)
        np.testing.assert_allclose(weights.data[i], weights_i.data, rtol=1e-12)


def test_qkv_with_keys_equal_values_is_the_original_form():
    rng = np.random.default_rng(1)
    Q, X = rng.standard_normal((4, 3)), rng.standard_normal((6, 3))
    context, _ = dot_product_attention(Tensor(Q), Tensor(X), Tensor(X))
    for i, q in enumerate(Q):                                  # sum_j softmax(X q)_j x_j
        scores = X @ q
        a = np.exp(scores - scores.max()) / np.exp(scores - scores.max()).sum()
        np.testing.assert_allclose(context.data[i], a @ X, rtol=1e-12)


def test_batched_single_queries_with_number_values():
    rng = np.random.default_rng(2)
    q, keys, values = tensor(rng, 3, 4), tensor(rng, 3, 6, 4), tensor(rng, 3, 6)
    context, weights = dot_product_attention(q, keys, values)     # q.ndim == keys.ndim - 1
    assert context.shape == (3,) and weights.shape == (3, 6)
    for b in range(3):
        context_b, _ = dot_product_attention(q[b], keys[b], values[b])
        assert context.data[b] == pytest.approx(context_b.item(), rel=1e-12)


def test_scale_true_divides_by_sqrt_d_and_a_number_multiplies():
    rng = np.random.default_rng(3)
    q, keys, values = rng.standard_normal(9), rng.standard_normal((5, 9)), rng.standard_normal(5)
    _, scaled = dot_product_attention(Tensor(q), Tensor(keys), Tensor(values), scale=True)
    _, by_number = dot_product_attention(Tensor(q), Tensor(keys), Tensor(values), scale=0.5)
    for w, factor in ((scaled, 1 / 3), (by_number, 0.5)):
        s = keys @ q * factor
        np.testing.assert_allclose(w.data, np.exp(s) / np.exp(s).sum(), rtol=1e-12)


def test_shape_errors_are_explained():
    with pytest.raises(ValueError, match="same last axis"):
        dot_product_attention(Tensor(np.ones(3)), Tensor(np.ones((4, 2))), Tensor(np.ones(4)))
    with pytest.raises(ValueError, match="number of candidates"):
        dot_product_attention(Tensor(np.ones(2)), Tensor(np.ones((4, 2))), Tensor(np.ones(5)))
    with pytest.raises(TypeError, match="boolean"):
        dot_product_attention(Tensor(np.ones(2)), Tensor(np.ones((4, 2))), Tensor(np.ones(4)),
                              mask=np.ones(4))


# ---- masks -----------------------------------------------------------------------------------

def test_masked_candidates_get_zero_weight_and_the_rest_renormalise():
    rng = np.random.default_rng(4)
    Q, K, V = rng.standard_normal((3, 2)), rng.standard_normal((5, 2)), rng.standard_normal((5, 4))
    mask = np.array([True, False, True, True, False])
    context, weights = dot_product_attention(Tensor(Q), Tensor(K), Tensor(V), mask=mask)
    np.testing.assert_array_equal(weights.data[:, ~mask], 0)
    kept, _ = dot_product_attention(Tensor(Q), Tensor(K[mask]), Tensor(V[mask]))
    np.testing.assert_allclose(context.data, kept.data, rtol=1e-12)


def test_a_fully_masked_query_gets_zero_weights_zero_context_and_finite_gradients():
    rng = np.random.default_rng(5)
    Q, K, V = tensor(rng, 3, 2), tensor(rng, 4, 2), tensor(rng, 4, 3)
    mask = np.array([[True, True, False, True], [False] * 4, [False, False, True, False]])
    context, weights = dot_product_attention(Q, K, V, mask=mask)
    np.testing.assert_array_equal(weights.data[1], 0)
    np.testing.assert_array_equal(context.data[1], 0)
    np.testing.assert_allclose(context.data[2], V.data[2])
    context.backward(rng.standard_normal(context.shape))
    for t in (Q, K, V):
        assert np.all(np.isfinite(t.grad))
    np.testing.assert_array_equal(Q.grad[1], 0)


def test_single_query_mask_per_batch_element():
    rng = np.random.default_rng(6)
    q, keys, values = tensor(rng, 2, 3), tensor(rng, 2, 4, 3), tensor(rng, 2, 4)
    mask = np.array([[True, True, False, False], [False, True, True, True]])
    _, weights = dot_product_attention(q, keys, values, mask=mask)
    np.testing.assert_array_equal(weights.data[~mask], 0)
    np.testing.assert_allclose(weights.data.sum(-1), 1)


# ---- gradients -------------------------------------------------------------------------------

@pytest.mark.parametrize("masked", [False, True])
@pytest.mark.parametrize("shapes", [((3,), (5, 3), (5,)), ((4, 3), (5, 3), (5, 2)),
                                    ((2, 4, 3), (2, 5, 3), (2, 5, 2)), ((2, 3), (2, 5, 3), (2, 5))])
def test_gradcheck_query_keys_values(shapes, masked):
    rng = np.random.default_rng(7)
    q, keys, values = (tensor(rng, *s) for s in shapes)
    mask = rng.random(shapes[0][:-1] + (5,)) < 0.6 if masked else None

    def run(q, keys, values):
        return dot_product_attention(q, keys, values, mask=mask, scale=True)
    assert gradcheck(run, q, keys, values)


def test_gradcheck_with_a_fully_masked_row():
    rng = np.random.default_rng(8)
    q, keys, values = tensor(rng, 3, 2), tensor(rng, 4, 2), tensor(rng, 4, 2)
    mask = np.array([[True, False, True, True], [False] * 4, [True] * 4])
    assert gradcheck(lambda q, k, v: dot_product_attention(q, k, v, mask=mask), q, keys, values)


@pytest.mark.parametrize("masked", [False, True])
def test_gradcheck_attend_scores_and_values(masked):
    rng = np.random.default_rng(13)
    scores, values = tensor(rng, 2, 3, 5), tensor(rng, 2, 5, 4)
    mask = rng.random((3, 5)) < 0.5 if masked else None
    context, weights = attend(scores, values, mask)
    assert context.shape == (2, 3, 4) and weights.shape == (2, 3, 5)
    assert gradcheck(lambda s, v: attend(s, v, mask), scores, values)


def test_self_attention_is_attention_of_x_over_itself():
    rng = np.random.default_rng(9)
    x = tensor(rng, 2, 6, 4)
    context, weights = self_attention(x, scale=True)
    expected, _ = dot_product_attention(x, x, x, scale=True)
    assert weights.shape == (2, 6, 6)
    np.testing.assert_allclose(context.data, expected.data)
    causal = np.tril(np.ones((6, 6), dtype=bool))
    assert gradcheck(lambda x: self_attention(x, mask=causal), x)
    assert gradcheck(lambda x: self_attention(x, scale=True), x)
    _, causal_weights = self_attention(x, mask=causal)
    np.testing.assert_array_equal(np.triu(causal_weights.data, 1), 0)   # no peeking ahead


# ---- hard attention ----------------------------------------------------------------------------

def test_hard_attention_picks_the_best_value_and_gives_the_scores_no_gradient():
    q = Tensor([2.0, 1.0], requires_grad=True)
    keys = Tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [-1.0, 0.0]], requires_grad=True)
    values = Tensor([10.0, 20.0, 30.0, 40.0], requires_grad=True)
    context, weights = hard_attention(q, keys, values)
    assert context.item() == 30.0
    np.testing.assert_array_equal(weights.data, [0, 0, 1, 0])
    context.backward()
    assert q.grad is None and keys.grad is None                 # no path from the output
    np.testing.assert_array_equal(values.grad, [0, 0, 1, 0])
    # and numerically: nudging the query or the keys does not move the output at all
    assert gradcheck(hard_attention, q, keys, values)


def test_hard_attention_shapes_match_soft_attention():
    rng = np.random.default_rng(10)
    Q, K, V = tensor(rng, 2, 3, 4), tensor(rng, 2, 5, 4), tensor(rng, 2, 5, 6)
    context, weights = hard_attention(Q, K, V)
    soft_context, soft_weights = dot_product_attention(Q, K, V)
    assert context.shape == soft_context.shape and weights.shape == soft_weights.shape
    np.testing.assert_array_equal(weights.data.argmax(-1), soft_weights.data.argmax(-1))


# ---- stability -------------------------------------------------------------------------------

def test_huge_scores_and_length_one_sequences_stay_finite():
    rng = np.random.default_rng(11)
    for n in (1, 6):
        Q, K, V = tensor(rng, 3, 4, scale=100.0), tensor(rng, n, 4, scale=100.0), tensor(rng, n, 2)
        context, weights = dot_product_attention(Q, K, V)
        assert np.abs(Q.data @ K.data.T).max() > 1e4 or n == 1
        context.backward(rng.standard_normal(context.shape))
        for t in (context, weights):
            assert np.all(np.isfinite(t.data))
        for t in (Q, K, V):
            assert np.all(np.isfinite(t.grad))
        np.testing.assert_allclose(weights.data.sum(-1), 1)
    np.testing.assert_allclose(weights.data.max(-1), 1)       # scores 1e4 apart: one-hot


# ---- against PyTorch -------------------------------------------------------------------------

@pytest.mark.parametrize("masked", [False, True])
def test_matches_torch_scaled_dot_product_attention(masked):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(12)
    q, k, v = (rng.standard_normal(s) for s in ((2, 3, 5, 4), (2, 3, 7, 4), (2, 3, 7, 6)))
    mask = None
    if masked:
        mask = rng.random((5, 7)) < 0.5
        mask[:, 0] = True                                     # PyTorch gives NaN for empty rows
    upstream = rng.standard_normal((2, 3, 5, 6))

    ours = [Tensor(a, requires_grad=True) for a in (q, k, v)]
    context, _ = dot_product_attention(*ours, mask=mask, scale=True)
    context.backward(upstream)

    theirs = [torch.tensor(a, requires_grad=True) for a in (q, k, v)]
    torch_mask = None if mask is None else torch.tensor(mask)         # True = may attend, as ours
    expected = torch.nn.functional.scaled_dot_product_attention(*theirs, attn_mask=torch_mask)
    expected.backward(torch.tensor(upstream))

    np.testing.assert_allclose(context.data, expected.detach().numpy(), rtol=1e-10, atol=1e-12)
    for mine, torch_tensor in zip(ours, theirs):
        np.testing.assert_allclose(mine.grad, torch_tensor.grad.numpy(), rtol=1e-9, atol=1e-12)
