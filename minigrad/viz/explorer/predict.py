"""Predict mode: at chosen steps the page asks for one element of a gradient before it shows it,
and when the answer is wrong, says which known mistake it matches.

Which steps (the default, `at=None`): every `MatMul` and `Softmax`, a softmax built from primitive
ops (as `attention` builds it, in any scope, or any ops in a `minigrad.scope("softmax")`: see
softmaxes.py; asked once, at the first of its ops that backward visits, about all that its ops
send back to its input, since at its last the gradient arriving is the answer), and every op
that sends a gradient to an input that was broadcast, or that completes the gradient of a tensor
used several times (by several ops, or twice by one: x * x). `at` may instead name op classes
("MatMul", ...) or be a function `op -> bool`; a `Where` it chooses (a mask) asks for an element
it leaves out, whose gradient is exactly 0 (masked.py).

While a question waits for its answer, the page shows nothing that gives it away: no number of
the asked tensor at that step (its box, the arrows into the op, the other term of x * x, the
running total). A question is only asked when the page embeds, in full, every array it is
answered from (its `needs`: `explore` embeds them first; see `answerable`).
How one question is made (the element asked, its answer and tolerance, the mistakes it tells
apart): question.py. In short: a number is right within the tolerance, which covers the answer
worked by the right rule from the numbers as the page shows them (rounded, shown.py); a known
mistake is named only where its number stands apart from the answer, from 0 and from the other
mistakes, and each question lists in `not_caught` the mistakes it cannot tell apart (the page
shows them in one line with the question).

A page may choose its own steps: one LSTM step of primitive ops (`python -m minigrad.viz
explore lstm-cell --predict`) asks at its gates, MatMul, Mul, Sigmoid and Tanh (and an Add that
broadcasts the biases over a batch), where the default rule would ask at its two MatMuls only.
"""

import numpy as np

from minigrad.viz.explorer.masked import blocked, masked_question
from minigrad.viz.explorer.mistakes import broadcast
from minigrad.viz.explorer.question import question
from minigrad.viz.explorer.softmaxes import softmaxes
from minigrad.viz.explorer.words import say, words

DEFAULT_OPS = ("MatMul", "Softmax")
NOT_FINITE = "not_finite"           # why an op chosen asks nothing, when known (why.* of words/)
HOOKED = "hooked"


def questions(graph, at=None, skipped=None):
    """The questions of predict mode for a `data.Graph`, as plain data, in the order the page
    asks them: one per chosen op, at its step; a softmax built from primitive ops asks at the
    first of its ops that backward visits, where the gradient arriving at its output is all
    the learner needs (at its last op, the gradient arriving there would be the answer).

    Each question lists in `needs` the arrays it is answered from: the gradient arriving at the
    op of its step, the values of that op's inputs and output and, for a whole gradient, what
    the tensor had received before. The page must embed them (see `answerable`).

    `skipped`, a list, receives (op type, step k, reason) for each chosen op where no element
    made a fair question, with the reason when it is known (NOT_FINITE, HOOKED, or None); see
    `why_none`."""
    chosen = _rule(at)
    terms = {}                                  # id(tensor) -> steps that sent it a gradient
    for k, (op, _, _, grads_in, _) in enumerate(graph.steps):
        for x, grad_x in zip(op.inputs, grads_in):
            if grad_x is not None:
                terms.setdefault(id(x), []).append((k, grad_x))
    # A softmax built from ops asks once, about all it sends back to its input: at the op
    # of it that backward visits last among those that send its input a term.
    built, found_softmaxes = {}, softmaxes(graph)
    for softmax in found_softmaxes:
        senders = [k for k, _ in terms.get(id(softmax.x), [])
                   if any(graph.steps[k][0] is o for o in softmax.ops)]
        if senders:
            built[id(graph.steps[max(senders)][0])] = softmax
    found = []
    for k, step in enumerate(graph.steps):
        op, out, grad_y, grads_in, totals = step
        wanted = [p for p, g in enumerate(grads_in) if g is not None]
        if not wanted:
            continue
        softmax = built.get(id(op), "fused" if type(op).__name__ == "Softmax" else None)
        softmax_input = _softmax_input(op, wanted, softmax)
        reasons = {p: _reasons(op, out, p, terms[id(op.inputs[p])], k) for p in wanted}
        if at is None:
            if not (type(op).__name__ in DEFAULT_OPS or softmax_input is not None
                    or any(reasons.values())):
                continue
        elif not chosen(op):
            continue
        # A mask (Where) asks for an element it leaves out, whose gradient is exactly 0.
        masked = [p for p in wanted if blocked(op, out, p) is not None]
        asked = masked_question(graph, k, masked[0], found_softmaxes) if masked else None
        if asked is not None:
            found.append(asked)
            continue
        # The input the question is about: the softmax's, else one with a reason; when no
        # element of it makes a fair question (see _ask), the next one that may be asked.
        if softmax_input is not None:
            order = [softmax_input]
        else:
            order = [p for p in wanted if reasons[p]]
            if at is not None or type(op).__name__ in DEFAULT_OPS:
                order += [p for p in wanted if not reasons[p]]
        for p in order:
            asked = question(graph, k, p, terms[id(op.inputs[p])],
                             softmax if softmax_input is not None else None)
            if asked is not None:
                found.append(asked)
                break
        else:
            if skipped is not None:
                finite = all(np.all(np.isfinite(g)) for g in grads_in if g is not None)
                hooked = all(op.inputs[p].hooks for p in order)
                skipped.append((type(op).__name__, k + 1,
                                NOT_FINITE if not finite else HOOKED if hooked else None))
    found.sort(key=lambda q: (q["step"], q["span"] is not None))   # the op's own question first
    for q in found:
        q["needs"] = _needs(graph, q)
    return found


