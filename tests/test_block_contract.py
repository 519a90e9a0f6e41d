"""The block check (seq2seq/models/block_contract.py): a block class that breaks the contract is
refused saying how, and so are blocks that treat a sentence one way alone and another way in a
batch only now and then: in batches of more than two, at rows from the third on, on rows with
three or more padding positions, after a few calls, at a d_model other than the check's old
one, or in batches longer than four. Each adds a vector that
varies across features (a constant offset would be removed by the encoder's final LayerNorm)."""

import numpy as np
import pytest

from minigrad import Tensor, nn
from attention import EncoderBlock
from seq2seq.commands.cli import main
from seq2seq.models.block_contract import BlockContractError, check_block
from seq2seq.models.transformer import Transformer
from tests.reference.attention_reference import Block
from tests.test_block_file import TINY, defining, one_error_line

# ---- blocks that break the contract ------------------------------------------------------------

class NotAModule:
    def __init__(self, *sizes, norm_first=True):
        pass


class Breaks(nn.Module):
    def __init__(self, d_model, nhead, dim_feedforward, dropout, norm_first=True):
        raise ValueError("no")


class Halves(Block):
    def forward(self, x, mask=None):
        return super().forward(x, mask)[..., : x.shape[-1] // 2]


class NoMask(Block):
    def forward(self, x, mask=None):
        return super().forward(x)


class BatchMean(Block):
    """Adds the batch's mean over its real positions: blind to padding, not to the batch."""

    def forward(self, x, mask=None):
        real = np.swapaxes(mask, 1, 2).astype(x.data.dtype)            # (B, T, 1)
        mean = (x.data * real).sum(axis=(0, 1)) / real.sum()            # (d_model,)
        return super().forward(x, mask) + Tensor(mean)


class Pair(Block):
    def forward(self, x, mask=None):
        return super().forward(x, mask), None


class Infinite(Block):
    def forward(self, x, mask=None):
        return super().forward(x, mask) / 0.0


@pytest.mark.parametrize("block, words", [
    (Block(8, 2, 16), "block should be an encoder block's class, not a Block"),
    (NotAModule, "norm_first=True) made a NotAModule, not a minigrad nn.Module: make NotAModule "
                 "a subclass of nn.Module"),
    (Breaks, "Breaks(8, 2, 16, 0.0, norm_first=True) raised ValueError: no"),
    (Halves, "forward(x, mask) returned shape (1, 8, 4), where x's shape (1, 8, 8)"),
    (NoMask, "ignores the mask: changing the padded positions of an example changed its "
             "output at the real ones"),
    (Pair, "forward(x, mask) should return a Tensor of x's shape (1, 8, 8), not a tuple"),
    (BatchMean, "BatchMean(8, 2, 16, 0.0, norm_first=True) depends on the other sentences of "
                "its batch: a sentence alone gave other outputs than its rows in a batch"),
    (Infinite, "returned NaN or infinite values"),
])
@pytest.mark.filterwarnings("ignore:divide by zero")
def test_a_block_that_breaks_the_contract_is_refused_saying_how(block, words):
    with pytest.raises(BlockContractError) as caught:
        Transformer(11, 13, d_model=8, heads=2, layers=1, d_ff=16, block=block)
    assert words in str(caught.value)


def test_the_check_uses_the_runs_norm_order():
    class PreOnly(Block):
        def __init__(self, *sizes, norm_first=True):
            if not norm_first:
                raise NotImplementedError("post-norm")
            super().__init__(*sizes, norm_first=norm_first)

    check_block(PreOnly, norm_first=True)
    with pytest.raises(BlockContractError, match="norm_first=False"):
        check_block(PreOnly, norm_first=False)


# ---- blocks that mix sentences only now and then ------------------------------------------------

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


def test_the_project_block_passes_the_check_at_a_larger_size():
    model = Transformer(11, 13, d_model=128, heads=8, layers=1, d_ff=512, block=EncoderBlock)
    assert model.encoder.layers[0].self_attn.num_heads == 8


# ---- at the run's sizes ------------------------------------------------------------------------

class ShortAtRealSizes(Block):
    """Right at d_model 8, wrong at the run's: the check makes the block at the run's sizes."""

    def forward(self, x, mask=None):
        y = super().forward(x, mask)
        return y if x.shape[-1] == 8 else y[:, :1]


def test_a_block_wrong_only_at_the_runs_sizes_is_named_by_the_check(tmp_path, capsys,
                                                                     forget_layer_modules):
    """Blamed once on the decoder's cross-attention, then let through by a check at d 8."""
    (tmp_path / "short.py").write_text(defining("ShortAtRealSizes"))
    assert main(["train", *TINY, "--d-model", "16", "--block", f"{tmp_path}/short.py:Block",
                 "--out", str(tmp_path / "new")]) == 1
    line = one_error_line(capsys)
    assert ("Block(16, 2, 16, 0.0, norm_first=True): forward(x, mask) returned "
            "shape (1, 1, 16), where x's shape (1, 8, 16)") in line


class HugeAtRealSizes(Block):
    """Small at the check's sizes; at the run's, a weight whose checkpoint would pass 4 GiB."""

    def __init__(self, d_model, *args, **kwargs):
        super().__init__(d_model, *args, **kwargs)
        if d_model != 8:
            self.extra = nn.Parameter(np.empty((16_000, 16_000)))      # 2 GB, never touched


def test_a_block_too_large_to_save_at_the_runs_sizes_is_refused_before_training(
        tmp_path, capsys, monkeypatch, forget_layer_modules):
    """It trained for half a minute, then could not save, and left a folder behind."""
    (tmp_path / "huge.py").write_text(defining("HugeAtRealSizes"))
    out = tmp_path / "new"
    assert main(["train", *TINY, "--d-model", "16", "--block", f"{tmp_path}/huge.py:Block",
                 "--out", str(out)]) == 1
    line = one_error_line(capsys)
    assert "huge.py:Block: the model has 256,0" in line and "a checkpoint may hold" in line
    assert not out.exists()


# ---- the class a --block file names -------------------------------------------------------------

@pytest.mark.parametrize("name, source", [
    ("__class__", "from attention import EncoderBlock\n\n\nclass Block(EncoderBlock):\n    pass\n"),
    ("__loader__", "x = 1\n"),
    ("EncoderBlock", "from attention import EncoderBlock  # noqa: F401\n"),
])
def test_a_block_name_that_is_not_a_class_of_the_file_is_refused_in_one_line(
        tmp_path, capsys, forget_layer_modules, name, source):
    (tmp_path / "mine.py").write_text(source)
    assert main(["train", "--arch", "transformer", "--block", f"{tmp_path}/mine.py:{name}",
                 "--num-examples", "40", "--epochs", "1", "--d-model", "8", "--heads", "2",
                 "--d-ff", "16", "--out", str(tmp_path / "run"), "--no-progress"]) == 1
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --block "), lines
    assert f"{name} is not a class defined in {tmp_path}/mine.py" in lines[0]
    assert "TypeError" not in lines[0] and not (tmp_path / "run").exists()
