"""No run is ever lost: run folders are locked, never replaced unasked, written atomically, and a
resume refuses what the saved model cannot honour. The faults are real: a second process holding
the lock, a pipe closed by `head`, a write that dies between the checkpoint and the report."""

import dataclasses
import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import minigrad
from minigrad.files import atomic_write, stale_temporaries
from seq2seq.commands import reports, runs
from seq2seq.commands.cli import main
from seq2seq.commands.train import TrainConfig, train

ROOT = Path(__file__).resolve().parent.parent
TINY = ["--task", "reverse", "--num-examples", "200", "--min-len", "3", "--max-len", "5",
        "--embed-size", "8", "--hidden-size", "8", "--batch-size", "32", "--no-progress"]


def quiet(*args):
    pass


def tiny(out, **changes):
    return TrainConfig(**{**dict(task="reverse", num_examples=200, min_len=3, max_len=5,
                                 embed_size=8, hidden_size=8, batch_size=32, epochs=1,
                                 progress=False, out=str(out)), **changes})


def one_error_line(capsys):
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: "), err
    return err


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """A finished two-epoch run; tests copy it before changing anything."""
    out = tmp_path_factory.mktemp("runs") / "run"
    train(tiny(out, epochs=2), log=quiet)
    return out


@pytest.fixture
def copy(run, tmp_path):
    shutil.copytree(run, tmp_path / "run")
    return tmp_path / "run"


# ---- atomic writes ---------------------------------------------------------------------------

def test_atomic_write_keeps_the_old_file_when_the_writer_dies(tmp_path):
    path = tmp_path / "report.json"
    path.write_text("old")

    def dies(file):
        file.write("half of the new")
        raise KeyboardInterrupt                     # a kill in the middle of the write
    with pytest.raises(KeyboardInterrupt):
        atomic_write(path, dies, text=True)
    assert path.read_text() == "old" and os.listdir(tmp_path) == ["report.json"]
    atomic_write(path, lambda file: file.write("new"), text=True)
    assert path.read_text() == "new"


def test_atomic_write_replaces_a_symlink_never_its_target(tmp_path):
    target = tmp_path / "someone-elses.json"
    target.write_text("precious")
    (tmp_path / "run").mkdir()
    link = tmp_path / "run" / "report.json"
    link.symlink_to(target)
    reports.write_report(tmp_path / "run", [{"epoch": 1}])
    assert target.read_text() == "precious"
    assert not link.is_symlink() and json.loads(link.read_text()) == [{"epoch": 1}]


def test_the_checkpoint_saves_through_the_same_helper(tmp_path, monkeypatch):
    path = tmp_path / "checkpoint.npz"
    minigrad.save({"epoch": 1}, path)
    calls = []
    import minigrad.checkpoint as checkpoint
    monkeypatch.setattr(checkpoint, "atomic_write",
                        lambda p, write: calls.append(p) or atomic_write(p, write))
    minigrad.save({"epoch": 2}, path)
    assert calls == [str(path)] and minigrad.load(path) == {"epoch": 2}
    monkeypatch.setattr(np, "savez", lambda *a, **k: (_ for _ in ()).throw(OSError("disk full")))
    with pytest.raises(OSError, match="disk full"):
        minigrad.save({"epoch": 3}, path)
    assert minigrad.load(path) == {"epoch": 2} and os.listdir(tmp_path) == ["checkpoint.npz"]


@pytest.mark.parametrize("target_exists", [True, False])
def test_heatmap_png_replaces_a_symlink_only_when_told_and_never_its_target(tmp_path,
                                                                          target_exists):
    from seq2seq.heatmap import plot_heatmap
    target = tmp_path / "keep.png"
    if target_exists:
        target.write_bytes(b"not mine")
    (tmp_path / "h.png").symlink_to(target)
    with pytest.raises(FileExistsError, match="h.png is a symbolic link; pass --overwrite"):
        plot_heatmap(np.eye(2), ["a", "b"], ["b", "a"], tmp_path / "h.png")
    assert (tmp_path / "h.png").is_symlink()
    plot_heatmap(np.eye(2), ["a", "b"], ["b", "a"], tmp_path / "h.png", overwrite=True)
    if not target_exists:
        return
    assert target.read_bytes() == b"not mine"
    assert (tmp_path / "h.png").read_bytes().startswith(b"\x89PNG")


