"""What a run shows while it works: a training epoch's progress, shown the way the place it goes
to can show it, and `say`, the lines it prints, which a closed pipe cannot stop.

    where stderr goes                      what is shown
    a terminal                             a tqdm bar, redrawn in place, removed at the epoch's end
    a Jupyter notebook with ipywidgets     tqdm's widget (tqdm.auto picks it), removed likewise
    anything else: a file, a pipe, CI,     one line when the epoch ends:
      a notebook without ipywidgets          epoch 1/10: 157 batches in 12.3 s (12.8 batch/s),
                                             loss 0.4321

A bar redraws itself with a carriage return many times a second. A terminal shows that as one
line; a log file keeps every redraw, and a notebook keeps each as an output of its own (about 60
per epoch in a saved notebook), which is why anything that is not a terminal or a widget gets
one line per epoch instead.

The bar shows the mean loss so far; tqdm writes the rate itself (batch/s), so it is not repeated.
"""

import importlib.util
import sys
import time

from minigrad.command import drop_stdout


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
    """Progress as one line, written when the epoch is closed: how many batches, how long, how
    fast, and the last loss set."""

    def __init__(self, total, description, stream):
        self.total, self.description, self.stream = total, description, stream
        self.n, self.postfix = 0, {}
        self.started = time.perf_counter()
        self.closed = False

    def set_postfix(self, **values):
        self.postfix = values

    def update(self, n=1):
        self.n += n

    def close(self):
        if self.closed:
            return
        self.closed = True
        seconds = time.perf_counter() - self.started
        done = f"{self.n}" if self.n == self.total else f"{self.n} of {self.total}"
        rate = f" ({self.n / seconds:.1f} batch/s)" if seconds > 0 and self.n else ""
        extra = "".join(f", {name} {value}" for name, value in self.postfix.items())
        self.stream.write(f"{self.description}: {done} batches in {seconds:.1f} s{rate}"
                          f"{extra}\n")
        self.stream.flush()


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
