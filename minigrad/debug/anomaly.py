"""detect_anomaly(): stop at the first op whose output, or whose gradient, is NaN or infinite.

    with minigrad.debug.detect_anomaly():
        loss = model(x)            # raises AnomalyError at the first op that makes a NaN or inf
        loss.backward()            # ... and at the first op whose backward does

A NaN spreads: every op after the first one that made it makes NaN too, so the error you see
at the end names the wrong culprit. Here each op's output is checked as soon as it is made, in
forward order, and each gradient as soon as an op's backward returns it, in backward order. The
error names the op, summarises its inputs (a NaN usually comes from a 0, a negative number or
an inf going in) and gives the lines of your code that created the op.

Attention masks put -inf into scores on purpose: `detect_anomaly(allow_inf=True)` stops only at
NaN in the forward pass (the backward pass is checked for NaN and inf alike).
"""

import numpy as np

from minigrad.debug.show import label, norm, summary
from minigrad.debug.watch import Watcher, remember_site, where_created


class AnomalyError(RuntimeError):
    """An op made a NaN or an infinite value (the message says which op, and where)."""


class detect_anomaly(Watcher):
    """Check every op's output in forward and every gradient in backward, inside the block.
    Also notes where each op was created (`op.created_at`), for this and other messages."""

    def __init__(self, allow_inf=False):
        self.allow_inf = allow_inf

    def after_forward(self, op, inputs, out):
        remember_site(op)
        problem = _problem(out.data, self.allow_inf)
        if problem:
            lines = [f"{op!r} is the first op whose output holds NaN or inf (forward): "
                     f"{problem}, output shape {out.shape}"]
            lines += [f"  input {i} {label(x)}: {summary(x.data)}" for i, x in enumerate(inputs)]
            raise AnomalyError(_with_site(lines, op))

    def before_backward(self, op, out, grad_y):
        problem = _problem(grad_y, allow_inf=False)
        if problem:                 # each part was finite: they overflowed when added up
            lines = [f"the gradient arriving at the output of {op!r} has {problem}: "
                     f"{summary(grad_y)}"]
            raise AnomalyError(_with_site(lines, op))

    def after_backward(self, op, out, grad_y, grads_in):
        for i, (x, grad) in enumerate(zip(op.inputs, grads_in)):
            if grad is None or not x.requires_grad:
                continue
            problem = _problem(grad, allow_inf=False)
            if problem:
                lines = [f"{op!r} is the first op whose backward returns NaN or inf: {problem} "
                         f"in the gradient for input {i}, {label(x)} {x.shape}",
                         f"  gradient arriving at its output: {summary(grad_y)}, "
                         f"norm {norm(grad_y):.4g}"]
                lines += [f"  input {k} {label(x)}: {summary(x.data)}"
                          for k, x in enumerate(op.inputs)]
                raise AnomalyError(_with_site(lines, op))


def _problem(a, allow_inf):
    """'NaN', 'inf' or 'NaN and inf' (with counts) when a float array holds them, else None."""
    a = np.asarray(a)
    if not np.issubdtype(a.dtype, np.floating) or np.isfinite(a).all():
        return None
    nans, infs = int(np.isnan(a).sum()), int(np.isinf(a).sum())
    if allow_inf and not nans:
        return None
    parts = [f"{n} {kind}" for n, kind in ((nans, "NaN"), (infs, "inf")) if n]
    return " and ".join(parts) + f" of {a.size} element{'s' if a.size != 1 else ''}"


def _with_site(lines, op):
    site = where_created(op)
    return "\n".join(lines + [site if site else "  (created outside detect_anomaly)"])
