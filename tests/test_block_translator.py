"""The end of the encoder-block exercise (docs/coursework.md, "Now train your block in the
translator"): the command the tutorial gives, run on the reference block, learns to reverse
digit strings as the page says, and the run it writes translates.

The command is read from the tutorial, so the tutorial's command is the one this test runs."""

import json
import shlex
from pathlib import Path

import pytest

from seq2seq.commands.cli import main
from tests.reference import attention_reference as reference

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = Path(reference.__file__).resolve()


def tutorial_command():
    """The `python -m seq2seq train ... --block my_block.py:Block ...` line of
    docs/coursework.md, as arguments (its backslash-continued lines joined)."""
    text = (ROOT / "docs" / "coursework.md").read_text(encoding="utf-8").replace("\\\n", " ")
    [line] = [line for line in text.splitlines()
              if line.startswith("$ python -m seq2seq train") and "--block my_block.py:Block"
              in line]
    return shlex.split(line)[4:]                        # after "$ python -m seq2seq"


@pytest.mark.slow
@pytest.mark.usefixtures("forget_layer_modules")    # as the command's own process starts
def test_the_reference_block_learns_to_reverse_in_the_translator(tmp_path, capsys):
    argv = tutorial_command()
    assert argv[:3] == ["train", "--arch", "transformer"]
    argv[argv.index("--block") + 1] = f"{REFERENCE}:Block"
    argv[argv.index("--out") + 1] = str(tmp_path / "my-block")
    assert main([*argv, "--no-progress"]) == 0
    capsys.readouterr()

    assert main(["evaluate", str(tmp_path / "my-block"), "--json"]) == 0
    scores = json.loads(capsys.readouterr().out)
    assert scores["seen_in_training"] == 0 and scores["examples"] >= 250
    assert scores["exact_match"] >= 0.98                # the page: 98 % or more

    assert main(["translate", str(tmp_path / "my-block"), "1234567"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "7654321"
