"""The model's recurrent layers: made from a class (nn.LSTM unless another is given), and the
bridge that hands the encoder's final state to the decoder.

Any class that meets the contract of `minigrad.nn.recurrent` will do; it is made as
`rnn(input_size, hidden_size)` and checked at once (`check_recurrent`), so a layer that cannot
work in the model (no mask, a state of the wrong shape) is refused before any training, with a
message that says what is wrong.
"""

import numpy as np

from minigrad import Tensor, nn
from minigrad.command import exit_call
from minigrad.nn.module import check_sizes
from minigrad.nn.recurrent import (
    RecurrentLayerError,
    check_recurrent,
    check_step,
    hidden,
    join_parts,
    parts,
)
from seq2seq.models.messages import message

__all__ = ["bridge", "checked_step", "hidden", "make_rnn", "named_parts", "raised"]


def make_rnn(rnn, input_size, hidden_size, fused=True):
    """A recurrent layer reading (B, T, input_size). `rnn`: None or nn.LSTM for the LSTM (fused
    or composed from primitive ops, as `fused` says), or any class that meets the contract."""
    if rnn is None or rnn is nn.LSTM:
        return nn.LSTM(input_size, hidden_size, batch_first=True, fused=fused)
    name = getattr(rnn, "__name__", type(rnn).__name__)
    if not isinstance(rnn, type) and callable(getattr(rnn, "cell", None)):
        raise RecurrentLayerError(message("rnn.instance", name=name))
    if not callable(rnn):
        raise RecurrentLayerError(message("rnn.not_a_class", name=name))
    check_sizes("seq2seq model", hidden_size=hidden_size)      # the model's, before the layer's
    check_sizes("seq2seq model", embed_size=input_size)
    try:
        layer = rnn(input_size, hidden_size)
    except (Exception, SystemExit) as error:    # the user's code (a sys.exit() too)
        raise RecurrentLayerError(message("rnn.made", made=f"{name}({input_size}, {hidden_size})",
                                          raised=raised(error))) from error
    check_recurrent(layer, input_size, hidden_size)
    return layer


def raised(error):
    """'raised ValueError: message', or 'called sys.exit(3)' for a SystemExit."""
    if isinstance(error, SystemExit):
        return message("exited", call=exit_call(error))
    return message("raised", kind=type(error).__name__, error=error)


def checked_step(layer, new, state):
    """`new`, the state layer.cell returned from `state` at a decoder step, once checked to have
    its parts, shapes and dtype (`minigrad.nn.recurrent.check_step`): a cell that goes wrong
    late in training is named here, not by the attention or output layer it reaches next."""
    if state is not None:                       # None: zeros, made by the cell itself
        check_step(layer, new, state, message("decoder_step"))
    return new


def named_parts(layer, state):
    """The state's parts by the names the layer gives them: {"h": h, "c": c} for an LSTM."""
    return dict(zip(layer.state_parts, parts(state)))


def bridge(state, source, target):
    """The encoder layer `source`'s final state as the decoder layer `target`'s first state.

    Part by part: the hidden state (the first part) always goes across; every other part of
    the target's state is the source's part of the same name, or zeros if the source has none.
    So an LSTM hands (h, c) to an LSTM and a GRU h to a GRU unchanged; an LSTM encoder hands a
    GRU decoder its h (c is left behind), a GRU encoder an LSTM decoder h and c = 0."""
    h = hidden(state)                                               # (B, H)
    given = dict(zip(source.state_parts[1:], parts(state)[1:]))
    rest = [given[name] if name in given else Tensor(np.zeros_like(h.data))
            for name in target.state_parts[1:]]
    return join_parts(target, [h, *rest])
