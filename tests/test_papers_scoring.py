"""Luong et al. (2015), on a seeded run (seq2seq.papers.scoring): the dot, general and additive
scores all learn toy-ja-en, within a few points of each other, and the additive one costs the
most time per epoch. About 8 s (17 s on a busy machine)."""

import json

import pytest

from seq2seq.papers.scoring import compare_scoring


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    out = tmp_path_factory.mktemp("scoring")
    return compare_scoring(out, seeds=1, epochs=4, num_examples=3000, hidden_size=48, max_len=10,
                           n_held_out=400, log=lambda line: None), out


@pytest.mark.slow
def test_the_three_scores_learn_the_task_alike(result):
    result, _ = result
    exact = {score: row["exact_match"][0] for score, row in result["scores"].items()}
    assert list(exact) == ["dot", "general", "additive"] and result["sentences"] > 250
    assert min(exact.values()) > 0.9 and max(exact.values()) - min(exact.values()) < 0.05


@pytest.mark.slow
def test_the_additive_score_has_the_most_parameters_and_costs_the_most_time(result):
    result, out = result
    scores, hidden = result["scores"], result["hidden_size"]
    assert [scores[s]["attention_parameters"] for s in scores] == [
        0, hidden * hidden, 2 * hidden * hidden + hidden]
    seconds = {s: row["cpu_seconds_per_epoch"][0] for s, row in scores.items()}
    assert seconds["additive"] > 1.1 * seconds["dot"]       # process time: others do not count
    assert json.loads((out / "compare-scoring.json").read_text(encoding="utf-8")) == result
    assert (out / "compare-scoring.png").read_bytes()[:4] == b"\x89PNG"
