"""The LSTM, from primitive ops: the cell that students read and step through, and the layer
that runs it over time.

Shapes: B batch, T time steps, I input size, H hidden size.
"""

import math

import numpy as np

import minigrad.functional as F
from minigrad.nn import init
from minigrad.nn.fused_lstm import fused_lstm
from minigrad.nn.fused_lstm_cell import fused_lstm_cell
from minigrad.nn.module import Module, Parameter, check_dtype, check_sizes
from minigrad.nn.recurrent import check_mask
from minigrad.scopes import scope
from minigrad.tensor import Tensor


def lstm_cell(x, state, weight_ih, weight_hh, bias_ih, bias_hh):
    """One step of an LSTM, built from primitive ops (each gate on its own line).

        i = sigmoid(x W_ii^T + b_ii + h W_hi^T + b_hi)     input gate: how much of g to write
        f = sigmoid(x W_if^T + b_if + h W_hf^T + b_hf)     forget gate: how much of c to keep
        g =    tanh(x W_ig^T + b_ig + h W_hg^T + b_hg)     candidate values for the cell
        o = sigmoid(x W_io^T + b_io + h W_ho^T + b_ho)     output gate: how much of c to show
        c' = f * c + i * g                                 the new cell state
        h' = o * tanh(c')                                  the new hidden state

    The four gates' weights are stacked in PyTorch's order i, f, g, o, so one matmul computes
    all four pre-activations at once:
        x: (B, I)   h, c: (B, H)   weight_ih: (4H, I)   weight_hh: (4H, H)   biases: (4H,)
    Returns (h', c'), each (B, H). Backward needs nothing special: every op here has its own.
    """
    h, c = state
    H = h.shape[-1]
    gates = x @ weight_ih.T + h @ weight_hh.T + (bias_ih + bias_hh)     # (B, 4H)
    i = gates[:, 0 * H:1 * H].sigmoid()         # input gate            (B, H)
    f = gates[:, 1 * H:2 * H].sigmoid()         # forget gate           (B, H)
    g = gates[:, 2 * H:3 * H].tanh()            # candidate values      (B, H)
    o = gates[:, 3 * H:4 * H].sigmoid()         # output gate           (B, H)
    c = f * c + i * g                           # new cell state        (B, H)
    h = o * c.tanh()                            # new hidden state      (B, H)
    return h, c


class LSTMCell(Module):
    """One LSTM step as a layer: `cell(x, (h, c)) -> (h, c)`; state None means zeros.

    x: (B, input_size)   h, c: (B, hidden_size)
    weight_ih: (4H, I)   weight_hh: (4H, H)   bias_ih, bias_hh: (4H,)   gates in order i, f, g, o
    All start uniform in [-1/sqrt(H), 1/sqrt(H)), as in PyTorch. `fused=True` runs the same
    step as one op with a hand-written backward (`minigrad.nn.fused_lstm_cell`): same numbers,
    faster.
    """

    def __init__(self, input_size, hidden_size, fused=False):
        check_sizes("LSTMCell", input_size=input_size, hidden_size=hidden_size)
        self.input_size, self.hidden_size, self.fused = input_size, hidden_size, fused
        self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh = lstm_parameters(
            input_size, hidden_size)

    def forward(self, x, state=None):
        return lstm_step(self, x, state, self.cell_parameters())

    def cell_parameters(self):
        """The four parameters in the order the cell takes them: (W_ih, W_hh, b_ih, b_hh)."""
        return self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh

    def extra_repr(self):
        return f"{self.input_size}, {self.hidden_size}" + (", fused=True" if self.fused else "")