# ---- never replaced unasked ------------------------------------------------------------------

@pytest.mark.parametrize("files", [("checkpoint.npz", "report.json"), ("report.json",),
                                   ("checkpoint.npz",)])
def test_train_refuses_a_folder_holding_a_run_or_its_files(copy, files, capsys):
    for name in {"checkpoint.npz", "report.json"} - set(files):
        (copy / name).unlink()
    before = {name: (copy / name).read_bytes() for name in files}
    assert main(["train", *TINY, "--epochs", "1", "--out", str(copy)]) == 1
    err = one_error_line(capsys)
    assert str(copy) in err and "--overwrite" in err
    assert ("--resume" in err) == ("checkpoint.npz" in files)    # no checkpoint: nothing to resume
    assert {name: (copy / name).read_bytes() for name in files} == before


def test_a_report_without_checkpoint_gives_the_same_advice_with_or_without_resume(copy, capsys):
    (copy / "checkpoint.npz").unlink()
    for resume in ([], ["--resume"]):
        assert main(["train", *TINY, "--epochs", "1", "--out", str(copy), *resume]) == 1
        err = one_error_line(capsys)
        assert "pass --overwrite" in err and "leave out --resume" not in err, err
        assert "pass --resume" not in err, err


def test_the_lock_is_never_written_through_a_symlink(tmp_path, capsys):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / ".lock").symlink_to("../victim.txt")
    assert main(["train", *TINY, "--epochs", "1", "--out", str(tmp_path / "run")]) == 1
    err = one_error_line(capsys)
    assert str(tmp_path / "run" / ".lock") in err and "symlink" in err
    assert victim.read_text() == "keep me"
    assert not (tmp_path / "run" / "checkpoint.npz").exists()


def test_the_lock_is_never_written_through_a_hard_link(tmp_path, capsys):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / ".lock").hardlink_to(victim)
    assert main(["train", *TINY, "--epochs", "1", "--out", str(tmp_path / "run")]) == 1
    err = one_error_line(capsys)
    assert str(tmp_path / "run" / ".lock") in err and "a hard link, one of 2 names" in err
    assert victim.read_text() == "keep me"
    assert not (tmp_path / "run" / "checkpoint.npz").exists()


def test_a_lock_that_is_a_folder_is_refused(tmp_path, capsys):
    (tmp_path / "run" / ".lock").mkdir(parents=True)
    assert main(["train", *TINY, "--epochs", "1", "--out", str(tmp_path / "run")]) == 1
    assert str(tmp_path / "run" / ".lock") in one_error_line(capsys)


@pytest.mark.parametrize("command", [["train", *TINY, "--epochs", "1"], ["demo"],
                                     ["compare-lengths"]])
def test_an_empty_out_is_refused(command, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main([*command, "--out", ""]) == 1
    assert "--out is empty" in one_error_line(capsys)
    assert list(tmp_path.iterdir()) == []


def test_overwrite_starts_afresh_and_resume_with_overwrite_is_refused(copy, capsys):
    assert main(["train", *TINY, "--epochs", "1", "--out", str(copy), "--resume",
                 "--overwrite"]) == 1
    assert "choose one" in one_error_line(capsys)
    assert main(["train", *TINY, "--epochs", "1", "--out", str(copy), "--overwrite"]) == 0
    assert [h["epoch"] for h in json.loads((copy / "report.json").read_text())] == [1]
    assert len(minigrad.load(copy / "checkpoint.npz")["history"]) == 1


def test_train_into_a_file_is_one_line(tmp_path, capsys):
    (tmp_path / "file").write_text("x")
    assert main(["train", *TINY, "--out", str(tmp_path / "file")]) == 1
    assert "is a file" in one_error_line(capsys)


# ---- the lock, with a real second process ----------------------------------------------------

HOLDER = textwrap.dedent("""
    import sys, time
    from seq2seq.commands import runs
    with runs.hold(sys.argv[1], log=lambda *a: None):
        print("held", flush=True)
        time.sleep(60)
""")


def test_a_second_run_on_the_folder_is_refused_until_the_first_is_killed(tmp_path, capsys):
    out = tmp_path / "run"
    out.mkdir()
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(out)], cwd=ROOT,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        assert main(["train", *TINY, "--epochs", "1", "--out", str(out)]) == 1
        err = one_error_line(capsys)
        assert str(out) in err and f"in use by another run (process {holder.pid})" in err
        assert not (out / "checkpoint.npz").exists()
    finally:
        holder.send_signal(signal.SIGKILL)          # the system drops the lock with it
        holder.wait(timeout=30)
    assert main(["train", *TINY, "--epochs", "1", "--out", str(out)]) == 0


