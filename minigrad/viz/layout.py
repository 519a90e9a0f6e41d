"""Where boxes go on the page, where Graphviz's own choice reads badly around frames (clusters).

Labels on arrows. dot gives an arrow's label a place of its own between the two ends and knows
nothing of frames there: a gradient written on an arrow into a frame sat across the frame's
border, or outside the frame of both its ends. `labels_inside_frames` makes each label a small
box of its own, in the frame of the box the arrow comes from (the tensor that gradient flows
back to), and runs the arrow through it: frames are drawn around their boxes, so the label stays
inside.

Frames that follow one another. In the attention step, score, softmax and mix come one after the
other, yet dot steps them diagonally: a frame's own leaves (the row maximum, the values) take the
rank of the last box of the frame before, and frames that share a rank must stand side by side.
`compact_frames` starts every top-level frame at the first rank and lines them up across the
page, in the order they are drawn: columns from left to right when the drawing runs top to bottom
(TB), rows from top to bottom when it runs left to right (LR). The arrows from one frame to the
next no longer set ranks; they run back to the start of the next column or row.
"""

FIRST = "frames"            # the invisible box that lines the frames up
LABEL = "label"             # the name of a label's box: label0, label1, ... (by arrow)


def labels_inside_frames(nodes, edges):
    """nodes {name: (place, attributes)}, edges [(tail, head, attributes)] -> the same, with each
    labelled arrow cut in two at a box holding its label, placed in the frame of its tail (the
    tensor the gradient flows back to). The first half has no arrowhead; both keep the arrow's
    style."""
    nodes = dict(nodes)
    result = []
    for k, (tail, head, attrs) in enumerate(edges):
        if "label" not in attrs:
            result.append((tail, head, attrs))
            continue
        style = {key: value for key, value in attrs.items() if key != "label"}
        name = f"{LABEL}{k}"
        nodes[name] = (nodes[tail][0], {"label": attrs["label"], "shape": "plain",
                                        "fontsize": "9"})
        result.append((tail, name, {**style, "arrowhead": "none"}))
        result.append((name, head, style))
    return nodes, result


def compact_frames(nodes, edges):
    """The same nodes and edges, with the top-level frames lined up (see the module docstring):
    arrows between two different top-level frames get constraint=false, and an invisible first
    box points at the first box of each frame in turn (ordering=out keeps that order). A label's
    box on such an arrow moves beside its tensor (minlen=0: the same rank), so that the arrow
    back to the next frame starts one rank below, where dot draws it straight; from further
    down, dot routes it around the frames. Nothing changes with fewer than two top-level
    frames."""
    frame = {name: place[:1] for name, (place, _) in nodes.items()}
    firsts = {}                                         # top-level frame -> its first box
    for name, top in frame.items():
        if top:
            firsts.setdefault(top, name)
    if len(firsts) < 2:
        return nodes, edges
    into = {head: k for k, (_, head, _) in enumerate(edges) if head.startswith(LABEL)}
    result = list(edges)
    for k, (tail, head, attrs) in enumerate(edges):
        if frame[tail] and frame[head] and frame[tail] != frame[head]:
            result[k] = (tail, head, {**attrs, "constraint": "false"})
            if tail in into:
                before, box, style = result[into[tail]]
                result[into[tail]] = (before, box, {**style, "minlen": "0"})
    nodes = {**nodes, FIRST: ((), {"label": "", "style": "invis", "shape": "point",
                                   "width": "0", "height": "0", "ordering": "out"})}
    result += [(FIRST, first, {"style": "invis"}) for first in firsts.values()]
    return nodes, result
