"""Bahdanau et al. (2015), Fig. 3, on a seeded run (seq2seq.papers.alignments): a trained model's
attention puts most of its mass where the task says it should, the anti-diagonal of reversal and
the crossing verb of toy-ja-en. About 11 s (20 s on a busy machine); the expected cells are
checked by hand first, in no time."""

import json

import pytest

from seq2seq.papers.alignments import alignments, expected_cells


def test_reversal_expects_the_anti_diagonal():
    assert expected_cells("reverse", list("123"), list("321")) == {
        "digits": [(0, 2), (1, 1), (2, 0)]}


def test_toy_ja_en_expects_each_content_word_on_its_source_and_the_verb_crossing():
    source = "しろい ねこ が さかな を たべる".split()
    output = "the white cat eats fish".split()
    assert expected_cells("toy-ja-en", source, output) == {
        "crossing verb": [(3, 5)],                                  # eats <- たべる, after を
        "content words": [(1, 0), (2, 1), (3, 5), (4, 3)]}          # "the" has no source word
    intransitive = expected_cells("toy-ja-en", "ねこ が ねる".split(), "the cat sleeps".split())
    assert intransitive == {"crossing verb": [], "content words": [(1, 0), (2, 2)]}
    twice = expected_cells("toy-ja-en", "ねこ と ねこ が ねる".split(),
                           "the cat and the cat sleep".split())
    assert twice["content words"] == [(5, 4)]                       # which ねこ? left out


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    out = tmp_path_factory.mktemp("alignments")
    return alignments(out, seed=0, n_held_out=300, log=lambda line: None), out


@pytest.mark.slow
def test_the_reverser_attends_along_the_anti_diagonal(result):
    result, _ = result
    reverse = result["reverse"]
    assert reverse["exact_match"] > 0.95
    assert reverse["digits"]["mass"] >= 0.8 and reverse["digits"]["argmax"] > 0.95


@pytest.mark.slow
def test_the_translator_s_verb_crosses_to_the_end_of_its_clause(result):
    result, out = result
    toy = result["toy-ja-en"]
    assert toy["exact_match"] > 0.9
    assert toy["crossing verb"]["rows"] > 50 and toy["crossing verb"]["mass"] >= 0.8
    assert toy["content words"]["mass"] >= 0.8
    assert json.loads((out / "alignments.json").read_text(encoding="utf-8")) == result
    assert (out / "alignments.png").read_bytes()[:4] == b"\x89PNG"
