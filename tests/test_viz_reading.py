"""What helps a reader read a drawing: no mask guard where nothing is masked and readable masks
where something is, the legend, gradients on arrows kept inside the frames, and the compact
layout of the attention step."""

import numpy as np
import pytest

pytest.importorskip("graphviz")

from minigrad import Tensor
from minigrad.viz import draw_graph
from tests.test_viz import edges, find, nodes


def constant_boxes(source):
    """{node: label} of the boxes of constants (the grey header)."""
    found = nodes(source)
    return {name: found[name] for name, line in _node_lines(source)
            if 'BGCOLOR="#f2f3f4"' in line}


def _node_lines(source):
    for line in source.splitlines():
        name = line.strip().split(" ", 1)[0]
        if "[label=" in line and not line.strip().startswith(("graph", "node", "edge")):
            yield name, line


# ---- the mask guard and masks ---------------------------------------------------------------

def test_the_default_attention_drawing_has_no_where_and_names_every_constant():
    from attention.draw import draw_attention_step
    for options in ({}, {"backward_order": True}, {"hard": True}):
        source = draw_attention_step(**options).source
        assert "Where(" not in source, options
        constants = constant_boxes(source)
        unnamed = [label for label in constants.values() if label.startswith("(")]   # shape first
        assert constants and not unnamed, options
    assert [label.split()[0] for label in constant_boxes(draw_attention_step().source).values()
            ] == ["max"]


def test_a_mask_is_drawn_as_a_where_with_its_count_and_a_named_minus_infinity():
    from attention.functional import dot_product_attention
    rng = np.random.default_rng(0)
    q, k, v = (Tensor(rng.standard_normal(shape), requires_grad=True)
               for shape in ((2, 3), (4, 3), (4, 2)))
    context, _ = dot_product_attention(q, k, v, mask=np.array([True, True, False, True]))
    source = draw_graph(context.sum()).source
    found = nodes(source)
    where = find(found, "Where(")
    assert found[where] == "Where(cond=array(4,), 3 of 4 True)"
    masked = find(found, "masked score")
    assert found[masked] == "masked score () float64 -inf"
    assert [(tail, head) for tail, head, _ in edges(source) if tail == masked] == [
        (masked, where)]
    everything, _ = dot_product_attention(q, k, v, mask=np.ones(4, dtype=bool))
    assert "Where(cond=array(4,), all True)" in draw_graph(everything.sum()).source


# ---- where things land: laid out by Graphviz -----------------------------------------------

def laid_out(source, engine):
    """({node: (x0, y0, x1, y1)}, {frame label: ((x0, y0, x1, y1), {its nodes})}) in points, as
    `engine` lays the DOT text out (y grows upwards)."""
    pygraphviz = pytest.importorskip("pygraphviz")
    from minigrad.viz.render import render_bytes
    graph = pygraphviz.AGraph(string=render_bytes(source, "dot", engine=engine).decode())
    boxes = {}
    for node in graph.nodes():
        x, y = (float(v) for v in node.attr["pos"].split(","))
        w, h = float(node.attr["width"]) * 36, float(node.attr["height"]) * 36   # half, in pt
        boxes[str(node)] = (x - w, y - h, x + w, y + h)
    frames, todo = {}, list(graph.subgraphs())
    while todo:
        sub = todo.pop()
        frames[sub.graph_attr["label"]] = (tuple(float(v) for v in sub.graph_attr["bb"].split(",")),
                                           {str(n) for n in sub.nodes()})
        todo += sub.subgraphs()
    return boxes, frames


def inside(box, frame):
    return (frame[0] <= box[0] and frame[1] <= box[1] and box[2] <= frame[2]
            and box[3] <= frame[3])


