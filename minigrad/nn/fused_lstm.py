"""The LSTM over a whole sequence as one op, with its backward (backpropagation through time)
derived by hand.

`FusedLSTMCell` (minigrad/nn/fused_lstm_cell.py, where one step and its backward are derived)
makes a step one op. `FusedLSTM` goes further: the whole time loop is one op, so the engine sees
one node per sequence, and its backward can do the work shared by all steps in a few big
matmuls. The numbers are those of the composed cell run over time (to float64 round-off); the
tests check every gradient against it, against finite differences and against PyTorch.

A whole sequence: backpropagation through time
-----------------------------------------------
Forward, for t = 1 .. T from the initial state (h_0, c_0), with x_t the input at step t:

    a_t = x_t W_ih^T + h_{t-1} W_hh^T + b_ih + b_hh         (B, 4H)
    i_t, f_t, g_t, o_t, c_t, h_t                            as in one step

x_t W_ih^T does not depend on the state, so it is computed for all T steps before the loop, as
one (T B, I) @ (I, 4H) matmul. Only h_{t-1} W_hh^T and the gates must wait for step t-1.

Backward: the gradient dL/dh_t arrives from outside for every t (h_t is an output; the final
state's h_T too), and dL/dc_T for the final c. Step t+1 reads h_t and c_t, so it sends back
their gradients, which add to those from outside:

    dh_t = dL/dh_t + da_{t+1} W_hh          (for t = T only dL/dh_t: there is no step T+1)
    dc_t = dc'_{t+1} * f_{t+1}              (for t = T: dL/dc_T, from outside)

where dc'_{t+1} is step t+1's dc' after it took in the gradient through h_{t+1}. So the loop
runs t = T .. 1, each pass the one-step backward with dh' = dh_t and dc' = dc_t: it gives
da_t, and hands dh_{t-1} and dc_{t-1} to the next pass. After t = 1 they are dL/dh_0, dL/dc_0.

The weights are the same at every step, so their gradients are sums over the steps:

    dW_hh = sum_t da_t^T h_{t-1}     dW_ih = sum_t da_t^T x_t     db = sum over t and batch of da_t
    dx_t  = da_t W_ih

None of these is needed inside the loop. With the da_t of all steps stacked, a sum over t of
(4H, B) @ (B, H) products is one (4H, T B) @ (T B, H) product (`FusedLSTM` keeps da gate by
gate, so it is four (H, T B) @ (T B, H) products in one matmul call), and the same holds for
W_ih and x. The loop keeps only what is sequential: da_t, dh_{t-1} and dc_{t-1}.

Padding: a step that is not there
----------------------------------
A batch of sentences of different lengths is padded to one length T. With `mask` (B, T), False
where x_t is padding, a padded step leaves the state as it was:

    h_t = h_{t-1},  c_t = c_{t-1}        where mask[b, t] is False (row by row)

so a sentence ends in the same state alone or padded in a batch. Backward: at a padded step the
gradients dh_t and dc_t pass straight through to h_{t-1} and c_{t-1}, and the step's da_t is 0
(its gates took no part).

`FusedLSTM` has one output, (B, T+1, H): h_1 .. h_T at [:, :T], then c_T at [:, T].
`fused_lstm` hands back outputs = y[:, :T], h_T = y[:, T-1] and c_T = y[:, T] (views). The
gradients of outputs and of h_T both reach y[:, T-1], where the engine adds them: that sum is
dL/dh_T above.

Why `FusedLSTMCell` projects x inside each step and `FusedLSTM` does not: with one op per
step, projecting up front would put a slice of a (B, T, 4H) tensor in the graph at every step,
and each slice's gradient is a full (B, T, 4H) array, mostly zeros: T times the work of the
slice. Inside one op for the whole sequence, slices are plain NumPy views and cost nothing.
"""

import numpy as np

from minigrad.autograd import Function
from minigrad.nn.fused_lstm_cell import (
    FusedLSTMCell,
    _sigmoid_inplace,
    _sigmoid_slope,
    fused_lstm_cell,
)

__all__ = ["FusedLSTM", "fused_lstm", "FusedLSTMCell", "fused_lstm_cell"]   # the step, as before


