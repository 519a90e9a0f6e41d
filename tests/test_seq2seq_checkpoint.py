"""A run's checkpoint is checked before it costs anything: weights that declare more than the
model's settings want are refused from their headers (no data read), settings whose weights
would not fit in memory are refused before the model is built, and an entry that names an
unreadable file is one line naming the checkpoint and the entry."""

import io
import json
import os
import shutil
import time
import zipfile

import numpy as np
import pytest

import minigrad
from minigrad import checkpoint
from seq2seq.commands import sizes
from seq2seq.commands.cli import main

MiB = 1024 ** 2


@pytest.fixture
def run(smallest_run):
    return smallest_run


def with_huge_weight(run, path, name, rows):
    """A copy of the run's checkpoint whose weight `name` is `rows` x 16 zeros: a deflated
    member whose header and zip directory agree, a few hundred KiB holding hundreds of MiB."""
    return with_zeros(run, path, ["model", name], "<f8", (rows, 16))


def with_zeros(run, path, entry, descr, shape):
    """A copy of the run's checkpoint whose array at `entry` (a path of keys) is zeros of
    `shape` and dtype `descr`, written as a deflated member: a little compressed data that
    inflates to its full size."""
    with zipfile.ZipFile(run / "checkpoint.npz") as source:
        metadata = np.lib.format.read_array(io.BytesIO(source.read("metadata.npy")))
        node = json.loads(metadata.item())["object"]
        for key in entry:
            node = dict(node["dict"])[key]
        member = node["array"] + ".npy"
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as target:
            for info in source.infolist():
                if info.filename != member:
                    target.writestr(info.filename, source.read(info.filename))
                    continue
                header = io.BytesIO()
                np.lib.format.write_array_header_1_0(
                    header, {"descr": descr, "fortran_order": False, "shape": shape})
                entry = zipfile.ZipInfo(member)
                entry.compress_type = zipfile.ZIP_DEFLATED
                left = int(np.prod(shape)) * np.dtype(descr).itemsize
                with target.open(entry, "w", force_zip64=True) as file:
                    file.write(header.getvalue())
                    while left:
                        file.write(bytes(min(MiB, left)))
                        left -= min(MiB, left)
    return path


@pytest.mark.parametrize("command", [["translate", "RUN", "123"], ["evaluate", "RUN"],
                                     ["draw", "RUN", "--out", "OUT"],
                                     ["train", "--out", "RUN", "--resume", "--epochs", "2"]])
def test_a_weight_declaring_hundreds_of_mib_is_refused_from_its_header_alone(
        run, tmp_path, capsys, monkeypatch, command):
    folder = tmp_path / "huge"
    shutil.copytree(run, folder)
    path = folder / "checkpoint.npz"
    with_huge_weight(run, path, "decoder.out.weight", 2 * MiB)      # 256 MiB declared
    assert os.path.getsize(path) < 2 * MiB
    read = []
    real_read = checkpoint.read_member
    monkeypatch.setattr(checkpoint, "read_member",
                        lambda archive, member, *a: read.append(member) or
                        real_read(archive, member, *a))
    start = time.monotonic()
    args = [str(folder) if a == "RUN" else str(tmp_path / "x.svg") if a == "OUT" else a
            for a in command]
    assert main(args) == 1
    assert time.monotonic() - start < 5
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith(f"error: {path}: not a seq2seq checkpoint that this version can load: ")
    assert "want decoder.out.weight of shape (14, 16), the saved one is (2097152, 16)" in err
    assert read == ["metadata.npy"]                                 # no array's data was read


