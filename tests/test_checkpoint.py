"""Checkpoints: a bit-exact round trip of every supported type; bad files refused with the file's
name (and a pickle never run); a save that crashes half-way leaves the old checkpoint."""

import json
import math
import os
import pickle
import tempfile
import zipfile

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from minigrad import Tensor
from minigrad.checkpoint import CheckpointError, load, save


def assert_same(got, expected, where="obj"):
    """Equal values of the same type, recursively; arrays bit for bit, with dtype and shape."""
    assert type(got) is type(expected), f"{where}: {type(got)} != {type(expected)}"
    if isinstance(expected, np.ndarray):
        assert got.dtype == expected.dtype and got.shape == expected.shape, where
        assert got.tobytes() == np.ascontiguousarray(expected).tobytes(), where
    elif isinstance(expected, np.generic):
        assert got.dtype == expected.dtype and got.tobytes() == expected.tobytes(), where
    elif isinstance(expected, Tensor):
        assert (got.name, got.requires_grad) == (expected.name, expected.requires_grad), where
        assert_same(got.data, expected.data, where + ".data")
    elif isinstance(expected, dict):
        assert list(got) == list(expected), f"{where}: keys {list(got)} != {list(expected)}"
        for key in expected:
            assert type(key) is type(next(k for k in got if k == key))
            assert_same(got[key], expected[key], f"{where}[{key!r}]")
    elif isinstance(expected, (list, tuple)):
        assert len(got) == len(expected), where
        for i, (g, e) in enumerate(zip(got, expected)):
            assert_same(g, e, f"{where}[{i}]")
    elif isinstance(expected, float):
        assert repr(got) == repr(expected), where       # -0.0, nan and inf included
    else:
        assert got == expected, where


def every_kind_of_value():
    rng = np.random.default_rng(0)
    signed_nan = np.array([np.nan, -np.nan, np.inf, -np.inf, -0.0, 5e-324], dtype=np.float64)
    signed_nan.view(np.uint64)[0] |= np.uint64(0x1234)            # a nan with a payload
    arrays = {str(dtype): rng.uniform(-100, 100, 5).astype(dtype)
              for dtype in [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
                            np.uint32, np.uint64, np.float16, np.float32, np.float64,
                            np.complex64, np.complex128]
              if not np.issubdtype(dtype, np.unsignedinteger)}
    arrays.update({str(dtype): rng.integers(0, 2 ** 8, 5).astype(dtype)
                   for dtype in [np.uint8, np.uint16, np.uint32, np.uint64]})
    return {
        "model": {"encoder.weight": rng.standard_normal((4, 3)).astype(np.float32),
                  "decoder.bias": np.zeros(3, dtype=np.float32)},
        "ids": np.array([3, 1, 4, 1, 5], dtype=np.int64),
        "mask": np.array([[True, False], [False, True]]),
        "arrays": arrays,
        "special floats": signed_nan,
        "strided view": np.arange(24.0).reshape(4, 6)[::2, 1::2],
        "fortran order": np.asfortranarray(rng.standard_normal((3, 2))),
        "zero-d": np.array(2.5),
        "empty": np.zeros((0, 3), dtype=np.int32),
        "numpy scalars": [np.float32(1.5), np.int64(-7), np.bool_(True), np.float16(0.1),
                          np.uint8(255), np.complex64(1 - 2j)],
        "python": [None, True, False, 0, -5, 2 ** 70, 1.5, -0.0, 1e-310, math.nan, math.inf,
                   -math.inf, "", "cat", "ねこ", "line\nbreak \"quoted\" \\ \u0000"],
        "config": {"hidden": 64, "dropout": 0.1, "bidirectional": False, "cell": None},
        "vocabulary": {"<pad>": 0, "<unk>": 1, "ねこ": 2, "chat": 3},
        "int keys": {2: "two", 0: "zero", -1: "minus one"},
        "order": {"zebra": 1, "apple": 2, "mango": 3},
        "tuple": (1, (2.0, "three"), []),
        "nested": [[[{"deep": [np.arange(3)]}]], {}, [], ()],
        "tensor": Tensor(np.ones(2, dtype=np.float32), requires_grad=True, name="w"),
        "epoch": 7,
    }


def test_round_trip_is_bit_exact_and_keeps_types_dtypes_and_key_order(tmp_path):
    obj = every_kind_of_value()
    save(obj, tmp_path / "everything.npz")
    assert_same(load(tmp_path / "everything.npz"), obj)
    assert sorted(os.listdir(tmp_path)) == ["everything.npz"]


