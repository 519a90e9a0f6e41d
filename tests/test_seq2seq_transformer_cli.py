"""`train --arch transformer`: its options checked as the others are (one line each, before any
work), the options of one model refused with the other, the settings recorded in the checkpoint,
`--resume` giving the weights of an uninterrupted run (warm-up schedule included), and
evaluate and translate (greedy and beam) loading the run."""

import argparse
import json

import numpy as np
import pytest

import minigrad
from seq2seq.commands import sizes
from seq2seq.commands.cli import main
from seq2seq.models.transformer import Transformer

TINY = ["--task", "copy", "--num-examples", "60", "--epochs", "1", "--arch", "transformer",
        "--d-model", "8", "--heads", "2", "--d-ff", "16", "--layers", "1", "--batch-size", "16",
        "--no-progress"]


def one_error_line(capsys):
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


@pytest.mark.parametrize("options, message", [
    (["--heads", "3"], "--heads 3 does not divide --d-model 8"),
    (["--dropout", "nan"], "--dropout must be a finite number in [0, 1), got nan"),
    (["--dropout", "1"], "--dropout must be a finite number in [0, 1), got 1"),
    (["--label-smoothing", "nan"], "--label-smoothing must be a finite number in [0, 1)"),
    (["--layers", "0"], "--layers must be an integer in [1, 100], got 0"),
    (["--warmup", "-1"], "--warmup must be an integer in [0, 1000000000], got -1"),
    (["--warmup", "10" * 10], "--warmup must be an integer in [0, 1000000000], got 1010"),
    (["--warmup", "10", "--lr-decay", "0.5"], "--warmup sets the learning rate at every update"),
    (["--lr-decay", "0.5"], "--warmup 0: no warm-up, a rate that --lr-decay lowers"),
    (["--rnn", "gru.py:GRU"], "--rnn applies to --arch lstm only"),
    (["--attention", "dot"], "--attention applies to --arch lstm only"),
    (["--hidden-size", "32"], "--hidden-size applies to --arch lstm only"),
    (["--composed"], "--composed applies to --arch lstm only"),
    (["--bidirectional"], "--bidirectional applies to --arch lstm only"),
])
def test_transformer_options_are_checked_in_one_line_before_any_work(tmp_path, capsys, options,
                                                                      message):
    out = tmp_path / "run"
    assert main(["train", *TINY, "--out", str(out), *options]) == 1
    assert message in one_error_line(capsys)
    assert not out.exists()


@pytest.mark.parametrize("option, value", [("--heads", "2"), ("--layers", "1"),
                                           ("--norm", "post"), ("--warmup", "10"),
                                           ("--positions", "learned")])
def test_the_transformers_options_are_refused_with_the_lstm(tmp_path, capsys, option, value):
    out = tmp_path / "run"
    assert main(["train", "--task", "copy", "--epochs", "1", "--out", str(out), option,
                 value]) == 1
    assert f"{option} applies to --arch transformer only" in one_error_line(capsys)


