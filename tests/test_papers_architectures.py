"""compare-architectures (seq2seq.papers.architectures): the command runs both models for the
budget it is given, scores them as `evaluate` does, writes its report, refuses a folder that is
not its own without --overwrite, and refuses bad --tasks and --budget in one line before anything
is made. Tiny budgets and data: these check the command, not the comparison; the slow test checks
the figures of a run of a few tens of seconds."""

import json

import numpy as np
import pytest

from seq2seq.commands.cli import main
from seq2seq.commands.epoch import run_epoch
from seq2seq.commands.train import TrainConfig, build, task_pairs
from seq2seq.data.batching import encode_source, encode_target
from seq2seq.papers.architectures import compare_architectures

from test_runs import one_error_line, quiet

TINY = ["--tasks", "reverse,dates", "--budget", "0.3", "--num-examples", "60"]


@pytest.mark.parametrize("argv,words", [
    (["--tasks", "reverse,nope"], "--tasks names 'nope', which is not a built-in task"),
    (["--tasks", "reverse,reverse"], "--tasks names a task twice"),
    (["--tasks", "dates"], "--tasks leaves no task to compare on"),
    (["--budget", "nan"], "--budget must be a finite number in (0, 86400], got nan"),
    (["--budget", "-1"], "--budget must be a finite number in (0, 86400], got -1"),
    (["--budget", "0"], "--budget must be"),
])
def test_bad_tasks_and_budgets_are_one_line_and_nothing_is_made(tmp_path, capsys, argv, words):
    out = tmp_path / "experiment"
    assert main(["compare-architectures", *argv, "--out", str(out)]) == 1
    assert words in one_error_line(capsys)
    assert not out.exists()


def test_the_command_trains_both_for_the_budget_and_scores_them_as_evaluate_does(tmp_path,
                                                                                    capsys):
    out = tmp_path / "architectures"
    assert main(["compare-architectures", *TINY, "--out", str(out)]) in (0, None)
    printed = capsys.readouterr().out
    assert "skipping dates: no --dates-file given" in printed
    result = json.loads((out / "compare-architectures.json").read_text(encoding="utf-8"))
    assert result["experiment"] == "compare-architectures" and list(result["tasks"]) == ["reverse"]
    rows = result["tasks"]["reverse"]
    assert list(rows) == ["lstm", "transformer"]
    for name, row in rows.items():
        assert row["updates"] >= 1 and row["cpu_seconds"] >= 0.3       # stopped after, not before
        report = json.loads((out / f"reverse-{name}" / "report.json").read_text())
        assert sum(epoch["updates"] for epoch in report) == row["updates"]
        assert main(["evaluate", str(out / f"reverse-{name}"), "--json"]) in (0, None)
        scores = json.loads(capsys.readouterr().out)
        assert (scores["exact_match"], scores["bleu"], scores["examples"]) == (
            row["exact_match"], row["bleu"], row["examples"])
        assert scores["seen_in_training"] == 0
        assert row["settings"]["lr"] == 1e-3 and row["settings"]["batch_size"] == 128
    assert rows["lstm"]["settings"]["hidden_size"] == 256
    assert rows["transformer"]["settings"]["d_model"] == 64
    assert rows["lstm"]["examples"] == rows["transformer"]["examples"]      # the same split
    assert not (out / "compare-architectures.png").exists()                 # no --plot

    assert main(["compare-architectures", *TINY, "--out", str(out)]) in (0, None)
    assert f"replacing the earlier compare-architectures run in {out}" in capsys.readouterr().out
    (out / "notes.txt").write_text("mine")
    assert main(["compare-architectures", *TINY, "--out", str(out)]) == 1
    assert "--overwrite" in one_error_line(capsys)
    assert main(["compare-architectures", *TINY, "--out", str(out), "--overwrite",
                 "--plot"]) in (0, None)
    assert (out / "notes.txt").read_text() == "mine"
    assert (out / "compare-architectures.png").read_bytes()[:4] == b"\x89PNG"


