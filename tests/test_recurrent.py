"""The recurrent-layer contract (minigrad/nn/recurrent.py): nn.LSTM and the reference GRU meet
it; nn.Recurrent honours a padding mask; check_recurrent names what a layer gets wrong."""

import numpy as np
import pytest

import minigrad
from minigrad import Tensor, nn
from minigrad.nn.recurrent import (
    RecurrentLayerError,
    check_recurrent,
    hidden,
    map_state,
    parts,
    zero_state,
)
from tests.reference.minigrad_reference import GRU


@pytest.mark.parametrize("make", [lambda: nn.LSTM(3, 4), lambda: nn.LSTM(3, 4, fused=True),
                                  lambda: GRU(3, 4)], ids=["lstm", "fused-lstm", "gru"])
def test_the_lstm_and_the_reference_gru_meet_the_contract(make):
    check_recurrent(make(), 3, 4)


def test_a_gru_state_is_one_tensor_and_an_lstm_state_a_tuple_hidden_first():
    x = Tensor(np.random.default_rng(0).standard_normal((2, 5, 3)).astype(np.float32))
    outputs, h = GRU(3, 4)(x)
    assert isinstance(h, Tensor) and h.shape == (2, 4) and outputs.shape == (2, 5, 4)
    np.testing.assert_array_equal(hidden(h).data, outputs.data[:, -1])
    outputs, state = nn.LSTM(3, 4)(x)
    assert [p.shape for p in parts(state)] == [(2, 4), (2, 4)]
    np.testing.assert_array_equal(hidden(state).data, outputs.data[:, -1])
    picked = map_state(lambda s: s[1:], state)
    assert isinstance(picked, tuple) and picked[1].shape == (1, 4)


def test_recurrent_keeps_a_padded_rows_state_and_ends_where_the_sequence_ends_alone(rng):
    minigrad.manual_seed(0)
    gru = GRU(3, 4).double()
    x = rng.standard_normal((2, 5, 3))
    mask = np.array([[False, False, True, True, True], [True] * 5])    # row 0: 2 steps padding
    outputs, h = gru(Tensor(x), mask=mask)
    _, alone = gru(Tensor(x[:1, 2:]))
    np.testing.assert_allclose(h.data[0], alone.data[0], rtol=0, atol=1e-12)
    np.testing.assert_array_equal(outputs.data[0, :2], 0)             # still the initial zeros
    _, unmasked = gru(Tensor(x[1:]))
    np.testing.assert_allclose(h.data[1], unmasked.data[0], rtol=0, atol=1e-12)


def test_recurrent_backpropagates_nothing_into_padded_steps(rng):
    gru = GRU(3, 4).double()
    x = Tensor(rng.standard_normal((1, 4, 3)), requires_grad=True)
    _, h = gru(x, mask=np.array([[False, True, True, True]]))
    (h * Tensor(rng.standard_normal((1, 4)))).sum().backward()
    np.testing.assert_array_equal(x.grad[0, 0], 0)                  # the padded step
    assert np.all(x.grad[0, 1:] != 0)


def test_the_reference_gru_layer_matches_torch_gru_outputs_and_every_gradient(rng):
    torch = pytest.importorskip("torch")
    theirs = torch.nn.GRU(3, 4, batch_first=True).double()
    mine = GRU(3, 4).double()
    mine.load_state_dict(theirs.state_dict())
    x = rng.standard_normal((2, 5, 3))
    h0 = rng.standard_normal((2, 4))
    upstream = rng.standard_normal((2, 5, 4))
    tx, th0 = torch.tensor(x, requires_grad=True), torch.tensor(h0, requires_grad=True)
    t_out, t_h = theirs(tx, th0[None])
    (t_out * torch.tensor(upstream)).sum().backward()
    mx, mh0 = Tensor(x, requires_grad=True), Tensor(h0, requires_grad=True)
    m_out, m_h = mine(mx, mh0)
    (m_out * Tensor(upstream)).sum().backward()
    np.testing.assert_allclose(m_out.data, t_out.detach().numpy(), atol=1e-12)
    np.testing.assert_allclose(m_h.data, t_h[0].detach().numpy(), atol=1e-12)
    np.testing.assert_allclose(mx.grad, tx.grad.numpy(), atol=1e-12)
    np.testing.assert_allclose(mh0.grad, th0.grad.numpy(), atol=1e-12)
    for name, parameter in mine.named_parameters():
        np.testing.assert_allclose(parameter.grad, getattr(theirs, name).grad.numpy(),
                                   atol=1e-12, err_msg=name)


