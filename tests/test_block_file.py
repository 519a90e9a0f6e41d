"""An encoder block of the user's own in the Transformer (`Transformer(..., block=Block)`,
`train --arch transformer --block FILE.py:CLASS`): the model builds its encoder from it, a block
that breaks the contract is refused in one line before a run folder is made, and a run records,
copies and loads its block file as it does a --rnn file: never from a path a checkpoint alone
names (seq2seq/models/block_contract.py, seq2seq/commands/rnn_file.py)."""

import hashlib
import os
import shutil
import sysconfig
from pathlib import Path

import numpy as np
import pytest

import minigrad
from seq2seq.commands.cli import main
from seq2seq.models.transformer import Transformer
from tests.reference import attention_reference as reference
from tests.reference.attention_reference import Block

REFERENCE = Path(reference.__file__).resolve()
TINY = ["--arch", "transformer", "--task", "reverse", "--num-examples", "40", "--min-len", "3",
        "--max-len", "5", "--epochs", "1", "--d-model", "8", "--heads", "2", "--layers", "1",
        "--d-ff", "16", "--warmup", "0", "--no-progress"]


# Each test starts without the block modules of earlier tests, as each command's process would.
pytestmark = pytest.mark.usefixtures("forget_layer_modules")


def one_error_line(capsys):
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


# ---- the model in Python ------------------------------------------------------------------------

@pytest.mark.parametrize("norm", ["pre", "post"])
def test_the_reference_block_with_encoder_blocks_weights_gives_the_same_logits(norm):
    """The encoder built from Block, given the weights of one built from attention's
    EncoderBlock (the names mapped: self_attn.in_proj_weight -> in_proj_weight, ...), computes
    the very same translation logits."""
    sizes = dict(d_model=8, heads=2, layers=2, d_ff=16, norm=norm)
    ours = Transformer(11, 13, **sizes).double()
    theirs = Transformer(11, 13, **sizes, block=Block).double()
    assert all(isinstance(layer, Block) for layer in theirs.encoder.layers)
    assert theirs.block is Block and theirs.config == ours.config       # config: no class
    weights = {}
    for name, value in ours.state_dict().items():
        if name.startswith("encoder.layers."):
            layer, rest = name[len("encoder.layers."):].split(".", 1)
            name = f"encoder.layers.{layer}." + rest.replace("self_attn.", "").replace(".", "_")
        weights[name] = value
    assert sorted(weights) == sorted(theirs.state_dict())
    theirs.load_state_dict(weights)
    rng = np.random.default_rng(0)
    src = np.array([[0, 0, 4, 5, 6], [7, 8, 9, 10, 3]])                  # left-padded
    tgt_in = rng.integers(3, 13, (2, 4))
    logits, _ = ours(src, tgt_in)
    mine, _ = theirs(src, tgt_in)
    np.testing.assert_allclose(mine.data, logits.data, rtol=1e-10, atol=1e-12)


# ---- the command line ---------------------------------------------------------------------------

@pytest.fixture
def block_file(tmp_path):
    path = tmp_path / "my_block.py"
    shutil.copy(REFERENCE, path)
    return path


@pytest.fixture
def block_run(tmp_path, block_file, capsys):
    out = tmp_path / "run"
    assert main(["train", *TINY, "--block", f"{block_file}:Block", "--out", str(out)]) == 0
    capsys.readouterr()
    return out


def block_copy(run):
    (copy,) = run.glob("my_block-*.py")
    return copy


def test_a_run_records_its_block_file_and_every_command_loads_it(block_run, block_file,
                                                                 tmp_path, capsys):
    state = minigrad.load(block_run / "checkpoint.npz")
    assert state["block"] == {"file": str(block_file.resolve()), "class": "Block",
                              "sha256": hashlib.sha256(block_file.read_bytes()).hexdigest()}
    assert state["rnn"] is None and state["config"]["block"] == f"{block_file.resolve()}:Block"
    assert state["model"]["encoder.layers.0.in_proj_weight"].shape == (24, 8)
    assert block_copy(block_run).read_bytes() == block_file.read_bytes()
    block_file.write_text(block_file.read_text() + "\nraise SystemExit('edited')\n")
    for command in (["evaluate", str(block_run)], ["translate", str(block_run), "123"],
                    ["draw", str(block_run), "--out", str(tmp_path / "step.svg")],
                    ["explore", str(block_run), "--out", str(tmp_path / "step.html")],
                    ["train", "--out", str(block_run), "--resume", "--epochs", "2",
                     "--no-progress"]):
        assert main(command) == 0, capsys.readouterr().err      # the copy's bytes, unedited
    assert len(minigrad.load(block_run / "checkpoint.npz")["history"]) == 2


def test_a_run_without_its_copy_is_refused_and_loads_from_the_file_named(block_run, block_file,
                                                                          capsys):
    block_copy(block_run).unlink()
    assert main(["evaluate", str(block_run)]) == 1
    line = one_error_line(capsys)
    assert f"its encoder block Block comes from {block_file.resolve()}, and {block_run} holds " \
           "no copy of it" in line and "name it with --block-file PATH" in line
    assert main(["evaluate", str(block_run), "--block-file", str(block_file)]) == 0
    capsys.readouterr()
    block_file.write_text(block_file.read_text() + "\n# changed\n")
    assert main(["evaluate", str(block_run), "--block-file", str(block_file)]) == 1
    assert f"--block-file {block_file} is not the file" in one_error_line(capsys)


