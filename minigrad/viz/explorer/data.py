"""What an explorer page shows, as plain data: the graph, every tensor's values, and the engine's
own backward walk, replayed one op at a time.

The walk is `minigrad.autograd.backward_walk`, the generator that `backward()` itself runs: the
page shows the gradients it hands out, in its order, and nothing else computes them. As
`minigrad.debug.backward_steps` does, it keeps, for each tensor that several ops use, the
running total of what they have sent it, summed in the order the engine sums it (first term,
then `total + term`), so the last total is the engine's own sum, bit for bit.

The data (a dict, written into the page as JSON):

    title, root             the caption; the index of the root tensor
    tensors                 in topological order (each after its inputs), constants included:
                            name ("" if none), label (names.py: never empty, never
                            another tensor's), kind (parameter, input, constant,
                            intermediate, root), shape, dtype, values (an array index),
                            creator (an op index or None), needs_grad, grad (the gradient
                            the walk handed out for it, after hooks), terms: [[step, term,
                            total so far], ...] as they arrived
    ops                     in the order of the tensors they made: type, title (with settings),
                            rule (the docstring's formula and derivative), inputs, output,
                            scope, arguments (the label of each input's arrow), saved, step
    steps                   one per op, in the engine's order (step 1 made the root): op,
                            output, grad_y (the gradient arriving at the output), grads (what
                            the op sent to each input; None where none), totals (each input's
                            running total after this step)
    arrays                  the table of arrays the above refer to (see arrays.py), written by
                            `finish()` once the questions of predict mode know what they need
    scopes, folded          every scope path of the graph; the indices of those drawn folded
"""

import inspect
import re

from minigrad.autograd import backward_walk
from minigrad.graph import walk
from minigrad.messages import message
from minigrad.tensor import Tensor
from minigrad.versions import saved_arrays
from minigrad.viz import labels
from minigrad.viz.dot import check_scope_depth
from minigrad.viz.explorer.arrays import MAX_BYTES, MAX_ELEMENTS, ArrayTable
from minigrad.viz.explorer.checks import check_collapse, collapse_names
from minigrad.viz.explorer.names import tensor_names
from minigrad.viz.explorer.words import say, words
from minigrad.viz.labels import argument_labels
from minigrad.viz.plan import tensor_kind

# The most ops a page shows (explore's default). Chromium laid out a chain of 3,000 ops in 2.6 s,
# one of 5,000 in 5 s and one of 10,000 in 10 s (on a busy 2-core machine), and had not loaded
# the 20 MB page of 30,000 after 30 s. Past the limit, explore refuses at once, before copying
# any array.
MAX_OPS = 3000


class TooManyOps(ValueError):
    """A graph of more ops than max_ops: `count` and `most` say how many, so that a command line
    can name its own option (seq2seq explore's --max-ops) without reading the message."""

    def __init__(self, count, most):
        self.count, self.most = count, most
        super().__init__(message("explore.too_many_ops", count=count, most=most))


