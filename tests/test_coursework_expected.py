"""The graders compare with stored values (minigrad/grade/expected.py), not with a reference run
at grading time: the stored values are what the reference in tests/reference/ gives now, the
packages hold no reference source, the graded code's process is never sent the values and may
not open them, and a damaged file is the grader's error, named."""

import importlib.util
import re
from pathlib import Path
from unittest import mock

import numpy as np
import pytest

import minigrad.grade
from minigrad.grade import SolutionFailed, exercises as engine, grader, process
from minigrad.grade.expected import DamagedExpected, stored
from minigrad.grade.grader import function_exercise
import attention.grade
from attention.grade import exercises as attention_exercises
from tests.reference import regenerate  # the maintainers' script

from conftest import student_file

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "tests" / "reference"

GRADE_FOLDERS = (ROOT / "minigrad" / "grade", ROOT / "attention" / "grade")


@pytest.mark.parametrize("module", [engine, attention_exercises], ids=["minigrad", "attention"])
def test_the_stored_values_are_what_the_reference_gives_now(module):
    """Regenerate (tests/reference/regenerate.py) when this fails after a change on purpose."""
    references = dict(regenerate.REFERENCES)[module]
    now = regenerate.expected_arrays(module, references)
    with np.load(module.EXPECTED, allow_pickle=False) as found:
        kept = {name: found[name] for name in found.files}
    assert sorted(kept) == sorted(now)
    assert any(name.startswith(f"{next(iter(references))}/1/grad/") for name in kept)
    for name, value in now.items():
        assert kept[name].dtype == np.float64 and kept[name].shape == value.shape, name
        np.testing.assert_allclose(kept[name], value, rtol=1e-10, atol=1e-12, err_msg=name)


def test_regenerating_named_exercises_keeps_the_others_values_bit_for_bit(tmp_path,
                                                                          monkeypatch):
    copy = tmp_path / "expected.npz"
    copy.write_bytes(attention_exercises.EXPECTED.read_bytes())
    with np.load(copy) as found:
        before = {name: found[name] for name in found.files}
    changed_before = dict(before, **{
        "multi_head/1/out/0": before["multi_head/1/out/0"] + 1e-15,     # another's: kept
        "general_attention/1/out/0": before["general_attention/1/out/0"] + 1.0})  # written
    np.savez(copy, **changed_before)
    monkeypatch.setattr(attention_exercises, "EXPECTED", copy)
    regenerate.main(["general_attention"])
    with np.load(copy) as found:
        after = {name: found[name] for name in found.files}
    assert sorted(after) == sorted(before)
    for name, value in after.items():
        if name.startswith("general_attention/"):
            np.testing.assert_allclose(value, before[name], rtol=1e-10, atol=1e-12, err_msg=name)
        else:
            assert np.array_equal(value, changed_before[name]), name
    with pytest.raises(SystemExit, match="no exercise causal_mask; the exercises are: "):
        regenerate.main(["causal_mask"])


def test_the_gru_cells_stored_values_hold_its_gates_for_the_diagnosis():
    with np.load(engine.EXPECTED, allow_pickle=False) as found:
        names = set(found.files)
    cases = len(engine.gru_cases())
    for number in range(1, cases + 1):
        assert {f"gru_cell/{number}/kept/{gate}" for gate in "rzn"} <= names
        assert {f"gru_cell/{number}/grad/weight_hh", f"gru_cell/{number}/upstream/0"} <= names


def test_the_grade_packages_hold_no_reference_source():
    assert importlib.util.find_spec("minigrad.grade.reference") is None
    assert importlib.util.find_spec("attention.grade.reference") is None
    answers = re.compile(r"^def (gru_cell|layer_norm|layer_norm_op|logsumexp|general_attention|"
                         r"multi_head_attention|add_positions|causal_attention)\(", re.M)
    for folder in GRADE_FOLDERS:
        assert (folder / "expected.npz").is_file()
        for file in folder.rglob("*.py"):
            assert "reference" not in file.name
            assert not answers.search(file.read_text(encoding="utf-8")), file
    assert (REFERENCE / "minigrad_reference.py").is_file()
    assert (REFERENCE / "attention_reference.py").is_file()


def test_the_wheel_carries_the_stored_values():
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    data = project["tool"]["setuptools"]["package-data"]
    assert data["minigrad.grade"] == data["attention.grade"] == ["expected.npz"]


def test_the_stored_values_are_what_the_grader_compares_with(tmp_path):
    """One stored element changed: the reference's own lines now fail, and the report gives
    the stored number as the expected one."""
    with np.load(engine.EXPECTED, allow_pickle=False) as found:
        arrays = {name: found[name] for name in found.files}
    arrays["layer_norm/1/out/0"] = arrays["layer_norm/1/out/0"].copy()
    arrays["layer_norm/1/out/0"][2, 3] = 123.5
    changed = tmp_path / "changed.npz"
    np.savez(changed, **arrays)
    exercise = function_exercise("layer_norm", "", "layer_norm", "layer_norm(x, weight, bias)",
                                 stored(changed, "layer_norm"), engine.layer_norm_cases,
                                 outputs=("y",))
    path = student_file(tmp_path, (REFERENCE / "minigrad_reference.py").read_text("utf-8"))
    with pytest.raises(SolutionFailed, match=r"element \(2, 3\): yours .*, expected 123\.5"):
        grader.grade({"layer_norm": exercise}, "layer_norm", path)


