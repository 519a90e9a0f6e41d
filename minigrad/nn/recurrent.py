"""The recurrent-layer contract: what the seq2seq model asks of a layer that reads a sequence.

`nn.LSTM` meets it; so does a layer written on `Recurrent`, which needs only a `cell`. A layer
that meets it can take the LSTM's place: `Seq2Seq(..., rnn=GRU)`, or from the command line
`python -m seq2seq train --rnn my_gru.py:GRU`.

    layer = Layer(input_size, hidden_size)         and the two sizes kept as attributes
    layer.state_parts                              the names of the state's parts, hidden first:
        ("h",)        the state is one tensor h, (B, H)              a GRU, a plain RNN
        ("h", "c")    the state is a tuple (h, c), each (B, H)       an LSTM
    outputs, state = layer(x, state=None, mask=None)       a whole sequence:
        x (B, T, input_size) -> outputs (B, T, hidden_size), the hidden state after each step,
        and the final state. state=None means zeros. mask: None, or (B, T) booleans, False at
        padding; a padded step leaves every part of the state as it was.
    state = layer.cell(x, state)                   one step: x (B, input_size), the state as
                                                   above; for decoders that feed each step's
                                                   output back in. Every step's state keeps
                                                   the parts, shapes and dtype of the state
                                                   it was given (`check_step`)

Why a mask is part of the contract: the seq2seq encoder reads batches padded on the left, and a
sentence must end in the same state whether it was read alone or in a batch (a translation never
depends on its batch). A layer whose forward takes no mask is refused with an error that says
so (`check_recurrent`), rather than run on padding.

Why the parts have names: the model hands the encoder's final state to the decoder part by part
(`seq2seq.models.recurrent.bridge`), by name, so an LSTM's (h, c) and a GRU's h each go where
they belong.
"""

import inspect
import traceback
from pathlib import Path

import numpy as np

import minigrad.functional as F
from minigrad.grad_mode import no_grad
from minigrad.messages import message
from minigrad.nn.module import Module
from minigrad.scopes import scope
from minigrad.tensor import Tensor


class RecurrentLayerError(TypeError):
    """A layer that does not meet the recurrent-layer contract; the message says where."""


class Recurrent(Module):
    """A recurrent layer from its one-step `cell`: forward runs the cell over every time step
    and keeps padded rows' state as it was. A subclass sets `input_size`, `hidden_size` and
    its parameters in `__init__`, writes `cell(x, state) -> state`, and names its state's
    parts in `state_parts` when there is more than h:

        class GRU(nn.Recurrent):
            def __init__(self, input_size, hidden_size):
                self.input_size, self.hidden_size = input_size, hidden_size
                self.weight_ih_l0 = nn.Parameter(...)       # and the others
            def cell(self, x, h):
                return gru_cell(x, h, self.weight_ih_l0, ...)

    Shapes: x (B, T, I) -> outputs (B, T, H); each part of the state (B, H).
    """

    state_parts = ("h",)
    batch_first = True              # x is (B, T, I), as the seq2seq model passes it

    def cell(self, x, state):
        raise NotImplementedError(f"{type(self).__name__} has no cell(x, state)")

    def forward(self, x, state=None, mask=None):
        if x.ndim != 3:
            raise ValueError(f"{type(self).__name__}: expected an input of shape (batch, time, "
                             f"input_size), got {x.shape}")
        batch, steps = x.shape[0], x.shape[1]
        mask = check_mask(self, mask, (batch, steps))
        if state is None:
            state = zero_state(self, batch, x.dtype)
        outputs = []
        for t in range(steps):
            with scope(f"time step {t}"):                       # a drawing can fold each step
                new = self.cell(x[:, t], state)                 # each part (B, H)
                check_step(self, new, state, message("recurrent.time_step", t=t),
                           same_dtype=t > 0)
                if mask is not None:                            # padded rows keep their state
                    real = mask[:, t, None]                                     # (B, 1)
                    new = join_parts(self, [F.where(real, n, old)
                                            for n, old in zip(parts(new), parts(state))])
            state = new
            outputs.append(hidden(state))                       # (B, H)
        return F.stack(outputs, axis=1), state                  # (B, T, H)

    def extra_repr(self):
        return f"{self.input_size}, {self.hidden_size}"


