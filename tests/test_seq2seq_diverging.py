"""A training run whose loss or gradients stop being numbers, or whose weights blow up, stops at
once, with one line saying when and what to change, and keeps the checkpoint of its last good
epoch."""

import warnings

import pytest

import minigrad
from seq2seq.commands.cli import main
from seq2seq.commands.epoch import TrainingDiverged
from seq2seq.commands.train import TrainConfig, train

TINY = dict(task="reverse", num_examples=200, min_len=3, max_len=6, embed_size=4, hidden_size=6,
            batch_size=32, progress=False, seed=0)


def test_weights_made_nan_stop_the_run_and_keep_the_last_good_epoch(tmp_path):
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
    assert message.startswith("the largest weight became nan (the bound is 1e+06) at epoch 2, "
                              "batch 1: ")
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
    assert err.startswith("error: the largest weight became nan (the bound is 1e+06) at "
                          "epoch 1, batch 1: "), err
    assert len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "run" / "checkpoint.npz").exists()


def test_weights_blown_up_with_a_finite_loss_stop_the_run_without_numpy_warnings(tmp_path,
                                                                                 capsys):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        status = main(["train", "--task", "reverse", "--num-examples", "200", "--embed-size",
                       "4", "--hidden-size", "6", "--epochs", "2", "--lr", "1e30",
                       "--no-progress", "--out", str(tmp_path / "run")])
    err = capsys.readouterr().err
    assert status == 1
    assert err == ("error: the largest weight became 1e+30 (the bound is 1e+06) at epoch 1, "
                   "batch 1: lower --lr (now 1e+30) or --clip (now 5); this epoch was not saved\n")
    assert [w for w in caught if issubclass(w.category, RuntimeWarning)] == []
    assert not (tmp_path / "run" / "checkpoint.npz").exists()


def test_a_loss_or_gradient_norm_that_is_not_finite_stops_the_run(tmp_path, monkeypatch):
    import seq2seq.commands.epoch
    from seq2seq.models.rnn import Seq2Seq
    loss = Seq2Seq.loss
    monkeypatch.setattr(Seq2Seq, "loss", lambda *args: loss(*args) * float("inf"))
    with pytest.raises(TrainingDiverged, match="^the loss became inf at epoch 1, batch 1: "):
        train(TrainConfig(out=str(tmp_path / "a"), epochs=1, **TINY), log=lambda *a: None)
    monkeypatch.setattr(Seq2Seq, "loss", loss)
    monkeypatch.setattr(seq2seq.commands.epoch, "clip_grad_norm_", lambda *args: float("nan"))
    with pytest.raises(TrainingDiverged, match="^the gradients' norm became nan at epoch 1, "
                                               "batch 1: "):
        train(TrainConfig(out=str(tmp_path / "b"), epochs=1, **TINY), log=lambda *a: None)


SMALL = ["--task", "reverse", "--num-examples", "300", "--max-len", "5", "--hidden-size", "16",
         "--embed-size", "8", "--no-progress"]


def test_a_loss_far_above_a_uniform_guess_stops_the_run_and_keeps_the_earlier_one(tmp_path,
                                                                                  capsys):
    out = tmp_path / "run"
    assert main(["train", *SMALL, "--epochs", "1", "--lr", "1e-2", "--out", str(out)]) == 0
    earlier = (out / "checkpoint.npz").read_bytes()
    capsys.readouterr()
    status = main(["train", *SMALL, "--epochs", "3", "--lr", "2e5", "--overwrite",
                   "--out", str(out)])                  # weights stay under 1e6 with Adam
    err = capsys.readouterr().err
    assert status == 1
    assert err.startswith("error: the loss became "), err
    assert "per token (the bound is 10 x ln V = 26.4, where a uniform guess among the V = 14 " \
           "target tokens scores 2.64) at epoch 1, batch " in err
    assert err.endswith("lower --lr (now 200000) or --clip (now 5); this epoch was not saved\n")
    assert len(err.strip().splitlines()) == 1, err
    assert (out / "checkpoint.npz").read_bytes() == earlier      # the earlier run is whole


def test_a_checkpoint_with_weights_beyond_max_weight_is_refused_and_resume_blames_it(tmp_path,
                                                                                    capsys):
    out = tmp_path / "run"
    assert main(["train", *SMALL, "--epochs", "1", "--out", str(out)]) == 0
    state = minigrad.load(out / "checkpoint.npz")
    state["model"]["decoder.out.weight"][0, 0] = 3e6         # beyond MAX_WEIGHT, yet finite
    minigrad.save(state, out / "checkpoint.npz")
    capsys.readouterr()
    for argv in (["translate", str(out), "123"],
                 ["train", "--out", str(out), "--resume", "--epochs", "2", "--no-progress"]):
        assert main(argv) == 1
        err = capsys.readouterr().err
        assert err.startswith(f"error: {out / 'checkpoint.npz'}: "), err
        assert "'model.decoder.out.weight' entry should be numbers no larger than 1e+06 in " \
               "size" in err and "1 of its " in err and "the largest 3e+06" in err
        assert "--lr" not in err and len(err.strip().splitlines()) == 1, err
