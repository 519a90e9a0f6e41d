"""Writes numbers.tsv, the sample pairs file: English number words and their digits, one pair a
line, 1,500 numbers below a million.

    forty-two thousand seven hundred one<TAB>42701

    python examples/numbers.py          # writes examples/numbers.tsv again, byte for byte

Train on it with `python -m seq2seq train --task examples/numbers.tsv ...` (README, "The command
line"). The file holds every pair; training holds out a tenth of the sources itself, as it does
for any pairs file, and `evaluate` scores those: numbers the model never saw, made of words it
saw in others. Read at the character level, the default, every digit written is a token of its
own, and the words' letters are what attention looks at. The words leave the zeros unsaid
("forty-two thousand seven hundred one" has no word for the 0 of 42701): the model has to count
the places itself.

The numbers: every one from 0 to 99, then 350 of each length from 3 to 6 digits, drawn without
repeats by Python's `random.Random(0)` (whose draws from a seed are the same in every Python 3).
"""

import random
from pathlib import Path

ONES = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
        "nineteen"]
TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
PER_LENGTH = 350                # numbers of each length from 3 to 6 digits
FILE = Path(__file__).with_name("numbers.tsv")


def number_words(n):
    """0 <= n < 1,000,000 in words, American style, without "and":
    42701 -> "forty-two thousand seven hundred one"."""
    if not 0 <= n < 1_000_000:
        raise ValueError(f"number_words takes 0 to 999999, got {n}")
    thousands, rest = divmod(n, 1000)
    if thousands == 0:
        return _below_1000(rest)
    return _below_1000(thousands) + " thousand" + ("" if rest == 0 else " " + _below_1000(rest))


def _below_1000(n):
    if n < 20:
        return ONES[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return TENS[tens] + ("" if ones == 0 else "-" + ONES[ones])
    hundreds, rest = divmod(n, 100)
    return ONES[hundreds] + " hundred" + ("" if rest == 0 else " " + _below_1000(rest))


def numbers():
    """0 to 99, then PER_LENGTH distinct numbers of each length from 3 to 6 digits."""
    rng = random.Random(0)
    chosen = list(range(100))
    for digits in range(3, 7):
        chosen += rng.sample(range(10 ** (digits - 1), 10 ** digits), PER_LENGTH)
    return chosen


def pairs():
    """The (words, digits) pairs, in the file's order."""
    return [(number_words(n), str(n)) for n in numbers()]


def text():
    """The file's text: "words<TAB>digits" a line, each line ending in a newline."""
    return "".join(f"{words}\t{digits}\n" for words, digits in pairs())


if __name__ == "__main__":
    FILE.write_text(text(), encoding="utf-8", newline="\n")
    print(f"wrote {FILE.name}: {len(pairs())} pairs")
