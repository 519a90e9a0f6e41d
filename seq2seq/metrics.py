"""How good are the translations? Exact match, token accuracy, BLEU, and accuracy by length.

`corpus_bleu` gives the score of sacrebleu's `corpus_bleu(hyps, [refs]).score / 100` (equal up to
float rounding: sacrebleu works in percent, so it says 1.0000000000000004 where this says 1.0) with
its defaults (one reference per sentence, tokenizer "13a", "exp" smoothing, n-grams up to 4, case
kept), written out here step by step so that it can be read, and so that sacrebleu is needed only
by the tests that check this claim. `corpus_bleu(..., tokens="char")` is sacrebleu's
`tokenize="char"`: every character but whitespace is a token.

Which tokens BLEU counts decides whether it means anything. A model that writes characters
("12345", "1994-09-27") writes one or three 13a "words" a sentence: no 4-grams, so BLEU is 0 even
when every output is right. A character-level run is therefore scored on characters
(`bleu_tokens`), as chrF and character BLEU are in the literature.
"""

import math
import re
from collections import Counter

MAX_ORDER = 4                   # BLEU counts 1-, 2-, 3- and 4-grams


def exact_match(hypotheses, references):
    """The fraction of hypotheses equal to their reference (strings or token lists); 0.0 if none."""
    _check_same_length(hypotheses, references)
    if not references:
        return 0.0
    return sum(h == r for h, r in zip(hypotheses, references)) / len(references)


def token_accuracy(hyp_tokens, ref_tokens):
    """The fraction of reference positions where the hypothesis has the same token.

    Position by position: hypothesis token i is compared with reference token i. A hypothesis that
    is too short gets its missing positions counted as wrong; tokens a hypothesis has beyond the
    end of its reference are not counted at all (use `exact_match` to see those). Summed over the
    corpus: correct positions / reference tokens; 0.0 when there are no reference tokens.

    >>> token_accuracy([["a", "b", "x"], ["c"]], [["a", "b", "c"], ["c", "d"]])    # (2 + 1) / 5
    0.6
    """
    _check_same_length(hyp_tokens, ref_tokens)
    correct = sum(h == r for hyp, ref in zip(hyp_tokens, ref_tokens) for h, r in zip(hyp, ref))
    total = sum(len(ref) for ref in ref_tokens)
    return correct / total if total else 0.0


def accuracy_by_length(sources_tokens, hypotheses, references):
    """Exact match by the length of the source: {source length: fraction}, sorted by length."""
    _check_same_length(hypotheses, references)
    _check_same_length(sources_tokens, references)
    right, seen = Counter(), Counter()
    for source, hyp, ref in zip(sources_tokens, hypotheses, references):
        seen[len(source)] += 1
        right[len(source)] += hyp == ref
    return {length: right[length] / seen[length] for length in sorted(seen)}


def bleu_by_length(sources_tokens, hypotheses, references, tokens="13a"):
    """Corpus BLEU of each group of sentences with the same source length (as Bahdanau et al.,
    2015, Fig. 2, plot it): {source length: BLEU, or None where no reference of the group has
    MAX_ORDER tokens, so that BLEU, which needs 4-grams, cannot say anything}."""
    _check_same_length(hypotheses, references)
    _check_same_length(sources_tokens, references)
    groups = {}
    for source, hyp, ref in zip(sources_tokens, hypotheses, references):
        groups.setdefault(len(source), ([], []))
        groups[len(source)][0].append(hyp)
        groups[len(source)][1].append(ref)
    if tokens not in BLEU_TOKENIZERS:
        raise ValueError(f"unknown BLEU tokens {tokens!r}; expected one of {list(BLEU_TOKENIZERS)}")
    tokenize = BLEU_TOKENIZERS[tokens]
    return {length: (corpus_bleu(hyps, refs, tokens)
                     if any(len(tokenize(r)) >= MAX_ORDER for r in refs) else None)
            for length, (hyps, refs) in sorted(groups.items())}


# ---- BLEU ----------------------------------------------------------------------------------

# The 13a tokenisation (from the mteval-v13a script used by WMT), as four rewrites of the string:
#   1. ASCII punctuation other than ' , - . gets spaces around it: "a(b)" -> "a ( b )"
#   2. "." and "," get spaces unless they are between digits: "end." -> "end ." but "3.14" stays
#      (2a: split when the character before is not a digit, 2b: when the one after is not)
#   3. "-" after a digit is split off: "1994-09" -> "1994 - 09"
#   4. runs of whitespace become one space (done by str.split below)
_PUNCTUATION = "".join(chr(c) for c in range(0x20, 0x7F)
                       if not chr(c).isalnum() and chr(c) not in "',-.")
_SPLIT_PUNCTUATION = re.compile("([" + re.escape(_PUNCTUATION) + "])")
_SPLIT_POINT_AFTER_NON_DIGIT = re.compile(r"([^0-9])([.,])")
_SPLIT_POINT_BEFORE_NON_DIGIT = re.compile(r"([.,])([^0-9])")
_SPLIT_DASH_AFTER_DIGIT = re.compile(r"([0-9])(-)")