def test_toy_ja_en_is_also_scored_by_length_beyond_the_trained_lengths(tmp_path):
    lines = []
    result = compare_architectures(tmp_path / "toy", ["toy-ja-en"], budget=0.2,
                                   num_examples=100, n_longer=8, log=lines.append)
    for row in result["tasks"]["toy-ja-en"].values():
        lengths = [int(n) for n in row["by_length"]]
        assert min(lengths) >= 3 and 26 <= max(lengths) <= 30
        assert sum(row["sentences"].values()) == row["examples"] + sum(
            row["sentences"].get(str(n), 0) for n in range(26, 31))
    assert "-- longer than any training source --" in "\n".join(lines)


def test_an_epoch_stops_after_the_update_at_which_until_says_so():
    config = TrainConfig(task="reverse", num_examples=200, batch_size=16, embed_size=8,
                         hidden_size=8, progress=False)
    pairs = task_pairs(config)
    translator = build(config, pairs)
    model = translator.model
    examples = [(encode_source(s, translator.src_vocab, "char"),
                 encode_target(t, translator.tgt_vocab, "char")) for s, t in pairs]
    calls = []

    class Counting:                             # an optimiser that counts its updates
        def zero_grad(self):
            pass

        def step(self):
            calls.append("step")

    loss = run_epoch(model, Counting(), examples, config, np.random.default_rng(0), 0, quiet,
                     until=lambda: len(calls) == 3)
    assert calls == ["step"] * 3                # of the epoch's 13 batches, 3
    assert 0 < loss < 10


@pytest.mark.slow
def test_on_reverse_with_twenty_seconds_each_the_lstm_learns_more_than_the_transformer(tmp_path):
    """20 s of CPU time each on `reverse`, the defaults of `train` (about a minute of CPU time
    in all). Measured on a busy 2-core x86-64 machine, one BLAS thread, under the SkylakeX and
    Haswell kernels of OpenBLAS: the LSTM made 186-205 updates and wrote 99.5-99.6% of the 1,863
    held-out reversals exactly (BLEU 0.998), the Transformer 203-208 updates and 70.7-72.3%
    (BLEU 0.844-0.864). A faster machine makes more updates in the same CPU time and both
    models learn more: the bounds are the measured ranges' lower ends less a margin, and the
    Transformer at most level with the LSTM."""
    result = compare_architectures(tmp_path / "slow", ["reverse"], budget=20, log=quiet)
    lstm, transformer = (result["tasks"]["reverse"][name] for name in ("lstm", "transformer"))
    for row in (lstm, transformer):
        assert 20 <= row["cpu_seconds"] < 22            # stopped within an update of the budget
        assert row["updates"] >= 150 and row["examples"] == 1863
    assert max(lstm["updates"], transformer["updates"]) < 1.5 * min(
        lstm["updates"], transformer["updates"])       # alike per update on reverse
    assert lstm["exact_match"] >= 0.95 and lstm["bleu"] >= 0.98
    assert 0.5 <= transformer["exact_match"] <= lstm["exact_match"] + 0.01
    assert 0.75 <= transformer["bleu"] <= lstm["bleu"] + 0.01


def test_dates_trains_on_the_file_given_and_is_skipped_when_it_is_absent(tmp_path):
    pairs = tmp_path / "dates.txt"
    pairs.write_text("".join(f"march {d}, 19{y}_19{y}-03-{d:02d}\n" for y in range(50, 60)
                             for d in range(1, 9)), encoding="utf-8")
    lines = []
    result = compare_architectures(tmp_path / "dates", ["dates"], budget=0.1, dates_file=pairs,
                                   log=lines.append)
    for name, row in result["tasks"]["dates"].items():
        report = json.loads((tmp_path / "dates" / f"dates-{name}" / "report.json").read_text())
        assert row["updates"] == sum(epoch["updates"] for epoch in report)
        assert row["examples"] == 8 and row["bleu_tokens"] == "char"   # a tenth of 80 sources
    with pytest.raises(ValueError, match="leaves no task"):
        compare_architectures(tmp_path / "none", ["dates"], dates_file=tmp_path / "absent.txt",
                              log=lines.append)
    assert f"skipping dates: no file at --dates-file {tmp_path / 'absent.txt'}" in lines[-1]
