"""Writes numbers.tsv, the sample pairs file: English number words and their digits, one pair a
line, 1,500 numbers below a million.

    forty-two thousand seven hundred one<TAB>42701

    python examples/numbers.py            # writes examples/numbers.tsv again, byte for byte
    python examples/numbers.py --check    # says whether the file is that, and writes nothing
    python examples/numbers.py --out my.tsv

The file is written atomically (a temporary file renamed over it: a kill leaves the old file or
the new one). A file that is already there and holds anything else, an edited copy, is not
replaced unless --overwrite says so, and keeps its permissions when it is. --out is a file or
nothing yet: a device, a FIFO or a symlink to nothing is refused (a symlink to a file is
written through).

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

import argparse
import errno
import importlib.util
import os
import random
import stat
import sys
import tempfile
from pathlib import Path

ONES = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
        "nineteen"]
TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
PER_LENGTH = 350                # numbers of each length from 3 to 6 digits
FILE = Path(__file__).with_name("numbers.tsv")
ROOT = Path(__file__).resolve().parent.parent


def _module(path):
    """A module of the project read from its file, not imported by name: this script's name,
    numbers.py, hides the standard `numbers` module that NumPy imports, so importing minigrad
    or seq2seq would fail. The language and the messages' two catalogues import nothing."""
    spec = importlib.util.spec_from_file_location(f"_numbers_{path.stem}", ROOT / path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


language = _module(Path("minigrad/language.py"))
TEXTS = {name: _module(Path(f"seq2seq/data/messages/{name}.py")).MESSAGES
         for name in language.LANGUAGES}
REASONS = {name: _module(Path(f"minigrad/messages/{name}_tools.py")).TOOLS   # os.ENOENT, ...
           for name in language.LANGUAGES}
LANG = None                     # --lang, once read; else the locale decides


def say(key, **values):
    """The message `key` (sample.*) in --lang's language, else the locale's."""
    return TEXTS[LANG or language.from_environment()][key].format(**values)


def reason(error):
    """Why the system refused, in that language for the usual errnos (minigrad's os.* messages,
    as minigrad.files.os_reason says them), else as the system said it."""
    key = f"os.{errno.errorcode.get(error.errno, '')}"
    said = REASONS[LANG or language.from_environment()].get(key)
    return said if said and error.strerror else error.strerror or str(error)


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


def main(argv=None):
    """The command line: write the file (or check it, --check); 0 when done, 1 with one line
    on stderr when refused."""
    parser = argparse.ArgumentParser(prog="python examples/numbers.py", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", metavar="PATH", type=Path, default=FILE,
                        help=f"the file to write (default: {FILE.name} beside this script)")
    parser.add_argument("--check", action="store_true",
                        help="check that the file is what this script writes; write nothing")
    parser.add_argument("--overwrite", action="store_true",
                        help="replace a file at --out that holds anything else")
    parser.add_argument("--lang", choices=language.LANGUAGES, default=None, help=language.HELP)
    args = parser.parse_args(argv)
    global LANG
    LANG = args.lang
    wanted = text().encode("utf-8")
    try:
        out, mode = _target(args.out)
        found = _read_at_most(out, len(wanted) + 1) if mode is not None else None
    except OSError as error:
        return _refused(say("sample.cannot_read", out=args.out, reason=reason(error)))
    except ValueError as error:
        return _refused(str(error))
    if args.check:
        if found == wanted:
            print(say("sample.checked", out=args.out, count=len(pairs())))
            return 0
        return _refused(say("sample.check_missing" if found is None else "sample.check_differs",
                            out=args.out))
    if found == wanted:
        print(say("sample.already", out=args.out))
        return 0
    if found is not None and not args.overwrite:
        return _refused(say("sample.edited", out=args.out))
    try:
        write_atomically(out, wanted, 0o644 if mode is None else mode)
    except OSError as error:
        return _refused(say("sample.cannot_write", out=args.out, reason=reason(error)))
    print(say("sample.wrote", out=args.out, count=len(pairs())))
    return 0


def _target(path):
    """The file --out names, and its permission bits (None when there is no file yet): a
    symlink is followed to its file, so the link stays a link. Anything but a regular file (a
    folder, a device such as /dev/zero, a FIFO, a symlink to nothing) is a ValueError: reading
    it would never end or block, and replacing it would put a file where it was."""
    if path.is_symlink() and not path.exists():
        raise ValueError(say("sample.dangling", path=path, target=os.readlink(path)))
    given, path = path, Path(os.path.realpath(path))
    try:
        info = path.stat()
    except FileNotFoundError:
        return path, None
    if stat.S_ISREG(info.st_mode):
        return path, stat.S_IMODE(info.st_mode)
    kind = ("sample.folder" if stat.S_ISDIR(info.st_mode) else
            "sample.fifo" if stat.S_ISFIFO(info.st_mode) else
            "sample.device" if stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode) else
            "sample.socket" if stat.S_ISSOCK(info.st_mode) else "sample.not_regular")
    raise ValueError(say("sample.not_a_file", path=given, kind=say(kind)))


def _read_at_most(path, size):
    """At most `size` bytes of the file: enough to tell it from what this script writes, and no
    more, whatever its length."""
    with open(path, "rb") as file:
        return file.read(size)


def write_atomically(path, data, mode=0o644):
    """`data` into a temporary file beside `path`, flushed to disk, then renamed over `path` with
    permission bits `mode` (a file replaced keeps its own):
    a kill leaves the old file or the new one, never half of one. (The standard library alone,
    as minigrad.files.atomic_write does it: this script cannot import minigrad, see _module.)"""
    fd, temporary = tempfile.mkstemp(dir=Path(path).resolve().parent,
                                     prefix=f".{Path(path).name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.remove(temporary)
        raise


def _refused(message):
    print(say("sample.error", message=message), file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
