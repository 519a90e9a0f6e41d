"""The checkpoint's config entry is checked field by field before any command uses it: a value no
option could have given (of the wrong type, outside its choices, of the other model, or not what
model_config says) is one line naming the checkpoint and the entry, for evaluate, translate,
draw, explore and train --resume alike, and nothing is trained or rewritten. Real runs of both
models, and configs saved by older versions, still load."""

import shutil

import pytest

import minigrad
from seq2seq.commands.cli import main

TRANSFORMER = ["--task", "copy", "--num-examples", "60", "--epochs", "1", "--arch",
               "transformer", "--d-model", "8", "--heads", "2", "--d-ff", "16", "--layers", "1",
               "--batch-size", "16", "--no-progress"]


@pytest.fixture(scope="module")
def transformer_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("runs") / "transformer"
    assert main(["train", *TRANSFORMER, "--out", str(out)]) == 0
    return out


def changed(run, tmp_path, config=None, model_config=None, drop=()):
    """A copy of `run` whose checkpoint's config has `config` put in and `drop` taken out."""
    folder = tmp_path / "changed"
    shutil.copytree(run, folder)
    state = minigrad.load(folder / "checkpoint.npz")
    state["config"].update(config or {})
    state["model_config"].update(model_config or {})
    for name in drop:
        del state["config"][name]
    minigrad.save(state, folder / "checkpoint.npz")
    return folder


def command(name, folder, tmp_path=None):
    out = tmp_path / ("x.svg" if name == "draw" else "x.html") if tmp_path else None
    return {"evaluate": ["evaluate", str(folder)],
            "translate": ["translate", str(folder), "12"],
            "draw": ["draw", str(folder), "--out", str(out)],
            "explore": ["explore", str(folder), "--out", str(out)],
            "resume": ["train", "--out", str(folder), "--resume", "--epochs", "2",
                       "--no-progress"]}[name]


def refused(folder, argv, capsys):
    before = (folder / "checkpoint.npz").read_bytes()
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert err.startswith(f"error: {folder / 'checkpoint.npz'}: not a seq2seq checkpoint that "
                          "this version can load: "), err
    assert (folder / "checkpoint.npz").read_bytes() == before
    return err


LSTM_BAD = [
    ("fused", "yes", "true or false"), ("fused", 0, "true or false"),
    ("bidirectional", "yes", "true or false"), ("reverse_input", 1, "true or false"),
    ("resume", "x", "true or false"), ("overwrite", 7, "true or false"),
    ("progress", "x", "true or false"),
    ("arch", "gru", "one of 'lstm', 'transformer'"),
    ("sep", "", "a separator (not empty)"),
    ("columns", "0,0", "two column numbers from 1"),
    ("level", "foo", "one of 'char', 'word' or None"),
    ("attention", "bogus", "one of 'dot', 'general', 'additive', 'uniform' or None"),
    ("wiring", "x", "one of 'luong', 'bahdanau'"),
    ("out", 5, "a str"), ("task", None, "a str, not None"),
    ("task", "pairs\x1b[2J.tsv", "a str without control characters"),
    ("rnn", "my\rgru.py:GRU", "a str without control characters or None"),
    ("dropout", 0.1, "None: a Transformer's setting, and this run's arch is lstm"),
    ("heads", 2, "None: a Transformer's setting"), ("norm", "pre", "None: a Transformer's"),
    ("positions", "learned", "None: a Transformer's"), ("d_model", 8, "None: a Transformer's"),
    ("norm", "sideways", "one of 'pre', 'post' or None"),
    ("embed_size", 9, "4, as model_config says"),
    ("hidden_size", 16, "8, as model_config says"),
    ("attention", "general", "'dot', as model_config says"),
    ("bidirectional", True, "False, as model_config says"),
    ("min_len", 9, "no more than config.max_len (4)"),
    ("rnn", "gru", "FILE.py:CLASS or None"),
    ("rnn", "/elsewhere/evil.py:GRU", "None, as the checkpoint records no file"),
]


@pytest.mark.parametrize("name, value, expected", LSTM_BAD)
def test_a_saved_setting_no_option_could_give_is_refused_naming_the_entry(
        smallest_run, tmp_path, capsys, name, value, expected):
    folder = changed(smallest_run, tmp_path, {name: value})
    err = refused(folder, command("evaluate", folder), capsys)
    assert f"its 'config.{name}' entry should be {expected}" in err


