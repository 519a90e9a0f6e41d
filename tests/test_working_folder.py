"""The commands run with the working folder off the front of the module path
(minigrad.working_folder): a module in the folder a command runs in, named like one of the
standard library's, is not imported in its place, whether the folder is a run someone sent or
the folder of a solution being graded."""

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from minigrad.working_folder import RUNNER, module_run, restart_command

ROOT = str(Path(__file__).resolve().parent.parent)
PY = "/usr/bin/python3"
SHADOWS = {                                  # imported by the commands after start-up
    "shlex.py": "MARK",
    "tempfile.py": "MARK",
    "argparse.py": "MARK",
    "numpy.py": "MARK",
}


@pytest.mark.parametrize("argv,expected", [
    ([PY, "-m", "seq2seq", "train"], (1, "seq2seq")),
    ([PY, "-mminigrad.grade", "gru_cell", "f.py"], (1, "minigrad.grade")),
    ([PY, "-X", "dev", "-W", "error", "-u", "-m", "attention", "demo"], (6, "attention")),
    ([PY, "-m", "pytest", "-q"], None),                 # not one of the project's modules
    ([PY, "script.py", "-m", "seq2seq"], None),         # a script's own arguments
    ([PY, "-c", "pass", "-m", "seq2seq"], None),
    ([PY], None),
])
def test_the_projects_modules_run_with_dash_m_are_recognised(argv, expected):
    assert module_run(argv) == expected


def test_the_restart_keeps_the_options_and_arguments_and_takes_the_folder_off():
    argv = [PY, "-X", "dev", "-m", "seq2seq", "evaluate", "."]
    command = restart_command(argv, ["/runs/theirs", "/usr/lib/python3.11"], "/runs/theirs",
                              "/home/me/minigrad-clone")
    assert command == [sys.executable, "-X", "dev", "-c",
                       RUNNER.format(keep="", module="seq2seq"), "evaluate", "."]
    # in a clone used without installing it, the clone goes last: the project is found
    kept = restart_command(argv, ["/clone", "/usr/lib"], "/clone", "/clone")
    assert "sys.path.append(os.getcwd())" in kept[4]
    # nothing to do when the folder is not in front (python -P, or after the restart)
    assert restart_command(argv, ["/usr/lib/python3.11"], "/runs/theirs", "/clone") is None
    assert restart_command([PY, "-c", "x"], ["", "/usr/lib"], "/runs/theirs", "/clone") is None


def shadowed_folder(tmp_path, mark):
    folder = tmp_path / "theirs"
    folder.mkdir()
    for name in SHADOWS:
        (folder / name).write_text(f"open({str(mark)!r}, 'a').write({name!r} + '\\n')\n"
                                   f"raise ImportError('not the real one')\n")
    return folder


def run(folder, *args):
    env = dict(os.environ, PYTHONPATH=ROOT)
    return subprocess.run([sys.executable, *args], cwd=folder, env=env, capture_output=True,
                          text=True, timeout=300)


@pytest.mark.skipif(os.name != "posix", reason="the restart is POSIX's os.execv")
def test_a_module_in_the_working_folder_does_not_run_in_a_command(tmp_path):
    mark = tmp_path / "ran.txt"
    folder = shadowed_folder(tmp_path, mark)
    done = run(folder, "-m", "seq2seq", "train", "--help")
    assert done.returncode == 0 and "usage: python -m seq2seq train" in done.stdout
    done = run(folder, "-m", "attention", "--help")
    assert done.returncode == 0, done.stderr
    assert not mark.exists(), mark.read_text()
    # the same folder does shadow a plain `python -c`, so the modules there would have run
    done = run(folder, "-c", "import shlex")
    assert done.returncode == 1 and mark.read_text() == "shlex.py\n"


@pytest.mark.skipif(os.name != "posix", reason="the restart is POSIX's os.execv")
def test_a_module_beside_a_solution_graded_from_its_folder_cannot_change_the_verdict(tmp_path):
    folder = tmp_path / "solution"
    folder.mkdir()
    (folder / "zero.py").write_text("def gru_cell(x, h, *weights):\n    return h * 0\n")
    (folder / "tempfile.py").write_text(textwrap.dedent("""
        import importlib.util, sys, sysconfig
        spec = importlib.util.spec_from_file_location(
            "tempfile", sysconfig.get_paths()["stdlib"] + "/tempfile.py")
        real = importlib.util.module_from_spec(spec)
        sys.modules["tempfile"] = real
        spec.loader.exec_module(real)
        import minigrad.grade.grader as grader
        grader.compare_arrays = grader.difference = lambda *a, **k: None
    """))
    done = run(folder, "-m", "minigrad.grade", "gru_cell", "zero.py")
    assert done.returncode == 1 and "passed" not in done.stdout
    assert "gru_cell: the output h_new is wrong" in done.stdout + done.stderr


def test_the_child_processes_of_a_command_do_not_import_from_the_working_folder(tmp_path,
                                                                               monkeypatch):
    """`train --rnn` checks the layer in a `python -c` child, and drawing with pygraphviz runs
    one: `python -c` puts the working folder first too."""
    from minigrad.viz.render import render_bytes

    from test_seq2seq_rnn import REFERENCE, TINY
    mark = tmp_path / "ran.txt"
    folder = shadowed_folder(tmp_path, mark)
    shutil.copy(REFERENCE, folder / "my_gru.py")
    done = run(folder, "-m", "seq2seq", "train", *TINY, "--rnn", "my_gru.py:GRU",
               "--out", str(tmp_path / "run"))
    assert done.returncode == 0, done.stderr
    monkeypatch.chdir(folder)
    assert render_bytes("digraph { a -> b }", "svg", "pygraphviz").startswith(b"<?xml")
    assert not mark.exists(), mark.read_text()
