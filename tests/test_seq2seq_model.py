"""The encoder-decoder: shapes, masks, teacher forcing, gradients, decoding, learning."""

import numpy as np
import pytest

import minigrad
from minigrad import gradcheck
from seq2seq import Seq2Seq
from seq2seq.data.batching import pad_sources, pad_targets
from seq2seq.models.decoding import beam_search, greedy
from seq2seq.models.rnn import run_steps

PAD, BOS, EOS = 0, 1, 2


def make_batch(rng, batch=3, vocab=9, src_lens=(5, 3, 4), tgt_lens=(4, 2, 3)):
    src = pad_sources([list(rng.integers(4, vocab, n)) for n in src_lens[:batch]], PAD)
    tgt = pad_targets([[BOS] + list(rng.integers(4, vocab, n)) + [EOS]
                       for n in tgt_lens[:batch]], PAD)
    return src, tgt


@pytest.mark.parametrize("attention", [None, "dot", "general", "additive", "uniform"])
@pytest.mark.parametrize("wiring", ["luong", "bahdanau"])
def test_shapes_and_attention_weights(attention, wiring):
    minigrad.manual_seed(0)
    model = Seq2Seq(9, 11, embed_size=4, hidden_size=6, attention=attention, wiring=wiring)
    src, tgt = make_batch(np.random.default_rng(0))
    logits, weights = model(src, tgt[:, :-1])
    assert logits.shape == (3, tgt.shape[1] - 1, 11)
    if attention is None:
        assert weights is None
        return
    assert weights.shape == (3, tgt.shape[1] - 1, src.shape[1])
    np.testing.assert_allclose(weights.data.sum(-1), 1, rtol=1e-5)
    assert np.all(weights.data[src[:, None, :].repeat(weights.shape[1], 1) == PAD] == 0)


@pytest.mark.parametrize("attention,wiring", [(None, "luong"), ("dot", "luong"),
                                              ("general", "luong"), ("additive", "bahdanau")])
def test_gradcheck_whole_model(attention, wiring):
    minigrad.manual_seed(1)
    model = Seq2Seq(7, 8, embed_size=3, hidden_size=4, attention=attention, wiring=wiring,
                    fused=False).double()
    # Sources of one length: the encoder reads left padding, and the padding row of the
    # embedding is held at zero (no gradient) by design, so finite differences would see it.
    src, tgt = make_batch(np.random.default_rng(1), vocab=7, src_lens=(3, 3), tgt_lens=(2, 1),
                          batch=2)
    params = list(model.parameters())
    assert gradcheck(lambda *ps: model.loss(src, tgt), *params, atol=1e-6, rtol=1e-4)


def test_teacher_forcing_all_at_once_equals_step_by_step():
    minigrad.manual_seed(2)
    model = Seq2Seq(9, 11, embed_size=4, hidden_size=6, attention="dot").double()
    src, tgt = make_batch(np.random.default_rng(2))
    fast, w_fast = model(src, tgt[:, :-1], teacher_forcing_ratio=1.0)
    enc, state, mask = model.encode(src)
    slow, w_slow = run_steps(model.decoder, tgt[:, :-1], state, enc, mask, 1.0)
    np.testing.assert_allclose(fast.data, slow.data, atol=1e-12)
    np.testing.assert_allclose(w_fast.data, w_slow.data, atol=1e-12)


def test_free_running_feeds_back_its_own_guesses():
    """With teacher_forcing_ratio 0 the decoder never sees the target after <bos>: its logits
    are those of greedy decoding, whatever the target says."""
    minigrad.manual_seed(3)
    model = Seq2Seq(9, 11, embed_size=4, hidden_size=6, attention="dot").double()
    src, tgt = make_batch(np.random.default_rng(3))
    other = tgt.copy()
    other[:, 1:] = 5                                   # a different target, same <bos>
    a, _ = model(src, tgt[:, :-1], teacher_forcing_ratio=0.0)
    b, _ = model(src, other[:, :-1], teacher_forcing_ratio=0.0)
    np.testing.assert_array_equal(a.data, b.data)
    forced, _ = model(src, tgt[:, :-1], teacher_forcing_ratio=1.0)
    assert not np.allclose(forced.data[:, 1:], a.data[:, 1:])    # teacher forcing differs


def test_padded_target_positions_add_no_loss():
    minigrad.manual_seed(4)
    model = Seq2Seq(9, 11, embed_size=4, hidden_size=6, attention="dot").double()
    src, tgt = make_batch(np.random.default_rng(4))
    wider = np.concatenate([tgt, np.full((3, 3), PAD)], axis=1)
    np.testing.assert_allclose(model.loss(src, tgt).item(), model.loss(src, wider).item(),
                               rtol=1e-12)


def test_beam_of_one_equals_greedy():
    minigrad.manual_seed(5)
    model = Seq2Seq(9, 11, embed_size=4, hidden_size=8, attention="additive")
    src, _ = make_batch(np.random.default_rng(5))
    ids, weights = greedy(model, src, BOS, EOS, max_len=7)
    for row in range(len(src)):
        beam_ids, beam_weights = beam_search(model, src[row:row + 1], BOS, EOS, 1, max_len=7)
        assert beam_ids == ids[row]
        np.testing.assert_allclose(beam_weights, weights[row], atol=1e-6)