def test_stale_temporaries_are_removed_when_a_run_starts(copy):
    (copy / ".checkpoint.npz.0123abcd.tmp").write_bytes(b"half a checkpoint")
    (copy / ".notes.txt").write_text("not a temporary file")
    lines = []
    train(tiny(copy, epochs=2, resume=True), log=lines.append)
    assert stale_temporaries(copy) == [] and (copy / ".notes.txt").exists()
    assert any("removed 1 temporary file" in line for line in lines)


# ---- the checkpoint and the report never disagree --------------------------------------------

def test_a_kill_between_checkpoint_and_report_is_repaired_on_resume(tmp_path, monkeypatch):
    out = tmp_path / "run"
    write_report = reports.write_report

    def killed_at_epoch_2(folder, history):
        if len(history) == 2:
            raise KeyboardInterrupt                 # after the checkpoint's rename
        write_report(folder, history)
    monkeypatch.setattr(reports, "write_report", killed_at_epoch_2)
    with pytest.raises(KeyboardInterrupt):
        train(tiny(out, epochs=3), log=quiet)
    assert len(minigrad.load(out / "checkpoint.npz")["history"]) == 2
    assert len(json.loads((out / "report.json").read_text())) == 1      # they disagree
    monkeypatch.setattr(reports, "write_report", write_report)

    lines = []
    train(tiny(out, epochs=2, resume=True), log=lines.append)          # nothing left to train
    history = minigrad.load(out / "checkpoint.npz")["history"]
    assert json.loads((out / "report.json").read_text()) == history and len(history) == 2
    assert any("rewritten from the checkpoint" in line for line in lines)
    train(tiny(out, epochs=3, resume=True), log=quiet)
    history = minigrad.load(out / "checkpoint.npz")["history"]
    assert [h["epoch"] for h in json.loads((out / "report.json").read_text())] == [1, 2, 3]
    assert json.loads((out / "report.json").read_text()) == history


def test_evaluate_repairs_a_report_that_disagrees_with_the_checkpoint(copy, capsys):
    history = minigrad.load(copy / "checkpoint.npz")["history"]
    reports.write_report(copy, history[:1])             # as a kill after the checkpoint leaves it
    assert main(["evaluate", str(copy), "--json"]) == 0
    assert json.loads((copy / "report.json").read_text()) == history
    captured = capsys.readouterr()
    assert "rewritten from the checkpoint" in captured.err and json.loads(captured.out)


@pytest.mark.skipif(os.name == "nt", reason="SIGKILL")
def test_resume_after_a_real_kill_is_consistent(tmp_path):
    out = tmp_path / "run"
    command = [sys.executable, "-m", "seq2seq", "train", *TINY, "--epochs", "200", "--out",
               str(out)]
    trainer = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert trainer.stdout.readline().startswith("training ")       # what it is about to do
    assert trainer.stdout.readline().startswith("epoch 1/200:")    # printed before its save,
    assert trainer.stdout.readline().startswith("epoch 2/200:")    # so epoch 1 is saved now
    trainer.send_signal(signal.SIGKILL)
    trainer.wait(timeout=30)
    trainer.stdout.close()
    done = len(minigrad.load(out / "checkpoint.npz")["history"])
    assert 1 <= done < 200
    train(tiny(out, epochs=done + 1, resume=True), log=quiet)      # not refused: the lock is gone
    history = minigrad.load(out / "checkpoint.npz")["history"]
    assert [h["epoch"] for h in history] == list(range(1, done + 2))
    assert json.loads((out / "report.json").read_text()) == history
    assert stale_temporaries(out) == []


