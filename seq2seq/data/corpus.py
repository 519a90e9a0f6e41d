"""Corpus files: pairs read from a text file, one "source<sep>target" a line, and the split of
any pairs (a corpus's or a built-in task's, `seq2seq.data.tasks`) into training and validation.

    load_pairs("dates.txt", sep="_")           one "source<sep>target" pair a line
    load_pairs("fra.txt", columns=(1, 2))      two columns of a longer line (an Anki export)
    split_pairs(pairs, 0.1, seed=0)            (train, val): no validation source is a
                                               training source
"""

import os
import random
import re

from minigrad.files import open_regular
from minigrad.settings import SettingError
from seq2seq.data.messages import message
from seq2seq.data.vocab import SPECIALS, control_character


class CorpusError(ValueError):
    """A corpus file that cannot be read as pairs; the message names the file and the line."""


class SeparatorError(CorpusError):
    """A line that the separator does not cut into a source and a target; `plain`: the message
    without its advice on --sep and --columns, for a separator that came from elsewhere (a
    resumed run's saved config)."""

    def __init__(self, message, plain):
        super().__init__(message)
        self.plain = plain


MAX_LINE_BYTES = 4096          # the longest line a pairs file may have (UTF-8 bytes, no newline)
LINE_END = re.compile(rb"\r\n|\r|\n")     # Unix, Windows, and the lone "\r" of old Mac files
CHUNK_BYTES = 65536

# How big a pairs file may be, checked before a line of it is parsed (`check_size`). Read and
# made ready to train on (split, vocabularies, every pair encoded), a file takes about
# BYTES_PER_PAIR for each line and BYTES_PER_FILE_BYTE for each byte of it: a 32 MB file of
# 2,000,000 short lines took 1.2 GB, a 32 MB file of 32,000 lines of 1,000 characters 0.3 GB.
MAX_FILE_BYTES = 256 * 1024 ** 2
MAX_PAIRS = 1_000_000
BYTES_PER_PAIR, BYTES_PER_FILE_BYTE = 450, 9


def load_pairs(path, sep="\t", max_line_bytes=MAX_LINE_BYTES, columns=None, level=None):
    """The pairs of a text file: one "source<sep>target" a line.

    A line has exactly two columns, unless `columns` picks two of more: (1, 2) takes the first
    two of "Go.<TAB>Va !<TAB>CC-BY 2.0 (France) Attribution: tatoeba.org ..." (a Tatoeba/Anki
    export), (2, 1) trains the other way round. Without `columns` a line with a second `sep`
    is refused rather than split at the first: the attribution column would quietly become
    part of every target.

    Lines may end in LF, CR LF or a lone CR: a file saved with old Mac line ends is still one
    pair a line, not one long pair. Both sides are stripped of surrounding whitespace
    (so "27 sep 1994     _1994-09-27" is fine). Empty lines (nothing between two line ends) are
    skipped; any other line is a pair, so a line of only whitespace is refused like an empty
    side is: "   <TAB>   " has an empty source and target, "   " no separator. At the word level
    (`level="word"`) a word that is one of the reserved tokens (<pad> <bos> <eos> <unk>) is
    refused: it would be read as that token, and <pad> would be masked out as padding.

    Raises CorpusError, naming the file (and the line), for a path that is not a regular file
    (a FIFO, a directory: refused before it is read), a file too big (`check_size`: more than
    MAX_FILE_BYTES, more than MAX_PAIRS lines, or more than the memory available could hold
    once read), for text that is not UTF-8, a line with too few or too many columns, an empty
    source or target, a reserved word, a line longer than `max_line_bytes` bytes, or a file
    without pairs.

    The length limit is checked while reading, a bounded piece at a time, so that one huge line
    (a file that is not a corpus, a missing newline) fails at once, before it can take the memory
    and the hours that training on a sequence of millions of tokens would.
    """
    pairs, lineno = [], 0
    with open_regular(path, message("what.pairs"), CorpusError) as f:    # a FIFO: blocks
        check_size(f, path)
        for lineno, raw in _lines(f, path, max_line_bytes):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as e:
                raise CorpusError(message("corpus.not_utf8", where=f"{path}:{lineno}",
                                          byte=raw[e.start], column=e.start + 1)) from None
            if lineno == 1:
                line = line.removeprefix("\ufeff")          # a byte-order mark some editors write
            if not line:                # only an empty line: "  \t  " is a pair, both empty
                continue
            source, target = _pair(line, sep, columns, f"{path}:{lineno}")
            if level == "word":
                _check_words(source + " " + target, f"{path}:{lineno}")
            pairs.append((source, target))
    if not pairs:
        raise CorpusError(message("corpus.file_empty" if lineno == 0 else "corpus.lines_empty",
                                  where=f"{path}:{max(lineno, 1)}", count=lineno,
                                  sep=repr(sep)[1:-1]))           # a tab as \t, seen
    return pairs