def test_wider_beam_scores_at_least_as_well():
    import minigrad.functional as F
    minigrad.manual_seed(6)
    model = Seq2Seq(9, 6, embed_size=4, hidden_size=8, attention="dot")
    src, _ = make_batch(np.random.default_rng(6), batch=1)

    def log_prob(ids):
        tgt = np.array([[BOS] + ids + [EOS]])
        with minigrad.no_grad():
            logits, _ = model(src, tgt[:, :-1])
        return F.log_softmax(logits).data[0, np.arange(len(ids) + 1), tgt[0, 1:]].sum()

    greedy_ids, _ = beam_search(model, src, BOS, EOS, 1, max_len=6)
    beam_ids, _ = beam_search(model, src, BOS, EOS, 5, max_len=6)
    assert log_prob(beam_ids) >= log_prob(greedy_ids) - 1e-6


def test_overfits_sixteen_pairs():
    from minigrad.optim import Adam
    rng = np.random.default_rng(7)
    sources = [list(rng.integers(4, 12, rng.integers(3, 7))) for _ in range(16)]
    targets = [[BOS] + s[::-1] + [EOS] for s in sources]
    src, tgt = pad_sources(sources, PAD), pad_targets(targets, PAD)
    minigrad.manual_seed(7)
    model = Seq2Seq(12, 12, embed_size=16, hidden_size=32, attention="dot")
    optimizer = Adam(model.parameters(), lr=0.02)
    for _ in range(150):
        loss = model.loss(src, tgt)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    ids, _ = greedy(model, src, BOS, EOS, max_len=10)
    assert ids == [t[1:-1] for t in targets]


def test_bidirectional_encoder_gradients_and_context_from_both_sides():
    minigrad.manual_seed(8)
    model = Seq2Seq(7, 8, embed_size=3, hidden_size=4, attention="dot", fused=False,
                    bidirectional=True).double()
    src, tgt = make_batch(np.random.default_rng(8), vocab=7, src_lens=(3, 3), tgt_lens=(2, 1),
                          batch=2)
    assert gradcheck(lambda *ps: model.loss(src, tgt), *model.parameters(), atol=1e-6, rtol=1e-4)
    # The output at the first word changes when only the last word changes: it has read it.
    first, _, _ = model.encode(src)
    changed = src.copy()
    changed[:, -1] = 4 + (changed[:, -1] - 3) % 3
    second, _, _ = model.encode(changed)
    assert not np.allclose(first.data[:, 0], second.data[:, 0])


def scopes_of_ops(root):
    """The scope of every op in the graph of `root`, first op first."""
    return [t.creator.scope for t in minigrad.autograd.topological_order(root)
            if t.creator is not None]


@pytest.mark.parametrize("attention, wiring", [(None, "luong"), ("general", "luong"),
                                               ("additive", "bahdanau")])
def test_a_decoder_step_records_each_part_in_its_own_scope(attention, wiring):
    model = Seq2Seq(9, 8, embed_size=4, hidden_size=5, attention=attention, wiring=wiring)
    src, _ = make_batch(np.random.default_rng(0))
    enc_outputs, state, mask = model.encode(src)
    named = {}
    logits, _, _ = model.decoder.step(np.array([BOS] * 3), state, enc_outputs, mask, named=named)
    found = set(scopes_of_ops(logits))
    expected = {("encoder",), ("embedding",), ("decoder lstm",), ("output",)}
    assert found == (expected if attention is None else expected | {("attention",)})
    assert set(scopes_of_ops(named["embedding"])) == {("embedding",)}
    assert logits is named["logits"] and named["h"].shape == named["c"].shape == (3, 5)


@pytest.mark.parametrize("wiring", ["luong", "bahdanau"])
def test_a_decoder_step_names_the_attention_weights_the_context_is_mixed_from(wiring):
    model = Seq2Seq(9, 8, embed_size=4, hidden_size=5, attention="dot", wiring=wiring).double()
    src, _ = make_batch(np.random.default_rng(1))
    enc_outputs, state, mask = model.encode(src)
    named = {}
    _, _, weights = model.decoder.step(np.array([BOS] * 3), state, enc_outputs, mask, named=named)
    mixed = named["attention weights"]                                  # (B, 1, S)
    assert mixed.shape == (3, 1, src.shape[1]) and weights.shape == (3, src.shape[1])
    np.testing.assert_array_equal(weights.data, mixed.data[:, 0])
    assert any(t is mixed for t in minigrad.autograd.topological_order(named["context"]))
    expected = np.einsum("bs,bsh->bh", weights.data, enc_outputs.data)     # sum_s a_s h_s
    np.testing.assert_allclose(named["context"].data, expected, rtol=1e-12)
    assert np.all(weights.data[~mask] == 0)                             # no weight on padding
