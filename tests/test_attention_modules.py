"""The attention modules: their score functions by hand, gradients with respect to inputs and
parameters, one module for any sequence length, the kept weights, and PyTorch's multi-head
attention with copied weights."""

import numpy as np
import pytest

from minigrad import Tensor, gradcheck, manual_seed
from attention import (
    AdditiveAttention,
    DotProductAttention,
    GeneralAttention,
    MultiHeadAttention,
    ScaledDotProductAttention,
    UniformAttention,
    dot_product_attention,
    self_attention,
)


def tensor(rng, *shape, scale=1.0):
    return Tensor(rng.standard_normal(shape) * scale, requires_grad=True)


def make(name, query_size=3, key_size=3):
    """A module in float64 (for finite differences), taking queries of query_size."""
    manual_seed(0)
    if name == "dot":
        return DotProductAttention()
    if name == "scaled":
        return ScaledDotProductAttention()
    if name == "general":
        return GeneralAttention(query_size, key_size).double()
    if name == "additive":
        return AdditiveAttention(query_size, key_size, hidden_size=5).double()
    raise ValueError(name)


MODULES = ["dot", "scaled", "general", "additive"]


# ---- the score functions, by hand ------------------------------------------------------------

def test_general_attention_scores_are_q_W_k():
    rng = np.random.default_rng(0)
    module = make("general", query_size=3, key_size=4)
    q, keys, values = rng.standard_normal(3), rng.standard_normal((6, 4)), rng.standard_normal(6)
    context, weights = module(Tensor(q), Tensor(keys), Tensor(values))
    W = module.W.weight.data                                            # (3, 4)
    scores = np.array([q @ W @ k for k in keys])
    expected = np.exp(scores) / np.exp(scores).sum()
    np.testing.assert_allclose(weights.data, expected, rtol=1e-12)
    assert context.item() == pytest.approx(expected @ values, rel=1e-12)


def test_additive_attention_scores_are_v_tanh_Wq_plus_Uk():
    rng = np.random.default_rng(1)
    module = make("additive", query_size=3, key_size=4)
    Q, keys, values = (rng.standard_normal(s) for s in ((2, 3), (6, 4), (6, 2)))
    context, weights = module(Tensor(Q), Tensor(keys), Tensor(values))
    W, U, v = module.W.weight.data, module.U.weight.data, module.v.weight.data[0]
    for i, q in enumerate(Q):
        scores = np.array([v @ np.tanh(W @ q + U @ k) for k in keys])
        expected = np.exp(scores) / np.exp(scores).sum()
        np.testing.assert_allclose(weights.data[i], expected, rtol=1e-12)
        np.testing.assert_allclose(context.data[i], expected @ values, rtol=1e-12)
    assert [name for name, _ in module.named_parameters()] == ["W.weight", "U.weight", "v.weight"]
    assert module.W.weight.shape == (5, 3) and module.U.weight.shape == (5, 4)


def test_dot_product_modules_are_the_function():
    rng = np.random.default_rng(2)
    Q, K, V = tensor(rng, 2, 4, 3), tensor(rng, 2, 5, 3), tensor(rng, 2, 5, 6)
    for module, scale in ((DotProductAttention(), None), (ScaledDotProductAttention(), True)):
        context, weights = module(Q, K, V)
        expected, expected_weights = dot_product_attention(Q, K, V, scale=scale)
        np.testing.assert_array_equal(context.data, expected.data)
        np.testing.assert_array_equal(module.weights, expected_weights.data)
        assert list(module.parameters()) == []


# ---- the kept weights and shapes -----------------------------------------------------------

@pytest.mark.parametrize("name", MODULES)
@pytest.mark.parametrize("shapes", [((3,), (7, 3), (7,)), ((2, 3), (7, 3), (7, 4)),
                                    ((2, 3), (2, 7, 3), (2, 7, 4)), ((2, 5, 3), (2, 7, 3), (2, 7))])
