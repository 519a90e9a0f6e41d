"""The block check (seq2seq/models/block_contract.py) against blocks that treat a sentence one
way alone and another way in a batch only now and then: in batches of more than two, at rows
from the third on, on rows with three or more padding positions, after a few calls, at a
d_model other than the check's old one, or in batches longer than four. Each adds a vector that
varies across features (a constant offset would be removed by the encoder's final LayerNorm)."""

import numpy as np
import pytest

from minigrad import Tensor
from attention import EncoderBlock
from seq2seq.models.block_contract import BlockContractError
from seq2seq.models.transformer import Transformer


def varying(x):
    """A vector that differs from feature to feature: (d_model,)."""
    return Tensor(np.linspace(-1.0, 1.0, x.shape[-1]).astype(x.data.dtype))


def batch_mean(x, mask):
    """The batch's mean over its real positions: (d_model,)."""
    real = np.swapaxes(mask, 1, 2).astype(x.data.dtype)                 # (B, T, 1)
    return Tensor((x.data * real).sum(axis=(0, 1)) / real.sum())        # (d_model,)


class WhenBatchOfThree(EncoderBlock):
    def forward(self, x, mask=None):
        y = super().forward(x, mask)
        return y + varying(x) if x.shape[0] > 2 else y


class FromThirdRow(EncoderBlock):
    def forward(self, x, mask=None):
        rows = (np.arange(x.shape[0]) >= 2)[:, None, None]              # (B, 1, 1)
        return super().forward(x, mask) + varying(x) * Tensor(rows.astype(x.data.dtype))


class WhenThreePadded(EncoderBlock):
    def forward(self, x, mask=None):
        padded = ((~mask).sum(axis=(1, 2)) >= 3)[:, None, None]         # (B, 1, 1)
        return super().forward(x, mask) + varying(x) * Tensor(padded.astype(x.data.dtype))


class AfterFourCalls(EncoderBlock):
    calls = 0

    def forward(self, x, mask=None):
        self.calls += 1
        y = super().forward(x, mask)
        return y + batch_mean(x, mask) if self.calls > 4 else y


class NotAtEight(EncoderBlock):
    def forward(self, x, mask=None):
        y = super().forward(x, mask)
        return y + batch_mean(x, mask) if x.shape[-1] != 8 else y


class LongerThanFour(EncoderBlock):
    def forward(self, x, mask=None):
        y = super().forward(x, mask)
        return y + varying(x) if x.shape[1] > 4 else y


@pytest.mark.parametrize("block", [WhenBatchOfThree, FromThirdRow, WhenThreePadded,
                                   AfterFourCalls, NotAtEight, LongerThanFour])
def test_a_block_that_mixes_sentences_only_now_and_then_is_refused(block):
    with pytest.raises(BlockContractError, match="depends on the other sentences of its batch"):
        Transformer(11, 13, d_model=16, heads=4, layers=1, d_ff=24, block=block)


def test_the_check_makes_the_block_at_the_runs_sizes():
    made = []

    class Records(EncoderBlock):
        def __init__(self, *sizes, norm_first=True):
            made.append(sizes[:3])
            super().__init__(*sizes, norm_first=norm_first)

    Transformer(11, 13, d_model=16, heads=4, layers=1, d_ff=24, block=Records)
    assert made[0] == (16, 4, 24)


def test_the_project_block_passes_the_check_at_a_larger_size_quickly():
    import time
    start = time.perf_counter()
    Transformer(11, 13, d_model=128, heads=8, layers=1, d_ff=512, block=EncoderBlock)
    assert time.perf_counter() - start < 2.0