@pytest.mark.parametrize("damage, words", [
    (lambda a: a.pop("logsumexp/2/grad/x"), "have no logsumexp/2/grad/x"),
    (lambda a: a.update({"logsumexp/2/grad/x": np.zeros((4, 4))}),
     "logsumexp/2/grad/x is float64 (4, 4), expected float64 (4, 3)"),
    (lambda a: a.update({"logsumexp/1/out/0": np.zeros(3, np.float32)}),
     "logsumexp/1/out/0 is float32 (3,), expected float64"),
])
def test_damaged_stored_values_are_the_graders_error_named(tmp_path, damage, words):
    with np.load(engine.EXPECTED, allow_pickle=False) as found:
        arrays = {name: found[name] for name in found.files}
    damage(arrays)
    file = tmp_path / "expected.npz"
    np.savez(file, **arrays)
    with pytest.raises(DamagedExpected, match=re.escape(words)):
        stored(file, "logsumexp")(engine.logsumexp_cases(), ("y",), [])


def test_stored_values_holding_a_pickle_are_not_read(tmp_path):
    file = tmp_path / "expected.npz"
    np.savez(file, **{"logsumexp/1/out/0": np.array([{"a": 1}], dtype=object)})
    with pytest.raises(DamagedExpected, match="cannot be read"):
        stored(file, "logsumexp")(engine.logsumexp_cases(), ("y",), [])


def test_the_graded_codes_process_is_sent_no_expected_values(tmp_path):
    sent = {}

    def keep(exercise, path, runner, meta, arrays, time_limit=None):
        sent.update(arrays)
        raise SolutionFailed("stopped here")

    path = student_file(tmp_path, "def gru_cell(*args):\n    pass\n")
    with mock.patch.object(grader, "run_child", keep), pytest.raises(SolutionFailed):
        minigrad.grade.grade("gru_cell", path)
    kinds = {name.split("/")[1] for name in sent}
    assert kinds == {"in", "upstream"}


def test_the_blocked_files_are_both_stored_values_and_the_reference_folder():
    blocked = dict(process.blocked_files())
    assert blocked == {str(ROOT / "attention" / "grade" / "expected.npz"):
                       "the grader's expected values",
                       str(ROOT / "minigrad" / "grade" / "expected.npz"):
                       "the grader's expected values",
                       str(REFERENCE): "the reference solutions",
                       "*/grade/expected.npz": "a copy of the grader's expected values",
                       "*/tests/reference/*": "a copy of the reference solutions"}


@pytest.mark.parametrize("floor, exercise", [("minigrad", "layer_norm"),
                                             ("attention", "general_attention")])
def test_reading_the_stored_values_while_graded_is_refused(tmp_path, floor, exercise):
    package = {"minigrad": minigrad.grade, "attention": attention.grade}[floor]
    path = student_file(tmp_path, f"""
        from pathlib import Path
        import numpy as np
        import {package.__name__}

        def {package.EXERCISES[exercise].defines}(*args, **settings):
            with np.load(Path({package.__name__}.__file__).with_name("expected.npz")) as found:
                return found["{exercise}/1/out/0"]
    """)
    with pytest.raises(SolutionFailed) as caught:
        package.grade(exercise, path)
    assert str(caught.value).startswith(f"{exercise}: your code opens the grader's expected "
                                        f"values (expected.npz), an answer to this exercise")


def test_a_file_of_the_reference_folder_by_any_name_is_refused(tmp_path):
    """Not only the two references: anything in tests/reference/, the script included."""
    path = student_file(tmp_path, f"""
        exec(open({str(REFERENCE / "regenerate.py")!r}).read()[:0])

        def layer_norm(x, weight, bias, eps=1e-5):
            return x
    """)
    with pytest.raises(SolutionFailed) as caught:
        minigrad.grade.grade("layer_norm", path)
    assert str(caught.value).startswith("layer_norm: your code opens the reference solutions "
                                        "(regenerate.py)")


def test_reading_the_stored_values_through_ctypes_is_not_caught(tmp_path):
    """What docs/coursework.md says the grader cannot catch: the C library's open raises no
    `open` audit event. Such a file still has to compute the right numbers itself."""
    source = (REFERENCE / "minigrad_reference.py").read_text(encoding="utf-8")
    path = student_file(tmp_path, source + f"""
import ctypes

LIBC = ctypes.CDLL(None)
FD = LIBC.open({str(engine.EXPECTED)!r}.encode(), 0)
BUFFER = ctypes.create_string_buffer(4)
assert LIBC.read(FD, BUFFER, 4) == 4 and BUFFER.raw == b"PK\\x03\\x04"
""")
    assert minigrad.grade.grade("layer_norm", path).startswith("passed: layer_norm")
