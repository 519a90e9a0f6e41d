"""EncoderBlock and DecoderBlock: equal to PyTorch's TransformerEncoderLayer and
TransformerDecoderLayer (float64, dropout 0, weights copied by attention.to_torch) in outputs and
every gradient, pre-norm and post-norm, with padding and causal masks; gradchecked on small
blocks; the two norm orders by hand; their scopes; the decoder's causal mask not leaking."""

import numpy as np
import pytest

import minigrad.functional as F
from minigrad import Tensor, gradcheck, manual_seed, topological_order
from minigrad.nn import LayerNorm
from attention.blocks import DecoderBlock, EncoderBlock
from attention.masks import padding_mask
from attention.modules import show_heads
from attention.to_torch import decoder_block_to_torch, encoder_block_to_torch, torch_masks

D, H, FF = 8, 2, 12


def randomised(block, rng, scale=0.4):
    """The block in float64 with every parameter drawn anew (the norms' scales and shifts too,
    which start at ones and zeros), in eval mode (no dropout)."""
    block.double().eval()
    for name, p in block.named_parameters():
        centre = 1.0 if name.startswith("norm") and name.endswith("weight") else 0.0
        p.data = centre + scale * rng.standard_normal(p.shape)
    return block


def make(kind, norm_first, rng, d_model=D, nhead=H, dim_feedforward=FF, activation="relu"):
    manual_seed(0)
    cls = EncoderBlock if kind == "encoder" else DecoderBlock
    return randomised(cls(d_model, nhead, dim_feedforward, dropout=0.0, norm_first=norm_first,
                          activation=activation), rng)


def backward_with(output, upstream):
    (output * Tensor(upstream)).sum().backward()


@pytest.mark.parametrize("norm_first", [True, False], ids=["pre-norm", "post-norm"])
@pytest.mark.parametrize("padded", [False, True], ids=["no padding", "padding"])
def test_encoder_block_matches_torch_outputs_and_every_gradient(norm_first, padded):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(1)
    ours = make("encoder", norm_first, rng)
    theirs = encoder_block_to_torch(ours)
    assert set(ours.state_dict()) == set(theirs.state_dict())
    B, T = 3, 5
    x, upstream = rng.standard_normal((B, T, D)), rng.standard_normal((B, T, D))
    mask = padding_mask([5, 2, 4]) if padded else None

    x_ours = Tensor(x, requires_grad=True)
    output = ours(x_ours, mask=mask)
    backward_with(output, upstream)
    x_theirs = torch.tensor(x, requires_grad=True)
    expected = theirs(x_theirs, **torch_masks(padding=mask))
    (expected * torch.tensor(upstream)).sum().backward()

    compare(output, expected, [(x_ours, x_theirs)], ours, theirs)


@pytest.mark.parametrize("norm_first", [True, False], ids=["pre-norm", "post-norm"])
@pytest.mark.parametrize("padded", [False, True], ids=["no padding", "padding"])
def test_decoder_block_matches_torch_outputs_and_every_gradient(norm_first, padded):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(2)
    ours = make("decoder", norm_first, rng)
    theirs = decoder_block_to_torch(ours)
    assert set(ours.state_dict()) == set(theirs.state_dict())
    B, T, S = 3, 4, 6
    x, memory = rng.standard_normal((B, T, D)), rng.standard_normal((B, S, D))
    upstream = rng.standard_normal((B, T, D))
    mask = padding_mask([4, 2, 3]) if padded else None              # the targets' padding
    memory_mask = padding_mask([6, 3, 1]) if padded else None       # the sources'

    x_ours, memory_ours = Tensor(x, requires_grad=True), Tensor(memory, requires_grad=True)
    output = ours(x_ours, memory_ours, mask=mask, memory_mask=memory_mask)
    backward_with(output, upstream)
    x_theirs = torch.tensor(x, requires_grad=True)
    memory_theirs = torch.tensor(memory, requires_grad=True)
    expected = theirs(x_theirs, memory_theirs,
                      **torch_masks(padding=mask, causal_length=T, memory_padding=memory_mask))
    (expected * torch.tensor(upstream)).sum().backward()

    compare(output, expected, [(x_ours, x_theirs), (memory_ours, memory_theirs)], ours, theirs)


