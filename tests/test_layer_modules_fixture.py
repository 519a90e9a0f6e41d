"""The modules that layer and block files make (seq2seq_rnn_..., seq2seq_block_...) are dropped
by one fixture, `forget_layer_modules` in conftest.py, which every test that needs it uses: a
second copy of the loop drifts (one kept "mycell", another "statistics", a third forgot the
block modules)."""

import re
import sys
import types
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def test_the_fixture_drops_layer_and_block_modules_and_the_names_given(forget_layer_modules,
                                                                       monkeypatch):
    for name in ("seq2seq_rnn_0123", "seq2seq_block_4567", "mycell", "seq2seq_other"):
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    forget_layer_modules("mycell")
    assert [name for name in ("seq2seq_rnn_0123", "seq2seq_block_4567", "mycell")
            if name in sys.modules] == []
    assert "seq2seq_other" in sys.modules


def test_no_test_file_drops_those_modules_with_a_loop_of_its_own():
    loop = re.compile(r"for \w+ in \[\w+ for \w+ in sys\.modules")
    own = [path.name for path in sorted(TESTS.glob("*.py"))
           if path.name != "conftest.py" and loop.search(path.read_text(encoding="utf-8"))]
    assert own == []
