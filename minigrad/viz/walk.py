"""What a drawing needs to know about a graph: its tensors and ops in order, who uses what, and
(when asked) every tensor's gradient, computed by a backward pass of our own.

Nothing here changes the graph: the leaves' `.grad` stays as it was, and the ops are only asked
for their `backward`, exactly as `minigrad.autograd.backward` asks them.
"""

from dataclasses import dataclass, field

import numpy as np

from minigrad.tensor import Tensor


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
    order in which the ops were visited. The same loop as `minigrad.autograd.backward`, except
    that it keeps every gradient it meets (in its own dicts) and sets no `.grad` anywhere.

    root   a scalar tensor, or any tensor with `grad`, the gradient arriving at it (its shape)
    """
    from minigrad.autograd import topological_order

    result = Gradients()
    if not root.requires_grad:
        return result
    if grad is None:
        if root.data.size != 1:
            raise ValueError(f"draw_graph: the root has shape {root.shape}, not a single number; "
                             "pass grad= an array of that shape to draw gradients")
        grad = np.ones_like(root.data)
    grad = np.array(grad.data if isinstance(grad, Tensor) else grad, dtype=root.dtype)
    if grad.shape != root.shape:
        raise ValueError(f"draw_graph: grad has shape {grad.shape}, the root has shape "
                         f"{root.shape}")

    in_flight = {id(root): grad}
    for t in reversed(topological_order(root)):
        grad_t = in_flight.pop(id(t), None)
        if grad_t is None:
            continue
        result.of_tensor[id(t)] = grad_t
        if t.creator is None:
            continue
        op = t.creator
        result.order.append(op)
        for position, (x, grad_x) in enumerate(zip(op.inputs, op.backward(grad_t))):
            if grad_x is None or not x.requires_grad:
                continue
            grad_x = np.asarray(grad_x, dtype=x.data.dtype)
            result.along_edge[id(op), position] = grad_x
            old = in_flight.get(id(x))
            in_flight[id(x)] = grad_x if old is None else old + grad_x     # never in place
    return result

