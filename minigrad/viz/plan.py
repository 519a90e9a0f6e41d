"""The plan of a drawing: which boxes and arrows `draw_graph` draws, and in which frame each
box sits, before any of it is written as DOT (minigrad/viz/drawing.py writes it).

The folding rules live here: the ops recorded inside a scope named in `collapse` become one box
(`scope_group`), and a tensor made and used only inside such a scope, or a parameter or constant
used only there, is hidden in it (`Plan.drawn`). The explorer's page follows the same rules.

Every box is named in the order of the graph's walk (tensors t0, t1, ..., ops op0, op1, ...,
folded scopes scope0, scope1, ...), never by `id()`, so the same graph gives the same plan.
"""

from minigrad.viz import labels


class Plan:
    """The boxes and arrows of a drawing, before they are written as DOT.

    nodes  name -> (scope path of the frame it sits in, Graphviz attributes)
    edges  [(tail, head, attributes)]
    """

    def __init__(self, graph, roots, known, collapse):
        self.graph, self.roots, self.known = graph, roots, known
        self.nodes, self.edges = {}, []
        self.tensor_names = {}                          # id(tensor) -> node name, drawn ones
        self.op_index = {id(op): j for j, op in enumerate(graph.ops)}
        self.group = {id(op): scope_group(op.scope, collapse) for op in graph.ops}
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
        if (t.requires_grad and tensor_kind(t, False) != "parameter") or not users:
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
                source = self.addscope_group(self.group[id(op)], steps)
            if not self.drawn(t):
                continue
            name = f"t{i}"
            kind = tensor_kind(t, t is self.roots[0])
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

    def addscope_group(self, group, steps):
        """The box of a collapsed scope, once."""
        if group in self.group_names:
            return self.group_names[group]
        name = f"scope{len(self.group_names)}"
        self.group_names[group] = name
        ops = [op for op in self.graph.ops if self.group[id(op)] == group]
        visits = sorted(steps[id(op)] for op in ops if id(op) in steps)
        held = [t for t in self.graph.tensors if tensor_kind(t, False) == "parameter"
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


def scope_group(scope, collapse):
    """The collapsed scope an op belongs to: its scope path up to the first collapsed name."""
    for k, name in enumerate(scope):
        if name in collapse:
            return tuple(scope[:k + 1])
    return None


def tensor_kind(t, is_root):
    from minigrad.nn import Parameter
    if is_root:
        return "root"
    if t.creator is not None:
        return "intermediate"
    if isinstance(t, Parameter):
        return "parameter"
    return "input" if t.requires_grad else "constant"
