"""What a run shows while it works: a training epoch's progress, shown the way the place it goes
to can show it, and `say`, the lines it prints, which a closed pipe cannot stop.

On stdout, whatever stderr is, training says what it is about to do, then one line per epoch
that carries everything about the epoch (starting_line, epoch_report):

    training 5,474 weights on 1,350 pairs (150 to validate): 43 batches of 32 an epoch, 3 epochs
    epoch 1/3: loss 1.4928  exact_match 0.5108  ...  (43 batches in 2.1 s, 20.5 batch/s)

While an epoch runs, on stderr:

    where stderr goes                      what is shown
    a terminal                             a tqdm bar, redrawn in place, removed at the epoch's end
    a Jupyter notebook with ipywidgets     tqdm's widget (tqdm.auto picks it), removed likewise
    anything else: a file, a pipe, CI,     a line at most every PROGRESS_EVERY seconds (30):
      a notebook without ipywidgets          epoch 1/10: 40 of 157 batches, 31 s, loss 0.4321

A bar redraws itself with a carriage return many times a second. A terminal shows that as one
line; a log file keeps every redraw, and a notebook keeps each as an output of its own (about 60
per epoch in a saved notebook), which is why anything that is not a terminal or a widget gets a
line now and then instead: enough to see that a long epoch is moving, and none at the epoch's
end, where the epoch's own line on stdout says it all.

The bar shows the mean loss so far; tqdm writes the rate itself (batch/s), so it is not repeated.
"""

import importlib.util
import sys
import time

from minigrad.command import drop_stdout
from seq2seq.commands.messages import message

PROGRESS_EVERY = 30.0       # seconds between two progress lines where stderr is no terminal


def starting_line(weights, pairs, validate, batches, batch_size, epochs, first=1):
    """What training is about to do, said before its first batch (an epoch of a large task on
    a busy machine takes minutes): "training 5,474 weights on 1,350 pairs (150 to validate):
    43 batches of 32 an epoch, 3 epochs" (a resumed run: "..., epochs 3 to 5")."""
    which = (counted("progress.epochs", epochs) if first == 1 else
             message("progress.epoch_only", epoch=epochs) if first == epochs else
             message("progress.epoch_range", first=first, last=epochs))
    return message("progress.starting", weights=f"{weights:,}", pairs=f"{pairs:,}",
                   validate=f"{validate:,}", batches=counted("progress.batches", batches),
                   batch_size=batch_size, which=which)


def counted(key, count):
    """'1 epoch', '6 epochs' (KEY_one or KEY_many), the count written with commas."""
    return message(f"{key}_{'one' if count == 1 else 'many'}", count=f"{count:,}")


def epoch_report(epoch, epochs, loss, scores, batches=None, seconds=None):
    """The one line an epoch ends with: "epoch 1/3: loss 1.4928  exact_match 0.5108
    token_accuracy 0.7784  bleu 0.6032  (43 batches in 2.1 s, 20.5 batch/s)". The scores are
    the validation's (none without validation pairs); the batches and time are left out when
    `seconds` is None (training without progress, whose lines do not depend on the machine)."""
    blank = bool(scores) and scores["blank_outputs"] == scores["examples"]
    line = message("progress.epoch", epoch=epoch, epochs=epochs, loss=f"{loss:.4f}") + "".join(
        message(f"progress.{k}", value=f"{scores[k]:.4f}")
        for k in ("exact_match", "token_accuracy", "bleu")
        if k in scores) + (message("progress.all_blank") if blank else "")
    if seconds is not None:
        rate = (message("progress.rate", rate=f"{batches / seconds:.1f}")
                if seconds > 0 and batches else "")
        line += message("progress.timing", batches=counted("progress.batches", batches),
                        seconds=f"{seconds:.1f}", rate=rate)
    return line


def epoch_name(epoch, epochs):
    """'epoch 2/5', what the progress of an epoch is headed with."""
    return message("progress.epoch_name", epoch=epoch, epochs=epochs)


