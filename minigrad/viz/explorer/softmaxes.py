"""Which ops of a graph make a softmax built from primitive ops, for predict mode's softmax
question: what the softmax as a whole sends back to its input x.

    y = exp(x - c) / sum(exp(x - c))        c: a constant shift, or the max of x (an op too)

Two ways to tell, either is enough:

    by its shape      Div(e, s) with e = Exp(x - c) (or Exp(x)), s = Sum(e), maybe through a
                      Where (`attention.softmax` divides rows all masked by 1): so the softmax
                      of attention/ code is found in any scope ("attention" in a decoder step)
    by its scope      the ops recorded in a `minigrad.scope("softmax")` that use, at any depth,
                      a tensor x coming from outside it (written any other way)

A softmax is (x, ops, y): the ops in the order the graph records them (the Max of x among them
when c is one: what it sends back to x is part of the softmax's gradient), and y, the one
tensor made there that is used outside (or the root). Without one such y it is not a softmax.
"""

from dataclasses import dataclass


@dataclass
class BuiltSoftmax:
    x: object                  # the input (a Tensor)
    ops: list                  # its ops
    y: object                  # the output (a Tensor)


def softmaxes(graph):
    """Every softmax built from primitive ops in the graph (a `data.Graph`), each one once."""
    found, taken = [], set()
    for op in graph.ops:
        match = _by_shape(graph, op)
        if match is not None:
            found.append(match)
            taken.update(id(o) for o in match.ops)
    starts = {}                                 # (scope, id(x)) -> the ops that take x there
    for op in graph.ops:
        if id(op) in taken or not op.scope or op.scope[-1].lower() != "softmax":
            continue
        for x in op.inputs:
            if x.requires_grad and (x.creator is None
                                    or tuple(x.creator.scope) != tuple(op.scope)):
                starts.setdefault((tuple(op.scope), id(x)), (x, []))[1].append(op)
    for x, ops in starts.values():
        inside = _downstream(graph, ops)
        y = _leaving(graph, inside)
        if y is not None and y.shape == x.shape and not any(id(o) in taken for o in inside):
            found.append(BuiltSoftmax(x, inside, y))
            taken.update(id(o) for o in inside)
    return found


def _made_by(t, name):
    return t.creator if t.creator is not None and type(t.creator).__name__ == name else None


def _by_shape(graph, div):
    """The softmax whose last op is `div`, if it has the shape above; else None."""
    if type(div).__name__ != "Div":
        return None
    e, s = div.inputs
    exp = _made_by(e, "Exp")
    where = _made_by(s, "Where")
    total = _made_by(s, "Sum") or next((_made_by(t, "Sum") for t in (where.inputs if where
                                                                       else ())
                                        if _made_by(t, "Sum")), None)
    if exp is None or total is None or total.inputs[0] is not e:
        return None
    ops = [exp, total] + ([where] if where is not None else []) + [div]
    x = exp.inputs[0]
    sub = _made_by(x, "Sub")
    if sub is not None:
        ops.insert(0, sub)
        x, c = sub.inputs
        peak = _made_by(c, "Max")
        if peak is not None and peak.inputs[0] is x:
            ops.insert(0, peak)
    y = graph.tensors[graph.outputs[id(div)]]
    if not x.requires_grad or y.shape != x.shape or _leaving(graph, ops) is not y:
        return None
    return BuiltSoftmax(x, ops, y)


def _downstream(graph, ops):
    """ops, and every op of the same scope that uses, at any depth, what they made."""
    found, stack = list(ops), list(ops)
    while stack:
        out = graph.tensors[graph.outputs[id(stack.pop())]]
        for user, _ in graph.users.get(id(out), []):
            if tuple(user.scope) == tuple(ops[0].scope) and all(user is not o for o in found):
                found.append(user)
                stack.append(user)
    return found


def _leaving(graph, ops):
    """The one tensor the ops make that is used outside them (or is the root), else None."""
    made = [graph.tensors[graph.outputs[id(o)]] for o in ops]
    root = graph.tensors[graph.data["root"]]
    leaving = [t for t in made if t is root or any(
        all(user is not o for o in ops) for user, _ in graph.users.get(id(t), []))]
    return leaving[0] if len(leaving) == 1 else None
