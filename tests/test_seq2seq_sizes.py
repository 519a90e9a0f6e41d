"""Sizes nobody meant are refused before anything is allocated: the parameter count the check
uses is the model's own, and a run that would not fit in memory is one line naming the setting,
written before the model exists (and before the run folder does)."""

import numpy as np
import pytest

from minigrad.memory import available_bytes
from minigrad.settings import SettingError
from seq2seq.commands import sizes
from seq2seq.commands.cli import main
from seq2seq.models.rnn import Seq2Seq


@pytest.mark.parametrize("attention,wiring,bidirectional", [
    (None, "luong", False), ("dot", "luong", False), ("general", "luong", True),
    ("additive", "bahdanau", False), ("uniform", "bahdanau", True)])
def test_the_shapes_and_parameter_count_are_the_models_own(attention, wiring, bidirectional):
    model = Seq2Seq(11, 13, embed_size=5, hidden_size=7, attention=attention, wiring=wiring,
                    bidirectional=bidirectional)
    assert sizes.expected_shapes(**model.config) == {
        name: array.shape for name, array in model.state_dict().items()}
    assert sizes.parameter_count(**model.config) == sum(p.data.size for p in model.parameters())


def test_available_memory_is_read_where_the_system_says_it():
    available = available_bytes()
    assert available is None or 2 ** 20 < available < 2 ** 50


@pytest.fixture
def one_gib(monkeypatch):
    """A machine with 1 GiB of memory available, whatever this one has."""
    monkeypatch.setattr(sizes, "memory_limit", lambda: 2 ** 30)


@pytest.fixture
def no_model(monkeypatch):
    """Building the model fails the test: a refusal must come before it (and a test of a size
    too large must never allocate it, whatever the code under test does)."""
    monkeypatch.setattr(Seq2Seq, "__init__", lambda *a, **k: pytest.fail("model built"))


def train_args(tmp_path, *more):
    return ["train", "--task", "reverse", "--num-examples", "50", "--epochs", "1",
            "--hidden-size", "8", "--out", str(tmp_path / "run"), "--no-progress", *more]


def test_an_embed_size_that_cannot_fit_is_one_line_naming_it_before_any_allocation(
        tmp_path, one_gib, no_model, capsys):
    assert main(train_args(tmp_path, "--embed-size", "10000000")) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("error: --embed-size 10000000 is too large: training needs about ")
    assert "more than the 1.0 GiB of memory available" in err
    assert not (tmp_path / "run").exists()


def test_the_setting_furthest_above_its_usual_value_is_the_one_named(tmp_path, one_gib, no_model,
                                                                    capsys):
    assert main(train_args(tmp_path, "--hidden-size", "20000")) == 1
    assert capsys.readouterr().err.startswith("error: --hidden-size 20000 is too large")


def test_a_batch_larger_than_the_data_counts_as_the_data(tmp_path, one_gib, capsys):
    assert main(train_args(tmp_path, "--batch-size", "10000000")) == 0       # 45 pairs a batch


def test_a_batch_size_above_any_data_set_is_refused_at_once(tmp_path, no_model, capsys):
    assert main(train_args(tmp_path, "--batch-size", "1000000000")) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("error: --batch-size ") and "10000000" in err, err
    assert not (tmp_path / "run").exists()


def test_a_model_that_fits_trains(tmp_path, one_gib):
    assert main(train_args(tmp_path, "--embed-size", "8")) == 0
    assert (tmp_path / "run" / "checkpoint.npz").exists()


def test_the_estimate_grows_with_each_size():
    config = dict(embed_size=16, hidden_size=32, batch_size=64, attention="dot")
    base = sizes.activation_floats(config, 1000, 10, 12, 50)
    for name in ("embed_size", "hidden_size", "batch_size"):
        assert sizes.activation_floats(dict(config, **{name: 2 * config[name]}),
                                       1000, 10, 12, 50) > base
    assert sizes.activation_floats(config, 10, 10, 12, 50) < base     # 10 examples: a batch of 10
    assert (sizes.parameter_count(50, 60, 16, 32, None, bidirectional=True)
            - sizes.parameter_count(50, 60, 16, 32, None)) == 4 * 32 * (16 + 32) + 8 * 32


def test_numpy_integer_sizes_of_a_checkpoint_do_not_overflow_into_a_small_estimate(one_gib):
    config = dict(src_vocab_size=np.int64(10 ** 9), tgt_vocab_size=np.int64(10 ** 9),
                  embed_size=np.int64(10 ** 10), hidden_size=np.int64(8), attention="dot")
    with pytest.raises(SettingError, match=r"^embed_size 10000000000 is too large: its "
                                           r"20,000,000,657,000,000,640 weights"):
        sizes.check_inference(config)
