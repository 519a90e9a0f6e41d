"""seq2seq.to_torch: a trained model copied into torch.nn modules computes the same logits,
attention weights and parameter gradients as ours, in float64, on a batch with padding (the
mask converted, the padding packed away); attention.MultiHeadAttention likewise, with its masks
converted. Skipped where PyTorch is not installed; importing seq2seq.to_torch never needs it."""

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from minigrad import Tensor, optim
from attention import MultiHeadAttention
from seq2seq.data.batching import pad_sources, pad_targets
from seq2seq.models.rnn import Seq2Seq
from seq2seq.to_torch import (
    multihead_attention_to_torch,
    to_torch,
    torch_attention_masks,
    torch_forward,
)

CONFIGS = [(None, "luong", False), ("dot", "luong", False), ("general", "luong", True),
           ("additive", "luong", False), ("dot", "bahdanau", True),
           ("additive", "bahdanau", False), ("uniform", "luong", False)]


def padded_batch(rng):
    """Sources of 5, 2, 3 and 1 tokens, padded on the left; targets padded on the right."""
    src = pad_sources([list(rng.integers(1, 11, n)) for n in (5, 2, 3, 1)], 0)     # (4, 5)
    tgt = pad_targets([[1] + list(rng.integers(3, 9, n)) + [2] for n in (3, 6, 1, 2)], 0)
    return src, tgt                                                                  # (4, 8)


def trained_model(attention, wiring, bidirectional, src, tgt):
    """A small model in float64, after three Adam steps on the batch (weights not as drawn)."""
    model = Seq2Seq(11, 9, embed_size=5, hidden_size=6, attention=attention, wiring=wiring,
                    bidirectional=bidirectional).double()
    optimizer = optim.Adam(model.parameters(), lr=0.05)
    for _ in range(3):
        optimizer.zero_grad()
        model.loss(src, tgt).backward()
        optimizer.step()
    return model


@pytest.mark.parametrize("attention, wiring, bidirectional", CONFIGS)
def test_exported_model_matches_ours_in_logits_weights_and_gradients_on_a_padded_batch(
        attention, wiring, bidirectional):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(4)
    src, tgt = padded_batch(rng)
    assert (src == 0).sum() == 9                                # padding to convert
    model = trained_model(attention, wiring, bidirectional, src, tgt)
    theirs = to_torch(model)
    tgt_in = tgt[:, :-1]
    upstream = rng.standard_normal((4, 7, 9))

    model.zero_grad()
    logits, weights = model(src, tgt_in)
    (logits * Tensor(upstream)).sum().backward()
    their_logits, their_weights = torch_forward(theirs, src, tgt_in)
    (their_logits * torch.from_numpy(upstream)).sum().backward()

    assert their_logits.dtype == torch.float64
    np.testing.assert_allclose(their_logits.detach().numpy(), logits.data, rtol=0, atol=1e-10)
    if attention is None:
        assert their_weights is None and weights is None
    else:
        np.testing.assert_allclose(their_weights.detach().numpy(), weights.data, rtol=0,
                                   atol=1e-10)
        assert np.all(weights.data[src[:, None, :].repeat(7, 1) == 0] == 0)   # never on padding
    their_parameters = dict(theirs.named_parameters())
    for name, p in model.named_parameters():
        if name.startswith("encoder.rnn_reverse."):
            name = "encoder.rnn." + name.split(".")[-1] + "_reverse"
        np.testing.assert_allclose(their_parameters.pop(name).grad.numpy(), p.grad, rtol=0,
                                   atol=1e-10, err_msg=name)
    assert not their_parameters                                 # every one compared


def test_without_packing_torch_s_lstm_runs_over_the_padding_and_ends_elsewhere():
    """Why `_encode` packs: fed the left-padded source as it is, torch.nn.LSTM runs the cell over
    the padding (a zero vector still moves the state, through the biases)."""
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(4)
    src, tgt = padded_batch(rng)
    model = trained_model("dot", "luong", False, src, tgt)
    theirs = to_torch(model)
    _, (h, _) = model.encoder(src)                              # (B, H)
    with torch.no_grad():
        _, (h_unpacked, _) = theirs.encoder.rnn(theirs.encoder.embedding(torch.from_numpy(src)))
    full = src.min(axis=1) > 0                                  # the one row without padding
    np.testing.assert_allclose(h_unpacked[0].numpy()[full], h.data[full], rtol=0, atol=1e-12)
    assert np.all(np.abs(h_unpacked[0].numpy()[~full] - h.data[~full]).max(axis=1) > 1e-2)


@pytest.mark.parametrize("src, words", [
    ([[5, 6, 0, 0]], "src row 0 has a pad at position 2, after a token: pad sources on the left"),
    ([[0, 5, 0, 6]], "src row 0 has a pad at position 2"),
    ([[5, 6, 7, 8], [0, 0, 0, 0]], "src row 1 is all padding"),
    ([5, 6, 7], "src must be (batch, length) ids, got shape (3,)"),
])
def test_a_source_not_padded_on_the_left_is_refused_not_run_over_the_wrong_positions(src, words):
    pytest.importorskip("torch")
    theirs = to_torch(Seq2Seq(11, 9, embed_size=5, hidden_size=6).double())
    tgt_in = np.array([[1, 3]] * len(src))
    with pytest.raises(ValueError, match="^torch_forward: " + re.escape(words)):
        torch_forward(theirs, np.array(src), tgt_in)


@pytest.mark.parametrize("kind", ["padding", "shared", "per-example"])
def test_multihead_attention_exported_with_its_mask_converted_matches_ours(kind):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(5)
    B, Tq, Tk, E, H = 3, 4, 5, 8, 2
    ours = MultiHeadAttention(E, H).double()
    theirs = multihead_attention_to_torch(ours)
    q, k, v = (rng.standard_normal(shape) for shape in [(B, Tq, E), (B, Tk, E), (B, Tk, E)])
    if kind == "padding":                                       # (B, 1, Tk): keys 0..length-1
        mask = (np.arange(Tk) < np.array([5, 2, 3])[:, None])[:, None, :]
    else:
        mask = rng.random((Tq, Tk) if kind == "shared" else (B, Tq, Tk)) < 0.6
        mask[..., 0] = True                                     # no query with nothing to attend
    output, weights = ours(Tensor(q), Tensor(k), Tensor(v), mask=mask)
    with torch.no_grad():
        their_output, their_weights = theirs(*map(torch.from_numpy, (q, k, v)),
                                             **torch_attention_masks(mask, H))
    assert (kind == "padding") == ("key_padding_mask" in torch_attention_masks(mask, H))
    np.testing.assert_allclose(their_output.numpy(), output.data, rtol=0, atol=1e-10)
    np.testing.assert_allclose(their_weights.numpy(), weights.data, rtol=0, atol=1e-10)
    assert np.all(weights.data[np.broadcast_to(~mask, weights.shape)] == 0)


def test_importing_to_torch_does_not_import_torch():
    code = "import sys, seq2seq.to_torch; print('torch' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=Path(__file__).resolve().parent.parent)
    assert done.stdout.strip() == "False"
