"""Another recurrent layer in the seq2seq model: Seq2Seq(rnn=GRU) in Python, --rnn FILE.py:CLASS
on the command line; the bridge between encoder and decoder states; decoding; the checkpoint's
record of the layer's file, which later commands check before they run it."""

import json
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

import minigrad
from minigrad import nn
from minigrad.nn.recurrent import RecurrentLayerError
from seq2seq import Seq2Seq
from seq2seq.commands.cli import main
from seq2seq.data.batching import pad_sources, pad_targets
from seq2seq.models.decoding import beam_search, greedy
from seq2seq.models.recurrent import bridge
from seq2seq.models.rnn import Decoder, Encoder, run_steps
from tests.reference import minigrad_reference as reference
from tests.reference.minigrad_reference import GRU
from tests.test_explorer import page_data

PAD, BOS, EOS = 0, 1, 2
REFERENCE = Path(reference.__file__).resolve()
TINY = ["--task", "reverse", "--num-examples", "40", "--min-len", "3", "--max-len", "5",
        "--epochs", "1", "--embed-size", "4", "--hidden-size", "8", "--no-progress"]


def batch(rng):
    src = pad_sources([list(rng.integers(3, 9, n)) for n in (5, 3, 4)], PAD)
    tgt = pad_targets([[BOS] + list(rng.integers(3, 9, n)) + [EOS] for n in (4, 2, 3)], PAD)
    return src, tgt


def one_error_line(capsys):
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


# ---- the model in Python ------------------------------------------------------------------------

@pytest.mark.parametrize("attention, wiring", [(None, "luong"), ("dot", "luong"),
                                               ("additive", "bahdanau")])
def test_a_gru_model_has_gru_weights_and_teacher_forcing_equals_step_by_step(attention, wiring):
    minigrad.manual_seed(0)
    model = Seq2Seq(9, 9, embed_size=4, hidden_size=6, attention=attention, wiring=wiring,
                    bidirectional=True, rnn=GRU).double()
    names = dict(model.named_parameters())
    assert names["encoder.rnn.weight_hh_l0"].shape == (18, 6)         # 3H rows: r, z, n
    assert "encoder.rnn_reverse.weight_ih_l0" in names and "decoder.rnn.bias_hh_l0" in names
    src, tgt = batch(np.random.default_rng(0))
    fast, _ = model(src, tgt[:, :-1])
    enc, state, mask = model.encode(src)
    assert isinstance(state, minigrad.Tensor) and state.shape == (3, 6)   # a GRU's state: h
    slow, _ = run_steps(model.decoder, tgt[:, :-1], state, enc, mask)
    np.testing.assert_allclose(fast.data, slow.data, atol=1e-12)


def test_greedy_and_beam_search_decode_with_a_gru_and_a_beam_of_one_is_greedy():
    minigrad.manual_seed(1)
    model = Seq2Seq(9, 9, embed_size=4, hidden_size=6, rnn=GRU).eval()
    src, _ = batch(np.random.default_rng(1))
    ids, _ = greedy(model, src, BOS, EOS, max_len=6)
    for row in range(3):
        one = src[row:row + 1]
        assert beam_search(model, one, BOS, EOS, beam_size=1, max_len=6)[0] == ids[row]
        beam_ids, beam_weights = beam_search(model, one, BOS, EOS, beam_size=3, max_len=6)
        assert beam_weights.shape[1] == src.shape[1] and len(beam_ids) <= 6


def test_the_bridge_hands_each_state_part_to_the_part_of_the_same_name():
    lstm, gru = nn.LSTM(3, 4), GRU(3, 4)
    h, c = minigrad.Tensor(np.ones((2, 4))), minigrad.Tensor(np.full((2, 4), 2.0))
    assert bridge((h, c), lstm, gru) is h                               # c is left behind
    h2, c2 = bridge(h, gru, lstm)                                       # c starts at zeros
    assert h2 is h and np.all(c2.data == 0) and c2.shape == (2, 4)
    assert bridge((h, c), lstm, lstm) == (h, c) and bridge(h, gru, gru) is h


def test_an_lstm_encoder_and_a_gru_decoder_work_together():
    minigrad.manual_seed(2)
    encoder = Encoder(9, 4, 6, rnn=GRU)
    decoder = Decoder(9, 4, 6, rnn=nn.LSTM)
    src, tgt = batch(np.random.default_rng(2))
    _, state = encoder(src)
    logits, _ = decoder(tgt[:, :-1], bridge(state, encoder.rnn, decoder.rnn))
    assert logits.shape == (3, tgt.shape[1] - 1, 9)


