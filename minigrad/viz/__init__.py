"""Drawing computation graphs with Graphviz: values and gradients on every node.

    from minigrad.viz import draw_graph, render
    drawing = draw_graph(loss)                 # a graphviz.Digraph; Jupyter shows it inline
    render(drawing, "loss.svg")                # or .png, .pdf; loss.dot holds the DOT text

dot       draw_graph: tensors as tables, ops as boxes, scopes as frames or folded boxes
walk      the walk over the graph and the backward pass that records every gradient
labels    what is written in the boxes and on the arrows (numbers, shapes, op settings)
legend    the key under the title: what the colours and line styles in this drawing mean
layout    gradients on arrows kept inside frames; compact=True, frames side by side
drawing   the Drawing (a graphviz.Digraph that also renders without a `dot` program)
render    render(): the system `dot`, or the Graphviz bundled in pygraphviz
explorer  explore(): one backward pass, step by step, in a self-contained HTML page

`import minigrad` does not import this package, and this package imports graphviz and
pygraphviz only when it draws or renders: the engine needs numpy alone.

    python -m minigrad.viz lstm-cell --out runs/lstm-cell.svg
"""

from minigrad.viz.dot import draw_graph
from minigrad.viz.explorer import Explorer, explore
from minigrad.viz.render import RenderError, available_engines, render

__all__ = ["draw_graph", "explore", "Explorer", "render", "RenderError", "available_engines"]
