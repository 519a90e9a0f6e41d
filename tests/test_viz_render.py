"""Rendering for real: SVG (and PNG, PDF) with the system `dot` and with the Graphviz bundled in
pygraphviz; the fallback where there is no `dot`; the clear error where there is nothing; and the
three command lines (minigrad.viz, attention, seq2seq)."""

import argparse
import html
import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("graphviz")

from minigrad.viz import RenderError, available_engines, draw_graph, render
from minigrad.viz.render import DOT_HEADER

ROOT = Path(__file__).resolve().parent.parent
needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="no system dot")
needs_pygraphviz = pytest.mark.skipif(importlib.util.find_spec("pygraphviz") is None,
                                      reason="no pygraphviz")
ENGINES = [pytest.param("dot", marks=needs_dot),
           pytest.param("pygraphviz", marks=needs_pygraphviz)]


def svg_text(path):
    """The text of an SVG file with its character references decoded (`&#45;` -> `-`)."""
    return html.unescape(Path(path).read_text(encoding="utf-8"))


@pytest.fixture
def step():
    from attention.draw import draw_attention_step
    return draw_attention_step()


@pytest.fixture
def no_dot(monkeypatch, tmp_path):
    """A PATH on which there is no `dot`."""
    empty = tmp_path / "empty-path"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))


@pytest.mark.parametrize("engine", ENGINES)
def test_svg_holds_the_op_labels_and_the_values(step, engine, tmp_path):
    path = render(step, tmp_path / "step.svg", engine=engine)
    svg = svg_text(path)
    assert svg.lstrip().startswith("<?xml") and svg.rstrip().endswith("</svg>")
    for text in ("MatMul()", "Sub()", "Exp()", "Div()", "Soft attention", "scores", "weights",
                 "0.244", "0.090", "0.662", "0.004", "24.28", "0.243", "3.408"):
        assert text in svg, text
    assert (tmp_path / "step.dot").read_text(encoding="utf-8") == (
        "// The DOT text of step.svg, written beside it by minigrad.viz.render\n" + step.source)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("suffix, magic", [("png", b"\x89PNG"), ("pdf", b"%PDF")])
def test_png_and_pdf(step, engine, suffix, magic, tmp_path):
    path = render(step, tmp_path / f"step.{suffix}", engine=engine)
    data = path.read_bytes()
    assert data.startswith(magic) and len(data) > 5000


@needs_pygraphviz
def test_without_dot_everything_renders_with_pygraphviz(step, no_dot, tmp_path):
    assert available_engines() == ["pygraphviz"]
    assert "24.28" in render(step, tmp_path / "auto.svg").read_text(encoding="utf-8")
    out = step.render(tmp_path / "own", format="svg")          # graphviz.Digraph.render
    assert Path(out).name == "own.svg" and "24.28" in Path(out).read_text(encoding="utf-8")
    shown = step._repr_mimebundle_(include=["image/svg+xml"])   # what Jupyter displays
    assert "24.28" in shown["image/svg+xml"]


def test_with_nothing_to_render_with_the_error_says_how_and_the_dot_text_is_written(
        step, no_dot, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "pygraphviz", None)        # import pygraphviz fails
    assert available_engines() == []
    with pytest.raises(RenderError, match="pip install pygraphviz") as error:
        render(step, tmp_path / "step.svg")
    assert "apt install graphviz" in str(error.value) and "step.dot" in str(error.value)
    assert (tmp_path / "step.dot").read_text(encoding="utf-8") == (
        "// The DOT text of step.svg, written beside it by minigrad.viz.render\n" + step.source)
    assert not (tmp_path / "step.svg").exists()
    with pytest.raises(RenderError, match="engine='dot'"):
        render(step, tmp_path / "again.svg", engine="dot")


@pytest.mark.parametrize("engine", ENGINES)
def test_bad_dot_text_is_a_render_error(engine, tmp_path):
    with pytest.raises(RenderError, match="dot|pygraphviz"):
        render("digraph { a -> }", tmp_path / "bad.svg", engine=engine)


def test_dot_format_writes_the_text_alone_and_bad_requests_are_refused(step, tmp_path):
    path = render(step, tmp_path / "step.dot")
    assert path.read_text(encoding="utf-8") == DOT_HEADER.format(name="step.dot") + step.source
    assert sorted(p.name for p in tmp_path.iterdir()) == ["step.dot"]
    assert render(step, path) == path                       # its own file: replaced
    with pytest.raises(ValueError, match="suffix"):
        render(step, tmp_path / "no-suffix")
    with pytest.raises(ValueError, match="engine"):
        render(step, tmp_path / "x.svg", engine="neato")


