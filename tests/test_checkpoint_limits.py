"""Checkpoints against hostile files: a zip bomb beside the real arrays, .npy headers that lie
about their size, a FIFO where the file should be, and nesting deep enough to overflow the
stack. Each is a CheckpointError naming the file, in small memory and without waiting."""

import io
import os
import struct
import threading
import tracemalloc
import zipfile

import numpy as np
import pytest

from minigrad import Tensor, checkpoint
from minigrad.checkpoint import MAX_DEPTH, CheckpointError, load, save

MiB = 1024 ** 2


def npy_header(dtype, shape):
    buffer = io.BytesIO()
    np.lib.format.write_array_header_1_0(buffer, {"descr": dtype, "fortran_order": False,
                                                  "shape": shape})
    return buffer.getvalue()


def rewrite(path, members, compression=zipfile.ZIP_STORED):
    """Replace the archive at `path` by one holding `members` (name -> bytes)."""
    with zipfile.ZipFile(path, "w", compression=compression, compresslevel=1) as archive:
        for name, data in members.items():
            archive.writestr(name, data)


def members_of(path):
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def peak_memory_of(function):
    """(what `function()` returned or raised, the peak bytes Python and NumPy allocated)."""
    tracemalloc.start()
    try:
        try:
            result = function()
        except CheckpointError as error:
            result = error
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


# ---- members nothing refers to, headers that lie ----------------------------------------------