def test_settings_whose_weights_cannot_fit_are_refused_before_the_model_is_built(
        run, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(sizes, "memory_limit", lambda: 1024)       # a machine with 1 KiB
    assert main(["translate", str(run), "123"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"error: {run / 'checkpoint.npz'}: not a seq2seq checkpoint that this "
                          "version can load: its 'model_config' entry: ")
    assert "is too large: its 1," in err and "more than the 1.0 KiB of memory available" in err


@pytest.mark.parametrize("task", ["/proc/self/mem", "/proc/self/environ"])
def test_evaluate_neither_reads_nor_hashes_a_system_file_the_task_names(
        run, tmp_path, capsys, monkeypatch, task):
    """A checkpoint from someone else may name any file as its pairs file: one in /proc is
    never opened, and the score is still on the recorded split, with one warning line."""
    from seq2seq.data import heldout
    if not os.path.isfile(task):
        pytest.skip(f"no {task} here")
    hashed = []
    real_sha256 = heldout.file_sha256
    monkeypatch.setattr(heldout, "file_sha256",
                        lambda path: hashed.append(path) or real_sha256(path))
    state = minigrad.load(run / "checkpoint.npz")
    state["config"]["task"] = task
    path = tmp_path / "proc.npz"
    minigrad.save(state, path)
    assert main(["evaluate", str(path)]) == 0
    assert capsys.readouterr().err == (
        f"warning: the pairs file the run recorded, {task}, is not the file it trained on (or "
        f"is gone): name it with --task FILE; evaluating the {len(state['split']['val_pairs'])} "
        f"validation pairs the run recorded\n")
    assert hashed == []


def refused_without_reading(folder, command, capsys, monkeypatch):
    """Run `command` on the run `folder`; its one-line error, and the members whose data was
    read (the metadata alone, if the check came first)."""
    read = []
    real_read = checkpoint.read_member
    monkeypatch.setattr(checkpoint, "read_member",
                        lambda archive, member, *a: read.append(member) or
                        real_read(archive, member, *a))
    assert main([a if a != "RUN" else str(folder) for a in command]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith(f"error: {folder / 'checkpoint.npz'}: not a seq2seq checkpoint that "
                          "this version can load: ")
    return err, read


def test_train_sources_inflating_to_more_hashes_than_the_run_had_sources_is_refused_unread(
        run, tmp_path, capsys, monkeypatch):
    folder = tmp_path / "bomb"
    shutil.copytree(run, folder)
    with_zeros(run, folder / "checkpoint.npz", ["split", "train_sources"], "<u8", (MiB,))
    err, read = refused_without_reading(folder, ["evaluate", "RUN"], capsys, monkeypatch)
    assert ("its 'split.train_sources' entry should be at most 60 hashes (one per training "
            "source the run could have had), found an array of shape (1048576,)") in err
    assert read == ["metadata.npy"]


def test_a_run_from_a_pairs_file_may_record_at_most_max_sources_hashes(
        run, tmp_path, capsys, monkeypatch):
    from seq2seq.commands import checkpoint_entries
    monkeypatch.setattr(checkpoint_entries, "MAX_SOURCES", 100)
    state = minigrad.load(run / "checkpoint.npz")
    state["config"]["task"] = str(tmp_path / "pairs.tsv")          # (never read: refused first)
    state["split"]["train_sources"] = np.arange(101, dtype=np.uint64)
    folder = tmp_path / "file_run"
    folder.mkdir()
    minigrad.save(state, folder / "checkpoint.npz")
    err, _ = refused_without_reading(folder, ["evaluate", "RUN"], capsys, monkeypatch)
    assert "'split.train_sources' entry should be at most 100 hashes" in err


@pytest.mark.parametrize("entry", [["history", 0, "loss"], ["config", "sep"],
                                   ["src_vocab", "counts"]])
def test_an_array_anywhere_else_larger_than_the_largest_weight_is_refused_unread(
        run, tmp_path, capsys, monkeypatch, entry):
    state = minigrad.load(run / "checkpoint.npz")
    holder = state
    for key in entry[:-1]:
        holder = holder[key]
    holder[entry[-1]] = np.zeros(1000)                  # 8,000 bytes; the largest weight 1,024
    folder = tmp_path / "big"
    folder.mkdir()
    minigrad.save(state, folder / "checkpoint.npz")
    err, read = refused_without_reading(folder, ["evaluate", "RUN"], capsys, monkeypatch)
    where = ".".join(str(k) if not isinstance(k, int) else f"[{k}]" for k in entry)
    assert f"its {where.replace('.[', '[')!r} entry should be no larger than the largest " \
           "weight (1024 bytes)" in err
    assert read == ["metadata.npy"]
