"""Bahdanau et al. (2015), Fig. 2, on a seeded run (seq2seq.papers.lengths): as sources grow the
plain encoder-decoder falls and the attention model holds up, and beyond the lengths either
trained on, attention still scores far above the plain model. About 15 s (30 s on a busy
machine)."""

import json

import pytest

from seq2seq.papers.lengths import compare_lengths


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    out = tmp_path_factory.mktemp("lengths")
    return compare_lengths(out, "toy-ja-en", epochs=5, num_examples=6000, hidden_size=64,
                           seed=0, max_len=10, test_max_len=14, n_held_out=1500,
                           log=lambda line: None), out


def by_length(result, model, key):
    return {int(n): v for n, v in result[model][key].items()}


@pytest.mark.slow
def test_within_the_trained_lengths_the_plain_model_falls_and_attention_holds(result):
    result, _ = result
    plain, attention = (by_length(result, m, "exact_match") for m in ("plain", "attention"))
    trained = [n for n in plain if n <= 10]
    assert min(attention[n] for n in trained) >= 0.9
    assert plain[min(trained)] - plain[10] > 0.5 and plain[10] < 0.4
    plain_bleu = by_length(result, "plain", "bleu")
    assert plain_bleu[4] > plain_bleu[7] > plain_bleu[10]


@pytest.mark.slow
def test_beyond_the_trained_lengths_attention_stays_far_ahead(result):
    result, _ = result
    assert result["trained_lengths"] == [3, 10] and result["tested_lengths"] == [3, 14]
    plain, attention = (by_length(result, m, "bleu") for m in ("plain", "attention"))
    longer = [n for n in attention if n > 10]
    assert longer == [11, 12, 13, 14]
    assert all(attention[n] > plain[n] + 0.2 for n in longer)
    exact = by_length(result, "attention", "exact_match")
    assert exact[11] > 0.5 > exact[14]                  # attention too fades past its training


@pytest.mark.slow
def test_the_json_and_the_figure_are_written(result):
    result, out = result
    assert json.loads((out / "compare-lengths.json").read_text()) == result
    assert (out / "compare-lengths.png").read_bytes()[:4] == b"\x89PNG"
    assert sum(result["attention"]["sentences"].values()) > 1000