def test_modules_follow_the_function_shapes_and_keep_their_weights(name, shapes):
    rng = np.random.default_rng(3)
    module = make(name)
    q, keys, values = (tensor(rng, *s) for s in shapes)
    context, weights = module(q, keys, values)
    expected_context, expected_weights = dot_product_attention(q, keys, values)
    assert context.shape == expected_context.shape and weights.shape == expected_weights.shape
    assert isinstance(module.weights, np.ndarray)
    np.testing.assert_array_equal(module.weights, weights.data)
    np.testing.assert_allclose(weights.data.sum(-1), 1)


# ---- gradients ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name", MODULES)
@pytest.mark.parametrize("masked", [False, True])
def test_gradcheck_modules_inputs_and_parameters(name, masked):
    rng = np.random.default_rng(4)
    module = make(name, query_size=3, key_size=2 if name in ("general", "additive") else 3)
    key_size = 2 if name in ("general", "additive") else 3
    q, keys, values = tensor(rng, 2, 4, 3), tensor(rng, 2, 5, key_size), tensor(rng, 2, 5, 2)
    mask = None
    if masked:
        mask = rng.random((2, 4, 5)) < 0.6
        mask[0, 1] = False                                       # one query with nothing to see
    params = list(module.parameters())

    def run(q, keys, values, *params):
        return module(q, keys, values, mask=mask)
    assert gradcheck(run, q, keys, values, *params)


# ---- one module, any length --------------------------------------------------------------------

