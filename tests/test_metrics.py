"""Metrics: exact match, token accuracy, accuracy by length, and BLEU against sacrebleu."""

import math
import random

import pytest

from seq2seq.metrics import (
    accuracy_by_length,
    bleu_by_length,
    bleu_tokens,
    corpus_bleu,
    exact_match,
    token_accuracy,
    tokenize_13a,
    tokenize_chars,
)


def test_exact_match_counts_whole_sentences():
    assert exact_match(["a b", "c", "d"], ["a b", "c ", "d"]) == pytest.approx(2 / 3)
    assert exact_match([], []) == 0.0


def test_metrics_refuse_lists_of_different_lengths():
    with pytest.raises(ValueError, match="2 hypotheses .* 1 references"):
        exact_match(["a", "b"], ["a"])
    with pytest.raises(ValueError):
        corpus_bleu(["a"], ["a", "b"])


def test_token_accuracy_compares_position_by_position():
    hyps = [["a", "b", "x"], ["c"], ["p", "q", "r", "extra"]]
    refs = [["a", "b", "c"], ["c", "d"], ["q", "q", "r"]]
    # (2 right of 3) + (1 of 2: the missing one is wrong) + (2 of 3: the extra token is not counted)
    assert token_accuracy(hyps, refs) == pytest.approx(5 / 8)
    assert token_accuracy([["a"]], [[]]) == 0.0                 # no reference positions at all


def test_token_accuracy_of_a_shifted_hypothesis_is_low():
    ref = list("1994-09-27")
    assert token_accuracy([["x"] + ref[:-1]], [ref]) == pytest.approx(1 / 10)   # only "9" == "9"


def test_accuracy_by_length_groups_by_source_length():
    sources = [["a"], ["a", "b"], ["c"], ["a", "b"], ["d", "e", "f"]]
    hyps = ["x", "y", "z", "w", "v"]
    refs = ["x", "y", "no", "no", "v"]
    result = accuracy_by_length(sources, hyps, refs)
    assert result == {1: 0.5, 2: 0.5, 3: 1.0}
    assert list(result) == [1, 2, 3]


def test_bleu_by_length_is_each_group_s_corpus_bleu_and_none_without_a_4_gram():
    sources = [["a"] * 5, ["b"] * 5, ["c"] * 2, ["d"] * 7]
    hyps = ["the cat eats fish", "a dog runs far away", "a cat", "one two three four five"]
    refs = ["the cat eats fish", "the dog runs far away", "the cat", "one two three four six"]
    result = bleu_by_length(sources, hyps, refs)
    assert list(result) == [2, 5, 7]
    assert result[2] is None                        # "the cat": no 4-gram to match
    assert result[5] == corpus_bleu(hyps[:2], refs[:2]) and 0 < result[5] < 1
    assert result[7] == corpus_bleu(hyps[3:], refs[3:])
    assert bleu_by_length([["1"] * 4], ["1234"], ["1234"], tokens="char") == {4: 1.0}


# ---- BLEU: values worked out by hand -------------------------------------------------------

def test_bleu_of_identical_corpus_is_one():
    corpus = ["the cat eats fish", "a b c d e"]
    assert corpus_bleu(corpus, corpus) == 1.0


def test_bleu_is_the_geometric_mean_of_the_precisions():
    # p1 = 4/5, p2 = 3/4, p3 = 2/3, p4 = 1/2, same length: BLEU = (1/5) ** (1/4)
    assert corpus_bleu(["a b c d e"], ["a b c d f"]) == pytest.approx(0.2 ** 0.25, abs=1e-15)


def test_bleu_exp_smoothing_halves_each_empty_order_again():
    # p1 = 3/4, p2 = 1/3, no 3-gram match: 1/(2*2), no 4-gram match: 1/(4*1)
    expected = (3 / 4 * 1 / 3 * 1 / 4 * 1 / 4) ** 0.25
    assert corpus_bleu(["a b x d"], ["a b c d"]) == pytest.approx(expected, abs=1e-15)


def test_bleu_brevity_penalty_for_short_hypotheses():
    penalty = math.exp(1 - 6 / 4)                   # 4 tokens for a reference of 6
    assert corpus_bleu(["a b c d"], ["a b c d e f"]) == pytest.approx(penalty, abs=1e-15)
    # longer: no penalty, but a lower precision
    assert corpus_bleu(["a b c d e f g h"], ["a b c d"]) < 1.0


def test_bleu_clips_repeated_words():
    # "the" six times, but twice in the reference: p1 = 2/6; no 2-gram "the the" in the reference
    hyp, ref = "the the the the the the", "the cat the dog x y"
    expected = (2 / 6 * 1 / (2 * 5) * 1 / (4 * 4) * 1 / (8 * 3)) ** 0.25
    assert corpus_bleu([hyp], [ref]) == pytest.approx(expected, abs=1e-15)


def test_bleu_is_zero_without_matches_or_without_4grams():
    assert corpus_bleu(["x y z w"], ["a b c d"]) == 0.0
    assert corpus_bleu(["a b c"], ["a b c"]) == 0.0             # three tokens have no 4-gram
    assert corpus_bleu([""], ["a b c d"]) == 0.0
    assert corpus_bleu([], []) == 0.0


def test_13a_splits_punctuation_but_keeps_numbers():
    assert tokenize_13a("Hello, world! (3.14) 1,000 end.") == \
        ["Hello", ",", "world", "!", "(", "3.14", ")", "1,000", "end", "."]
    assert tokenize_13a("1994-09-27 don't &amp; &lt;b&gt;") == \
        ["1994", "-", "09", "-", "27", "don't", "&", "<", "b", ">"]


