"""Predict mode's question at a mask: y = where(cond, a, b) sends dL/dy back to a only where
cond holds, and to b only where it does not. An element it leaves out takes no part in the
output, so its gradient is exactly 0: the question asks for one such element.

    scores (T, T) --where(causal_mask, scores, -inf)--> masked scores --softmax--> weights

When the mask's output goes into a softmax, the question is asked at the softmax's first step
(its `span` runs from there to the mask's step, and `mask` is true): there the page shows the
gradient arriving at the weights, not yet the zero that arrives at the mask (the softmax sends
0 to a score of -inf, whose weight is 0), which would give the answer away.

The known mistake (mistakes.py, through_mask) is a nonzero gradient flowing through the mask
anyway: what the element would get without it. When the Where's output goes into a softmax
(over its last axis: a fused `Softmax`, or one built from primitive ops, softmaxes.py), that is
the unmasked softmax's gradient, y_u * (dL/dy - sum(dL/dy * y_u)) with y_u = softmax(scores),
from the same dL/dy (the gradient arriving at the weights); in any case, dL/dy itself passed on
where it is not 0.
"""

import numpy as np

from minigrad.viz.explorer.judging import matching
from minigrad.viz.explorer.question import MAX_CANDIDATES, question_name
from minigrad.viz.explorer.words import say


def blocked(op, out, position):
    """The elements of input `position` of a Where that it sends no gradient to (a boolean
    array of the input's shape), when there are some and the input has the output's shape (one
    element of the input, one of the output); else None."""
    if type(op).__name__ != "Where":
        return None
    x = op.inputs[position]
    if x.shape != out.shape:
        return None
    kept = np.broadcast_to(op.cond, out.shape)
    left_out = ~kept if position == 0 else kept
    return left_out if left_out.any() else None


def masked_question(graph, k, position, softmaxes=()):
    """The question about an element of input `position` of the Where at step k that the mask
    leaves out: its answer is 0. softmaxes: the graph's softmaxes built from ops (their `x` and
    `y`), to find the one the Where's output goes into. None when no element has a known
    mistake clearly apart from 0."""
    op, out, grad_y, grads_in, _ = graph.steps[k]
    x = op.inputs[position]
    left_out = blocked(op, out, position)
    term = grads_in[position]
    if left_out is None or term is None:
        return None
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        softmax_step, unmasked = _unmasked_softmax(graph, x, out, softmaxes)
        candidates = [("through_mask", through) for through in (unmasked, grad_y)
                      if through is not None and np.shape(through) == x.shape]
        flat = np.asarray(term, dtype=np.float64).ravel()
        if not np.all(np.isfinite(flat)):
            return None
        scale = float(np.max(np.abs(flat))) if flat.size else 0.0
        tolerance = max(1e-3 * scale, 1e-12)
        best = None
        for i in np.flatnonzero(left_out.ravel())[:MAX_CANDIDATES]:
            index = np.unravel_index(i, x.shape)
            mistakes, not_caught, _ = matching(candidates, index, 0.0, tolerance, graph.text)
            size = max((abs(m["value"]) for m in mistakes), default=0.0)
            if mistakes and (best is None or size > best[0]):
                best = (size, index, mistakes, not_caught)
    if best is None:
        return None
    _, index, mistakes, not_caught = best
    name = question_name(graph, x, position)
    for mistake in mistakes:
        mistake["text"] = say(graph.text, "mistake." + mistake["kind"], name=name)
    asked = {"step": k + 1, "input": position, "tensor": graph.tensor_index[id(x)],
             "index": [int(i) for i in index], "total": False, "answer": 0.0,
             "tolerance": float(tolerance), "mistakes": mistakes, "not_caught": not_caught,
             "span": None, "mask": True}
    if softmax_step is not None:                # asked where the softmax starts, before the 0
        asked.update(step=softmax_step, input=None, span=[softmax_step, k + 1])
    return asked


def _unmasked_softmax(graph, x, out, softmaxes):
    """(first, gradient): the step where the softmax that takes the Where's output (over its
    last axis) starts, and the gradient x would get if that softmax took x itself,
    y_u * (dL/dy - sum(dL/dy * y_u)), y_u = softmax(x); (None, None) when the output goes into
    no such softmax."""
    built = next((s for s in softmaxes if s.x is out), None)
    ops = built.ops if built is not None else [
        user for user, _ in graph.users.get(id(out), [])
        if type(user).__name__ == "Softmax" and user.axis in (-1, out.ndim - 1)][:1]
    y = built.y if built is not None else (graph.tensors[graph.outputs[id(ops[0])]] if ops
                                           else None)
    step = next((s for s in graph.steps if s[1] is y), None) if y is not None else None
    numbers = [graph.data["ops"][graph.op_index[id(o)]]["step"] for o in ops]
    numbers = [n for n in numbers if n is not None]
    if step is None or not numbers or not np.allclose(np.sum(y.data, axis=-1), 1.0):
        return None, None
    grad_weights = step[2]                                      # dL/dy at the softmax's output
    shifted = np.exp(x.data - np.max(x.data, axis=-1, keepdims=True))
    unmasked = shifted / np.sum(shifted, axis=-1, keepdims=True)
    return min(numbers), unmasked * (grad_weights - np.sum(grad_weights * unmasked, axis=-1,
                                                           keepdims=True))
