"""An experiment run again with other settings (other seeds) over its earlier run replaces it:
the folder then holds exactly the new run (and the user's own files); the results are named
where they end up; a model folder inside an experiment folder whose swap was stopped is refused
in one line, rather than read half swapped."""

import shutil

import pytest

from seq2seq.commands.cli import main

from test_runs import one_error_line

POSITIONS = ["compare-positions", "--epochs", "1", "--num-examples", "120", "--max-len", "5",
             "--test-max-len", "7", "--longer-examples", "20"]


def positions(out, seed, *more):
    return main([*POSITIONS, "--seeds", str(seed), "--out", str(out), *more])


@pytest.mark.parametrize("overwrite", [[], ["--overwrite"]])
def test_compare_positions_with_other_seeds_replaces_the_earlier_run_whole(tmp_path, capsys,
                                                                          overwrite):
    out = tmp_path / "out"
    assert positions(out, 0) == 0
    mine = ["notes.txt"] if overwrite else []       # without --overwrite, refused
    for name in mine:
        (out / name).write_text("mine")
    capsys.readouterr()
    assert positions(out, 1, *overwrite) == 0, capsys.readouterr().err
    said = capsys.readouterr()
    assert sorted(p.name for p in out.iterdir()) == sorted([
        ".lock", "compare-positions.json", "learned-1", "sinusoidal-1", *mine])
    assert all((out / name).read_text() == "mine" for name in mine)
    lines = (said.out + said.err).splitlines()
    assert lines[-1] == f"written to {out}/compare-positions.json", lines[-3:]
    assert ".next" not in said.out + said.err
    assert positions(out, 2, *overwrite) == 0, capsys.readouterr().err   # nor later runs
    assert sorted(p.name for p in out.iterdir()) == sorted([
        ".lock", "compare-positions.json", "learned-2", "sinusoidal-2", *mine])


@pytest.mark.parametrize("command", [["evaluate"], ["translate", "1 2"], ["draw"],
                                     ["explore"]])
def test_a_model_of_an_experiment_with_an_unfinished_swap_is_refused_in_one_line(
        tmp_path, capsys, command):
    out = tmp_path / "out"
    assert positions(out, 0) == 0
    shutil.copytree(out / "learned-0", out / ".next" / "learned-0")     # a swap stopped
    shutil.copy(out / "compare-positions.json", out / ".next")
    (out / ".next" / ".ready").write_text("[]")
    capsys.readouterr()
    assert main([command[0], str(out / "learned-0"), *command[1:]]) == 1
    err = one_error_line(capsys)
    assert f"{out} holds an unfinished swap of a compare-positions run" in err, err
    assert "run the same command again" in err, err


def test_compare_architectures_on_fewer_tasks_replaces_the_earlier_run_whole(tmp_path, capsys):
    out = tmp_path / "out"
    tiny = ["compare-architectures", "--updates", "3", "--num-examples", "60", "--out", str(out)]
    assert main([*tiny, "--tasks", "reverse,copy"]) == 0
    assert (out / "copy-lstm").is_dir()
    capsys.readouterr()
    assert main([*tiny, "--tasks", "reverse"]) == 0, capsys.readouterr().err
    said = capsys.readouterr()
    assert sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) == [
        "compare-architectures.json", "reverse-lstm", "reverse-transformer"]
    assert (said.out + said.err).splitlines()[-1] == (
        f"written to {out}/compare-architectures.json")
