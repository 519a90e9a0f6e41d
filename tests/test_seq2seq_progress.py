"""Training's progress suits where it goes: a bar in a terminal, a widget in a notebook that has
ipywidgets, and one line per epoch anywhere else (a log file, a pipe, CI, a notebook without
widgets), where a redrawn bar would leave every redraw behind."""

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from seq2seq.commands import progress
from seq2seq.commands.progress import EpochLine, display_kind, epoch_progress

ROOT = Path(__file__).resolve().parent.parent
TINY = ["--task", "reverse", "--num-examples", "200", "--min-len", "3", "--max-len", "5",
        "--embed-size", "8", "--hidden-size", "8", "--batch-size", "32", "--val-fraction", "0.2"]


class Terminal(io.StringIO):
    def isatty(self):
        return True


def train_with_stderr_to_a_file(tmp_path, *options):
    """`python -m seq2seq train` for 3 epochs with stderr written to a file: its lines."""
    err = tmp_path / "stderr.txt"
    with open(err, "w") as file:
        result = subprocess.run(
            [sys.executable, "-m", "seq2seq", "train", *TINY, "--epochs", "3",
             "--out", str(tmp_path / "run"), *options],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=file, text=True, timeout=300, check=False,
            env={**os.environ, "PYTHONWARNINGS": "ignore"})
    assert result.returncode == 0, err.read_text()
    return err.read_text(), result.stdout


def test_training_into_a_file_writes_one_progress_line_per_epoch(tmp_path):
    err, out = train_with_stderr_to_a_file(tmp_path)
    lines = err.splitlines()
    assert len(lines) == 3, err
    assert "\r" not in err
    for epoch, line in enumerate(lines, 1):
        assert line.startswith(f"epoch {epoch}/3: 5 batches in ")      # 160 pairs, batches of 32
        assert "batch/s" in line and ", loss " in line and "it_s" not in line
    assert [line.split(":")[0] for line in out.splitlines()[-4:-1]] == [
        "epoch 1", "epoch 2", "epoch 3"]                                # the log, on stdout


def test_no_progress_writes_nothing_to_stderr(tmp_path):
    err, _ = train_with_stderr_to_a_file(tmp_path, "--no-progress")
    assert err == ""


def test_a_terminal_gets_a_bar_with_the_loss_and_one_rate():
    stream = Terminal()
    bar = epoch_progress(4, "epoch 1/2", stream=stream)
    for i in range(4):
        bar.set_postfix(loss=f"{1.0 / (i + 1):.4f}")
        bar.update()
    bar.close()
    text = stream.getvalue()
    assert "\r" in text and "epoch 1/2" in text and "loss=0.2500" in text
    assert "it_s" not in text and text.count("batch/s") <= text.count("\r")


def test_disabled_progress_is_none():
    assert epoch_progress(4, "epoch 1/1", enabled=False, stream=Terminal()) is None


def test_a_file_or_a_closed_stream_gets_lines():
    assert display_kind(io.StringIO()) == "lines"
    closed = io.StringIO()
    closed.close()
    assert display_kind(closed) == "lines"


@pytest.mark.parametrize("widgets,kind", [(True, "widget"), (False, "lines")])
def test_a_notebook_gets_a_widget_only_where_ipywidgets_is_installed(monkeypatch, widgets, kind):
    monkeypatch.setattr(progress, "in_notebook", lambda: True)
    found = object() if widgets else None
    monkeypatch.setattr(progress.importlib.util, "find_spec",
                        lambda name: found if name == "ipywidgets" else None)
    assert display_kind(Terminal()) == kind


def test_outside_a_kernel_is_not_a_notebook():
    assert progress.in_notebook() is False


def test_the_epoch_line_says_how_far_it_got_when_closed_early():
    stream = io.StringIO()
    line = EpochLine(10, "epoch 2/5", stream)
    line.update()
    line.update()
    line.set_postfix(loss="0.5000")
    line.close()
    line.close()                                        # once only
    [text] = stream.getvalue().splitlines()
    assert text.startswith("epoch 2/5: 2 of 10 batches in ") and text.endswith(", loss 0.5000")
