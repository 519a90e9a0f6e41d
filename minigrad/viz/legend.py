"""The legend of a drawing: what its colours, borders and line styles mean, listing only the
marks that appear in that drawing.

The legend is a small table in the drawing's own label, under the title. Graphviz places a
graph's label after the layout, so the legend never moves a box: a drawing with and without it
has the same layout. It reads the marks off the boxes and arrows that are drawn (after
`max_nodes` has cut some), so it lists what the picture shows and nothing else.

    draw_graph(loss)                  # with the legend
    draw_graph(loss, legend=False)    # without
    add_entry(drawing, line_sample("dashed", "#b03a2e"), "made outside the graph")
                                      # a mark that the caller drew itself
"""

from minigrad.viz import labels

COLUMNS = 4                 # entries per row of the legend
TEXT_SIZE = "9"


def swatch(fill, border=1, color="#555555", style=None):
    """A small filled box, as a table cell."""
    styled = f' STYLE="{style}"' if style else ""
    return (f'<TD BGCOLOR="{fill}" BORDER="{border}" COLOR="{color}"{styled} WIDTH="20" '
            'HEIGHT="12" FIXEDSIZE="TRUE"></TD>')


def line_sample(style, color=labels.MUTED_COLOR):
    """A short horizontal line ("solid", "dashed", "dotted") that stands for an arrow: the
    bottom border of the upper of two cells, so that it runs through the middle of the row."""
    line = (f'<TD SIDES="B" BORDER="1" STYLE="{style}" COLOR="{color}" WIDTH="28" HEIGHT="5" '
            'FIXEDSIZE="TRUE"></TD>')
    return (f'<TD><TABLE BORDER="0" CELLSPACING="0" CELLPADDING="0"><TR>{line}</TR>'
            '<TR><TD HEIGHT="5"></TD></TR></TABLE></TD>')


def text_sample(text, color=None):
    """A word in the colour it has in the drawing (`text` already escaped)."""
    font = f' COLOR="{color}"' if color else ""
    return f'<TD><FONT POINT-SIZE="{TEXT_SIZE}"{font}>{text}</FONT></TD>'


# key -> (sample cell, what it means); the legend lists them in this order.
ENTRIES = {
    "root": (swatch(labels.FILL["root"], border=2), "the root (gradients are of it)"),
    "parameter": (swatch(labels.FILL["parameter"]), "parameter"),
    "input": (swatch(labels.FILL["input"]), "input that wants a gradient"),
    "constant": (swatch(labels.FILL["constant"]), "constant: no gradient"),
    "grad": (text_sample("grad", labels.GRAD_COLOR), "gradient of the root"),
    "grad none": (text_sample("grad none", labels.MUTED_COLOR), "no gradient reaches it"),
    "op": (f'<TD BGCOLOR="{labels.OP_FILL}" BORDER="1" STYLE="rounded" COLOR="#566573">'
           f'<FONT POINT-SIZE="{TEXT_SIZE}">Op()</FONT></TD>', "op, with its settings"),
    "step": (text_sample("#1", labels.GRAD_COLOR), "order backward visits the ops"),
    "saved": (text_sample("saved", labels.MUTED_COLOR), "kept for backward"),
    "position": (text_sample("0  1"), "argument position"),
    "no grad arrow": (line_sample("dashed"), "input that takes no gradient"),
    "arrow grad": (text_sample("∂ 1.5", labels.GRAD_COLOR), "gradient sent back along the arrow"),
    "frame": (swatch("#ffffff", color=labels.FRAME_COLOR, style="rounded,dashed"),
              "scope (minigrad.scope)"),
    "folded": (swatch(labels.SCOPE_FILL), "scope folded into one box"),
    "more": (line_sample("dotted"), "boxes left out (max_nodes)"),
}


def entries(plan):
    """The keys of ENTRIES whose mark is drawn in the plan's boxes and arrows."""
    found = set()
    for place, attrs in plan.nodes.values():
        text, shape = attrs.get("label", ""), attrs.get("shape")
        if place:
            found.add("frame")
        if shape == "plain":                            # a tensor's table
            found.update(kind for kind in ("root", "parameter", "input", "constant")
                         if f'BGCOLOR="{labels.FILL[kind]}"' in text)
            if f'COLOR="{labels.GRAD_COLOR}">grad' in text:
                found.add("grad")
            if "grad none" in text:
                found.add("grad none")
        elif shape == "box":                            # an op
            found.add("op")
            found.update(key for key, mark in (("step", "backward #"), ("saved", ">saved "))
                         if mark in text)
        elif shape == "box3d":
            found.add("folded")
        elif shape == "note":
            found.add("more")
    for _, _, attrs in plan.edges:
        text = attrs.get("label", "")
        if attrs.get("style") == "dashed":
            found.add("no grad arrow")
        if labels.GRAD_COLOR in text:
            found.add("arrow grad")
        if text[1:2].isdigit():                         # <0 ...>: an argument's position
            found.add("position")
    return [key for key in ENTRIES if key in found]


def graph_label(title, rows):
    """The drawing's label: the title (if any), and under it the legend's rows of (sample, text),
    COLUMNS entries to a row."""
    parts = []
    if title:
        parts.append(f'<TR><TD><FONT POINT-SIZE="16">{labels.escape(title)}</FONT></TD></TR>')
    cells = [sample + f'<TD ALIGN="LEFT"><FONT POINT-SIZE="{TEXT_SIZE}">{labels.escape(text)}'
             '</FONT></TD>' for sample, text in rows]
    body = "".join(f"<TR>{''.join(cells[k:k + COLUMNS])}</TR>"
                   for k in range(0, len(cells), COLUMNS))
    parts.append('<TR><TD><TABLE BORDER="1" COLOR="#aeb6bf" CELLBORDER="0" CELLSPACING="3" '
                 f'CELLPADDING="1">{body}</TABLE></TD></TR>')
    return f'<<TABLE BORDER="0" CELLSPACING="2">{"".join(parts)}</TABLE>>'


def show(drawing, title, rows):
    """Write the title and the legend (rows of (sample, text), or None: no legend) as the
    drawing's label, and remember them for `add_entry`."""
    drawing._legend = (title, rows)
    if rows:
        drawing.graph_attr.update(label=graph_label(title, rows), labelloc="t")
    elif title:                                         # the title alone, in plain text
        drawing.graph_attr.update(label=labels.escape(title), labelloc="t", fontsize="16")


def add_entry(drawing, sample, text):
    """Add a mark that the caller drew itself (e.g. an arrow of its own) to the legend of a
    drawing made by draw_graph; nothing when it was drawn with legend=False."""
    title, rows = getattr(drawing, "_legend", (None, None))
    if rows is not None and (sample, text) not in rows:
        show(drawing, title, [*rows, (sample, text)])
