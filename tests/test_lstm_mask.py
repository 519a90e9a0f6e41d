"""The LSTM with a padding mask: a padded step leaves the state unchanged, so a sentence ends in
the same state alone or padded in a batch; gradchecked in float64, fused equal to composed, and
equal to PyTorch's packed sequences."""

import numpy as np
import pytest

import minigrad
from minigrad import Tensor, gradcheck, nn
from minigrad.nn.fused_lstm import FusedLSTM

LENGTHS = (5, 2, 4)                     # three sentences in a batch of width 5


def left_padded(rng, lengths=LENGTHS, width=5, size=3):
    """x (B, width, size) with each row's padding on the left, and its mask."""
    mask = np.array([[t >= width - n for t in range(width)] for n in lengths])     # (B, width)
    x = rng.standard_normal((len(lengths), width, size))
    return np.where(mask[:, :, None], x, 0.0), mask


def test_fused_lstm_with_a_mask_gradchecks_wrt_input_state_and_every_weight(rng):
    x, mask = left_padded(rng)
    mask[0, 2] = False                                   # a hole in the middle passes too
    h, c = (Tensor(rng.standard_normal((3, 4)), requires_grad=True) for _ in range(2))
    weights = [Tensor(rng.standard_normal(s) * 0.5, requires_grad=True)
               for s in ((16, 3), (16, 4), (16,), (16,))]
    x = Tensor(x, requires_grad=True)
    assert gradcheck(lambda *inputs: FusedLSTM(mask)(*inputs), x, h, c, *weights)


@pytest.mark.parametrize("fused", [False, True])
def test_a_padded_sentence_ends_in_the_state_it_reaches_alone(rng, fused):
    lstm = nn.LSTM(3, 4, fused=fused).double()
    x, mask = left_padded(rng)
    outputs, (h, c) = lstm(Tensor(x), mask=mask)
    for row, n in enumerate(LENGTHS):
        alone_outputs, (h1, c1) = lstm(Tensor(x[row:row + 1, 5 - n:]))
        np.testing.assert_allclose(h.data[row], h1.data[0], rtol=0, atol=1e-12)
        np.testing.assert_allclose(c.data[row], c1.data[0], rtol=0, atol=1e-12)
        np.testing.assert_allclose(outputs.data[row, 5 - n:], alone_outputs.data[0], atol=1e-12)
        assert not outputs.data[row, :5 - n].any()      # the state before: zeros, untouched


@pytest.mark.parametrize("batch_first", [True, False])
def test_fused_and_composed_agree_with_a_mask_in_values_and_every_gradient(rng, batch_first):
    x, mask = left_padded(rng)
    mask[1, 4] = False                                   # right padding in one row as well
    up = [rng.standard_normal(s) for s in ((3, 5, 4), (3, 4), (3, 4))]
    results = []
    for fused in (False, True):
        minigrad.manual_seed(0)
        lstm = nn.LSTM(3, 4, batch_first=batch_first, fused=fused).double()
        xt = Tensor(x if batch_first else x.swapaxes(0, 1), requires_grad=True)
        outputs, (h, c) = lstm(xt, mask=mask if batch_first else mask.T)
        outputs = outputs if batch_first else outputs.swapaxes(0, 1)
        loss = (outputs * up[0]).sum() + (h * up[1]).sum() + (c * up[2]).sum()
        loss.backward()
        results.append([outputs.data, h.data, c.data, xt.grad]
                       + [p.grad for p in lstm.parameters()])
    for composed, fused in zip(*results):
        np.testing.assert_allclose(fused, composed, rtol=1e-10, atol=1e-12)


def test_a_padded_step_sends_no_gradient_to_its_input_or_the_weights_through_its_gates(rng):
    lstm = nn.LSTM(3, 4, fused=True).double()
    x, mask = left_padded(rng)
    x = Tensor(x, requires_grad=True)
    outputs, (h, c) = lstm(x, mask=mask)
    (h.sum() + c.sum()).backward()
    assert not x.grad[~mask].any() and x.grad[mask].all()


def test_the_mask_is_checked_and_named():
    lstm = nn.LSTM(3, 4)
    x = Tensor(np.zeros((2, 5, 3), dtype=np.float32))
    with pytest.raises(ValueError, match=r"LSTM: the mask .* \(2, 5\), got int64 \(2, 5\)"):
        lstm(x, mask=np.ones((2, 5), dtype=np.int64))
    with pytest.raises(ValueError, match=r"LSTM: the mask .* got bool \(5, 2\)"):
        lstm(x, mask=np.ones((5, 2), dtype=bool))


@pytest.mark.parametrize("fused", [False, True])
def test_a_right_padded_batch_matches_pytorchs_packed_sequences(rng, fused):
    torch = pytest.importorskip("torch")
    ours = nn.LSTM(3, 4, fused=fused).double()
    theirs = torch.nn.LSTM(3, 4, batch_first=True).double()
    theirs.load_state_dict({k: torch.from_numpy(v) for k, v in ours.state_dict().items()})
    lengths = [5, 2, 4]
    mask = np.array([[t < n for t in range(5)] for n in lengths])
    x = np.where(mask[:, :, None], rng.standard_normal((3, 5, 3)), 0.0)
    up_h, up_c = rng.standard_normal((2, 3, 4))

    xt = Tensor(x, requires_grad=True)
    _, (h, c) = ours(xt, mask=mask)
    ((h * up_h).sum() + (c * up_c).sum()).backward()

    tx = torch.tensor(x, requires_grad=True)
    packed = torch.nn.utils.rnn.pack_padded_sequence(tx, lengths, batch_first=True,
                                                     enforce_sorted=False)
    _, (th, tc) = theirs(packed)
    ((th[0] * torch.from_numpy(up_h)).sum() + (tc[0] * torch.from_numpy(up_c)).sum()).backward()

    np.testing.assert_allclose(h.data, th[0].detach().numpy(), atol=1e-12)
    np.testing.assert_allclose(c.data, tc[0].detach().numpy(), atol=1e-12)
    np.testing.assert_allclose(xt.grad, tx.grad.numpy(), atol=1e-12)
    for (name, p), (_, q) in zip(ours.named_parameters(), theirs.named_parameters()):
        np.testing.assert_allclose(p.grad, q.grad.numpy(), atol=1e-12, err_msg=name)
