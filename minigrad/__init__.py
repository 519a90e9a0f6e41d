"""minigrad: reverse-mode autodiff over NumPy arrays, small enough to read in one sitting.

    from minigrad import Tensor
    x = Tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward()          # x.grad == [2., 4.]
"""

from minigrad.tensor import Tensor
from minigrad.autograd import Function, backward, topological_order
from minigrad.grad_mode import is_grad_enabled, no_grad
from minigrad import functional
from minigrad.gradcheck import GradcheckError, gradcheck
from minigrad.random import manual_seed
from minigrad.scopes import scope
from minigrad.checkpoint import CheckpointError, load, save
from minigrad import debug, nn, optim

__all__ = ["Tensor", "Function", "backward", "no_grad", "is_grad_enabled", "topological_order",
           "functional", "gradcheck", "GradcheckError", "manual_seed", "save", "load",
           "CheckpointError", "nn", "optim", "scope", "debug"]
