"""compare-norms (seq2seq.papers.norms): the Transformer pre-norm and post-norm, each with and
without a learning-rate warm-up, trained alike for the same number of updates and scored as
`evaluate` scores them on the held-out pairs. Tiny settings check the command (its errors, its
folder, its curves and scores); the slow test checks Xiong et al.'s claim on a small seeded run."""

import dataclasses
import json
import math

import numpy as np
import pytest

from seq2seq.commands.cli import main
from seq2seq.commands.epoch import run_epoch
from seq2seq.commands.train import build, task_pairs
from seq2seq.data.batching import encode_source, encode_target
from seq2seq.papers.norms import MODELS, compare_norms, norms_config
from seq2seq.translator import load_translator

from test_runs import one_error_line, quiet

TINY = ["--seeds", "0,1", "--updates", "4", "--every", "2", "--layers", "2", "--num-examples",
        "120", "--max-len", "5", "--warmup", "2"]


@pytest.mark.parametrize("argv,words", [
    (["--task", "toy-ja-en"], "--task must be one of reverse, copy, sort (a digit task), got "
     "'toy-ja-en'"),
    (["--seeds", "0,0"], "--seeds must name 1 to 10 different seeds, got '0,0'"),
    (["--seeds", "0,x"], "--seeds must be whole numbers separated by commas, got '0,x'"),
    (["--updates", "0"], "--updates must be an integer in [1, 1000000], got 0"),
    (["--every", "0"], "--every must be an integer in [1, 1000000], got 0"),
    (["--updates", "10", "--every", "20"], "--every 20 is more than --updates 10: the curve "
     "would have no point"),
    (["--layers", "0"], "--layers must be an integer"),
    (["--lr", "0"], "--lr must be a finite number"),
    (["--warmup", "0"], "--warmup must be an integer in [1, 1000000], got 0 (the warm-up of the "
     "models that have one; the others have none)"),
    (["--updates", "100", "--warmup", "100"], "--warmup 100 is not below --updates 100: the "
     "models with a warm-up would never reach --lr"),
    (["--min-len", "9"], "--min-len 9 is above --max-len 8"),
    (["--num-examples", "99"], "--num-examples must be at least 100 for compare-norms, got 99"),
])
def test_bad_options_are_one_line_and_nothing_is_made(tmp_path, capsys, argv, words):
    out = tmp_path / "experiment"
    assert main(["compare-norms", *argv, "--out", str(out)]) == 1
    assert words in one_error_line(capsys)
    assert not out.exists()


def test_watch_sees_each_update_s_loss_and_its_gradients_before_they_are_clipped(tmp_path):
    """The loss curve and the gradient norms come from run_epoch's `watch`: called once per
    update, after backward and before clipping (here to 1e-3, far below any gradient's norm)."""
    config = norms_config(tmp_path, "post", True, 0, layers=1, num_examples=120, max_len=5)
    config = dataclasses.replace(config, clip=1e-3, batch_size=32)
    pairs = task_pairs(config)
    translator = build(config, pairs)
    model = translator.model
    examples = [(encode_source(s, translator.src_vocab, translator.level),
                 encode_target(t, translator.tgt_vocab, translator.level)) for s, t in pairs]
    from minigrad.optim import SGD
    seen = []

    def watch(watched, loss):
        norm = math.sqrt(sum(float((p.grad ** 2).sum()) for p in watched.parameters()
                             if p.grad is not None))
        seen.append((loss, norm))
    mean = run_epoch(model, SGD(model.parameters(), lr=0.0), examples, config,
                     np.random.default_rng(0), 0, quiet, watch=watch)
    assert len(seen) == 4                                   # 120 pairs in batches of 32
    assert mean == pytest.approx(sum(loss for loss, _ in seen) / 4)
    assert all(norm > 0.01 for _, norm in seen)            # not yet clipped to 1e-3


