"""`translate` returns each translation with the tokens the decoder wrote and one row of attention
weights per token, so a heatmap's labels cannot be off by one: not when the model stops at its
length limit without writing <eos>, and not when it writes <unk> at the character level (the
text "<unk>" splits into five characters)."""

import numpy as np
import pytest

from seq2seq.commands.train import TrainConfig, build
from seq2seq.data import tasks
from seq2seq.data.vocab import tokenize
from seq2seq.heatmap import plot_heatmap
from seq2seq.translation import Translation

PAIRS = tasks.make_task("reverse", 200, seed=0, min_len=3, max_len=5)      # characters


def translator_that_always_writes(token, attention="dot"):
    """An untrained character-level model whose output layer always picks `token`."""
    translator = build(TrainConfig(task="reverse", embed_size=8, hidden_size=8, seed=0,
                                   attention=attention), PAIRS)
    out = translator.model.decoder.out
    out.weight.data[...] = 0.0
    out.bias.data[...] = -10.0
    out.bias.data[translator.tgt_vocab.index(token)] = 10.0
    return translator


@pytest.mark.parametrize("beam_size", [1, 3])
def test_a_translation_stopped_at_the_limit_has_one_label_per_weight_row(beam_size):
    translator = translator_that_always_writes("<unk>")
    translation = translator.translate("1234", max_len=6, beam_size=beam_size)
    assert translation.text == "<unk>" * 6 and not translation.finished
    assert translation.tokens == ["<unk>"] * 6                  # no <eos>: it was never written
    assert translation.source_tokens == ["1", "2", "3", "4"]
    assert translation.weights.shape == (6, 4)
    assert len(tokenize(translation.text, "char")) + 1 == 31    # what the rows were taken from


def test_a_heatmap_of_a_translation_stopped_at_the_limit_draws_every_row():
    translation = translator_that_always_writes("<unk>").translate("1234", max_len=6)
    figure = translation.plot_heatmap()
    ax = figure.axes[0]
    assert [label.get_text() for label in ax.get_yticklabels()] == translation.tokens
    assert [label.get_text() for label in ax.get_xticklabels()] == translation.source_tokens
    assert ax.get_images()[0].get_array().shape == translation.weights.shape
    rows = translation.text_heatmap().splitlines()[1:-1]        # a header line, then the rows
    assert [row.split("│")[0].strip() for row in rows] == translation.tokens


def test_a_translation_that_writes_eos_at_once_is_empty_text_with_one_row():
    translation = translator_that_always_writes("<eos>").translate("123")
    assert translation.text == "" and translation.finished
    assert translation.tokens == ["<eos>"] and translation.weights.shape == (1, 3)
    np.testing.assert_allclose(translation.weights.sum(axis=1), [1.0])
    assert plot_heatmap(translation.weights, translation.source_tokens, translation.tokens)


def test_tokens_keep_special_tokens_the_text_leaves_out():
    translation = translator_that_always_writes("<pad>").translate("12", max_len=3)
    assert translation.text == "" and translation.tokens == ["<pad>"] * 3
    assert translation.weights.shape == (3, 2)


def test_one_text_gives_one_translation_and_a_list_gives_a_list():
    translator = translator_that_always_writes("1")
    one = translator.translate("123", max_len=4)
    assert isinstance(one, Translation) and str(one) == one.text == "1111"
    [first, second] = translator.translate(["123", "45"], max_len=4)
    assert first.text == one.text and second.source_tokens == ["4", "5"]
    np.testing.assert_array_equal(first.weights, one.weights)


def test_the_plain_model_has_tokens_but_no_weights_to_draw():
    translation = translator_that_always_writes("<eos>", attention=None).translate("123")
    assert translation.tokens == ["<eos>"] and translation.weights is None
    with pytest.raises(ValueError, match="without attention has no attention weights"):
        translation.plot_heatmap()
    assert "no attention" in repr(translation)


def test_a_translation_refuses_weights_that_do_not_match_its_tokens():
    with pytest.raises(ValueError, match=r"shape \(2, 2\) for 1 output and 2 source tokens"):
        Translation("x", ["x"], ["a", "b"], np.full((2, 2), 0.5))


def test_the_repr_says_text_sizes_and_whether_it_hit_the_limit():
    assert repr(Translation("ab", ["a", "b"], ["x"], np.ones((2, 1)))) == (
        "Translation('ab': 2 tokens from 1, weights (2, 1), stopped at the length limit)")
    assert repr(Translation("a", ["a", "<eos>"], ["x"], np.ones((2, 1)))) == (
        "Translation('a': 2 tokens from 1, weights (2, 1))")


def test_an_empty_text_is_refused_alone_and_in_a_batch_alike():
    translator = translator_that_always_writes("a")
    with pytest.raises(ValueError, match="the text is empty: there is nothing to translate"):
        translator.translate("")
    with pytest.raises(ValueError, match="text 1 of 2 is empty"):
        translator.translate(["", "ab"])
    with pytest.raises(ValueError, match="max_len must be a whole number of at least 1"):
        translator.translate("ab", max_len=0)


def test_a_heatmap_never_replaces_a_file_no_figure_of_ours_wrote(tmp_path):
    thesis = tmp_path / "thesis.pdf"
    thesis.write_bytes(b"%PDF-1.4 my thesis")
    weights = np.full((2, 3), 1 / 3)
    with pytest.raises(FileExistsError, match="thesis.pdf exists and no earlier figure wrote it"):
        plot_heatmap(weights, ["a", "b", "c"], ["x", "<eos>"], path=thesis)
    assert thesis.read_bytes() == b"%PDF-1.4 my thesis"
    ours = tmp_path / "heatmap.png"
    plot_heatmap(weights, ["a", "b", "c"], ["x", "<eos>"], path=ours)
    plot_heatmap(weights, ["a", "b", "c"], ["y", "<eos>"], path=ours)      # ours: replaced
    plot_heatmap(weights, ["a", "b", "c"], ["x", "<eos>"], path=thesis, overwrite=True)
    assert thesis.read_bytes().startswith(b"%PDF") and b"my thesis" not in thesis.read_bytes()
