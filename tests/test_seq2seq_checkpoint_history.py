"""A checkpoint's history agrees with the rest of the checkpoint: as many epochs as it trained,
counts that agree with each other and with the split, numbers a float holds. `train --resume`
starts after the history's last epoch, so a history emptied would train the weights again."""

import json
import shutil

import pytest

import minigrad
from seq2seq.commands.cli import main

from conftest import changed_run as changed


def one_line_error(args, capsys):
    assert main(args) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    return err


def emptied(state):
    state["history"] = []
    state["epochs"] = 0


def without_epochs(state):
    state["history"] = []
    del state["epochs"]


def first(key, value):
    def change(state):
        state["history"][0][key] = value
    return change


@pytest.mark.parametrize("change, entry, expected", [
    (emptied, "history", "at least 1 epoch long (the optimizer took 1 steps), found 0"),
    (without_epochs, "history", "at least 1 epoch long (the optimizer took 1 steps), found 0"),
    (lambda state: state.update(epochs=3), "history",
     "3 epochs long (the 'epochs' entry), found 1"),
    (lambda state: state.update(epochs=-1), "epochs", "a whole number >= 0"),
    (first("blank_outputs", 10 ** 30), "history[0].blank_outputs", "at most the examples"),
    (first("examples", 7), "history[0].examples", "(the split's validation pairs)"),
    (first("loss", 10 ** 400), "history[0].loss", "a finite number >= 0"),
    (first("bleu", 10 ** 400), "history[0].bleu", "a finite number in [0, 1]"),
])
@pytest.mark.parametrize("command", ["evaluate", "resume"])
def test_a_history_that_disagrees_with_the_checkpoint_is_refused_naming_file_and_entry(
        smallest_run, tmp_path, capsys, change, entry, expected, command):
    folder = changed(smallest_run, tmp_path, change)
    report = (folder / "report.json").read_text(encoding="utf-8")
    args = (["evaluate", str(folder)] if command == "evaluate" else
            ["train", "--out", str(folder), "--resume", "--epochs", "3"])
    err = one_line_error(args, capsys)
    assert err.startswith(f"error: {folder / 'checkpoint.npz'}: not a seq2seq checkpoint that "
                          f"this version can load: its {entry!r} entry should be "), err
    assert expected in err, err
    assert "OverflowError" not in err
    assert (folder / "report.json").read_text(encoding="utf-8") == report


def test_a_trained_run_records_its_epochs_and_resumes_after_them(smallest_run, tmp_path):
    folder = changed(smallest_run, tmp_path, lambda state: None)
    assert minigrad.load(folder / "checkpoint.npz")["epochs"] == 1
    assert main(["train", "--out", str(folder), "--resume", "--epochs", "2",
                 "--no-progress"]) == 0
    state = minigrad.load(folder / "checkpoint.npz")
    assert state["epochs"] == 2 and [r["epoch"] for r in state["history"]] == [1, 2]
    report = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    assert [r["epoch"] for r in report] == [1, 2]


def test_a_checkpoint_saved_before_the_epochs_entry_still_loads(smallest_run, tmp_path):
    folder = changed(smallest_run, tmp_path, lambda state: state.pop("epochs"))
    assert main(["evaluate", str(folder)]) == 0


# ---- a history cut short in a checkpoint without the `epochs` entry -------------------------

def cut_to(epochs):
    """The history cut to its first `epochs` epochs, and no `epochs` entry to give it away."""
    def change(state):
        state["history"] = state["history"][:epochs]
        del state["epochs"]
    return change


def trained(out, task, epochs, batch_size, resume=False):
    from seq2seq.commands.train import TrainConfig, train
    from seq2seq.data.tasks import TASKS
    generating = dict(num_examples=60, min_len=3, max_len=4) if task in TASKS else {}
    train(TrainConfig(task=task, **generating, embed_size=4, hidden_size=8,
                      batch_size=batch_size, epochs=epochs, resume=resume, progress=False,
                      out=str(out)), log=lambda *a: None)     # a pairs file is read whole
    return out


@pytest.fixture(scope="module")
def three_epochs(tmp_path_factory):
    """reverse, 60 pairs of which 54 train: 4 steps an epoch in batches of 16; 3 epochs."""
    return trained(tmp_path_factory.mktemp("runs") / "three", "reverse", 3, 16)


@pytest.mark.parametrize("command", ["evaluate", "resume"])
def test_a_history_cut_short_without_the_epochs_entry_is_told_by_the_optimizer_steps(
        three_epochs, tmp_path, capsys, command):
    folder = changed(three_epochs, tmp_path, cut_to(1))
    args = (["evaluate", str(folder)] if command == "evaluate" else
            ["train", "--out", str(folder), "--resume", "--epochs", "4"])
    err = one_line_error(args, capsys)
    assert err == (f"error: {folder / 'checkpoint.npz'}: not a seq2seq checkpoint that this "
                   "version can load: its 'history' entry should be at least 3 epochs long (the "
                   "optimizer took 12 steps, at most 4 an epoch), found 1\n")


def test_a_whole_history_without_the_epochs_entry_resumes(three_epochs, tmp_path):
    folder = changed(three_epochs, tmp_path, cut_to(3))
    assert main(["train", "--out", str(folder), "--resume", "--epochs", "4",
                 "--no-progress"]) == 0
    assert minigrad.load(folder / "checkpoint.npz")["epochs"] == 4


def test_a_batch_size_changed_on_resume_is_no_history_cut_short(tmp_path, capsys):
    out = trained(tmp_path / "run", "reverse", 2, 16)           # 4 steps an epoch
    trained(out, "reverse", 3, 32, resume=True)                 # then 2: 10 steps in all
    folder = changed(out, tmp_path, cut_to(3))
    assert main(["evaluate", str(folder)]) == 0                 # whole: not refused
    shutil.rmtree(folder)
    folder = changed(out, tmp_path, cut_to(2))                 # the change's record cut too
    err = one_line_error(["evaluate", str(folder)], capsys)
    assert "should be at least 5 epochs long (the optimizer took 10 steps, at most 2 an " in err


def test_a_pairs_files_history_cut_short_is_refused_on_resume_when_it_is_read(tmp_path, capsys):
    corpus = tmp_path / "pairs.tsv"
    words = "abc hello xyz tree go sun moon star sky sea red blue cat dog owl fox ant bee"
    corpus.write_text("".join(f"{w}\t{w[::-1]}\n" for w in words.split()), encoding="utf-8")
    out = trained(tmp_path / "run", str(corpus), 3, 4)          # 16 pairs train: 4 an epoch
    folder = changed(out, tmp_path, cut_to(1))
    assert main(["evaluate", str(folder)]) == 0                 # nothing says how many pairs
    capsys.readouterr()
    err = one_line_error(["train", "--out", str(folder), "--resume", "--epochs", "4"], capsys)
    assert err == (f"error: {folder / 'checkpoint.npz'}: not a seq2seq checkpoint that this "
                   "version can load: its 'history' entry should be at least 3 epochs long (the "
                   "optimizer took 12 steps, at most 4 an epoch), found 1\n")