def check_size(f, path):
    """Refuse the pairs file open in `f` (binary, at its start) if it is larger than
    MAX_FILE_BYTES (from its size, before reading), has more than MAX_PAIRS lines, or would
    need more memory than is available once read and made ready to train on (counted from its
    line ends alone, a bounded piece at a time: before any line becomes a Python object). A
    file read whole first and refused after would have taken that memory already."""
    from minigrad.memory import available_bytes
    from minigrad.npz_reader import size
    nbytes = os.fstat(f.fileno()).st_size
    if nbytes > MAX_FILE_BYTES:
        raise CorpusError(message("corpus.too_big", path=path, size=size(nbytes),
                                  most=size(MAX_FILE_BYTES)))
    lines, last = 0, b""
    while chunk := f.read(CHUNK_BYTES):
        lines += chunk.count(b"\n") + chunk.count(b"\r") - chunk.count(b"\r\n")
        lines -= last == b"\r" and chunk[:1] == b"\n"          # a "\r\n" cut in two
        last = chunk[-1:]
    lines += last not in (b"", b"\n", b"\r")                   # the last line, unended
    f.seek(0)
    if lines > MAX_PAIRS:
        raise CorpusError(message("corpus.too_many_lines", path=path, lines=f"{lines:,}",
                                  most=f"{MAX_PAIRS:,}"))
    need, limit = BYTES_PER_PAIR * lines + BYTES_PER_FILE_BYTE * nbytes, available_bytes()
    if limit is not None and need > limit:
        raise CorpusError(message("corpus.too_much_memory", path=path, lines=f"{lines:,}",
                                  size=size(nbytes), need=size(need), limit=size(limit)))


def _lines(f, path, max_line_bytes):
    """(line number, the line's bytes without its end) for each line of the binary file `f`,
    read CHUNK_BYTES at a time. A line longer than `max_line_bytes` is a CorpusError as soon as
    that many bytes have come without a line end."""
    pending, lineno = b"", 0
    while chunk := f.read(CHUNK_BYTES):
        pending += chunk
        cr = pending.endswith(b"\r")          # its "\n" may come with the next chunk: wait
        *lines, pending = LINE_END.split(pending[:-1] if cr else pending)
        for raw in lines:
            lineno += 1
            yield lineno, _checked(raw, path, lineno, max_line_bytes)
        _checked(pending, path, lineno + 1, max_line_bytes)      # the line not ended yet
        pending += b"\r" if cr else b""
    if pending:
        lineno += 1
        yield lineno, _checked(pending.removesuffix(b"\r"), path, lineno, max_line_bytes)


def _checked(raw, path, lineno, max_line_bytes):
    if len(raw) > max_line_bytes:
        raise CorpusError(message("corpus.long_line", where=f"{path}:{lineno}",
                                  most=max_line_bytes))
    return raw


