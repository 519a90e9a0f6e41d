"""draw_graph: the computation graph behind a tensor, as a Graphviz drawing.

Tensors are tables (name, shape and dtype; values; gradient), ops are rounded boxes with their
settings, and an arrow goes from each input to the op and from the op to its output. The ops
recorded inside `with minigrad.scope(name):` are drawn inside a frame of that name (a cluster),
or, when the name is in `collapse`, folded into one box, which holds the parameters and
constants used only there (it counts the parameters; unfolded, each has its box).

Everything is numbered in the order of a fixed walk of the graph (tensors t0, t1, ..., ops op0,
op1, ...), never by `id()`, so the same graph gives the same DOT text, byte for byte.
"""

from minigrad.graph import walk
from minigrad.tensor import Tensor
from minigrad.versions import SavedArrayError
from minigrad.viz import labels
from minigrad.viz.walk import gradients

RANKDIRS = ("TB", "LR", "BT", "RL")

# The deepest nesting of scopes a drawing or an explorer page shows. Each frame (cluster) sits
# inside the frames of its enclosing scopes, and its DOT text is indented once per frame around
# it, so the text grows as depth squared: one op inside 1,000 nested scopes took 1 s and 0.7 GB
# to draw, 1,600 took 3 s and 2.5 GB, and Graphviz itself gave up (its parser ran out of
# memory) at 2,500. Models nest a few scopes deep. Read at each call: raise it on purpose.
MAX_SCOPE_DEPTH = 100


def draw_graph(root, *, show_values=True, show_grads=True, show_saved=False, names=None,
               collapse=None, rankdir="TB", max_nodes=None, backward_order=False, grad=None,
               title=None, legend=True, compact=False):
    """The graph behind `root` as a `graphviz.Digraph` (it shows itself in Jupyter; `.render()`
    and `minigrad.viz.render()` write SVG, PNG or PDF).

    root            a tensor, or a list of tensors drawn together (gradients come from the first)
    show_values     write each tensor's values (a summary for large arrays)
    show_grads      write each tensor's gradient d(root)/d(tensor). Computed here, by the engine's
                    own backward walk (hooks included), when the root is a single number or `grad`
                    is given; nothing is stored in any `.grad`. Otherwise the leaves' `.grad` is
                    shown as it is.
    show_saved      list in each op what it saved for its backward
    names           labels for tensors: a dict {name: tensor}, or a Module (its named_parameters)
    collapse        scope names (or one name) whose ops are drawn as a single box
    rankdir         "TB" (top to bottom), "LR", "BT" or "RL"
    max_nodes       draw only this many boxes, those nearest the root, and one "… more" box
    backward_order  number the ops in the order backward visits them and write on every arrow
                    the gradient that flows back along it
    grad            the gradient arriving at a root that is not a single number
    title           a caption above the drawing
    legend          a key under the title: what the colours, borders and line styles mean (only
                    those that appear in this drawing)
    compact         line the top-level frames up across the page, each from the first rank:
                    columns for "TB", rows for "LR" (see minigrad/viz/layout.py)
    """
    if rankdir not in RANKDIRS:
        raise ValueError(f"draw_graph: rankdir must be one of {RANKDIRS}, not {rankdir!r}")
    if max_nodes is not None and max_nodes < 1:
        raise ValueError(f"draw_graph: max_nodes must be at least 1, not {max_nodes}")
    roots = _as_roots(root)
    graph = walk(roots)
    collapse = _collapse_set(collapse)
    check_scope_depth([_drawn_scope(op.scope, collapse) for op in graph.ops], "draw_graph",
                      "fold the deep scopes into one box each (draw_graph(..., collapse=[...]))")
    passed = _backward_pass(roots[0], grad, show_grads, backward_order)
    if passed is not None:
        grads = passed.of_tensor
    else:
        grads = {id(t): t.grad for t in graph.tensors if t.creator is None and t.grad is not None}
    plan = _Plan(graph, roots, _known_names(graph, names), collapse)
    plan.gradients_on_arrows = backward_order
    plan.add_everything(
        values=show_values, grads=grads if show_grads else {},
        none_grads=show_grads and passed is not None,
        edges=passed.along_edge if backward_order else None,
        steps={id(op): k for k, op in enumerate(passed.order, 1)} if backward_order else {},
        saved=show_saved)
    if max_nodes is not None:
        plan.keep_nearest(max_nodes)

    from minigrad.viz.drawing import build
    return build(plan, rankdir, title, legend=legend, compact=compact)


