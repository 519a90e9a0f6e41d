"""A Transformer run's checkpoint with one entry deleted: every command that loads it answers in
one line naming the file and the entry that is missing. A config without `arch` was blamed as
"config.arch should be 'transformer', found 'lstm'" (the default of older runs stood in for the
missing value); a model_config without `d_model` as "config.arch should be 'lstm'" (it was taken
for an LSTM's); one without `heads` by a list of every setting to compare by eye."""

import pytest

from seq2seq.commands.cli import main

from conftest import changed_run as changed

DELETED = [("config", "arch"), ("model_config", "d_model"), ("model_config", "heads"),
           ("model_config", "layers"), ("model_config", "norm"),
           ("model_config", "padding_idx"), ("model_config", "src_vocab_size")]
COMMANDS = {"evaluate": ["evaluate", "{run}"],
            "translate": ["translate", "{run}", "123"],
            "resume": ["train", "--resume", "--out", "{run}", "--epochs", "2", "--no-progress"],
            "explore": ["explore", "{run}", "--out", "{run}/page.html"]}


def without(entry, name):
    def change(state):
        del state[entry][name]
    return change


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("entry, name", DELETED)
def test_a_deleted_entry_is_named_by_every_command_in_one_line(transformer_run, tmp_path,
                                                               capsys, entry, name, command):
    folder = changed(transformer_run, tmp_path, without(entry, name))
    assert main([arg.format(run=folder) for arg in COMMANDS[command]]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert str(folder / "checkpoint.npz") in err
    assert f"no '{entry}.{name}' entry" in err, err
    assert "should be 'lstm'" not in err and "found 'lstm'" not in err


def test_an_lstm_runs_config_without_arch_still_loads_as_an_older_runs(smallest_run, tmp_path,
                                                                         capsys):
    folder = changed(smallest_run, tmp_path, without("config", "arch"))
    assert main(["translate", str(folder), "12"]) == 0, capsys.readouterr().err
