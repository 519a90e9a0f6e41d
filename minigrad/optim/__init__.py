"""Optimisers, as in `torch.optim`: `opt = minigrad.optim.Adam(params, lr=1e-3)`, then
`opt.zero_grad()`, `loss.backward()`, `opt.step()` in the training loop.

optimizer   the base class: parameters, zero_grad, state_dict / load_state_dict
sgd         SGD, with momentum, Nesterov momentum and weight decay
adam        Adam
lr_scheduler  LambdaLR, and NoamLR: the Transformer's warm-up then 1/sqrt(step) decay
"""

from minigrad.optim import lr_scheduler
from minigrad.optim.adam import Adam
from minigrad.optim.optimizer import Optimizer
from minigrad.optim.sgd import SGD

__all__ = ["Optimizer", "SGD", "Adam", "lr_scheduler"]
