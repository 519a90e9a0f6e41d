"""A training run whose loss stops being a number stops at once, with one line saying when and
what to change, and keeps the checkpoint of its last good epoch."""

import warnings

import pytest

import minigrad
from seq2seq.cli import main
from seq2seq.train import TrainConfig, TrainingDiverged, train

TINY = dict(task="reverse", num_examples=200, min_len=3, max_len=6, embed_size=4, hidden_size=6,
            batch_size=32, progress=False, seed=0)


def test_a_loss_that_is_not_finite_stops_the_run_and_keeps_the_last_good_epoch(tmp_path):
    out = str(tmp_path / "run")
    train(TrainConfig(out=out, epochs=1, **TINY), log=lambda *a: None)
    before = minigrad.load(tmp_path / "run" / "checkpoint.npz")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(TrainingDiverged) as error:
            train(TrainConfig(out=out, epochs=3, lr=1e308, resume=True, **TINY),
                  log=lambda *a: None)
    assert [w for w in caught if issubclass(w.category, RuntimeWarning)] == []
    message = str(error.value)
    assert message.startswith("the loss became nan at epoch 2, batch ")
    assert "--lr (now 1e+308)" in message and "--clip" in message and "\n" not in message
    after = minigrad.load(tmp_path / "run" / "checkpoint.npz")
    assert len(after["history"]) == 1                   # epoch 2 was not saved
    for name, value in before["model"].items():
        assert (after["model"][name] == value).all(), name


def test_the_command_line_says_it_in_one_line_and_fails(tmp_path, capsys):
    status = main(["train", "--task", "reverse", "--num-examples", "200", "--embed-size", "4",
                   "--hidden-size", "6", "--epochs", "2", "--lr", "1e308", "--no-progress",
                   "--out", str(tmp_path / "run")])
    err = capsys.readouterr().err
    assert status == 1
    assert err.startswith("error: the loss became nan at epoch 1, batch "), err
    assert len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "run" / "checkpoint.npz").exists()