def test_a_member_nothing_refers_to_is_never_decompressed(tmp_path):
    path = tmp_path / "bomb.npz"
    save({"w": np.arange(3.0)}, path)
    with zipfile.ZipFile(path, "a", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        with archive.open("junk.npy", "w", force_zip64=True) as member:
            member.write(npy_header("|u1", (256 * MiB,)))
            for _ in range(16):
                member.write(bytes(16 * MiB))                # 256 MiB of zeros, 1 MiB zipped
    assert path.stat().st_size < 2 * MiB

    result, peak = peak_memory_of(lambda: load(path))
    np.testing.assert_array_equal(result["w"], [0.0, 1.0, 2.0])
    assert peak < 16 * MiB, f"{peak / MiB:.0f} MiB"             # not the 256 MiB inside


def test_an_archive_holding_one_member_twice_is_refused_naming_it(tmp_path):
    """A zip may list a name twice; which copy a reader takes is its own choice, so neither is
    taken: the file is refused."""
    path = tmp_path / "twice.npz"
    save({"w": np.arange(3.0)}, path)
    name = next(n for n in members_of(path) if n != "metadata.npy")
    with pytest.warns(UserWarning, match="Duplicate name"):
        with zipfile.ZipFile(path, "a") as archive:
            buffer = io.BytesIO()
            np.save(buffer, np.arange(3.0) * 7)
            archive.writestr(name, buffer.getvalue())
    with pytest.raises(CheckpointError, match=f"holds two members named {name!r}") as error:
        load(path)
    assert str(path) in str(error.value) and "\n" not in str(error.value)


def test_a_header_declaring_1e11_values_is_refused_naming_file_and_member(tmp_path):
    path = tmp_path / "huge.npz"
    save({"w": np.ones(3)}, path)
    members = members_of(path)
    members["a0.npy"] = npy_header("<f8", (10 ** 11,)) + np.ones(3).tobytes()
    rewrite(path, members)
    result, peak = peak_memory_of(lambda: load(path))
    assert isinstance(result, CheckpointError)
    assert "huge.npz" in str(result) and "'a0.npy'" in str(result)
    assert "100000000000 values of float64" in str(result) and "24 bytes" in str(result)
    assert peak < 4 * MiB


def write_lying_directory(path, declared, data):
    """A deflated member a0.npy holding `data` (bytes after its header) whose header declares
    `declared` bytes and whose zip directory entry agrees with the header: both lie."""
    save({"w": np.ones(3)}, path)
    members = members_of(path)
    members["a0.npy"] = npy_header("|u1", (declared,)) + data
    rewrite(path, members, compression=zipfile.ZIP_DEFLATED)
    raw = bytearray(path.read_bytes())
    entry = raw.index(b"PK\x01\x02")
    while raw[entry + 46:entry + 46 + 6] != b"a0.npy":              # the central directory
        entry = raw.index(b"PK\x01\x02", entry + 1)
    struct.pack_into("<I", raw, entry + 24, 128 + declared)         # its uncompressed size
    path.write_bytes(bytes(raw))


def test_a_header_and_directory_that_lie_together_are_read_only_as_far_as_the_data_goes(tmp_path):
    path = tmp_path / "liar.npz"
    incompressible = np.random.default_rng(0).bytes(MiB)          # 1 MiB zipped: could be 1 GB
    write_lying_directory(path, 10 ** 9, incompressible)
    result, peak = peak_memory_of(lambda: load(path))
    assert isinstance(result, CheckpointError)
    assert "liar.npz" in str(result) and "'a0.npy' ends after 1048576 of its" in str(result)
    assert peak < 16 * MiB, f"{peak / MiB:.0f} MiB"             # not the 1 GB declared


def test_a_size_deflate_cannot_produce_from_the_compressed_bytes_is_refused(tmp_path):
    path = tmp_path / "liar.npz"
    write_lying_directory(path, 10 ** 9, bytes(1000))               # a few bytes zipped
    with pytest.raises(CheckpointError, match=r"liar.npz.*'a0.npy' claims 1000000128 bytes from "
                                              r"\d+ stored, more than they can hold"):
        load(path)


def test_the_total_size_is_capped_in_load_and_in_save(tmp_path, monkeypatch):
    path = tmp_path / "big.npz"
    save({"a": np.zeros(100), "b": np.zeros(100)}, path)           # 800 bytes each
    monkeypatch.setattr(checkpoint, "MAX_BYTES", 1000)
    with pytest.raises(CheckpointError, match=r"big.npz' is too large to load: its member 'a1.npy' "
                       r"holds 800 bytes, which passes minigrad.checkpoint.MAX_BYTES \(1000 bytes"):
        load(path)
    with pytest.raises(CheckpointError, match="its arrays would take 1.6 KiB, over the 1000"):
        save({"a": np.zeros(100), "b": np.zeros(100)}, tmp_path / "bigger.npz")
    assert sorted(os.listdir(tmp_path)) == ["big.npz"]


def test_huge_metadata_is_refused_before_it_is_read(tmp_path, monkeypatch):
    path = tmp_path / "words.npz"
    save({"vocabulary": {f"word{i}": i for i in range(1000)}}, path)
    monkeypatch.setattr(checkpoint, "MAX_METADATA_BYTES", 10_000)
    with pytest.raises(CheckpointError, match="words.npz' is too large to load: its member "
                                              "'metadata.npy' holds .*MAX_METADATA_BYTES"):
        load(path)
    with pytest.raises(CheckpointError, match="its metadata would take"):
        save({"vocabulary": {f"word{i}": i for i in range(1000)}}, tmp_path / "more.npz")


@pytest.mark.parametrize("descr, message", [
    ("|O", "pickled data in 'a0.npy'"),
    ([("x", "<i4"), ("y", "<f4")], r"'a0.npy' holds an array of dtype \[\('x'"),
    ("<U3", "'a0.npy' holds an array of dtype <U3"),
])
def test_object_structured_and_string_arrays_never_come_out_of_load(tmp_path, descr, message):
    path = tmp_path / "odd.npz"
    save({"w": np.ones(3)}, path)
    members = members_of(path)
    members["a0.npy"] = npy_header(descr, (3,)) + bytes(3 * np.dtype(descr).itemsize)
    rewrite(path, members)
    with pytest.raises(CheckpointError, match="odd.npz.*" + message):
        load(path)


def test_a_compressed_archive_loads_the_same_and_arrays_are_plain_writable_numbers(tmp_path):
    obj = {"w": np.arange(6, dtype=">f4").reshape(2, 3), "f": np.asfortranarray(np.eye(3)),
           "t": Tensor(np.ones(2)), "s": np.float16(0.5), "empty": np.zeros((0, 2), np.int8)}
    path = tmp_path / "zipped.npz"
    save(obj, path)
    rewrite(path, members_of(path), compression=zipfile.ZIP_DEFLATED)
    got = load(path)
    for key in ("w", "f", "empty"):
        assert got[key].dtype == obj[key].dtype and got[key].shape == obj[key].shape
        np.testing.assert_array_equal(got[key], obj[key])
        assert got[key].dtype.kind in "biufc" and got[key].flags.writeable
    assert got["f"].flags.f_contiguous
    assert type(got["s"]) is np.float16 and got["s"] == 0.5
    got["w"][0, 0] = 7.0                                             # a writable array
    np.testing.assert_array_equal(got["t"].data, [1.0, 1.0])


# ---- files that are not files ------------------------------------------------------------------

def test_a_fifo_is_refused_within_a_second_without_blocking(tmp_path):
    fifo = tmp_path / "checkpoint.npz"
    os.mkfifo(fifo)
    outcome = []
    reader = threading.Thread(target=lambda: outcome.append(_error_of(load, fifo)), daemon=True)
    reader.start()
    reader.join(timeout=1.0)
    if reader.is_alive():                       # blocked: let it go before failing the test
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        reader.join(timeout=5.0)
        pytest.fail("load(FIFO) blocked")
    [error] = outcome
    assert isinstance(error, CheckpointError)
    assert "checkpoint.npz" in str(error) and "a FIFO, not a regular file" in str(error)


def _error_of(function, *args):
    try:
        function(*args)
    except Exception as error:                  # handed back to the test
        return error
    return None


def test_a_directory_and_a_device_are_refused(tmp_path):
    (tmp_path / "run.npz").mkdir()
    with pytest.raises(CheckpointError, match=r"run.npz.*a directory, not a regular file"):
        load(tmp_path / "run.npz")
    if os.path.exists("/dev/zero"):
        with pytest.raises(CheckpointError, match=r"/dev/zero.*a device, not a regular file"):
            load("/dev/zero")


# ---- nesting ---------------------------------------------------------------------------------

def nested_list(depth):
    value = 1
    for _ in range(depth):
        value = [value]
    return value


def nested_dict(depth):
    value = np.arange(2)
    for i in range(depth):
        value = {f"k{i}": value}
    return value


def test_nesting_up_to_the_limit_round_trips(tmp_path):
    for obj in (nested_list(MAX_DEPTH), nested_dict(MAX_DEPTH)):
        save(obj, tmp_path / "deep.npz")
        got = load(tmp_path / "deep.npz")
        for _ in range(MAX_DEPTH - 1):
            got = next(iter(got.values())) if isinstance(got, dict) else got[0]
        assert str(got) in ("[1]", "{'k0': array([0, 1])}")


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 5000])
def test_saving_deeper_nesting_is_refused_naming_where(tmp_path, depth):
    with pytest.raises(CheckpointError, match=r"deep.npz': obj\[0\]\[0\].*\[0\] is nested deeper "
                                              r"than the 100 levels"):
        save(nested_list(depth), tmp_path / "deep.npz")
    with pytest.raises(CheckpointError, match=r"deep.npz': obj\['k.*'\] is nested deeper"):
        save(nested_dict(depth), tmp_path / "deep.npz")
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("depth, what", [(MAX_DEPTH + 1, "its object"),
                                         (5000, "its (object|metadata)")])