@needs_pygraphviz
def test_a_5000_node_graph_renders_collapsed_and_cut(tmp_path):
    from minigrad import Tensor, scope
    x = Tensor(np.ones(3), requires_grad=True, name="x")
    y = x
    with scope("chain"):
        for i in range(2500):
            y = y.tanh() if i % 2 else y * 0.5
    loss = y.sum()
    folded = render(draw_graph(loss, collapse=["chain"]), tmp_path / "folded.svg",
                    engine="pygraphviz").read_text(encoding="utf-8")
    assert "2500 ops" in folded
    cut = render(draw_graph(loss, max_nodes=60), tmp_path / "cut.svg", engine="pygraphviz")
    assert "more boxes" in cut.read_text(encoding="utf-8")


# ---- command lines ----------------------------------------------------------------------

def test_minigrad_viz_lstm_cell(tmp_path, capsys):
    from minigrad.viz.__main__ import main
    assert main(["lstm-cell", "--out", str(tmp_path / "cell.svg")]) == 0
    svg = svg_text(tmp_path / "cell.svg")
    for text in ("Sigmoid()", "Tanh()", "weight_ih", "weight_hh", "lstm cell", "grad",
                 "parameter", "gradient of the root"):                 # the legend's entries
        assert text in svg, text
    assert main(["lstm-cell", "--fused", "--backward-order", "--no-legend", "--out",
                 str(tmp_path / "fused.svg")]) == 0
    svg = svg_text(tmp_path / "fused.svg")
    assert "FusedLSTMCell()" in svg and "backward #1" in svg and "Sigmoid()" not in svg
    assert "gradient of the root" not in svg
    assert main(["render", str(tmp_path / "fused.dot"), "--out", str(tmp_path / "f.png")]) == 0
    assert (tmp_path / "f.png").read_bytes().startswith(b"\x89PNG")
    assert "wrote" in capsys.readouterr().out


def test_minigrad_viz_lstm_cell_names_the_dot_file_it_also_writes(tmp_path, capsys):
    from minigrad.viz.__main__ import main
    out = tmp_path / "cell.svg"
    assert main(["lstm-cell", "--out", str(out)]) == 0
    assert capsys.readouterr().out == f"wrote {out} (and its DOT text, {tmp_path / 'cell.dot'})\n"
    assert (tmp_path / "cell.dot").exists()


