"""minigrad: reverse-mode autodiff over NumPy arrays, small enough to read in one sitting.

    from minigrad import Tensor
    x = Tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward()          # x.grad == [2., 4.]
"""

# The one place the version is written: the build reads it from this line (pyproject.toml,
# [tool.setuptools.dynamic]) without importing the package, and a plain checkout has it too.
__version__ = "0.2.0"

# Before anything is imported: a command (`python -m seq2seq ...`) starts again with the working
# folder off the front of the module path, so that no module there stands in for a real one.
from minigrad.working_folder import leave_front_of_path

leave_front_of_path()

# Tensor first: the engine and the ops import it, and it imports them once it is defined.
from minigrad.tensor import Tensor

# isort: split
from minigrad import debug, functional, nn, optim
from minigrad.autograd import Function, backward, topological_order
from minigrad.checkpoint import CheckpointError, load, save
from minigrad.grad_mode import is_grad_enabled, no_grad
from minigrad.gradcheck import GradcheckError, gradcheck
from minigrad.random import manual_seed
from minigrad.scopes import scope

__all__ = ["__version__", "Tensor", "Function", "backward", "no_grad", "is_grad_enabled",
           "topological_order", "functional", "gradcheck", "GradcheckError", "manual_seed",
           "save", "load", "CheckpointError", "nn", "optim", "scope", "debug"]
