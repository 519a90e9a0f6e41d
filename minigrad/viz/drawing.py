"""The `graphviz.Digraph` that `draw_graph` returns, and how a plan of boxes becomes one.

A `Drawing` is a `graphviz.Digraph` that also renders where the system has no `dot` program:
its `.render()` and `.pipe()` (which Jupyter uses to show it) fall back to the Graphviz bundled
in pygraphviz. It also knows which box is which tensor (`node_name`), so a caller can add arrows
of its own.
"""

import os
import weakref

import graphviz

from minigrad.viz import fonts, labels, layout, legend as legend_module
from minigrad.viz.render import render_bytes

FONT = "Helvetica"


class Drawing(graphviz.Digraph):
    """A graphviz.Digraph that renders with pygraphviz when there is no `dot` program.

    Jupyter shows it as a picture (graphviz's `_repr_mimebundle_`, an SVG); a terminal, which
    shows text, gets `repr`: what is drawn and how to see it. `str` is the DOT text."""

    summary = None              # what build() drew: {"ops", "tensors", "boxes", "scopes", "title"}

    def __repr__(self):
        drawn = self.summary
        if drawn is None:                           # a copy, or made by hand
            what = f"<Drawing of {self.source.count(chr(10))} lines of DOT text"
        else:
            title = f" {drawn['title']!r}" if drawn["title"] else ""
            folded = f", {_count(drawn['scopes'], 'folded scope')}" if drawn["scopes"] else ""
            what = (f"<Drawing{title}: {_count(drawn['ops'], 'op')} and "
                    f"{_count(drawn['tensors'], 'tensor')} in {_count(drawn['boxes'], 'box')}"
                    f"{folded}")
        return (f"{what}. Jupyter shows it inline; minigrad.viz.render(drawing, 'graph.svg') "
                f"writes a picture (.svg, .png, .pdf); str(drawing) is its DOT text>")

    def node_name(self, tensor):
        """The name of the box that shows `tensor` (e.g. "t3"), or None if it is not drawn."""
        ref, name = getattr(self, "_tensor_boxes", {}).get(id(tensor), (None, None))
        return name if ref is not None and ref() is tensor else None

    def pipe(self, format=None, **options):
        fonts.warn_if_missing(self.source, format or self.format)
        try:
            with fonts.environment():                   # the Japanese font, for `dot`
                return super().pipe(format=format, **options)
        except graphviz.ExecutableNotFound:
            data = render_bytes(self.source, format or self.format, engine="pygraphviz")
            encoding = options.get("encoding")
            return data.decode(encoding) if encoding else data

    def render(self, filename=None, directory=None, format=None, outfile=None, cleanup=False,
               **options):
        suffix = os.path.splitext(str(outfile))[1].lstrip(".") if outfile is not None else ""
        fonts.warn_if_missing(self.source, format or suffix or self.format)
        try:
            with fonts.environment():
                return super().render(filename, directory=directory, format=format,
                                      outfile=outfile, cleanup=cleanup, **options)
        except graphviz.ExecutableNotFound:
            if outfile is not None:
                format = format or os.path.splitext(str(outfile))[1].lstrip(".")
            format = format or self.format
            source_path = self.save(filename, directory=directory)
            out = str(outfile) if outfile is not None else f"{source_path}.{format}"
            with open(out, "wb") as file:
                file.write(render_bytes(self.source, format, engine="pygraphviz"))
            if cleanup:
                os.remove(source_path)
            return out

def _count(n, thing):
    return f"{n} {thing}" + ("" if n == 1 else "es" if thing.endswith("x") else "s")


def build(plan, rankdir, title=None, legend=True, compact=False):
    """A Drawing of the plan: each box in the frame (cluster) of its scope path, frames nested
    as the scopes are, then every arrow; the title and the legend above (see legend.py), and the
    arrangements of layout.py (labels of arrows inside frames, compact frames)."""
    drawing = Drawing(name="minigrad", graph_attr={
        "rankdir": rankdir, "fontname": FONT, "nodesep": "0.3", "ranksep": "0.35",
        "newrank": "true", "ordering": "in"})
    drawing.node_attr.update(fontname=FONT, fontsize="11", color="#566573")
    drawing.edge_attr.update(fontname=FONT, fontsize="9", color="#566573", arrowsize="0.7")
    legend_module.show(drawing, title, [legend_module.ENTRIES[key] for key in
                                        legend_module.entries(plan)] if legend else None)
    nodes, edges = plan.nodes, plan.edges
    if plan.gradients_on_arrows:
        nodes, edges = layout.labels_inside_frames(nodes, edges)
    if compact:
        nodes, edges = layout.compact_frames(nodes, edges)

    # One frame per scope path (and per prefix of one), in the order they first appear.
    frames = {(): drawing}
    for place, _ in nodes.values():
        for n in range(1, len(place) + 1):
            if place[:n] not in frames:
                frames[place[:n]] = graphviz.Digraph(name=f"cluster_{len(frames) - 1}", graph_attr={
                    "label": labels.escape(place[n - 1]), "style": "rounded,dashed",
                    "color": labels.FRAME_COLOR, "fontcolor": labels.FRAME_FONT_COLOR,
                    "fontsize": "11", "labeljust": "l"})
    for name, (place, attrs) in nodes.items():
        frames[place].node(name, **attrs)
    for place in sorted((p for p in frames if p), key=len, reverse=True):
        frames[place[:-1]].subgraph(frames[place])      # innermost first: a frame is complete
    for tail, head, attrs in edges:
        drawing.edge(tail, head, **attrs)

    drawing.summary = {"ops": len(plan.graph.ops), "tensors": len(plan.graph.tensors),
                       "boxes": len(plan.nodes), "scopes": len(plan.group_names), "title": title}
    drawing._tensor_boxes = {}
    for t in plan.graph.tensors:
        name = plan.tensor_names.get(id(t))
        if name is not None and name in plan.nodes:
            drawing._tensor_boxes[id(t)] = (weakref.ref(t), name)
    return drawing
