"""Training's progress suits where it goes: a bar in a terminal, a widget in a notebook that has
ipywidgets, and a line now and then anywhere else (a log file, a pipe, CI, a notebook without
widgets), where a redrawn bar would leave every redraw behind. On stdout, a line says what
training is about to do, and each epoch ends with one line that carries everything."""

import io
import os
import re
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


def test_training_into_a_file_writes_one_line_per_epoch_with_everything(tmp_path):
    err, out = train_with_stderr_to_a_file(tmp_path)
    assert err == ""                    # epochs shorter than PROGRESS_EVERY: no progress line
    lines = out.splitlines()
    assert re.fullmatch(r"training [\d,]+ weights on 160 pairs \(40 to validate\): 5 batches "
                        r"of 32 an epoch, 3 epochs", lines[0])
    for epoch, line in enumerate(lines[1:4], 1):    # 160 pairs, batches of 32
        assert re.fullmatch(rf"epoch {epoch}/3: loss \d\.\d{{4}}  exact_match \d\.\d{{4}}  "
                            r"token_accuracy \d\.\d{4}  bleu \d\.\d{4}  \(5 batches in "
                            r"\d+\.\d s(, [\d.]+ batch/s)?\)", line), line
    assert len([line for line in lines if line.startswith("epoch ")]) == 3   # not two each


def test_no_progress_writes_nothing_to_stderr_and_no_time_on_stdout(tmp_path):
    err, out = train_with_stderr_to_a_file(tmp_path, "--no-progress")
    assert err == ""
    epochs = [line for line in out.splitlines() if line.startswith("epoch ")]
    assert len(epochs) == 3 and not any("batches in" in line for line in epochs)


def test_a_long_epoch_into_a_file_shows_a_line_every_30_seconds(monkeypatch):
    clock = iter([0.0, 10.0, 29.0, 31.0, 45.0, 62.0, 70.0, 95.0])   # at start, then per batch
    monkeypatch.setattr(progress.time, "perf_counter", lambda: next(clock))
    stream = io.StringIO()
    line = epoch_progress(7, "epoch 1/6", stream=stream)
    assert isinstance(line, EpochLine) and line.every == progress.PROGRESS_EVERY == 30
    for i in range(7):
        line.set_postfix(loss=f"{1.0 / (i + 1):.4f}")
        line.update()
    line.close()
    assert stream.getvalue().splitlines() == [          # none at the end: stdout's line says it
        "epoch 1/6: 3 of 7 batches, 31 s, loss 0.3333",
        "epoch 1/6: 5 of 7 batches, 62 s, loss 0.2000"]


def test_the_epoch_report_carries_the_loss_the_scores_and_the_time():
    scores = {"exact_match": 0.5, "token_accuracy": 0.75, "bleu": 0.625, "blank_outputs": 0,
              "examples": 4}
    assert progress.epoch_report(1, 6, 0.76584, scores, 157, 12.3) == (
        "epoch 1/6: loss 0.7658  exact_match 0.5000  token_accuracy 0.7500  bleu 0.6250  "
        "(157 batches in 12.3 s, 12.8 batch/s)")
    assert progress.epoch_report(2, 6, 0.5, {}, 157) == "epoch 2/6: loss 0.5000"
    assert progress.starting_line(570095, 18035, 1965, 141, 128, 3) == (
        "training 570,095 weights on 18,035 pairs (1,965 to validate): 141 batches of 128 an "
        "epoch, 3 epochs")
    assert progress.starting_line(10, 20, 2, 1, 32, 5, first=3).endswith(
        ": 1 batch of 32 an epoch, epochs 3 to 5")                   # resumed after epoch 2
    assert progress.starting_line(10, 20, 2, 1, 32, 5, first=5).endswith(", epoch 5")


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


def test_a_short_epoch_into_a_file_writes_nothing_to_stderr():
    stream = io.StringIO()
    line = EpochLine(10, "epoch 2/5", stream)
    for _ in range(10):
        line.set_postfix(loss="0.5000")
        line.update()
    line.close()
    assert stream.getvalue() == ""
