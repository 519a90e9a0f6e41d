"""One question of predict mode (predict.py chooses the ops and the input asked about):
which element of the gradient to ask, its answer and tolerance, and the known mistakes a
wrong answer would match.

The answer is the engine's number. The known mistakes (mistakes.py) are computed from the arrays
of the same backward walk, as the number each mistake would give for that element.

What counts as right: a number within `tolerance` of the answer. The tolerance is 1% of the
answer, at least 0.1% of the array's largest entry, and at least 1.5 times (MARGIN) how far the
answer worked by the right rule from the numbers as the page shows them (rounded: shown.py) lies
from the engine's: a learner works from the digits shown, and a right method on them is right.

A known mistake is recognised within its own tolerance (the question's, widened the same way
where the mistake can be worked from the shown numbers too), and named only where its number
can be told apart (judging.py, `matching`): its window clear of the answer's, of 0's and of
the other mistakes'. The element asked is the one where the most mistakes are caught fully
(every number they give named as them), then at all, then the one of largest size. Those the
page cannot name there at all go, in words, into `not_caught` (the page shows them in one line
with the question); a mistake named at some of its numbers is not among them:

    "not_caught": ["the softmax Jacobian taken as its diagonal, y_i (1 - y_i) dL/dy_i (here it
                    gives the right number, or 0)"]         (a one-hot dL/dy: no element can)
"""

import numpy as np

from minigrad.viz.explorer.judging import matching
from minigrad.viz.explorer.mistakes import (
    broadcast,
    centred_constants,
    constant_scale,
    direct_paths,
    local_rules,
    norm_constants,
    scale_text,
    transposed,
    unsummed,
)
from minigrad.viz.explorer.shown import shown, worked, worked_softmax
from minigrad.viz.explorer.words import say

MAX_CANDIDATES = 4096           # elements looked at when choosing the one to ask
MARGIN = 1.5                    # the tolerance covers the answer from the shown numbers, by this


def question(graph, k, position, received, softmax=None):
    """The question about input `position` of step k; softmax: "fused" for a Softmax op, a
    BuiltSoftmax for one built from ops (asked at its first step, about all its ops send).
    NaN and inf in the arrays make no question, and no warning on the way."""
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        return _question_of(graph, k, position, received, softmax)


def _question_of(graph, k, position, received, softmax):
    op, out, grad_y, grads_in, totals = graph.steps[k]
    x = op.inputs[position]
    term = grads_in[position]
    built = softmax if softmax not in (None, "fused") else None
    complete = received[-1][0] == k and len(received) > 1 and built is None
    asked = totals[position] if complete else term
    candidates = []                             # (kind, array of the mistaken numbers)
    # A whole gradient is what backward hands on, after the tensor's hooks; the page cannot
    # show what a hook does (any function), so a tensor with hooks is not asked about.
    if complete and x.hooks:
        return None
    if built is not None:                       # the terms its ops send x, summed as backward
        sent = [g for j, g in received if any(graph.steps[j][0] is o for o in built.ops)]
        asked = sent[0]
        for g in sent[1:]:
            asked = asked + g
        candidates += [("missed_sum", g) for g in sent] if len(sent) > 1 else []
    summed = totals[position] if complete else term
    others = summed - term if built is None else 0      # what the other ops sent
    if complete:                        # a residual's direct path first: its number is
        candidates += [("sublayer_only", summed - g)      # also one term alone (missed_sum)
                       for g in direct_paths(graph, x, received)]
        candidates += [("missed_sum", g) for _, g in received]
    if constant_scale(op, position) is not None and np.shape(grad_y) == x.shape:
        candidates.append(("scale_forgotten", others + grad_y))
    forgot_norm = norm_constants(op, position, grad_y)
    if forgot_norm is not None:
        candidates.append(("norm_constants", others + forgot_norm))
    if complete:                                # a layer norm built from primitive ops
        candidates += [("norm_constants", g)
                       for g in centred_constants(graph, x, received, summed)]
    if broadcast(op, out, x):
        full = unsummed(op, position, grad_y)
        if full is not None:
            candidates.append(("broadcast_sum", (others, full, x.shape)))
    if type(op).__name__ == "MatMul":
        candidates += [("transposed", others + wrong)
                       for wrong in transposed(op, position, grad_y)]
    if built is None:                           # and each worked from the shown numbers
        exact = local_rules(op, position, grad_y, out.data, x.data)
        rounded = local_rules(op, position, shown(grad_y), shown(out.data), shown(x.data))
        candidates += [(kind, others + wrong, shown(others) + wrong_shown)
                       for (kind, wrong), (_, wrong_shown) in zip(exact, rounded)]
    if softmax is not None:
        output = _softmax_output(graph, op, softmax)
        if output is None:                      # no output to work from: not asked
            return None
        y, grad_softmax = output
        candidates.append(("softmax_diagonal", others + y * (1 - y) * grad_softmax))
    # The answer a learner gets by the right rule from the numbers as the page shows them.
    if built is not None:
        from_shown = worked_softmax(y, grad_softmax)
    else:
        from_shown = worked(op, out, grad_y, position)
        if from_shown is not None and complete:         # and what came before, as shown
            from_shown = from_shown + shown(others)
    candidates.append(("sign", -asked, None if from_shown is None else -from_shown))
    # The answer must be none of the numbers the page shows at this step: the gradient
    # arriving, what the op sends to its other inputs and their totals (an Add of two biases
    # gives both the same) and, for a whole gradient, what came before this step (the box's
    # "grad so far"); nor one term alone, the missed sum. (A softmax built from ops is asked
    # at an earlier step, which shows none of these.)
    apart = [a for a in [grad_y] + [g for p, x_p in enumerate(op.inputs) if x_p is not x
                                    for g in (grads_in[p], totals[p])]
             if a is not None and np.shape(a) == x.shape and built is None]
    if complete:
        earlier = [g for step, g in received if step < k]
        apart += [g for _, g in received] + ([sum(earlier)] if earlier else [])
    made = _ask(graph, k, position, asked, complete, received, candidates, apart, from_shown)
    if made is not None and built is not None:              # asked at the softmax's first step
        numbers = [graph.data["ops"][graph.op_index[id(o)]]["step"] for o in built.ops]
        numbers = [n for n in numbers if n is not None]
        made.update(step=min(numbers), input=None, span=[min(numbers), max(numbers)])
    return made