def test_the_other_kinds_file_option_is_refused_for_a_block_run(block_run, block_file, capsys):
    assert main(["evaluate", str(block_run), "--rnn-file", str(block_file)]) == 1
    assert f"--rnn-file {block_file}: " in one_error_line(capsys)
    lstm = block_run.parent / "lstm"
    assert main(["train", "--task", "reverse", "--num-examples", "40", "--epochs", "1",
                 "--embed-size", "4", "--hidden-size", "8", "--no-progress", "--out",
                 str(lstm)]) == 0
    capsys.readouterr()
    assert main(["evaluate", str(lstm), "--block-file", str(block_file)]) == 1
    assert (f"--block-file {block_file}: {lstm / 'checkpoint.npz'} records no encoder block "
            f"file") in one_error_line(capsys)


def test_a_checkpoint_naming_a_block_file_never_runs_it(block_run, tmp_path, capsys):
    """A checkpoint records, with its right hash, a file of the machine the user never named
    (the standard library's this.py, which prints the Zen of Python): no command runs it."""
    this = Path(sysconfig.get_paths()["stdlib"]) / "this.py"
    state = minigrad.load(block_run / "checkpoint.npz")
    state["block"] = {"file": str(this), "class": "Zen",
                      "sha256": hashlib.sha256(this.read_bytes()).hexdigest()}
    state["config"]["block"] = f"{this}:Zen"
    hostile = tmp_path / "hostile"
    hostile.mkdir()
    minigrad.save(state, hostile / "checkpoint.npz")
    shutil.copy(block_run / "report.json", hostile / "report.json")
    for command in (["evaluate", str(hostile)], ["translate", str(hostile), "12"],
                    ["draw", str(hostile), "--out", str(tmp_path / "x.svg")],
                    ["explore", str(hostile), "--out", str(tmp_path / "x.html")],
                    ["train", "--out", str(hostile), "--resume", "--epochs", "3",
                     "--no-progress"]):
        assert main(command) == 1
        out, err = capsys.readouterr()
        assert "Beautiful is better" not in out + err
        lines = err.strip().splitlines()
        assert len(lines) == 1 and "holds no copy of it (this-" in lines[0], err
        assert "--block-file PATH" in lines[0]
    assert not (tmp_path / "x.svg").exists() and not (tmp_path / "x.html").exists()


def test_a_checkpoint_whose_config_block_no_option_could_give_is_refused(block_run, capsys):
    state = minigrad.load(block_run / "checkpoint.npz")
    state["config"]["block"] = "my_block.txt"
    minigrad.save(state, block_run / "checkpoint.npz")
    assert main(["evaluate", str(block_run)]) == 1
    line = one_error_line(capsys)
    assert "config.block" in line and "FILE.py:CLASS or None" in line


def defining(name, module="tests.test_block_contract"):
    """A block file's text: its own class Block, a subclass of `name` (a --block file names a
    class it defines, never one it imports)."""
    return f"from {module} import {name}\n\n\nclass Block({name}):\n    pass\n"


BAD = {"syntax.py": "def oops(:\n",
       "exits.py": "import os\nos._exit(0)\n",
       "halves.py": defining("Halves"), "no_mask.py": defining("NoMask"),
       "batch_mean.py": defining("BatchMean")}


@pytest.mark.parametrize("spec, words", [
    ("syntax.py:Block", "--block: running {tmp}/syntax.py, line 1 raised SyntaxError"),
    ("exits.py:Block", "--block {tmp}/exits.py:Block: the file ended the process"),
    ("halves.py:Nope", "defines no Nope, where an encoder block's class belongs"),
    ("halves.py:Block", "forward(x, mask) returned shape (1, 8, 4)"),
    ("no_mask.py:Block", "ignores the mask"),
    ("batch_mean.py:Block", "--block {tmp}/batch_mean.py:Block: Block(8, 2, 16, 0.0, "
                            "norm_first=True) depends on the other sentences of its batch"),
    ("missing.py:Block", "--block {tmp}/missing.py:Block: no such file"),
    ("halves.py", "--block should be FILE.py:CLASS (e.g. my_block.py:Block)"),
])
def test_a_bad_block_file_is_one_line_and_leaves_the_earlier_run_whole(block_run, tmp_path,
                                                                       capsys, spec, words):
    for name, code in BAD.items():
        (tmp_path / name).write_text(code)
    before = (block_run / "checkpoint.npz").read_bytes()
    for out, more in ((tmp_path / "new", []), (block_run, ["--overwrite"])):
        assert main(["train", *TINY, "--block", f"{tmp_path}/{spec}", "--out", str(out),
                     *more]) == 1
        assert words.format(tmp=tmp_path) in one_error_line(capsys)
    assert not (tmp_path / "new").exists()
    assert (block_run / "checkpoint.npz").read_bytes() == before
    assert block_copy(block_run).is_file()


