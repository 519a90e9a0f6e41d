"""A run's saved settings that no run could have saved are blamed on the checkpoint's entry
they come from, never on an option the user did not write: config.level against the level the
checkpoint records, config.sep (on a built-in task, or one that splits no line of the run's
pairs file), and the recorded validation pairs (a source the model cannot take, a split that
is not the run's). Each is one line; an option written on the command line is still named as
such."""

import shutil

import pytest

import minigrad
from seq2seq.commands.cli import main

WORDS = ["abc", "bcd", "cde", "def", "efg", "fgh", "ghi", "hij", "ijk", "jkl", "klm", "lmn"]
TINY = ["--embed-size", "4", "--hidden-size", "8", "--no-progress"]


@pytest.fixture(scope="module")
def file_run(tmp_path_factory):
    """A one-epoch run on a pairs file (tab-separated, 36 pairs, 3 held out)."""
    folder = tmp_path_factory.mktemp("blame")
    corpus = folder / "pairs.tsv"
    corpus.write_text("".join(f"{w}\t{w[::-1]}\n" for w in WORDS * 3), encoding="utf-8")
    out = folder / "run"
    assert main(["train", "--task", str(corpus), "--epochs", "1", *TINY, "--out", str(out)]) == 0
    return out


def changed(run, tmp_path, config=None, state=None, val_pairs=None):
    """A copy of `run` whose checkpoint has `config` put in its config, `state` in itself, and
    `val_pairs` as its recorded validation pairs."""
    folder = tmp_path / "changed"
    shutil.copytree(run, folder)
    saved = minigrad.load(folder / "checkpoint.npz")
    saved["config"].update(config or {})
    saved.update(state or {})
    if val_pairs is not None:
        saved["split"]["val_pairs"] = val_pairs
    minigrad.save(saved, folder / "checkpoint.npz")
    return folder


def error_line(argv, capsys):
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    return err


def resume(folder, *options):
    return ["train", "--out", str(folder), "--resume", "--epochs", "2", "--no-progress", *options]


@pytest.mark.parametrize("command", ["evaluate", "resume"])
def test_a_saved_level_other_than_the_checkpoints_names_config_level(file_run, tmp_path, capsys,
                                                                      command):
    folder = changed(file_run, tmp_path, {"level": "word"})
    err = error_line(["evaluate", str(folder)] if command == "evaluate" else resume(folder),
                     capsys)
    assert "its 'config.level' entry should be 'char', as its 'level' entry says" in err, err
    assert "--level" not in err


def test_a_level_written_on_the_command_line_is_still_named_as_the_option(file_run, tmp_path,
                                                                          capsys):
    folder = changed(file_run, tmp_path)
    err = error_line(resume(folder, "--level", "word"), capsys)
    assert "--level word (saved: char)" in err


@pytest.mark.parametrize("name, value, expected", [
    ("sep", ",", "'\\t', the default: the built-in task reverse reads no pairs file"),
    ("columns", "2,1", "None: the built-in task reverse reads no pairs file"),
])
@pytest.mark.parametrize("command", ["evaluate", "resume"])
def test_a_pairs_setting_saved_with_a_built_in_task_names_the_entry(smallest_run, tmp_path, capsys,
                                                                    command, name, value,
                                                                    expected):
    folder = changed(smallest_run, tmp_path, {name: value})
    err = error_line(["evaluate", str(folder)] if command == "evaluate" else resume(folder),
                     capsys)
    assert f"its 'config.{name}' entry should be {expected}" in err, err
    assert "--sep" not in err and "--columns" not in err


def test_a_saved_sep_that_splits_no_line_of_the_pairs_file_names_config_sep(file_run, tmp_path,
                                                                            capsys):
    folder = changed(file_run, tmp_path, {"sep": ","})
    err = error_line(resume(folder), capsys)
    assert err.startswith(f"error: {folder / 'checkpoint.npz'}: its 'config.sep' entry, ',', "
                          f"does not read the run's pairs file: "), err
    assert "pairs.tsv:1: expected 'source,target', found no ','" in err
    assert "--sep" not in err


def test_a_sep_written_on_the_command_line_is_still_named_as_the_option(tmp_path, capsys):
    corpus = tmp_path / "pairs.tsv"
    corpus.write_text("".join(f"{w}\t{w[::-1]}\n" for w in WORDS * 3), encoding="utf-8")
    err = error_line(["train", "--task", str(corpus), "--sep", ",", "--epochs", "1", *TINY,
                      "--out", str(tmp_path / "run")], capsys)
    assert "found no ','" in err and "give it with --sep" in err


@pytest.mark.parametrize("source, problem", [
    ("x" * 3000, "has 3000 tokens (char level); translate takes at most 1000"),
    ("", "is empty: there is nothing to translate"),
])
def test_a_recorded_validation_source_the_model_cannot_take_names_its_entry(
        file_run, tmp_path, capsys, source, problem):
    folder = changed(file_run, tmp_path, val_pairs=[[source, "y"], ["abc", "cba"], ["a", "b"]])
    state = minigrad.load(folder / "checkpoint.npz")
    err = error_line(["evaluate", str(folder)], capsys)
    assert err == (f"error: {folder / 'checkpoint.npz'}: its 'split.val_pairs[0]' entry: the "
                   f"validation source {problem}\n"), err
    assert "x" * 20 not in err and len(state["split"]["val_pairs"]) == 3     # not quoted


def test_recorded_validation_pairs_that_are_not_the_runs_split_name_the_entry(file_run,
                                                                              tmp_path, capsys):
    state = minigrad.load(file_run / "checkpoint.npz")
    pairs = [list(pair) for pair in state["split"]["val_pairs"]]
    pairs[0] = ["zzz", "zzz"]
    folder = changed(file_run, tmp_path, val_pairs=pairs)
    err = error_line(resume(folder), capsys)
    assert "its 'split.val_pairs' entry is not the validation split" in err, err
    assert "--val-fraction" not in err and "--seed" not in err
