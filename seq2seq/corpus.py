"""Corpus files: pairs read from a text file, one "source<sep>target" a line, and the split of
any pairs (a corpus's or a built-in task's, `seq2seq.data`) into training and validation.

    load_pairs("dates.txt", sep="_")   one "source<sep>target" pair a line
    split_pairs(pairs, 0.1, seed=0)    (train, val): no validation source is a training source
"""

import random

from minigrad.files import open_regular


class CorpusError(ValueError):
    """A corpus file that cannot be read as pairs; the message names the file and the line."""


MAX_LINE_BYTES = 4096          # the longest line a pairs file may have (UTF-8 bytes, no newline)


def load_pairs(path, sep="\t", max_line_bytes=MAX_LINE_BYTES):
    """The pairs of a text file: one "source<sep>target" a line, split at the first `sep`.

    Both sides are stripped of surrounding whitespace (so "27 sep 1994     _1994-09-27" is fine)
    and blank lines are skipped. Raises CorpusError, naming the file (and the line), for a path
    that is not a regular file (a FIFO, a directory: refused before it is read), for text that
    is not UTF-8, a line without `sep`, an empty source or target, a line longer than
    `max_line_bytes` bytes, or a file without pairs.

    The length limit is checked while reading, a bounded piece at a time, so that one huge line
    (a file that is not a corpus, a missing newline) fails at once, before it can take the memory
    and the hours that training on a sequence of millions of tokens would.
    """
    pairs, lineno = [], 0
    with open_regular(path, "a pairs file", CorpusError) as f:     # a FIFO would block forever
        while raw := f.readline(max_line_bytes + 2):    # room for the limit and "\r\n"
            lineno += 1
            if len(raw.rstrip(b"\r\n")) > max_line_bytes:
                raise CorpusError(f"{path}:{lineno}: line longer than {max_line_bytes} bytes, the "
                                  f"limit for a line of a pairs file")
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as e:
                raise CorpusError(f"{path}:{lineno}: not UTF-8 text (byte 0x{raw[e.start]:02x} "
                                  f"at column {e.start + 1})") from None
            if lineno == 1:
                line = line.removeprefix("\ufeff")          # a byte-order mark some editors write
            if not line.strip():
                continue
            if sep not in line:
                raise CorpusError(f"{path}:{lineno}: expected 'source{sep}target', found no "
                                  f"{sep!r} in {line.rstrip(chr(13) + chr(10))!r}")
            source, target = (side.strip() for side in line.split(sep, 1))
            if not source or not target:
                raise CorpusError(f"{path}:{lineno}: empty {'source' if not source else 'target'}"
                                  f" in {line.rstrip(chr(13) + chr(10))!r}")
            pairs.append((source, target))
    if not pairs:
        what = "the file is empty" if lineno == 0 else f"all {lineno} lines are blank"
        raise CorpusError(f"{path}:{max(lineno, 1)}: no pairs, {what}; expected "
                          f"'source{sep}target' lines")
    return pairs


def split_pairs(pairs, val_fraction=0.1, seed=0):
    """(train, val), split by source: no validation source is ever a training source.

    The distinct sources are shuffled with `seed` and the last `val_fraction` of them are held
    out; every pair goes to the side of its source, so a source that occurs twice (a generated
    task repeats its short sentences, a corpus may list two translations) never sits on both
    sides, where the validation score would reward memorising. The pairs keep their shuffled
    order within each side.

    Sources are compared by `source_key`, with runs of whitespace made one space: "a b" and
    "a  b" tokenize alike at word level, so they are one source and go to the same side (at
    character level this only merges more, which keeps the split on the safe side).
    """
    if not 0.0 <= val_fraction < 1.0:
        raise ValueError(f"val_fraction must be in [0, 1), got {val_fraction}")
    shuffled = list(pairs)
    random.Random(seed).shuffle(shuffled)
    sources = list(dict.fromkeys(source_key(s) for s, _ in shuffled))  # distinct, in that order
    n_val = round(len(sources) * val_fraction)
    held_out = set(sources[len(sources) - n_val:])
    return ([pair for pair in shuffled if source_key(pair[0]) not in held_out],
            [pair for pair in shuffled if source_key(pair[0]) in held_out])


def source_key(source):
    """The form under which two sources count as the same: whitespace runs made one space and
    the ends stripped, as word-level tokenization sees them."""
    return " ".join(source.split())
