"""A recurrent layer's cell that goes wrong after its contract check (at time step 3, or late in
training) is named at that step: nn.Recurrent and the seq2seq decoders check every step's state
against the state the cell was given (its parts, shapes and dtype), so the error names the
layer's class, the step and the shapes, not a later op (stack, where, attention)."""

import numpy as np
import pytest

from minigrad import Tensor, nn
from minigrad.nn.lstm import lstm_cell
from minigrad.nn.recurrent import RecurrentLayerError, check_recurrent
from seq2seq.models.decoders import AttentionDecoder, Decoder
from tests.reference.minigrad_reference import GRU


class BreaksAtStep(GRU):
    """A GRU whose cell, from time step `broken_at` of each sequence on, does `self.wrong(h)`."""

    broken_at = None

    def forward(self, x, state=None, mask=None):
        self.step = 0
        return super().forward(x, state, mask)

    def cell(self, x, h):
        h = super().cell(x, h)
        self.step = getattr(self, "step", 0) + 1
        return h if self.broken_at is None or self.step <= self.broken_at else self.wrong(h)


class Shrinks(BreaksAtStep):
    def wrong(self, h):
        return h[:, :-1]


class TurnsFloat64(BreaksAtStep):
    def wrong(self, h):
        return Tensor(h.data.astype(np.float64))


class RecurrentLSTM(nn.Recurrent):
    """An LSTM on nn.Recurrent: a state of two parts, h and c, through the same forward."""

    state_parts = ("h", "c")
    broken = None                           # None, or a function of (h, c) -> a wrong state

    def __init__(self, input_size, hidden_size):
        self.input_size, self.hidden_size = input_size, hidden_size
        self.lstm = nn.LSTM(input_size, hidden_size)

    def cell(self, x, state):
        h, c = lstm_cell(x, state, *self.lstm.cell_parameters())
        return (h, c) if self.broken is None else self.broken(h, c)


def sequence(steps=6, batch=2, size=3):
    return Tensor(np.random.default_rng(0).standard_normal((batch, steps, size)),
                  dtype=np.float32)


def test_a_layer_that_passed_its_check_is_named_when_its_state_shrinks_at_step_3():
    layer = Shrinks(3, 4)
    check_recurrent(layer, 3, 4)                                    # fine at first
    layer.broken_at = 3
    with pytest.raises(RecurrentLayerError) as raised:
        layer(sequence())
    assert str(raised.value) == (
        "Shrinks: at time step 3, cell(x, state) returned h (2, 3) float32, but the state it was "
        "given has h (2, 4) float32: a step keeps the state's shape (batch, hidden_size) and "
        "dtype")


def test_with_a_mask_the_step_is_named_too_not_where_broadcasting():
    layer = Shrinks(3, 4)
    layer.broken_at = 2
    mask = np.array([[False, True, True, True], [True] * 4])
    with pytest.raises(RecurrentLayerError, match=r"^Shrinks: at time step 2, .* h \(2, 3\)"):
        layer(sequence(4), mask=mask)


def test_a_state_that_changes_dtype_after_the_first_step_is_named():
    layer = TurnsFloat64(3, 4)
    layer.broken_at = 2
    with pytest.raises(RecurrentLayerError, match=r"^TurnsFloat64: at time step 2, cell\(x, "
                       r"state\) returned h \(2, 4\) float64, but the state it was given has h "
                       r"\(2, 4\) float32"):
        layer(sequence())


@pytest.mark.parametrize("broken, said", [
    (lambda h, c: (h, c[:, :2]), "returned c (2, 2) float32, but the state it was given has c "
                                 "(2, 4) float32"),
    (lambda h, c: (h, c, c), "returned a tuple of 3, but state_parts ('h', 'c') make the state "
                             "2 tensor(s), as the state it was given"),
    (lambda h, c: h, "returned a Tensor, but state_parts ('h', 'c') make the state 2 tensor(s)"),
], ids=["c-shape", "three-parts", "one-tensor"])
def test_a_two_part_state_names_the_part_that_went_wrong(broken, said):
    layer = RecurrentLSTM(3, 4)
    outputs, (h, c) = layer(sequence())                             # fine as it is
    assert outputs.shape == (2, 6, 4) and c.shape == (2, 4)
    layer.broken = broken
    with pytest.raises(RecurrentLayerError) as raised:
        layer(sequence())
    assert str(raised.value).startswith(f"RecurrentLSTM: at time step 0, cell(x, state) {said}")


@pytest.mark.parametrize("make", [
    lambda rnn: Decoder(7, 3, 4, rnn=rnn),
    lambda rnn: AttentionDecoder(7, 3, 4, wiring="luong", rnn=rnn),
    lambda rnn: AttentionDecoder(7, 3, 4, wiring="bahdanau", rnn=rnn),
], ids=["plain", "luong", "bahdanau"])
def test_a_decoder_step_names_a_cell_that_goes_wrong_late(make):
    decoder = make(Shrinks)
    state = Tensor(np.zeros((2, 4), dtype=np.float32))
    enc_outputs = Tensor(np.ones((2, 5, 4), dtype=np.float32))
    logits, state, _ = decoder.step(np.array([1, 2]), state, enc_outputs)  # fine at first
    decoder.rnn.broken_at = 0
    with pytest.raises(RecurrentLayerError, match=r"^Shrinks: at a decoder step, cell\(x, "
                       r"state\) returned h \(2, 3\) float32, but the state it was given has h "
                       r"\(2, 4\) float32"):
        decoder.step(np.array([1, 2]), state, enc_outputs)