@pytest.mark.parametrize("kind", ["encoder", "decoder"])
def test_gelu_blocks_match_torch(kind):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(12)
    ours = make(kind, True, rng, activation="gelu")
    theirs = (encoder_block_to_torch if kind == "encoder" else decoder_block_to_torch)(ours)
    x, memory = rng.standard_normal((2, 3, D)), rng.standard_normal((2, 4, D))
    upstream = rng.standard_normal((2, 3, D))
    x_ours = Tensor(x, requires_grad=True)
    x_theirs = torch.tensor(x, requires_grad=True)
    if kind == "encoder":
        output, expected = ours(x_ours), theirs(x_theirs)
    else:
        output = ours(x_ours, Tensor(memory))
        expected = theirs(x_theirs, torch.tensor(memory), **torch_masks(causal_length=3))
    backward_with(output, upstream)
    (expected * torch.tensor(upstream)).sum().backward()
    compare(output, expected, [(x_ours, x_theirs)], ours, theirs)
    relu_output = make(kind, True, np.random.default_rng(12))(
        *([Tensor(x)] if kind == "encoder" else [Tensor(x), Tensor(memory)]))
    assert not np.allclose(relu_output.data, output.data)           # GELU is not ReLU


def compare(output, expected, inputs, ours, theirs):
    close = dict(rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(output.data, expected.detach().numpy(), **close)
    for mine, its in inputs:
        np.testing.assert_allclose(mine.grad, its.grad.numpy(), **close)
    own = dict(ours.named_parameters())
    for name, p in theirs.named_parameters():
        assert np.abs(p.grad.numpy()).max() > 0, name               # every weight is used
        np.testing.assert_allclose(own[name].grad, p.grad.numpy(), err_msg=name, **close)


@pytest.mark.parametrize("norm_first", [True, False], ids=["pre-norm", "post-norm"])
def test_gradcheck_small_encoder_block_with_padding(norm_first):
    rng = np.random.default_rng(3)
    block = make("encoder", norm_first, rng, d_model=4, nhead=2, dim_feedforward=6)
    x = Tensor(rng.standard_normal((2, 3, 4)), requires_grad=True)
    mask = padding_mask([3, 2])
    assert gradcheck(lambda x, *params: block(x, mask=mask), x, *block.parameters())


@pytest.mark.parametrize("norm_first", [True, False], ids=["pre-norm", "post-norm"])
def test_gradcheck_small_decoder_block_with_padding(norm_first):
    rng = np.random.default_rng(4)
    block = make("decoder", norm_first, rng, d_model=4, nhead=2, dim_feedforward=6)
    x = Tensor(rng.standard_normal((2, 3, 4)), requires_grad=True)
    memory = Tensor(rng.standard_normal((2, 4, 4)), requires_grad=True)
    memory_mask = padding_mask([4, 2])

    def run(x, memory, *params):
        return block(x, memory, memory_mask=memory_mask)
    assert gradcheck(run, x, memory, *block.parameters())


def layer_norm(x, norm):
    mean = x.mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(x.var(-1, keepdims=True) + norm.eps) * norm.weight.data \
        + norm.bias.data


@pytest.mark.parametrize("norm_first", [True, False], ids=["pre-norm", "post-norm"])
def test_encoder_block_is_the_two_residual_lines_in_its_norm_order(norm_first):
    rng = np.random.default_rng(5)
    block = make("encoder", norm_first, rng)
    x = rng.standard_normal((2, 3, D))

    def attend(x):
        output, _ = block.self_attn(Tensor(x), Tensor(x), Tensor(x))
        return output.data

    def feed_forward(x):
        hidden = np.maximum(x @ block.linear1.weight.data.T + block.linear1.bias.data, 0)
        return hidden @ block.linear2.weight.data.T + block.linear2.bias.data

    if norm_first:                                  # x + f(norm(x))
        h = x + attend(layer_norm(x, block.norm1))
        expected = h + feed_forward(layer_norm(h, block.norm2))
    else:                                           # norm(x + f(x))
        h = layer_norm(x + attend(x), block.norm1)
        expected = layer_norm(h + feed_forward(h), block.norm2)
    np.testing.assert_allclose(block(Tensor(x)).data, expected, rtol=1e-12, atol=1e-12)


def test_blocks_record_each_sublayer_and_head_in_named_scopes():
    rng = np.random.default_rng(6)
    block = show_heads(make("decoder", True, rng))          # each head in a scope of its own
    x = Tensor(rng.standard_normal((1, 3, D)), requires_grad=True)
    output = block(x, Tensor(rng.standard_normal((1, 2, D))))
    scopes = {t.creator.scope for t in topological_order(output) if t.creator is not None}
    for part in ("self-attention", "cross-attention"):
        for inner in ("projections", "head 0", "head 1", "output"):
            assert ("decoder block", part, inner) in scopes
    assert ("decoder block", "feed-forward") in scopes
    assert all(s[0] == "decoder block" for s in scopes)
    block.scope_name = "decoder layer 2"            # how a stack tells its blocks apart
    output = block(x, Tensor(rng.standard_normal((1, 2, D))))
    assert {t.creator.scope[0] for t in topological_order(output) if t.creator} == {
        "decoder layer 2"}


@pytest.mark.parametrize("norm_first", [True, False], ids=["pre-norm", "post-norm"])
def test_decoder_block_does_not_leak_later_targets_exactly(norm_first):
    rng = np.random.default_rng(7)
    block = make("decoder", norm_first, rng)
    T = 5
    x, memory = rng.standard_normal((2, T, D)), Tensor(rng.standard_normal((2, 4, D)))
    full = block(Tensor(x), memory).data
    for t in range(T - 1):
        changed = x.copy()
        changed[:, t + 1:] = rng.standard_normal(changed[:, t + 1:].shape) * 10
        output = block(Tensor(changed), memory).data
        np.testing.assert_array_equal(output[:, :t + 1], full[:, :t + 1])
        assert np.all(output[:, t + 1:] != full[:, t + 1:])


def test_blocks_refuse_bad_settings_naming_them():
    with pytest.raises(ValueError, match="^EncoderBlock: activation must be one of"):
        EncoderBlock(4, 2, 8, activation="swish")
    with pytest.raises(TypeError, match="^DecoderBlock: norm_first must be True"):
        DecoderBlock(4, 2, 8, norm_first="post")
    with pytest.raises(ValueError, match="embed_dim 6 is not divisible by num_heads 4"):
        EncoderBlock(6, 4, 8)


def test_dropout_acts_while_training_and_not_after_eval():
    rng = np.random.default_rng(8)
    manual_seed(9)
    block = EncoderBlock(D, H, FF, dropout=0.5).double()
    x = Tensor(rng.standard_normal((2, 3, D)))
    assert not np.allclose(block(x).data, block(x).data)             # a new mask each call
    block.eval()
    np.testing.assert_array_equal(block(x).data, block(x).data)


def test_a_function_as_activation():
    rng = np.random.default_rng(10)
    block = make("encoder", True, rng)
    tanh_block = make("encoder", True, np.random.default_rng(10))
    tanh_block.activation = F.tanh
    x = Tensor(rng.standard_normal((1, 2, D)))
    assert not np.allclose(block(x).data, tanh_block(x).data)
    with pytest.raises(ValueError, match="only a named activation"):
        encoder_block_to_torch(tanh_block)


def test_a_drawing_folds_a_block_a_sublayer_or_a_head_into_one_box():
    pytest.importorskip("graphviz")
    from minigrad.viz.dot import draw_graph
    rng = np.random.default_rng(11)
    block = show_heads(make("encoder", True, rng, d_model=4, nhead=2, dim_feedforward=6))
    loss = block(Tensor(rng.standard_normal((1, 3, 4)), requires_grad=True)).sum()

    def arrows(collapse):
        return draw_graph(loss, collapse=collapse, show_values=False).source.count("->")
    everything = arrows(None)
    assert arrows(["head 0"]) < everything and arrows(["feed-forward"]) < everything
    assert arrows(["head 0", "head 1"]) < arrows(["head 0"])
    assert arrows(["encoder block"]) < 20 < everything              # the block as one box


@pytest.mark.parametrize("kind", ["encoder", "decoder"])
@pytest.mark.parametrize("norm_first", [True, False], ids=["pre-norm", "post-norm"])
def test_blocks_normalise_with_one_fused_op_each_and_the_numbers_of_the_composed_steps(
        kind, norm_first):
    rng = np.random.default_rng(13)
    block = make(kind, norm_first, rng)
    x, memory = rng.standard_normal((2, 3, D)), Tensor(rng.standard_normal((2, 4, D)))
    upstream = rng.standard_normal((2, 3, D))
    results = []
    for fused in (True, False):                     # as the block is made, then composed
        if not fused:
            for module in block.modules():
                if isinstance(module, LayerNorm):
                    module.fused = False
        block.zero_grad()
        x_in = Tensor(x, requires_grad=True)
        output = block(x_in) if kind == "encoder" else block(x_in, memory)
        ops = [type(t.creator).__name__ for t in topological_order(output) if t.creator]
        norms = 2 if kind == "encoder" else 3
        if fused:
            assert ops.count("FusedLayerNorm") == norms and "Sqrt" not in ops
        else:                                        # the composed steps, to step through
            assert "FusedLayerNorm" not in ops and ops.count("Sqrt") == norms
        backward_with(output, upstream)
        results.append([output.data, x_in.grad, *(p.grad for p in block.parameters())])
    for fused, composed in zip(*results):
        np.testing.assert_allclose(fused, composed, rtol=0, atol=1e-12)