# ---- what check_recurrent refuses, and how it says so -------------------------------------------

class NoMask(GRU):
    def forward(self, x, state=None):
        return super().forward(x, state)


class IgnoresMask(GRU):
    def forward(self, x, state=None, mask=None):
        return super().forward(x, state)


class WrongStateShape(GRU):
    def cell(self, x, h):
        return super().cell(x, h)[:, :2]


class TupleWithoutParts(GRU):
    def cell(self, x, state):
        h = super().cell(x, state)
        return h, h


class CellDisagrees(GRU):
    def forward(self, x, state=None, mask=None):
        outputs, h = super().forward(x, state, mask)
        return outputs * 2, h


class Raises(GRU):
    def cell(self, x, h):
        raise KeyError("weight_xx")


@pytest.mark.parametrize("layer, words", [
    (NoMask, ["NoMask: forward takes no mask", "subclass nn.Recurrent"]),
    (IgnoresMask, ["IgnoresMask: forward ignores the mask", "padded on the left"]),
    (WrongStateShape, ["WrongStateShape: cell returned h of shape (2, 2)", "(2, 4)"]),
    (TupleWithoutParts, ["a state that is a tuple of 2", "state_parts ('h',)", "one tensor"]),
    (CellDisagrees, ["CellDisagrees: cell and forward disagree"]),
    (Raises, ["Raises: cell(x, state) raised KeyError: 'weight_xx' (test_recurrent.py, line"]),
], ids=lambda v: v.__name__ if isinstance(v, type) else "")
def test_check_recurrent_names_what_a_layer_gets_wrong(layer, words):
    with pytest.raises(RecurrentLayerError) as error:
        check_recurrent(layer(3, 4), 3, 4)
    for word in words:
        assert word in str(error.value)


def test_check_recurrent_wants_the_sizes_and_the_state_parts():
    gru = GRU(3, 4)
    with pytest.raises(RecurrentLayerError, match=r"layer.hidden_size is 4, expected 5 \(a layer "
                                                  r"keeps the sizes it is made with"):
        check_recurrent(gru, 3, 5)
    gru.state_parts = "h"
    with pytest.raises(RecurrentLayerError, match="state_parts should name the state's parts"):
        check_recurrent(gru, 3, 4)


def test_zero_state_has_the_layers_parts():
    assert zero_state(GRU(3, 4), 2, np.float32).shape == (2, 4)
    h, c = zero_state(nn.LSTM(3, 4), 2, np.float64)
    assert h.shape == c.shape == (2, 4) and h.dtype == np.float64


class ReturnsNaN(GRU):
    def cell(self, x, h):
        return super().cell(x, h) * float("nan")


class TwoPartsOneTensor(GRU):
    state_parts = ("h", "c")


def test_check_recurrent_says_nan_rather_than_that_the_mask_is_ignored():
    with pytest.raises(RecurrentLayerError) as error:
        check_recurrent(ReturnsNaN(3, 4), 3, 4)
    assert "ReturnsNaN: cell returned h holding NaN or infinity" in str(error.value)
    assert "mask" not in str(error.value)


def test_check_recurrent_names_state_parts_that_the_cell_does_not_take():
    with pytest.raises(RecurrentLayerError) as error:
        check_recurrent(TwoPartsOneTensor(3, 4), 3, 4)
    assert ("TwoPartsOneTensor: state_parts ('h', 'c') make the state a tuple of 2 tensors, "
            "but cell(x, state) takes one tensor") in str(error.value)


def test_check_recurrent_wants_a_layer_and_whole_sizes_and_shows_what_it_found():
    with pytest.raises(RecurrentLayerError, match=r"pass a layer, e.g. GRU\(3, 4\), not the "
                       "class GRU"):
        check_recurrent(GRU, 3, 4)
    with pytest.raises(RecurrentLayerError, match="input_size should be a whole number >= 1, "
                       "got '3'"):
        check_recurrent(GRU(3, 4), "3", 4)
    gru = GRU(3, 4)
    gru.input_size = "3"
    with pytest.raises(RecurrentLayerError, match="layer.input_size is '3', expected 3 "):
        check_recurrent(gru, 3, 4)
