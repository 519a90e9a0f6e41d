"""How a drawing shows itself: in a terminal (Python's or IPython's), a line that says what is
drawn and how to see it, not `<... Drawing object at 0x...>`; in Jupyter, an SVG."""

import importlib.util
import shutil

import pytest

from minigrad import Tensor, scope
from minigrad.viz import draw_graph

HOW = ("Jupyter shows it inline; minigrad.viz.render(drawing, 'graph.svg') writes a picture "
       "(.svg, .png, .pdf); str(drawing) is its DOT text>")


def square_sum():
    a = Tensor([1.0, 2.0], requires_grad=True, name="a")
    return (a * a).sum()                                # 2 ops, 3 tensors (a, a*a, the sum)


def test_the_repr_counts_ops_tensors_and_boxes_and_says_how_to_see_it():
    drawing = draw_graph(square_sum(), title="a . a")
    assert repr(drawing) == f"<Drawing 'a . a': 2 ops and 3 tensors in 5 boxes. {HOW}"


def test_the_repr_counts_folded_scopes_and_one_of_each_in_the_singular():
    a = Tensor([1.0, 2.0], requires_grad=True)
    with scope("inner"):
        b = a * a
    drawing = draw_graph(b.sum(), collapse="inner")
    assert repr(drawing).startswith("<Drawing: 2 ops and 3 tensors in 5 boxes, 1 folded scope.")
    assert repr(draw_graph(a.sum())).startswith("<Drawing: 1 op and 2 tensors in 3 boxes.")


def test_a_copy_still_says_what_it_is():
    copy = draw_graph(square_sum()).copy()
    assert repr(copy).startswith("<Drawing of ") and repr(copy).endswith(HOW)


def test_str_is_still_the_dot_text():
    drawing = draw_graph(square_sum())
    assert str(drawing) == drawing.source and str(drawing).startswith("digraph")


def test_ipython_in_a_terminal_prints_the_repr():
    pretty = pytest.importorskip("IPython.lib.pretty")
    drawing = draw_graph(square_sum())
    assert pretty.pretty(drawing) == repr(drawing) and "0x" not in repr(drawing)


@pytest.mark.skipif(shutil.which("dot") is None and importlib.util.find_spec("pygraphviz") is None,
                    reason="no Graphviz to render with")
def test_jupyter_gets_an_svg_and_the_repr_as_text():
    formatters = pytest.importorskip("IPython.core.formatters")
    drawing = draw_graph(square_sum())
    data, _ = formatters.DisplayFormatter().format(drawing)
    assert data["image/svg+xml"].lstrip().startswith(("<?xml", "<svg"))
    assert data["text/plain"] == repr(drawing)
