"""Every dotted name of ours that the code's docstrings and comments, the README and the docs
quote in backticks (`seq2seq.models.recurrent.bridge`) exists: a reader who looks one up finds it,
rather than a name left behind by a move."""

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
QUOTED = re.compile(r"`((?:minigrad|seq2seq|attention)(?:\.[A-Za-z_]\w*)+)`")
FORMER = {"minigrad.check", "attention.check", "seq2seq.check"}    # the graders' former names,
                                                                 # quoted as such in coursework.md
FILES = sorted([*ROOT.glob("minigrad/**/*.py"), *ROOT.glob("attention/**/*.py"),
                *ROOT.glob("seq2seq/**/*.py"), *ROOT.glob("docs/*.md"), ROOT / "README.md"])


def quoted_names():
    found = {}
    for path in FILES:
        for name in QUOTED.findall(path.read_text(encoding="utf-8")):
            if name not in FORMER:
                found.setdefault(name, str(path.relative_to(ROOT)))
    return sorted(found.items())


def resolves(name):
    """Import the longest module prefix of `name`, then look the rest up as attributes."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            thing = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attribute in parts[cut:]:
            if not hasattr(thing, attribute):
                return False
            thing = getattr(thing, attribute)
        return True
    return False


def test_the_sources_quote_some_names_of_ours():
    assert len(quoted_names()) > 30


@pytest.mark.parametrize("name, where", quoted_names(), ids=[n for n, _ in quoted_names()])
def test_a_quoted_name_exists(name, where):
    assert resolves(name), f"{where} quotes `{name}`, which does not exist"
