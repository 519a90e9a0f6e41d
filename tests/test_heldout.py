"""Held-out data is held out: splits by source, the split a run records, `evaluate` on exactly
that split with `seen_in_training`, held-out sets of the demo and compare-lengths, and the line
limit of pairs files."""

import dataclasses
import json
import subprocess
import sys
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

import minigrad
from seq2seq.commands.cli import main
from seq2seq.commands.demo import demo_config, held_out_pairs
from seq2seq.commands.train import TrainConfig, train
from seq2seq.data import heldout, tasks
from seq2seq.papers.lengths import compare_lengths
from seq2seq.translation import Translation
from seq2seq.translator import Translator, load_translator

ROOT = Path(__file__).resolve().parent.parent
TINY = dict(embed_size=8, hidden_size=8, batch_size=32, epochs=1, progress=False)


def quiet(*args):
    pass


def _sources(pairs):
    return {s for s, _ in pairs}


# ---- splits by source ----------------------------------------------------------------------

@pytest.mark.parametrize("name", list(tasks.TASKS))
def test_every_builtin_split_has_no_validation_source_in_training(name):
    pairs = tasks.make_task(name, 3000, seed=0)
    assert len(_sources(pairs)) < len(pairs)            # sources repeat: a pair split would leak
    train_pairs, val_pairs = tasks.split_pairs(pairs, 0.1, seed=0)
    assert val_pairs and not _sources(train_pairs) & _sources(val_pairs)
    assert sorted(train_pairs + val_pairs) == sorted(pairs)


def test_split_keeps_every_pair_of_a_source_on_one_side():
    pairs = [(f"s{i % 40}", f"t{i}") for i in range(200)]          # 40 sources, 5 targets each
    train_pairs, val_pairs = tasks.split_pairs(pairs, 0.25, seed=3)
    assert len(_sources(val_pairs)) == 10 and len(val_pairs) == 50  # a quarter of the sources
    assert not _sources(train_pairs) & _sources(val_pairs)


def test_source_hashes_are_stable_across_processes_and_hash_seeds():
    code = "from seq2seq.data.heldout import source_hash; print(source_hash('ねこ が ねる'))"
    values = {subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                             text=True, env={"PYTHONHASHSEED": seed}, check=True).stdout
              for seed in ("1", "2")}
    assert values == {f"{heldout.source_hash('ねこ が ねる')}\n"}
    hashes = heldout.source_hashes(["b", "a", "b"])
    assert hashes.dtype == np.uint64 and len(hashes) == 2 and np.all(np.diff(hashes) > 0)


def test_seen_in_training_and_drop_seen_on_a_known_overlap():
    record = heldout.make_record([("a", "1"), ("b", "2"), ("a", "3")], [("z", "9")], "sha")
    sources = ["a", "x", "b", "b", "y", "z"]
    assert heldout.seen_in_training(sources, record) == [True, False, True, True, False, False]
    kept, dropped = heldout.drop_seen([(s, s) for s in sources], record)
    assert kept == [("x", "x"), ("y", "y"), ("z", "z")] and dropped == 3
    empty = heldout.make_record([], [], "sha")
    assert heldout.seen_in_training(["a"], empty) == [False]


def test_sources_that_differ_only_in_whitespace_are_one_source_in_the_split_and_the_hashes():
    # Each pair twice, once with doubled spaces: at word level both tokenize alike, so a split
    # by raw strings put one copy in training and the other in validation.
    words = [f"w{i} x{i % 7} y{i % 5}" for i in range(60)]
    pairs = [(w, w.upper()) for w in words] + [(w.replace(" ", "  "), w.upper()) for w in words]
    train_pairs, val_pairs = tasks.split_pairs(pairs, 0.2, seed=0)
    train_keys = {" ".join(s.split()) for s, _ in train_pairs}
    assert len(val_pairs) == 24 and not train_keys & {" ".join(s.split()) for s, _ in val_pairs}
    assert heldout.source_hash("a  b") == heldout.source_hash(" a b\t")
    assert heldout.source_hash(" a b\t") == heldout.source_hash("a b")
    assert heldout.source_hash("a b") != heldout.source_hash("ab")
    record = heldout.make_record(train_pairs, val_pairs, "sha")
    assert not any(heldout.seen_in_training([s for s, _ in val_pairs], record))
    assert all(heldout.seen_in_training([s.replace(" ", "   ") for s, _ in train_pairs], record))


