"""The Transformer translator (seq2seq/models/transformer.py): cached decoding equals re-running
the prefix, a sentence translates the same alone and in a left-padded batch, greedy and beam
search run it unchanged, gradients agree with finite differences, outputs with PyTorch's layers,
and its scopes and kept weights are where the docstring says."""

import numpy as np
import pytest

import minigrad
from minigrad import gradcheck, no_grad, topological_order
from seq2seq.models.decoding import beam_search, greedy
from seq2seq.models.transformer import Transformer

BOS, EOS, PAD = 1, 2, 0
SETTINGS = [dict(norm="pre", positions="sinusoidal"), dict(norm="post", positions="learned")]
IDS = ["pre-sinusoidal", "post-learned"]


def small(dtype=np.float64, seed=0, **settings):
    minigrad.manual_seed(seed)
    model = Transformer(12, 13, d_model=8, heads=2, layers=2, d_ff=16, max_len=40, **settings)
    return model.to(dtype).eval()


def sources(rng, batch=4, length=6):
    """Random sources, padded on the left: row r by min(r, length - 2) (row 0 is full)."""
    src = rng.integers(3, 12, size=(batch, length))
    for row in range(batch):
        src[row, :min(row, length - 2)] = PAD
    return src


def uncached_greedy(model, src, steps):
    """Greedy decoding the slow way: the whole prefix through forward at every step."""
    tokens = np.full((len(src), 1), BOS)
    logits_steps = []
    with no_grad():
        for _ in range(steps):
            logits, _ = model(src, tokens)                              # (B, t, V)
            logits_steps.append(logits.data[:, -1])
            tokens = np.concatenate([tokens, logits.data[:, -1].argmax(-1)[:, None]], axis=1)
    return tokens[:, 1:], np.stack(logits_steps, axis=1)


@pytest.mark.parametrize("dtype,tolerance", [(np.float64, 1e-12), (np.float32, 1e-6)])
@pytest.mark.parametrize("settings", SETTINGS, ids=IDS)
def test_cached_steps_give_the_same_tokens_and_logits_as_rerunning_the_prefix(settings, dtype,
                                                                              tolerance):
    rng = np.random.default_rng(1)
    model = small(dtype, **settings)
    src = sources(rng)
    expected_tokens, expected_logits = uncached_greedy(model, src, 9)
    with no_grad():
        memory, state, mask = model.encode(src)
        token, logits_steps, tokens = np.full(len(src), BOS), [], []
        for _ in range(9):
            logits, state, _ = model.decoder.step(token, state, memory, mask)
            token = logits.data.argmax(-1)
            logits_steps.append(logits.data)
            tokens.append(token)
    assert state[0].shape == (4, 2, 9, 4)              # one key per step kept, (B, H, t, d / H)
    np.testing.assert_array_equal(np.stack(tokens, axis=1), expected_tokens)
    scale = np.abs(expected_logits).max()
    assert np.abs(np.stack(logits_steps, axis=1) - expected_logits).max() <= tolerance * scale


@pytest.mark.parametrize("settings", SETTINGS, ids=IDS)
def test_a_translation_is_the_same_alone_and_in_a_left_padded_batch(settings):
    rng = np.random.default_rng(2)
    model = small(**settings)
    src = sources(rng, batch=5)
    batched, batched_weights = greedy(model, src, BOS, EOS, max_len=7)
    for row in range(len(src)):
        alone_src = src[row:row + 1, np.argmax(src[row] != PAD):]      # the padding dropped
        [alone], [weights] = greedy(model, alone_src, BOS, EOS, max_len=7)
        assert alone == batched[row]
        n = alone_src.shape[1]
        np.testing.assert_allclose(batched_weights[row][:, -n:], weights, atol=1e-12)
        assert np.all(batched_weights[row][:, :-n] == 0)             # no weight on padding


def test_beam_search_of_width_one_is_greedy_and_wider_beams_run_on_the_kept_rows():
    rng = np.random.default_rng(3)
    model = small()
    src = sources(rng, batch=3)
    ids, _ = greedy(model, src, BOS, EOS, max_len=8)
    for row in range(3):
        one = src[row:row + 1, np.argmax(src[row] != PAD):]
        assert beam_search(model, one, BOS, EOS, beam_size=1, max_len=8)[0] == ids[row]
        best, weights = beam_search(model, one, BOS, EOS, beam_size=4, max_len=8)
        assert weights.shape == (len(best) + (len(best) < 8), one.shape[1])


def test_the_model_gradients_agree_with_finite_differences():
    rng = np.random.default_rng(4)
    model = small(norm="post", positions="learned")
    src, tgt = sources(rng, batch=2, length=4), rng.integers(1, 13, size=(2, 4))
    tgt[0, -1] = PAD
    checked = [model.encoder.embedding.tokens.weight, model.encoder.layers[0].linear1.weight,
               model.decoder.embedding.positions.embedding.weight,
               model.decoder.layers[1].multihead_attn.in_proj_weight, model.decoder.out.bias]
    assert gradcheck(lambda *_: model(src, tgt)[0], *checked)
    model = small(norm="pre")
    checked = [model.encoder.norm.weight, model.decoder.layers[0].self_attn.in_proj_weight]
    assert gradcheck(lambda *_: model.loss(src, np.c_[tgt, tgt[:, :1]], label_smoothing=0.1),
                     *checked)