def _pair(line, sep, columns, where):
    """(source, target) of one line, stripped; `where` is "file:line" for the errors."""
    fields = line.split(sep)
    if columns is None and len(fields) > 2:
        plain = message("corpus.columns_found", where=where, count=len(fields), sep=repr(sep),
                        line=repr(line))
        raise SeparatorError(message("corpus.columns_hint", plain=plain), plain)
    wanted = (1, 2) if columns is None else columns
    if len(fields) == 1:                                # a tab shown as \t, not raw
        plain = message("corpus.no_sep", where=where, escaped=repr(sep)[1:-1], sep=repr(sep),
                        line=repr(line))
        raise SeparatorError(plain + _sep_hint(line, sep), plain)
    if len(fields) < max(wanted):
        raise CorpusError(message("corpus.needs_columns", where=where, first=wanted[0],
                                  second=wanted[1], most=max(wanted), count=len(fields),
                                  line=repr(line)))
    source, target = (fields[i - 1].strip() for i in wanted)
    if not source or not target:
        empty = "both" if not source and not target else "source" if not source else "target"
        raise CorpusError(message(f"corpus.empty_{empty}", where=where, line=repr(line)))
    for side, text in (("source", source), ("target", target)):
        if control_character(text) is not None:
            raise CorpusError(message(f"corpus.control_{side}", where=where, line=repr(line),
                                      char=repr(control_character(text))))
    return source, target


SEPARATORS = ("\t", " ", ",", ";", "|")       # what --sep suggests, the first found in the line


def _sep_hint(line, sep):
    """What to do about a line without the separator: "; if the columns are separated by
    something else, give it with --sep ' '", naming the first of SEPARATORS that would split the
    line into two non-empty columns (failing that, into more), or none if no such one does."""
    for fits in (lambda n: n == 2, lambda n: n >= 2):     # two columns exactly, first
        for other in SEPARATORS:
            if other != sep and fits(sum(1 for f in line.split(other) if f.strip())):
                return message("corpus.sep_hint_other", other=repr(other))
    return message("corpus.sep_hint")


def _check_words(text, where):
    """Refuse a word-level sentence holding a reserved token written out."""
    reserved = [word for word in text.split() if word in SPECIALS]
    if reserved:
        raise CorpusError(message("corpus.reserved", where=where, token=repr(reserved[0]),
                                  specials=" ".join(SPECIALS)))


def parse_columns(text):
    """"1,2" -> (1, 2): the columns of a pairs file that hold the source and the target,
    counted from 1. Anything else is a SettingError (a ValueError) saying what was expected."""
    parts = [part.strip() for part in text.split(",")]
    if len(parts) != 2 or not all(p.isascii() and p.isdigit() and int(p) >= 1 for p in parts):
        raise SettingError("columns", message("corpus.columns_syntax", text=repr(text)))
    source, target = (int(p) for p in parts)
    if source == target:
        raise SettingError("columns", message("corpus.columns_same", text=text))
    return source, target


def split_pairs(pairs, val_fraction=0.1, seed=0):
    """(train, val), split by source: no validation source is ever a training source.

    The pairs are shuffled with `seed`, and of the distinct sources, in the order they first
    appear there, the last `val_fraction` are held out. A source that repeats (a generated
    task's short ones) appears early and is seldom held out, so the held-out sources lean to the
    long, rare ones (on `sort`, only 5- and 6-digit sources). Every pair goes to the side of its
    source, so a source that occurs twice (a generated
    task repeats its short sentences, a corpus may list two translations) never sits on both
    sides, where the validation score would reward memorising. The pairs keep their shuffled
    order within each side.

    Sources are compared by `source_key`, with runs of whitespace made one space: "a b" and
    "a  b" tokenize alike at word level, so they are one source and go to the same side (at
    character level this only merges more, which keeps the split on the safe side).
    """
    if not 0.0 <= val_fraction < 1.0:
        raise ValueError(message("corpus.val_fraction", value=val_fraction))
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
