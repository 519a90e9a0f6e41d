"""The name a page gives each tensor, the same in the graph, the panel and the questions.

In order of precedence: a name given in `names` (explore's argument), the tensor's own `name`,
the local variable that held it (`variables`, from `minigrad.debug.local_names()`, whose numbers
are dropped: "h #4" of a run is "h" here); else what made it: "MatMul's output", "a leaf",
"a constant". A name that several tensors of the page have is numbered in forward order ("h #1",
"h #2"; "Add's output #3"), so that no two tensors on one panel read alike.
"""

import re

from minigrad.debug.names import unique
from minigrad.viz.dot import _known_names


def tensor_names(graph, names=None, variables=None):
    """(name, label) for each of graph.tensors, in order: `name` is "" for a tensor that has
    none (its box shows no name), `label` is never empty. A name given (in `names`, or the
    tensor's own) keeps its plain form where a variable or an op has it too: `x` is the input
    named x, and the variables x of the functions it went through are `x #2`, `x #3`."""
    given = _known_names(graph, names)
    found = {}
    if variables:                   # numbered again below, among the tensors of this page
        found = {id(t): re.sub(r" #\d+$", "", name) for name, t in variables.items()}
    named = [t for t in graph.tensors if id(t) in given]
    others = [t for t in graph.tensors if id(t) not in given]
    labels = dict(zip(map(id, named), unique([given[id(t)] for t in named])))
    labels.update(zip(map(id, others), unique([found.get(id(t)) or made_by(t) for t in others],
                                              taken=labels.values())))
    return [(labels[id(t)] if id(t) in given or id(t) in found else "", labels[id(t)])
            for t in graph.tensors]


def made_by(t):
    if t.creator is not None:
        return f"{type(t.creator).__name__}'s output"
    return "a leaf" if t.requires_grad else "a constant"
