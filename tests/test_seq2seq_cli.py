"""`python -m seq2seq` end to end on a small budget: train -> checkpoint -> translate -> evaluate,
resume, and one clear line on stderr for every bad input."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import minigrad
from seq2seq.commands.cli import main
from seq2seq.commands.train import TrainConfig, train
from seq2seq.translator import load_translator

ROOT = Path(__file__).resolve().parent.parent
SMALL = ["--task", "reverse", "--num-examples", "300", "--min-len", "3", "--max-len", "5",
         "--embed-size", "8", "--hidden-size", "16", "--batch-size", "32", "--no-progress"]


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "seq2seq", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def test_train_translate_evaluate(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["train", *SMALL, "--epochs", "2", "--out", str(out)]) == 0
    assert (out / "checkpoint.npz").exists()
    history = json.loads((out / "report.json").read_text())
    assert [h["epoch"] for h in history] == [1, 2]
    capsys.readouterr()

    assert main(["translate", str(out), "1234", "--plot", str(tmp_path / "h.png")]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].strip() and all(c in "0123456789" for c in printed[0])
    assert (tmp_path / "h.png").stat().st_size > 0

    assert main(["evaluate", str(out), "--json"]) == 0
    scores = json.loads(capsys.readouterr().out)
    for key in ("exact_match", "token_accuracy", "bleu"):
        assert 0 <= scores[key] <= 1
    assert scores["by_length"]


def test_resume_gives_the_same_weights(tmp_path):
    config = TrainConfig(task="reverse", num_examples=200, min_len=3, max_len=5, embed_size=8,
                         hidden_size=16, batch_size=32, progress=False, seed=3)
    straight, _ = train(TrainConfig(**{**config.__dict__, "epochs": 3,
                                       "out": str(tmp_path / "a")}), log=lambda *a: None)
    train(TrainConfig(**{**config.__dict__, "epochs": 1, "out": str(tmp_path / "b")}),
          log=lambda *a: None)                      # "interrupted" after one epoch
    minigrad.manual_seed(999)                       # resuming must not depend on global state
    resumed, history = train(TrainConfig(**{**config.__dict__, "epochs": 3, "resume": True,
                                            "out": str(tmp_path / "b")}), log=lambda *a: None)
    assert len(history) == 3
    for (name, a), (_, b) in zip(straight.model.state_dict().items(),
                                 resumed.model.state_dict().items()):
        np.testing.assert_array_equal(a, b, err_msg=name)


def test_unknown_characters_become_unk(tmp_path):
    out = tmp_path / "run"
    train(TrainConfig(task="reverse", num_examples=100, min_len=3, max_len=4, embed_size=8,
                      hidden_size=8, epochs=1, progress=False, out=str(out)), log=lambda *a: None)
    translator, _ = load_translator(out)
    first, second = translator.translate(["12x4", "ねこ"])
    assert first.source_tokens == ["1", "2", "<unk>", "4"] and first.weights.shape[1] == 4
    assert second.source_tokens == ["<unk>", "<unk>"]
    assert first.unknown == ["x"] and second.unknown == ["ね", "こ"]
    assert "1 unknown" in repr(first)
    assert first.unknown_note() == ("note: 1 of 4 source tokens are not in the model's vocabulary "
                                    "and were read as <unk>: 'x'")
    assert "says nothing about this text" in second.unknown_note()
    known = translator.translate("1234")
    assert known.unknown == [] and known.unknown_note() == ""


def test_translate_says_on_stderr_when_it_read_only_unk(tmp_path, capsys):
    out = tmp_path / "run"
    train(TrainConfig(task="reverse", num_examples=100, min_len=3, max_len=4, embed_size=8,
                      hidden_size=8, epochs=1, progress=False, out=str(out)), log=lambda *a: None)
    assert main(["translate", str(out), "ねこ"]) == 0
    captured = capsys.readouterr()
    assert captured.err.startswith("note: the model knows none of the 2 source tokens ('ね', 'こ')")
    assert captured.out.strip()                         # the translation itself is still printed
    assert main(["translate", str(out), "123"]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("args,words", [
    (["train", "--task", "no/such/file.txt"], "no such task or file"),
    (["train", "--task", "reverse", "--hidden-size", "0"], "--hidden-size"),
    (["evaluate", "no/such/run"], "no/such/run"),
    (["translate", "no/such/run", "123"], "no/such/run"),
])
def test_bad_input_is_one_line_on_stderr(args, words, tmp_path):
    out = ["--out", str(tmp_path / "run")] if args[0] == "train" else []
    result = run_cli(*args, *out)         # never into the repository's runs/
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], result.stderr


def test_bad_checkpoint_and_bad_corpus(tmp_path):
    bad = tmp_path / "checkpoint.npz"
    bad.write_bytes(b"not a checkpoint")
    result = run_cli("translate", str(bad), "123")
    assert result.returncode != 0 and len(result.stderr.strip().splitlines()) == 1
    corpus = tmp_path / "pairs.tsv"
    corpus.write_text("ab\tba\nno separator here\n", encoding="utf-8")
    result = run_cli("train", "--task", str(corpus), "--epochs", "1", "--out",
                     str(tmp_path / "run"))
    assert result.returncode != 0
    assert "pairs.tsv" in result.stderr and "2" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("n, dropped, words", [
    (1777, 223, "1,777 held-out sentences (generated with another seed; the 223 whose source was "
     "in training are left out)"),
    (40, 1, "40 held-out sentences (generated with another seed; the 1 whose source was in "
     "training is left out)"),
    (2623, 0, "2,623 held-out sentences (generated with another seed; none had its source in "
     "training)"),
])
def test_the_held_out_set_is_named_in_plain_words(n, dropped, words):
    from seq2seq.commands.demo import held_out_words
    assert held_out_words(n, dropped) == words


def test_demo_writes_heatmaps_graphs_checkpoint_and_report(tmp_path):
    from seq2seq.commands.demo import held_out_words, run_demo
    lines = []
    scores = run_demo(tmp_path, epochs=1, num_examples=300, log=lines.append)
    names = {p.name for p in tmp_path.iterdir()}
    assert {"checkpoint.npz", "demo-report.json", "attention-1.png"} <= names
    assert {"attention-step.svg", "decoder-step.svg"} <= names
    report = json.loads((tmp_path / "demo-report.json").read_text(encoding="utf-8"))
    assert report["translations"][0]["source"] == "ねこ が さかな を たべる"
    assert 0 <= scores["exact_match"] <= 1
    assert any("most attended" in line for line in lines)
    held_out = held_out_words(scores["examples"], scores["dropped_as_seen"])
    assert f"{held_out}: exact match {scores['exact_match']:.2%}" in " ".join(lines)
    # its last line lists every file it wrote, no more and no fewer (the lock is no output)
    listed = lines[-1].split(": ", 1)[1].split(", ")
    assert sorted(listed) == sorted(names - {".lock"})
