"""The known mistakes of predict mode (predict.py, question.py): for a question's element, the
number each mistake would give, computed from the arrays of the same backward walk, so that a
wrong answer can be named.

    missed_sum        a tensor used several times: one use's term instead of the sum of all
    broadcast_sum     an input broadcast in the forward: one element of the gradient before the
                      sum over the broadcast axes (from the op's own backward run on the input
                      broadcast to the output's shape)
    transposed        a matmul with an operand transposed the wrong way (dL/dY @ B, B^T @ ...)
    softmax_diagonal  the softmax Jacobian taken as its diagonal: y_i (1 - y_i) dL/dy_i
    sign              the right size with the wrong sign

question.py gathers each question's candidates, as (kind, array); `matching` keeps those whose
number at the element asked stands apart from the answer.
"""

import numpy as np

MISTAKES = {
    "missed_sum": "that is one term alone: {name} is {used}, and its gradient is the sum of "
                  "what each use sends back",
    "broadcast_sum": "that is one element before the sum: {name} {shape} was broadcast to "
                     "{out_shape} in the forward, so its gradient sums dL/dy over the broadcast "
                     "axes",
    "transposed": "that is a transposed matmul: for Y = A @ B, dL/dA = dL/dY @ B^T and "
                  "dL/dB = A^T @ dL/dY",
    "softmax_diagonal": "that is the diagonal of the softmax Jacobian only, y_i (1 - y_i) "
                        "dL/dy_i: every weight depends on every score, so dL/dx_i = "
                        "y_i (dL/dy_i - sum_j y_j dL/dy_j)",
    "sign": "right size, wrong sign",
}


def broadcast(op, out, x):
    """Whether x was broadcast in an elementwise op so that its elements were used several
    times (a (4H,) bias added to (B, 4H) gates, B > 1), so its gradient is a sum."""
    shapes = [y.shape for y in op.inputs]
    try:
        same = np.broadcast_shapes(*shapes) == out.shape
    except ValueError:
        return False
    return same and len(op.inputs) > 1 and x.size < out.size


def matching(candidates, index, answer, tolerance):
    """The mistaken numbers at `index` that are clearly apart from the answer (one per value)."""
    found = []
    for kind, array in candidates:
        if kind == "broadcast_sum":
            others, full, shape = array
            values = [others[index] + v for v in _sources(full, shape, index)]
        else:
            values = [np.asarray(array)[index]]
        for value in values:
            value = float(value)
            if (np.isfinite(value) and abs(value - answer) > 2 * tolerance
                    and abs(value) > tolerance          # a guess of 0 is no known mistake
                    and all(abs(value - m["value"]) > tolerance for m in found)):
                found.append({"kind": kind, "value": value})
    return found


def _sources(full, shape, index):
    """The entries of the un-summed gradient (the output's shape) that sum into x[index]."""
    owner = np.broadcast_to(np.arange(int(np.prod(shape))).reshape(shape), full.shape)
    return full[owner == np.ravel_multi_index(index, shape) if shape else owner == 0]


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
