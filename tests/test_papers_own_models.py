"""An experiment's folder: its models are the subfolders its results record, and nothing else.
A `train` run of the user's own where one of its models would go is refused in one line, even
with --overwrite; a copy of a model under another name stays through a re-run; and
uniform-and-seeds, run again, leaves models that record its pairs file where the swap put it, so
that `evaluate`, `translate` and `train --resume` work on them."""

import shutil

import pytest

from seq2seq.commands.checkpoint_reading import read_checkpoint
from seq2seq.commands.cli import main
from seq2seq.commands.runs import RunFolderError
from seq2seq.commands.train import TrainConfig, train
from seq2seq.data import heldout
from seq2seq.papers.explanation import uniform_and_seeds

from test_papers_rerun_killed import files_of
from test_runs import one_error_line

MODELS = ("seed-0", "seed-1", "uniform")


def tiny(out, **changes):
    """A uniform-and-seeds run of a few seconds."""
    settings = dict(seeds=2, num_examples=150, n_held_out=40, hidden_size=8, epochs=1,
                    max_len=5, log=lambda line: None)
    return uniform_and_seeds(out, **{**settings, **changes})


def test_uniform_and_seeds_run_again_records_its_pairs_file_where_the_swap_put_it(tmp_path,
                                                                                  capsys):
    out = tmp_path / "out"
    tiny(out)
    tiny(out, num_examples=160)                     # other pairs: another file, another hash
    pairs = out / "pairs.tsv"
    assert len(pairs.read_text(encoding="utf-8").splitlines()) == 160
    assert not (out / ".next").exists()
    source = pairs.read_text(encoding="utf-8").split("\t")[0]
    for name in MODELS:
        state = read_checkpoint(out / name / "checkpoint.npz")
        assert state["config"]["task"] == str(pairs)
        assert state["task_file"] == {"path": str(pairs.resolve()),
                                      "sha256": heldout.file_sha256(pairs)}
        assert main(["evaluate", str(out / name), "--task", "toy-ja-en", "--num-examples", "20",
                     "--max-len", "5"]) == 0, capsys.readouterr().err
        assert main(["translate", str(out / name), source]) == 0, capsys.readouterr().err
    capsys.readouterr()
    # resumed without --task, the run reads the pairs file it recorded: OUT/pairs.tsv
    assert main(["train", "--out", str(out / "seed-0"), "--resume", "--epochs", "2",
                 "--no-progress"]) == 0, capsys.readouterr().err
    assert len(read_checkpoint(out / "seed-0" / "checkpoint.npz")["history"]) == 2


def test_a_train_run_where_a_model_would_go_is_refused_in_one_line_even_with_overwrite(
        tmp_path, capsys):
    out = tmp_path / "out"
    train(TrainConfig(task="reverse", num_examples=60, min_len=3, max_len=4, embed_size=4,
                      hidden_size=8, batch_size=32, epochs=1, progress=False,
                      out=str(out / "seed-0")), log=lambda line: None)
    before = files_of(out)
    assert main(["uniform-and-seeds", "--out", str(out), "--overwrite"]) == 1
    assert one_error_line(capsys) == (
        f"error: {out / 'seed-0'} is not a model folder of an earlier uniform-and-seeds run "
        f"(no uniform-and-seeds.json in {out} records it): move it out of {out}, or choose "
        f"another --out\n")
    assert files_of(out) == before and [p.name for p in out.iterdir()] == ["seed-0"]


def test_a_copy_of_a_model_under_another_name_stays_through_a_rerun(tmp_path):
    out = tmp_path / "out"
    tiny(out)
    shutil.copytree(out / "seed-1", out / "seed-7")     # the user's, though it looks like one
    kept = files_of(out / "seed-7")
    with pytest.raises(RunFolderError, match="not an earlier uniform-and-seeds run.*seed-7/"):
        tiny(out)                                       # not the experiment's: not replaced
    tiny(out, overwrite=True)                           # nor with --overwrite
    assert files_of(out / "seed-7") == kept


def test_a_model_folder_holding_a_file_of_the_users_is_refused_even_with_overwrite(tmp_path):
    out = tmp_path / "out"
    tiny(out)
    (out / "seed-0" / "notes.txt").write_text("mine")
    before = files_of(out)
    with pytest.raises(RunFolderError, match=r"seed-0 holds files that are not its model's "
                                             r"\(notes.txt\)"):
        tiny(out, overwrite=True)
    assert files_of(out) == before
