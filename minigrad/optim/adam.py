"""Adam: gradient descent with per-element step sizes from running moments of the gradient,
exactly as `torch.optim.Adam` (weight decay as an L2 penalty added to the gradient; for AdamW's
decoupled decay see `torch.optim.AdamW`)."""

import math

import numpy as np

from minigrad.optim.optimizer import Optimizer
from minigrad.settings import check_number


class Adam(Optimizer):
    """For each parameter p with gradient g, step t = 1, 2, ... is

        g = g + weight_decay * p                       (L2 penalty, added to the gradient)
        m = beta1 * m + (1 - beta1) * g                (first moment: a running mean of g)
        v = beta2 * v + (1 - beta2) * g**2             (second moment: a running mean of g**2)
        m_hat = m / (1 - beta1**t)                     (bias correction: m and v start at 0)
        v_hat = v / (1 - beta2**t)
        p = p - lr * m_hat / (sqrt(v_hat) + eps)       (eps added after the square root)

    m and v start as zeros of p's shape and dtype; t counts the steps of each parameter.
    Parameters whose .grad is None are skipped. Parameters are updated in place, keeping their
    dtype. State per parameter: "step" (t), "exp_avg" (m) and "exp_avg_sq" (v), as in PyTorch.
    """

    hyperparameters = ("lr", "betas", "eps", "weight_decay")
    state_names = ("step", "exp_avg", "exp_avg_sq")

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0):
        super().__init__(params)
        self.check_hyperparameters(dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay))
        self.lr = lr
        self.betas = tuple(betas)
        self.eps = eps
        self.weight_decay = weight_decay

    def check_hyperparameters(self, settings):
        """Finite numbers: lr, eps and weight_decay >= 0, and two betas in [0, 1) (a beta of 1
        never forgets its first value, and 1 - beta**t would divide by zero)."""
        betas = settings["betas"]
        if not isinstance(betas, (tuple, list)) or len(betas) != 2:
            raise TypeError(f"Adam: betas must be a pair of numbers (beta1, beta2), got "
                            f"{betas!r}")
        for name, beta in zip(("betas[0]", "betas[1]"), betas):
            check_number(name, beta, low=0, high=1, high_open=True, where="Adam")
        for name in ("lr", "eps", "weight_decay"):
            check_number(name, settings[name], low=0, where="Adam")

    def check_state(self, name, value):
        """The base checks, and exp_avg_sq, a running mean of squares, is never negative (its
        square root divides the step)."""
        problem = super().check_state(name, value)
        if problem is None and name == "exp_avg_sq" and np.any(value < 0):
            return "holds a negative number, where it is a mean of squares"
        return problem

    def step(self):
        """Update every parameter that has a gradient."""
        beta1, beta2 = self.betas
        for i, p in enumerate(self.params):
            if p.grad is None:
                continue
            grad = p.grad
            if self.weight_decay != 0.0:
                grad = grad + self.weight_decay * p.data        # a new array: p.grad is kept
            if i not in self.state:
                self.state[i] = {"step": 0,
                                 "exp_avg": np.zeros_like(p.data),
                                 "exp_avg_sq": np.zeros_like(p.data)}
            state = self.state[i]
            state["step"] += 1
            m, v = state["exp_avg"], state["exp_avg_sq"]        # the optimiser's own arrays:
            m *= beta1                                          # updated in place
            m += (1.0 - beta1) * grad
            v *= beta2
            v += (1.0 - beta2) * (grad * grad)

            bias_correction1 = 1.0 - beta1 ** state["step"]
            bias_correction2 = 1.0 - beta2 ** state["step"]
            step_size = self.lr / bias_correction1
            denom = np.sqrt(v) / math.sqrt(bias_correction2) + self.eps
            p.data -= step_size * (m / denom)                   # in place, dtype kept

    def _restore_types(self):
        self.betas = tuple(self.betas)
