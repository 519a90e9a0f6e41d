"""Shared helpers for the tests: float64 tensors with fixed random values, and students' files
for the coursework graders."""

import os
import sys
import textwrap

import numpy as np
import pytest

from minigrad import Tensor, language

# The tests compare English messages, whatever the tester's locale (LANG=ja_JP.UTF-8 would
# make them Japanese): LANGUAGE is the first variable minigrad.language reads, and the
# commands the tests start inherit it. tests/test_messages.py asks for Japanese explicitly.
os.environ["LANGUAGE"] = "en"


@pytest.fixture(autouse=True)
def english_after_each_test():
    """A test that chose a language (--lang ja on a command run in this process) leaves the
    next test in English, as the locale above says."""
    yield
    language.choose(None)


@pytest.fixture
def forget_layer_modules(monkeypatch):
    """Drop the modules that layer and block files made (seq2seq_rnn_..., seq2seq_block_...), as
    each command's new process starts without them: the same bytes load as the same module, and
    one loaded from another test's folder may be gone. Dropped when the test starts; the function
    returned drops them again mid-test, with any other modules named (a file's neighbour, say).
    Whatever was dropped is back in sys.modules after the test."""
    def forget(*names):
        for name in [k for k in sys.modules if k.startswith(("seq2seq_rnn_", "seq2seq_block_"))
                     or k in names]:
            monkeypatch.delitem(sys.modules, name)
    forget()
    return forget


@pytest.fixture
def rng():
    return np.random.default_rng(0)


def leaf(rng, shape, low=None, high=None, name=None, dtype=np.float64):
    """A leaf tensor that requires grad: standard normal values, or uniform in [low, high)."""
    if low is None:
        data = rng.standard_normal(shape)
    else:
        data = rng.uniform(low, high, shape)
    return Tensor(np.asarray(data, dtype=dtype), requires_grad=True, name=name)


def away_from(rng, shape, points, margin=0.1):
    """Standard normal values moved at least `margin` away from each of `points` (the kinks of
    relu, abs, clip), so that finite differences never straddle one."""
    data = rng.standard_normal(shape)
    for p in points:
        close = np.abs(data - p) < margin
        data = np.where(close, p + np.sign(data - p + 1e-12) * margin * 2, data)
    return Tensor(data, requires_grad=True)


def student_file(tmp_path, code, name="solution.py"):
    """A student's file with `code` in it (dedented), for a coursework checker to read."""
    path = tmp_path / name
    path.write_text(textwrap.dedent(code), encoding="utf-8")
    return path


HONEST_LAYER_NORM = """
def layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    centred = x - mean
    variance = (centred ** 2).mean(axis=-1, keepdims=True)
    return centred / (variance + eps).sqrt() * weight + bias
"""


def honest_layer_norm_file(tmp_path, code):
    """A student's file: `code` (dedented), then a correct layer_norm, for the tests where
    what is graded is what the file does besides (its imports, the files it opens)."""
    return student_file(tmp_path, textwrap.dedent(code) + HONEST_LAYER_NORM)


@pytest.fixture(scope="session")
def tiny_run(tmp_path_factory):
    """A seq2seq run trained for one epoch on a tiny reversal task (a few seconds), in a
    temporary folder: never the repository's runs/. Its folder, for commands that take a RUN."""
    from seq2seq.commands.train import TrainConfig, train
    out = tmp_path_factory.mktemp("runs") / "tiny"
    train(TrainConfig(task="reverse", num_examples=300, min_len=3, max_len=5, embed_size=8,
                      hidden_size=16, batch_size=32, epochs=1, progress=False, out=str(out)),
          log=lambda *args: None)
    return out


@pytest.fixture(scope="session")
def smallest_run(tmp_path_factory):
    """A run of the smallest sizes (hidden 8, embedding 4, 60 examples), whose weights' shapes
    the checkpoint tests name; they copy it before changing anything."""
    from seq2seq.commands.train import TrainConfig, train
    out = tmp_path_factory.mktemp("runs") / "smallest"
    train(TrainConfig(task="reverse", num_examples=60, min_len=3, max_len=4, embed_size=4,
                      hidden_size=8, epochs=1, progress=False, out=str(out)), log=lambda *a: None)
    return out


@pytest.fixture(scope="session")
def composed_run(tmp_path_factory):
    """A tiny run whose LSTMs are built from primitive ops, with a bidirectional encoder."""
    from seq2seq.commands.train import TrainConfig, train
    out = tmp_path_factory.mktemp("runs") / "composed"
    train(TrainConfig(task="reverse", num_examples=200, min_len=3, max_len=5, embed_size=8,
                      hidden_size=8, batch_size=32, epochs=1, bidirectional=True, fused=False,
                      progress=False, out=str(out)), log=lambda *args: None)
    return out


@pytest.fixture(scope="session")
def transformer_run(tmp_path_factory):
    """A Transformer run of the smallest sizes (d_model 16, 1 layer, 2 heads, 60 sort
    examples, one epoch, learned positions); tests copy it before changing anything."""
    from seq2seq.commands.train import TrainConfig, train
    out = tmp_path_factory.mktemp("runs") / "transformer"
    train(TrainConfig(task="sort", num_examples=60, arch="transformer", d_model=16, heads=2,
                      layers=1, d_ff=16, batch_size=16, epochs=1, positions="learned",
                      progress=False, out=str(out)), log=lambda *args: None)
    return out


def changed_run(run, tmp_path, change):
    """A copy of the run folder whose checkpoint's state went through `change(state)`, for the
    tests of what loading refuses."""
    import shutil

    import minigrad
    folder = tmp_path / "changed"
    shutil.copytree(run, folder)
    state = minigrad.load(folder / "checkpoint.npz")
    change(state)
    minigrad.save(state, folder / "checkpoint.npz")
    return folder
