"""`train --resume` takes the run's own settings however they are spelled, and finds the run's
pairs file from any folder: --columns by their numbers, --task by the file it names (another
path to it, or a copy with the same bytes once it has moved), and without --task the absolute
path the checkpoint recorded. A file that is gone, or another file, is one line naming it."""

import shutil

import pytest

import minigrad
from seq2seq.commands.cli import main
from seq2seq.commands.runs import RunFolderError, check_resume
from seq2seq.commands.train import TrainConfig, train

TINY = ["--embed-size", "4", "--hidden-size", "8", "--batch-size", "32", "--no-progress"]
WORDS = "abc hello xyz tree go sun moon star sky sea red blue cat dog owl fox ant bee elk yak"
PAIRS = [(word, word[::-1]) for word in WORDS.split()]      # 20 sources: 2 held out


def pairs_file(path, columns=2, pairs=PAIRS):
    path.parent.mkdir(parents=True, exist_ok=True)
    extra = "\tCC-BY" if columns == 3 else ""
    path.write_text("".join(f"{s}\t{t}{extra}\n" for s, t in pairs), encoding="utf-8")
    return path


def one_error_line(capsys):
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: "), err
    return err


def trained_from(folder, out, *options, monkeypatch):
    """A one-epoch run on data/p.txt, started in `folder` with --task data/p.txt."""
    pairs_file(folder / "data" / "p.txt")
    monkeypatch.chdir(folder)
    assert main(["train", "--task", "data/p.txt", *options, "--epochs", "1", *TINY,
                 "--out", str(out)]) == 0
    return folder / "data" / "p.txt"


def epochs(out):
    return len(minigrad.load(out / "checkpoint.npz")["history"])


def test_resume_takes_columns_written_with_a_leading_zero(tmp_path, capsys):
    corpus, out = pairs_file(tmp_path / "three.tsv", columns=3), tmp_path / "run"
    assert main(["train", "--task", str(corpus), "--columns", "1,2", "--epochs", "1", *TINY,
                 "--out", str(out)]) == 0
    assert main(["train", "--out", str(out), "--resume", "--columns", "01, 2",
                 "--epochs", "2", "--no-progress"]) == 0
    assert epochs(out) == 2
    assert minigrad.load(out / "checkpoint.npz")["config"]["columns"] == "1,2"    # its own
    capsys.readouterr()
    assert main(["train", "--out", str(out), "--resume", "--columns", "01,3",
                 "--epochs", "3"]) == 1
    assert f"--columns 01,3 (saved: 1,2 for {corpus})" in one_error_line(capsys)


def test_resume_takes_columns_1_2_on_a_two_column_run_trained_without_them(tmp_path, capsys):
    corpus, out = pairs_file(tmp_path / "two.tsv"), tmp_path / "run"
    assert main(["train", "--task", str(corpus), "--epochs", "1", *TINY,
                 "--out", str(out)]) == 0
    assert main(["train", "--out", str(out), "--resume", "--columns", "1,2",
                 "--epochs", "2", "--no-progress"]) == 0
    assert epochs(out) == 2
    capsys.readouterr()
    assert main(["train", "--out", str(out), "--resume", "--columns", "2,1",
                 "--epochs", "3"]) == 1
    err = one_error_line(capsys)
    assert "cannot resume" in err and f"--columns 2,1 (saved: none for {corpus})" in err


def test_a_run_trained_with_columns_1_2_resumes_without_them_on_a_two_column_file(tmp_path):
    corpus, out = pairs_file(tmp_path / "two.tsv"), tmp_path / "run"
    config = TrainConfig(task=str(corpus), columns="1,2", embed_size=4, hidden_size=8,
                         batch_size=32, epochs=1, progress=False, out=str(out))
    train(config, log=lambda *a: None)
    config = TrainConfig(**{**config.__dict__, "columns": None, "epochs": 2, "resume": True})
    assert len(train(config, log=lambda *a: None)[1]) == 2
    assert minigrad.load(out / "checkpoint.npz")["config"]["columns"] == "1,2"    # its own
    pairs_file(tmp_path / "two.tsv", columns=3)         # now 1,2 and none read it differently
    state = minigrad.load(out / "checkpoint.npz")
    with pytest.raises(RunFolderError, match=r"--columns none \(saved: 1,2 for "):
        check_resume(out, state, TrainConfig(**{**config.__dict__, "epochs": 3}), "char")


