"""Self-attention with the multi-head module: its arguments checked, one scope per head (so a
drawing folds a head), PyTorch's self-attention with a causal and a padding mask, and decoding
one step at a time with a KeyValueCache equal to the whole prefix with a causal mask."""

import numpy as np
import pytest

from minigrad import Tensor, gradcheck, manual_seed, topological_order
from attention import (
    DecoderBlock,
    MultiHeadAttention,
    causal_mask,
    dot_product_attention,
    padding_mask,
    self_attention,
    show_heads,
)
from attention.cache import KeyValueCache


def test_self_attention_refuses_a_scale_its_module_would_ignore():
    x = Tensor(np.ones((1, 3, 4)))
    with pytest.raises(ValueError, match="^self_attention: scale=True applies to the default "
                                         "dot-product attention; MultiHeadAttention scales"):
        self_attention(x, attention=MultiHeadAttention(4, 2).double(), scale=True)
    with pytest.raises(ValueError, match="dot_product_attention scales its scores itself"):
        self_attention(x, attention=dot_product_attention, scale=2.0)
    with pytest.raises(ValueError, match=r"^self_attention: x must be a sequence \(..., T, d\)"):
        self_attention(Tensor(np.ones(4)))


def test_multihead_records_projections_the_heads_and_the_output_in_scopes_of_their_own():
    rng = np.random.default_rng(0)
    module = MultiHeadAttention(6, 3).double()
    x = Tensor(rng.standard_normal((2, 4, 6)), requires_grad=True)
    output, _ = self_attention(x, attention=module, mask=causal_mask(4))
    scopes = {t.creator.scope for t in topological_order(output) if t.creator is not None}
    assert scopes == {("projections",), ("heads",), ("output",)}          # all heads at once
    module.heads_apart = True
    output, _ = self_attention(x, attention=module, mask=causal_mask(4))
    scopes = {t.creator.scope for t in topological_order(output) if t.creator is not None}
    assert scopes == {("projections",), ("head 0",), ("head 1",), ("head 2",), ("output",)}
    head_1 = [t for t in topological_order(output)
              if t.creator is not None and t.creator.scope == ("head 1",)]
    softmax_weights = [t for t in head_1 if t.shape == (2, 4, 4)]
    np.testing.assert_array_equal(softmax_weights[-1].data, module.head_weights[:, 1])


