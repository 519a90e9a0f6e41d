"""A run folder's report.json: made from the checkpoint's history, written after it, and
rewritten from it when a kill came between the two (`reconcile_report` when a run resumes,
`repair_report` before evaluate reads a run). The checkpoint is the truth; the report is its
history as JSON, for people and scripts that do not read .npz files.
"""

import json
from pathlib import Path

from minigrad.files import atomic_write, read_small_text
from seq2seq.commands.messages import message
from seq2seq.commands.progress import say
from seq2seq.commands.runs import CHECKPOINT, REPORT, RunFolderError, hold


def report_of(history):
    """report.json's content: made from the checkpoint's history, so the two cannot differ."""
    return list(history)


def report_text(history):
    """JSON, strictly: a NaN would be written as a bare NaN, which no JSON reader accepts (the
    checkpoint's history is checked for them when read, seq2seq.commands.checkpoint_entries)."""
    return json.dumps(report_of(history), indent=2, allow_nan=False)


def write_report(folder, history):
    text = report_text(history)
    atomic_write(Path(folder) / REPORT, lambda file: file.write(text), text=True)


def repair_report(path, log=say):
    """Before reading a run (evaluate): if `path` is a run folder that no run holds, rewrite its
    report from the checkpoint where they disagree. A folder in use is left to its run."""
    folder = Path(path)
    if not (folder / CHECKPOINT).is_file():
        return
    from seq2seq.commands.checkpoint_reading import read_checkpoint  # every entry checked first
    try:
        with hold(folder, log):
            reconcile_report(folder, read_checkpoint(folder / CHECKPOINT), log)
    except (RunFolderError, OSError):       # in use, or read-only: reading goes on
        pass


def reconcile_report(folder, state, log=say):
    """Rewrite report.json from the checkpoint if they disagree (a kill between the two)."""
    path, expected = Path(folder) / REPORT, report_text(state["history"])
    try:                        # a FIFO, or a link to /dev/zero, is not read, only rewritten
        report = read_small_text(path, len(expected.encode("utf-8")), message("what.run_report"))
    except (OSError, ValueError):
        report = None
    if report != expected:
        write_report(folder, state["history"])
        log(message("reports.rewritten", path=path, checkpoint=CHECKPOINT,
                    epochs=len(state["history"])))

