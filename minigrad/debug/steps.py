"""backward_steps: the backward pass one op at a time, to look at between the steps.

    for step in minigrad.debug.backward_steps(loss):
        print(step)               # the op, the gradient arriving, the gradients leaving

It is the engine's own walk (`minigrad.autograd.backward_walk`), one op at a time, keeping what
`backward()` keeps, so when it has run to the end the leaves hold exactly the gradients
`loss.backward()` would give them.
Stopped half way, only the leaves already reached have theirs. At the REPL or in pdb, take one
step at a time with `step = next(steps)`.
"""

from minigrad import autograd
from minigrad.debug.show import label, values
from minigrad.debug.watch import where_created


class Step:
    """One op of the backward pass.

    number   1, 2, ... in the order backward visits the ops (1: the op that made the root)
    op       the op; its repr shows its settings, and `op.backward` is the code that ran
    inputs   the op's input tensors, in argument order       output   the tensor it made
    grad_y   the gradient that arrived at the output, dL/d(output)
    grads    what op.backward returned: one gradient per input (None: that input needs none)
    totals   for each input, the sum of the gradients it has received so far in this pass
             (complete once every op that used it has had its step), or None
    """

    def __init__(self, number, op, output, grad_y, grads, totals):
        self.number, self.op, self.output = number, op, output
        self.inputs = list(op.inputs)
        self.grad_y, self.grads, self.totals = grad_y, tuple(grads), totals

    def __repr__(self):
        tensors = [f"{label(t)} {t.shape}" for t in [self.output] + self.inputs]
        width = max(len(text) for text in tensors)
        lines = [f"Step {self.number}: {self.op!r}",
                 f"  output   {tensors[0]:{width}}   grad_y {values(self.grad_y)}"]
        for i, (x, grad, total) in enumerate(zip(self.inputs, self.grads, self.totals)):
            head = f"  input {i:<2d} {tensors[i + 1]:{width}}"
            if grad is None or not x.requires_grad:
                lines.append(f"{head}   needs no gradient")
                continue
            lines.append(f"{head}   grad   {values(grad)}")
            if total is not grad:                   # other ops have sent it gradients too
                lines.append(f"{' ' * len(head)}   total  {values(total)}  (so far)")
        site = where_created(self.op)
        if site:
            lines.append(site)
        return "\n".join(lines)

    def _repr_pretty_(self, printer, cycle):          # IPython and Jupyter: the same text
        printer.text(repr(self))


def backward_steps(root, grad=None):
    """The backward pass from `root`, one `Step` per op, in the order backward visits them.
    `grad` is the gradient arriving at the root (needed when the root is not a single number).
    Exhausting it leaves exactly the gradients `root.backward(grad)` would."""
    return _steps(autograd.backward_walk(root, grad))      # checks grad now


def _steps(walk):
    totals = {}                     # tensor -> the gradients it has received so far, summed
    number = 0
    for t, grad_t, grads_in in walk:
        if t.creator is None or t.retains_grad:             # as backward() does
            autograd.keep_grad(t, grad_t)
        totals.pop(t, None)                                 # complete: t's gradient is grad_t
        if grads_in is None:                                # a leaf: no op to show
            continue
        op = t.creator
        for x, grad_x in zip(op.inputs, grads_in):
            if grad_x is not None:
                totals[x] = grad_x if x not in totals else totals[x] + grad_x
        number += 1
        yield Step(number, op, t, grad_t, grads_in, [totals.get(x) for x in op.inputs])