def test_a_block_that_ends_the_process_only_at_the_runs_sizes_is_one_line(block_run, tmp_path,
                                                                          capsys):
    """The child process made the block at d_model 8 while the run asked for 12: the block
    ended `train` itself, status 0, the earlier run replaced by nothing."""
    (tmp_path / "exits_at_12.py").write_text(
        "import os\n\nfrom attention import EncoderBlock\n\n\nclass Block(EncoderBlock):\n"
        "    def __init__(self, d_model, *args, **kwargs):\n        if d_model == 12:\n"
        "            os._exit(0)\n        super().__init__(d_model, *args, **kwargs)\n")
    before = (block_run / "checkpoint.npz").read_bytes()
    sizes = [*TINY[:TINY.index("--d-model")], "--d-model", "12", "--heads", "2",
             *TINY[TINY.index("--layers"):]]
    assert main(["train", *sizes, "--block", f"{tmp_path}/exits_at_12.py:Block", "--out",
                 str(block_run), "--overwrite"]) == 1
    assert "the file ended the process" in one_error_line(capsys)
    assert (block_run / "checkpoint.npz").read_bytes() == before


def test_block_with_the_lstm_is_refused_in_one_line(block_file, tmp_path, capsys):
    assert main(["train", "--task", "reverse", "--block", f"{block_file}:Block", "--out",
                 str(tmp_path / "run")]) == 1
    assert one_error_line(capsys) == ("error: --block applies to --arch transformer only, and "
                                      "this run's arch is lstm: leave it out, or add --arch "
                                      "transformer")
    assert not (tmp_path / "run").exists()


def test_a_layer_file_named_for_a_transformer_run_says_it_has_no_recurrent_layer(
        transformer_run, tmp_path, capsys):
    from seq2seq.commands.cli import main
    layer = tmp_path / "my_gru.py"
    layer.write_text("class GRU:\n    pass\n")
    assert main(["translate", str(transformer_run), "12", "--rnn-file", str(layer)]) == 1
    err = capsys.readouterr().err
    assert "records no layer file (a Transformer has no recurrent layer)" in err, err


def test_a_block_file_that_never_finishes_its_check_is_stopped_in_one_line(tmp_path, capsys,
                                                                             monkeypatch):
    """It hung `train` with its new folder made and locked; a kill then left the lock."""
    from seq2seq.commands import rnn_failures
    monkeypatch.setattr(rnn_failures, "CHECK_SECONDS", 3)
    (tmp_path / "sleeps.py").write_text("import time\ntime.sleep(10 ** 6)\n")
    out = tmp_path / "new"
    assert main(["train", *TINY, "--block", f"{tmp_path}/sleeps.py:Block", "--out",
                 str(out)]) == 1
    line = one_error_line(capsys)
    assert "sleeps.py:Block: the file was still running after 3 s" in line
    assert not out.exists()


def test_a_config_block_the_checkpoint_does_not_record_is_refused(transformer_run, tmp_path,
                                                                  capsys):
    """A file named in config alone was carried into a resumed run's checkpoint."""
    from conftest import changed_run
    folder = changed_run(transformer_run, tmp_path,
                         lambda state: state["config"].update(block="/elsewhere/evil.py:Block"))
    assert main(["evaluate", str(folder)]) == 1
    line = one_error_line(capsys)
    assert "its 'config.block' entry should be None, as the checkpoint records no file" in line


@pytest.mark.parametrize("copy_kept", [True, False])
def test_a_resume_takes_the_block_file_moved_elsewhere_with_the_same_bytes(
        block_run, block_file, tmp_path, capsys, forget_layer_modules, copy_kept):
    """Only the exact recorded path was accepted; the file moved (the same bytes) was 'other
    settings', and the message named --block-file, which train does not take."""
    moved = tmp_path / "moved" / "my_block.py"
    moved.parent.mkdir()
    block_file.rename(moved)
    if not copy_kept:
        block_copy(block_run).unlink()
    forget_layer_modules()                              # as the resume's own process starts
    assert main(["train", "--resume", "--out", str(block_run), "--epochs", "2", "--block",
                 f"{moved}:Block", "--no-progress"]) == 0
    state = minigrad.load(block_run / "checkpoint.npz")
    assert state["epochs"] == 2 and state["block"]["class"] == "Block"
    changed = moved.with_name("changed_block.py")      # other bytes: another block
    changed.write_text(moved.read_text() + "\n# changed\n")
    assert main(["train", "--resume", "--out", str(block_run), "--epochs", "3", "--block",
                 f"{changed}:Block", "--no-progress"]) == 1
    assert "--block" in one_error_line(capsys)


def test_a_block_named_in_a_fifo_is_called_a_fifo_not_missing(tmp_path, capsys):
    fifo = tmp_path / "fifo.py"
    os.mkfifo(fifo)
    assert main(["train", *TINY, "--block", f"{fifo}:Block", "--out", str(tmp_path / "r")]) == 1
    assert one_error_line(capsys) == (f"error: --block {fifo}:Block: is a FIFO, not a regular "
                                      f"file: {fifo}")