def answerable(questions, arrays):
    """The questions whose `needs` the page embeds in full (`arrays`: the page's table)."""
    return [q for q in questions if all(arrays[ref]["data"] is not None for ref in q["needs"])]


def why_none(found, skipped, arrays, at, max_elements, max_bytes, text=None):
    """Why predict mode asks nothing, in one line: no op it asks at, or none whose gradient
    stands apart from what the page shows (`skipped`), or questions (`found`) whose arrays are
    too large to embed (`arrays`: the page's table), with the setting that would embed them.
    `text`: the words of the page's language (words/; English by default)."""
    text = text or words("en")
    if found:
        sizes = [arrays[ref]["size"] for q in found for ref in q["needs"]
                 if arrays[ref]["data"] is None]
        largest = max(sizes)
        where = ", ".join(say(text, "why.step", step=q["step"]) for q in found[:4]) + (
            ", ..." if len(found) > 4 else "")
        questions = (say(text, "why.question") if len(found) == 1
                     else say(text, "why.questions", count=len(found)))
        if largest > max_elements:
            return say(text, "why.too_many_numbers", questions=questions, where=where,
                       largest=largest, max_elements=max_elements)
        return say(text, "why.too_many_bytes", questions=questions, where=where,
                   max_bytes=max_bytes)
    if skipped:
        listed = ", ".join(say(text, "why.op_at_step", op=op, step=step)
                           + (": " + say(text, "why." + reason) if reason else "")
                           for op, step, reason in skipped[:4]) + (
            ", ..." if len(skipped) > 4 else "")
        reasons = {reason for _, _, reason in skipped}
        if reasons == {NOT_FINITE}:
            return say(text, "why.all_not_finite", listed=listed)
        if reasons == {HOOKED}:
            return say(text, "why.all_hooked", listed=listed)
        return say(text, "why.none_apart", listed=listed)
    return say(text, "why.none_chosen" if at is not None else "why.none_asked")


def _needs(graph, q):
    """The arrays question q is answered from (indices into the page's table)."""
    data = graph.data
    step = data["steps"][q["step"] - 1]
    op = data["ops"][step["op"]]
    needs = [step["grad_y"]] + [data["tensors"][i]["values"] for i in op["inputs"] + [op["output"]]]
    if q["total"]:                              # what it had before this step's terms
        before = [term for term in data["tensors"][q["tensor"]]["terms"] if term[0] < q["step"]]
        needs += [before[-1][2]] if before else []
    return sorted(set(needs))


def _rule(at):
    if at is None:
        return None
    if callable(at) and not isinstance(at, type):
        return at
    names = {at} if isinstance(at, (str, type)) else set(at)
    names = {n if isinstance(n, str) else n.__name__ for n in names}
    return lambda op: type(op).__name__ in names


def _reasons(op, out, position, received, k):
    """Why input `position` of step k is worth a question: broadcast, or its total completes."""
    x = op.inputs[position]
    reasons = []
    if broadcast(op, out, x):
        reasons.append("broadcast")
    if len(received) > 1 and received[-1][0] == k:
        reasons.append("used twice")
    return reasons


def _softmax_input(op, wanted, softmax):
    """The input the softmax question is about at op: a fused Softmax's input, or the input of
    a softmax built from ops (see softmaxes.py) asked at this op; else None."""
    if softmax == "fused":
        return 0 if 0 in wanted else None
    if softmax is None:
        return None
    return next((p for p in wanted if op.inputs[p] is softmax.x), None)
