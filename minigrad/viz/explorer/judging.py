"""Which known mistake the page names for a number typed, and which mistakes a question cannot
catch (question.py and masked.py ask; mistakes.py says what each mistake is).

question.py gathers each question's candidates, as (kind, array) or (kind, array, the same
mistake worked from the numbers as the page shows them, shown.py). A mistake's number is
recognised within its own tolerance: the question's, widened (as the answer's is) to cover the
number worked from the shown numbers, where there is one. `matching` keeps the numbers at the
element asked that can be told apart: each window (a number and its tolerance) clear of the
answer's, of 0's (a learner may type 0 for other reasons; both with the question's tolerance)
and of every other mistake's, so that no typed number falls in two of them. (One number that
two kinds give, as a residual's sublayer_only and missed_sum do by design, is named by the
first: candidates come in order, the more telling first.) A mistake is caught when a number it
gives, typed, is named as it, by the page's own rule (`named`, as predict.js judges); the page
says which it cannot catch at all (in words, mistake_name.* of words/, with why), and no other.
"""

import numpy as np

from minigrad.viz.explorer.words import say, words

SAME = 1e-3     # two kinds' numbers this close (times the tolerance) are one: the first names it
MARGIN = 1.5    # a mistake's tolerance covers its number from the shown numbers, by this


def numbers(candidates, index, tolerance):
    """Every number the candidates give at `index`, as (kind, number, its tolerance): the
    question's, widened to cover the same mistake worked from the shown numbers, where there is
    one; the finite ones, in the candidates' order (a broadcast_sum gives one per element that
    sums into x[index])."""
    values = []
    for kind, array, *from_shown in candidates:
        if kind == "broadcast_sum":
            others, full, shape = array
            found = [others[index] + v for v in _sources(full, shape, index)]
        else:
            found = [np.asarray(array)[index]]
        width = tolerance
        if from_shown and from_shown[0] is not None and len(found) == 1:
            gap = abs(float(np.asarray(from_shown[0])[index]) - float(found[0]))
            width = max(tolerance, MARGIN * gap) if np.isfinite(gap) else tolerance
        values += [(kind, float(v), width) for v in found if np.isfinite(v)]
    return values


def named(found, number, answer, tolerance):
    """The kind the page names for `number` typed (predict.js, `answer`): None when it is
    right, else the first mistake of `found` whose window holds it, else None."""
    if abs(number - answer) <= tolerance:
        return None
    return next((m["kind"] for m in found if abs(number - m["value"]) <= m["tolerance"]), None)


def matching(candidates, index, answer, tolerance, text=None):
    """(found, not_caught, whole): the mistaken numbers at `index` that can be told apart (one
    per value, as {"kind", "value", "tolerance"}); a line for each mistake the page cannot
    name at all (none of its numbers, typed, is named as it: each is too close to the answer
    or to 0, or to another mistake's number; see the module's docstring); and how many kinds
    are named at every number they give (the question prefers elements where all are).
    `text`: the words of the page's language (words/; English by default)."""
    text = text or words("en")
    values = numbers(candidates, index, tolerance)
    apart = [(kind, v, w) for kind, v, w in values
             if abs(v - answer) > tolerance + w and abs(v) > tolerance + w]
    found, confused = [], set()
    for kind, value, width in apart:            # the same number, by two kinds, is the first's
        if any(k != kind and SAME * tolerance < abs(v - value) <= width + w
               for k, v, w in apart):
            confused.add(kind)
            continue
        if all(abs(value - m["value"]) > width + m["tolerance"] for m in found):
            found.append({"kind": kind, "value": value, "tolerance": width})
    # One rule with the page: a kind is caught where a number it gives, typed, is named as it.
    kinds = list(dict.fromkeys(candidate[0] for candidate in candidates))
    said = {kind: [named(found, v, answer, tolerance) for k, v, _ in values if k == kind]
            for kind in kinds}
    whole = sum(1 for kind in kinds if all(got == kind for got in said[kind]))
    not_caught = []
    for kind in kinds:
        if not said[kind] or kind in said[kind]:
            continue
        other = kind in confused or any(got is not None for got in said[kind])
        why = say(text, "not_caught.same" if other else "not_caught.zero")
        not_caught.append(say(text, "not_caught.item", mistake=text["mistake_name." + kind],
                              why=why))
    return found, not_caught, whole


def _sources(full, shape, index):
    """The entries of the un-summed gradient (the output's shape) that sum into x[index]."""
    owner = np.broadcast_to(np.arange(int(np.prod(shape))).reshape(shape), full.shape)
    return full[owner == np.ravel_multi_index(index, shape) if shape else owner == 0]