# ---- the record a run keeps, and evaluate -----------------------------------------------------

def _corpus(path, n):
    """n reverse pairs of distinct 4-digit sources; the first ones are the same for any n."""
    sources = [f"{i:04d}" for i in range(n)]
    path.write_text("".join(f"{s}\t{s[::-1]}\n" for s in sources), encoding="utf-8")
    return path


def _trained_on_file(tmp_path, n=120):
    corpus = _corpus(tmp_path / "pairs.tsv", n)
    config = TrainConfig(task=str(corpus), out=str(tmp_path / "run"), **TINY)
    train(config, log=quiet)
    return config, corpus


def _evaluate(capsys, *args):
    assert main(["evaluate", *args, "--json"]) == 0
    captured = capsys.readouterr()
    return json.loads(captured.out), captured.err


def test_checkpoint_records_the_validation_pairs_and_the_training_sources(tmp_path):
    config, corpus = _trained_on_file(tmp_path)
    train_pairs, val_pairs = tasks.split_pairs(tasks.load_pairs(corpus), 0.1, seed=0)
    record = heldout.read_record(load_translator(config.out)[1], config.out)
    assert [tuple(p) for p in record["val_pairs"]] == val_pairs and len(val_pairs) == 12
    np.testing.assert_array_equal(record["train_sources"],
                                  heldout.source_hashes(s for s, _ in train_pairs))
    assert record["corpus_sha256"] == heldout.file_sha256(corpus)


def test_evaluate_uses_the_recorded_split_after_the_corpus_changed(tmp_path, capsys):
    config, corpus = _trained_on_file(tmp_path)
    _, val_pairs = tasks.split_pairs(tasks.load_pairs(corpus), 0.1, seed=0)
    scores, err = _evaluate(capsys, config.out)
    assert err == "" and scores["examples"] == 12 and scores["seen_in_training"] == 0

    with open(corpus, "a", encoding="utf-8") as f:          # lines appended after training
        f.write("".join(f"9{i:03d}\t{i:03d}9\n" for i in range(40)))
    rebuilt = tasks.split_pairs(tasks.load_pairs(corpus), 0.1, seed=0)[1]
    assert rebuilt != val_pairs                             # rebuilding would score other pairs
    scores_after, err = _evaluate(capsys, config.out)
    assert len(err.splitlines()) == 1 and "pairs.tsv has changed since the run" in err
    assert {k: v for k, v in scores_after.items()} == scores    # exactly the recorded pairs
    corpus.unlink()                                         # not needed at all
    assert _evaluate(capsys, config.out)[0] == scores


def test_evaluate_counts_training_sources_in_a_pairs_file(tmp_path, capsys):
    config, corpus = _trained_on_file(tmp_path)
    train_pairs, val_pairs = tasks.split_pairs(tasks.load_pairs(corpus), 0.1, seed=0)
    mixed = tmp_path / "mixed.tsv"
    mixed.write_text("".join(f"{s}\t{t}\n" for s, t in train_pairs[:7] + val_pairs[:5]
                             + [("98765", "56789")]), encoding="utf-8")
    scores, _ = _evaluate(capsys, config.out, "--task", str(mixed))
    assert (scores["examples"], scores["seen_in_training"], scores["dropped_as_seen"]) == (13, 7, 0)
    assert main(["evaluate", config.out, "--task", str(mixed)]) == 0
    assert "seen_in_training 7" in capsys.readouterr().out