def tokenize_13a(text):
    """The tokens BLEU counts in `text`, split as sacrebleu's default "13a" tokenizer does."""
    text = text.rstrip()                            # trailing whitespace and newline go first
    text = text.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    text = (text.replace("&quot;", '"').replace("&amp;", "&")       # undo SGML escapes, in this
                .replace("&lt;", "<").replace("&gt;", ">"))         # order ("&amp;lt;" -> "<")
    text = f" {text} "                              # so a point at either end has a neighbour
    text = _SPLIT_PUNCTUATION.sub(r" \1 ", text)
    text = _SPLIT_POINT_AFTER_NON_DIGIT.sub(r"\1 \2 ", text)
    text = _SPLIT_POINT_BEFORE_NON_DIGIT.sub(r" \1 \2", text)
    text = _SPLIT_DASH_AFTER_DIGIT.sub(r"\1 \2 ", text)
    return text.split()


def ngram_counts(tokens, n):
    """How often each n-gram (a tuple of n tokens) occurs in `tokens`."""
    return Counter(tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1))


def tokenize_chars(text):
    """The tokens of character BLEU: every character that is not whitespace ("9/27" -> 9 / 2 7)."""
    return [c for c in text if not c.isspace()]


BLEU_TOKENIZERS = {"13a": tokenize_13a, "char": tokenize_chars}


def bleu_tokens(level):
    """The BLEU tokens that suit a run's level: "13a" words for "word", characters for "char"."""
    return "char" if level == "char" else "13a"


def bleu_statistics(hypotheses, references, tokens="13a"):
    """The corpus totals BLEU is made of.

    matches[n-1]   n-grams of the hypotheses also found in their reference, each counted at most
                   as often as the reference has it ("clipping": "the the the" vs "the cat"
                   matches once)
    totals[n-1]    n-grams of the hypotheses
    hyp_len        tokens in all hypotheses;  ref_len  tokens in all references
    """
    if tokens not in BLEU_TOKENIZERS:
        raise ValueError(f"unknown BLEU tokens {tokens!r}; expected one of {list(BLEU_TOKENIZERS)}")
    tokenize = BLEU_TOKENIZERS[tokens]
    matches, totals = [0] * MAX_ORDER, [0] * MAX_ORDER
    hyp_len = ref_len = 0
    for hypothesis, reference in zip(hypotheses, references):
        hyp, ref = tokenize(hypothesis), tokenize(reference)
        hyp_len += len(hyp)
        ref_len += len(ref)
        for n in range(1, MAX_ORDER + 1):
            hyp_ngrams, ref_ngrams = ngram_counts(hyp, n), ngram_counts(ref, n)
            totals[n - 1] += sum(hyp_ngrams.values())
            matches[n - 1] += sum(min(count, ref_ngrams[g]) for g, count in hyp_ngrams.items())
    return matches, totals, hyp_len, ref_len


def corpus_bleu(hypotheses, references, tokens="13a"):
    """BLEU of a corpus of hypotheses against one reference each, in [0, 1], counting "13a" words
    (the default) or "char"acters as tokens.

        BLEU = BP * exp( (log p1 + log p2 + log p3 + log p4) / 4 )

    pn = matches / totals of n-grams over the whole corpus (see `bleu_statistics`).
    "exp" smoothing: the k-th order with no match at all gets pn = 1 / (2**k * totals) instead of 0.
    BP, the brevity penalty, punishes a corpus of hypotheses shorter than its references:
    BP = exp(1 - ref_len / hyp_len) if hyp_len < ref_len, else 1 (and 0 if hyp_len is 0).
    The score is 0 when nothing matches, or when the hypotheses have no n-grams of some order
    (all shorter than n tokens).
    """
    _check_same_length(hypotheses, references)
    matches, totals, hyp_len, ref_len = bleu_statistics(hypotheses, references, tokens)
    if hyp_len >= ref_len:
        brevity_penalty = 1.0
    else:
        brevity_penalty = math.exp(1.0 - ref_len / hyp_len) if hyp_len > 0 else 0.0
    if not any(matches) or not all(totals):
        return 0.0
    log_precisions = []
    halvings = 1                                    # 2**k for the k-th order without a match
    for n in range(1, MAX_ORDER + 1):
        if matches[n - 1] == 0:
            halvings *= 2
            log_precisions.append(math.log(1.0 / (halvings * totals[n - 1])))
        else:
            log_precisions.append(math.log(matches[n - 1] / totals[n - 1]))
    return brevity_penalty * math.exp(sum(log_precisions) / MAX_ORDER)


def _check_same_length(a, b):
    if len(a) != len(b):
        raise ValueError(f"got {len(a)} hypotheses (or sources) but {len(b)} references")
