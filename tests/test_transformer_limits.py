"""Smaller limits of the Transformer and its pieces, each one line that says what is wrong: a
learning rate whose warm-up rate overflows names --lr, a source longer than the model's
positions says how many tokens it takes (translate and evaluate refuse it before translating
anything), integer input keeps the sinusoids' fractions, and float64 into float32 positions or
a float32 cache is refused rather than computed in the wider type."""

import numpy as np
import pytest

from minigrad import Tensor
from attention import KeyValueCache, LearnedPositions, SinusoidalPositions
from seq2seq.commands.cli import main
from seq2seq.models.transformer import Transformer
from seq2seq.translator import load_translator


def one_error_line(capsys):
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


def test_a_learning_rate_whose_warm_up_rate_overflows_names_lr(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["train", "--arch", "transformer", "--task", "sort", "--num-examples", "60",
                 "--d-model", "16", "--heads", "2", "--layers", "1", "--lr", "1e308",
                 "--out", str(out), "--no-progress"]) == 1
    assert one_error_line(capsys) == (
        "error: --lr 1e+308 is too large for the warm-up schedule: its base rate, lr x "
        "sqrt(d_model x warmup), is not a finite number")
    assert not out.exists()


def test_translate_refuses_a_source_beyond_the_learned_positions_saying_how_many_it_takes(
        transformer_run, capsys):
    most = load_translator(transformer_run)[0].model.max_len
    assert main(["translate", str(transformer_run), "1" * (most + 1)]) == 1
    assert one_error_line(capsys) == (
        f"error: the text has {most + 1} tokens (char level); this model takes at most {most} "
        f"tokens (it has no position beyond that)")


def test_evaluate_refuses_a_max_len_beyond_the_learned_positions_before_translating(
        transformer_run, capsys, monkeypatch):
    most = load_translator(transformer_run)[0].model.max_len
    monkeypatch.setattr("seq2seq.translator.Translator.evaluate", None)     # never reached
    assert main(["evaluate", str(transformer_run), "--task", "sort", "--max-len",
                 str(most + 5)]) == 1
    assert one_error_line(capsys) == (
        f"error: sort: sources of up to {most + 5} tokens (as --min-len/--max-len say), but "
        f"this model takes at most {most} tokens: give a smaller --max-len")


def test_a_sequence_beyond_max_len_says_how_many_tokens_the_model_takes():
    model = Transformer(7, 7, d_model=8, heads=2, layers=1, d_ff=8, positions="learned",
                        max_len=4)
    with pytest.raises(ValueError, match="this model takes at most 4 tokens"):
        model.encode(np.ones((1, 5), dtype=int))


def test_sinusoidal_positions_added_to_integers_keep_their_fractions():
    x = np.zeros((1, 3, 4), dtype=np.int64)
    y = SinusoidalPositions(4, max_len=8)(Tensor(x))
    assert y.dtype == np.float64
    np.testing.assert_array_equal(y.data[0], SinusoidalPositions(4, max_len=8).pe[:3])


def test_learned_positions_refuse_float64_into_a_float32_table():
    with pytest.raises(TypeError, match="LearnedPositions: the input is float64 but the layer's "
                                        "parameters are float32"):
        LearnedPositions(8, 4)(Tensor(np.zeros((1, 3, 4))))


def test_a_float32_cache_is_not_continued_in_float64():
    cache = KeyValueCache()
    cache.extend(Tensor(np.zeros((1, 2, 1, 4), np.float32)),
                 Tensor(np.zeros((1, 2, 1, 4), np.float32)))
    with pytest.raises(TypeError, match="KeyValueCache: new keys and values are float64 and "
                                        "float64, the kept ones float32 and float32"):
        cache.extend(Tensor(np.zeros((1, 2, 1, 4))), Tensor(np.zeros((1, 2, 1, 4))))
    assert len(cache) == 1
