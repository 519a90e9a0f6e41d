"""`train --resume` of a Transformer run: with dropout the resumed run gives the uninterrupted
run's weights bit for bit (each epoch's masks come from the seed and the epoch), a changed
--dropout is applied, and the warm-up schedule goes on from the updates made, whatever the
--batch-size of the earlier epochs."""

import math

import numpy as np

import minigrad
from seq2seq.commands.cli import main

TINY = ["--task", "sort", "--num-examples", "60", "--arch", "transformer", "--d-model", "16",
        "--heads", "2", "--d-ff", "16", "--layers", "1", "--batch-size", "16", "--no-progress"]


def saved(out):
    return minigrad.load(out / "checkpoint.npz")


def test_a_run_with_dropout_resumed_after_one_epoch_has_the_uninterrupted_runs_weights(tmp_path):
    whole, part = tmp_path / "whole", tmp_path / "part"
    options = [*TINY, "--dropout", "0.3", "--warmup", "5"]
    assert main(["train", *options, "--epochs", "2", "--out", str(whole)]) == 0
    assert main(["train", *options, "--epochs", "1", "--out", str(part)]) == 0
    minigrad.manual_seed(123)           # whatever the generator holds when the resume starts
    assert main(["train", "--resume", "--epochs", "2", "--out", str(part), "--no-progress"]) == 0
    for name, array in saved(whole)["model"].items():
        np.testing.assert_array_equal(saved(part)["model"][name], array, err_msg=name)
    assert [e["loss"] for e in saved(whole)["history"]] == [
        e["loss"] for e in saved(part)["history"]]


def test_resuming_with_another_dropout_trains_with_it_and_records_it(tmp_path):
    same, changed = tmp_path / "same", tmp_path / "changed"
    for out in (same, changed):
        assert main(["train", *TINY, "--epochs", "1", "--out", str(out)]) == 0
    assert main(["train", "--resume", "--epochs", "2", "--out", str(same), "--no-progress"]) == 0
    assert main(["train", "--resume", "--epochs", "2", "--out", str(changed), "--no-progress",
                 "--dropout", "0.5"]) == 0
    state = saved(changed)
    assert state["model_config"]["dropout"] == 0.5 and state["config"]["dropout"] == 0.5
    assert state["history"][-1]["changed"]["dropout"] == [0.0, 0.5]
    assert state["history"][-1]["loss"] != saved(same)["history"][-1]["loss"]


def test_a_resume_with_another_batch_size_goes_on_with_the_warm_up_from_the_updates_made(
        tmp_path):
    out = tmp_path / "run"
    assert main(["train", *TINY, "--warmup", "1000", "--epochs", "1", "--out", str(out)]) == 0
    first = max(s["step"] for s in saved(out)["optimizer"]["state"].values())
    assert main(["train", "--resume", "--epochs", "2", "--out", str(out), "--no-progress",
                 "--batch-size", "4"]) == 0
    state = saved(out)
    updates = max(s["step"] for s in state["optimizer"]["state"].values())
    assert updates > 4 * first                      # batches of 4, where the first had 16
    peak, warmup = state["config"]["lr"], 1000
    scale = peak * math.sqrt(16 * warmup)           # NoamLR's base lr, scaled to --lr at its peak
    k = updates + 1                                 # the lr saved is the next update's
    expected = scale * 16 ** -0.5 * min(k ** -0.5, k * warmup ** -1.5)
    assert math.isclose(state["optimizer"]["param_groups"][0]["lr"], expected, rel_tol=1e-12)


def test_a_resume_with_another_lr_warms_up_to_it(tmp_path):
    """The new --lr was recorded, but the schedule kept the checkpoint's base: the weights were
    those of a resume without it."""
    same, changed = tmp_path / "same", tmp_path / "changed"
    for out in (same, changed):
        assert main(["train", *TINY, "--warmup", "20", "--epochs", "1", "--out", str(out)]) == 0
    assert main(["train", "--resume", "--epochs", "2", "--out", str(same), "--no-progress"]) == 0
    assert main(["train", "--resume", "--epochs", "2", "--out", str(changed), "--no-progress",
                 "--lr", "0.1"]) == 0
    state = saved(changed)
    assert state["config"]["lr"] == 0.1
    assert math.isclose(state["optimizer"]["param_groups"][0]["initial_lr"],
                        0.1 * math.sqrt(16 * 20), rel_tol=1e-12)
    assert state["history"][-1]["loss"] != saved(same)["history"][-1]["loss"]
