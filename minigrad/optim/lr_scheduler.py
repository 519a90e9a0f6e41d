"""Learning-rate schedules, as in `torch.optim.lr_scheduler`: `LambdaLR`, and `NoamLR`, the
Transformer's warm-up then inverse-square-root decay.

A schedule changes the optimiser's `lr` attribute (the optimiser reads it at every step), from
the optimiser's `initial_lr` (its lr when the first schedule was made on it), and counts its own
steps in `last_epoch`, as PyTorch's do:

    opt = optim.Adam(model.parameters(), lr=1.0, betas=(0.9, 0.98), eps=1e-9)
    schedule = optim.lr_scheduler.NoamLR(opt, d_model=512, warmup_steps=4000)
    for batch in batches:
        ...; loss.backward(); opt.step(); schedule.step()
"""

import math
import numbers

import numpy as np

from minigrad.messages import message
from minigrad.settings import check_number

MAX_LAST_EPOCH = 2 ** 53     # the step count a state dict may hold: no run takes more updates


class LambdaLR:
    """lr = base_lr * lr_lambda(last_epoch), as torch.optim.lr_scheduler.LambdaLR.

    base_lr is the optimiser's `initial_lr`: its lr when the first schedule on it was made,
    which that schedule keeps on the optimiser (and in its state_dict), as PyTorch does. So a
    second schedule made on the same optimiser starts from the same base, not from the lr the
    first one set. Making the schedule sets lr for last_epoch = 0 (the first update); each
    `step()` adds one to last_epoch and sets lr again. An lr that is not a finite number >= 0
    (lr_lambda gave inf, NaN, a negative factor or an int too large for a float) is refused,
    naming the schedule and the step, and leaves the lr and the step count as they were.
    `load_state_dict` takes a last_epoch that is an integer from 0 to 2**53, nothing else.
    """

    def __init__(self, optimizer, lr_lambda):
        if not hasattr(optimizer, "lr"):
            raise TypeError(f"{type(self).__name__}: expected an optimiser with an lr, got a "
                            f"{type(optimizer).__name__}")
        self.optimizer, self.lr_lambda = optimizer, lr_lambda
        if getattr(optimizer, "initial_lr", None) is None:     # the first schedule on it
            optimizer.initial_lr = optimizer.lr
        self.base_lr = optimizer.initial_lr
        self.last_epoch = -1
        self.step()

    def step(self):
        self.optimizer.lr = self.last_lr = self.lr_at(self.last_epoch + 1, self.base_lr)
        self.last_epoch += 1                # (lr_at checks the lr before anything is changed)

    def lr_at(self, epoch, base_lr):
        """base_lr * lr_lambda(epoch) as a Python float, refused unless a finite number >= 0
        (SGD and Adam refuse any other lr when they are made; a schedule must not slip one in
        later). A factor may be a NumPy scalar or a 0-d array, as PyTorch takes them; a negative
        factor is refused even where base_lr is 0 (0 * -2 is -0.0, which compares as 0); a
        zero lr is stored as 0.0, never -0.0."""
        factor = self.lr_lambda(epoch)
        said = f"{type(self).__name__}: step {epoch}: lr_lambda({epoch}) returned {_shown(factor)}"
        if isinstance(factor, (np.ndarray, np.generic)) and np.ndim(factor) == 0:
            factor = factor.item()          # np.array(0.5), np.True_ -> 0.5, True: numbers
        if not isinstance(factor, numbers.Real):
            raise TypeError(f"{said} ({type(factor).__name__}), not a number")
        try:
            lr = float(base_lr * factor)                # a NumPy scalar becomes a float too
        except OverflowError:                           # an int too large for a float: 10**400
            raise ValueError(f"{said}, too large for a float; an lr must be a finite number "
                             f">= 0") from None
        if not math.isfinite(lr) or lr < 0:
            raise ValueError(f"{said}, so lr = base_lr {base_lr} * {_shown(factor)} = {lr}; an lr "
                             f"must be a finite number >= 0")
        if factor < 0:
            raise ValueError(f"{said}, a negative factor; lr_lambda must give a finite number "
                             f">= 0")
        return lr + 0.0                                 # -0.0 + 0.0 is 0.0

    def get_last_lr(self):
        """[the lr this schedule set last], a list as in PyTorch (one entry per parameter
        group there). Another schedule on the same optimiser may have set its lr since: this is
        still this schedule's own, as PyTorch's is."""
        return [self.last_lr]

    def state_dict(self):
        return {"base_lr": self.base_lr, "last_epoch": self.last_epoch}

    def load_state_dict(self, state_dict):
        """Resume: the base lr and the step count, then the lr they give."""
        if set(state_dict) != {"base_lr", "last_epoch"}:
            raise ValueError(f"{type(self).__name__}.load_state_dict: expected the keys "
                             f"'base_lr' and 'last_epoch', got {list(state_dict)}")
        where = f"{type(self).__name__}.load_state_dict"
        base_lr = check_number("base_lr", state_dict["base_lr"], low=0, where=where)
        found = state_dict["last_epoch"]
        too_many = isinstance(found, numbers.Integral) and found > MAX_LAST_EPOCH
        last_epoch = int(check_number("last_epoch", found, low=0, high=MAX_LAST_EPOCH,
                                      integer=True, where=where,
                                      why=("past 2**53 a float no longer tells one step from "
                                           "the next") if too_many else None))
        self.optimizer.lr = self.last_lr = self.lr_at(last_epoch, base_lr)
        self.base_lr, self.last_epoch = base_lr, last_epoch


