"""An exception raised inside a --rnn layer's code after it passed its checks (in training, or
in a later command) is one line naming the layer's file and line, as a sys.exit() there is."""

import re
import shutil

import pytest

from seq2seq.commands.cli import main
from tests.reference import minigrad_reference as reference

TINY = ["--task", "reverse", "--num-examples", "40", "--min-len", "3", "--max-len", "5",
        "--epochs", "1", "--embed-size", "4", "--hidden-size", "8", "--no-progress"]
LATE = '''

_calls = [0]


class LateGRU(GRU):
    def cell(self, x, state):
        _calls[0] += 1
        if _calls[0] > 20:                      # past the contract's checks: in training
            raise {error}("boom late")
        return super().cell(x, state)
'''


def late_layer(tmp_path, error):
    path = tmp_path / "late_gru.py"
    shutil.copy(reference.__file__, path)
    path.write_text(path.read_text() + LATE.format(error=error))
    raising = next(n for n, line in enumerate(path.read_text().splitlines(), 1)
                   if "boom late" in line)
    return path, raising


@pytest.fixture(autouse=True)
def fresh_layer_modules(forget_layer_modules, monkeypatch):
    """Each test runs its layer file afresh, its call counter at 0."""
    monkeypatch.delenv("MINIGRAD_DEBUG", raising=False)


@pytest.mark.parametrize("error", ["ValueError", "RuntimeError", "ZeroDivisionError"])
def test_an_error_raised_late_in_a_layers_code_names_its_file_and_line(tmp_path, capsys, error):
    path, raising = late_layer(tmp_path, error)
    status = main(["train", *TINY, "--rnn", f"{path}:LateGRU", "--out", str(tmp_path / "run")])
    err = capsys.readouterr().err
    assert status == 1 and len(err.strip().splitlines()) == 1, err
    assert err == (f"error: the --rnn layer's code, {path.resolve()}, line {raising}, raised "
                   f"{error}: boom late\n")


def test_debug_still_shows_the_layers_own_exception(tmp_path):
    path, _ = late_layer(tmp_path, "ValueError")
    with pytest.raises(ValueError, match="^boom late$"):
        main(["train", "--debug", *TINY, "--rnn", f"{path}:LateGRU", "--out",
              str(tmp_path / "run")])


def test_a_keyboard_interrupt_from_a_layer_reads_as_ctrl_c_which_may_land_there_too(
        tmp_path, capsys):
    """A real Ctrl-C interrupts whatever line runs, most often the layer's cell in training:
    the two cannot be told apart, so both are `interrupted`, status 130."""
    path, _ = late_layer(tmp_path, "KeyboardInterrupt")
    assert main(["train", *TINY, "--rnn", f"{path}:LateGRU", "--out",
                 str(tmp_path / "run")]) == 130
    assert capsys.readouterr().err == "interrupted\n"


SHRINKS = '''

_calls = [0]


class ShrinkingGRU(GRU):
    def cell(self, x, state):
        _calls[0] += 1
        h = super().cell(x, state)
        return h[:, :-1] if _calls[0] > 40 else h       # past the contract's checks
'''


def test_a_state_that_goes_wrong_late_in_training_is_named_with_the_layer_and_the_shapes(
        tmp_path, capsys):
    path = tmp_path / "shrinking_gru.py"
    shutil.copy(reference.__file__, path)
    path.write_text(path.read_text() + SHRINKS)
    status = main(["train", *TINY, "--rnn", f"{path}:ShrinkingGRU", "--out",
                   str(tmp_path / "run")])
    err = capsys.readouterr().err
    assert status == 1 and len(err.strip().splitlines()) == 1, err
    assert re.fullmatch(r"error: ShrinkingGRU: at (time step \d+|a decoder step), cell\(x, "
                        r"state\) returned h \(\d+, 7\) float32, but the state it was given has "
                        r"h \(\d+, 8\) float32: a step keeps the state's shape \(batch, "
                        r"hidden_size\) and dtype\n", err), err
