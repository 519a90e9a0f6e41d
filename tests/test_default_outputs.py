"""A command that writes a file, run without --out, writes it under runs/ (made if missing), as
the README says of everything the commands make; never into the folder it is run from. Its help
names that default. A folder the user names with --out must still exist."""

import os

import pytest

from minigrad.viz.__main__ import main as viz_main
from attention.__main__ import main as attention_main
from seq2seq.commands.cli import main as seq2seq_main

COMMANDS = [                       # (main, arguments, the files it writes by default)
    (attention_main, ["draw"], ["attention-step.svg", "attention-step.dot"]),
    (attention_main, ["explore"], ["attention-step.html"]),
    (attention_main, ["scaling"], ["scaling.png"]),
    (viz_main, ["lstm-cell"], ["lstm-cell.svg", "lstm-cell.dot"]),
    (viz_main, ["explore", "lstm-cell"], ["lstm-cell.html"]),
    (seq2seq_main, ["draw", "RUN", "--sentence", "3 1 4"], ["decoder-step.svg",
                                                           "decoder-step.dot"]),
    (seq2seq_main, ["explore", "RUN", "--sentence", "3 1 4"], ["decoder-step.html"]),
]


def command_id(command):
    main, arguments, _ = command
    return f"{main.__module__.split('.')[0]} {' '.join(arguments[:2])}"


@pytest.mark.parametrize("main, arguments, names", COMMANDS, ids=map(command_id, COMMANDS))
def test_without_out_the_file_goes_under_runs_made_if_missing(main, arguments, names, tiny_run,
                                                              tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    arguments = [str(tiny_run) if a == "RUN" else a for a in arguments]
    assert main(arguments) == 0
    assert os.listdir(tmp_path) == ["runs"]                 # nothing in the folder run from
    assert sorted(os.listdir(tmp_path / "runs")) == sorted(names)
    assert f"runs/{names[0]}" in capsys.readouterr().out


def test_without_out_a_second_run_is_refused_naming_the_default(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert attention_main(["explore"]) == 0
    capsys.readouterr()
    assert attention_main(["explore"]) == 1
    assert capsys.readouterr().err == ("error: runs/attention-step.html exists; pass --overwrite "
                                       "to replace it\n")


def test_a_step_refused_makes_no_runs_folder(tiny_run, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert seq2seq_main(["draw", str(tiny_run), "--sentence", "3 1 4", "--collapse", "nope"]) == 1
    assert "--collapse names no scope 'nope'" in capsys.readouterr().err
    assert os.listdir(tmp_path) == []


def test_a_named_out_in_a_missing_folder_is_still_refused(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert viz_main(["explore", "lstm-cell", "--out", "runs/cell.html"]) == 1
    assert "mkdir -p runs" in capsys.readouterr().err
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("main, arguments, names", COMMANDS, ids=map(command_id, COMMANDS))
def test_the_help_names_the_default(main, arguments, names, capsys):
    with pytest.raises(SystemExit):
        main([*[a for a in arguments[:2] if a != "RUN"], "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert f"(default: runs/{names[0]})" in help_text