def _shown(value):
    """A value for a message, in at most about 40 characters; an int too long for that by its
    size (str() of an int of more than 4,300 digits is itself an error)."""
    if isinstance(value, int) and value.bit_length() > 128:
        return message("setting.big_int", bits=value.bit_length())
    return f"{value!r:.40}"


def noam_lrate(step_num, d_model, warmup_steps):
    """The learning rate of "Attention Is All You Need" (Vaswani et al., 2017, section 5.3):

        lrate = d_model^-0.5 * min(step_num^-0.5, step_num * warmup_steps^-1.5)

    It rises linearly for the first warmup_steps updates, peaks at step_num = warmup_steps
    (lrate = (d_model * warmup_steps)^-0.5), then falls as 1/sqrt(step_num). step_num counts
    updates from 1.
    """
    return d_model ** -0.5 * min(step_num ** -0.5, step_num * warmup_steps ** -1.5)


class NoamLR(LambdaLR):
    """The Transformer's schedule (`noam_lrate`), as a LambdaLR:

        lr = base_lr * noam_lrate(last_epoch + 1, d_model, warmup_steps)

    so the k-th update (k = 1, 2, ...) uses the paper's rate for step_num = k. With the
    optimiser's lr = 1.0 this is the paper's schedule exactly; another lr scales it (the
    "factor" of some implementations). PyTorch has no class of this name: it is
    `LambdaLR(opt, lambda e: noam_lrate(e + 1, d_model, warmup_steps))`, which the tests check.
    """

    def __init__(self, optimizer, d_model, warmup_steps=4000):
        for name, value in (("d_model", d_model), ("warmup_steps", warmup_steps)):
            huge = isinstance(value, numbers.Integral) and value > MAX_LAST_EPOCH
            check_number(name, value, low=1, high=MAX_LAST_EPOCH, integer=True, where="NoamLR",
                         why="the rate takes its -0.5 and -1.5 powers as floats" if huge else None)
        self.d_model, self.warmup_steps = d_model, warmup_steps
        super().__init__(optimizer, self.rate)

    def rate(self, epoch):
        """The factor for update number epoch + 1."""
        return noam_lrate(epoch + 1, self.d_model, self.warmup_steps)