# ---- BLEU: the same numbers as sacrebleu ---------------------------------------------------

WORDS = ["the", "The", "THE", "cat", "cat.", "cats", "eats", "fish", ",", ".", "!", "?", "(", ")",
         "3.14", "1,000", "1994-09-27", "don't", "e.g.", "&amp;", "&quot;hi&quot;", "a-b", "x/y",
         "ねこ", "さかな", "café", "naïve", "«", "»", "—", "$5", "50%", "<skipped>"]

TRICKY = [
    ([""], ["the cat"]),                                        # empty hypothesis
    (["", "the cat eats fish"], ["a dog", "the cat eats fish"]),
    (["the cat"], ["the cat eats fish every day"]),             # much shorter
    (["the cat eats fish every day and night"], ["the cat eats"]),  # longer
    (["the cat sat on the mat"], ["the cat on the mat sat"]),   # no 4-gram match
    (["a b c d e"], ["a x c y e"]),                             # no 2-gram match
    (["Hello, World!"], ["hello, world!"]),                     # case matters
    (["It costs $3.50, i.e. a lot."], ["It costs $3.50 , i.e. a lot ."]),
    (["ねこ が さかな を たべる"], ["ねこ が さかな を たべる"]),          # non-ASCII
    (["ねこがさかなをたべる"], ["ねこ が さかな を たべる"]),
    (["2019-01-01 was a Tuesday."], ["2019 - 01 - 01 was a Tuesday ."]),
    (["line one\nline two  \n"], ["line one line two"]),        # newlines, trailing space
    (["the the the the"], ["the cat the"]),
    (["&lt;b&gt; bold &amp;amp; more"], ["<b> bold &amp; more"]),
]


@pytest.mark.parametrize("hyps, refs", TRICKY)
def test_bleu_equals_sacrebleu_on_tricky_cases(hyps, refs):
    sacrebleu = pytest.importorskip("sacrebleu")
    expected = sacrebleu.corpus_bleu(hyps, [refs]).score / 100
    assert corpus_bleu(hyps, refs) == pytest.approx(expected, abs=1e-12)


def test_bleu_equals_sacrebleu_on_random_corpora():
    sacrebleu = pytest.importorskip("sacrebleu")
    rng = random.Random(0)
    scores = []
    for _ in range(300):
        n = rng.randint(1, 6)
        refs = [" ".join(rng.choices(WORDS[:12], k=rng.randint(0, 15))) for _ in range(n)]
        # hypotheses: noisy copies of the references, so that every n-gram order matches sometimes
        hyps = [" ".join(w if rng.random() < 0.7 else rng.choice(WORDS) for w in r.split()
                         if rng.random() < 0.9) for r in refs]
        expected = sacrebleu.corpus_bleu(hyps, [refs]).score / 100
        assert corpus_bleu(hyps, refs) == pytest.approx(expected, abs=1e-12), (hyps, refs)
        scores.append(expected)
    assert 0.0 in scores and max(scores) == pytest.approx(1.0)
    assert any(0.05 < s < 0.95 for s in scores)


def test_13a_tokens_equal_sacrebleus_on_random_strings():
    pytest.importorskip("sacrebleu")
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
    sacre_tokenize = Tokenizer13a()
    pieces = list("aZ09 .,-'\"()&;:!?/<>\n\t[]{}|~`^_@#$%*+=\\") + \
        ["日本", "ñ", "&amp;", "&lt;", "&gt;", "&quot;", "<skipped>", "-\n", "3.5", "1,000", " . "]
    rng = random.Random(1)
    for _ in range(2000):
        text = "".join(rng.choices(pieces, k=rng.randint(0, 25)))
        # sacrebleu strips trailing whitespace before it tokenizes
        assert tokenize_13a(text) == sacre_tokenize(text.rstrip()).split(), repr(text)


# ---- BLEU over characters, for character-level runs ------------------------------------------

def test_char_bleu_scores_digit_strings_that_13a_cannot():
    refs = ["12345", "90710", "350"]
    hyps = ["12345", "90710", "305"]
    assert corpus_bleu(refs, refs) == 0.0                       # 13a: one word each, no 4-gram
    assert corpus_bleu(refs, refs, tokens="char") == 1.0
    # characters: p1 = 13/13, p2 = 8/10 ("30", "05" miss), p3 = 6/7, p4 = 4/4; same length
    assert corpus_bleu(hyps, refs, tokens="char") == pytest.approx((0.8 * 6 / 7) ** 0.25, abs=1e-15)
    assert tokenize_chars(" 9/27 94\n") == ["9", "/", "2", "7", "9", "4"]
    assert [bleu_tokens("char"), bleu_tokens("word")] == ["char", "13a"]
    with pytest.raises(ValueError, match="unknown BLEU tokens 'bytes'"):
        corpus_bleu(hyps, refs, tokens="bytes")


def test_char_bleu_equals_sacrebleus_char_tokenizer_on_random_corpora():
    sacrebleu = pytest.importorskip("sacrebleu")
    rng = random.Random(2)
    alphabet = list("0123456789-/ .,abcねこ") + ["  ", "\t"]
    for _ in range(200):
        n = rng.randint(1, 5)
        refs = ["".join(rng.choices(alphabet, k=rng.randint(0, 14))) for _ in range(n)]
        hyps = ["".join(c if rng.random() < 0.8 else rng.choice(alphabet) for c in r) for r in refs]
        expected = sacrebleu.corpus_bleu(hyps, [refs], tokenize="char").score / 100
        got = corpus_bleu(hyps, refs, tokens="char")
        assert got == pytest.approx(expected, abs=1e-12), (hyps, refs)
