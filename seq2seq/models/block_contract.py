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
in a batch. `check_block` makes a block with tiny sizes and checks, before any training: that
it is made, that its output has x's shape and is finite, that changing the padded
positions of x changes nothing at the real ones (a block that ignores the mask fails that),
and that each sentence's output alone is its rows' output in a batch with a sentence of another
length (a block that mixes the batch's sentences, adding their mean say, fails that: it too
would translate a sentence one way alone and another way in a batch).
"""

import numpy as np

from minigrad import Tensor, nn, no_grad
from seq2seq.models.recurrent import raised

D_MODEL, HEADS, D_FF = 8, 2, 16             # the check's sizes: small, two heads


class BlockContractError(ValueError):
    """A block class that does not meet the contract above; the message says how."""


def check_block(block, norm_first=True):
    """Make `block` with the check's sizes and run it on a padded batch; a BlockContractError
    that names the class and what is wrong, else None."""
    name = getattr(block, "__name__", type(block).__name__)
    if not isinstance(block, type):
        raise BlockContractError(f"block should be an encoder block's class, not a {name}")
    made = f"{name}({D_MODEL}, {HEADS}, {D_FF}, 0.0, norm_first={norm_first})"
    try:
        layer = block(D_MODEL, HEADS, D_FF, 0.0, norm_first=norm_first)
    except (Exception, SystemExit) as error:    # the user's code (a sys.exit() too)
        raise BlockContractError(f"{made} {raised(error)}") from error
    if not isinstance(layer, nn.Module):
        raise BlockContractError(f"{name} should be a minigrad nn.Module (its parameters are "
                                 f"trained and saved with the model's), not a {type(layer)}")
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 4, D_MODEL)).astype(np.float32)         # (B, T, d_model)
    mask = np.ones((2, 1, 4), dtype=bool)                               # (B, 1, T)
    mask[0, 0, :2] = False                                              # padded on the left
    other = x.copy()
    other[0, :2] = rng.standard_normal((2, D_MODEL))                    # other padding
    y, y_other = (_run(layer, made, v, mask) for v in (x, other))
    if not np.allclose(y[0, 2:], y_other[0, 2:], rtol=1e-4, atol=1e-5):
        raise BlockContractError(
            f"{made} ignores the mask: changing the padded positions of an example changed its "
            f"output at the real ones; forward(x, mask) must attend only where mask is True "
            f"(mask (B, 1, T), False at padding)")
    alone = [_run(layer, made, x[i:i + 1, start:], np.ones((1, 1, 4 - start), dtype=bool))
             for i, start in ((0, 2), (1, 0))]                          # (1, T_i, d_model)
    if not all(np.allclose(a[0], y[i, start:], rtol=1e-4, atol=1e-5)
               for a, (i, start) in zip(alone, ((0, 2), (1, 0)))):
        raise BlockContractError(
            f"{made} depends on the other sentences of its batch: a sentence alone gave other "
            f"outputs than its rows in a batch with a sentence of another length; forward(x, "
            f"mask) must treat each sentence on its own (no mean or norm across the batch)")


def _run(layer, made, x, mask):
    """layer(x, mask=mask) as an array, its output checked: a tensor of x's shape, finite."""
    try:
        with no_grad():
            y = layer(Tensor(x), mask=mask)
    except (Exception, SystemExit) as error:
        raise BlockContractError(f"{made}: forward(x {x.shape}, mask={mask.shape}) "
                                 f"{raised(error)}") from error
    if not isinstance(y, Tensor):
        raise BlockContractError(f"{made}: forward(x, mask) should return a Tensor of x's shape "
                                 f"{x.shape}, not a {type(y).__name__}")
    if y.shape != x.shape:
        raise BlockContractError(f"{made}: forward(x, mask) returned shape {y.shape}, where x's "
                                 f"shape {x.shape} (B, T, d_model) belongs")
    if not np.isfinite(y.data).all():
        raise BlockContractError(f"{made}: forward(x, mask) returned NaN or infinite values")
    return y.data