@pytest.mark.parametrize("masks", ["causal", "causal and padding"])
def test_multihead_self_attention_matches_torch_outputs_and_every_gradient(masks):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(1)
    E, H, B, T = 8, 2, 3, 5
    ours = MultiHeadAttention(E, H).double()
    theirs = torch.nn.MultiheadAttention(E, H, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        for p in theirs.parameters():
            p.copy_(torch.tensor(rng.standard_normal(tuple(p.shape)) * 0.5))
    ours.load_state_dict(theirs.state_dict())
    mask = causal_mask(T)                                                   # (T, T)
    torch_masks = {"attn_mask": torch.tensor(~mask)}                        # True = may NOT
    if masks == "causal and padding":
        lengths = np.array([5, 3, 4])
        mask = mask & padding_mask(lengths)                                 # (B, T, T)
        torch_masks["key_padding_mask"] = torch.tensor(~padding_mask(lengths)[:, 0])
    x, upstream = rng.standard_normal((B, T, E)), rng.standard_normal((B, T, E))

    x_ours = Tensor(x, requires_grad=True)
    output, _ = self_attention(x_ours, attention=ours, mask=mask)
    (output * Tensor(upstream)).sum().backward()
    x_theirs = torch.tensor(x, requires_grad=True)
    expected, _ = theirs(x_theirs, x_theirs, x_theirs, **torch_masks)
    (expected * torch.tensor(upstream)).sum().backward()

    np.testing.assert_allclose(output.data, expected.detach().numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(x_ours.grad, x_theirs.grad.numpy(), rtol=1e-10, atol=1e-12)
    for name, p in theirs.named_parameters():
        ours_p = dict(ours.named_parameters())[name]
        np.testing.assert_allclose(ours_p.grad, p.grad.numpy(), rtol=1e-10, atol=1e-12)


def test_one_step_at_a_time_with_a_cache_equals_the_whole_prefix_with_a_causal_mask():
    rng = np.random.default_rng(2)
    manual_seed(3)
    module = MultiHeadAttention(6, 2).double()
    B, T = 2, 5
    x = rng.standard_normal((B, T, 6))
    whole, whole_weights = self_attention(Tensor(x), attention=module, mask=causal_mask(T))
    cache = KeyValueCache()
    for t in range(T):
        step = Tensor(x[:, t:t + 1])                                        # (B, 1, E)
        output, weights = module(step, step, step, cache=cache)             # (B, 1, E)
        assert len(cache) == t + 1 and cache.keys.shape == (B, 2, t + 1, 3)
        np.testing.assert_allclose(output.data[:, 0], whole.data[:, t], rtol=0, atol=1e-12)
        np.testing.assert_allclose(weights.data[:, 0], whole_weights.data[:, t, :t + 1],
                                   rtol=0, atol=1e-12)
    # two steps at once after three kept: a causal mask lined up with the kept steps
    cache = KeyValueCache()
    module(Tensor(x[:, :3]), Tensor(x[:, :3]), Tensor(x[:, :3]), mask=causal_mask(3),
           cache=cache)
    rest = Tensor(x[:, 3:])
    output, _ = module(rest, rest, rest, mask=causal_mask(2, 5), cache=cache)
    np.testing.assert_allclose(output.data, whole.data[:, 3:], rtol=0, atol=1e-12)


def test_gradients_reach_the_kept_steps_through_the_cache():
    rng = np.random.default_rng(4)
    manual_seed(5)
    module = MultiHeadAttention(4, 2).double()
    first, second = (Tensor(rng.standard_normal((1, 1, 4)), requires_grad=True) for _ in "ab")

    def two_steps(first, second, *params):
        cache = KeyValueCache()
        module(first, first, first, cache=cache)
        output, _ = module(second, second, second, cache=cache)
        return output
    assert gradcheck(two_steps, first, second, *module.parameters())
    two_steps(first, second).sum().backward()
    assert np.abs(first.grad).max() > 1e-3              # the second step attended the first


def test_a_cache_refuses_steps_of_another_batch():
    module = MultiHeadAttention(4, 2).double()
    cache = KeyValueCache()
    module(Tensor(np.ones((2, 1, 4))), Tensor(np.ones((2, 1, 4))), Tensor(np.ones((2, 1, 4))),
           cache=cache)
    other = Tensor(np.ones((3, 1, 4)))
    with pytest.raises(ValueError, match=r"^KeyValueCache: new keys \(3, 2, 1, 2\) do not "
                                         r"continue the kept ones \(2, 2, 1, 2\)"):
        module(other, other, other, cache=cache)


@pytest.mark.parametrize("mask", ["none", "causal", "padding"])
def test_heads_apart_gives_the_same_numbers_as_all_heads_at_once(mask):
    rng = np.random.default_rng(3)
    module = MultiHeadAttention(8, 4).double()
    x_data = rng.standard_normal((2, 5, 8))
    masks = {"none": None, "causal": causal_mask(5),
             "padding": np.array([[True] * 5, [False, False, True, True, True]])[:, None, :]}
    upstream = rng.standard_normal((2, 5, 8))
    results = []
    for apart in (False, True):
        module.heads_apart = apart
        module.zero_grad()
        x = Tensor(x_data, requires_grad=True)
        output, _ = self_attention(x, attention=module, mask=masks[mask])
        output.backward(upstream)
        results.append([output.data, x.grad, module.head_weights,
                        *[p.grad for p in module.parameters()]])
    for together, apart in zip(*results):
        np.testing.assert_allclose(apart, together, rtol=0, atol=1e-13)


def test_show_heads_sets_every_multihead_module_of_a_model():
    block = DecoderBlock(8, 2, 16, dropout=0.0)
    assert not block.self_attn.heads_apart and "heads_apart" not in repr(block)
    assert show_heads(block) is block
    assert block.self_attn.heads_apart and block.multihead_attn.heads_apart
    assert "heads_apart=True" in repr(block.self_attn)


@pytest.mark.parametrize("inputs, products", [("x, x, x", 1), ("x, m, m", 2), ("x, k, v", 3)])
def test_each_distinct_input_is_projected_once_with_the_numbers_of_one_head_at_a_time(
        inputs, products):
    """Self-attention multiplies x by all of in_proj_weight at once, cross-attention the memory
    by [W_k; W_v] at once (as PyTorch does); the reference projects each head apart."""
    from tests.reference.attention_reference import multi_head_attention
    rng = np.random.default_rng(6)
    module = MultiHeadAttention(8, 2).double()
    module.in_proj_bias.data = rng.standard_normal(24)
    data = {name: rng.standard_normal((2, 3 if name == "x" else 4, 8)) for name in "xmkv"}
    upstream = rng.standard_normal((2, 3, 8))
    results = []
    for run in ("ours", "reference"):
        module.zero_grad()
        leaves = {name: Tensor(array, requires_grad=True) for name, array in data.items()}
        query, key, value = (leaves[name] for name in inputs.split(", "))
        if run == "ours":
            output, weights = module(query, key, value)
            products_made = [t.creator for t in topological_order(output)
                             if type(t.creator).__name__ == "MatMul"
                             and t.creator.scope == ("projections",)]
            assert len(products_made) == products
        else:
            output, weights = multi_head_attention(
                query, key, value, module.in_proj_weight, module.in_proj_bias,
                module.out_proj.weight, module.out_proj.bias, num_heads=2)
        output.backward(upstream)
        names = sorted(set(inputs.split(", ")))                     # the inputs given
        results.append([output.data, weights.data, *(leaves[name].grad for name in names),
                        *(p.grad for p in module.parameters())])
    for ours, reference in zip(*results):
        np.testing.assert_allclose(ours, reference, rtol=0, atol=1e-12)


def test_all_heads_at_once_take_the_softmax_as_one_op_and_apart_show_its_steps():
    rng = np.random.default_rng(7)
    module = MultiHeadAttention(8, 2).double()
    x = Tensor(rng.standard_normal((2, 4, 8)), requires_grad=True)
    ops = {}
    for apart in (False, True):
        module.heads_apart = apart
        output, _ = self_attention(x, attention=module, mask=causal_mask(4))
        ops[apart] = [type(t.creator).__name__ for t in topological_order(output)
                      if t.creator is not None and t.creator.scope[0].startswith("head")]
    assert ops[False] == ["Transpose", "MatMul", "Div", "Where", "Softmax", "MatMul"]
    assert "Softmax" not in ops[True] and ops[True].count("Exp") == 2      # one per head
