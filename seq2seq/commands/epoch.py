"""One epoch of training, and what stops a run that diverges: a loss or gradients that are no
longer finite numbers, a loss far above a uniform guess's, a weight grown past any a learning
model reaches. `seq2seq.commands.train` runs the epochs and saves each one; an epoch that
diverged is not saved.
"""

import math

import numpy as np

from minigrad.nn.utils import clip_grad_norm_
from seq2seq.commands.messages import message
from seq2seq.commands.progress import epoch_name, epoch_progress
from seq2seq.data.batching import batches


class TrainingDiverged(ValueError):
    """The loss or the gradients stopped being finite numbers, the loss went far above a uniform
    guess's (MAX_LOSS_RATIO), or a weight outgrew MAX_WEIGHT; the message says when and what to
    change. Raised before the epoch is saved, so the checkpoint keeps the last good one."""


# The largest |weight| a run may reach before it is stopped as diverged. The weights of the
# models here stay within a few units while they learn (3.3 at most on `reverse` at lr 1e-3 to
# 1e-1; 20 at lr 1 and 1.6e3 at lr 100, which learnt nothing in 3 epochs); past 1e6 every gate is
# saturated and the products overflow soon after, while the loss may stay finite (one epoch at lr
# 1e30 took the weights to 3e30 with a finite loss of 2.8e30). Looking costs under 1 ms a step
# for the default dates model (570,095 weights), whose step takes about 230 ms.
MAX_WEIGHT = 1e6

# The largest per-token training loss of a batch, as a multiple of ln V (V: the target
# vocabulary's size), before a run is stopped as diverged. A model that guesses uniformly among
# the V tokens scores ln V, where every run starts; one that scores ten times worse has learnt to
# be confidently wrong. Measured on `reverse`, `dates` and `toy-ja-en` (hidden size 64, 3 to 10
# epochs), no batch of a run that learnt (lr 1e-3 to 1e-1) went above 1.5 x ln V; lr 0.3 reached
# 3.4 x and lr 1 (which learnt nothing) 5.3 to 9.0 x, while lr 3 went to 17 to 21 x and lr 30
# to 155 to 188 x. With Adam the weights may stay under MAX_WEIGHT all the while: lr 3e4 took
# the loss to 2.6e5 per token (about 1e5 x ln V) at the second batch of `reverse`; without
# this bound the run went on to save epochs that translate nothing, with exit status 0.
MAX_LOSS_RATIO = 10


def _diverged(what, epoch, batch, config):
    return TrainingDiverged(message("epoch.diverged", what=what, epoch=epoch + 1, batch=batch,
                                    lr=f"{config.lr:g}", clip=f"{config.clip:g}"))


def run_epoch(model, optimizer, examples, config, rng, epoch, log, schedule=None, until=None,
              watch=None):
    """One pass over the shuffled training examples; returns the mean loss. `schedule`, if
    given, sets the learning rate after every update (seq2seq.commands.arch.make_schedule).
    `until`, if given, is called after every update: when it returns True the epoch stops
    there, and the mean is over the batches done (compare-architectures stops a model when its
    CPU-time budget is used). `watch(model, loss)`, if given, is called at every step after
    backward and before the gradients are clipped, with the batch's loss: every p.grad is then
    the gradient as backward left it (compare-norms records the loss curve and the gradients'
    norms by layer with it).

    Four checks at every step stop the run at once with TrainingDiverged: a loss that is not a
    finite number, a loss above MAX_LOSS_RATIO x ln V (far worse than guessing uniformly among
    the V target tokens), gradients whose norm is not finite, and a weight larger than
    MAX_WEIGHT after the step (a learning rate of 1e30 makes every weight huge while the loss
    stays finite). Going on would only save weights that translate nothing. NumPy's overflow
    warnings, which say the same in many lines, are silenced inside the step; the checks say it
    in one."""
    pad = model.padding_idx
    n_batches = -(-len(examples) // config.batch_size)
    progress = epoch_progress(n_batches, epoch_name(epoch + 1, config.epochs), config.progress)
    uniform = math.log(model.config["tgt_vocab_size"])      # the loss of a uniform guess
    total, done = 0.0, 0
    for i, (src, tgt) in enumerate(batches(examples, config.batch_size, pad, rng), 1):
        with np.errstate(all="ignore"):     # an overflow shows in the checks, below
            loss = model.loss(src, tgt, config.teacher_forcing_ratio, rng,
                              config.label_smoothing)
            value = loss.item()
            if not math.isfinite(value):
                raise _stopped(progress, message("epoch.loss_not_finite", value=value), epoch,
                               i, config)
            if value > MAX_LOSS_RATIO * uniform:
                raise _stopped(progress, message(
                    "epoch.loss_too_high", value=f"{value:.4g}", ratio=MAX_LOSS_RATIO,
                    bound=f"{MAX_LOSS_RATIO * uniform:.3g}", size=model.config["tgt_vocab_size"],
                    uniform=f"{uniform:.3g}"), epoch, i, config)
            optimizer.zero_grad()
            loss.backward()
            if watch is not None:
                watch(model, value)
            norm = clip_grad_norm_(model.parameters(), config.clip)
            if not math.isfinite(norm):
                raise _stopped(progress, message("epoch.norm_not_finite", norm=norm), epoch, i,
                               config)
            optimizer.step()
            if schedule is not None:
                schedule.step()
            largest = np.max([np.abs(p.data).max() for p in model.parameters()])   # nan stays
            if not largest <= MAX_WEIGHT:
                raise _stopped(progress, message("epoch.weight_too_large", largest=f"{largest:.3g}",
                                                 bound=f"{MAX_WEIGHT:g}"), epoch, i, config)
        total, done = total + value, i
        if progress is not None:
            progress.set_postfix(loss=f"{total / i:.4f}")      # tqdm shows the rate itself
            progress.update()
        if until is not None and until():
            break
    if progress is not None:
        progress.close()
    return total / max(done, 1)


def _stopped(progress, what, epoch, batch, config):
    if progress is not None:
        progress.close()                    # the error's line, not the bar's
    return _diverged(what, epoch, batch, config)
