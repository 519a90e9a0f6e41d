"""The encoder-block contract: a class of your own in place of attention.EncoderBlock in the
Transformer's encoder (`Transformer(..., block=MyBlock)`, or `train --arch transformer --block
my_block.py:MyBlock`), made as the encoder makes its blocks (transformer.named_blocks):

    block = MyBlock(d_model, nhead, dim_feedforward, dropout, norm_first=True)
    y = block(x, mask=mask)      x (B, T, d_model) -> y (B, T, d_model)
                                 mask (B, 1, T) booleans, True = may attend, False at padding

The class is a minigrad `nn.Module` (its parameters are found, trained and saved with the
model's). norm_first is the run's --norm: True for "pre", False for "post".

The mask matters: the encoder reads batches padded on the left, and a padded position must
change nothing at a real one, or a sentence would be translated one way alone and another way
in a batch. `check_block` makes the block as the model will (the run's d_model, heads and d_ff;
dropout 0.0, so that outputs can be compared) and checks, before any training: that it is made,
that its output has x's shape and is finite, that changing the padded positions of x changes
nothing at the real ones (a block that ignores the mask fails that), and that each sentence's
output alone is its rows' output in a batch (a block that mixes the batch's sentences, adding
their mean say, fails that: it too would translate a sentence one way alone and another way in
a batch). The batch holds five sentences of lengths 8, 3, 6, 2 and 5 (T = 8, so 0 to 6 padding
positions), and is run in five orders, so that each sentence is compared at every row; this is
done twice, on other data, and the batched calls come last in each round, so a block that
starts mixing only after a number of calls fails unless that number is at least CALLS (22).

What it cannot catch: a block that changes only after more calls than that, or only on data it
never sees (longer sentences, bigger batches, other values, gradients on), or only in training.
"""

import numpy as np

from minigrad import Tensor, nn, no_grad
from seq2seq.models.messages import message
from seq2seq.models.recurrent import raised

D_MODEL, HEADS, D_FF = 8, 2, 16             # sizes when no run gives them: small, two heads
LENGTHS = (8, 3, 6, 2, 5)                   # the check's sentences: one batch, T = 8
ROUNDS = 2                                  # each on data of its own
CALLS = ROUNDS * (2 * len(LENGTHS) + 1)     # alone, in each order, and once other padding


class BlockContractError(ValueError):
    """A block class that does not meet the contract above; the message says how."""


def check_block(block, norm_first=True, d_model=D_MODEL, heads=HEADS, d_ff=D_FF):
    """Make `block` as the model will (the run's sizes) and run it on padded batches; a
    BlockContractError that names the class and what is wrong, else None."""
    name = getattr(block, "__name__", type(block).__name__)
    if not isinstance(block, type):
        raise BlockContractError(message("block.not_a_class", name=name))
    made = f"{name}({d_model}, {heads}, {d_ff}, 0.0, norm_first={norm_first})"
    try:
        layer = block(d_model, heads, d_ff, 0.0, norm_first=norm_first)
    except (Exception, SystemExit) as error:    # the user's code (a sys.exit() too)
        raise BlockContractError(message("block.made", made=made, raised=raised(error))) from error
    if not isinstance(layer, nn.Module):
        raise BlockContractError(message("block.not_a_module", name=name, made=made,
                                         type=type(layer).__name__))
    rng = np.random.default_rng(0)
    for _ in range(ROUNDS):
        _check_round(layer, made, rng, d_model)


def _check_round(layer, made, rng, d_model):
    """Each sentence alone, then the batch of all of them in each order (a rotation: sentence
    i at row (i + r) % B), the first order also with other values at its padded positions."""
    size, count = max(LENGTHS), len(LENGTHS)
    sentences = [rng.standard_normal((n, d_model)).astype(np.float32) for n in LENGTHS]
    alone = [_run(layer, made, s[None], np.ones((1, 1, len(s)), dtype=bool))[0]
             for s in sentences]                                        # (T_i, d_model) each
    for turn in range(count):
        order = [(row - turn) % count for row in range(count)]         # sentence at each row
        x = rng.standard_normal((count, size, d_model)).astype(np.float32)  # (B, T, d_model)
        mask = np.zeros((count, 1, size), dtype=bool)                   # (B, 1, T)
        for row, i in enumerate(order):
            x[row, size - LENGTHS[i]:] = sentences[i]                   # padded on the left
            mask[row, 0, size - LENGTHS[i]:] = True
        y = _run(layer, made, x, mask)                                  # (B, T, d_model)
        if turn == 0:
            other = np.where(mask.swapaxes(1, 2), x, rng.standard_normal(x.shape)
                             ).astype(np.float32)                       # other padding
            if not _same(y, _run(layer, made, other, mask), mask):
                raise BlockContractError(message("block.ignores_mask", made=made))
        rows = [(row, i) for row, i in enumerate(order)
                if not np.allclose(alone[i], y[row, size - LENGTHS[i]:], rtol=1e-4, atol=1e-5)]
        if rows:
            row, i = rows[0]
            raise BlockContractError(message("block.batch", made=made, length=LENGTHS[i],
                                             row=row, count=count, size=size))


def _same(y, y_other, mask):
    """Whether two outputs agree at the real positions: (B, T, d) twice, mask (B, 1, T)."""
    real = mask.swapaxes(1, 2)                                          # (B, T, 1)
    return np.allclose(np.where(real, y, 0.0), np.where(real, y_other, 0.0),
                       rtol=1e-4, atol=1e-5)


def _run(layer, made, x, mask):
    """layer(x, mask=mask) as an array, its output checked: a tensor of x's shape, finite."""
    try:
        with no_grad():
            y = layer(Tensor(x), mask=mask)
    except (Exception, SystemExit) as error:
        raise BlockContractError(message("block.forward_raised", made=made, x=x.shape,
                                         mask=mask.shape, raised=raised(error))) from error
    if not isinstance(y, Tensor):
        raise BlockContractError(message("block.not_a_tensor", made=made, shape=x.shape,
                                         type=type(y).__name__))
    if y.shape != x.shape:
        raise BlockContractError(message("block.shape", made=made, found=y.shape,
                                         shape=x.shape))
    if not np.isfinite(y.data).all():
        raise BlockContractError(message("block.not_finite", made=made))
    return y.data
