"""What a drawing needs to know about a graph: its tensors and ops in order, who uses what, and
(when asked) every tensor's gradient, from the engine's own backward walk.

Nothing here changes the graph: the leaves' `.grad` stays as it was.
"""

from dataclasses import dataclass, field

from minigrad.autograd import backward_walk


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


@dataclass
class Gradients:
    """What one backward pass from the root did.

    of_tensor   id(tensor) -> d(root)/d(tensor), for every tensor the gradient reached
    along_edge  (id(op), position) -> the gradient the op sent back to its input at `position`
    order       the ops in the order backward called them (the first is the root's creator)
    """

    of_tensor: dict = field(default_factory=dict)
    along_edge: dict = field(default_factory=dict)
    order: list = field(default_factory=list)


def gradients(root, grad=None):
    """d(root)/d(t) for every tensor t behind `root`, with the gradient along every edge and the
    order in which the ops were visited: the engine's own walk (`backward_walk`, hooks and all),
    kept in dicts. No `.grad` is set anywhere.

    root   a scalar tensor, or any tensor with `grad`, the gradient arriving at it (its shape)
    """
    result = Gradients()
    if not root.requires_grad:
        return result
    for t, grad_t, grads_in in backward_walk(root, grad):
        result.of_tensor[id(t)] = grad_t
        if grads_in is not None:                    # t was made by an op
            result.order.append(t.creator)
            for position, grad_x in enumerate(grads_in):
                if grad_x is not None:
                    result.along_edge[id(t.creator), position] = grad_x
    return result