def test_a_train_config_may_name_the_class_and_the_run_records_its_file():
    from seq2seq.commands.train import TrainConfig, build
    from seq2seq.data import tasks
    pairs = tasks.make_task("reverse", 20, seed=0, min_len=3, max_len=5)
    translator = build(TrainConfig(embed_size=4, hidden_size=6, rnn=GRU), pairs)
    assert translator.rnn_record["file"] == str(REFERENCE)
    assert translator.rnn_record["class"] == "GRU"
    assert type(translator.model.encoder.rnn).__name__ == "GRU"
    with pytest.raises(ValueError, match="must be defined at the top of a .py file"):
        build(TrainConfig(rnn=type("Local", (GRU,), {})), pairs)


def test_to_torch_refuses_a_model_whose_layer_torch_does_not_know():
    from seq2seq.to_torch import to_torch
    with pytest.raises(ValueError, match="converts a model of LSTMs; this one's recurrent layer "
                                         "is GRU"):
        to_torch(Seq2Seq(9, 9, embed_size=4, hidden_size=6, rnn=GRU))


def test_a_layer_that_takes_no_mask_is_refused_when_the_model_is_built():
    class NoMask(GRU):
        def forward(self, x, state=None):
            return super().forward(x, state)
    with pytest.raises(RecurrentLayerError, match="NoMask: forward takes no mask"):
        Seq2Seq(9, 9, embed_size=4, hidden_size=6, rnn=NoMask)


# ---- --rnn FILE.py:CLASS ------------------------------------------------------------------------

@pytest.fixture
def gru_file(tmp_path):
    path = tmp_path / "my_gru.py"
    shutil.copy(REFERENCE, path)
    return path


@pytest.fixture
def gru_run(tmp_path, gru_file, capsys):
    out = tmp_path / "run"
    assert main(["train", *TINY, "--rnn", f"{gru_file}:GRU", "--out", str(out)]) == 0
    capsys.readouterr()
    return out


def test_a_run_records_the_layers_file_and_hash_and_every_command_loads_it(gru_run, gru_file,
                                                                           tmp_path, capsys):
    state = minigrad.load(gru_run / "checkpoint.npz")
    assert state["rnn"]["file"] == str(gru_file.resolve()) and state["rnn"]["class"] == "GRU"
    assert len(state["rnn"]["sha256"]) == 64
    assert state["model"]["encoder.rnn.weight_hh_l0"].shape == (24, 8)
    assert main(["evaluate", str(gru_run), "--json"]) == 0
    assert 0 <= json.loads(capsys.readouterr().out)["exact_match"] <= 1
    assert main(["translate", str(gru_run), "123", "--beam-size", "2"]) == 0
    assert main(["draw", str(gru_run), "--out", str(tmp_path / "step.svg")]) == 0
    assert "decoder gru" in (tmp_path / "step.dot").read_text()
    assert main(["explore", str(gru_run), "--out", str(tmp_path / "step.html")]) == 0
    page = page_data((tmp_path / "step.html").read_text(encoding="utf-8"))
    folded = sorted(" / ".join(page["scopes"][k]) for k in page["folded"])
    assert folded[:2] == ["decoder gru", "encoder"]             # and the encoder's time steps
    assert folded[2:] and all("time step" in name for name in folded[2:])


def layer_copy(run):
    """The run folder's copy of its layer file (my_gru-XXXXXXXX.py)."""
    (copy,) = run.glob("my_gru-*.py")
    return copy


@pytest.mark.parametrize("command", [["evaluate", "{run}"], ["translate", "{run}", "12"],
                                     ["draw", "{run}", "--out", "{tmp}/x.svg"]])
def test_a_run_loads_its_layer_from_its_copy_and_refuses_a_changed_or_missing_copy(
        gru_run, gru_file, tmp_path, capsys, command):
    argv = [a.format(run=gru_run, tmp=tmp_path) for a in command]
    copy = layer_copy(gru_run)
    assert copy.read_bytes() == gru_file.read_bytes()
    gru_file.write_text(gru_file.read_text() + "\n# changed\n")
    assert main(argv) == 0                      # the copy holds the bytes it trained with
    capsys.readouterr()
    copy.write_text(copy.read_text() + "\n# changed\n")
    assert main(argv) == 1
    line = one_error_line(capsys)
    assert f"{gru_run / 'checkpoint.npz'}: {copy} has changed since the model " \
           "was trained (sha256 " in line and "put back the file it was trained with" in line
    copy.unlink()
    assert main(argv) == 1
    line = one_error_line(capsys)
    assert f"comes from {gru_file.resolve()}, and {gru_run} holds no copy of it" in line
    assert "name it with --rnn-file PATH" in line


