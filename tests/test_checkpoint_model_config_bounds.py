"""Every integer of a checkpoint's model_config is held to a range before anything is built from
it: a hand-edited `layers` of 10**5 (config.layers left at 2) was refused only after 8.7 s and
567 MB of shapes, one dict per layer, and 10**9 grew past 2.5 GB. Each is now one line naming the
file and the entry, at once."""

import time

import pytest

from minigrad.checkpoint import MAX_BYTES
from seq2seq.commands.cli import main
from seq2seq.commands.settings import MAX_HEADS, MAX_LAYERS

from conftest import changed_run as changed

WIDE = MAX_BYTES // 4          # the most floats one weight of a checkpoint can hold

TRANSFORMER = [("layers", 10 ** 9, f"an integer in [1, {MAX_LAYERS}]"),
               ("layers", 10 ** 5, f"an integer in [1, {MAX_LAYERS}]"),
               ("layers", 0, f"an integer in [1, {MAX_LAYERS}]"),
               ("heads", 10 ** 9, f"an integer in [1, {MAX_HEADS}]"),
               *[(name, 10 ** 12, f"an integer in [1, {WIDE}]")
                 for name in ("d_model", "d_ff", "max_len", "src_vocab_size",
                              "tgt_vocab_size")]]
LSTM = [(name, 10 ** 12, f"an integer in [1, {WIDE}]")
        for name in ("embed_size", "hidden_size", "src_vocab_size", "tgt_vocab_size")]


def refused_at_once(folder, capsys, entry, expected):
    started = time.perf_counter()
    assert main(["evaluate", str(folder)]) == 1
    took = time.perf_counter() - started
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {folder / 'checkpoint.npz'}: "), err
    assert f"its {entry!r} entry should be {expected}" in lines[0], lines[0]
    assert took < 5, took


@pytest.mark.parametrize("name, value, expected", TRANSFORMER)
def test_a_transformer_model_config_integer_out_of_range_is_refused_at_once(
        transformer_run, tmp_path, capsys, name, value, expected):
    folder = changed(transformer_run, tmp_path, lambda s: s["model_config"].update({name: value}))
    refused_at_once(folder, capsys, f"model_config.{name}", expected)


@pytest.mark.parametrize("name, value, expected", LSTM)
def test_an_lstm_model_config_integer_out_of_range_is_refused_at_once(
        tiny_run, tmp_path, capsys, name, value, expected):
    folder = changed(tiny_run, tmp_path, lambda s: s["model_config"].update({name: value}))
    refused_at_once(folder, capsys, f"model_config.{name}", expected)