def test_evaluate_builtin_task_drops_and_counts_training_sources(tmp_path, capsys):
    config = TrainConfig(task="reverse", num_examples=400, min_len=3, max_len=3,
                         out=str(tmp_path / "run"), **TINY)
    train(config, log=quiet)
    scores, _ = _evaluate(capsys, config.out, "--task", "reverse", "--num-examples", "300")
    # 3-digit strings: 1,000 sources, of which the run trained on about 300
    generated = tasks.make_task("reverse", 300, seed=12345, min_len=3, max_len=3)    # the run's
    train_sources = _sources(tasks.split_pairs(tasks.make_task("reverse", 400, 0, 3, 3), 0.1, 0)[0])
    expected_dropped = sum(s in train_sources for s, _ in generated)
    assert expected_dropped > 0 and scores["dropped_as_seen"] == expected_dropped
    assert scores["examples"] == 300 - expected_dropped and scores["seen_in_training"] == 0


def test_evaluate_on_the_runs_own_task_generates_the_lengths_it_trained_on_and_says_so(
        tmp_path, capsys):
    config = TrainConfig(task="reverse", num_examples=200, min_len=4, max_len=6,
                         out=str(tmp_path / "run"), **TINY)
    train(config, log=quiet)
    scores, err = _evaluate(capsys, config.out, "--task", "reverse", "--num-examples", "50")
    assert set(map(int, scores["by_length"])) == {4, 5, 6}
    assert "reverse: sources of 4 to 6 tokens, the run's --min-len/--max-len" in err
    scores, err = _evaluate(capsys, config.out, "--task", "reverse", "--num-examples", "50",
                            "--max-len", "9", "--min-len", "7")
    assert set(map(int, scores["by_length"])) <= {7, 8, 9} and "as --min-len/--max-len say" in err
    scores, err = _evaluate(capsys, config.out, "--task", "copy", "--num-examples", "50")
    assert "copy: sources of 3 to 12 tokens, the task's default lengths" in err
    assert main(["evaluate", config.out, "--task", "reverse", "--max-len", "3"]) == 1
    assert "--min-len 4 is above --max-len 3" in capsys.readouterr().err
    assert main(["evaluate", config.out, "--min-len", "3"]) == 1
    assert "choose the lengths of a generated --task" in capsys.readouterr().err