def overlap(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def attention_step(**options):
    from attention.draw import draw_attention_step
    return draw_attention_step(**options).source


def batch_step(**options):
    from attention.draw import draw_attention_step, random_example
    return draw_attention_step(*random_example(3), **options).source


def lstm_step():
    from minigrad.viz.__main__ import LSTMCellConfig, draw_lstm_cell
    return draw_lstm_cell(LSTMCellConfig(backward_order=True)).source


ENGINES = ["dot", "pygraphviz"]


def engine_or_skip(engine):
    from minigrad.viz import available_engines
    if engine not in available_engines():
        pytest.skip(f"no {engine} here")


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("source", [
    lambda: attention_step(backward_order=True, compact=False),
    lambda: attention_step(backward_order=True),
    lambda: attention_step(backward_order=True, rankdir="LR"),
    lambda: batch_step(backward_order=True),
    lstm_step], ids=["flow", "compact", "LR", "batch", "lstm"])
def test_gradients_on_arrows_sit_inside_the_frames_never_across_a_border(source, engine):
    engine_or_skip(engine)
    text = source()
    boxes, frames = laid_out(text, engine)
    labels = {name: box for name, box in boxes.items() if name.startswith("label")}
    drawn = [(tail, head, label) for tail, head, label in edges(text) if "∂" in label]
    assert len(labels) >= len(drawn) > 0                 # every gradient has a box of its own
    for name, box in labels.items():
        own = [bb for bb, members in frames.values() if name in members]
        others = [bb for bb, members in frames.values() if name not in members]
        assert all(inside(box, bb) for bb in own), name
        assert not any(overlap(box, bb) for bb in others), name


# ---- the compact attention step ------------------------------------------------------------

def frame_boxes(source, engine):
    _, frames = laid_out(source, engine)
    return [frames[name][0] for name in ("score", "softmax", "mix")]


def area(source, engine):
    boxes, frames = laid_out(source, engine)
    everything = [*boxes.values(), *(bb for bb, _ in frames.values())]
    width = max(b[2] for b in everything) - min(b[0] for b in everything)
    return width * (max(b[3] for b in everything) - min(b[1] for b in everything))


@pytest.mark.parametrize("engine", ENGINES)
def test_compact_puts_the_three_frames_side_by_side_in_order(engine):
    engine_or_skip(engine)
    score, softmax, mix = frame_boxes(attention_step(legend=False), engine)       # TB: columns
    assert score[2] < softmax[0] and softmax[2] < mix[0]
    score, softmax, mix = frame_boxes(attention_step(legend=False, rankdir="LR"), engine)  # rows
    assert score[1] > softmax[3] and softmax[1] > mix[3]                # y grows upwards
    stepped = frame_boxes(attention_step(legend=False, compact=False), engine)
    assert stepped[0][1] > stepped[1][1] > stepped[2][1]                # the old diagonal
    assert stepped[0][2] < stepped[1][2] < stepped[2][2]


@pytest.mark.parametrize("engine", ENGINES)
def test_compact_makes_the_attention_step_smaller(engine):
    engine_or_skip(engine)
    for rankdir in ("TB", "LR"):
        stepped = area(attention_step(legend=False, compact=False, rankdir=rankdir), engine)
        compact = area(attention_step(legend=False, rankdir=rankdir), engine)
        assert compact < 0.85 * stepped, rankdir


def spline_points(source, engine):
    """{(tail, head) as drawn: [(x, y), ...]} for the arrows written with dir=back: points along
    each arrow's curve (its cubic Bezier pieces at 9 points each, not its control points), from
    the tail as drawn to the head."""
    pygraphviz = pytest.importorskip("pygraphviz")
    from minigrad.viz.render import render_bytes
    graph = pygraphviz.AGraph(string=render_bytes(source, "dot", engine=engine).decode())
    curves = {}
    for edge in graph.edges():
        if edge.attr.get("dir") != "back":
            continue
        control = np.array([[float(v) for v in p.split(",")] for p in edge.attr["pos"].split()
                            if not p.startswith(("s,", "e,"))])              # 3k + 1 points
        t = np.linspace(0, 1, 9)[:, None]
        pieces = [(1 - t) ** 3 * a + 3 * (1 - t) ** 2 * t * b + 3 * (1 - t) * t ** 2 * c
                  + t ** 3 * d
                  for a, b, c, d in (control[k:k + 4] for k in range(0, len(control) - 1, 3))]
        curves[(str(edge[1]), str(edge[0]))] = [tuple(p) for p in np.concatenate(pieces)][::-1]
    return curves


def detours(source, engine, margin=24):
    """The arrows between frames (scores -> Sub, weights -> MatMul) that leave the box around
    the two frames they join by more than `margin` points, or pass through the third frame."""
    score, softmax, mix = frame_boxes(source, engine)
    arrows = list(spline_points(source, engine).items())
    assert len(arrows) == 2
    found = []
    for (start, end, third), (name, points) in zip(((score, softmax, mix),
                                                    (softmax, mix, score)), arrows):
        around = (min(start[0], end[0]) - margin, min(start[1], end[1]) - margin,
                  max(start[2], end[2]) + margin, max(start[3], end[3]) + margin)
        if not all(inside(point * 2, around) for point in points) or any(
                inside(point * 2, third) for point in points):
            found.append(name)
    return found


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("rankdir", ["TB", "LR"])
def test_arrows_between_frames_run_between_the_two_never_around(engine, rankdir):
    """An arrow that sets no rank (constraint=false) was routed around the far side of the
    frames: through the softmax frame and past the mix frame, for three random queries."""
    engine_or_skip(engine)
    for source in (attention_step(rankdir=rankdir), batch_step(rankdir=rankdir),
                   batch_step(rankdir=rankdir, backward_order=True)):
        assert detours(source, engine) == []


def test_compact_changes_nothing_with_one_frame_and_keeps_every_arrow():
    x = Tensor(np.ones(2), requires_grad=True, name="x")
    from minigrad import scope
    with scope("only"):
        y = (x * 2.0).sum()
    assert draw_graph(y, compact=True).source == draw_graph(y).source
    loose = attention_step(compact=False, legend=False)
    tight = attention_step(legend=False)
    assert sorted(edges(loose)) == sorted(e for e in edges(tight) if "frames" not in e[:2])


# ---- the legend ----------------------------------------------------------------------------

def legend_of(source):
    """The texts of the legend's entries, in order ([] when there is none)."""
    import re
    graph_line = next(line for line in source.splitlines() if line.strip().startswith("graph ["))
    found = re.search(r'label=<(<TABLE.*</TABLE>)>', graph_line)
    if found is None:
        return []
    texts = re.findall(r'<TD ALIGN="LEFT"><FONT POINT-SIZE="9">([^<]*)</FONT></TD>', found.group(1))
    return texts


def test_the_legend_lists_the_marks_of_this_drawing_and_only_those():
    from minigrad import nn, scope
    x = Tensor(np.array([1.0, 2.0]), requires_grad=True, name="x")
    y = (x * 2.0).sum()
    assert legend_of(draw_graph(y).source) == [
        "the root (gradients are of it)", "input that wants a gradient", "constant: no gradient",
        "gradient of the root", "op, with its settings", "input that takes no gradient"]
    backward = legend_of(draw_graph(y, backward_order=True).source)
    assert "order backward visits the ops" in backward
    assert "gradient sent back along the arrow" in backward
    assert "gradient of the root" not in legend_of(draw_graph(y, show_grads=False).source)

    cell = nn.LSTMCell(2, 2)
    with scope("lstm"):
        h, _ = cell(Tensor(np.ones((1, 2), dtype=np.float32), name="x"))
    loss = h.sum()
    full = legend_of(draw_graph(loss, names=cell).source)
    assert "parameter" in full and "scope (minigrad.scope)" in full
    assert "argument position" in full and "scope folded into one box" not in full
    folded = legend_of(draw_graph(loss, names=cell, collapse="lstm").source)
    assert "scope folded into one box" in folded and "scope (minigrad.scope)" not in folded
    cut = legend_of(draw_graph(loss, max_nodes=3).source)
    assert "boxes left out (max_nodes)" in cut and "parameter" not in cut     # none of them kept
    saved = legend_of(draw_graph(loss, show_saved=True).source)
    assert "kept for backward" in saved


def test_the_attention_steps_legend_explains_the_hard_steps_red_arrow():
    assert "made outside the graph: no gradient" in legend_of(attention_step(hard=True))
    assert "no gradient reaches it" in legend_of(attention_step(hard=True))
    soft = legend_of(attention_step())
    assert "made outside the graph: no gradient" not in soft
    assert "no gradient reaches it" not in soft


def test_legend_false_leaves_it_out_and_keeps_the_title():
    source = attention_step(legend=False)
    assert legend_of(source) == []
    assert 'label="Soft attention (softmax)' in source
    assert legend_of(attention_step(legend=False, hard=True)) == []          # add_entry: nothing
    x = Tensor(np.ones(2), requires_grad=True)
    assert "label=" not in draw_graph(x.sum(), legend=False).source.splitlines()[1]


@pytest.mark.parametrize("engine", ENGINES)
def test_the_legend_moves_no_box(engine):
    engine_or_skip(engine)
    with_legend, _ = laid_out(attention_step(backward_order=True), engine)
    without, _ = laid_out(attention_step(backward_order=True, legend=False), engine)
    assert with_legend.keys() == without.keys()
    (ax, ay, *_), (bx, by, *_) = with_legend["t0"], without["t0"]
    for name, box in with_legend.items():
        other = without[name]
        assert abs((box[0] - ax) - (other[0] - bx)) < 0.5, name
        assert abs((box[1] - ay) - (other[1] - by)) < 0.5, name