def test_a_model_too_large_for_memory_is_refused_naming_d_model(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(sizes, "memory_limit", lambda: 2 ** 30)
    monkeypatch.setattr("seq2seq.commands.train.Transformer", None)    # never built
    out = tmp_path / "run"
    assert main(["train", *TINY[:-9], "--d-model", "100000", "--heads", "1", "--out",
                 str(out)]) == 1
    assert "--d-model 100000 is too large" in one_error_line(capsys)


def test_sequences_too_long_for_memory_are_blamed_on_max_len_not_on_embed_size(
        tmp_path, capsys, monkeypatch):
    """The Transformer's config holds the --embed-size it never uses; the long sequences were
    blamed on it."""
    monkeypatch.setattr(sizes, "memory_limit", lambda: 2 ** 30)
    monkeypatch.setattr("seq2seq.commands.train.Transformer", None)    # never built
    assert main(["train", "--arch", "transformer", "--task", "sort", "--min-len", "1000",
                 "--max-len", "1000", "--num-examples", "200", "--out",
                 str(tmp_path / "run")]) == 1
    assert "--max-len 1000 is too large: training needs about" in one_error_line(capsys)


@pytest.mark.parametrize("settings", [dict(norm="pre", positions="sinusoidal", max_len=9),
                                      dict(norm="post", positions="learned", max_len=9)])
def test_the_expected_shapes_are_the_transformers_own(settings):
    model = Transformer(11, 13, d_model=8, heads=2, layers=3, d_ff=5, **settings)
    assert sizes.expected_shapes(**model.config) == {
        name: array.shape for name, array in model.state_dict().items()}
    assert sizes.parameter_count(**model.config) == model.num_parameters()


def test_the_command_lines_epochs_and_lr_are_the_archs_own_unless_written():
    from seq2seq.commands.arch import TRAINING_DEFAULTS
    from seq2seq.commands.train_options import add_train_options, config_from
    parser = argparse.ArgumentParser()
    add_train_options(parser)
    for arch, defaults in TRAINING_DEFAULTS.items():
        config = config_from(parser.parse_args(["--arch", arch]))
        assert (config.epochs, config.lr) == (defaults["epochs"], defaults["lr"])
    config = config_from(parser.parse_args(["--arch", "transformer", "--epochs", "7"]))
    assert (config.epochs, config.lr) == (7, TRAINING_DEFAULTS["transformer"]["lr"])


def weights(out):
    return minigrad.load(out / "checkpoint.npz")["model"]


def test_a_run_records_its_settings_resumes_exactly_and_evaluate_and_translate_load_it(
        tmp_path, capsys):
    whole, part = tmp_path / "whole", tmp_path / "part"
    options = [*TINY, "--warmup", "5", "--label-smoothing", "0.1", "--norm", "post"]
    assert main(["train", *options, "--epochs", "2", "--out", str(whole)]) == 0
    assert main(["train", *options, "--out", str(part)]) == 0
    assert main(["train", "--resume", "--epochs", "2", "--out", str(part), "--no-progress"]) == 0
    capsys.readouterr()
    saved = minigrad.load(part / "checkpoint.npz")
    assert {k: saved["config"][k] for k in ("arch", "d_model", "heads", "layers", "d_ff",
                                            "norm", "positions", "warmup", "dropout")} == dict(
        arch="transformer", d_model=8, heads=2, layers=1, d_ff=16, norm="post",
        positions="sinusoidal", warmup=5, dropout=0.0)
    assert saved["model_config"]["d_model"] == 8 and saved["model_config"]["norm"] == "post"
    for name, array in weights(whole).items():
        np.testing.assert_array_equal(weights(part)[name], array, err_msg=name)

    assert main(["evaluate", str(part), "--json", "--beam-size", "2"]) == 0
    scores = json.loads(capsys.readouterr().out)
    assert scores["examples"] > 0 and scores["seen_in_training"] == 0
    for beam in ("1", "3"):
        assert main(["translate", str(part), "12345", "--beam-size", beam]) == 0
        assert capsys.readouterr().out.strip()


def test_resuming_a_transformer_run_refuses_a_change_of_its_shape(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["train", *TINY, "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["train", "--resume", "--epochs", "2", "--out", str(out), "--heads", "4"]) == 1
    assert "--heads 4 (saved: 2)" in one_error_line(capsys)
    assert main(["train", "--resume", "--epochs", "2", "--out", str(out),
                 "--bidirectional"]) == 1
    assert "--bidirectional applies to --arch lstm only" in one_error_line(capsys)


def test_translate_refuses_a_plot_of_more_heatmaps_than_a_grid_draws_before_translating(
        tmp_path, capsys, monkeypatch):
    import attention.figures
    out = tmp_path / "run"
    assert main(["train", *TINY, "--out", str(out)]) == 0           # 1 layer of 2 heads
    capsys.readouterr()
    monkeypatch.setattr(attention.figures, "MAX_PANELS", 1)
    assert main(["translate", str(out), "123", "--plot", str(tmp_path / "h.png")]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""                                       # nothing translated first
    assert captured.err.strip() == (
        "error: --plot: 1 layer of 2 heads make 2 heatmaps, and a grid draws at most 1: draw "
        "some of them with attention.figures.plot_heads")
    assert not (tmp_path / "h.png").exists()
    monkeypatch.undo()
    assert main(["translate", str(out), "123", "--plot", str(tmp_path / "h.png")]) == 0
    assert (tmp_path / "h.png").exists()