def test_the_command_trains_four_models_alike_scores_them_and_owns_its_folder(tmp_path, capsys):
    out = tmp_path / "norms"
    assert main(["compare-norms", *TINY, "--out", str(out)]) in (0, None)
    printed = capsys.readouterr().out
    assert "post-norm, no warm-up" in printed
    result = json.loads((out / "compare-norms.json").read_text(encoding="utf-8"))
    assert (result["experiment"], result["task"], result["seeds"]) == (
        "compare-norms", "reverse", [0, 1])
    assert (result["updates"], result["every"], result["layers"], result["warmup"]) == (4, 2, 2, 2)
    assert list(result["models"]) == list(MODELS) == [
        "pre-warmup", "pre-no-warmup", "post-warmup", "post-no-warmup"]
    for name, runs in result["models"].items():
        assert list(runs) == ["0", "1"]
        for seed, row in runs.items():
            run = out / f"{name}-{seed}"
            config = load_translator(run)[1]["config"]
            assert (config["norm"], config["layers"]) == (name.split("-")[0], 2)
            assert config["warmup"] == (0 if "no-warmup" in name else 2)
            assert config["lr"] == 1e-2
            assert row["updates_at"] == [2, 4] and len(row["loss"]) == 2
            assert len(row["first_layer_grad_norm"]) == 2
            assert len(row["grad_norm_by_layer"]["encoder"]) == 2
            assert len(row["grad_norm_by_layer"]["decoder"]) == 2
            assert main(["evaluate", str(run), "--json"]) in (0, None)
            scores = json.loads(capsys.readouterr().out)
            assert (row["exact_match"], row["bleu"], row["examples"]) == (
                scores["exact_match"], scores["bleu"], scores["examples"])
    for seed in ("0", "1"):                 # the same weights and batches: the same first step
        first = {name: runs[seed]["grad_norm_by_layer"] for name, runs in
                 result["models"].items()}
        assert first["pre-warmup"] == first["pre-no-warmup"]
        assert first["post-warmup"] == first["post-no-warmup"]
        assert first["pre-warmup"] != first["post-warmup"]
    assert not (out / "compare-norms.png").exists()                 # no --plot

    assert main(["compare-norms", *TINY, "--out", str(out)]) in (0, None)
    assert f"replacing the earlier compare-norms run in {out}" in capsys.readouterr().out
    assert json.loads((out / "compare-norms.json").read_text())["seeds"] == [0, 1]  # re-run's
    assert not (out / ".next").exists()
    (out / "notes.txt").write_text("mine")
    assert main(["compare-norms", *TINY, "--out", str(out)]) == 1
    assert "--overwrite" in one_error_line(capsys)
    assert main(["compare-norms", *TINY, "--out", str(out), "--overwrite", "--plot"]) in (0, None)
    assert (out / "notes.txt").read_text() == "mine"
    assert (out / "compare-norms.png").read_bytes()[:4] == b"\x89PNG"


def test_a_model_that_diverges_is_recorded_as_such_and_not_scored(tmp_path):
    result = compare_norms(tmp_path, seeds=(0,), updates=4, every=2, layers=1, lr=1e4,
                           warmup=2, num_examples=120, max_len=5, log=quiet)
    rows = [runs["0"] for runs in result["models"].values()]
    assert any(row["diverged"] for row in rows)
    for row in rows:
        if row["diverged"]:
            assert row["exact_match"] is None and "lower --lr" in row["diverged"]


@pytest.mark.slow
def test_post_norm_without_warm_up_learns_nothing_at_depth_and_the_three_others_learn(tmp_path):
    """Seed 0 at the depth and rate of the docs' run (seq2seq with attention, section 5:
    reverse, 6 + 6 layers, Adam at lr 0.01), made smaller so that it costs about half as much:
    120 updates with a warm-up of 25 (not 150 and 50), sources of 3 to 5 digits (not 3 to 8),
    1,000 pairs (not 4,000; 94 held out). Measured under the SkylakeX, Zen, Haswell and
    Prescott kernels of OpenBLAS, one thread; the bounds hold in each. The updates are counted,
    not timed, so a busy machine gives the same."""
    claim_holds(compare_norms(tmp_path, seeds=(0,), updates=120, warmup=25, max_len=5,
                              num_examples=1000, log=quiet))


def claim_holds(result):
    """What the slow test asserts of a compare-norms result, seed 0's models."""
    row = {name: runs["0"] for name, runs in result["models"].items()}
    assert not any(r["diverged"] for r in row.values())
    stuck = row["post-no-warmup"]
    assert stuck["exact_match"] == 0.0 and stuck["bleu"] <= 0.05
    # it never gets below the loss of guessing each token from how often it comes (about
    # ln 10: ten digits, and <eos>), whatever the source: it learns nothing from the source
    assert min(stuck["loss"]) >= 2.2
    assert row["pre-warmup"]["exact_match"] >= 0.5
    assert row["post-warmup"]["exact_match"] >= 0.1             # the warm-up makes it train
    assert row["pre-no-warmup"]["exact_match"] >= 0.02          # pre-norm trains without one
    for name in ("pre-warmup", "post-warmup", "pre-no-warmup"):
        assert row[name]["loss"][-1] <= 0.55 * stuck["loss"][-1]
    pre, post = row["pre-warmup"]["grad_norm_by_layer"], row["post-warmup"]["grad_norm_by_layer"]
    assert post["decoder"][-1] > 1.2 * post["decoder"][0]       # post-norm: larger near the
    assert pre["decoder"][-1] < 1.1 * pre["decoder"][0]         # output; pre-norm: not
    assert stuck["first_layer_grad_norm"][-1] < 0.01            # nothing reaches the encoder
