"""A sentence's translation, tokens and attention weights, does not depend on what else is in its
batch, for every model the command line can train; and beam search, which decodes one sentence at
a time, is then not worse than greedy decoding on held-out data."""

import itertools
from pathlib import Path

import numpy as np
import pytest

from seq2seq.commands.train import TrainConfig, build, train
from seq2seq.data import tasks
from tests.reference import minigrad_reference as reference

SOURCES = ["ねこ が さかな を たべる", "いぬ が はしる",
           "ちいさい ねこ が おおきい いぬ を みる", "とり が なく"]
PAIRS = tasks.make_task("toy-ja-en", 200, seed=0)

MODELS = [dict(attention=a, wiring=w, bidirectional=b, reverse_input=r, fused=f)
          for a, w, b, r, f in itertools.product(["dot", "general", "additive", None],
                                                 ["luong", "bahdanau"], [False, True],
                                                 [False, True], [False, True])
          if a is not None or w == "luong"]
# The reference GRU through --rnn FILE.py:CLASS: a layer of the recurrent-layer contract
GRU = f"{Path(reference.__file__).resolve()}:GRU"
MODELS += [{"attention": a, "wiring": w, "bidirectional": b, "reverse_input": r, "fused": True,
            "rnn": GRU}
           for a, w, b, r in [("dot", "luong", False, False), (None, "luong", True, False),
                              ("additive", "bahdanau", True, True), ("general", "luong", True,
                                                                     False)]]


@pytest.mark.parametrize("settings", MODELS, ids=lambda s: "-".join(
    f"{k}={v}" for k, v in s.items()))
def test_a_translation_is_the_same_alone_and_in_a_mixed_length_batch(settings):
    config = TrainConfig(embed_size=8, hidden_size=12, seed=1, **settings)
    translator = build(config, PAIRS)
    batched = translator.translate(SOURCES, max_len=8)
    for text, translation in zip(SOURCES, batched):
        [alone] = translator.translate([text], max_len=8)
        assert alone.text == translation.text and alone.tokens == translation.tokens, text
        weights, alone_weights = translation.weights, alone.weights
        if settings["attention"] is None:
            assert weights is None and alone_weights is None
        else:
            assert weights.shape == alone_weights.shape == (len(translation.tokens),
                                                            len(text.split()))
            np.testing.assert_allclose(weights, alone_weights, rtol=0, atol=1e-6, err_msg=text)


def test_beam_search_is_not_worse_than_greedy_on_held_out_data(tmp_path):
    config = TrainConfig(task="reverse", num_examples=1500, min_len=3, max_len=8, embed_size=16,
                         hidden_size=32, batch_size=32, epochs=4, lr=1e-2, progress=False,
                         seed=0, out=str(tmp_path / "run"))
    translator, _ = train(config, log=lambda *a: None)
    held_out = tasks.make_task("reverse", 200, seed=99, min_len=3, max_len=8)
    greedy = translator.evaluate(held_out)["exact_match"]
    beam = translator.evaluate(held_out, beam_size=4)["exact_match"]
    assert 0.3 < greedy < 1.0                           # a model that is neither hopeless nor done
    assert beam >= greedy


def test_an_untrained_model_stops_each_sentence_at_its_own_length_limit():
    # An untrained model never writes <eos>: every sentence runs to its limit, 2 n + 10 for its
    # own n source tokens, not the batch's longest, alone and in a mixed-length batch alike.
    translator = build(TrainConfig(embed_size=8, hidden_size=12, seed=1), PAIRS)
    batched = translator.translate(SOURCES)
    for text, translation in zip(SOURCES, batched):
        alone = translator.translate(text)
        assert alone.text == translation.text, text
        assert not alone.finished and alone.tokens[-1] != "<eos>"
        np.testing.assert_allclose(translation.weights, alone.weights, rtol=0, atol=1e-6,
                                   err_msg=text)
    limits = [len(translation.tokens) for translation in batched]
    assert limits == [2 * len(text.split()) + 10 for text in SOURCES]
    assert [t.weights.shape[0] for t in batched] == limits
    beams = [translator.translate(text, beam_size=3) for text in SOURCES]
    assert [len(beam.tokens) for beam in beams] == [beam.weights.shape[0] for beam in beams]
    assert [len(beam.tokens) for beam in beams] == limits