def check_step(layer, new, old, where, same_dtype=True):
    """Raise RecurrentLayerError unless the state that layer.cell returned (`new`) has the parts
    and shapes of the state it was given (`old`), and its dtype unless same_dtype=False (at a
    sequence's first step, whose given state may be zeros of the input's dtype). `where` names
    the step in the message: "time step 7".
    `check_recurrent` tries a layer on a tiny batch once; a cell may still go wrong later (at
    step 7, or on a batch of another size), and without this the error would come from a later
    op (stack, where, attention) and name neither the layer nor the step. A few comparisons per
    step: nothing beside the cell's own ops."""
    if isinstance(new, Tensor) and isinstance(old, Tensor):                 # one part: h
        if new.shape == old.shape and (new.dtype == old.dtype or not same_dtype):
            return
    elif isinstance(new, tuple) and len(new) == len(layer.state_parts) == len(old):
        for n, o in zip(new, old):                                          # (h, c, ...)
            if not (isinstance(n, Tensor) and n.shape == o.shape
                    and (n.dtype == o.dtype or not same_dtype)):
                break
        else:
            return
    name = type(layer).__name__
    if len(parts(new)) != len(parts(old)) or not all(isinstance(n, Tensor) for n in parts(new)):
        raise RecurrentLayerError(message("recurrent.step_parts", name=name, where=where,
                                          got=_described(new), state_parts=layer.state_parts,
                                          count=len(parts(old))))
    for part, n, o in zip(layer.state_parts, parts(new), parts(old)):
        if n.shape != o.shape or (same_dtype and n.dtype != o.dtype):
            raise RecurrentLayerError(message("recurrent.step_shape", name=name, where=where,
                                              part=part, new_shape=n.shape, new_dtype=n.dtype,
                                              old_shape=o.shape, old_dtype=o.dtype))


# ---- states: one tensor, or a tuple of them -------------------------------------------------

def parts(state):
    """The state as a tuple of its parts: (h,) for one tensor, (h, c) as it is."""
    return tuple(state) if isinstance(state, (tuple, list)) else (state,)


def hidden(state):
    """The hidden state h, the part a layer outputs: the state itself, or its first part."""
    return parts(state)[0]


def join_parts(layer, tensors):
    """The parts back as the layer's state: one tensor when it has one part, else a tuple."""
    return tensors[0] if len(layer.state_parts) == 1 else tuple(tensors)


def map_state(fn, state):
    """fn applied to every part, the structure kept: rows of a state are picked this way
    (`map_state(lambda s: s[keep], state)`)."""
    return tuple(fn(s) for s in state) if isinstance(state, (tuple, list)) else fn(state)


def zero_state(layer, batch, dtype):
    """Zeros for every part of the layer's state, each (batch, hidden_size)."""
    return join_parts(layer, [Tensor(np.zeros((batch, layer.hidden_size), dtype=dtype))
                              for _ in layer.state_parts])


def check_mask(module, mask, shape):
    """None, or the mask as a boolean array of the input's (batch, time) shape."""
    if mask is None:
        return None
    mask = np.asarray(getattr(mask, "data", mask))
    if mask.dtype != bool or mask.shape != tuple(shape):
        layout = "(batch, time)" if getattr(module, "batch_first", True) else "(time, batch)"
        raise ValueError(f"{type(module).__name__}: the mask should be booleans of shape "
                         f"{layout} = {tuple(shape)}, got {mask.dtype} {mask.shape}")
    return mask


# ---- checking a layer against the contract --------------------------------------------------

def check_recurrent(layer, input_size, hidden_size):
    """Raise RecurrentLayerError unless `layer` meets the contract: its attributes, and on a
    tiny batch (no gradients recorded) the shapes it returns, a mask that it honours (a row
    padded on the left ends where it ends alone) and a `cell` that agrees with `forward`."""
    if isinstance(layer, type):
        raise RecurrentLayerError(message("recurrent.pass_a_layer", cls=layer.__name__,
                                          input_size=input_size, hidden_size=hidden_size))
    for argument, size in (("input_size", input_size), ("hidden_size", hidden_size)):
        if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or size < 1:
            raise RecurrentLayerError(message("recurrent.size", argument=argument, size=size))
    name = type(layer).__name__
    _check_attributes(layer, name, input_size, hidden_size)
    params = list(layer.parameters()) if isinstance(layer, Module) else []
    dtype = params[0].dtype if params else np.float32
    x = np.random.default_rng(0).standard_normal((2, 3, input_size)).astype(dtype)
    mask = np.array([[False, True, True], [True, True, True]])      # row 0: one step of padding
    with no_grad():
        zeros = zero_state(layer, 2, dtype)
        step = _first_step(name, layer, Tensor(x[:, 0]), zeros)
        _check_state(name, "cell", layer, step, 2, hidden_size)
        outputs, state = _run(name, "forward(x, mask=mask)", lambda: layer(Tensor(x), mask=mask))
        _check_state(name, "forward", layer, state, 2, hidden_size)
        found = getattr(outputs, "shape", type(outputs).__name__)
        if found != (2, 3, hidden_size):
            raise RecurrentLayerError(message("recurrent.outputs_shape", name=name, found=found,
                                              hidden_size=hidden_size))
        _, alone = _run(name, "forward(x)", lambda: layer(Tensor(x[:1, 1:])))
        if not _close(parts(alone), [s.data[:1] for s in parts(state)]):
            raise RecurrentLayerError(message("recurrent.ignores_mask", name=name))
        if not _close([hidden(step)[1:]], [outputs.data[1:, 0]]):
            raise RecurrentLayerError(message("recurrent.disagree", name=name))


