"""The demo's claims: soft attention learns the retrieval task; hard attention's gradient with
respect to the scores and to the projection is exactly zero, so it never moves."""

import dataclasses
import sys
from pathlib import Path

import numpy as np
import pytest

from attention import dot_product_attention, hard_attention
from attention.__main__ import main
from attention.demo import DemoConfig, demo, gradient_norms, random_rotation, train


@pytest.fixture(scope="module")
def result():
    return demo(DemoConfig(steps=60), log=lambda *args: None)


def test_soft_attention_reaches_high_accuracy_and_hard_stays_at_its_start(result):
    soft, hard = result["soft"], result["hard"]
    assert soft.accuracy[0] == hard.accuracy[0] < 0.3          # the same poor start
    assert soft.accuracy[-1] >= 0.95
    assert result["ideal"] - 0.02 < soft.accuracy[-1] <= result["ideal"] + 0.01   # near W = I
    assert np.mean(soft.loss[-10:]) < 0.1 * np.mean(soft.loss[:5])
    assert hard.accuracy == [hard.accuracy[0]] * len(hard.accuracy)
    np.testing.assert_array_equal(result["hard_projection"], result["initial"])
    assert np.abs(result["soft_projection"] - result["initial"]).max() > 0.1


def test_hard_gradients_are_exactly_zero_and_soft_ones_agree_with_finite_differences(result):
    norms = result["norms"]
    for wrt in ("scores", "W"):
        assert norms["hard", wrt, "backprop"] == 0.0
        assert norms["hard", wrt, "numeric"] == 0.0
        assert norms["soft", wrt, "backprop"] > 1e-2
        backprop = norms["soft", wrt, "backprop"]
        assert norms["soft", wrt, "numeric"] == pytest.approx(backprop, rel=1e-6)


def test_the_same_initialisation_and_data_give_the_same_curves():
    config = DemoConfig(steps=5, seed=4)
    initial = random_rotation(np.random.default_rng(4), config.key_size)
    np.testing.assert_allclose(initial @ initial.T, np.eye(config.key_size), atol=1e-12)
    _, first = train(dot_product_attention, initial, config)
    _, second = train(dot_product_attention, initial, config)
    assert first.loss == second.loss and len(first.accuracy) == 6
    _, hard = train(hard_attention, initial, config)
    assert hard.accuracy[0] == first.accuracy[0]


def test_gradient_norms_on_other_seeds():
    config = DemoConfig(batch_size=16, seed=7)
    norms = gradient_norms(random_rotation(np.random.default_rng(7), config.key_size), config)
    assert norms["hard", "W", "numeric"] == 0.0 and norms["soft", "W", "numeric"] > 0


def test_command_line_writes_the_png(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    assert main(["demo", "--out", str(tmp_path), "--steps", "3", "--seed", "1"]) == 0
    png = tmp_path / "soft-vs-hard-attention.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    printed = capsys.readouterr().out
    assert "dL/dW" in printed and "final" in printed


def test_command_line_rejects_bad_steps(capsys):
    with pytest.raises(SystemExit):
        main(["demo", "--steps", "0"])
    assert "--steps must be at least 1" in capsys.readouterr().err


def test_config_is_a_dataclass():
    assert {f.name for f in dataclasses.fields(DemoConfig)} >= {"seed", "steps", "lr", "noise"}


def test_command_line_writes_the_png_under_runs_by_default_not_where_it_is_run(
        tmp_path, monkeypatch, capsys):
    pytest.importorskip("matplotlib")
    monkeypatch.chdir(tmp_path)
    assert main(["demo", "--steps", "2"]) == 0
    assert [p.name for p in tmp_path.iterdir()] == ["runs"]          # nothing beside the sources
    png = tmp_path / "runs" / "attention-demo" / "soft-vs-hard-attention.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "runs/attention-demo/soft-vs-hard-attention.png" in capsys.readouterr().out
    gitignore = Path(__file__).resolve().parent.parent / ".gitignore"  # not in the sdist
    if gitignore.exists():
        assert "runs/" in gitignore.read_text().split()              # which git does not list


def test_without_matplotlib_the_demo_says_in_one_line_to_use_the_projects_environment(
        tmp_path, monkeypatch, capsys):
    """As with a Python the project is not installed in: the error comes before the training,
    as one line naming the module and the environment, not after it as a traceback."""
    monkeypatch.setitem(sys.modules, "matplotlib", None)          # `import matplotlib` fails
    monkeypatch.delenv("MINIGRAD_DEBUG", raising=False)
    assert main(["demo", "--out", str(tmp_path), "--steps", "2"]) == 1
    printed = capsys.readouterr()
    assert printed.out == ""                                         # no work done first
    [line] = printed.err.splitlines()
    assert line.startswith(f"error: {sys.executable} has no module 'matplotlib'")
    assert ". .venv/bin/activate" in line and ".venv/bin/python -m" in line
    assert list(tmp_path.iterdir()) == []