def zen_checkpoint(run, tmp_path):
    """A run folder whose checkpoint records, with its right hash, a file of the machine that
    the user never named: the standard library's this.py, which prints the Zen of Python."""
    import hashlib
    import sysconfig
    this = Path(sysconfig.get_paths()["stdlib"]) / "this.py"
    state = minigrad.load(run / "checkpoint.npz")
    state["rnn"] = {"file": str(this), "class": "Zen",
                    "sha256": hashlib.sha256(this.read_bytes()).hexdigest()}
    state["config"]["rnn"] = f"{this}:Zen"
    hostile = tmp_path / "hostile"
    hostile.mkdir()
    shutil.copy(run / "report.json", hostile / "report.json")
    minigrad.save(state, hostile / "checkpoint.npz")
    return hostile


@pytest.mark.parametrize("command", [
    ["evaluate", "{run}"], ["evaluate", "{run}/checkpoint.npz"], ["translate", "{run}", "12"],
    ["draw", "{run}", "--out", "{tmp}/x.svg"], ["explore", "{run}", "--out", "{tmp}/x.html"],
    ["train", "--out", "{run}", "--resume", "--epochs", "5", "--no-progress"]])
def test_a_checkpoint_naming_a_file_the_user_did_not_never_runs_it(gru_run, tmp_path, capsys,
                                                                    command):
    hostile = zen_checkpoint(gru_run, tmp_path)
    capsys.readouterr()
    assert main([a.format(run=hostile, tmp=tmp_path) for a in command]) == 1
    out, err = capsys.readouterr()
    assert "Zen of Python" not in out + err and "Beautiful is better" not in out + err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "holds no copy of it (this-" in lines[0] and "--rnn-file PATH" in lines[0]
    assert not (tmp_path / "x.svg").exists() and not (tmp_path / "x.html").exists()


def test_resume_keeps_the_layer_and_refuses_another(gru_run, gru_file, tmp_path, capsys):
    other = tmp_path / "other_gru.py"               # another file: other bytes (a copy of the
    other.write_text(REFERENCE.read_text() + "\n# mine\n")    # same bytes is the same layer)
    assert main(["train", *TINY, "--epochs", "2", "--rnn", f"{other}:GRU", "--out",
                 str(gru_run), "--resume"]) == 1
    line = one_error_line(capsys)
    assert f"--rnn {other.resolve()}:GRU (saved: {gru_file.resolve()}:GRU)" in line
    assert main(["train", "--epochs", "2", "--out", str(gru_run), "--resume",
                 "--no-progress"]) == 0                                 # --rnn: the saved one
    assert len(minigrad.load(gru_run / "checkpoint.npz")["history"]) == 2
    gru_file.write_text(gru_file.read_text() + "\n# changed\n")      # the copy trains on
    assert main(["train", "--epochs", "3", "--out", str(gru_run), "--resume",
                 "--no-progress"]) == 0
    assert len(minigrad.load(gru_run / "checkpoint.npz")["history"]) == 3
    capsys.readouterr()
    assert main(["train", "--epochs", "4", "--out", str(gru_run), "--resume", "--rnn",
                 f"{gru_file}:GRU"]) == 1                       # named, and not the same file
    assert f"--rnn-file {gru_file.resolve()} is not the file" in one_error_line(capsys)
    gru_file.unlink()                                   # the copy trains on without it
    assert main(["train", "--epochs", "4", "--out", str(gru_run), "--resume",
                 "--no-progress"]) == 0
    assert len(minigrad.load(gru_run / "checkpoint.npz")["history"]) == 4
    capsys.readouterr()
    layer_copy(gru_run).unlink()
    assert main(["train", "--epochs", "5", "--out", str(gru_run), "--resume"]) == 1
    assert "holds no copy of it" in one_error_line(capsys)
    shutil.copy(REFERENCE, gru_file)                    # the file trained with, named again
    assert main(["train", "--epochs", "5", "--out", str(gru_run), "--resume", "--rnn",
                 f"{gru_file}:GRU", "--no-progress"]) == 0
    assert layer_copy(gru_run).read_bytes() == REFERENCE.read_bytes()     # kept again


