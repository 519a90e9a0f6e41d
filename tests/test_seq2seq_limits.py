"""Long inputs have limits that say so: `translate` takes at most MAX_SOURCE_TOKENS, the text
heatmap at most MAX_TEXT_TOKENS a side, and `plot_heatmap` keeps its figure within
MAX_FIGURE_INCHES however many tokens it is given, labelling only some of them."""

import numpy as np
import pytest

from attention.figures import MAX_FIGURE_INCHES, figure_axis
from seq2seq.commands.cli import main
from seq2seq.commands.train import TrainConfig, train
from seq2seq.heatmap import MAX_TEXT_TOKENS, plot_heatmap, text_heatmap
from seq2seq.translator import MAX_SOURCE_TOKENS, load_translator


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("limits") / "run"
    train(TrainConfig(task="reverse", num_examples=100, min_len=3, max_len=4, embed_size=8,
                      hidden_size=8, epochs=1, progress=False, out=str(out)), log=lambda *a: None)
    return out


def test_translating_more_than_the_limit_is_one_line_naming_limit_and_length(run, tmp_path,
                                                                             capsys):
    assert MAX_SOURCE_TOKENS == 1000
    png = tmp_path / "h.png"
    assert main(["translate", str(run), "1" * 2000, "--plot", str(png)]) == 1
    printed = capsys.readouterr()
    assert printed.out == ""
    assert printed.err == ("error: the text has 2000 tokens (char level); translate takes at "
                           "most 1000\n")
    assert not png.exists()


def test_the_limit_is_per_text_and_names_which(run):
    translator, _ = load_translator(run)
    with pytest.raises(ValueError, match="text 2 of 3 has 1001 tokens"):
        translator.translate(["12", "3" * 1001, "45"])
    [translation] = translator.translate(["1" * 120])               # long, within the limit
    assert translation.weights.shape[1] == 120


def test_a_long_translation_gets_a_note_for_its_text_heatmap_and_a_bounded_plot(
        run, tmp_path, capsys, monkeypatch):
    from matplotlib.figure import Figure
    sizes = []                                  # drawing a 4,000-pixel PNG would take seconds
    monkeypatch.setattr(Figure, "savefig",
                        lambda figure, path, **options:
                        sizes.append(tuple(figure.get_size_inches())))
    png = tmp_path / "h.png"
    assert main(["translate", str(run), "1" * 150, "--plot", str(png)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == "(no text heatmap for more than 100 tokens a side: --plot PNG draws it)"
    assert lines[2] == f"heatmap: {png}"
    [(width, height)] = sizes
    assert width == 40.0 and height <= 40.0                         # 150 tokens: 61.5 inches


def test_the_text_heatmap_refuses_more_than_its_limit_a_side():
    assert MAX_TEXT_TOKENS == 100
    tokens = [str(i % 10) for i in range(100)]
    assert len(text_heatmap(np.eye(100), tokens, tokens).splitlines()) == 1 + 100 + 1
    for shape in [(101, 3), (3, 101)]:
        with pytest.raises(ValueError, match=rf"at most 100 output and 100 source tokens, not "
                                             rf"{shape[0]} x {shape[1]}: draw a PNG with "
                                             r"plot_heatmap"):
            text_heatmap(np.zeros(shape), ["a"] * shape[1], ["b"] * shape[0])


def test_figure_size_grows_with_the_tokens_up_to_the_cap_then_labels_thin_out():
    assert MAX_FIGURE_INCHES == 40.0
    assert figure_axis(5, 0.4, 1.5, least=4.0) == (4.0, 1)
    assert figure_axis(90, 0.4, 1.5, least=4.0) == (37.5, 1)
    assert figure_axis(2000, 0.4, 1.5, least=4.0) == (40.0, 21)     # 800 inches of labels
    assert figure_axis(10 ** 6, 0.35, 1.2, least=3.0) == (40.0, 9021)


def test_plot_heatmap_of_thousands_of_tokens_stays_within_the_cap(tmp_path, monkeypatch):
    from matplotlib.figure import Figure
    drawn = []
    monkeypatch.setattr(Figure, "savefig", lambda figure, path, **options: drawn.append(figure))
    n_source, n_target = 3000, 2000
    weights = np.full((n_target, n_source), 1.0 / n_source)
    plot_heatmap(weights, [f"s{i}" for i in range(n_source)], [f"t{i}" for i in range(n_target)],
                 tmp_path / "h.png", title="x" * 500)
    [figure] = drawn
    assert tuple(figure.get_size_inches()) == (40.0, 40.0)          # not 1201.5 x 701.2
    ax = figure.axes[0]
    x_labels = [label.get_text() for label in ax.get_xticklabels()]
    y_labels = [label.get_text() for label in ax.get_yticklabels()]
    assert x_labels[:3] == ["s0", "s32", "s64"] and len(x_labels) == 94
    assert y_labels[:3] == ["t0", "t19", "t38"] and len(y_labels) == 106
    assert ax.get_xlabel() == "source token (1 in 32 labelled)"
    assert len(ax.get_title()) == 80 and ax.get_title().endswith("…")
