"""A forged checkpoint cannot make a loading command run a file from another folder.

The attacks: a checkpoint whose 'rnn' record names a copy of the layer file elsewhere (same
bytes, same hash) beside a hostile module it imports, and a run folder whose copy of the layer
file is a symlink to such a file. Loading runs only the run folder's own regular copy (or a file
named with --rnn-file), with the layer's folder after the standard library on sys.path."""

import shutil
import sys

import pytest

import minigrad
from seq2seq.commands import rnn_file
from seq2seq.commands.cli import main
from tests.reference import minigrad_reference as reference

TINY = ["--task", "reverse", "--num-examples", "40", "--min-len", "3", "--max-len", "5",
        "--epochs", "1", "--embed-size", "4", "--hidden-size", "8", "--no-progress"]
LAYER = ("from tests.reference.minigrad_reference import GRU as _G\n"
         "from mycell import tag  # noqa: F401\n"
         "\n\nclass GRU(_G):\n    pass\n")
HOSTILE = "print('PWNED')\ntag = 'evil'\n"


@pytest.fixture
def mine_run(tmp_path, capsys, forget_layer_modules):
    """A run trained with mine/my_gru.py, which imports mine/mycell.py; and an attacker's
    folder holding the same my_gru.py beside a mycell.py that prints PWNED."""
    mine, evil = tmp_path / "mine", tmp_path / "evil"
    for folder, cell in ((mine, "tag = 'mine'\n"), (evil, HOSTILE)):
        folder.mkdir()
        (folder / "my_gru.py").write_text(LAYER)
        (folder / "mycell.py").write_text(cell)
    out = tmp_path / "run"
    forget_layer_modules("mycell")              # another test's mycell may still be loaded
    assert main(["train", *TINY, "--rnn", f"{mine / 'my_gru.py'}:GRU", "--out", str(out)]) == 0
    capsys.readouterr()
    forget_layer_modules("mycell")
    return out, mine, evil


def forge_record(out, evil):
    state = minigrad.load(out / "checkpoint.npz")
    state["rnn"]["file"] = str(evil / "my_gru.py")
    minigrad.save(state, out / "checkpoint.npz")


def link_copy(out, evil):
    (copy,) = out.glob("my_gru-*.py")
    copy.unlink()
    copy.symlink_to(evil / "my_gru.py")


COMMANDS = [["evaluate", "{run}"], ["translate", "{run}", "12"],
            ["draw", "{run}", "--out", "{tmp}/x.svg"],
            ["explore", "{run}", "--out", "{tmp}/x.html"],
            ["train", "--out", "{run}", "--resume", "--epochs", "2", "--no-progress"]]


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("attack", [forge_record, link_copy])
def test_a_forged_record_or_a_symlinked_copy_never_runs_the_attackers_folder(
        mine_run, tmp_path, capsys, monkeypatch, attack, command):
    out, mine, evil = mine_run
    attack(out, evil)
    assert main([a.format(run=out, tmp=tmp_path) for a in command]) == 1
    printed, err = capsys.readouterr()
    assert "PWNED" not in printed + err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert str(evil) not in sys.path and str(out) not in sys.path


def test_a_symlinked_copy_is_refused_saying_it_must_be_a_regular_file(mine_run, capsys):
    out, mine, evil = mine_run
    link_copy(out, evil)
    with pytest.raises(rnn_file.RnnFileError, match="a symbolic link"):
        rnn_file.class_of(minigrad.load(out / "checkpoint.npz")["rnn"], out / "checkpoint.npz")


def test_a_layer_with_a_module_beside_it_loads_when_named_with_rnn_file(
        mine_run, tmp_path, capsys):
    out, mine, evil = mine_run
    forge_record(out, evil)                     # the record is ignored: the named file runs
    assert main(["translate", str(out), "12", "--rnn-file", str(mine / "my_gru.py")]) == 0
    assert "PWNED" not in "".join(capsys.readouterr())


def test_a_layer_folder_cannot_shadow_a_module_of_the_standard_library(
        tmp_path, capsys, forget_layer_modules):
    mine = tmp_path / "mine"
    mine.mkdir()
    shutil.copy(reference.__file__, mine / "my_gru.py")
    (mine / "my_gru.py").write_text((mine / "my_gru.py").read_text() + "\nimport statistics\n")
    (mine / "statistics.py").write_text(HOSTILE)
    forget_layer_modules("statistics")
    assert main(["train", *TINY, "--rnn", f"{mine / 'my_gru.py'}:GRU",
                 "--out", str(tmp_path / "run")]) == 0
    assert "PWNED" not in "".join(capsys.readouterr())
    assert sys.modules["statistics"].__file__ != str(mine / "statistics.py")


def plant_in_run_folder(out, evil):
    """A module the layer imports, put in the run folder beside its copy."""
    (out / "mycell.py").write_text(HOSTILE)


def plant_compiled_in_run_folder(out, evil):
    """The same as a compiled module with no source: Python imports a lone .pyc too."""
    import py_compile
    py_compile.compile(str(evil / "mycell.py"), cfile=str(out / "mycell.pyc"))


@pytest.mark.parametrize("plant", [plant_in_run_folder, plant_compiled_in_run_folder])
def test_a_module_planted_beside_the_runs_copy_is_never_imported(
        mine_run, capsys, monkeypatch, plant):
    """The copy runs on its own: its imports do not search the run folder, which holds what
    anyone who had the folder put there."""
    out, mine, evil = mine_run
    plant(out, evil)
    assert main(["evaluate", str(out)]) == 1
    printed, err = capsys.readouterr()
    assert "PWNED" not in printed + err
    assert "No module named 'mycell'" in err and "--rnn-file" in err


def test_a_recorded_path_too_long_for_a_file_is_one_short_line(mine_run, capsys):
    out, mine, evil = mine_run
    state = minigrad.load(out / "checkpoint.npz")
    state["rnn"]["file"] = "/tmp/" + "a" * 100_000 + "\x1b[31m.py"
    minigrad.save(state, out / "checkpoint.npz")
    assert main(["evaluate", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and len(err) < 600 and "\x1b" not in err
    assert "its 'rnn' entry should be a record of the layer's file" in err