@pytest.mark.parametrize("name", MODULES + ["multihead"])
def test_one_module_serves_lengths_3_and_300(name):
    rng = np.random.default_rng(5)
    module = MultiHeadAttention(4, 2).double() if name == "multihead" else make(name, 4, 4)
    before = {k: v.copy() for k, v in module.state_dict().items()}
    q = Tensor(rng.standard_normal((2, 4)))
    keys, values = rng.standard_normal((300, 4)), rng.standard_normal((300, 4))
    short, short_weights = module(q, Tensor(keys[:3]), Tensor(values[:3]))
    mask = np.arange(300) < 3                                   # the same 3, in a sequence of 300
    padded, padded_weights = module(q, Tensor(keys), Tensor(values), mask=mask)
    assert short_weights.shape[-1] == 3 and padded_weights.shape[-1] == 300
    np.testing.assert_allclose(padded.data, short.data, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(padded_weights.data[..., :3], short_weights.data, rtol=1e-12)
    # a candidate's weight does not depend on where it stands: shuffle, and the weights follow
    order = rng.permutation(300)
    full, full_weights = module(q, Tensor(keys), Tensor(values))
    shuffled, shuffled_weights = module(q, Tensor(keys[order]), Tensor(values[order]))
    np.testing.assert_allclose(shuffled_weights.data, full_weights.data[..., order], rtol=1e-10)
    np.testing.assert_allclose(shuffled.data, full.data, rtol=1e-10, atol=1e-13)
    for k, v in module.state_dict().items():
        np.testing.assert_array_equal(v, before[k])


# ---- stability ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name", MODULES)
def test_modules_stay_finite_for_huge_inputs_masked_rows_and_length_one(name):
    rng = np.random.default_rng(6)
    module = make(name)
    for n in (1, 4):
        q, keys = tensor(rng, 3, 3, scale=100.0), tensor(rng, n, 3, scale=100.0)
        values = tensor(rng, n, 2)
        mask = np.ones((3, n), dtype=bool)
        mask[1] = False
        context, weights = module(q, keys, values, mask=mask)
        context.backward(rng.standard_normal(context.shape))
        np.testing.assert_array_equal(weights.data[1], 0)
        np.testing.assert_array_equal(context.data[1], 0)
        for t in (context, weights):
            assert np.all(np.isfinite(t.data))
        for t in [q, keys, values] + list(module.parameters()):
            assert t.grad is None or np.all(np.isfinite(t.grad))


def test_multihead_stays_finite_for_huge_inputs_masked_rows_and_length_one():
    rng = np.random.default_rng(10)
    module = MultiHeadAttention(4, 2).double()
    module.out_proj.bias.data = rng.standard_normal(4)
    for Tk in (1, 5):
        query, key = tensor(rng, 2, 3, 4, scale=1e3), tensor(rng, 2, Tk, 4, scale=1e3)
        value = tensor(rng, 2, Tk, 4)
        mask = np.ones((3, Tk), dtype=bool)
        mask[1] = False                                        # query 1 may attend nothing
        output, weights = module(query, key, value, mask=mask)
        assert np.abs(module.head_weights).max() == 1.0        # saturated, still finite
        output.backward(rng.standard_normal(output.shape))
        np.testing.assert_array_equal(weights.data[:, 1], 0)
        np.testing.assert_allclose(output.data[:, 1], [module.out_proj.bias.data] * 2)
        for t in [output, weights]:
            assert np.all(np.isfinite(t.data))
        for t in [query, key, value] + list(module.parameters()):
            assert np.all(np.isfinite(t.grad))
        module.zero_grad()


# ---- multi-head attention ----------------------------------------------------------------------

def test_multihead_parameters_have_pytorch_names_and_shapes():
    manual_seed(0)
    module = MultiHeadAttention(embed_dim=6, num_heads=3)
    shapes = {name: p.shape for name, p in module.named_parameters()}
    assert shapes == {"in_proj_weight": (18, 6), "in_proj_bias": (18,),
                      "out_proj.weight": (6, 6), "out_proj.bias": (6,)}
    np.testing.assert_array_equal(module.in_proj_bias.data, 0)
    bound = np.sqrt(6 / (6 + 18))                                        # Xavier uniform
    assert 0.8 * bound < np.abs(module.in_proj_weight.data).max() <= bound
    with pytest.raises(ValueError, match="divisible"):
        MultiHeadAttention(6, 4)


@pytest.mark.parametrize("masked", [False, True])
def test_gradcheck_multihead(masked):
    rng = np.random.default_rng(7)
    manual_seed(1)
    module = MultiHeadAttention(4, 2).double()
    query, key, value = tensor(rng, 2, 3, 4), tensor(rng, 2, 5, 4), tensor(rng, 2, 5, 4)
    mask = rng.random((3, 5)) < 0.6 if masked else None

    def run(query, key, value, *params):
        return module(query, key, value, mask=mask)
    assert gradcheck(run, query, key, value, *module.parameters())


def test_multihead_weights_average_the_heads_and_self_attention_uses_the_module():
    rng = np.random.default_rng(8)
    module = MultiHeadAttention(6, 3).double()
    x = tensor(rng, 2, 4, 6)
    output, weights = self_attention(x, attention=module)
    assert output.shape == (2, 4, 6) and weights.shape == (2, 4, 4)
    assert module.head_weights.shape == (2, 3, 4, 4)
    np.testing.assert_allclose(module.weights, module.head_weights.mean(axis=1))
    np.testing.assert_allclose(weights.data.sum(-1), 1)


@pytest.mark.parametrize("masked", [None, "shared", "per-example", "padding"])
def test_multihead_matches_torch_outputs_and_every_gradient(masked):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(9)
    E, H, B, Tq, Tk = 8, 2, 3, 4, 6
    ours = MultiHeadAttention(E, H).double()
    theirs = torch.nn.MultiheadAttention(E, H, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        for p in theirs.parameters():
            p.copy_(torch.tensor(rng.standard_normal(tuple(p.shape)) * 0.5))
    ours.load_state_dict(theirs.state_dict())
    assert set(ours.state_dict()) == set(theirs.state_dict())

    arrays = [rng.standard_normal((B, Tq, E)), rng.standard_normal((B, Tk, E)),
              rng.standard_normal((B, Tk, E))]
    mask, torch_masks = None, {}                               # PyTorch: True = may NOT attend
    if masked == "shared":                                     # (Tq, Tk), the same for all
        mask = rng.random((Tq, Tk)) < 0.5
        mask[:, 0] = True                                      # PyTorch gives NaN for empty rows
        torch_masks = {"attn_mask": torch.tensor(~mask)}
    elif masked == "per-example":                              # (B, Tq, Tk); PyTorch: (B*H, Tq, Tk)
        mask = rng.random((B, Tq, Tk)) < 0.5
        mask[..., 0] = True
        torch_masks = {"attn_mask": torch.tensor(np.repeat(~mask, H, axis=0))}
    elif masked == "padding":                                  # (B, 1, Tk); PyTorch: (B, Tk)
        lengths = np.array([Tk, 2, 4])
        mask = (np.arange(Tk) < lengths[:, None])[:, None, :]
        torch_masks = {"key_padding_mask": torch.tensor(~mask[:, 0, :])}
    upstream_out, upstream_w = rng.standard_normal((B, Tq, E)), rng.standard_normal((B, Tq, Tk))

    inputs = [Tensor(a, requires_grad=True) for a in arrays]
    output, weights = ours(*inputs, mask=mask)
    ((output * Tensor(upstream_out)).sum() + (weights * Tensor(upstream_w)).sum()).backward()

    torch_inputs = [torch.tensor(a, requires_grad=True) for a in arrays]
    expected, expected_weights = theirs(*torch_inputs, **torch_masks)
    ((expected * torch.tensor(upstream_out)).sum()
     + (expected_weights * torch.tensor(upstream_w)).sum()).backward()

    np.testing.assert_allclose(output.data, expected.detach().numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(weights.data, expected_weights.detach().numpy(),
                               rtol=1e-10, atol=1e-12)
    for mine, torch_tensor in zip(inputs, torch_inputs):
        np.testing.assert_allclose(mine.grad, torch_tensor.grad.numpy(), rtol=1e-9, atol=1e-12)
    torch_params = dict(theirs.named_parameters())
    for name, p in ours.named_parameters():
        np.testing.assert_allclose(p.grad, torch_params[name].grad.numpy(), rtol=1e-9, atol=1e-12)


def test_modules_refuse_inputs_of_another_dtype():
    module = MultiHeadAttention(4, 2)                                   # float32, as in PyTorch
    x = Tensor(np.ones((1, 2, 4)))                                      # float64
    with pytest.raises(TypeError, match="float64"):
        module(x, x, x)
    x32 = Tensor(x.data, dtype=np.float32)
    output, _ = module(x32, x32, x32)
    assert output.dtype == np.float32


# ---- the uniform baseline --------------------------------------------------------------------

def test_uniform_attention_weighs_every_unmasked_position_alike_and_mixes_their_mean():
    rng = np.random.default_rng(5)
    Q, keys, values = tensor(rng, 2, 3, 4), tensor(rng, 2, 5, 4), tensor(rng, 2, 5, 6)
    mask = np.array([[True] * 5, [False, True, True, False, True]])[:, None, :]   # (2, 1, 5)
    context, weights = UniformAttention()(Q, keys, values, mask)
    expected = np.stack([np.full((3, 5), 1 / 5), np.tile([0, 1 / 3, 1 / 3, 0, 1 / 3], (3, 1))])
    np.testing.assert_allclose(weights.data, expected, rtol=1e-12)
    np.testing.assert_allclose(context.data, expected @ values.data, rtol=1e-12)
    upstream = rng.standard_normal(context.shape)                       # (2, 3, 6)
    (context * Tensor(upstream)).sum().backward()
    assert Q.grad is None and keys.grad is None         # the scores are a constant
    np.testing.assert_allclose(values.grad, np.swapaxes(expected, -1, -2) @ upstream,
                               rtol=1e-12)              # each value, its weight's share
    assert np.all(values.grad[1, [0, 3]] == 0)          # masked positions: nothing flows back
