"""The known mistakes of predict mode (predict.py, question.py): for a question's element, the
number each mistake would give, computed from the arrays of the same backward walk, so that a
wrong answer can be named.

    missed_sum        a tensor used several times: one use's term instead of the sum of all
    broadcast_sum     an input broadcast in the forward: one element of the gradient before the
                      sum over the broadcast axes (from the op's own backward run on the input
                      broadcast to the output's shape)
    transposed        a matmul with an operand transposed the wrong way (dL/dY @ B, B^T @ ...)
    softmax_diagonal  the softmax Jacobian taken as its diagonal: y_i (1 - y_i) dL/dy_i
    sublayer_only     a residual, y = x + f(x): only what comes back through f, missing dL/dy,
                      which reaches x straight through the sum (dL/dy alone is a missed_sum)
    scale_forgotten   y = x * c or x / c for a constant c (1/sqrt(d_k)): dL/dy passed on unscaled
    norm_constants    a layer norm with the row's mean and variance taken as constants:
                      dL/dx = dL/dy * weight / sigma (one op), or (composed from primitive
                      ops) only what (x - mean(x)) / sigma sends back through its division
    through_mask      a masked element, where(cond, a, b) (masked.py): a nonzero gradient, as
                      if there were no mask (the unmasked softmax's, or dL/dy passed on)
    derivative_forgotten  y = sigmoid(x) or tanh(x): dL/dy passed on, without the slope
    sigmoid_as_slope  sigmoid's slope taken as sigma itself: dL/dy * y, not dL/dy * y (1 - y)
    square_forgotten  tanh's slope taken as 1 - y: dL/dy * (1 - y), not dL/dy * (1 - y**2)
    output_for_factor y = a * b: the output in place of the other factor, dL/da = dL/dy * y
    own_factor        y = a * b: its own factor in place of the other, dL/da = dL/dy * a
    sign              the right size with the wrong sign

question.py gathers each question's candidates, as (kind, array) or (kind, array, the same
mistake worked from the numbers as the page shows them, shown.py); judging.py decides which of
their numbers the page names, and which mistakes a question cannot catch.
"""

import numpy as np

from minigrad.ops.arithmetic import unbroadcast
from minigrad.viz.explorer.words import words

# Each mistake's text, and its name in a few words, as English says them (the words of every
# language are in words/: mistake.KIND and mistake_name.KIND).
MISTAKES = {key.split(".")[1]: text for key, text in words("en").items()
            if key.startswith("mistake.")}
NAMES = {key.split(".")[1]: text for key, text in words("en").items()
         if key.startswith("mistake_name.")}


def broadcast(op, out, x):
    """Whether x was broadcast in an elementwise op so that its elements were used several
    times (a (4H,) bias added to (B, 4H) gates, B > 1), so its gradient is a sum."""
    shapes = [y.shape for y in op.inputs]
    try:
        same = np.broadcast_shapes(*shapes) == out.shape
    except ValueError:
        return False
    return same and len(op.inputs) > 1 and x.size < out.size


def local_rules(op, position, grad_y, y, x):
    """The mistakes in an op's own rule, as (kind, the gradient it would send input
    `position`), from the gradient arriving, the output y and that input's values x (the
    engine's, or as shown): a sigmoid's or tanh's slope forgotten or wrong; for a product
    a * b, the output or the input's own factor in place of the other factor (not when the
    other is a constant: scale_forgotten). Nothing for any other op."""
    name = type(op).__name__
    if name == "Sigmoid":
        return [("derivative_forgotten", grad_y), ("sigmoid_as_slope", grad_y * y)]
    if name == "Tanh":
        return [("derivative_forgotten", grad_y), ("square_forgotten", grad_y * (1 - y))]
    if name == "Mul" and len(op.inputs) == 2 and constant_scale(op, position) is None:
        return [(kind, unbroadcast(grad_y * factor, x.shape))
                for kind, factor in (("output_for_factor", y), ("own_factor", x))]
    return []


def unsummed(op, position, grad_y):
    """What the op's backward sends to input `position` when that input comes in already
    broadcast to the output's shape: its gradient before the sum over the broadcast axes. A new
    op of the same class and settings runs forward and backward; the graph is not touched."""
    try:
        fresh = type(op)(**{name: getattr(op, name) for name in op.settings})
        arrays = [np.broadcast_to(x.data, grad_y.shape) if k == position else x.data
                  for k, x in enumerate(op.inputs)]
        fresh.needs_input_grad = op.needs_input_grad
        fresh.forward(*arrays)
        grad = fresh.backward(grad_y)[position]
    except Exception:                       # an op that cannot run this way: no such mistake
        return None
    return np.asarray(grad) if grad is not None and np.shape(grad) == grad_y.shape else None


