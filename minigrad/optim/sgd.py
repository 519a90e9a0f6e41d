"""SGD: stochastic gradient descent, with optional momentum, Nesterov momentum and weight decay,
exactly as `torch.optim.SGD` (with dampening 0)."""

import numpy as np

from minigrad.optim.optimizer import Optimizer
from minigrad.settings import check_number


class SGD(Optimizer):
    """For each parameter p with gradient g, one step is

        g = g + weight_decay * p                  (L2 penalty, added to the gradient)
        b = g                      on the first step, then
        b = momentum * b + g       (the momentum buffer, a running sum of past gradients)
        d = g + momentum * b       with nesterov, else   d = b
        p = p - lr * d

    With momentum 0 there is no buffer and d = g: plain gradient descent.
    Parameters whose .grad is None are skipped. Parameters are updated in place, keeping their
    dtype.
    """

    hyperparameters = ("lr", "momentum", "weight_decay", "nesterov")
    state_names = ("momentum_buffer",)

    def __init__(self, params, lr, momentum=0.0, weight_decay=0.0, nesterov=False):
        super().__init__(params)
        self.check_hyperparameters(dict(lr=lr, momentum=momentum, weight_decay=weight_decay,
                                        nesterov=nesterov))
        self.lr = lr
        self.momentum = momentum
        self.weight_decay = weight_decay
        self.nesterov = nesterov

    def check_hyperparameters(self, settings):
        """Finite numbers, as PyTorch allows them: lr, momentum and weight_decay >= 0."""
        for name in ("lr", "momentum", "weight_decay"):
            check_number(name, settings[name], low=0, where="SGD")
        if not isinstance(settings["nesterov"], (bool, np.bool_)):
            raise TypeError(f"SGD: nesterov must be True or False, got {settings['nesterov']!r}")
        if settings["nesterov"] and settings["momentum"] == 0:
            raise ValueError("SGD: nesterov=True needs a momentum above 0")

    def step(self):
        """Update every parameter that has a gradient."""
        for i, p in enumerate(self.params):
            if p.grad is None:
                continue
            grad = p.grad
            if self.weight_decay != 0.0:
                grad = grad + self.weight_decay * p.data        # a new array: p.grad is kept
            if self.momentum != 0.0:
                state = self.state.setdefault(i, {})
                if "momentum_buffer" not in state:
                    state["momentum_buffer"] = np.array(grad, dtype=p.data.dtype)   # our copy
                else:
                    buffer = state["momentum_buffer"]
                    buffer *= self.momentum                     # in place: the optimiser's own
                    buffer += grad
                buffer = state["momentum_buffer"]
                grad = grad + self.momentum * buffer if self.nesterov else buffer
            p.data -= self.lr * grad                            # in place, dtype kept