def in_notebook():
    """True inside a Jupyter kernel (a notebook, JupyterLab, VS Code, Colab), False in a plain
    Python or IPython terminal. IPython is looked at only if something has imported it already:
    a kernel always has."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    return shell is not None and "IPKernelApp" in shell.config


def display_kind(stream):
    """"widget", "bar" or "lines": how to show progress on `stream` (see the module's table)."""
    if in_notebook():
        return "widget" if importlib.util.find_spec("ipywidgets") is not None else "lines"
    try:
        terminal = stream.isatty()
    except (AttributeError, OSError, ValueError):       # no isatty, or a closed stream
        terminal = False
    return "bar" if terminal else "lines"


def epoch_progress(total, description, enabled=True, stream=None):
    """The progress display of one epoch of `total` batches, or None when not `enabled`.

    Whatever it is, it is used as a tqdm bar is: set_postfix(loss=...), update(), close(). The
    stream (sys.stderr by default) is wrapped so that a closed stderr stops no epoch."""
    if not enabled:
        return None
    stream = sys.stderr if stream is None else stream
    kind = display_kind(stream)
    if kind == "lines":
        return EpochLine(total, description, QuietStream(stream))
    # tqdm.auto: the widget in a notebook, else the text bar
    from tqdm.auto import tqdm
    return tqdm(total=total, desc=description, unit="batch", leave=False, dynamic_ncols=True,
                file=QuietStream(stream))


class EpochLine:
    """Progress where stderr is no terminal: a line at most every `every` seconds while the
    epoch runs, "epoch 1/10: 40 of 157 batches, 31 s, loss 0.4321" (the last loss set), and
    nothing when it ends (the epoch's report on stdout has its batches, time and rate)."""

    def __init__(self, total, description, stream, every=PROGRESS_EVERY):
        self.total, self.description, self.stream, self.every = total, description, stream, every
        self.n, self.postfix = 0, {}
        self.started = self.shown = time.perf_counter()

    def set_postfix(self, **values):
        self.postfix = values

    def update(self, n=1):
        self.n += n
        now = time.perf_counter()
        if now - self.shown >= self.every and self.n < self.total:
            self.shown = now
            extra = "".join(message("progress.loss_so_far", loss=value) if name == "loss"
                            else f", {name} {value}" for name, value in self.postfix.items())
            self.stream.write(message("progress.in_epoch", epoch=self.description, done=self.n,
                                      total=self.total, seconds=f"{now - self.started:.0f}",
                                      extra=extra) + "\n")
            self.stream.flush()

    def close(self):
        pass


# ---- printing that a closed pipe cannot stop ------------------------------------------------

def say(*args, **kwargs):
    """print(), flushed at once; once stdout is gone (a closed pipe), output is dropped."""
    try:
        print(*args, **kwargs, flush=True)
    except (OSError, ValueError):            # BrokenPipeError, or stdout closed
        drop_stdout()


class QuietStream:
    """A stream (stderr, for the progress bar) whose write errors are dropped, not raised."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, text):
        try:
            return self.stream.write(text)
        except (OSError, ValueError):           # a closed pipe: drop the stream for good
            drop_stdout(self.stream)

    def flush(self):
        try:
            self.stream.flush()
        except (OSError, ValueError):
            drop_stdout(self.stream)

    def __getattr__(self, name):
        return getattr(self.stream, name)


def level_note(level, written):
    """One line on how a pairs file is cut into tokens (`level`, "char" or "word"; `written`:
    the --level given, None for the default), and how to change it: nothing in the file says
    which level it wants, and a file of words trained at the character level (the default)
    may learn nothing but where the spaces go."""
    if level == "word":
        return message("progress.level_word")
    how = "--level char" if written else message("progress.level_default")
    return message("progress.level_char", how=how)


def blank_warning(n, level, task=None):
    """The line that says a run's every validation output is blank, and what may help (--level
    word only for a pairs file read by characters: a built-in task's level is its own)."""
    from seq2seq.data.tasks import TASKS
    hint = message("progress.blank_spaces" if level == "char" and task not in TASKS
                   else "progress.blank_more")
    return message("progress.blank_warning", count=n, hint=hint)