class FusedLSTM(Function):
    """[h_1 .. h_T, c_T] = an LSTM over T steps from (h_0, c_0)
    (backpropagation through time is derived in this file's docstring)

    x: (B, T, I)   h0, c0: (B, H)   weight_ih: (4H, I)   weight_hh: (4H, H)   biases: (4H,)
    mask: None, or (B, T) booleans, False at padded steps (the state passes through them)
    -> (B, T+1, H): the hidden states h_1 .. h_T at [:, :T], the final cell state c_T at [:, T]

    Inside, arrays are time-major, (T, B, ...), so that each step's slice is contiguous, and
    the gates are kept gate-major, (4, T, B, H), so that `i, f, g, o = gates[:, t]` are four
    contiguous (B, H) arrays (in the (B, 4H) layout each gate is a strided column block, and
    NumPy's elementwise ops are several times slower on those). The weights are viewed to
    match: weight_hh.reshape(4, H, H)[k] is gate k's block of rows.
    """

    settings = ("mask",)
    saves = ("x", "h", "c", "tanh_c", "padded", "gates", "weight_ih", "weight_hh")

    def __init__(self, mask=None):
        self.mask = mask

    def forward(self, x, h0, c0, weight_ih, weight_hh, bias_ih, bias_hh):
        B, T, I = x.shape                        # noqa: E741 (I: the input size, as in (B, T, I))
        padded = [None] * T                      # per step: (B, 1), True at padded rows, or
        if self.mask is not None:                # None where no row is padded (most steps)
            padded = [p if p.any() else None for p in ~self.mask.T[:, :, None]]
        H = h0.shape[1]
        x = np.ascontiguousarray(x.transpose(1, 0, 2)).reshape(T * B, I)   # (T B, I), by time
        w_ih = weight_ih.reshape(4, H, I).transpose(0, 2, 1)         # (4, I, H): W_ih,k^T
        w_hh = weight_hh.reshape(4, H, H).transpose(0, 2, 1)         # (4, H, H): W_hh,k^T
        gates = x @ w_ih                                             # (4, T B, H): x_t W_ih^T
        gates += (bias_ih + bias_hh).reshape(4, 1, H)
        gates = gates.reshape(4, T, B, H)                            # step t at [:, t-1]
        states = np.empty((T + 2, B, H), dtype=gates.dtype)          # h_0, h_1 .. h_T, then c_T
        h = states[:T + 1]                                           # (T+1, B, H): h[t] is h_t
        c = np.empty((T + 1, B, H), dtype=gates.dtype)               # c[t] is c_t
        tanh_c = np.empty((T, B, H), dtype=gates.dtype)              # tanh(c_t) at [t-1]
        h[0], c[0] = h0, c0
        for t in range(1, T + 1):
            a = gates[:, t - 1]                                      # (4, B, H): a_t, then gates
            a += h[t - 1] @ w_hh                                     # one matmul per gate
            i, f, g, o = a                                           # (B, H) each
            _sigmoid_inplace(a[:2])                                  # i and f
            np.tanh(g, out=g)
            _sigmoid_inplace(o)
            np.multiply(f, c[t - 1], out=c[t])
            c[t] += i * g                                            # c_t = f * c_{t-1} + i * g
            np.tanh(c[t], out=tanh_c[t - 1])
            np.multiply(o, tanh_c[t - 1], out=h[t])                  # h_t = o * tanh(c_t)
            if padded[t - 1] is not None:                            # padded rows: unchanged
                np.copyto(h[t], h[t - 1], where=padded[t - 1])
                np.copyto(c[t], c[t - 1], where=padded[t - 1])
        states[T + 1] = c[T]

        self.x, self.h, self.c, self.tanh_c = x, h, c, tanh_c        # what backward needs
        self.padded = padded
        self.gates = gates                                           # i, f, g, o of every step
        self.weight_ih, self.weight_hh = weight_ih, weight_hh
        return states[1:].transpose(1, 0, 2)                         # (B, T+1, H), a view

    def backward(self, grad_y):                                      # (B, T+1, H)
        T, B, H = self.tanh_c.shape
        grad_y = grad_y.transpose(1, 0, 2)                           # (T+1, B, H)
        h, c, tanh_c = self.h, self.c, self.tanh_c
        w_hh = self.weight_hh.reshape(4, H, H)                       # (4, H, H): W_hh,k
        wants = self.needs_input_grad

        grad_gates = np.empty_like(self.gates)                       # (4, T, B, H): da_t
        grad_h = np.zeros((B, H), dtype=grad_gates.dtype)            # dL/dh_t through step t+1
        grad_c = np.array(grad_y[T])                                 # dL/dc_T, our own copy
        for t in range(T, 0, -1):
            i, f, g, o = self.gates[:, t - 1]                        # (B, H) each
            grad_a = grad_gates[:, t - 1]                            # (4, B, H), filled by gate
            grad_i, grad_f, grad_g, grad_o = grad_a
            grad_h += grad_y[t - 1]                                  # dh_t: add dL/dh_t
            padded = self.padded[t - 1]                              # (B, 1) or None
            if padded is not None:                  # padded rows pass dh_t, dc_t straight back
                carry_h, carry_c = grad_h * padded, grad_c * padded

            # h_t = o * tanh(c_t)
            np.multiply(grad_h, tanh_c[t - 1], out=grad_o)
            grad_c += grad_h * o * (1 - tanh_c[t - 1] ** 2)          # dc': through h_t, and dc_t

            # c_t = f * c_{t-1} + i * g
            np.multiply(grad_c, c[t - 1], out=grad_f)
            np.multiply(grad_c, g, out=grad_i)
            np.multiply(grad_c, i, out=grad_g)
            grad_c *= f                                              # dc_{t-1}

            # the activations, differentiated in terms of their outputs
            grad_a[:2] *= _sigmoid_slope(self.gates[:2, t - 1])      # da_i, da_f
            grad_g *= 1 - g * g
            grad_o *= _sigmoid_slope(o)
            if padded is not None:                  # a padded step's gates took no part
                grad_a *= ~padded                                    # (4, B, H)
                np.copyto(grad_c, carry_c, where=padded)             # dc_{t-1} = dc_t there

            # a_t = ... + h_{t-1} W_hh^T: dh_{t-1} = sum over the gates k of da_k W_hh,k
            if t > 1 or wants[1]:                                    # dh_0 only if h_0 wants it
                grad_h = (grad_a @ w_hh).sum(axis=0)                 # (B, H)
                if padded is not None:
                    grad_h += carry_h                                # dh_{t-1} = dh_t there

        # the weights' gradients, summed over the steps: one matmul each
        grad_a = grad_gates.reshape(4, T * B, H)                     # (4, T B, H)
        grad_x = grad_weight_ih = grad_weight_hh = None
        if wants[0]:
            grad_x = (grad_a @ self.weight_ih.reshape(4, H, -1)).sum(axis=0)   # (T B, I)
            grad_x = grad_x.reshape(T, B, -1).transpose(1, 0, 2)     # (B, T, I)
        if wants[3]:
            grad_weight_ih = grad_a.transpose(0, 2, 1) @ self.x      # (4, H, I)
            grad_weight_ih = grad_weight_ih.reshape(4 * H, -1)       # (4H, I)
        if wants[4]:
            grad_weight_hh = grad_a.transpose(0, 2, 1) @ h[:T].reshape(T * B, H)   # (4, H, H)
            grad_weight_hh = grad_weight_hh.reshape(4 * H, H)        # (4H, H)
        grad_bias = grad_a.sum(axis=1).reshape(4 * H)                # (4H,)
        grad_h0 = grad_h if wants[1] else None                       # dL/dh_0 (grad_c: dL/dc_0)
        return grad_x, grad_h0, grad_c, grad_weight_ih, grad_weight_hh, grad_bias, grad_bias



def fused_lstm(x, state, weight_ih, weight_hh, bias_ih, bias_hh, mask=None):
    """The LSTM over a whole sequence as one op: x (B, T, I), (h0, c0) -> outputs (B, T, H),
    (h_T, c_T), as `nn.LSTM` returns them; the same numbers as running `lstm_cell` T times.
    `mask` (B, T): False at padded steps, which leave the state unchanged."""
    h0, c0 = state
    steps = x.shape[1]
    y = FusedLSTM(mask)(x, h0, c0, weight_ih, weight_hh, bias_ih, bias_hh)    # (B, T+1, H)
    return y[:, :steps], (y[:, steps - 1], y[:, steps])