@pytest.mark.parametrize("name", ["evaluate", "translate", "draw", "explore", "resume"])
def test_every_command_refuses_a_fused_saved_as_yes(smallest_run, tmp_path, capsys, name):
    """A resume used to train with it and save a checkpoint no command could load."""
    folder = changed(smallest_run, tmp_path, {"fused": "yes"})
    err = refused(folder, command(name, folder, tmp_path), capsys)
    assert "its 'config.fused' entry should be true or false, found 'yes' (str)" in err
    assert minigrad.load(folder / "checkpoint.npz", check=lambda state: None)["epochs"] == 1


@pytest.mark.parametrize("name, value", [("wiring", "x"), ("columns", "0,0"), ("sep", "")])
def test_a_resume_blames_a_bad_saved_value_on_the_checkpoint_not_an_option(
        smallest_run, tmp_path, capsys, name, value):
    folder = changed(smallest_run, tmp_path, {name: value})
    err = refused(folder, command("resume", folder), capsys)
    assert f"its 'config.{name}' entry should be " in err and "--" not in err.split(": its")[1]


@pytest.mark.parametrize("name, value, expected", [
    ("attention", "general", "'dot': an LSTM's setting, and this run's arch is transformer"),
    ("embed_size", 9, "16: an LSTM's setting"), ("fused", False, "True: an LSTM's setting"),
    ("heads", 4, "2, as model_config says"), ("norm", "post", "'pre', as model_config says"),
    ("dropout", 0.5, "0.0, as model_config says"), ("positions", "bogus", "one of"),
    ("arch", "lstm", "'transformer', the model model_config describes"),
    ("heads", 3, "a divisor of config.d_model (8)"),       # model_config says 3 as well
    ("warmup", 10 ** 30, "an integer in [0, 1000000000]"),  # NoamLR's own error, at resume only
])
def test_a_transformer_runs_saved_settings_are_held_to_what_such_a_run_saves(
        transformer_run, tmp_path, capsys, name, value, expected):
    both = {name: value} if (name, value) == ("heads", 3) else None
    folder = changed(transformer_run, tmp_path, {name: value}, model_config=both)
    err = refused(folder, command("resume", folder), capsys)
    assert f"its 'config.{name}' entry should be {expected}" in err


def test_real_runs_of_both_models_load_and_resume(smallest_run, composed_run, transformer_run,
                                                   tmp_path, capsys):
    for run in (smallest_run, composed_run):
        assert main(["evaluate", str(run)]) == 0
    folder = tmp_path / "t"
    shutil.copytree(transformer_run, folder)
    assert main(command("resume", folder)) == 0
    assert minigrad.load(folder / "checkpoint.npz")["epochs"] == 2


def test_a_config_saved_before_later_settings_existed_still_loads_and_resumes(
        smallest_run, tmp_path, capsys):
    older = ("arch", "columns", "label_smoothing", "rnn", "d_model", "heads", "layers", "d_ff",
             "dropout", "norm", "positions", "warmup")
    folder = changed(smallest_run, tmp_path, drop=older)
    assert main(["evaluate", str(folder)]) == 0
    assert main(command("resume", folder)) == 0


def test_an_unknown_saved_key_is_accepted_and_never_used(smallest_run, tmp_path, capsys):
    folder = changed(smallest_run, tmp_path, {"later_setting": "anything", "fused": True})
    assert main(["evaluate", str(folder)]) == 0
    assert main(command("resume", folder)) == 0
    assert "later_setting" not in minigrad.load(folder / "checkpoint.npz")["config"]


def test_a_fused_that_differs_from_model_configs_still_loads_and_resumes(
        smallest_run, tmp_path, capsys):
    """The fused and the composed LSTM hold the same weights: a run resumed with --composed
    rebuilds its model, and an older version saved such a run's model_config unchanged."""
    folder = changed(smallest_run, tmp_path, {"fused": False})
    assert minigrad.load(folder / "checkpoint.npz")["model_config"]["fused"] is True
    assert main(["evaluate", str(folder)]) == 0
    assert main(command("resume", folder)) == 0
    assert minigrad.load(folder / "checkpoint.npz")["model_config"]["fused"] is False