class LSTM(Module):
    """An LSTM layer: the cell run over every time step.

        outputs, (h, c) = lstm(x, (h0, c0), mask)  (h0, c0) = None means zeros

    x: (B, T, I)  ->  outputs: (B, T, H), the hidden state after each step
    mask: None, or (B, T) booleans, False where x holds padding. A padded step leaves the state
    as it was (h_t = h_{t-1}, c_t = c_{t-1}), so a sentence ends in the same state whether it
    runs alone or padded in a batch: padding never runs through the cell.
    h0, c0 and the final h, c: (B, H) each. (PyTorch's states have a leading axis of length
    num_layers, (1, B, H); this LSTM has one layer and leaves that axis out.)
    With batch_first=False, x, mask and outputs are (T, B, ...) instead, as in PyTorch.

    Parameter names are those of torch.nn.LSTM's first layer (weight_ih_l0, weight_hh_l0,
    bias_ih_l0, bias_hh_l0), so a state dict copies across either way. `fused=True` runs the
    whole sequence as one op, `FusedLSTM`, whose backward is backpropagation through time
    written by hand (`minigrad.nn.fused_lstm`); `cell()` then runs one fused step.

    It meets the recurrent-layer contract (`minigrad.nn.recurrent`): its state has two parts,
    h and c, so any layer that meets it can take its place in the seq2seq model.
    """

    state_parts = ("h", "c")

    def __init__(self, input_size, hidden_size, batch_first=True, fused=False):
        check_sizes("LSTM", input_size=input_size, hidden_size=hidden_size)
        self.input_size, self.hidden_size = input_size, hidden_size
        self.batch_first, self.fused = batch_first, fused
        self.weight_ih_l0, self.weight_hh_l0, self.bias_ih_l0, self.bias_hh_l0 = lstm_parameters(
            input_size, hidden_size)

    def forward(self, x, state=None, mask=None):
        check_input(self, x, ndim=3)
        mask = check_mask(self, mask, x.shape[:2])
        if not self.batch_first:
            x = x.swapaxes(0, 1)                                    # (B, T, I)
            mask = None if mask is None else mask.T                 # (B, T)
        batch, steps = x.shape[0], x.shape[1]
        if steps == 0:
            raise ValueError(f"LSTM: the input {x.shape} has no time steps")
        h, c = initial_state(self, state, batch, self.weight_hh_l0)
        params = self.cell_parameters()
        if self.fused:                                              # one op for all the steps
            outputs, (h, c) = fused_lstm(x, (h, c), *params, mask=mask)    # (B, T, H), (B, H)
        else:
            outputs = []
            for t in range(steps):
                with scope(f"time step {t}"):           # a drawing can fold each step
                    h_new, c_new = lstm_cell(x[:, t], (h, c), *params)  # (B, H) each
                    if mask is None:
                        h, c = h_new, c_new
                    else:                               # padded rows keep their state
                        real = mask[:, t, None]                         # (B, 1)
                        h, c = F.where(real, h_new, h), F.where(real, c_new, c)
                outputs.append(h)
            outputs = F.stack(outputs, axis=1)                      # (B, T, H)
        if not self.batch_first:
            outputs = outputs.swapaxes(0, 1)                        # (T, B, H)
        return outputs, (h, c)

    def cell(self, x, state=None):
        """One step with this layer's weights: x (B, I), (h, c) -> (h, c), each (B, H).
        For decoders that feed each step's output back in."""
        return lstm_step(self, x, state, self.cell_parameters())

    def cell_parameters(self):
        """The four parameters in the order the cell takes them: (W_ih, W_hh, b_ih, b_hh)."""
        return self.weight_ih_l0, self.weight_hh_l0, self.bias_ih_l0, self.bias_hh_l0

    def extra_repr(self):
        settings = f"{self.input_size}, {self.hidden_size}"
        if not self.batch_first:
            settings += ", batch_first=False"
        return settings + (", fused=True" if self.fused else "")


def lstm_parameters(input_size, hidden_size):
    """The four parameters of one LSTM layer, shaped and initialised as PyTorch's:
    weight_ih (4H, I), weight_hh (4H, H), bias_ih (4H,), bias_hh (4H,), gates in order i, f, g,
    o; each uniform in [-1/sqrt(H), 1/sqrt(H)), drawn in that order (as PyTorch draws them).
    `LSTMCell` and `LSTM` both make theirs here and store them under their own names."""
    H, bound = hidden_size, 1 / math.sqrt(hidden_size)
    shapes = [(4 * H, input_size), (4 * H, H), (4 * H,), (4 * H,)]
    params = [Parameter(np.empty(shape, dtype=np.float32)) for shape in shapes]
    for p in params:
        init.uniform_(p, -bound, bound)
    return params


def lstm_step(module, x, state, parameters):
    """One step of `module` (an LSTMCell, or an LSTM's `cell`) with its `parameters`
    (W_ih, W_hh, b_ih, b_hh): x (B, I), (h, c) or None for zeros -> (h, c), each (B, H).
    Composed from primitive ops (`lstm_cell`) or as one fused op, as `module.fused` says."""
    check_input(module, x, ndim=2)
    state = initial_state(module, state, x.shape[0], parameters[1])
    step = fused_lstm_cell if module.fused else lstm_cell
    return step(x, state, *parameters)


def check_input(module, x, ndim):
    """A clear error for an input of the wrong rank, size or dtype."""
    weight = next(module.parameters())
    expected = {2: "(batch, input_size)", 3: "(batch, time, input_size)"}[ndim]
    if ndim == 3 and not module.batch_first:
        expected = "(time, batch, input_size)"
    if np.ndim(x.data if isinstance(x, Tensor) else x) != ndim or x.shape[-1] != module.input_size:
        raise ValueError(f"{type(module).__name__}: expected an input of shape {expected} with "
                         f"input_size={module.input_size}, got {x.shape}")
    check_dtype(module, x, weight)


def initial_state(module, state, batch, weight):
    """(h, c) as given, checked; or zeros of shape (batch, H) in the parameters' dtype."""
    H = module.hidden_size
    if state is None:
        zeros = np.zeros((batch, H), dtype=weight.dtype)
        return Tensor(zeros), Tensor(zeros)
    h, c = state
    for name, s in (("h", h), ("c", c)):
        if s.shape != (batch, H):
            raise ValueError(f"{type(module).__name__}: the initial {name} should have shape "
                             f"(batch, hidden_size) = {(batch, H)}, got {s.shape}")
        check_dtype(module, s, weight)
    return h, c
