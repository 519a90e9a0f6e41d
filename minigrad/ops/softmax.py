"""Softmax, log-softmax and cross-entropy, each one fused op with its own backward.

All three subtract the row's maximum before `exp` (the result is the same, and nothing
overflows: logits of 1e4 are fine). A `-inf` logit is a masked position: it gets weight 0. A row
that is all `-inf` (fully masked) gets weights of 0, never NaN.
(The `attention` package builds softmax again from primitive ops, to show each step.)
"""

import numpy as np

from minigrad.autograd import Function
from minigrad.ops.arithmetic import as_floating
from minigrad.ops.pytorch_words import axis_or_dim
from minigrad.settings import check_number


def _shifted(x, axis):
    """x minus its maximum along `axis`; a row that is all -inf is shifted by 0, not by -inf."""
    peak = np.max(x, axis=axis, keepdims=True)
    peak = np.where(np.isneginf(peak), 0, peak)
    return x - peak


class Softmax(Function):
    """y_i = exp(x_i) / sum_j exp(x_j)   along `axis`
    dL/dx = y * (dL/dy - sum(dL/dy * y))   (the sum along `axis`)        x, y: any shape"""

    settings = ("axis",)
    saves = ("y",)

    def __init__(self, axis=-1):
        self.axis = axis

    def forward(self, x):
        e = np.exp(_shifted(as_floating(x), self.axis))     # integers: float64
        total = np.sum(e, axis=self.axis, keepdims=True)
        self.y = e / np.where(total == 0, 1, total)      # a fully masked row stays all 0
        return self.y

    def backward(self, grad_y):
        y = self.y
        return (y * (grad_y - np.sum(grad_y * y, axis=self.axis, keepdims=True)),)


class LogSoftmax(Function):
    """y_i = x_i - log sum_j exp(x_j)    along `axis`
    dL/dx = dL/dy - softmax(x) * sum(dL/dy)                                x, y: any shape"""

    settings = ("axis",)
    saves = ("softmax",)

    def __init__(self, axis=-1):
        self.axis = axis

    def forward(self, x):
        z = _shifted(as_floating(x), self.axis)             # integers: float64
        total = np.sum(np.exp(z), axis=self.axis, keepdims=True)
        y = z - np.log(np.where(total == 0, 1, total))
        self.softmax = np.exp(y)
        return y

    def backward(self, grad_y):
        total = np.sum(grad_y, axis=self.axis, keepdims=True)
        return (grad_y - self.softmax * total,)


class CrossEntropy(Function):
    """L_n = -sum_c q_c log softmax(logits)_c, averaged (or summed) over the targets that count,
    where q is the target distribution: onehot(target), or with label smoothing eps (Szegedy et
    al., 2016; PyTorch's label_smoothing) q = (1 - eps) onehot(target) + eps / C, so that
        L_n = (1 - eps) (-log p_target) + eps * mean_c(-log p_c)

    logits: (..., C), classes on the last axis (integer logits give a float64 loss)
    targets: (...) integer class ids (fixed)
    dL/dlogits = (softmax(logits) - q) * dL/dL_n, 0 where target == ignore_index
    (since sum_c q_c = 1; with eps = 0 this is softmax - onehot)
    reduction: "mean" (over counted targets; 0 when none counts), "sum", or "none" (shape (...)).
    """

    settings = ("targets", "ignore_index", "reduction", "label_smoothing")
    saves = ("counted", "safe_targets", "softmax", "count")

    def __init__(self, targets, ignore_index=None, reduction="mean", label_smoothing=0.0):
        self.targets, self.ignore_index, self.reduction = targets, ignore_index, reduction
        self.label_smoothing = label_smoothing

    def forward(self, logits):
        logits = as_floating(logits)            # integers: a float64 loss, as softmax gives
        targets, classes = self.targets, logits.shape[-1]
        if targets.shape != logits.shape[:-1]:
            raise ValueError(f"targets of shape {targets.shape} do not fit logits of shape "
                             f"{logits.shape}: expected {logits.shape[:-1]}")
        self.counted = (np.ones(targets.shape, dtype=bool) if self.ignore_index is None
                        else targets != self.ignore_index)
        safe = np.where(self.counted, targets, 0)
        if np.any(safe < 0) or np.any(safe >= classes):
            bad = safe[(safe < 0) | (safe >= classes)][0]
            raise IndexError(f"target {bad} is out of range for {classes} classes")
        self.safe_targets = safe
        log_p = LogSoftmax(-1).forward(logits)                               # (..., C)
        self.softmax = np.exp(log_p)
        picked = np.take_along_axis(log_p, safe[..., None], axis=-1)[..., 0]  # (...)
        eps = self.label_smoothing
        if eps:                                 # the smoothed part: eps * mean_c(-log p_c)
            picked = (1 - eps) * picked + eps * log_p.mean(axis=-1)          # (...)
        losses = np.where(self.counted, -picked, 0).astype(logits.dtype, copy=False)
        self.count = max(int(self.counted.sum()), 1)
        if self.reduction == "none":
            return losses
        if self.reduction == "sum":
            return np.sum(losses)
        return np.asarray(np.sum(losses) / self.count, dtype=logits.dtype)    # "mean"

    def backward(self, grad_y):
        eps, classes = self.label_smoothing, self.softmax.shape[-1]
        q = np.full_like(self.softmax, eps / classes)                        # (..., C)
        np.put_along_axis(q, self.safe_targets[..., None], 1 - eps + eps / classes, axis=-1)
        grad = self.softmax - q                                              # (..., C)
        if self.reduction == "mean":
            grad_y = grad_y / self.count
        weight = np.where(self.counted, grad_y, 0)                           # (...)
        return ((grad * weight[..., None]).astype(grad_y.dtype, copy=False),)


def softmax(x, axis=-1, *, dim=None):
    """Softmax along `axis` (`dim`, PyTorch's word, is the same)."""
    return Softmax(axis_or_dim("softmax", axis, dim, default=-1))(x)


def log_softmax(x, axis=-1, *, dim=None):
    """Log-softmax along `axis` (`dim`, PyTorch's word, is the same)."""
    return LogSoftmax(axis_or_dim("log_softmax", axis, dim, default=-1))(x)


def cross_entropy(logits, targets, ignore_index=None, reduction="mean", label_smoothing=0.0):
    """Mean negative log-likelihood of integer class `targets` under softmax(`logits`).

    Classes are on the last axis of `logits` (PyTorch puts them on axis 1; with 2-d logits the
    two agree). Targets equal to `ignore_index` (an integer, e.g. padding's id; None: every
    target counts) add no loss and get no gradient.
    label_smoothing in [0, 1]: the target becomes (1 - eps) onehot + eps / C, as in PyTorch
    (the formula and its derivative are in `CrossEntropy`).
    """
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"cross_entropy: reduction must be 'mean', 'sum' or 'none', "
                         f"not {reduction!r}")
    check_number("label_smoothing", label_smoothing, low=0, high=1, where="cross_entropy")
    if ignore_index is not None:                # a class id, as PyTorch requires: nan or 1.5
        check_number("ignore_index", ignore_index, integer=True, where="cross_entropy")
    targets = np.asarray(getattr(targets, "data", targets))
    if not np.issubdtype(targets.dtype, np.integer):
        raise TypeError(f"cross_entropy: targets must be integer class ids, not {targets.dtype}")
    return CrossEntropy(targets, ignore_index, reduction, label_smoothing)(logits)
