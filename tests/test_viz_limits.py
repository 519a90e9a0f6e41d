"""Scopes nested too deep for a drawing: draw_graph, explore and render refuse them in one line,
before building anything (minigrad.viz.dot.MAX_SCOPE_DEPTH)."""

import contextlib
import subprocess
import time

import pytest

from minigrad import Tensor, scope
from minigrad.viz import RenderError, dot, draw_graph, explore
from minigrad.viz.render import count_frames, render_bytes


def nested(depth):
    """One tanh (and its sum) recorded inside `depth` nested scopes s0, s1, ..."""
    x = Tensor([0.5], requires_grad=True)
    with contextlib.ExitStack() as scopes:
        for k in range(depth):
            scopes.enter_context(scope(f"s{k}"))
        return x.tanh().sum()


def test_the_scope_depth_limit_is_100():
    assert dot.MAX_SCOPE_DEPTH == 100


def test_draw_graph_refuses_3000_nested_scopes_at_once_naming_the_limit_and_collapse():
    root = nested(3000)
    start = time.monotonic()
    with pytest.raises(ValueError) as refused:
        draw_graph(root)
    assert time.monotonic() - start < 1               # (it took 62 s and 14.8 GB before)
    message = str(refused.value)
    assert "\n" not in message
    assert message.startswith("draw_graph: the graph has scopes nested 3,000 deep (inside 's0')")
    assert "MAX_SCOPE_DEPTH" in message and "collapse=" in message


def test_draw_graph_draws_scopes_exactly_as_deep_as_the_limit():
    source = draw_graph(nested(dot.MAX_SCOPE_DEPTH)).source
    assert count_frames(source) == (100, 100)


def test_collapsing_the_outer_scope_draws_a_deep_graph_as_one_box():
    source = draw_graph(nested(3000), collapse="s0").source
    assert count_frames(source) == (0, 0)
    assert "scope0 [" in source


def test_collapse_counts_only_the_frames_drawn_around_the_folded_box():
    source = draw_graph(nested(150), collapse="s100").source      # frames s0 ... s99
    assert count_frames(source) == (100, 100)


def test_explore_refuses_3000_nested_scopes_at_once_naming_the_limit():
    with pytest.raises(ValueError, match=r"^explore: the graph has scopes nested 3,000 deep "
                                         r"\(inside 's0'\), more than the 100 .*MAX_SCOPE_DEPTH"):
        explore(nested(3000))
    assert explore(nested(100)).steps == 2


def test_the_limit_is_read_at_each_call(monkeypatch):
    monkeypatch.setattr(dot, "MAX_SCOPE_DEPTH", 200)
    assert count_frames(draw_graph(nested(150)).source) == (150, 150)


def test_render_refuses_dot_text_with_frames_nested_past_the_limit(monkeypatch):
    monkeypatch.setattr(dot, "MAX_SCOPE_DEPTH", 1000)
    source = draw_graph(nested(150)).source                       # drawn: the limit was raised
    monkeypatch.setattr(dot, "MAX_SCOPE_DEPTH", 100)
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: pytest.fail("Graphviz was started"))
    with pytest.raises(RenderError, match=r"^the graph has frames nested 150 deep, more than the "
                                          r"100 .*MAX_SCOPE_DEPTH.*collapse="):
        render_bytes(source, "svg")


def test_render_counts_the_frames_of_scopes_as_boxes(monkeypatch):
    import sys
    render_module = sys.modules["minigrad.viz.render"]    # the package's name is the function
    monkeypatch.setattr(render_module, "MAX_BOXES", 50)
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: pytest.fail("Graphviz was started"))
    source = draw_graph(nested(60)).source                # 5 boxes, 60 frames
    with pytest.raises(RenderError, match=r"^the graph has 65 boxes, more than the 50 "):
        render_bytes(source, "svg")
