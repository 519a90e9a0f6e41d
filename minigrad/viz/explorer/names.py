"""The name a page gives each tensor, the same in the graph, the panel and the questions.

In order of precedence: a name given in `names` (explore's argument), the tensor's own `name`,
the local variable that held it (`variables`, from `minigrad.debug.local_names()`, whose numbers
are dropped: "h #4" of a run is "h" here); else what made it: an op that only moves a named
tensor's elements around is written out, "gates[:, 0:2]", "weight_ih^T", "x.reshape(6, 4)"
(`moved`); any other op gives "MatMul's output", and a tensor no op made "a leaf" or
"a constant". A name that several tensors of the page have is numbered in forward order
("h #1", "h #2"; "Add's output #3"), so that no two tensors on one panel read alike.
"""

import re

import numpy as np

from minigrad.debug.names import unique
from minigrad.viz.dot import _known_names
from minigrad.viz.explorer.words import say, words

MOST_INDICES = 4                # an index array longer than this is not written out


def tensor_names(graph, names=None, variables=None, text=None):
    """(name, label) for each of graph.tensors, in order: `name` is "" for a tensor that has
    none (its box shows no name), `label` is never empty. A name given (in `names`, or the
    tensor's own) keeps its plain form where a variable or an op has it too: `x` is the input
    named x, and the variables x of the functions it went through are `x #2`, `x #3`.
    `text`: the words of the page's language (words/), for the names an op gives."""
    given = _known_names(graph, names)
    found = {}
    if variables:                   # numbered again below, among the tensors of this page
        found = {id(t): re.sub(r" #\d+$", "", name) for name, t in variables.items()}
    named = [t for t in graph.tensors if id(t) in given]
    held = [t for t in graph.tensors if id(t) not in given and id(t) in found]
    others = [t for t in graph.tensors if id(t) not in given and id(t) not in found]
    labels = dict(zip(map(id, named), unique([given[id(t)] for t in named])))
    labels.update(zip(map(id, held), unique([found[id(t)] for t in held],
                                            taken=labels.values())))
    made = [moved(t, labels) or made_by(t, text) for t in others]     # (from the labels above only)
    labels.update(zip(map(id, others), unique(made, taken=labels.values())))
    return [(labels[id(t)] if id(t) in given or id(t) in found else "", labels[id(t)])
            for t in graph.tensors]


def made_by(t, text=None):
    """What made t, in the page's words: "MatMul's output", "a leaf", "a constant"."""
    text = text or words("en")
    if t.creator is not None:
        return say(text, "name.output", op=type(t.creator).__name__)
    return say(text, "name.leaf" if t.requires_grad else "name.constant")


def moved(t, labels):
    """What an op that moves elements made of a named tensor (its label in `labels`), written
    as the code would write it: x[:, 0:2], x^T (the last two axes swapped), x.swapaxes(0, 1),
    x.transpose(2, 0, 1), x.reshape(6, 4), a name of several words or a numbered one in
    brackets, (k #2)^T; None for any other op, an unnamed input, or an index that holds an
    array of more than MOST_INDICES numbers."""
    op = t.creator
    kind = type(op).__name__
    if kind not in ("GetItem", "Transpose", "Reshape") or id(op.inputs[0]) not in labels:
        return None
    x = labels[id(op.inputs[0])]
    if not re.fullmatch(r"[\w.]+", x):         # "k #2" or "encoder outputs": (k #2)^T
        x = f"({x})"
    if kind == "Reshape":
        return f"{x}.reshape({', '.join(map(str, np.atleast_1d(op.shape)))})"
    if kind == "GetItem":
        index = op.index if isinstance(op.index, tuple) else (op.index,)
        parts = [index_text(i) for i in index]
        return None if None in parts else f"{x}[{', '.join(parts)}]"
    n = op.inputs[0].ndim
    axes = list(range(n))[::-1] if op.axes is None else [a % n for a in op.axes]
    swapped = [a for a in range(n) if axes[a] != a]
    if swapped == [n - 2, n - 1]:
        return f"{x}^T"
    if len(swapped) == 2:
        return f"{x}.swapaxes({swapped[0]}, {swapped[1]})"
    return f"{x}.transpose({', '.join(map(str, axes))})"


def index_text(i):
    """One part of an index as Python writes it: 1, ..., None, 0:2, ::2, [0, 0]; None where
    an array is too long to read."""
    if isinstance(i, slice):
        text = ":".join("" if part is None else str(part) for part in (i.start, i.stop))
        return text + ("" if i.step is None else f":{i.step}")
    if i is Ellipsis:
        return "..."
    if i is None or np.ndim(i) == 0:
        return str(i if i is None else np.asarray(i).item())
    return str(np.asarray(i).tolist()) if np.size(i) <= MOST_INDICES else None
