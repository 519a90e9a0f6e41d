"""trace(): a table of the ops run forward, then one of the backward steps.

    with minigrad.debug.trace():
        context = F.softmax(keys @ q) @ values        # line 8 of step.py
        context.backward()

prints, when the block ends,

    forward: 3 ops
      #  op                inputs                output  created at
      1  MatMul()          keys (4, 2), q (2,)   (4,)    step.py:8 in <module>
      2  Softmax(axis=-1)  #1 (4,)               (4,)    step.py:8 in <module>
      3  MatMul()          #2 (4,), values (4,)  ()      step.py:8 in <module>
    backward: 3 steps
      step  op                   grad_y (shape, norm)  gradients returned (norm)
      1     #3 MatMul()          () 1                  #2: 54.77, values: 0.7113
      2     #2 Softmax(axis=-1)  (4,) 54.77            #1: 5.16
      3     #1 MatMul()          (4,) 5.16             keys: 11.54, q: 3.417

Tensors are called by their name, else by the forward row that made them (#2), else by what
made them. The rows are also kept, as `.forward_rows` and `.backward_rows`.
"""

import sys

from minigrad.debug.show import clip, label, norm, table
from minigrad.debug.watch import Watcher, remember_site

FORWARD_HEADER = ("#", "op", "inputs", "output", "created at")
BACKWARD_HEADER = ("step", "op", "grad_y (shape, norm)", "gradients returned (norm)")


class trace(Watcher):
    """Record every op run inside the block, forward and backward, and print both tables at the
    end (to `file`, standard output by default)."""

    def __init__(self, file=None):
        self.file = file
        self.numbers = {}                   # op -> its row number in the forward table
        self.forward_rows = []
        self.backward_rows = []

    def after_forward(self, op, inputs, out):
        remember_site(op)
        number = len(self.forward_rows) + 1
        self.numbers[op] = number
        shapes = ", ".join(f"{label(x, self.numbers)} {x.shape}" for x in inputs)
        output = str(out.shape) + ("" if out.creator is op else " (not recorded)")
        site = str(op.created_at[0]) if op.created_at else "?"
        self.forward_rows.append((number, clip(repr(op)), shapes, output, site))

    def after_backward(self, op, out, grad_y, grads_in):
        number = self.numbers.get(op)
        name = clip(repr(op)) if number is None else f"#{number} {clip(repr(op))}"
        returned = ", ".join(f"{label(x, self.numbers)}: {norm(g):.4g}"
                             for x, g in zip(op.inputs, grads_in)
                             if g is not None and x.requires_grad)
        self.backward_rows.append((len(self.backward_rows) + 1, name,
                                   f"{grad_y.shape} {norm(grad_y):.4g}", returned or "-"))

    def __exit__(self, *exc):
        super().__exit__(*exc)
        self.numbers = {}                   # let the ops go
        print(self.text(), file=self.file or sys.stdout)
        return False

    def text(self):
        forward = table(FORWARD_HEADER, self.forward_rows)
        backward = table(BACKWARD_HEADER, self.backward_rows)
        return (f"forward: {len(self.forward_rows)} ops\n{forward}\n"
                f"backward: {len(self.backward_rows)} steps\n{backward}")