def test_resume_takes_the_pairs_file_under_any_path_to_it(tmp_path, monkeypatch, capsys):
    out = tmp_path / "run"
    corpus = trained_from(tmp_path, out, monkeypatch=monkeypatch)
    for n, task in enumerate(["./data/p.txt", "data//p.txt", str(corpus)], start=2):
        assert main(["train", "--task", task, "--out", str(out), "--resume",
                     "--epochs", str(n), "--no-progress"]) == 0
    monkeypatch.chdir(tmp_path / "data")
    assert main(["train", "--task", "p.txt", "--out", str(out), "--resume", "--epochs", "5",
                 "--no-progress"]) == 0
    assert epochs(out) == 5
    other = pairs_file(tmp_path / "other.txt", pairs=PAIRS[:10])
    capsys.readouterr()
    assert main(["train", "--task", str(other), "--out", str(out), "--resume",
                 "--epochs", "6"]) == 1
    assert f"--task {other} (saved: data/p.txt)" in one_error_line(capsys)


def test_a_run_started_with_a_relative_path_resumes_from_another_folder(tmp_path, monkeypatch,
                                                                        capsys):
    out = tmp_path / "run"
    corpus = trained_from(tmp_path, out, monkeypatch=monkeypatch)
    state = minigrad.load(out / "checkpoint.npz")
    assert state["config"]["task"] == "data/p.txt"                  # as typed
    assert state["task_file"]["path"] == str(corpus.resolve())
    assert state["task_file"]["sha256"] == state["split"]["corpus_sha256"]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert main(["train", "--out", str(out), "--resume", "--epochs", "2", "--no-progress"]) == 0
    assert "resuming after epoch 1" in capsys.readouterr().out and epochs(out) == 2
    assert minigrad.load(out / "checkpoint.npz")["config"]["task"] == "data/p.txt"


def test_a_pairs_file_gone_is_named_with_the_way_out_and_a_copy_is_taken(tmp_path, monkeypatch,
                                                                        capsys):
    out = tmp_path / "run"
    corpus = trained_from(tmp_path, out, monkeypatch=monkeypatch)
    moved = tmp_path / "moved" / "p.txt"
    moved.parent.mkdir()
    shutil.move(corpus, moved)
    before = (out / "checkpoint.npz").read_bytes()
    capsys.readouterr()
    assert main(["train", "--out", str(out), "--resume", "--epochs", "2"]) == 1
    assert one_error_line(capsys) == (
        f"error: cannot resume {out}: the pairs file it trained on, {corpus.resolve()} (--task "
        f"data/p.txt when the run started), is no longer there: name it, or a copy of it, with "
        f"--task FILE\n")
    assert (out / "checkpoint.npz").read_bytes() == before
    assert main(["train", "--task", str(moved), "--out", str(out), "--resume", "--epochs", "2",
                 "--no-progress"]) == 0
    state = minigrad.load(out / "checkpoint.npz")
    assert state["task_file"]["path"] == str(moved.resolve()) and len(state["history"]) == 2
    monkeypatch.chdir(tmp_path / "moved")               # found where it now is, from anywhere
    assert main(["train", "--out", str(out), "--resume", "--epochs", "3", "--no-progress"]) == 0


def test_a_copy_with_other_bytes_is_not_the_runs_pairs_file(tmp_path, monkeypatch, capsys):
    out = tmp_path / "run"
    corpus = trained_from(tmp_path, out, monkeypatch=monkeypatch)
    corpus.unlink()
    other = pairs_file(tmp_path / "other.txt", pairs=PAIRS[:10])
    capsys.readouterr()
    assert main(["train", "--task", str(other), "--out", str(out), "--resume",
                 "--epochs", "2"]) == 1
    assert f"--task {other} (saved: data/p.txt)" in one_error_line(capsys)


def test_evaluate_warns_of_a_changed_pairs_file_from_another_folder(tmp_path, monkeypatch,
                                                                   capsys):
    out = tmp_path / "run"
    corpus = trained_from(tmp_path, out, monkeypatch=monkeypatch)
    pairs_file(corpus, pairs=PAIRS[:10])
    monkeypatch.chdir(tmp_path / "data")        # here "data/p.txt" names nothing
    capsys.readouterr()
    assert main(["evaluate", str(out)]) == 0
    assert f"warning: {corpus.resolve()} has changed since the run trained on it" in (
        capsys.readouterr().err)


def test_an_older_run_without_task_file_resumes_from_another_folder_with_task(
        tmp_path, monkeypatch, capsys):
    out = tmp_path / "run"
    corpus = trained_from(tmp_path, out, monkeypatch=monkeypatch)
    state = minigrad.load(out / "checkpoint.npz")
    del state["task_file"]                              # as written before the entry existed
    minigrad.save(state, out / "checkpoint.npz")
    elsewhere = tmp_path / "elsewhere"
    pairs_file(elsewhere / "data" / "p.txt", pairs=PAIRS[:10])     # "data/p.txt" from here
    monkeypatch.chdir(elsewhere)
    assert main(["train", "--task", str(corpus), "--out", str(out), "--resume", "--epochs", "2",
                 "--no-progress"]) == 0
    state = minigrad.load(out / "checkpoint.npz")
    assert state["task_file"]["path"] == str(corpus.resolve()) and len(state["history"]) == 2
