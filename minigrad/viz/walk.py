"""What a drawing needs to know about a graph: its tensors and ops in order, who uses what
(`walk`, from `minigrad.graph`), and (when asked) every tensor's gradient, from the engine's own
backward walk.

Nothing here changes the graph: the leaves' `.grad` stays as it was.
"""

from dataclasses import dataclass, field

from minigrad.autograd import backward_walk
from minigrad.graph import Walk, walk

__all__ = ["Walk", "walk", "Gradients", "gradients"]


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