def check_scope_depth(scopes, where, what_to_do):
    """Refuse, in one line, scope paths nested deeper than MAX_SCOPE_DEPTH, before any drawing
    is built (see MAX_SCOPE_DEPTH)."""
    deepest = max(scopes, key=len, default=())
    if len(deepest) > MAX_SCOPE_DEPTH:
        raise ValueError(f"{where}: the graph has scopes nested {len(deepest):,} deep (inside "
                         f"{deepest[0]!r}), more than the {MAX_SCOPE_DEPTH} a drawing shows "
                         f"(minigrad.viz.dot.MAX_SCOPE_DEPTH); {what_to_do}")


def _drawn_scope(scope, collapse):
    """The scope path whose frames are drawn around an op: the frames around its collapsed
    scope's box, if it is in one."""
    group = _group(scope, collapse)
    return tuple(scope) if group is None else group[:-1]


def _as_roots(root):
    roots = [root] if isinstance(root, Tensor) else list(root)
    if not roots or not all(isinstance(t, Tensor) for t in roots):
        raise TypeError("draw_graph: root must be a Tensor or a non-empty list of Tensors")
    return roots


def _backward_pass(root, grad, show_grads, backward_order):
    """The gradients to draw, from the engine's walk; None where none can be computed (and none
    are needed): a root that is not a single number and has no `grad`."""
    if not (show_grads or backward_order):
        return None
    if root.requires_grad and root.data.size != 1 and grad is None and not backward_order:
        return None                     # (backward_order: the engine's own error says why)
    try:
        return gradients(root, grad)
    except SavedArrayError as error:    # e.g. drawn after optimizer.step()
        raise SavedArrayError(f"draw_graph: the gradients cannot be drawn: {error}\n(To draw "
                              "this graph anyway, pass show_grads=False; or draw before "
                              "optimizer.step(), or after a new forward.)") from error


def _known_names(graph, names):
    """id(tensor) -> label: each tensor's own `name`, then those given in `names`."""
    known = {id(t): t.name for t in graph.tensors if t.name is not None}
    if names is None:
        return known
    pairs = names.named_parameters() if hasattr(names, "named_parameters") else names.items()
    for name, t in pairs:
        if not isinstance(t, Tensor):
            raise TypeError(f"draw_graph: names[{name!r}] is a {type(t).__name__}, not a Tensor")
        known[id(t)] = str(name)
    return known


def _collapse_set(collapse):
    if collapse is None:
        return ()
    return (collapse,) if isinstance(collapse, str) else tuple(str(name) for name in collapse)