def transposed(op, position, grad_y):
    """The gradients a matmul gives with an operand transposed the wrong way, those that have
    the input's shape at all (for a vector or a non-square matrix, few or none do)."""
    a = op.a[None, :] if op.a.ndim == 1 else op.a                  # as MatMul.backward does
    b = op.b[:, None] if op.b.ndim == 1 else op.b
    target = (a if position == 0 else b).shape
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    g = grad_y.reshape(batch + (a.shape[-2], b.shape[-1]))       # (..., n, m)
    other = b if position == 0 else a
    right = g @ np.swapaxes(b, -1, -2) if position == 0 else np.swapaxes(a, -1, -2) @ g
    wrong = []
    for left_g in (True, False):
        for tg in (False, True):
            for to in (False, True):
                gg = np.swapaxes(g, -1, -2) if tg else g
                oo = np.swapaxes(other, -1, -2) if to else other
                try:
                    product = gg @ oo if left_g else oo @ gg
                except ValueError:
                    continue
                for candidate in (product, np.swapaxes(product, -1, -2)):
                    if candidate.shape == target and not np.allclose(candidate, right):
                        wrong.append(candidate.reshape(op.inputs[position].shape))
    return wrong


def depends_on(t, x):
    """Whether tensor t was computed from x (x is t, or an input of its ops at any depth)."""
    stack, seen = [t], set()
    while stack:                                # iterative: a long chain is no recursion
        u = stack.pop()
        if u is x:
            return True
        if id(u) in seen or u.creator is None:
            continue
        seen.add(id(u))
        stack.extend(u.creator.inputs)
    return False


def direct_paths(graph, x, received):
    """The terms of x's gradient sent by an Add that adds x to something made from x (a
    residual, y = x + f(x)): what reaches x straight through the sum."""
    found = []
    for step, term in received:
        op = graph.steps[step][0]
        if type(op).__name__ != "Add" or all(y is not x for y in op.inputs):
            continue
        others = [y for y in op.inputs if y is not x]
        if others and any(depends_on(y, x) for y in others):
            found.append(term)
    return found


def scale_text(op, position):
    """The constant an op scales input `position` by, as the mistake's text says it: "5.657"
    for x * 5.657, "1/4 = 0.25" for x / 4; "" for any other op."""
    factor = constant_scale(op, position)
    if factor is None:
        return ""
    if type(op).__name__ == "Div":
        return f"1/{1 / factor:.4g} = {factor:.4g}"
    return f"{factor:.4g}"


def constant_scale(op, position):
    """The factor c of y = x * c or y = x / c (1/c then) for a constant c, one number that gets
    no gradient, so that dL/dx = dL/dy * factor; None for any other op, or a factor of 1 or -1."""
    name = type(op).__name__
    if name not in ("Mul", "Div") or len(op.inputs) != 2 or (name == "Div" and position != 0):
        return None
    other = op.inputs[1 - position]
    if other.requires_grad or other.data.size != 1:
        return None
    c = float(np.asarray(other.data, dtype=np.float64).reshape(()))
    factor = c if name == "Mul" else 1.0 / c if c != 0 else float("inf")
    return factor if np.isfinite(factor) and abs(factor) not in (0.0, 1.0) else None


def norm_constants(op, position, grad_y):
    """A layer norm's (one op, FusedLayerNorm) gradient to x with the mean and the variance of
    each row taken as constants: dL/dy * weight / sigma. None for any other op or input."""
    if type(op).__name__ != "FusedLayerNorm" or position != 0:
        return None
    width = op.weight.shape[0]
    rows = grad_y.reshape(-1, width) * op.weight * op.inv_sigma[:, None]     # (N, D)
    return rows.reshape(grad_y.shape)


def centred_constants(graph, x, received, total):
    """x's whole gradient with the mean and the spread of a normalisation built from ops,
    (x - mean(x)) / s, taken as constants: what the division sends back to x - mean(x), in place
    of all that the subtraction and the mean send x (the terms through mean(x), and through s,
    which is made from x - mean(x) too). One array per such normalisation of x."""
    steps = {id(graph.steps[k][0]): k for k, _ in received}
    found = []
    for k, term in received:
        sub = graph.steps[k][0]
        if type(sub).__name__ != "Sub" or sub.inputs[0] is not x:
            continue
        mean = sub.inputs[1].creator
        if mean is None or type(mean).__name__ != "Mean" or mean.inputs[0] is not x:
            continue
        centred = graph.tensors[graph.outputs[id(sub)]]
        divided = [j for j, (op, _, _, grads, _) in enumerate(graph.steps)
                   if type(op).__name__ == "Div" and op.inputs[0] is centred
                   and grads[0] is not None]
        through_mean = [g for j, g in received if j == steps.get(id(mean))]
        if len(divided) == 1 and len(through_mean) == 1:
            found.append(total - term - through_mean[0] + graph.steps[divided[0]][3][0])
    return found
