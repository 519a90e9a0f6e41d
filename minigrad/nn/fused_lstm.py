"""The LSTM as single ops with their backward derived by hand: one step, and a whole sequence.

`lstm_cell` in `minigrad.nn.lstm` builds a step from about twenty primitive ops; the engine
records each, and backward calls each. `FusedLSTMCell` is the whole step as one `Function`:
forward and backward are written out on arrays, most results are written in place (`out=`)
instead of into a new array per op, and the engine sees one node per step. `FusedLSTM` goes
further: the whole time loop is one op, so the engine sees one node per sequence, and its
backward (backpropagation through time) can do the work shared by all steps in a few big
matmuls. The numbers are the same (to float64 round-off); the tests check every gradient
against the composed cell, against finite differences and against PyTorch.

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

A whole sequence: backpropagation through time
-----------------------------------------------
Forward, for t = 1 .. T from the initial state (h_0, c_0), with x_t the input at step t:

    a_t = x_t W_ih^T + h_{t-1} W_hh^T + b_ih + b_hh         (B, 4H)
    i_t, f_t, g_t, o_t, c_t, h_t                            as in one step above

x_t W_ih^T does not depend on the state, so it is computed for all T steps before the loop, as
one (T B, I) @ (I, 4H) matmul. Only h_{t-1} W_hh^T and the gates must wait for step t-1.

Backward: the gradient dL/dh_t arrives from outside for every t (h_t is an output; the final
state's h_T too), and dL/dc_T for the final c. Step t+1 reads h_t and c_t, so it sends back
their gradients, which add to those from outside:

    dh_t = dL/dh_t + da_{t+1} W_hh          (for t = T only dL/dh_t: there is no step T+1)
    dc_t = dc'_{t+1} * f_{t+1}              (for t = T: dL/dc_T, from outside)

where dc'_{t+1} is step t+1's dc' after it took in the gradient through h_{t+1}. So the loop
runs t = T .. 1, each pass the one-step backward above with dh' = dh_t and dc' = dc_t: it gives
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


def fused_lstm(x, state, weight_ih, weight_hh, bias_ih, bias_hh, mask=None):
    """The LSTM over a whole sequence as one op: x (B, T, I), (h0, c0) -> outputs (B, T, H),
    (h_T, c_T), as `nn.LSTM` returns them; the same numbers as running `lstm_cell` T times.
    `mask` (B, T): False at padded steps, which leave the state unchanged."""
    h0, c0 = state
    steps = x.shape[1]
    y = FusedLSTM(mask)(x, h0, c0, weight_ih, weight_hh, bias_ih, bias_hh)    # (B, T+1, H)
    return y[:, :steps], (y[:, steps - 1], y[:, steps])
