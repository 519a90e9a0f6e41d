"""The graph behind some tensors, every tensor and op of it, constants too: what a drawing
shows, and what the grader searches for the line that cut a graph.

`minigrad.topological_order` is the backward pass's walk: it keeps only the tensors that need a
gradient. This walk keeps everything, and notes who uses each tensor.
"""

from dataclasses import dataclass


@dataclass
class Walk:
    """The graph behind some root tensors, in topological order (each tensor after its inputs).

    tensors    every tensor reachable from the roots through `creator.inputs`, constants too
    ops        the op that made each non-leaf tensor, in the order of the tensors they made
    users      id(tensor) -> [(op, position)]: where the tensor goes in as an argument
    roots      the tensors the walk started from (the first one is the root of the gradients)
    """

    tensors: list
    ops: list
    users: dict
    roots: list


def walk(roots):
    """All tensors and ops behind `roots`, each tensor after all of its inputs.

    An iterative depth-first search (no recursion limit), inputs visited in argument order, so
    the order is the same on every run. Unlike `minigrad.topological_order` it keeps the inputs
    that need no gradient (constants) too: a drawing shows them.
    """
    tensors, ops = [], []
    users = {}
    visited = set()
    stack = [(t, False) for t in reversed(roots)]
    while stack:
        t, inputs_done = stack.pop()
        if inputs_done:
            tensors.append(t)                     # all of t's inputs are already in `tensors`
            if t.creator is not None:
                ops.append(t.creator)
            continue
        if id(t) in visited:
            continue
        visited.add(id(t))
        stack.append((t, True))
        if t.creator is not None:
            for x in reversed(t.creator.inputs):
                if id(x) not in visited:
                    stack.append((x, False))
    for op in ops:
        for position, x in enumerate(op.inputs):
            users.setdefault(id(x), []).append((op, position))
    return Walk(tensors, ops, users, list(roots))
