"""A checkpoint from someone else may record any path as its pairs file (task_file.path, or an
older run's config.task): `train --resume` without --task reads it only once it is shown to be
the file the run trained on (a regular file outside /proc, /dev and /sys, of a pairs file's size,
with the recorded sha256), and otherwise refuses in one line that names the path and shows
nothing of what the file holds."""

import os
import shutil

import pytest

import minigrad
from seq2seq.commands import task_file
from seq2seq.commands.cli import main
from seq2seq.data import heldout
from tests.test_resume_task_file import TINY, pairs_file

SECRET = "root:$6$notapairsfile:19000:0:99999:7:::"


@pytest.fixture(scope="module")
def file_run(tmp_path_factory):
    """A one-epoch run on a pairs file, whose checkpoint the tests copy and change."""
    folder = tmp_path_factory.mktemp("recorded")
    corpus = pairs_file(folder / "p.txt")
    out = folder / "run"
    assert main(["train", "--task", str(corpus), "--epochs", "1", *TINY,
                 "--out", str(out)]) == 0
    return out


def recording(file_run, tmp_path, path, digest=None):
    """A copy of the run whose checkpoint records `path` as its pairs file (and `digest`, or the
    run's own sha256, as its hash)."""
    out = tmp_path / "copy"
    shutil.copytree(file_run, out)
    state = minigrad.load(out / "checkpoint.npz")
    state["task_file"] = {"path": str(path), "sha256": digest or state["task_file"]["sha256"]}
    minigrad.save(state, out / "checkpoint.npz")
    return out


def refused(out, path, capsys):
    capsys.readouterr()
    before = (out / "checkpoint.npz").read_bytes()
    assert main(["train", "--out", str(out), "--resume", "--epochs", "2"]) == 1
    err = capsys.readouterr().err
    assert err == (f"error: cannot resume {out}: the pairs file the run recorded, {path}, is "
                   f"not the file it trained on (or is gone): name it with --task FILE\n")
    assert (out / "checkpoint.npz").read_bytes() == before
    return err


def test_a_recorded_file_with_other_bytes_is_refused_and_nothing_of_it_shown(
        file_run, tmp_path, capsys):
    secret = tmp_path / "shadow"
    secret.write_text(SECRET + "\n")
    out = recording(file_run, tmp_path, secret)
    err = refused(out, secret, capsys)
    assert "notapairsfile" not in err and "19000" not in err


@pytest.mark.parametrize("path", ["/proc/self/environ", "/proc/version", "/dev/null"])
def test_a_recorded_system_file_is_refused_without_being_read(
        file_run, tmp_path, capsys, monkeypatch, path):
    if not os.path.exists(path):
        pytest.skip(f"no {path} here")
    hashed = []
    real_sha256 = heldout.file_sha256
    monkeypatch.setattr(heldout, "file_sha256",
                        lambda p: hashed.append(p) or real_sha256(p))
    # even with the hash of what it holds now: a system file is never the run's data
    digest = real_sha256(path) if path == "/proc/version" else None
    out = recording(file_run, tmp_path, path, digest)
    refused(out, path, capsys)
    assert not any(str(p).startswith(("/proc", "/dev")) for p in hashed), hashed


def test_a_recorded_fifo_is_refused_without_blocking(file_run, tmp_path, capsys):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    refused(recording(file_run, tmp_path, fifo), fifo, capsys)


def test_a_recorded_file_larger_than_a_pairs_file_may_be_is_not_hashed(
        file_run, tmp_path, capsys, monkeypatch):
    big = pairs_file(tmp_path / "big.txt")
    digest = heldout.file_sha256(big)
    monkeypatch.setattr(task_file, "MAX_FILE_BYTES", big.stat().st_size - 1)
    monkeypatch.setattr(heldout, "file_sha256", lambda p: pytest.fail(f"{p} was hashed"))
    refused(recording(file_run, tmp_path, big, digest), big, capsys)


def test_a_symlink_to_the_runs_file_is_taken_and_one_to_a_system_file_is_not(
        file_run, tmp_path, capsys):
    state = minigrad.load(file_run / "checkpoint.npz")
    link = tmp_path / "link.txt"
    link.symlink_to(state["task_file"]["path"])
    out = recording(file_run, tmp_path, link)
    assert main(["train", "--out", str(out), "--resume", "--epochs", "2", "--no-progress"]) == 0
    if os.path.exists("/proc/version"):
        shutil.rmtree(out)
        other = tmp_path / "to_proc"
        other.symlink_to("/proc/version")
        refused(recording(file_run, tmp_path, other, heldout.file_sha256("/proc/version")),
                other, capsys)


def test_an_older_run_naming_another_file_by_its_typed_path_is_refused_before_it_is_parsed(
        file_run, tmp_path, capsys, monkeypatch):
    """Without task_file, the path is config.task as typed, and the hash the split's."""
    out = tmp_path / "older"
    shutil.copytree(file_run, out)
    state = minigrad.load(out / "checkpoint.npz")
    del state["task_file"]
    state["config"]["task"] = "p.txt"
    minigrad.save(state, out / "checkpoint.npz")
    (tmp_path / "p.txt").write_text(SECRET + "\n")
    monkeypatch.chdir(tmp_path)
    err = refused(out, "p.txt", capsys)
    assert "notapairsfile" not in err


def test_a_resume_with_other_data_names_the_file_read_as_well_as_the_typed_task(
        tmp_path, monkeypatch, capsys):
    """A run resumed from its recorded file whose split no longer matches: the refusal names the
    file that was read, not only the spelling typed when the run started."""
    from seq2seq.commands import train as train_module
    out = tmp_path / "run"
    corpus = pairs_file(tmp_path / "data" / "p.txt")
    monkeypatch.chdir(tmp_path)
    assert main(["train", "--task", "data/p.txt", "--epochs", "1", *TINY,
                 "--out", str(out)]) == 0
    state = minigrad.load(out / "checkpoint.npz")
    split = dict(state["split"], corpus_sha256="0" * 64)
    with pytest.raises(ValueError) as refusal:
        train_module.check_same_data(out, train_module.TrainConfig(task="data/p.txt"), split,
                                     state, str(corpus.resolve()))
    assert f"{corpus.resolve()} (--task data/p.txt) is not the data" in str(refusal.value)