def _softmax_output(graph, op, softmax):
    """(y, grad_y) of a softmax: the op's own for a fused Softmax; for one built from ops, its
    output and the gradient that arrives there."""
    if softmax == "fused":
        step = next(s for s in graph.steps if s[0] is op)
        return step[1].data, step[2]
    step = next((s for s in graph.steps if s[1] is softmax.y), None)
    return None if step is None else (softmax.y.data, step[2])


def _uses(received, text):
    """How a tensor is used, in the page's words: by 2 ops, twice by one op, 3 times by 2 ops
    (as usesText in script/state.js says it)."""
    uses, ops = len(received), len({k for k, _ in received})
    times = say(text, "uses.twice") if uses == 2 else say(text, "uses.times", count=uses)
    if ops == uses:
        return say(text, "uses.by_ops", ops=ops)
    if ops == 1:
        return say(text, "uses.by_one_op", times=times)
    return say(text, "uses.by_several", times=times, ops=ops)


def question_name(graph, x, position):
    """How a question's mistakes call the tensor asked about: its name, else what made it."""
    name = graph.data["tensors"][graph.tensor_index[id(x)]]["name"]
    if name:
        return name
    if x.creator is not None:
        return say(graph.text, "name.output", op=type(x.creator).__name__)
    return say(graph.text, "name.input", position=position)


def _ask(graph, k, position, asked, complete, received, candidates, apart=(), from_shown=None):
    """Choose the element, and write the question with the mistakes that are told apart. The
    element's answer must stand clearly apart from the same element of each array of `apart`
    (numbers the page shows before the answer, or that a mistake gives) and from zero (a
    gradient of zeros, as at h0 = 0, asks nothing); None when no element does. `from_shown`:
    the answer worked from the numbers as shown (shown.py), which the tolerance covers.
    The element chosen catches the most mistakes fully, then at all, then has the largest
    answer."""
    op, out = graph.steps[k][0], graph.steps[k][1]
    x = op.inputs[position]
    flat = np.asarray(asked, dtype=np.float64).ravel()
    if flat.size == 0 or not np.all(np.isfinite(flat[:MAX_CANDIDATES])):
        return None
    scale = float(np.max(np.abs(flat)))
    apart = [np.asarray(a, dtype=np.float64).ravel() for a in apart]
    rounded = None if from_shown is None else np.asarray(from_shown, np.float64).ravel()
    best = None
    for i in range(min(flat.size, MAX_CANDIDATES)):
        index = np.unravel_index(i, x.shape)
        answer = flat[i]
        tolerance = max(0.01 * abs(answer), 1e-3 * scale, 1e-12)
        if rounded is not None and np.isfinite(rounded[i]):
            tolerance = max(tolerance, MARGIN * abs(rounded[i] - answer))
        if abs(answer) <= 2 * tolerance or any(abs(a[i] - answer) <= 2 * tolerance
                                               for a in apart):
            continue
        mistakes, not_caught, whole = matching(candidates, index, answer, tolerance,
                                                graph.text)
        caught = {m["kind"] for m in mistakes}
        score = (whole, len(caught), abs(answer))
        if best is None or score > best[0]:
            best = (score, index, answer, tolerance, mistakes, not_caught)
    if best is None:
        return None
    _, index, answer, tolerance, mistakes, not_caught = best
    words = {"name": question_name(graph, x, position), "used": _uses(received, graph.text),
             "shape": tuple(x.shape), "out_shape": tuple(out.shape),
             "scale": scale_text(op, position)}
    for mistake in mistakes:
        mistake["text"] = say(graph.text, "mistake." + mistake["kind"], **words)
    return {"step": k + 1, "input": position, "tensor": graph.tensor_index[id(x)],
            "index": [int(i) for i in index], "total": bool(complete), "answer": float(answer),
            "tolerance": float(tolerance), "mistakes": mistakes, "not_caught": not_caught,
            "span": None}