def test_loading_deeper_nesting_is_refused_naming_the_file(tmp_path, depth, what):
    path = tmp_path / "deep.npz"
    tree = '{"list": [' * depth + "1" + "]}" * depth
    np.savez(path, metadata=np.array('{"format": "minigrad-checkpoint", "version": 1, '
                                     f'"object": {tree}}}'))
    with pytest.raises(CheckpointError, match=f"deep.npz' is refused: {what} is nested deeper "
                                              "than the 100 levels"):
        load(path)


# ---- a caller's check sees what each array declares, before its data is read -----------------

def test_a_check_sees_each_arrays_declared_shape_and_refuses_before_any_data_is_read(tmp_path):
    path = tmp_path / "declared.npz"
    save({"w": np.ones((2, 3), np.float32), "t": Tensor(np.zeros(4)), "n": 7}, path)
    members = members_of(path)
    members["a0.npy"] = npy_header("<f4", (16 * MiB,)) + bytes(64 * MiB)      # compresses to KiB
    rewrite(path, members, compression=zipfile.ZIP_DEFLATED)
    seen = []

    def check(declared):
        seen.append(declared)
        if declared["w"].nbytes > MiB:
            raise ValueError(f"w declares {declared['w'].nbytes} bytes")

    result, peak = peak_memory_of(lambda: pytest.raises(ValueError, load, path, check=check))
    assert str(result.value) == "w declares 67108864 bytes"      # the check's own error
    assert peak < 4 * MiB
    [declared] = seen
    assert declared["w"].shape == (16 * MiB,) and declared["w"].dtype == np.float32
    assert declared["t"].shape == (4,) and declared["n"] == 7


def test_a_check_that_passes_changes_nothing_in_what_load_returns(tmp_path):
    path = tmp_path / "fine.npz"
    save({"w": np.arange(6.0).reshape(2, 3), "s": np.float32(1.5)}, path)
    loaded = load(path, check=lambda declared: None)
    assert loaded["w"].tolist() == [[0, 1, 2], [3, 4, 5]] and loaded["s"] == np.float32(1.5)