# ---- a closed pipe costs no epoch ------------------------------------------------------------

@pytest.mark.skipif(shutil.which("head") is None or os.name == "nt", reason="needs a shell")
@pytest.mark.parametrize("both", [False, True], ids=["stdout", "stdout and stderr"])
def test_train_piped_into_head_finishes_every_epoch(tmp_path, both):
    out = tmp_path / "run"
    options = [a for a in TINY if a != "--no-progress"] if both else TINY   # the bar: stderr
    command = [sys.executable, "-m", "seq2seq", "train", *options, "--epochs", "3", "--out",
               str(out)]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}   # as users run it:
    trainer = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, env=env,   # buffered
                               stderr=subprocess.STDOUT if both else subprocess.PIPE)
    head = subprocess.Popen(["head", "-c", "20"], stdin=trainer.stdout, stdout=subprocess.PIPE)
    trainer.stdout.close()                          # head holds the only reading end
    first = head.communicate(timeout=120)[0].decode()
    err = trainer.communicate(timeout=120)[1]
    assert first.lstrip("\r").startswith("training ")
    assert trainer.returncode == 0 and not err
    assert [h["epoch"] for h in minigrad.load(out / "checkpoint.npz")["history"]] == [1, 2, 3]


# ---- resume: what the saved model can and cannot honour --------------------------------------

REFUSED = [("--hidden-size", "16"), ("--embed-size", "16"), ("--attention", "none"),
           ("--attention", "additive"), ("--wiring", "bahdanau"), ("--bidirectional", None),
           ("--reverse-input", None), ("--task", "copy"), ("--level", "word"),
           ("--num-examples", "300"), ("--min-len", "2"), ("--max-len", "6"), ("--seed", "1"),
           ("--val-fraction", "0.2")]


@pytest.mark.parametrize("option,value", REFUSED)
def test_resume_refuses_what_the_model_cannot_honour(copy, option, value, capsys):
    before = (copy / "checkpoint.npz").read_bytes()
    args = [a for a in TINY]
    if option in args:
        args[args.index(option) + 1] = value
    else:
        args += [option] + ([value] if value is not None else [])
    assert main(["train", *args, "--epochs", "3", "--out", str(copy), "--resume"]) == 1
    err = one_error_line(capsys)
    assert f"cannot resume {copy}" in err and f"{option} " in err and "(saved: " in err
    assert (copy / "checkpoint.npz").read_bytes() == before


def test_resume_with_sep_on_a_built_in_task_is_refused_as_applying_to_no_file(copy, capsys):
    before = (copy / "checkpoint.npz").read_bytes()
    assert main(["train", *TINY, "--sep", ",", "--epochs", "3", "--out", str(copy),
                 "--resume"]) == 1
    assert "--sep applies only to a pairs file (--task FILE)" in one_error_line(capsys)
    assert (copy / "checkpoint.npz").read_bytes() == before


def test_resume_names_every_differing_option(copy, capsys):
    args = [*TINY, "--hidden-size", "16", "--attention", "none"]
    assert main(["train", *args, "--out", str(copy), "--resume"]) == 1
    err = one_error_line(capsys)
    assert "--hidden-size 16 (saved: 8)" in err and "--attention none (saved: dot)" in err


def test_resume_takes_the_options_left_out_from_the_saved_run(copy, capsys):
    # the run was trained on reverse, lengths 3..5, hidden 8: none of that is retyped
    assert main(["train", "--out", str(copy), "--epochs", "3", "--resume", "--no-progress"]) == 0
    assert "resuming after epoch 2; epochs 2 -> 3" in capsys.readouterr().out
    state = minigrad.load(copy / "checkpoint.npz")
    assert len(state["history"]) == 3 and state["config"]["hidden_size"] == 8
    assert state["history"][2]["changed"] == {"epochs": [2, 3]}