class _Plan:
    """The boxes and arrows of a drawing, before they are written as DOT.

    nodes  name -> (scope path of the frame it sits in, Graphviz attributes)
    edges  [(tail, head, attributes)]
    """

    def __init__(self, graph, roots, known, collapse):
        self.graph, self.roots, self.known = graph, roots, known
        self.nodes, self.edges = {}, []
        self.tensor_names = {}                          # id(tensor) -> node name, drawn ones
        self.op_index = {id(op): j for j, op in enumerate(graph.ops)}
        self.group = {id(op): _group(op.scope, collapse) for op in graph.ops}
        self.group_names = {}                           # collapsed scope path -> node name
        self.gradients_on_arrows = False                # labels of arrows become boxes (layout)

    # ---- where things go ------------------------------------------------------------------

    def op_place(self, op):
        group = self.group[id(op)]
        return group[:-1] if group else tuple(op.scope)

    def tensor_place(self, t):
        if t.creator is not None:
            return self.op_place(t.creator)
        places = [self.op_place(op) for op, _ in self.graph.users.get(id(t), [])]
        if not places:
            return ()
        common = places[0]
        for place in places[1:]:
            n = 0
            while n < min(len(common), len(place)) and common[n] == place[n]:
                n += 1
            common = common[:n]
        return common

    def drawn(self, t):
        """False for a tensor hidden inside a collapsed scope: one made there and used only
        there, or a constant or a parameter used only there (the scope's box counts its
        parameters). An input that wants a gradient, not a parameter, is always drawn."""
        if any(t is r for r in self.roots):
            return True
        users = self.graph.users.get(id(t), [])
        if t.creator is not None:
            group = self.group[id(t.creator)]
            return group is None or any(self.group[id(op)] != group for op, _ in users)
        if (t.requires_grad and _kind(t, False) != "parameter") or not users:
            return True
        first = self.group[id(users[0][0])]
        return first is None or any(self.group[id(op)] != first for op, _ in users)

    # ---- boxes and arrows -----------------------------------------------------------------

    def add_everything(self, values, grads, none_grads, edges, steps, saved):
        for i, t in enumerate(self.graph.tensors):
            op = t.creator
            source = None
            if op is not None and self.group[id(op)] is None:
                source = self.add_op(op, steps, saved, edges)
            elif op is not None:
                source = self.add_group(self.group[id(op)], steps)
            if not self.drawn(t):
                continue
            name = f"t{i}"
            kind = _kind(t, t is self.roots[0])
            label = labels.tensor_label(t, self.known.get(id(t)), kind, values, grads.get(id(t)),
                                        show_grad=none_grads)
            self.nodes[name] = (self.tensor_place(t), {"label": label, "shape": "plain"})
            self.tensor_names[id(t)] = name
            if source is not None:
                self.edges.append((source, name, {}))
        for group in self.group_names:
            self.add_group_inputs(group, edges)

    def add_op(self, op, steps, saved, edges):
        name = f"op{self.op_index[id(op)]}"
        label = labels.op_label(op, steps.get(id(op)), saved)
        self.nodes[name] = (self.op_place(op), {"label": label, "shape": "box",
                                                "style": "rounded,filled",
                                                "fillcolor": labels.OP_FILL})
        for position, (x, text) in enumerate(zip(op.inputs, labels.argument_labels(op))):
            grad_x = None if edges is None else edges.get((id(op), position))
            self.edges.append((self.tensor_names[id(x)], name, labels.arrow(x, text, grad_x)))
        return name

    def add_group(self, group, steps):
        """The box of a collapsed scope, once."""
        if group in self.group_names:
            return self.group_names[group]
        name = f"scope{len(self.group_names)}"
        self.group_names[group] = name
        ops = [op for op in self.graph.ops if self.group[id(op)] == group]
        visits = sorted(steps[id(op)] for op in ops if id(op) in steps)
        held = [t for t in self.graph.tensors if _kind(t, False) == "parameter"
                and not self.drawn(t) and self.group[id(self.graph.users[id(t)][0][0])] == group]
        label = labels.scope_label(group[-1], ops, visits, held)
        self.nodes[name] = (group[:-1], {"label": label, "shape": "box3d", "style": "filled",
                                         "fillcolor": labels.SCOPE_FILL})
        return name

    def add_group_inputs(self, group, edges):
        """An arrow from each tensor that goes into the collapsed scope from outside, with the
        gradients sent back to it from inside added up."""
        inputs = {}                                     # id(x) -> [x, summed gradient]
        for op in self.graph.ops:
            if self.group[id(op)] != group:
                continue
            for position, x in enumerate(op.inputs):
                inside = x.creator is not None and self.group[id(x.creator)] == group
                if inside or not self.drawn(x):
                    continue
                entry = inputs.setdefault(id(x), [x, None])
                grad_x = None if edges is None else edges.get((id(op), position))
                if grad_x is not None:
                    entry[1] = grad_x if entry[1] is None else entry[1] + grad_x
        for x, grad_x in inputs.values():
            self.edges.append((self.tensor_names[id(x)], self.group_names[group],
                               labels.arrow(x, None, grad_x)))

    def keep_nearest(self, max_nodes):
        """Keep the `max_nodes` boxes nearest the roots (breadth first along the arrows,
        backwards); the rest become one "… more" box."""
        if len(self.nodes) <= max_nodes:
            return
        inputs = {}
        for tail, head, _ in self.edges:
            inputs.setdefault(head, []).append(tail)
        queue = [self.tensor_names[id(r)] for r in self.roots]
        kept, head = {}, 0
        while head < len(queue) and len(kept) < max_nodes:
            node = queue[head]
            head += 1
            if node not in kept:
                kept[node] = True
                queue.extend(inputs.get(node, []))
        dropped = len(self.nodes) - len(kept)
        self.nodes = {name: spec for name, spec in self.nodes.items() if name in kept}
        cut = [head for tail, head, _ in self.edges if head in kept and tail not in kept]
        self.edges = [e for e in self.edges if e[0] in kept and e[1] in kept]
        self.nodes["more"] = ((), {"label": f"… {dropped} more boxes (max_nodes={max_nodes})",
                                   "shape": "note", "color": labels.MUTED_COLOR,
                                   "fontcolor": labels.MUTED_COLOR})
        for node in dict.fromkeys(cut):
            self.edges.append(("more", node, {"style": "dotted", "color": labels.MUTED_COLOR}))


def _group(scope, collapse):
    """The collapsed scope an op belongs to: its scope path up to the first collapsed name."""
    for k, name in enumerate(scope):
        if name in collapse:
            return tuple(scope[:k + 1])
    return None


def _kind(t, is_root):
    from minigrad.nn import Parameter
    if is_root:
        return "root"
    if t.creator is not None:
        return "intermediate"
    if isinstance(t, Parameter):
        return "parameter"
    return "input" if t.requires_grad else "constant"
