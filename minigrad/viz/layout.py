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
next run back to the start of the next column or row.
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
    """The same nodes and edges, with the top-level frames lined up (see the module docstring).

    An invisible first box points at the top box of each frame in turn (ordering=out keeps that
    order), so each frame starts at the first rank. An arrow from one frame into another now
    runs back up the page (or back to the left), which dot cannot draw as such: it routes an
    arrow that sets no rank (constraint=false) around the far side of every frame. So the arrow
    is written the other way round, head -> tail, and drawn backwards (dir=back): dot then only
    has to keep the head above the tail, and routes the arrow straight up through the gap
    between two columns (weight=0: it pulls nothing together). A reader of the DOT text finds
    these arrows with dir=back. Nothing changes with fewer than two top-level frames."""
    frame = {name: place[:1] for name, (place, _) in nodes.items()}
    firsts = _tops(frame, edges)                        # top-level frame -> its top box
    if len(firsts) < 2:
        return nodes, edges
    result = []
    for tail, head, attrs in edges:
        if frame[tail] and frame[head] and frame[tail] != frame[head]:
            result.append((head, tail, {**attrs, "dir": "back", "weight": "0"}))
        else:
            result.append((tail, head, attrs))
    nodes = {**nodes, FIRST: ((), {"label": "", "style": "invis", "shape": "point",
                                   "width": "0", "height": "0", "ordering": "out"})}
    result += [(FIRST, first, {"style": "invis"}) for first in firsts.values()]
    return nodes, result


def _tops(frame, edges):
    """{top-level frame: the box that starts the longest chain of arrows inside it}, frames in
    the order of their first box. Pulled to the first rank, that box brings the frame's top
    there; a box that merely comes first may sit lower (the queries, whose keys go through a
    Transpose first)."""
    below, inputs = {}, {}                              # inside one frame: head -> [tails]
    for tail, head, _ in edges:
        if frame[tail] and frame[tail] == frame[head]:
            inputs.setdefault(head, []).append(tail)
    order, done = [], set()                             # tails before heads, without recursion
    for start in frame:
        stack = [(start, False)]
        while stack:
            name, expanded = stack.pop()
            if expanded:
                order.append(name)
            elif name not in done:
                done.add(name)
                stack.append((name, True))
                stack.extend((tail, False) for tail in inputs.get(name, []))
    for name in reversed(order):                        # heads first: their chains are known
        below.setdefault(name, 0)
        for tail in inputs.get(name, []):
            below[tail] = max(below.get(tail, 0), below[name] + 1)
    tops = dict.fromkeys(top for top in frame.values() if top)     # in the order drawn
    for name, top in frame.items():
        if top and name not in inputs and (tops[top] is None or below[name] > below[tops[top]]):
            tops[top] = name
    return tops