def test_resume_compares_an_option_written_even_at_its_default(copy, capsys):
    # 256 is --hidden-size's default: written, it is compared all the same
    assert main(["train", "--out", str(copy), "--epochs", "3", "--hidden-size", "256",
                 "--resume"]) == 1
    err = one_error_line(capsys)
    assert "--hidden-size 256 (saved: 8)" in err and "--task" not in err


def test_resuming_a_finished_run_says_nothing_is_left_and_changes_nothing(copy, capsys):
    before = (copy / "checkpoint.npz").read_bytes()
    assert main(["train", "--out", str(copy), "--epochs", "1", "--resume"]) == 0
    out = capsys.readouterr().out
    assert out == (f"nothing left to train: {copy} has already trained 2 epochs (--epochs 1); "
                   "pass a larger --epochs to train on\n")
    assert main(["train", "--out", str(copy), "--resume"]) == 0      # its own --epochs 2
    assert "nothing left to train" in capsys.readouterr().out
    assert (copy / "checkpoint.npz").read_bytes() == before


def test_resume_records_what_it_may_change(copy):
    train(tiny(copy, epochs=3, resume=True, lr=5e-4, batch_size=16, clip=1.0, fused=False,
               teacher_forcing_ratio=0.5, lr_decay=0.9), log=quiet)
    state = minigrad.load(copy / "checkpoint.npz")
    config = state["config"]
    assert (config["lr"], config["batch_size"], config["fused"], config["epochs"]) == \
        (5e-4, 16, False, 3)
    assert state["model_config"]["fused"] is False         # same weights, the composed LSTM
    history = state["history"]
    assert "changed" not in history[1]
    assert history[2]["changed"] == {"epochs": [2, 3], "lr": [1e-3, 5e-4], "lr_decay": [1.0, 0.9],
                                     "clip": [5.0, 1.0], "batch_size": [32, 16],
                                     "teacher_forcing_ratio": [1.0, 0.5], "fused": [True, False]}


def test_resume_with_nothing_to_resume_is_an_error(tmp_path, capsys):
    assert main(["train", *TINY, "--out", str(tmp_path / "new"), "--resume"]) == 1
    err = one_error_line(capsys)
    assert f"nothing to resume in {tmp_path / 'new'}" in err
    assert err.rstrip().endswith("(leave out --resume to start a new run there)")  # not --overwrite
    assert not (tmp_path / "new").exists()                  # a refused run leaves nothing


