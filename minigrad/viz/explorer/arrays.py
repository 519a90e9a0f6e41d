"""The arrays of an explorer page, written so that the browser reads back exactly the engine's
numbers.

Every array (a tensor's values, a gradient, a running total) goes once into a table and is
referred to by its index; two equal arrays (same dtype, shape and bytes) share one entry. An
entry holds:

    shape, dtype, size
    data     all the numbers as one comma-separated string, or None when the array has more
             than `max_elements`, or when the page's numbers already fill `max_bytes` (the page
             then shows its summary only; `explore` takes larger limits)
    head     the first few numbers (always there)
    norm     the Euclidean norm, as a float64
    lines    the lines a drawing shows for it (`minigrad.viz.labels.value_lines`: all entries of
             a small array, a summary of a large one); `short`: one short line for an arrow

Exactness: a float64 is written with Python's `repr`, the shortest text that reads back as the
same double, in JavaScript too. A float32 is written with NumPy's shortest float32 text
(`0.1` for float32(0.1)); the page reads it with `Math.fround(Number(text))`, which gives that
float32 value exactly (held in a double). NaN and infinities are written `NaN`, `Infinity` and
`-Infinity`, which `Number()` reads; JSON has no way to write them as numbers.
"""

import hashlib
import re

import numpy as np

from minigrad.viz import labels
from minigrad.viz.explorer.words import say

HEAD = 6                   # numbers always embedded, even for an array too large to embed
MAX_ELEMENTS = 1024        # arrays larger than this are summarised (explore's default)
MAX_BYTES = 1_000_000      # the numbers of a page, at most (explore's default): past it, the
                           # largest arrays are summarised too


def number_text(array):
    """The numbers of `array` (flattened, C order) as one comma-separated string, exactly."""
    flat = np.asarray(array).ravel()
    kind = flat.dtype.kind
    if kind == "b":
        return ",".join("1" if v else "0" for v in flat.tolist())
    if kind in "iu":
        return ",".join(str(v) for v in flat.tolist())
    if flat.dtype == np.float32:
        return ",".join(_special(v) or str(v) for v in flat)          # shortest float32 text
    return ",".join(_special(v) or repr(v) for v in flat.astype(np.float64).tolist())


def _special(v):
    if v != v:
        return "NaN"
    if v in (float("inf"), float("-inf")):
        return "Infinity" if v > 0 else "-Infinity"
    return ""


def read_numbers(text, dtype):
    """The inverse of number_text, as the page does it (used by the tests and by tools that
    read a page): a flat NumPy array of `dtype`."""
    if text == "":
        return np.zeros(0, dtype=dtype)
    return np.array([float(v) for v in text.split(",")]).astype(dtype)


def norm(array):
    array = np.asarray(array)
    if array.dtype.kind not in "biufc":
        return None
    with np.errstate(all="ignore"):
        value = float(np.sqrt(np.sum(np.square(array, dtype=np.float64))))
    return value if np.isfinite(value) else None


class ArrayTable:
    """The page's arrays, each stored once; `add(array)` returns its index, and `finish()`
    writes out the numbers: every array's, smallest first, while they fit in `max_bytes`."""

    def __init__(self, max_elements=MAX_ELEMENTS, max_bytes=MAX_BYTES):
        self.max_elements, self.max_bytes = max_elements, max_bytes
        self.entries, self.arrays = [], []
        self.index = {}                 # (dtype, shape, digest of the bytes) -> index

    def add(self, array):
        if array is None:
            return None
        array = np.asarray(array)                   # (tobytes() reads it in C order)
        key = (str(array.dtype), array.shape, hashlib.sha1(array.tobytes()).hexdigest())
        if key not in self.index:
            self.index[key] = len(self.entries)
            self.entries.append(self.entry(array))
            self.arrays.append(array)
        return self.index[key]

    def entry(self, array):
        numeric = array.dtype.kind in "biuf"
        return {
            "shape": list(array.shape), "dtype": str(array.dtype), "size": int(array.size),
            "data": None,                               # (finish() writes the numbers)
            "head": number_text(array.ravel()[:HEAD]) if numeric else "",
            "norm": norm(array),
            "lines": labels.value_lines(array),
            "short": labels.short_values(array) if numeric else f"{array.dtype} values",
        }

    def finish(self, first=()):
        """Write the numbers of the arrays that fit: at most `max_elements` each, and, smallest
        array first, until they fill `max_bytes` (so a big model's page stays small). The
        arrays of `first` (indices: those predict mode's questions are answered from) go in
        before all others, smallest first too."""
        room = self.max_bytes
        by_size = sorted(range(len(self.arrays)), key=lambda k: self.arrays[k].size)
        first = set(first)
        for wanted in (True, False):
            for k in by_size:
                array = self.arrays[k]
                if ((k in first) != wanted or array.dtype.kind not in "biuf"
                        or array.size > self.max_elements):
                    continue
                text = number_text(array)
                if len(text) > room:
                    break
                self.entries[k]["data"] = text
                room -= len(text)
        return self.entries


# The summaries of minigrad/viz/labels.py, as it writes them in English, and their keys in the
# words of a page (words/: lines.*).
SUMMARIES = ((r"mean (?P<mean>\S+)  std (?P<std>\S+)", "lines.mean_std"),
             (r"min (?P<min>\S+)  max (?P<max>\S+)", "lines.min_max"),
             (r"(?P<shape>\(.*\)) norm (?P<norm>\S+)", "lines.norm"),
             (r"no finite values", "lines.no_finite"), (r"\(empty\)", "lines.empty"),
             (r"(?P<dtype>\w+) values", "lines.values"))


def in_words(entries, text):
    """The entries' summary lines (a large array's mean, std, min, max; an arrow's norm) in
    the words `text` of the page's language; the numbers and shapes are kept."""
    for entry in entries:
        entry["lines"] = [_said(line, text) for line in entry["lines"]]
        entry["short"] = _said(entry["short"], text)
    return entries


def _said(line, text):
    for pattern, key in SUMMARIES:
        found = re.fullmatch(pattern, line)
        if found:
            return say(text, key, **found.groupdict())
    return line
