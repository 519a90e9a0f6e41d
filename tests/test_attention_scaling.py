"""Vaswani et al.'s reason for 1/sqrt(d_k), measured (attention.scaling): unscaled scores make
the softmax nearly one-hot and its gradient vanish as d_k grows; scaled ones do not."""

import functools
import math
from pathlib import Path

import numpy as np
import pytest

from attention import scaling
from attention.__main__ import main
from attention.scaling import ScalingConfig, entropy, measure


@pytest.fixture(scope="module")
def results():
    return measure(ScalingConfig(sizes=(1, 16, 256, 1024), queries=128, seed=0))


def test_unscaled_scores_saturate_the_softmax_and_starve_the_gradient_as_d_k_grows(results):
    unscaled, uniform = results["unscaled"], math.log(results["keys"])
    assert np.all(np.diff(unscaled["entropy"]) < 0)                 # sharper at every step
    assert unscaled["entropy"][-1] < 0.1 * uniform                  # nearly one-hot at 1024
    assert unscaled["saturated"][-1] > 0.5                          # most rows above 0.99
    assert unscaled["score_grad"][-1] < 1e-2 * unscaled["score_grad"][0]
    assert unscaled["query_grad"][-1] < 0.05 * results["scaled"]["query_grad"][-1]


def test_scaled_scores_keep_entropy_and_gradient_whatever_d_k(results):
    scaled = results["scaled"]
    assert max(scaled["entropy"]) < 1.1 * min(scaled["entropy"])
    assert max(scaled["score_grad"]) < 1.5 * min(scaled["score_grad"])
    assert scaled["saturated"] == [0.0] * len(results["d_k"])


def test_at_d_k_1_the_two_ways_are_the_same_computation(results):
    for key in ("entropy", "score_grad", "query_grad"):
        assert results["scaled"][key][0] == results["unscaled"][key][0]


def test_entropy_is_ln_n_for_uniform_weights_and_0_for_one_hot():
    assert entropy(np.full(8, 1 / 8)) == pytest.approx(math.log(8))
    assert entropy(np.eye(4)[1]) == 0.0


def test_the_command_writes_the_figure_and_never_over_a_file_unasked(tmp_path, capsys,
                                                                    monkeypatch):
    monkeypatch.setattr(scaling, "ScalingConfig",       # the measurements are tested above
                        functools.partial(ScalingConfig, sizes=(1, 1024), queries=16))
    out = tmp_path / "scaling.png"
    out.write_bytes(b"mine")
    assert main(["scaling", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert err == (f"error: {out} exists and no earlier figure wrote it; pass --overwrite "
                   "(overwrite=True from Python) to replace it\n")
    assert out.read_bytes() == b"mine"
    assert main(["scaling", "--out", str(out), "--overwrite"]) == 0
    assert out.read_bytes().startswith(b"\x89PNG")
    printed = capsys.readouterr().out
    assert "1024  unscaled" in printed and f"figure: {out}" in printed
    assert main(["scaling", "--out", str(out)]) == 0         # its own earlier figure: replaced


def test_a_path_that_cannot_be_written_is_named_as_given(capsys, monkeypatch):
    monkeypatch.setattr(scaling, "ScalingConfig",
                        functools.partial(ScalingConfig, sizes=(1, 4), queries=4))
    assert main(["scaling", "--out", ""]) == 1
    assert capsys.readouterr().err == "error: --out '': name a .png, .svg or .pdf file\n"
    if not Path("/proc/self").is_dir():
        pytest.skip("needs /proc, where no file can be made")
    assert main(["scaling", "--out", "/proc/x.png"]) == 1     # its temporary file fails first
    assert capsys.readouterr().err == ("error: cannot write '/proc/x.png': No such file or "
                                       "directory\n")


def test_the_tutorial_names_exactly_the_d_k_the_command_measures():
    doc = (Path(__file__).resolve().parent.parent / "docs" / "softmax-and-attention.md")
    sizes = ScalingConfig().sizes
    named = ", ".join(f"{d:,}" for d in sizes[:-1]) + f" and {sizes[-1]:,}"
    assert f"measures it at d_k = {named}:" in " ".join(doc.read_text().split())