def test_old_checkpoint_without_a_record_is_a_clear_error_not_a_crash(tmp_path):
    config, corpus = _trained_on_file(tmp_path)
    file = Path(config.out) / "checkpoint.npz"
    state = minigrad.load(file)
    del state["split"]
    minigrad.save(state, file)
    result = subprocess.run([sys.executable, "-m", "seq2seq", "evaluate", config.out], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 1 and len(result.stderr.splitlines()) == 1
    assert "does not record its validation split" in result.stderr and "--task" in result.stderr
    result = subprocess.run([sys.executable, "-m", "seq2seq", "evaluate", config.out, "--task",
                             str(corpus), "--json"], cwd=ROOT, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0 and len(result.stderr.splitlines()) == 1
    assert "warning" in result.stderr and json.loads(result.stdout)["seen_in_training"] is None


def test_resume_on_changed_data_is_refused(tmp_path):
    config, corpus = _trained_on_file(tmp_path)
    _corpus(corpus, 130)
    again = dataclasses.replace(config, epochs=2, resume=True)
    with pytest.raises(ValueError, match="not the data the run started with"):
        train(again, log=quiet)
    _corpus(corpus, 120)                                    # back as it was: resumes
    with pytest.raises(ValueError, match="--val-fraction"):
        train(dataclasses.replace(again, val_fraction=0.2), log=quiet)
    assert len(train(again, log=quiet)[1]) == 2
    file = Path(config.out) / "checkpoint.npz"               # an older run, split pair by pair
    state = minigrad.load(file)
    del state["split"]
    minigrad.save(state, file)
    with pytest.raises(ValueError, match="older version that did not record its split"):
        train(dataclasses.replace(again, epochs=3), log=quiet)


# ---- the demo's and compare-lengths' held-out sets ---------------------------------------------

def test_demo_held_out_set_has_no_training_source(tmp_path):
    config = dataclasses.replace(demo_config(tmp_path, epochs=1, num_examples=300), **TINY,
                                 max_len=6)     # short sentences: many repeats
    train(config, log=quiet)
    held_out, dropped = held_out_pairs(config, 500, seed=1)
    train_pairs, _ = tasks.split_pairs(tasks.make_task("toy-ja-en", 300, 0, max_len=6), 0.1, 0)
    generated = tasks.make_task("toy-ja-en", 500, seed=1, max_len=6)
    assert dropped == sum(s in _sources(train_pairs) for s, _ in generated) > 50
    assert len(held_out) == 500 - dropped and not _sources(held_out) & _sources(train_pairs)


def test_compare_lengths_scores_sentences_neither_model_trained_on(tmp_path, monkeypatch):
    translated = []
    original = Translator.translate
    monkeypatch.setattr(Translator, "translate", lambda self, texts, **kw:
                        translated.append(texts) or original(self, texts, **kw))
    compare_lengths(tmp_path, "toy-ja-en", epochs=1, num_examples=300, hidden_size=8, log=quiet,
                    n_held_out=200)
    train_pairs, _ = tasks.split_pairs(tasks.make_task("toy-ja-en", 300, seed=0), 0.1, 0)
    # each model: its validation split after the epoch, then the held-out set
    assert len(translated) == 4 and translated[1] == translated[3] and len(translated[1]) < 200
    assert all(not set(texts) & _sources(train_pairs) for texts in translated)


# ---- BLEU on the run's own tokens ------------------------------------------------------------

def test_bleu_of_a_char_level_run_is_not_zero_when_exact_match_is_high(monkeypatch):
    pairs = tasks.make_task("copy", 100, seed=0)
    outputs = [s for s, _ in pairs[:-2]] + ["0", pairs[-1][0][:-1]]  # 98 right
    translator = Translator(None, None, None, "char", False)
    monkeypatch.setattr(translator, "translate", lambda texts, beam_size=1: [
        Translation(o, list(o), list(t)) for o, t in zip(outputs, texts)])
    scores = translator.evaluate(pairs)
    assert scores["exact_match"] == 0.98 and scores["bleu_tokens"] == "char"
    assert scores["bleu"] > 0.95
    from seq2seq.metrics import corpus_bleu
    assert corpus_bleu(outputs, [t for _, t in pairs]) == 0.0  # 13a: each string is one word


# ---- the line limit of pairs files ------------------------------------------------------------

def test_a_line_over_the_limit_names_the_file_the_line_and_the_limit(tmp_path):
    path = tmp_path / "long.tsv"
    limit = tasks.MAX_LINE_BYTES
    ok = "a" * (limit - 2) + "\tb"                              # exactly the limit
    path.write_bytes(f"x\ty\r\n{ok}\r\n{ok}\n{ok}".encode())
    assert len(tasks.load_pairs(path)) == 4
    path.write_bytes(f"x\ty\n{ok}\n{ok}b\nz\tw\n".encode())
    with pytest.raises(tasks.CorpusError) as info:
        tasks.load_pairs(path)
    assert str(info.value) == (f"{path}:3: line longer than {limit} bytes, the limit for a line of "
                               f"a pairs file")


def test_a_huge_line_fails_fast_in_bounded_memory(tmp_path):
    path = tmp_path / "huge.tsv"
    with open(path, "wb") as f:
        f.write(b"12\t21\n")
        f.write(b"1" * 20_000_000 + b"\t1\n")                  # 20 MB on line 2
    tracemalloc.start()
    with pytest.raises(tasks.CorpusError, match=r"huge.tsv:2: line longer than 4096 bytes"):
        tasks.load_pairs(path)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 1_000_000
    result = subprocess.run([sys.executable, "-m", "seq2seq", "train", "--task", str(path),
                             "--out", str(tmp_path / "run")], cwd=ROOT, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 1 and len(result.stderr.splitlines()) == 1
    assert "huge.tsv:2: line longer than 4096 bytes" in result.stderr
