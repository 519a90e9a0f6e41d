"""When a solution is wrong, say where: the grader's diagnosis, beyond "this output is off".

A composed solution (a GRU cell from a dozen primitive ops) can be wrong in any of its lines, and
an output that is off says little about which. Three things narrow it down:

- Your lines. While your function runs, every op it makes notes the line of your file that made
  it (`StudentLines`, a `minigrad.debug` watcher, in student_code.py). A report can then quote
  the line to look at.
- Named intermediates. An exercise may name the intermediate results of its formulas (a GRU's
  r, z and n). The grader keeps the local variables of that name of your function and of the
  reference when each returns (`keeping_locals`), and compares them in the formulas' order: the
  first that differs is where the mistake is; when all agree, it is in the lines after them.
  Nothing to do for you but to use the formulas' names.
- A cut graph. When the outputs are right but a gradient is 0 or missing where the reference's
  is not, no op's backward is to blame: the gradient cannot get through, because a value was
  taken out of the graph (`Tensor(h.data)`, `h.detach()`, NumPy on `.data`) and the computation
  went on from the copy. `cut_report` says which input (or which block of a stacked weight)
  gets no gradient, and which line of yours made the copy (and how: `Tensor(...)`, `.detach()`,
  an array given to an op), or, when that is not known, which line takes it in.

Your function runs in a process of its own (child.py): the lines and the tensors from outside
the graph are found there, and come back as text with the arrays (run_cases.py). The
comparisons here, `after_wrong_output` and `cut_report`, run in the grader's process, on what
came back and on the reference's arrays.
"""

import numpy as np

from minigrad.grade.student_code import Copy, StudentLines, keeping_locals
from minigrad.graph import walk
from minigrad.messages import message

__all__ = ["StudentLines", "keeping_locals", "after_wrong_output", "cut_report", "suspects",
           "wrong_gradient_hint"]

# ---- an output is wrong: which intermediate first? ------------------------------------------

def after_wrong_output(output_line, intermediates, mine, reference, compare):
    """Lines to add to "the output ... is wrong": the first named intermediate that differs
    (with its line), or, when all agree, the line after them; or how to get this report.

    output_line     'your file, line 9: ...', the line that made the wrong output, or None
    intermediates   ((name, description), ...) in the formulas' order: (("r", "the reset gate
                    r"), ...)
    mine            {name: (array, the line that made it or None)}: the student's function's
                    locals of those names that were tensors, as the graded code's process
                    gave them back
    reference       {name: array}: the reference's
    compare         (got, expected) -> None, or (element, yours, expected, wrong, total)
    """
    if not intermediates:
        return []
    names = [name for name, _ in intermediates]
    listed = _listing(names)
    found = [(name, what) for name, what in intermediates if name in mine and name in reference]
    if not found:
        return [message("diagnose.name_them", names=_listing(names, "and"))]
    for name, what in found:
        (got, line), want = mine[name], reference[name]
        if got.shape != want.shape:
            text = [message("diagnose.first_shape", what=what, names=listed, got=got.shape,
                            expected=want.shape)]
        else:
            difference = compare(got, want)
            if difference is None:
                continue
            element, yours, expected, wrong, total = difference
            text = [message("diagnose.first_values", what=what, names=listed, element=element,
                            yours=f"{yours:.6g}", expected=f"{expected:.6g}",
                            off=f"{abs(yours - expected):.3g}", wrong=wrong, total=total)]
        return text + [message("diagnose.check_line", line=line) if line
                       else message("diagnose.check_maker", name=name)]
    agree = _listing([name for name, _ in found], "and")
    missing = [name for name in names if name not in dict(found)]
    text = [message("diagnose.agree_one" if len(found) == 1 else "diagnose.agree_many",
                    names=agree)]
    if output_line:
        text[0] += message("diagnose.output_line", line=output_line)
    if missing:
        text.append(message("diagnose.not_found", names=_listing(missing, "and")))
    return text


def _listing(names, word="or"):
    names = list(names)
    word = message(f"diagnose.{word}")                   # 'and' or 'or'
    most = message("diagnose.joiner").join(names[:-1])      # 'r, z' or 'r、z'
    return names[0] if len(names) == 1 else f"{most} {word} {names[-1]}"


# ---- a gradient is wrong although the outputs are right -------------------------------------