@pytest.mark.parametrize("task", ["no-such.tsv", "long.tsv"])
def test_a_refused_run_leaves_no_folder_and_no_lock(task, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    Path("long.tsv").write_text("a b\tb a\n" + "x " * 100000 + "\ty\n")
    assert main(["train", *TINY, "--epochs", "1", "--task", task, "--out", "new"]) == 1
    one_error_line(capsys)
    assert not Path("new").exists()
    Path("mine").mkdir()
    Path("mine/notes.txt").write_text("keep")
    assert main(["train", *TINY, "--epochs", "1", "--task", "no-such.tsv", "--out", "mine"]) == 1
    assert sorted(p.name for p in Path("mine").iterdir()) == ["notes.txt"]


def test_every_option_is_classified_for_resume():
    names = {f.name for f in dataclasses.fields(TrainConfig)}
    classified = runs.MUST_MATCH + runs.MAY_CHANGE + runs.NOT_SETTINGS
    assert sorted(classified) == sorted(names)


# ---- draw: the DOT text beside the picture ---------------------------------------------------

def fake_rendering(monkeypatch):
    """Rendering that needs no Graphviz: render_bytes gives a stand-in picture. The modules
    that import render_bytes by name are imported first, so they keep the real one."""
    import minigrad.viz.drawing  # noqa: F401
    monkeypatch.setattr(sys.modules["minigrad.viz.render"], "render_bytes",
                        lambda source, format, engine: b"<svg/>")


def test_render_never_replaces_a_dot_file_it_did_not_write(tmp_path, monkeypatch):
    from minigrad.viz import render
    fake_rendering(monkeypatch)
    (tmp_path / "x.dot").write_text("my own notes")
    with pytest.raises(FileExistsError, match="x.dot exists and is not the DOT text of x.svg"):
        render("digraph { a -> b }", tmp_path / "x.svg")
    assert (tmp_path / "x.dot").read_text() == "my own notes"
    assert not (tmp_path / "x.svg").exists()
    render("digraph { a -> b }", tmp_path / "y.svg")                # its own: drawn again
    render("digraph { b -> c }", tmp_path / "y.svg")
    assert (tmp_path / "y.dot").read_text().endswith("digraph { b -> c }")
    render((tmp_path / "y.dot").read_text(), tmp_path / "y2.svg")    # its DOT file, drawn again
    assert (tmp_path / "y2.dot").read_text().count("// The DOT text of") == 1
    (tmp_path / "z.dot").write_text("digraph { a -> b }")           # a DOT file rendered as is
    render((tmp_path / "z.dot").read_text(), tmp_path / "z.svg")
    assert (tmp_path / "z.dot").read_text() == "digraph { a -> b }"
    render("digraph { a -> b }", tmp_path / "x.svg", overwrite=True)
    assert (tmp_path / "x.dot").read_text().startswith("// The DOT text of x.svg")


def test_draw_command_refuses_an_unrelated_dot_file_unless_overwrite(copy, tmp_path, capsys,
                                                                     monkeypatch):
    fake_rendering(monkeypatch)
    (tmp_path / "x.dot").write_text("my own notes")
    assert main(["draw", str(copy), "--out", str(tmp_path / "x.svg")]) == 1
    err = one_error_line(capsys)
    assert "x.dot" in err and "--overwrite" in err
    assert (tmp_path / "x.dot").read_text() == "my own notes"
    assert main(["draw", str(copy), "--out", str(tmp_path / "x.svg"), "--overwrite"]) == 0
    assert "decoder.out.weight" in (tmp_path / "x.dot").read_text()
    capsys.readouterr()
    assert main(["draw", str(copy), "--out", str(tmp_path / "x.svg"), "--step", "1"]) == 1
    assert one_error_line(capsys) == (f"error: {tmp_path / 'x.svg'} exists; pass --overwrite "
                                      "to replace it\n")     # its own drawing too, as explore
    assert main(["draw", str(copy), "--out", str(tmp_path / "x.svg"), "--step", "1",
                 "--overwrite"]) == 0


def test_overwrite_with_bad_data_settings_keeps_the_run(copy, capsys):
    before = (copy / "checkpoint.npz").read_bytes()
    assert main(["train", *TINY, "--out", str(copy), "--overwrite", "--task", "no/such.tsv"]) == 1
    one_error_line(capsys)
    assert (copy / "checkpoint.npz").read_bytes() == before


@pytest.mark.parametrize("flags", [[], ["--overwrite"], ["--resume"]])
def test_train_refuses_a_folder_that_holds_an_experiments_results(tmp_path, capsys, flags):
    out = tmp_path / "us"
    out.mkdir()
    results = '{"experiment": "uniform-and-seeds", "sentences": 40}'
    (out / "uniform-and-seeds.json").write_text(results)
    assert main(["train", *TINY, "--epochs", "1", "--out", str(out), *flags]) == 1
    assert (f"{out} holds the results of a uniform-and-seeds experiment "
            "(uniform-and-seeds.json): choose another --out") in one_error_line(capsys)
    left = sorted(f.name for f in out.iterdir() if f.name != runs.LOCK)
    assert left == ["uniform-and-seeds.json"]
    assert (out / "uniform-and-seeds.json").read_text() == results


def test_an_out_folder_that_cannot_be_made_is_one_line_naming_out(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    with pytest.raises(runs.RunFolderError, match=r"^--out .*a-file/run: cannot make the folder "
                                                  r"there \("):
        runs.make_folder(blocker / "run")
    assert blocker.read_text() == "not a folder"                # nothing lost
