"""The end of the GRU exercise (docs/coursework.md, "Now train your GRU in the translator"): the
command the tutorial gives, run on the reference GRU, learns to reverse digit strings, and the
run it writes is one that evaluate, translate and draw can use.

The command is read from the tutorial, so the tutorial's command is the one this test runs."""

import json
import shlex
from pathlib import Path

from seq2seq.commands.cli import main
from tests.reference import minigrad_reference as reference

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = Path(reference.__file__).resolve()


def tutorial_command():
    """The `python -m seq2seq train ... --rnn my_gru.py:GRU ...` line of docs/coursework.md,
    as arguments (its backslash-continued lines joined)."""
    text = (ROOT / "docs" / "coursework.md").read_text(encoding="utf-8").replace("\\\n", " ")
    [line] = [line for line in text.splitlines()
              if line.startswith("$ python -m seq2seq train") and "--rnn my_gru.py:GRU" in line]
    return shlex.split(line)[4:]                        # after "$ python -m seq2seq"


def test_the_reference_gru_learns_to_reverse_in_the_translator(tmp_path, capsys):
    argv = tutorial_command()
    assert argv[0] == "train"
    argv[argv.index("--rnn") + 1] = f"{REFERENCE}:GRU"
    argv[argv.index("--out") + 1] = str(tmp_path / "my-gru")
    assert main([*argv, "--no-progress"]) == 0
    capsys.readouterr()

    assert main(["evaluate", str(tmp_path / "my-gru"), "--json"]) == 0
    scores = json.loads(capsys.readouterr().out)
    assert scores["seen_in_training"] == 0 and scores["examples"] >= 250
    assert scores["exact_match"] >= 0.95

    assert main(["translate", str(tmp_path / "my-gru"), "1234567"]) == 0
    printed = capsys.readouterr().out.splitlines()
    shown = tutorial_output("translate runs/my-gru 1234567")
    assert printed[0] == "7654321" and len(printed) == len(shown)
    for line, line_shown in zip(printed, shown):
        if line.startswith("<eos>"):            # where the end looks is less settled: any shades
            assert line_shown.startswith("<eos> │")
        else:
            assert line == line_shown


def tutorial_output(command):
    """The lines the tutorial shows under `$ python -m seq2seq COMMAND`, up to the next `$`."""
    text = (ROOT / "docs" / "coursework.md").read_text(encoding="utf-8")
    after = text.split(f"$ python -m seq2seq {command}\n", 1)[1]
    return after.split("\n$ ", 1)[0].splitlines()
