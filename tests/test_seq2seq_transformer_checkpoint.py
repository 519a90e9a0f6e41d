"""A Transformer run's checkpoint edited by hand: what would load silently and misbehave (another
divisor of d_model as heads, an arch label that is not the model's, positions shorter than the
run trained on, a sinusoidal table of any length) is one line naming the checkpoint and the
entry; and `train --resume` blames the option typed, not the checkpoint."""


import pytest

from seq2seq.commands.cli import main
from seq2seq.commands.settings import MAX_STEP

from conftest import changed_run as changed


def one_error_line(capsys):
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


def sinusoidal(state, max_len):
    for side in ("encoder", "decoder"):
        del state["model"][f"{side}.embedding.positions.embedding.weight"]
    state["model_config"].update(positions="sinusoidal", max_len=max_len)
    state["config"].update(positions="sinusoidal")


COMMANDS = {"translate": lambda f: ["translate", str(f), "312"],
            "evaluate": lambda f: ["evaluate", str(f)],
            "draw": lambda f: ["draw", str(f), "--out", str(f / "d.svg")],
            "train --resume": lambda f: ["train", "--out", str(f), "--resume", "--epochs", "2",
                                         "--no-progress"]}


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize("change, entry, message", [
    (lambda s: s["model_config"].update(heads=4), "config.heads",
     "should be 4, as model_config says, found 2"),
    (lambda s: s["config"].update(arch="gru"), "config.arch",
     "should be one of 'lstm', 'transformer', found 'gru'"),
    (lambda s: s["config"].update(arch="lstm"), "config.arch",
     "should be 'transformer', the model model_config describes, found 'lstm'"),
    (lambda s: [s["model"].update({f"{side}.embedding.positions.embedding.weight":
                                   s["model"][f"{side}.embedding.positions.embedding.weight"][:5]
                                   for side in ("encoder", "decoder")}),
                s["model_config"].update(max_len=5)], "model_config",
     "max_len 5 is shorter than the run trained on"),
    (lambda s: sinusoidal(s, 3), "model_config", "max_len 3 is shorter than the run trained on"),
    (lambda s: sinusoidal(s, 10 ** 6), "model_config",
     f"max_len must be at most {MAX_STEP + 1} with sinusoidal positions"),
])
def test_a_hand_edited_transformer_checkpoint_is_refused_naming_the_file_and_entry(
        transformer_run, tmp_path, capsys, change, entry, message, command):
    folder = changed(transformer_run, tmp_path, change)
    assert main(COMMANDS[command](folder)) == 1
    line = one_error_line(capsys)
    assert line.startswith(f"error: {folder / 'checkpoint.npz'}: "), line
    assert f"its {entry!r} entry" in line and message in line, line
    assert "--arch" not in line


def test_the_sinusoidal_max_len_training_writes_loads(transformer_run, tmp_path, capsys):
    folder = changed(transformer_run, tmp_path, lambda s: sinusoidal(s, MAX_STEP + 1))
    assert main(["translate", str(folder), "312"]) == 0


@pytest.mark.parametrize("option, message", [
    (["--heads", "3"], "cannot resume {out} with other settings than its model was trained "
                       "with: --heads 3 (saved: 2)"),
    (["--arch", "lstm"], "cannot resume {out} with other settings than its model was trained "
                         "with: --arch lstm (saved: transformer)"),
    (["--bidirectional"], "--bidirectional applies to --arch lstm only"),
])
def test_resuming_with_an_option_the_run_cannot_take_blames_the_option(
        transformer_run, tmp_path, capsys, option, message):
    folder = changed(transformer_run, tmp_path, lambda state: None)
    assert main(["train", "--out", str(folder), "--resume", "--epochs", "2", "--no-progress",
                 *option]) == 1
    line = one_error_line(capsys)
    assert message.format(out=folder) in line and "checkpoint.npz" not in line, line
