"""Pictures of attention weights are matplotlib Figures that show themselves in Jupyter (as a PNG,
whether or not pyplot was ever imported), are written to a file only when given a path, and
change nothing global: no pyplot, no backend chosen. `plot_heads` draws one heatmap per head of
MultiHeadAttention's weights."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import minigrad
from minigrad import Tensor
from attention import MultiHeadAttention
from attention.demo import DemoConfig, demo, plot
from attention.figures import MAX_PANELS, Figure, plot_heads, save
from seq2seq.heatmap import plot_heatmap
from seq2seq.papers.plots import plot_lengths

ROOT = Path(__file__).resolve().parent.parent
PNG = b"\x89PNG\r\n\x1a\n"


def head_weights(heads=4, tokens=5):
    minigrad.manual_seed(0)
    x = Tensor(np.random.default_rng(0).standard_normal((2, tokens, 8)).astype(np.float32))
    attention = MultiHeadAttention(8, heads)
    attention(x, x, x)
    return attention.head_weights                                       # (B, H, T, T)


def test_a_figure_gives_jupyter_its_own_png():
    figure = Figure(figsize=(2, 2))
    figure.add_subplot().plot([0, 1])
    assert figure._repr_png_()[:8] == PNG


def test_jupyter_shows_a_heatmap_as_image_png():
    formatters = pytest.importorskip("IPython.core.formatters")
    figure = plot_heatmap(np.eye(2), ["a", "b"], ["b", "a"])
    data, _ = formatters.DisplayFormatter().format(figure)
    assert data["image/png"][:8] == PNG


def test_the_heatmap_is_returned_and_written_only_when_given_a_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    figure = plot_heatmap(np.eye(2), ["a", "b"], ["b", "a"], title="ba")
    assert isinstance(figure, Figure) and list(tmp_path.iterdir()) == []
    assert figure.axes[0].get_title() == "ba"
    again = plot_heatmap(np.eye(2), ["a", "b"], ["b", "a"], tmp_path / "h.svg")
    assert isinstance(again, Figure)
    assert (tmp_path / "h.svg").read_text().lstrip().startswith("<?xml")


def test_drawing_imports_no_pyplot_and_leaves_the_backend_alone():
    code = """
import sys
import matplotlib
matplotlib.use("svg")                       # what a notebook or a script chose stays chosen
import numpy as np
import seq2seq.heatmap
from seq2seq.heatmap import plot_heatmap
from attention.figures import plot_heads
plot_heatmap(np.eye(2), ["a", "b"], ["b", "a"])._repr_png_()
plot_heads(np.full((2, 3, 3), 1 / 3))._repr_png_()
assert matplotlib.get_backend() == "svg", matplotlib.get_backend()
assert "matplotlib.pyplot" not in sys.modules
"""
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr


def test_the_text_heatmap_does_not_import_matplotlib():
    code = "import sys, seq2seq.heatmap, seq2seq.translator; assert 'matplotlib' not in sys.modules"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr


def test_plot_heads_draws_one_panel_per_head_with_its_weights():
    weights = head_weights(heads=4)[1]                                  # sentence 1: (H, T, T)
    tokens = ["the", "cat", "sat", "on", "mats"]
    figure = plot_heads(weights, tokens, tokens, title="4 heads", columns=3)
    panels = [ax for ax in figure.axes if ax.get_images()]
    assert [ax.get_title() for ax in panels] == ["head 0", "head 1", "head 2", "head 3"]
    for ax, head in zip(panels, weights):
        np.testing.assert_array_equal(ax.get_images()[0].get_array(), head)
        assert [label.get_text() for label in ax.get_xticklabels()] == tokens
    empty = [ax for ax in figure.axes if not ax.axison]
    assert len(empty) == 2                                  # a 2 x 3 grid for 4 heads
    assert any(ax.get_ylabel() == "attention weight" for ax in figure.axes)     # one colour bar
    assert figure.get_suptitle() == "4 heads"


def test_plot_heads_takes_a_list_of_matrices_of_any_sizes(tmp_path):
    figure = plot_heads([np.eye(2), np.full((3, 4), 0.25)], titles=["layer 1", "layer 2"],
                        path=tmp_path / "grid.png")
    assert [ax.get_title() for ax in figure.axes if ax.get_images()] == ["layer 1", "layer 2"]
    assert (tmp_path / "grid.png").read_bytes()[:8] == PNG


@pytest.mark.parametrize("weights,tokens,message", [
    (np.zeros((2, 4, 3, 3)), None, r"hold 2 sentences .* draw one, weights\[b\]"),
    (np.zeros(3), None, r"expected \(heads, queries, keys\)"),
    (np.zeros((2, 3, 3)), ["a", "b"], r"matrix 0 has shape \(3, 3\), but 2 query tokens"),
    ([np.zeros(3)], None, r"matrix 0 has shape \(3,\)"),
    (np.zeros((MAX_PANELS + 1, 2, 2)), None, r"65 matrices: a grid draws 1 to 64"),
])
def test_plot_heads_says_what_shape_it_expected(weights, tokens, message):
    with pytest.raises(ValueError, match=message):
        plot_heads(weights, tokens, tokens)


def test_the_learning_curves_and_the_length_table_are_figures_too(tmp_path):
    result = demo(DemoConfig(steps=3), log=lambda *a: None)
    assert isinstance(plot(result), Figure) and list(tmp_path.iterdir()) == []
    lengths = plot_lengths({"task": "reverse", "trained_lengths": [3, 3],
                            "plain": {"exact_match": {"3": 1.0, "4": 0.5}, "bleu": {"4": 0.4}},
                            "attention": {"exact_match": {"3": 1.0, "4": 1.0}, "bleu": {"4": 1}}},
                           tmp_path / "lengths.png")
    assert isinstance(lengths, Figure)
    assert (tmp_path / "lengths.png").read_bytes()[:8] == PNG


def test_save_writes_the_format_the_suffix_names(tmp_path):
    figure = Figure(figsize=(1, 1))
    assert save(figure, tmp_path / "f.pdf") == tmp_path / "f.pdf"
    assert (tmp_path / "f.pdf").read_bytes()[:4] == b"%PDF"
