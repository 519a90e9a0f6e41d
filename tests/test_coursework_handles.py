"""Paths named relative to a folder's handle (`dir_fd=`), and calls given an open file's number:
the `open` audit event carries no `dir_fd`, so the check judges a relative path from every
folder it could be relative to (the working folder and every folder the process holds open),
and a call given a file's number (os.fchmod, os.utime, os.truncate) as a change to that file."""

import os
from pathlib import Path

import pytest

import minigrad.grade
from minigrad.grade import SolutionFailed, grade

from conftest import honest_layer_norm_file

GRADE = Path(minigrad.grade.__file__).resolve().parent
EXPECTED = GRADE / "expected.npz"


def failure(path, exercise="layer_norm"):
    with pytest.raises(SolutionFailed) as caught:
        grade(exercise, path)
    return str(caught.value)


def through_a_link(target, opened, flags="os.O_RDONLY", then=""):
    """Code that links `pkg` in a folder of the temporary one to `target` (a place it may read),
    holds a handle to that folder, goes elsewhere, opens `opened` (relative, through `pkg`) by
    the handle, and runs `then`."""
    return f"""
        import os
        import tempfile

        SCRATCH = os.path.join(tempfile.gettempdir(), "sub")
        os.mkdir(SCRATCH)
        os.symlink({str(target)!r}, os.path.join(SCRATCH, "pkg"))
        HANDLE = os.open(SCRATCH, os.O_RDONLY)
        os.chdir(tempfile.gettempdir())
        FOUND = os.open({opened!r}, {flags}, dir_fd=HANDLE)
        {then}
    """


def test_the_expected_values_read_by_a_folders_handle_are_refused(tmp_path):
    path = honest_layer_norm_file(tmp_path, through_a_link(GRADE, "pkg/expected.npz",
                                                          then="STORED = os.read(FOUND, 9)"))
    assert failure(path).startswith("layer_norm: your code opens the grader's expected values "
                                    "(expected.npz)")


def test_a_link_to_a_git_folder_is_refused(tmp_path):
    """Through a link named otherwise (`gg`), then by a handle, a git folder's files would have
    a path with no `.git` in it."""
    git = tmp_path / "clone" / ".git"
    git.mkdir(parents=True)
    (git / "HEAD").write_text("ref: refs/heads/main\n")
    path = honest_layer_norm_file(tmp_path, through_a_link(git, "pkg/HEAD"))
    assert failure(path).startswith(f"layer_norm: your code reads {git}, a git folder's "
                                    f"contents")


def test_a_file_written_outside_by_a_folders_handle_is_refused(tmp_path):
    path = honest_layer_norm_file(tmp_path, through_a_link(
        tmp_path, "pkg/written.txt", "os.O_WRONLY | os.O_CREAT | os.O_TRUNC"))
    assert failure(path).startswith(f"layer_norm: your code writes to "
                                    f"{tmp_path / 'written.txt'}")
    assert not (tmp_path / "written.txt").exists()


def test_a_link_in_the_temporary_folder_to_a_place_it_may_not_read_is_refused(tmp_path):
    path = honest_layer_norm_file(tmp_path, """
        import os
        import tempfile

        os.symlink("/", os.path.join(tempfile.gettempdir(), "root"))
    """)
    assert failure(path).startswith("layer_norm: your code reads /, outside the places the "
                                    "graded code may read")


@pytest.mark.parametrize("change", [
    "os.chmod(FILE, 0o644)", "os.fchmod(FILE, 0o644)", "os.utime(FILE)",
    "os.truncate(FILE, 0)", "os.ftruncate(FILE, 0)",
])
def test_a_file_changed_by_its_number_outside_the_temporary_folder_is_refused(tmp_path, change):
    target = tmp_path / "target.txt"
    target.write_text("unchanged")
    os.chmod(target, 0o600)
    path = honest_layer_norm_file(tmp_path, f"""
        import os

        FILE = os.open({str(target)!r}, os.O_RDONLY)
        try:
            {change}
        except OSError:
            pass
    """)
    assert failure(path).startswith(f"layer_norm: your code writes to {target}")
    assert target.read_text() == "unchanged" and target.stat().st_mode & 0o777 == 0o600


def test_a_hard_link_to_a_file_outside_the_temporary_folder_is_refused(tmp_path):
    """Written through a hard link in the temporary folder, the file itself would change."""
    target = tmp_path / "data.txt"
    target.write_text("unchanged")
    path = honest_layer_norm_file(tmp_path, f"""
        import os
        import tempfile

        os.link({str(target)!r}, os.path.join(tempfile.gettempdir(), "same"))
    """)
    assert failure(path).startswith(f"layer_norm: your code writes to {target}")


def test_handles_numbers_and_links_in_the_temporary_folder_still_work(tmp_path):
    path = honest_layer_norm_file(tmp_path, """
        import os
        import shutil
        import tempfile

        with tempfile.TemporaryDirectory() as folder:
            os.chdir(tempfile.gettempdir())     # a relative path by a handle: from here too?
            os.makedirs(os.path.join(folder, "inner", "deeper"))
            handle = os.open(folder, os.O_RDONLY)
            made = os.open("inner/made.txt", os.O_WRONLY | os.O_CREAT, dir_fd=handle)
            os.write(made, b"made")
            os.fchmod(made, 0o600)
            os.ftruncate(made, 2)
            os.utime(made)
            os.close(made)
            os.symlink("inner", os.path.join(folder, "link"))
            os.symlink(os.path.dirname(os.__file__), os.path.join(folder, "library"))
            assert open(os.path.join(folder, "link", "made.txt")).read() == "ma"
            os.link(os.path.join(folder, "link", "made.txt"), os.path.join(folder, "hard"))
            os.close(handle)
            shutil.rmtree(os.path.join(folder, "inner"))
    """)
    assert grade("layer_norm", path).startswith("passed: layer_norm")


@pytest.mark.parametrize("inside", ["minigrad/grade/expected.npz",
                                    "tests/reference/minigrad_reference.py"])
def test_another_copy_of_the_answers_beside_the_solution_is_refused(tmp_path, inside):
    """A checkout unpacked beside the solution: its folder is readable, and its expected.npz
    and reference were, at any depth."""
    root = Path(minigrad.grade.__file__).resolve().parent.parent.parent
    source = root / inside
    if not source.is_file():
        pytest.skip(f"no {inside} here (an installed package)")
    copy = tmp_path / "other" / inside
    copy.parent.mkdir(parents=True)
    copy.write_bytes(source.read_bytes())
    solution = tmp_path / "sol.py"
    solution.write_text(f"DATA = open({str(copy)!r}, 'rb').read()\n"
                        "def gru_cell(x, h, *weights):\n    return h\n")
    with pytest.raises(SolutionFailed) as caught:
        grade("gru_cell", solution)
    assert "a copy of the" in str(caught.value)


def test_a_sqlite_uri_naming_a_file_outside_the_temporary_folder_is_refused(tmp_path):
    """file:/elsewhere/x.db?mode=rwc, with the working folder moved into the temporary one,
    was read as a path inside it, and the database was written outside."""
    outside = tmp_path / "evil.db"
    solution = tmp_path / "sol.py"
    solution.write_text("import os, sqlite3, tempfile\n"
                        "os.chdir(tempfile.gettempdir())\n"
                        f"sqlite3.connect('file:{outside}?mode=rwc', uri=True).close()\n"
                        "def gru_cell(x, h, *weights):\n    return h\n")
    with pytest.raises(SolutionFailed):
        grade("gru_cell", solution)
    assert not outside.exists()