def test_a_checkpoint_is_a_plain_npz_with_json_metadata(tmp_path):
    path = tmp_path / "small.npz"
    save({"w": np.arange(3.0), "epoch": 2}, str(path))      # str and Path both work
    with np.load(path, allow_pickle=False) as archive:
        assert archive.files == ["a0", "metadata"]
        metadata = json.loads(archive["metadata"].item())
        np.testing.assert_array_equal(archive["a0"], [0.0, 1.0, 2.0])
    assert metadata == {"format": "minigrad-checkpoint", "version": 1,
                        "object": {"dict": [["w", {"array": "a0"}], ["epoch", 2]]}}


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda children: st.lists(children, max_size=4)
    | st.tuples(children, children)
    | st.dictionaries(st.text(max_size=5) | st.integers(), children, max_size=4),
    max_leaves=12)


@settings(max_examples=40, deadline=None)
@given(json_values)
def test_round_trip_of_random_nested_values(value):
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "value.npz")
        save(value, path)
        assert_same(load(path), value)


# ---- what cannot be saved -------------------------------------------------------------------

@pytest.mark.parametrize("obj, message", [
    ({1.5: "x"}, r"key 1\.5 of type float"),
    ({"outer": {(1, 2): "x"}}, r"obj\['outer'\] has the key \(1, 2\)"),
    ({True: "x"}, "key True of type bool"),
    ({"s": {1, 2}}, r"obj\['s'\] has the type set"),
    ([object()], r"obj\[0\] has the type object"),
    ({"words": np.array(["a", "b"], dtype=object)}, "dtype object"),
])
def test_what_cannot_be_saved_gets_a_clear_error_and_writes_nothing(tmp_path, obj, message):
    path = tmp_path / "bad.npz"
    with pytest.raises(CheckpointError, match=message) as error:
        save(obj, path)
    assert "bad.npz" in str(error.value)
    assert os.listdir(tmp_path) == []


def test_a_list_that_contains_itself_is_refused(tmp_path):
    loop = [1]
    loop.append(loop)
    with pytest.raises(CheckpointError, match="contains itself"):
        save(loop, tmp_path / "loop.npz")
    shared = [1, 2]
    save([shared, shared], tmp_path / "shared.npz")          # the same list twice is fine
    assert load(tmp_path / "shared.npz") == [[1, 2], [1, 2]]


def test_saving_into_a_missing_directory_names_it(tmp_path):
    with pytest.raises(FileNotFoundError, match="no directory"):
        save({}, tmp_path / "missing" / "x.npz")


# ---- bad files ------------------------------------------------------------------------------

def good_checkpoint(tmp_path):
    path = tmp_path / "good.npz"
    save({"weights": np.arange(2000, dtype=np.float64), "epoch": 3}, path)
    return path


