"""The demo and compare-lengths replace their own earlier runs (`make demo` twice) and nothing
else. Tiny budgets: the experiments' configs are patched to hidden size 8 on 200 pairs."""

import dataclasses
import json

import pytest

import minigrad
from minigrad.files import atomic_write
from seq2seq import heatmap
from seq2seq.commands import demo
from seq2seq.commands.cli import main
from seq2seq.commands.train import train
from seq2seq.papers import lengths

from test_runs import one_error_line, quiet, tiny


@pytest.fixture
def small(monkeypatch):
    demo_config = demo.demo_config
    lengths_config = lengths.lengths_config

    def small_demo(out, seed=0, epochs=None, num_examples=None):
        return dataclasses.replace(demo_config(out, seed, 1, 200), embed_size=8, hidden_size=8,
                                   progress=False)

    def small_lengths(out, name, task="reverse", epochs=1, num_examples=200, hidden_size=8,
                      seed=0, min_len=None, max_len=None):
        return dataclasses.replace(lengths_config(out, name, task, 1, 200, 8, seed, min_len,
                                                  max_len), embed_size=8, progress=False)
    monkeypatch.setattr(demo, "demo_config", small_demo)
    monkeypatch.setattr(lengths, "lengths_config", small_lengths)
    monkeypatch.setattr(demo, "draw_pictures", lambda *args: [])    # no Graphviz needed
    monkeypatch.setattr(heatmap, "plot_heatmap",                # matplotlib is slow here
                        lambda weights, source, target, path=None, title=None, overwrite=False:
                        atomic_write(path, lambda file: file.write(b"\x89PNG")))
    monkeypatch.setattr(demo, "DEMO_HELD_OUT", 40)


def test_demo_twice_replaces_its_own_run_and_says_so(small, tmp_path):
    out = tmp_path / "demo"
    first = []
    demo.run_demo(out, log=first.append)
    assert not any("replacing" in line for line in first)
    report = json.loads((out / "demo-report.json").read_text(encoding="utf-8"))
    (out / "attention-9.png").write_bytes(b"an old heatmap of an earlier demo")
    second = []
    demo.run_demo(out, log=second.append)
    assert [line for line in second if "replacing" in line] == [
        f"replacing the earlier demo run in {out}"]
    assert not (out / "attention-9.png").exists()           # the old demo's files are gone
    assert json.loads((out / "demo-report.json").read_text(encoding="utf-8")) == report


def test_a_demo_stopped_in_training_is_still_its_own(small, tmp_path):
    out = tmp_path / "demo"
    train(demo.demo_config(out), log=quiet)        # a checkpoint, no demo report yet
    lines = []
    demo.run_demo(out, log=lines.append)
    assert f"replacing the earlier demo run in {out}" in lines


@pytest.mark.parametrize("what", ["other file", "train run", "foreign report"])
def test_demo_never_replaces_anything_else(small, tmp_path, what, capsys):
    out = tmp_path / "demo"
    demo.run_demo(out, log=quiet)
    if what == "other file":
        (out / "notes.txt").write_text("mine")
    elif what == "train run":
        for f in out.iterdir():
            f.unlink()
        train(tiny(out), log=quiet)
    else:
        (out / "demo-report.json").write_text("{}")
    before = {f.name: f.read_bytes() for f in out.iterdir()}
    assert main(["demo", "--out", str(out)]) == 1
    err = one_error_line(capsys)
    assert str(out) in err and "--overwrite" in err and "not an earlier demo run" in err
    assert {f.name: f.read_bytes() for f in out.iterdir()} == before
    if what == "other file":
        assert main(["demo", "--out", str(out), "--overwrite"]) == 0
        assert (out / "notes.txt").read_text() == "mine"        # only the demo's files go


def test_compare_lengths_twice_and_never_over_another_run(small, tmp_path, capsys):
    out = tmp_path / "lengths"
    lengths.compare_lengths(out, "reverse", log=quiet, n_held_out=40, min_len=3, max_len=5)
    table = json.loads((out / "compare-lengths.json").read_text())
    assert {"plain", "attention"} <= set(table) and table["experiment"] == "compare-lengths"
    assert (out / "compare-lengths.png").read_bytes().startswith(b"\x89PNG")
    lines = []
    lengths.compare_lengths(out, "reverse", log=lines.append, n_held_out=40, min_len=3,
                            max_len=5)
    assert f"replacing the earlier compare-lengths run in {out}" in lines
    assert [line for line in lines if line.startswith("training the")] == [
        "training the plain model", "training the attention model"]      # LENGTH_MODELS' order
    assert lines[-1] == f"written to {out}/compare-lengths.png and compare-lengths.json"

    attention = out / "attention"
    for f in attention.iterdir():
        f.unlink()
    train(tiny(attention), log=quiet)                       # someone else's run in a subfolder
    before = (attention / "checkpoint.npz").read_bytes()
    assert main(["compare-lengths", "--out", str(out)]) == 1
    err = one_error_line(capsys)
    assert str(out) in err and "--overwrite" in err
    assert (attention / "checkpoint.npz").read_bytes() == before
    assert minigrad.load(attention / "checkpoint.npz")["config"]["hidden_size"] == 8


@pytest.mark.parametrize("overwrite", [[], ["--overwrite"]])
def test_an_experiment_refuses_a_train_runs_folder_even_with_overwrite(small, tmp_path, capsys,
                                                                       overwrite):
    out = tmp_path / "run"
    train(tiny(out), log=quiet)
    before = {f.name: f.read_bytes() for f in out.iterdir()}
    assert main(["compare-lengths", "--out", str(out), *overwrite]) == 1
    err = one_error_line(capsys)
    assert f"{out} holds a train run (checkpoint.npz, report.json)" in err, err
    assert "choose another --out for the compare-lengths experiment" in err, err
    assert {f.name: f.read_bytes() for f in out.iterdir()} == before
    train(tiny(out, epochs=2, resume=True), log=quiet)          # the run is still its own
    assert len(minigrad.load(out / "checkpoint.npz")["history"]) == 2