@pytest.mark.parametrize("spec, words", [
    ("my_gru.py", ["--rnn should be FILE.py:CLASS", "'my_gru.py'"]),
    ("my_gru.txt:GRU", ["--rnn should be FILE.py:CLASS"]),
    ("{tmp}/nowhere.py:GRU", ["--rnn", "no such file: {tmp}/nowhere.py"]),
    ("{tmp}/folder.py:GRU", ["--rnn", "is a directory, not a .py file: {tmp}/folder.py"]),
    ("{file}:LSTM", ["defines no LSTM, where a recurrent layer's class belongs"]),
    ("{file}:gru_cell", ["defines a function named gru_cell"]),
    ("{broken}:GRU", ["running {broken}, line 2 raised ZeroDivisionError"]),
    ("{file}:NotALayer", ["NotALayer(4, 8) raised TypeError"]),
    ("{exits}:GRU", ["running {exits}, line 2 called sys.exit(3)"]),
    ("{file}:Exits", ["Exits(4, 8) called sys.exit(3)"]),
])
def test_train_refuses_a_layer_it_cannot_use_in_one_line(gru_file, tmp_path, capsys, spec, words):
    broken = tmp_path / "broken.py"
    broken.write_text("import math\nx = 1 / 0\n")
    (tmp_path / "folder.py").mkdir()
    exits = tmp_path / "exits.py"
    exits.write_text("import sys\nsys.exit(3)\n")
    gru_file.write_text(gru_file.read_text() + "\nclass NotALayer:\n    pass\n\n\n"
                        "class Exits:\n    def __init__(self, *sizes):\n"
                        "        import sys\n        sys.exit(3)\n")
    fill = {"tmp": tmp_path, "file": gru_file, "broken": broken, "exits": exits}
    out = tmp_path / "run"
    assert main(["train", *TINY, "--rnn", spec.format(**fill), "--out", str(out)]) == 1
    line = one_error_line(capsys)
    for word in words:
        assert word.format(**fill) in line
    assert not (out / "checkpoint.npz").exists()


def test_composed_and_rnn_together_are_refused(gru_file, tmp_path, capsys):
    assert main(["train", *TINY, "--composed", "--rnn", f"{gru_file}:GRU", "--out",
                 str(tmp_path / "run")]) == 1
    assert "--composed chooses how the LSTM is computed" in one_error_line(capsys)


def test_a_checkpoint_from_before_the_rnn_option_still_loads(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["train", *TINY, "--out", str(out)]) == 0
    state = minigrad.load(out / "checkpoint.npz")
    state.pop("rnn")
    state["model"] = {k.replace(".rnn.", ".lstm."): v for k, v in state["model"].items()}
    minigrad.save(state, out / "checkpoint.npz")
    capsys.readouterr()
    assert main(["translate", str(out), "123"]) == 0
    assert capsys.readouterr().out.strip()


@pytest.mark.parametrize("hidden_size", [0, -1, "16"])
def test_the_models_own_sizes_are_checked_before_the_layer_is_made(hidden_size):
    with pytest.raises((ValueError, TypeError)) as error:
        Seq2Seq(9, 9, embed_size=4, hidden_size=hidden_size, rnn=GRU)
    assert str(error.value) == (f"seq2seq model: hidden_size must be an integer >= 1, got "
                                f"{hidden_size!r}" + (" (str)" if hidden_size == "16" else ""))


def test_a_layer_instance_in_place_of_its_class_is_refused_saying_so():
    with pytest.raises(RecurrentLayerError, match="not an instance: pass rnn=GRU"):
        Seq2Seq(9, 9, embed_size=4, hidden_size=6, rnn=GRU(4, 6))


def test_a_layer_file_importing_a_module_beside_it_trains_and_loads_when_named(
        tmp_path, capsys, monkeypatch, forget_layer_modules):
    folder, elsewhere = tmp_path / "student", tmp_path / "elsewhere"
    folder.mkdir()
    elsewhere.mkdir()
    (folder / "mycell.py").write_text(REFERENCE.read_text())
    (folder / "layer.py").write_text("from mycell import GRU as MyGRU  # noqa: F401\n")
    monkeypatch.chdir(elsewhere)
    out = tmp_path / "run"
    forget_layer_modules("mycell")              # another test's mycell may still be loaded
    assert main(["train", *TINY, "--rnn", f"{folder / 'layer.py'}:MyGRU", "--out", str(out)]) == 0
    assert str(folder) not in sys.path                  # only while the file ran
    forget_layer_modules("mycell")
    assert main(["translate", str(out), "123"]) == 1    # the copy runs alone, from the run folder
    line = one_error_line(capsys)
    assert "No module named 'mycell'" in line and "put back" not in line
    assert "it runs on its own from the run folder" in line and "--rnn-file PATH" in line
    forget_layer_modules("mycell")
    assert main(["translate", str(out), "123", "--rnn-file", str(folder / "layer.py")]) == 0