def write(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_text_and_empty_files_are_refused(tmp_path):
    for name, data in [("notes.npz", b"epoch 3, loss 0.25\n"), ("empty.npz", b"")]:
        path = write(tmp_path, name, data)
        with pytest.raises(CheckpointError, match=f"{name}.*not an .npz archive"):
            load(path)


def test_a_plain_npz_without_metadata_is_refused(tmp_path):
    path = tmp_path / "plain.npz"
    np.savez(path, weights=np.ones(3))
    with pytest.raises(CheckpointError, match="plain.npz.*without metadata"):
        load(path)


def test_an_npz_with_foreign_metadata_or_another_version_is_refused(tmp_path):
    path = tmp_path / "foreign.npz"
    np.savez(path, metadata=np.array(json.dumps({"format": "something-else"})))
    with pytest.raises(CheckpointError, match="foreign.npz.*does not name the format"):
        load(path)
    np.savez(path, metadata=np.array(json.dumps({"format": "minigrad-checkpoint",
                                                 "version": 99, "object": None})))
    with pytest.raises(CheckpointError, match="foreign.npz.*version 99"):
        load(path)


def test_a_truncated_checkpoint_is_refused(tmp_path):
    data = good_checkpoint(tmp_path).read_bytes()
    for cut in [10, len(data) // 2, len(data) - 10]:
        path = write(tmp_path, "cut.npz", data[:cut])
        with pytest.raises(CheckpointError, match="cut.npz.*truncated or corrupt"):
            load(path)


def test_a_corrupted_checkpoint_is_refused(tmp_path):
    data = bytearray(good_checkpoint(tmp_path).read_bytes())
    data[len(data) // 2] ^= 0xFF                        # one flipped byte inside the weights
    path = write(tmp_path, "flipped.npz", bytes(data))
    with pytest.raises(CheckpointError, match="flipped.npz.*truncated or corrupt"):
        load(path)


def test_corrupt_metadata_is_refused(tmp_path):
    path = tmp_path / "odd.npz"
    np.savez(path, metadata=np.array(json.dumps({"format": "minigrad-checkpoint", "version": 1,
                                                 "object": {"array": "a7"}})))
    with pytest.raises(CheckpointError, match="odd.npz.*'a7' is missing"):
        load(path)
    np.savez(path, metadata=np.array("{not json"))
    with pytest.raises(CheckpointError, match="odd.npz.*corrupt"):
        load(path)


@pytest.mark.parametrize("node, where, message", [
    ({"list": 7}, "obj['split'][0]", "tagged 'list', which holds a list, but holds 7"),
    ({"tuple": "ab"}, "obj['split'][0]", "tagged 'tuple', which holds a list, but holds 'ab'"),
    ({"dict": [["k"]]}, "obj['split'][0]", "tagged 'dict', which holds a list of [key, value] "
                                           "pairs, each key a str or an int, but holds ['k']"),
    ({"float": "x"}, "obj['split'][0]", "tagged 'float', which holds 'nan', 'inf' or '-inf', "
                                        "but holds 'x'"),
    ({"tensor": 3}, "obj['split'][0]", "tagged 'tensor', which holds {\"array\": ..."),
    ({"what": 1}, None, "unexpected entry {'what': 1} in its metadata, at obj['split'][0]"),
])
def test_a_malformed_tagged_value_is_refused_naming_where_it_is(tmp_path, node, where, message):
    path = tmp_path / "odd.npz"
    tree = {"dict": [["split", {"list": [node]}]]}
    np.savez(path, metadata=np.array(json.dumps({"format": "minigrad-checkpoint", "version": 1,
                                                 "object": tree})))
    with pytest.raises(CheckpointError) as refused:
        load(path)
    text = str(refused.value)
    assert text.startswith(f"{str(path)!r} is corrupt: ")
    assert where is None or f"in its metadata, {where} is tagged" in text
    assert message in text and "\n" not in text


def test_a_missing_file_raises_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError):
        load(tmp_path / "nowhere.npz")


class Payload:
    """Unpickling this creates the file `marker` (any code could run in its place)."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return (open, (self.marker, "w"))


def test_the_payload_really_runs_when_unpickled(tmp_path):
    """The control: without the checkpoint's refusal, the marker would be there."""
    marker = tmp_path / "ran"
    pickle.loads(pickle.dumps(Payload(marker))).close()
    assert marker.exists()


def test_a_pickle_dressed_up_as_a_checkpoint_is_refused_and_never_run(tmp_path):
    marker = tmp_path / "ran"
    raw = write(tmp_path, "model.npz", pickle.dumps({"weights": Payload(marker)}))
    with pytest.raises(CheckpointError, match="model.npz.*a pickle; refused"):
        load(raw)

    as_metadata = tmp_path / "meta.npz"                 # the metadata itself a pickled object
    np.savez(as_metadata, metadata=np.array([Payload(marker)], dtype=object))
    with pytest.raises(CheckpointError, match="meta.npz.*pickled data"):
        load(as_metadata)

    inside = tmp_path / "inside.npz"                    # a real checkpoint, one array swapped
    save({"weights": np.ones(3)}, inside)
    with zipfile.ZipFile(inside) as archive:
        metadata = archive.read("metadata.npy")
    with zipfile.ZipFile(inside, "w") as archive:
        archive.writestr("metadata.npy", metadata)
        with archive.open("a0.npy", "w") as member:
            np.save(member, np.array([Payload(marker)], dtype=object), allow_pickle=True)
    with pytest.raises(CheckpointError, match="inside.npz.*pickled data"):
        load(inside)

    assert not marker.exists()


# ---- atomic saves ---------------------------------------------------------------------------

def test_a_crash_before_the_rename_keeps_the_old_checkpoint_and_no_temporary_file(
        tmp_path, monkeypatch):
    path = tmp_path / "run.npz"
    save({"epoch": 1, "w": np.zeros(3)}, path)

    def crash(source, target):
        assert os.path.exists(source)                   # the new file was written in full
        raise OSError("simulated crash before the rename")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError, match="simulated crash"):
        save({"epoch": 2, "w": np.ones(3)}, path)
    monkeypatch.undo()

    assert os.listdir(tmp_path) == ["run.npz"]
    assert_same(load(path), {"epoch": 1, "w": np.zeros(3)})


def test_a_crash_while_writing_keeps_the_old_checkpoint_and_no_temporary_file(
        tmp_path, monkeypatch):
    path = tmp_path / "run.npz"
    save({"epoch": 1}, path)

    def crash(file, **arrays):
        file.write(b"PK\x03\x04 half an archive")
        raise KeyboardInterrupt                         # Ctrl-C in the middle of the write

    monkeypatch.setattr(np, "savez", crash)
    with pytest.raises(KeyboardInterrupt):
        save({"epoch": 2}, path)
    monkeypatch.undo()

    assert os.listdir(tmp_path) == ["run.npz"]
    assert load(path) == {"epoch": 1}


def test_save_replaces_the_old_checkpoint_with_the_usual_permissions(tmp_path):
    path = tmp_path / "run.npz"
    save({"epoch": 1}, path)
    save({"epoch": 2}, path)
    assert load(path) == {"epoch": 2}
    umask = os.umask(0)
    os.umask(umask)
    assert os.stat(path).st_mode & 0o777 == 0o666 & ~umask