def _check_attributes(layer, name, input_size, hidden_size):
    state_parts = getattr(layer, "state_parts", None)
    if (not isinstance(state_parts, tuple) or not state_parts
            or not all(isinstance(p, str) for p in state_parts)):
        raise RecurrentLayerError(message("recurrent.state_parts", name=name,
                                          state_parts=state_parts))
    for attribute, size in (("input_size", input_size), ("hidden_size", hidden_size)):
        if getattr(layer, attribute, None) != size:
            raise RecurrentLayerError(message("recurrent.size_attribute", name=name,
                                              attribute=attribute, size=size,
                                              found=getattr(layer, attribute, None)))
    if not callable(getattr(layer, "cell", None)):
        raise RecurrentLayerError(message("recurrent.no_cell", name=name))
    forward = getattr(layer, "forward", layer)
    takes = inspect.signature(forward).parameters
    if "mask" not in takes and not any(p.kind is p.VAR_KEYWORD for p in takes.values()):
        raise RecurrentLayerError(message("recurrent.no_mask", name=name))


def _run(name, what, call):
    """call(), with an error in the layer's code put in one line, with the line of that code
    where it happened (the deepest frame outside minigrad)."""
    try:
        return call()
    except RecurrentLayerError:
        raise
    except Exception as error:                  # the layer's code: anything can happen
        package = Path(__file__).resolve().parent.parent
        theirs = [f for f in traceback.extract_tb(error.__traceback__)
                  if package not in Path(f.filename).resolve().parents]
        where = message("recurrent.raised_at", file=Path(theirs[-1].filename).name,
                        line=theirs[-1].lineno) if theirs else ""
        raise RecurrentLayerError(message("recurrent.raised", name=name, what=what,
                                          kind=type(error).__name__, error=error,
                                          where=where)) from error


def _first_step(name, layer, x, zeros):
    """layer.cell(x, zeros); when it fails on a state of several parts but works on one tensor,
    the error names that mismatch: state_parts says a tuple, the cell takes one tensor."""
    try:
        return _run(name, "cell(x, state)", lambda: layer.cell(x, zeros))
    except RecurrentLayerError as error:
        if len(layer.state_parts) == 1:
            raise
        try:
            alone = layer.cell(x, parts(zeros)[0])
        except Exception:
            raise error from None
        if not isinstance(alone, Tensor):
            raise
        raise RecurrentLayerError(message("recurrent.cell_takes_one", name=name,
                                          state_parts=layer.state_parts,
                                          count=len(layer.state_parts))) from None


def _check_state(name, where, layer, state, batch, hidden_size):
    n = len(layer.state_parts)
    if (n == 1) != isinstance(state, Tensor) or (n > 1 and len(parts(state)) != n):
        want = (message("recurrent.one_tensor") if n == 1
                else message("recurrent.tuple_of_tensors", count=n))
        raise RecurrentLayerError(message("recurrent.state_kind", name=name, where=where,
                                          got=_described(state), state_parts=layer.state_parts,
                                          want=want))
    for part, s in zip(layer.state_parts, parts(state)):
        if getattr(s, "shape", None) != (batch, hidden_size):
            raise RecurrentLayerError(message("recurrent.state_shape", name=name, where=where,
                                              part=part, batch=batch, hidden_size=hidden_size,
                                              found=getattr(s, "shape", type(s).__name__)))
        if not np.all(np.isfinite(np.asarray(getattr(s, "data", s)))):
            raise RecurrentLayerError(message("recurrent.state_not_finite", name=name,
                                              where=where, part=part))


def _described(state):
    """A state's kind as a message says it: "Tensor", "list", or "tuple of 3"."""
    kind = type(state).__name__
    if isinstance(state, tuple):
        return message("recurrent.tuple_of", kind=kind, count=len(state))
    return kind


def _close(got, expected):
    return all(np.allclose(np.asarray(getattr(g, "data", g)), e, rtol=1e-4, atol=1e-5)
               for g, e in zip(got, expected))