@pytest.mark.parametrize("command", [["evaluate", "{run}"], ["translate", "{run}", "12"],
                                     ["draw", "{run}", "--out", "{tmp}/x.svg"],
                                     ["explore", "{run}", "--out", "{tmp}/x.html"]])
def test_a_layer_file_named_with_rnn_file_is_taken_only_if_it_hashes_the_same(
        gru_run, gru_file, tmp_path, capsys, command):
    argv = [a.format(run=gru_run, tmp=tmp_path) for a in command]
    moved = tmp_path / "graded" / "their_gru.py"
    moved.parent.mkdir()
    gru_file.rename(moved)
    layer_copy(gru_run).unlink()                # as a run from before runs kept a copy
    assert main(argv) == 1
    assert "name it with --rnn-file PATH" in one_error_line(capsys)
    assert main([*argv, "--rnn-file", str(moved)]) == 0
    capsys.readouterr()
    moved.write_text(moved.read_text() + "\n# changed\n")
    assert main([*argv, "--rnn-file", str(moved)]) == 1
    line = one_error_line(capsys)
    assert f"--rnn-file {moved} is not the file {gru_run / 'checkpoint.npz'} was trained with" \
        in line
    assert main([*argv, "--rnn-file", str(moved.parent)]) == 1
    assert f"--rnn-file {moved.parent}: is a directory, not a .py file" in one_error_line(capsys)


def test_rnn_file_is_refused_for_a_run_whose_layer_is_the_lstm(tmp_path, gru_file, capsys):
    out = tmp_path / "run"
    assert main(["train", *TINY, "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["translate", str(out), "12", "--rnn-file", str(gru_file)]) == 1
    assert "records no layer file" in one_error_line(capsys)


def test_draw_on_a_gru_run_refuses_the_lstms_scope_and_lists_the_grus(gru_run, tmp_path, capsys):
    for command, out in (("draw", "x.svg"), ("explore", "x.html")):
        assert main([command, str(gru_run), "--out", str(tmp_path / out), "--collapse",
                     "decoder lstm"]) == 1
        line = one_error_line(capsys)
        assert "decoder lstm" in line and "'decoder gru'" in line
    with pytest.raises(SystemExit):                     # the help names both layers' scopes
        main(["draw", "--help"])
    assert "'decoder gru' for a --rnn GRU" in " ".join(capsys.readouterr().out.split())


def test_a_layer_file_kept_in_the_run_folder_itself_is_run_from_there_without_a_copy(
        tmp_path, capsys):
    out = tmp_path / "run"
    out.mkdir()
    shutil.copy(REFERENCE, out / "my_gru.py")
    assert main(["train", *TINY, "--rnn", f"{out / 'my_gru.py'}:GRU", "--out", str(out)]) == 0
    assert sorted(p.name for p in out.glob("*.py")) == ["my_gru.py"]      # no second copy
    assert main(["translate", str(out), "123"]) == 0
    (out / "my_gru.py").write_text(REFERENCE.read_text() + "\n# changed\n")
    capsys.readouterr()
    assert main(["translate", str(out), "123"]) == 1
    assert f"{out / 'my_gru.py'} has changed since the model was trained" in \
        one_error_line(capsys)


@pytest.mark.parametrize("named, expected", [
    (None, "the file the checkpoint records, not None"),
    ("my_gru.py:LSTM", "FILE.py:GRU, the class the checkpoint records"),
])
def test_a_layer_named_in_the_config_alone_or_otherwise_is_refused(gru_run, tmp_path, capsys,
                                                                   named, expected):
    from conftest import changed_run
    folder = changed_run(gru_run, tmp_path, lambda state: state["config"].update(rnn=named))
    assert main(["evaluate", str(folder)]) == 1
    assert f"its 'config.rnn' entry should be {expected}" in one_error_line(capsys)
