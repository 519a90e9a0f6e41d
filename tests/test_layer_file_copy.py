"""A run keeps a copy of its layer file (seq2seq.commands.rnn_file.keep_copy), made of the bytes
the run recorded. The same bytes give one module for the whole process, so the module found may
have been loaded earlier from another file, one with those bytes then and other bytes now (two
tutorial pages run in one process, each writing its own my_gru.py, the first page then editing
its file). The copy is still made, from the recorded file, whose bytes hash as recorded."""

import sys

import pytest

from seq2seq.commands import rnn_file

SOURCE = "class Layer:\n    pass\n\n# test_layer_file_copy\n"


@pytest.fixture
def clean_modules():
    """Forget the module the test loads, so that no other test finds it."""
    before = set(sys.modules)
    yield
    for name in set(sys.modules) - before:
        del sys.modules[name]


def test_the_copy_is_made_from_the_recorded_file_when_the_file_loaded_first_changed(
        tmp_path, clean_modules):
    first, second = tmp_path / "first" / "layer.py", tmp_path / "second" / "layer.py"
    for path in (first, second):
        path.parent.mkdir()
        path.write_text(SOURCE)
    rnn_file.load(f"{first}:Layer")                 # this process holds the module, from `first`
    first.write_text(SOURCE + "# edited afterwards\n")
    _, saved = rnn_file.record(f"{second}:Layer")   # the same bytes, recorded from `second`
    run = tmp_path / "run"
    run.mkdir()
    copy = rnn_file.keep_copy(run, saved)
    assert copy.read_text() == SOURCE


def test_a_recorded_file_changed_before_its_copy_is_made_is_still_refused(tmp_path,
                                                                          clean_modules):
    layer = tmp_path / "layer.py"
    layer.write_text(SOURCE + "# a file of its own\n")
    _, saved = rnn_file.record(f"{layer}:Layer")
    layer.write_text(SOURCE + "# changed while the run trained\n")
    run = tmp_path / "run"
    run.mkdir()
    with pytest.raises(rnn_file.RnnFileChanged, match="changed while the run trained"):
        rnn_file.keep_copy(run, saved)
