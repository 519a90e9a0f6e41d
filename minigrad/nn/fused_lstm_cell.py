"""The LSTM step as one op, with its backward derived by hand (fused_lstm.py: a whole sequence).

`lstm_cell` in `minigrad.nn.lstm` builds a step from about twenty primitive ops; the engine
records each, and backward calls each. `FusedLSTMCell` is the whole step as one `Function`:
forward and backward are written out on arrays, most results are written in place (`out=`)
instead of into a new array per op, and the engine sees one node per step. The numbers are the
same (to float64 round-off); the tests check every gradient against the composed cell, against
finite differences and against PyTorch.

One step
--------
Forward, with a_* the gates' pre-activations (the four column blocks of one (B, 4H) matmul):

    a = x W_ih^T + h W_hh^T + b_ih + b_hh           (B, 4H) = [a_i | a_f | a_g | a_o]
    i = sigmoid(a_i)   f = sigmoid(a_f)   g = tanh(a_g)   o = sigmoid(a_o)
    c' = f * c + i * g
    h' = o * tanh(c')

Backward: the gradients dh' = dL/dh' and dc' = dL/dc' arrive (c' also feeds the next step
directly, so it has its own gradient). Go through the forward lines in reverse, applying the
chain rule to each; products are elementwise.

    h' = o * tanh(c')      do  = dh' * tanh(c')
                           dc' += dh' * o * (1 - tanh(c')^2)       (tanh'(z) = 1 - tanh(z)^2)
    c' = f * c + i * g     df  = dc' * c      dc = dc' * f
                           di  = dc' * g      dg = dc' * i
    i = sigmoid(a_i) ...   da_i = di * i (1 - i)    da_f = df * f (1 - f)    (sigmoid' = s(1 - s))
                           da_g = dg * (1 - g^2)    da_o = do * o (1 - o)
    a = x W_ih^T + ...     da = [da_i | da_f | da_g | da_o]                             (B, 4H)
                           dx = da W_ih      dW_ih = da^T x      (like any matmul)   (B, I), (4H, I)
                           dh = da W_hh      dW_hh = da^T h                          (B, H), (4H, H)
                           db_ih = db_hh = sum of da over the batch                  (4H,)

Each derivative is written in terms of a forward output (i, f, g, o, tanh(c')), which is why
forward saves those and not the pre-activations.

An op has one output, so this one returns h' and c' stacked, (2, B, H); `fused_lstm_cell`
hands them back as two tensors, h_c[0] and h_c[1] (views: nothing is copied).
"""

import numpy as np

from minigrad.autograd import Function


class FusedLSTMCell(Function):
    """[h', c'] = LSTM step(x, h, c)       (the derivation is in this file's docstring)

    x: (B, I)   h, c: (B, H)   weight_ih: (4H, I)   weight_hh: (4H, H)   bias_ih, bias_hh: (4H,)
    -> (2, B, H): h' at [0], c' at [1]
    """

    saves = ("x", "h", "c", "weight_ih", "weight_hh", "gates", "tanh_c")

    def forward(self, x, h, c, weight_ih, weight_hh, bias_ih, bias_hh):
        H = h.shape[1]
        gates = h @ weight_hh.T                          # (B, 4H): pre-activations, then gates
        gates += x @ weight_ih.T
        gates += bias_ih + bias_hh
        i, f, g, o = (gates[:, k * H:(k + 1) * H] for k in range(4))     # views, (B, H) each
        _sigmoid_inplace(gates[:, :2 * H])               # i and f
        np.tanh(g, out=g)
        _sigmoid_inplace(o)

        h_c = np.empty((2,) + h.shape, dtype=h.dtype)   # (2, B, H): the output, h' and c'
        h_new, c_new = h_c[0], h_c[1]
        np.multiply(f, c, out=c_new)
        c_new += i * g                                   # c' = f * c + i * g
        tanh_c = np.tanh(c_new)
        np.multiply(o, tanh_c, out=h_new)                # h' = o * tanh(c')

        self.x, self.h, self.c = x, h, c                 # what backward needs
        self.weight_ih, self.weight_hh = weight_ih, weight_hh
        self.gates, self.tanh_c = gates, tanh_c          # i, f, g, o after their activations
        return h_c

    def backward(self, grad_h_c):                        # (2, B, H)
        grad_h_new, grad_c_new = grad_h_c[0], grad_h_c[1]
        H = self.h.shape[1]
        i, f, g, o = (self.gates[:, k * H:(k + 1) * H] for k in range(4))
        tanh_c = self.tanh_c

        grad_gates = np.empty_like(self.gates)           # (B, 4H), filled block by block
        grad_i, grad_f, grad_g, grad_o = (grad_gates[:, k * H:(k + 1) * H] for k in range(4))

        # h' = o * tanh(c')
        np.multiply(grad_h_new, tanh_c, out=grad_o)                  # do
        grad_c = grad_h_new * o                                      # (B, H)
        grad_c *= 1 - tanh_c * tanh_c
        grad_c += grad_c_new                             # dc': through h', and from the next step

        # c' = f * c + i * g
        np.multiply(grad_c, self.c, out=grad_f)                      # df
        np.multiply(grad_c, g, out=grad_i)                           # di
        np.multiply(grad_c, i, out=grad_g)                           # dg
        grad_c_prev = np.multiply(grad_c, f, out=grad_c)             # dc (reuses the buffer)

        # the activations, differentiated in terms of their outputs
        grad_gates[:, :2 * H] *= _sigmoid_slope(self.gates[:, :2 * H])   # da_i, da_f
        grad_g *= 1 - g * g                                              # da_g
        grad_o *= _sigmoid_slope(o)                                      # da_o

        # a = x W_ih^T + h W_hh^T + b_ih + b_hh;  constants (x, the first h) need no gradient
        wants = self.needs_input_grad
        grad_x = grad_gates @ self.weight_ih if wants[0] else None           # (B, I)
        grad_h = grad_gates @ self.weight_hh if wants[1] else None           # (B, H)
        grad_weight_ih = grad_gates.T @ self.x if wants[3] else None         # (4H, I)
        grad_weight_hh = grad_gates.T @ self.h if wants[4] else None         # (4H, H)
        grad_bias = grad_gates.sum(axis=0)                                   # (4H,)
        return grad_x, grad_h, grad_c_prev, grad_weight_ih, grad_weight_hh, grad_bias, grad_bias



def _sigmoid_inplace(a):
    """a <- sigmoid(a), in place, as (tanh(a/2) + 1) / 2: the same function as 1 / (1 + exp(-a))
    (equal up to rounding), with no overflow for very negative a, and faster in NumPy."""
    a *= 0.5
    np.tanh(a, out=a)
    a += 1
    a *= 0.5


def _sigmoid_slope(s):
    """sigmoid'(a), written with s = sigmoid(a):  s (1 - s)"""
    slope = 1 - s
    slope *= s
    return slope



def fused_lstm_cell(x, state, weight_ih, weight_hh, bias_ih, bias_hh):
    """The same step as `lstm_cell`, as one op. Returns (h', c'), each (B, H)."""
    h, c = state
    h_c = FusedLSTMCell()(x, h, c, weight_ih, weight_hh, bias_ih, bias_hh)     # (2, B, H)
    return h_c[0], h_c[1]

