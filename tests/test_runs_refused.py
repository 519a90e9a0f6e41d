"""A command refused on a folder leaves it exactly as it was: no `.lock` left among the user's
files, and a folder it made itself removed again."""

import multiprocessing
import os
from pathlib import Path

import pytest

from seq2seq.commands import lock_file, runs
from seq2seq.commands.cli import main

TINY = ["--task", "reverse", "--num-examples", "40", "--epochs", "1", "--embed-size", "4",
        "--hidden-size", "8", "--no-progress"]


def _contents(folder):
    return {p.name: p.read_bytes() for p in sorted(Path(folder).iterdir())}


def _users_folder(path, names):
    path.mkdir()
    for name in names:
        (path / name).write_text(f"the user's {name}\n")
    return _contents(path)


def test_train_refused_on_a_users_folder_leaves_no_lock(tmp_path, capsys):
    out = tmp_path / "userdir"
    before = _users_folder(out, ["report.json", "notes.txt"])
    assert main(["train", *TINY, "--out", str(out)]) == 1
    assert f"{out} already holds a run (report.json)" in capsys.readouterr().err
    assert _contents(out) == before


def test_alignments_refused_on_a_users_folder_leaves_no_lock(tmp_path, capsys):
    out = tmp_path / "al"
    before = _users_folder(out, ["notes.txt"])
    assert main(["alignments", "--out", str(out)]) == 1
    assert "holds files that are not an earlier" in capsys.readouterr().err
    assert _contents(out) == before


def test_a_refused_run_in_a_new_folder_removes_the_folders_it_made(tmp_path, capsys):
    out = tmp_path / "new" / "a" / "run"
    assert main(["train", *TINY, "--out", str(out), "--resume"]) == 1
    assert "nothing to resume" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []           # the run folder and the two above it


def test_a_refused_run_keeps_the_folders_that_were_there(tmp_path, capsys):
    (tmp_path / "kept").mkdir()
    empty = tmp_path / "kept" / "empty"
    empty.mkdir()
    out = empty / "new" / "run"
    empty_pairs = tmp_path / "kept" / "empty.tsv"
    empty_pairs.write_text("")
    assert main(["train", *TINY[2:], "--task", str(empty_pairs), "--out", str(out)]) == 1
    capsys.readouterr()
    assert not (empty / "new").exists() and empty.is_dir()      # empty, but not ours


def test_a_lock_that_was_there_stays_after_a_refusal(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["train", *TINY, "--out", str(out)]) == 0
    before = _contents(out)
    assert runs.LOCK in before                   # a run keeps its lock file
    assert main(["train", *TINY, "--out", str(out)]) == 1      # already holds a run
    capsys.readouterr()
    assert _contents(out) == before


def _hold_then_refuse(folder, ready, go):
    try:
        with runs.hold(folder, log=lambda line: None):
            ready.set()
            go.wait(10)
            raise runs.RunFolderError("refused")
    except runs.RunFolderError:
        pass


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_the_lock_is_never_held_on_a_file_removed_from_the_folder(tmp_path):
    # A holds the lock on the .lock it made; B opens that same file; A is refused and removes
    # it. B, locking the removed file, must not think it holds the folder.
    folder = tmp_path / "run"
    folder.mkdir()
    ctx = multiprocessing.get_context("fork")
    ready, go = ctx.Event(), ctx.Event()
    holder = ctx.Process(target=_hold_then_refuse, args=(folder, ready, go))
    holder.start()
    assert ready.wait(10)
    stale_fd = os.open(folder / runs.LOCK, os.O_RDWR)     # opened before the removal
    go.set()
    holder.join(10)
    assert not (folder / runs.LOCK).exists()
    assert not lock_file.same_file(stale_fd, folder / runs.LOCK)
    os.close(stale_fd)
    with runs.hold(folder, log=lambda line: None):      # the next one makes a new file
        assert (folder / runs.LOCK).is_file()


def test_locked_retries_when_its_file_was_removed(tmp_path, monkeypatch):
    folder = tmp_path / "run"
    folder.mkdir()
    real_lock, calls = lock_file._lock, []

    def lock_then_remove_once(fd, where, error):    # another command's cleanup, just in time
        real_lock(fd, where, error)
        if not calls:
            os.remove(Path(where) / runs.LOCK)
        calls.append(fd)

    monkeypatch.setattr(lock_file, "_lock", lock_then_remove_once)
    fd, made = lock_file.take(folder, runs.RunFolderError)
    assert len(calls) == 2 and made and lock_file.same_file(fd, folder / runs.LOCK)
    os.close(fd)