@pytest.mark.parametrize("settings", SETTINGS, ids=IDS)
def test_the_logits_and_every_gradient_agree_with_pytorch_layers(settings):
    torch = pytest.importorskip("torch")
    from attention.to_torch import decoder_block_to_torch, encoder_block_to_torch, torch_masks
    rng = np.random.default_rng(5)
    model = small(**settings)
    src, tgt = sources(rng, batch=3, length=5), rng.integers(1, 13, size=(3, 4))
    logits, _ = model(src, tgt)
    upstream = rng.standard_normal(logits.shape)
    model.zero_grad()
    logits.backward(upstream)

    def embed(part, ids):
        weight = torch.tensor(part.tokens.weight.data, requires_grad=True)
        x = weight[torch.tensor(ids)] * np.sqrt(8)
        table = (part.positions.pe if settings["positions"] == "sinusoidal"
                 else part.positions.embedding.weight.data)
        padding = (ids == PAD).cumprod(axis=1).sum(axis=1, keepdims=True)      # (B, 1)
        where = np.maximum(np.arange(ids.shape[1]) - padding, 0)    # 0 at the first real token
        return weight, x + torch.tensor(table[where])

    def norm(layer, x):
        return x if layer is None else torch.nn.functional.layer_norm(
            x, (8,), torch.tensor(layer.weight.data), torch.tensor(layer.bias.data))

    src_weight, x = embed(model.encoder.embedding, src)
    masks = torch_masks(padding=(src != PAD)[:, None, :])
    encoders = [encoder_block_to_torch(b) for b in model.encoder.layers]
    for block in encoders:
        x = block(x, src_key_padding_mask=masks["src_key_padding_mask"])
    memory = norm(model.encoder.norm, x)
    tgt_weight, y = embed(model.decoder.embedding, tgt)
    decoders = [decoder_block_to_torch(b) for b in model.decoder.layers]
    causal = torch_masks(causal_length=4)
    for block in decoders:
        y = block(y, memory, tgt_mask=causal["tgt_mask"],
                  memory_key_padding_mask=masks["src_key_padding_mask"])
    out = model.decoder.out
    theirs = norm(model.decoder.norm, y) @ torch.tensor(out.weight.data).T + torch.tensor(
        out.bias.data)
    np.testing.assert_allclose(logits.data, theirs.detach().numpy(), atol=1e-10)
    theirs.backward(torch.tensor(upstream))
    np.testing.assert_allclose(model.encoder.embedding.tokens.weight.grad, src_weight.grad,
                               atol=1e-10)
    np.testing.assert_allclose(model.decoder.embedding.tokens.weight.grad, tgt_weight.grad,
                               atol=1e-10)
    for ours, block in zip([*model.encoder.layers, *model.decoder.layers],
                           [*encoders, *decoders]):
        for name, parameter in block.named_parameters():
            np.testing.assert_allclose(dict(ours.named_parameters())[name].grad,
                                       parameter.grad.numpy(), atol=1e-10, err_msg=name)


def test_config_rebuilds_the_model_and_its_state_dict_loads_into_it():
    rng = np.random.default_rng(6)
    model = small(norm="post", positions="learned")
    copy = Transformer(**model.config).double().eval()
    copy.load_state_dict(model.state_dict())
    src, tgt = sources(rng), rng.integers(1, 13, size=(4, 3))
    np.testing.assert_array_equal(copy(src, tgt)[0].data, model(src, tgt)[0].data)


def test_each_part_runs_in_its_named_scope_and_every_layers_heads_are_kept():
    rng = np.random.default_rng(7)
    model = small()
    logits, weights = model(sources(rng), rng.integers(1, 13, size=(4, 3)))
    scopes = {t.creator.scope[:2] for t in topological_order(logits) if t.creator is not None}
    assert {("encoder", "embedding"), ("encoder", "layer 0"), ("encoder", "layer 1"),
            ("encoder", "final norm"), ("decoder", "layer 1"), ("decoder", "output")} <= scopes
    assert [w.shape for w in model.decoder.cross_weights] == [(4, 2, 3, 6)] * 2
    np.testing.assert_allclose(weights.data, model.decoder.cross_weights[-1].mean(axis=1))
    np.testing.assert_allclose(weights.data.sum(-1), 1)


def test_scaled_embeddings_and_positions_enter_at_the_same_size():
    model = small()
    tokens = model.encoder.embedding.tokens.weight.data[1:] * np.sqrt(8)
    assert 0.6 < tokens.std() < 1.5                                    # the sines: std ~ 0.7
    assert np.all(model.encoder.embedding.tokens.weight.data[PAD] == 0)


@pytest.mark.parametrize("settings,message", [
    (dict(d_model=10, heads=4), "heads 4 does not divide d_model 10"),
    (dict(norm="middle"), "norm must be one of"),
    (dict(positions="rotary"), "positions must be one of"),
    (dict(layers=0), "layers"),
])
def test_bad_settings_are_refused_in_one_line(settings, message):
    with pytest.raises(ValueError, match=message):
        Transformer(5, 5, **settings)


def test_a_source_longer_than_max_len_is_refused_naming_max_len():
    model = small()
    with pytest.raises(ValueError, match="max_len 40"):
        model.encode(np.ones((1, 41), dtype=np.int64))