class Graph:
    """The graph behind the root, with the engine's walk replayed: the page's data (`data`) and
    the Python objects behind it, for the predict questions (`tensors`, `ops`, `steps`)."""

    def __init__(self, root, grad=None, names=None, collapse=None, title=None,
                 max_elements=MAX_ELEMENTS, max_bytes=MAX_BYTES, max_ops=MAX_OPS, variables=None,
                 text=None):
        if not isinstance(root, Tensor):
            raise TypeError(f"explore: root must be a Tensor, not {type(root).__name__}")
        graph = walk([root])
        if len(graph.ops) > max_ops:                    # before any array is copied
            raise TooManyOps(len(graph.ops), max_ops)
        check_scope_depth([op.scope for op in graph.ops], "explore",
                          "explore a smaller part (the page holds every scope, folded or not)")
        collapse = check_collapse(graph.ops, collapse)  # (one line, listing the scopes there)
        self.text = text or words("en")                 # the words of the page's language
        self.tensors, self.ops = graph.tensors, graph.ops
        self.tensor_index = {id(t): i for i, t in enumerate(self.tensors)}
        self.op_index = {id(op): j for j, op in enumerate(self.ops)}
        self.outputs = {id(t.creator): i for i, t in enumerate(self.tensors)
                        if t.creator is not None}
        self.users = graph.users                        # id(tensor) -> [(op, position)]
        self.arrays = ArrayTable(max_elements, max_bytes)
        tensor_records = [self.tensor_record(t, name, label, t is root, graph.users)
                          for t, (name, label) in zip(self.tensors,
                                                      tensor_names(graph, names, variables,
                                                                   self.text))]
        op_records = [self.op_record(op) for op in self.ops]
        self.steps = []                 # (op, output, grad_y, grads_in, totals) per step
        self.grads = {}                 # id(tensor) -> its gradient as handed on (after hooks)
        step_records = self.replay(root, grad, tensor_records, op_records)
        scopes, folded = scope_paths(self.ops, collapse)
        self.data = {"title": title or "", "root": self.tensor_index[id(root)],
                     "tensors": tensor_records, "ops": op_records, "steps": step_records,
                     "arrays": None, "scopes": scopes, "folded": folded}

    def finish(self, first=()):
        """Write the numbers of the arrays into the data (the arrays in `first` are embedded
        before the others: see ArrayTable.finish). Returns the data."""
        self.data["arrays"] = self.arrays.finish(first)
        return self.data

    def tensor_record(self, t, name, label, is_root, users):
        creator = t.creator
        return {"name": name, "label": label, "kind": tensor_kind(t, is_root),
                "shape": list(t.shape),
                "dtype": str(t.dtype), "values": self.arrays.add(t.data),
                "creator": None if creator is None else self.op_index[id(creator)],
                "needs_grad": bool(t.requires_grad),
                "users": [[self.op_index[id(op)], k] for op, k in users.get(id(t), [])],
                "grad": None, "terms": []}

    def op_record(self, op):
        saved = []
        for name, array in saved_arrays(op, with_settings=False):
            same = [k for k, x in enumerate(op.inputs) if x.data is array]
            saved.append([name, labels.shape_text(array.shape), same[0] if same else None])
        return {"type": type(op).__name__, "title": op_title(op, self.text),
                "rule": rule(op, self.text),
                "inputs": [self.tensor_index[id(x)] for x in op.inputs],
                "output": self.outputs[id(op)],
                "scope": list(op.scope), "arguments": argument_labels(op), "saved": saved,
                "step": None}

    def replay(self, root, grad, tensor_records, op_records):
        """Run the engine's walk and write down every step. No `.grad` is set."""
        records = []
        totals = {}                             # id(tensor) -> what it has received so far
        for t, grad_t, grads_in in backward_walk(root, grad):
            i = self.tensor_index[id(t)]
            tensor_records[i]["grad"] = self.arrays.add(grad_t)
            self.grads[id(t)] = grad_t
            if grads_in is None:                # a leaf: its gradient is complete
                continue
            op = t.creator
            number = len(records) + 1
            op_records[self.op_index[id(op)]]["step"] = number
            grads = []
            for x, grad_x in zip(op.inputs, grads_in):
                if grad_x is None:
                    grads.append(None)
                    continue
                total = grad_x if id(x) not in totals else totals[id(x)] + grad_x  # as the
                totals[id(x)] = total                                               # engine
                grads.append(self.arrays.add(grad_x))
                tensor_records[self.tensor_index[id(x)]]["terms"].append(
                    [number, grads[-1], self.arrays.add(total)])
            # Each input's total after the whole step: for x * x, both terms of the step.
            sums = [None if g is None else self.arrays.add(totals[id(x)])
                    for x, g in zip(op.inputs, grads)]
            self.steps.append((op, t, grad_t, grads_in, [totals.get(id(x)) for x in op.inputs]))
            records.append({"op": self.op_index[id(op)], "output": i,
                            "grad_y": self.arrays.add(grad_t), "grads": grads, "totals": sums})
        return records


# How minigrad/viz/labels.py says how many entries of a boolean setting (a mask) are True.
TRUE_COUNT = re.compile(r"\ball True\b|\b(?P<kept>\d+) of (?P<size>\d+) True\b")


def op_title(op, text):
    """The op's class and settings (`labels.op_title`: "Where(cond=array(1, 4), all True)"),
    with the count of a mask's True entries in the words `text` of the page's language."""
    title = labels.op_title(op)
    if text is words("en"):
        return title
    return TRUE_COUNT.sub(lambda m: say(text, "title.true_count", **m.groupdict())
                          if m.group("kept") else say(text, "title.all_true"), title)


# A worked shape example of a docstring ("x: (2, 3, 4), axis=1  ->  y: (2, 4)"): numbers of
# another call than this op's, which the rule leaves out.
SHAPE_EXAMPLE = re.compile(r"^\w+: \([\d, ]+\).*->")


def rule(op, text=None):
    """The op's rule, from its class docstring: the first paragraph (formula, derivative,
    shapes), and any later line that gives a derivative (dL/d...); a setting the docstring
    names in backticks written with this op's value ("over `axis`": "over axis=1"), and a
    worked shape example left out. A language other than English (`text`, its words) gives the
    rule of each of minigrad's ops itself (rule.OpName); an op it does not know (your own)
    shows its docstring."""
    text = text or words("en")
    doc = type(op).__doc__
    if "rule." + type(op).__name__ in text:
        lines = text["rule." + type(op).__name__].splitlines()
    elif not doc:
        return [say(text, "why.no_docstring", op=type(op).__name__)]
    else:
        paragraphs = inspect.cleandoc(doc).split("\n\n")
        lines = paragraphs[0].splitlines()
        lines += [line for p in paragraphs[1:] for line in p.splitlines() if "dL/d" in line]
    for name in getattr(op, "settings", ()):
        lines = [line.replace(f"`{name}`", f"{name}={getattr(op, name, None)!r}")
                 for line in lines]
    return [line for line in lines if not SHAPE_EXAMPLE.match(line.strip())]


def scope_paths(ops, collapse):
    """Every scope path of the ops (and each of its prefixes), as a tree in the order they first
    appear, and the indices of those to draw folded: the paths whose last name is in
    `collapse`."""
    names = collapse_names(collapse)
    first = {}                                  # path -> when it first appears
    for op in ops:
        for n in range(1, len(op.scope) + 1):
            first.setdefault(tuple(op.scope[:n]), len(first))
    # As a tree: each path right after its parent, siblings in the order they appear.
    paths = sorted(first, key=lambda path: [first[path[:n]] for n in range(1, len(path) + 1)])
    folded = [k for k, path in enumerate(paths) if path[-1] in names]
    return [list(path) for path in paths], folded