def cut_report(names, got, wanted, suspected, parts, atol):
    """A graph cut, or None: the first input whose gradient is missing or exactly 0 where the
    reference's is not (by more than `atol`), as lines of text: what gets no gradient, why that
    means a cut, and the lines of the student's file that take in a tensor no op made.

    names     the inputs' names
    got       the student's gradient for each, an array or None (missing)
    wanted    the reference's gradient for each, as arrays
    suspected the text `suspects` wrote, in the graded code's process, on the student's graph
    parts     {input name: (name of block 1, ...)}: a stacked weight, split in equal blocks
              along its first axis (a GRU's weight_hh: W_hr, W_hz, W_hn)
    """
    for name, grad, want in zip(names, got, wanted):
        starved = ((np.zeros_like(want) if grad is None else grad) == 0) & (np.abs(want) > atol)
        if not starved.any():
            continue
        text = [message("diagnose.no_gradient",
                        part=_starved_part(name, starved, parts.get(name, ()))),
                message("diagnose.cut", name=name,
                        yours=message("diagnose.missing") if grad is None else "0")]
        return text + list(suspected)
    return None


def _starved_part(name, starved, blocks):
    """'W_hn (rows 10 to 14 of weight_hh)', 'weight_hh', or '3 of 75 elements of weight_hh'."""
    if blocks and starved.ndim >= 1 and starved.shape[0] % len(blocks) == 0:
        size = starved.shape[0] // len(blocks)
        hit = [k for k in range(len(blocks)) if starved[k * size:(k + 1) * size].any()]
        if len(hit) < len(blocks):
            return _listing([message("diagnose.rows", block=blocks[k], first=k * size,
                                     last=(k + 1) * size - 1, name=name) for k in hit], "and")
    if starved.all():
        return name
    return message("diagnose.elements", count=int(starved.sum()), size=starved.size, name=name)


def suspects(outputs, inputs, lines):
    """Text for each floating-point tensor from outside the graph (no recorded op made it),
    taken in by an op made on a line of the student's file, that is not one of the exercise's
    inputs and is either not a single number or requires grad: the copies that cut a graph.
    Where the student's code made it (`lines.copy_of`), the text quotes that line and says
    what made it (Tensor(...), .detach(), an array given to an op); else the line that takes
    it in. Listed in the order the ops that take them in were made, which is the order of the
    lines in a straight function."""
    own = {id(x): x for x in inputs}
    found = {}                                      # a copy (or a tensor) -> the lines using it
    for op in walk(outputs).ops:                    # in the order they were made
        for x in op.inputs:
            number = lines.number(op)
            if number is None or op not in lines.direct or not _outsider(x, own):
                continue                        # (a library's own constants are no copies)
            made = lines.copy_of(x)
            uses = found.setdefault(x if made is None else made, [])
            if number not in uses:
                uses.append(number)
    return [_copy_text(made, sorted(uses), own, lines) for made, uses in found.items()]


def _copy_text(made, uses, own, lines):
    """The text for one copy: a Copy (where the student's code made it, and how: 'tensor',
    'detach' or 'array'), or a tensor whose making was not seen (then the first line that takes
    it in)."""
    x = made.tensor if isinstance(made, Copy) else made
    copy = next((message("diagnose.copy_of", name=y.name) for y in own.values()
                 if y.shape == x.shape and np.array_equal(y.data, x.data)), "")
    stops = message("diagnose.stops" if x.requires_grad else "diagnose.no_flow")
    if not isinstance(made, Copy):
        return (message("diagnose.takes_in", line=uses[0], shape=x.shape, copy=copy, stops=stops)
                + f"\n      {lines.code_at(uses[0])}")
    named = message("diagnose.named", name=made.name) if made.name else ""
    taken = [use for use in uses if use != made.line]
    used = (message("diagnose.used_one" if len(taken) == 1 else "diagnose.used_many",
                    lines=_listing(map(str, taken), "and")) if taken else "")
    return (message("diagnose.makes", line=made.line, named=named, shape=x.shape, copy=copy,
                    stops=stops, made_by=message(f"diagnose.made_{made.how}"), used=used)
            + f"\n      {lines.code_at(made.line)}")


def _outsider(x, own):
    return (x.creator is None and id(x) not in own and np.issubdtype(x.dtype, np.floating)
            and (x.size > 1 or x.requires_grad))


def wrong_gradient_hint(outputs, inputs, solution, lines):
    """Lines to add when a gradient is wrong, the outputs right, and no gradient starved: the
    tensors from outside the graph, else the backward of the student's own op, if any."""
    copies = suspects(outputs, inputs, lines)
    if copies:
        return [message("diagnose.path_cut")] + copies
    module = getattr(solution, "__name__", None)
    for op in reversed(walk(outputs).ops):          # from the outputs back
        if type(op).__module__ == module:
            line = lines.line_of(op)
            where = message("diagnose.made_at", line=line) if line else ""
            return [message("diagnose.your_backward", op=type(op).__name__, where=where)]
    return [message("diagnose.leaves_graph")]
