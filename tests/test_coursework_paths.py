"""The audit hook decides on the very path a call opens: an object whose `__fspath__` names the
stored answers to the call and a harmless file to the check, a trace function that changes the
path while the hook looks, or `os.path.realpath` replaced, no longer gets past it; str, bytes,
pathlib paths and os.DirEntry still pass."""

import os
import pathlib
from unittest import mock

import pytest

import minigrad.grade
from minigrad.grade import SolutionFailed, grade
from minigrad.grade.paths import plain_arguments, readers_changed, snapshot

from conftest import HONEST_LAYER_NORM as LAYER_NORM, student_file

# The first look at the path sees REAL, every later one a harmless file.
TWO_ANSWERS = """
import io
import os
import tempfile

HARMLESS = os.path.join(tempfile.mkdtemp(), "harmless")
open(HARMLESS, "wb").close()


class Two:
    calls = 0

    def __fspath__(self):
        Two.calls += 1
        return REAL if Two.calls == 1 else HARMLESS
"""

EXPECTED = os.path.join(os.path.dirname(minigrad.grade.__file__), "expected.npz")


def failure(path, exercise="layer_norm"):
    with pytest.raises(SolutionFailed) as caught:
        grade(exercise, path)
    return str(caught.value)


def test_a_path_object_that_names_the_expected_values_only_once_is_refused(tmp_path):
    path = student_file(tmp_path, f"REAL = {EXPECTED!r}\n" + TWO_ANSWERS + """
with io.FileIO(Two(), "rb") as raw:
    STORED = raw.readall()
""" + LAYER_NORM)
    assert failure(path).startswith("layer_norm: your code names a path with an object of its "
                                     "own type (Two), which could name one file to the check "
                                     "and another to the call (open)")


def test_a_path_object_that_names_a_file_outside_the_temporary_folder_writes_nothing(tmp_path):
    outside = tmp_path / "written_outside.txt"
    path = student_file(tmp_path, f"REAL = {str(outside)!r}\n" + TWO_ANSWERS + """
with io.FileIO(Two(), "w") as out:
    out.write(b"written while graded")
""" + LAYER_NORM)
    assert failure(path).startswith("layer_norm: your code names a path with an object")
    assert not outside.exists()


def test_a_trace_function_is_refused_as_it_would_run_inside_the_hook(tmp_path):
    """A trace function runs at every line of the hook, where it could rename a folder of
    the path between the check and the open."""
    path = student_file(tmp_path, """
import sys

sys.settrace(lambda frame, event, arg: None)
""" + LAYER_NORM)
    assert failure(path).startswith("layer_norm: your code calls sys.settrace (your file, or a "
                                    "module it imports)")


def test_replacing_realpath_to_read_the_expected_values_is_refused(tmp_path):
    path = student_file(tmp_path, f"""
import posixpath

import numpy as np

real = posixpath.realpath
posixpath.realpath = lambda path, **settings: "/nowhere"
try:
    STORED = np.load({EXPECTED!r})
finally:
    posixpath.realpath = real
""" + LAYER_NORM)
    assert failure(path).startswith("layer_norm: your code replaces posixpath.realpath, which "
                                    "the grader's guard relies on")


def test_a_function_of_the_guard_replaced_for_one_read_and_put_back_is_refused(tmp_path):
    """Put back after, it is as it was when the grader compares its modules at the end: the
    hook itself finds it replaced, at the read."""
    path = student_file(tmp_path, f"""
import numpy as np

import minigrad.grade.audit as audit

kept = audit.refused
audit.refused = lambda *args: None
try:
    STORED = np.load({EXPECTED!r})
finally:
    audit.refused = kept
""" + LAYER_NORM)
    assert failure(path).startswith("layer_norm: your code replaces minigrad.grade.audit.refused, "
                                    "which the grader's guard relies on")


def test_pathlib_paths_dir_entries_and_str_subclasses_still_open_files(tmp_path):
    path = student_file(tmp_path, """
import os
import pathlib
import tempfile

import numpy as np

folder = pathlib.Path(tempfile.mkdtemp())
np.save(folder / "saved.npy", np.arange(3.0))
assert np.load(folder / "saved.npy").sum() == 3.0
for entry in os.scandir(folder):
    with open(entry, "rb") as file:
        file.read()


class Name(str):
    pass


(folder / "text.txt").write_text("x")
assert open(Name(folder / "text.txt")).read() == "x"
""" + LAYER_NORM)
    assert grade("layer_norm", path).startswith("passed: layer_norm")


class Plain(str):
    def __getitem__(self, index):           # what the hook would read, were it asked
        return "/nowhere"


def test_path_arguments_are_read_as_the_call_reads_them(tmp_path):
    entry = next(os.scandir(pathlib.Path(__file__).parent))
    args, why = plain_arguments("open", (Plain("/a/b"), "r", 0))
    assert why is None and args[0] == "/a/b" and type(args[0]) is str
    assert plain_arguments("open", (pathlib.Path("/a/b"), "r", 0)) == (("/a/b", "r", 0), None)
    assert plain_arguments("open", (entry, "r", 0))[0][0] == entry.path
    assert plain_arguments("os.rename", (b"/a", 3, None, None)) == ((b"/a", 3, None, None), None)
    assert plain_arguments("sqlite3.connect", (tmp_path / "made.db",))[0] == (
        str(tmp_path / "made.db"),)
    assert plain_arguments("socket.bind", (None, ("127.0.0.1", 0)))[1] is None
    _, why = plain_arguments("socket.bind", (None, bytearray(b"/a/made.sock")))
    assert why.startswith("names a path with an object of its own type (bytearray)")


def test_a_replaced_path_reader_or_pathlib_method_is_named():
    kept = snapshot()
    assert readers_changed(kept) is None
    with mock.patch("posixpath.realpath", lambda path: path):
        assert readers_changed(kept) == "posixpath.realpath"
    with mock.patch.object(pathlib.PurePath, "__fspath__", lambda self: "/nowhere"):
        assert readers_changed(kept) == "pathlib.PurePath.__fspath__"
    assert readers_changed(kept) is None