def test_minigrad_viz_errors_are_one_line(tmp_path, no_dot, monkeypatch, capsys):
    from minigrad.viz.__main__ import main
    monkeypatch.setitem(sys.modules, "pygraphviz", None)
    assert main(["lstm-cell", "--out", str(tmp_path / "cell.svg")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: no Graphviz") and err.count("\n") == 1
    assert (tmp_path / "cell.dot").exists()
    assert main(["render", str(tmp_path / "missing.dot"), "--out", "x.svg"]) == 1
    with pytest.raises(SystemExit):
        main(["lstm-cell", "--hidden-size", "0"])


def test_python_m_minigrad_viz_runs(tmp_path):
    done = subprocess.run([sys.executable, "-m", "minigrad.viz", "lstm-cell", "--out",
                           str(tmp_path / "cell.svg")], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Sigmoid()" in (tmp_path / "cell.svg").read_text(encoding="utf-8")


def test_attention_draw_command(tmp_path, capsys):
    from attention.__main__ import main
    assert main(["draw", "--out", str(tmp_path / "soft.svg")]) == 0
    soft = svg_text(tmp_path / "soft.svg")
    assert all(text in soft for text in ("0.244", "0.662", "24.28", "Soft attention",
                                         "gradient of the root"))
    assert main(["draw", "--rankdir", "LR", "--no-legend", "--no-compact", "--out",
                 str(tmp_path / "wide.svg")]) == 0
    wide = svg_text(tmp_path / "wide.svg")
    assert "24.28" in wide and "gradient of the root" not in wide
    assert "rankdir=LR" in (tmp_path / "wide.dot").read_text(encoding="utf-8")
    assert main(["draw", "--hard", "--out", str(tmp_path / "hard.svg")]) == 0
    hard = svg_text(tmp_path / "hard.svg")
    assert "grad none" in hard and "argmax: flat" in hard and "one-hot" in hard
    assert main(["draw", "--random", "3", "--backward-order", "--out",
                 str(tmp_path / "batch.png")]) == 0
    assert (tmp_path / "batch.png").read_bytes().startswith(b"\x89PNG")
    assert main(["draw", "--random", "0"]) == 1
    assert "--random must be an integer in [1, 256], got 0" in capsys.readouterr().err


# ---- seq2seq ------------------------------------------------------------------------------

def tiny_translator(attention="dot", wiring="luong"):
    from seq2seq.commands.train import TrainConfig, build
    from seq2seq.data import tasks
    config = TrainConfig(task="reverse", num_examples=40, min_len=3, max_len=5, embed_size=4,
                         hidden_size=6, attention=attention, wiring=wiring, progress=False)
    pairs = tasks.make_task("reverse", 40, seed=0, min_len=3, max_len=5)
    return config, build(config, pairs)


@pytest.mark.parametrize("attention, wiring", [("dot", "luong"), ("additive", "bahdanau"),
                                               (None, "luong")])
def test_the_drawn_decoder_step_computes_what_the_model_computes(attention, wiring):
    from minigrad import no_grad
    from seq2seq.commands.draw import decoder_step
    _, translator = tiny_translator(attention, wiring)
    model, sentence = translator.model, "3 1 4 1"
    run = decoder_step(translator, sentence, step=2)
    with no_grad():
        enc_outputs, state, mask = model.encode(translator.source_ids([sentence]))
        token = np.array([translator.tgt_vocab.bos_id])
        for _ in range(3):
            logits, state, weights = model.decoder.step(token, state, enc_outputs, mask)
            token = logits.data.argmax(-1)
    np.testing.assert_allclose(run["logits"].data, logits.data, rtol=1e-6)
    assert run["token"] == int(token[0])
    assert (run["weights"] is None) == (attention is None)


def test_seq2seq_draw_command(tmp_path, capsys):
    from minigrad.optim import Adam
    from seq2seq.commands.draw import add_command
    from seq2seq.commands.train import save_run
    config, translator = tiny_translator()
    (tmp_path / "run").mkdir()
    save_run(tmp_path / "run", config, translator, Adam(translator.model.parameters()), [])
    parser = argparse.ArgumentParser()
    add_command(parser.add_subparsers())
    args = parser.parse_args(["draw", str(tmp_path / "run"), "--step", "1", "--out",
                              str(tmp_path / "step.svg")])
    args.func(args)
    svg = svg_text(tmp_path / "step.svg")
    for text in ("encoder", "decoder lstm", "attention weights", "decoder.out.weight",
                 "Exp()", "CrossEntropy", "Decoder step 1"):
        assert text in svg, text
    assert "FusedLSTMCell()" not in svg                     # folded into the two boxes
    assert "scope folded into one box" in svg               # the legend
    assert "masked score" in svg and "all True)" in svg     # the source mask, readable
    assert "wrote" in capsys.readouterr().out
    args = parser.parse_args(["draw", str(tmp_path / "run"), "--no-legend", "--out",
                              str(tmp_path / "bare.svg")])
    args.func(args)
    assert "scope folded into one box" not in svg_text(tmp_path / "bare.svg")


def test_a_dot_picture_never_replaces_a_dot_file_it_did_not_write(step, tmp_path):
    mine = tmp_path / "mine.dot"
    mine.write_text("my notes")
    with pytest.raises(FileExistsError, match="mine.dot"):
        render(step, mine)
    assert mine.read_text() == "my notes"
    render(step, mine, overwrite=True)
    assert step.source in mine.read_text()


def test_a_picture_is_replaced_only_when_an_earlier_drawing_wrote_it(step, tmp_path, no_dot):
    pytest.importorskip("pygraphviz")
    mine = tmp_path / "x.svg"
    mine.write_text("<svg>my drawing</svg>")
    with pytest.raises(FileExistsError, match="x.svg"):
        render(step, mine)
    assert mine.read_text() == "<svg>my drawing</svg>"
    assert not (tmp_path / "x.dot").exists()                # a refusal writes nothing
    render(step, tmp_path / "y.svg")
    render(step, tmp_path / "y.svg")                        # its own picture: drawn again
    render(step, mine, overwrite=True)
    assert "my drawing" not in mine.read_text()


def test_the_draw_commands_refuse_an_unrelated_dot_file_unless_overwrite(tmp_path, capsys):
    from minigrad.viz.__main__ import main as viz_main
    from attention.__main__ import main as attention_main
    for main, command in ((attention_main, ["draw"]), (viz_main, ["lstm-cell"])):
        mine = tmp_path / "mine.dot"
        mine.write_text("my notes")
        assert main([*command, "--out", str(mine)]) == 1
        assert "mine.dot" in capsys.readouterr().err and mine.read_text() == "my notes"
        assert main([*command, "--out", str(mine), "--overwrite"]) == 0
        assert "digraph" in mine.read_text()


def test_a_drawing_into_a_folder_that_does_not_exist_is_refused_and_no_folder_is_made(tmp_path):
    from minigrad import Tensor
    from minigrad.viz import draw_graph, render
    x = Tensor([1.0, 2.0], requires_grad=True)
    path = tmp_path / "no" / "such" / "step.svg"
    with pytest.raises(FileNotFoundError) as error:
        render(draw_graph((x * x).sum()), path)
    assert str(error.value) == (f"cannot write '{path}': no directory '{path.parent}' "
                                f"(create it first: mkdir -p {path.parent})")
    assert not (tmp_path / "no").exists()


def test_the_drawing_commands_refuse_to_replace_a_drawing_of_their_own_unless_overwrite(
        tmp_path, capsys):
    """Drawn twice to the same name, the second run refuses in one line, as explore does, even
    though the first run drew it; --overwrite replaces it."""
    from minigrad.viz.__main__ import main as viz_main
    from attention.__main__ import main as attention_main
    for main, command in ((attention_main, ["draw"]), (viz_main, ["lstm-cell"])):
        out = tmp_path / f"{command[0]}.svg"
        assert main([*command, "--out", str(out)]) == 0
        capsys.readouterr()
        drawn = out.read_bytes()
        out.write_bytes(b"<svg>kept</svg>")
        assert main([*command, "--out", str(out)]) == 1
        err = capsys.readouterr().err
        assert err == f"error: {out} exists; pass --overwrite to replace it\n"
        assert out.read_bytes() == b"<svg>kept</svg>"
        assert main([*command, "--out", str(out), "--overwrite"]) == 0
        assert out.read_bytes() == drawn


def test_the_drawing_commands_refuse_a_dot_file_left_beside_the_picture(tmp_path, capsys):
    from minigrad.viz.__main__ import main as viz_main
    out = tmp_path / "cell.svg"
    (tmp_path / "cell.dot").write_text("// The DOT text of cell.svg, written beside it by "
                                       "minigrad.viz.render\ndigraph {}\n")
    assert viz_main(["lstm-cell", "--out", str(out)]) == 1
    assert "cell.dot exists; pass --overwrite" in capsys.readouterr().err
    assert not out.exists()


def test_render_command_refuses_an_existing_picture_unless_overwrite(tmp_path, capsys):
    from minigrad.viz.__main__ import main as viz_main
    source = tmp_path / "g.dot"
    source.write_text("digraph { a -> b }\n")
    out = tmp_path / "g.svg"
    out.write_text("mine")
    assert viz_main(["render", str(source), "--out", str(out)]) == 1
    assert capsys.readouterr().err == f"error: {out} exists; pass --overwrite to replace it\n"
    assert out.read_text() == "mine"
    assert viz_main(["render", str(source), "--out", str(out), "--overwrite"]) == 0
    assert "<svg" in out.read_text()


# ---- limits: a graph too big for Graphviz is refused, a slow layout is stopped -------------

def chain(n):
    """x * 0.5 * 0.5 ... (n times), summed: 3 boxes an op (constant, op, output) and 3 more."""
    from minigrad import Tensor
    y = Tensor(np.ones(3), requires_grad=True, name="x")
    for _ in range(n):
        y = y * 0.5
    return y.sum()


def test_boxes_are_counted_as_draw_graph_writes_them():
    from minigrad.viz.render import count_boxes
    assert count_boxes(draw_graph(chain(40), legend=False).source) == 3 * 40 + 3


@pytest.mark.parametrize("engine", ENGINES)
def test_a_graph_above_max_boxes_is_refused_in_one_line_before_graphviz_runs(
        engine, tmp_path, monkeypatch):
    render_module = sys.modules["minigrad.viz.render"]    # the package's name is the function
    monkeypatch.setattr(render_module, "MAX_BOXES", 100)
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: pytest.fail("Graphviz was started"))
    with pytest.raises(RenderError) as refused:
        render(draw_graph(chain(40)), tmp_path / "chain.svg", engine=engine)
    message = str(refused.value)
    assert "\n" not in message
    assert message.startswith("the graph has 123 boxes, more than the 100 Graphviz lays out")
    assert "collapse=" in message and "max_nodes=" in message
    assert message.endswith(f"The DOT text is in {tmp_path / 'chain.dot'}")


@pytest.mark.parametrize("engine", ENGINES)
def test_a_layout_slower_than_the_timeout_is_stopped_with_a_one_line_error(
        engine, tmp_path, monkeypatch):
    import time
    render_module = sys.modules["minigrad.viz.render"]    # the package's name is the function
    monkeypatch.setattr(render_module, "TIMEOUT", 0.05)
    graph = draw_graph(chain(300))              # 903 boxes: over a second to lay out
    start = time.monotonic()
    with pytest.raises(RenderError, match=rf"^Graphviz \({engine}\) was stopped after 0.05 s "
                                          r"laying out 903 boxes .*collapse="):
        render(graph, tmp_path / "chain.svg", engine=engine)
    assert time.monotonic() - start < 5
    assert not (tmp_path / "chain.svg").exists()


def test_a_drawing_in_a_format_graphviz_does_not_write_is_refused_before_any_file(tmp_path,
                                                                                    capsys):
    """It left x.dot behind, which refused the next try without --overwrite."""
    from attention.__main__ import main as attention_main
    out = tmp_path / "x.txt"
    assert attention_main(["draw", "--out", str(out)]) == 1
    assert ".txt is not a format Graphviz writes" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
