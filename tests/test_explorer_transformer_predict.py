"""`python -m seq2seq explore RUN --predict` on a Transformer run asks a few questions where a
Transformer is learned (a residual's input, each layer norm, a softmax, the 1/sqrt(d_k) scale),
each in the last layer, where the page draws the ops unfolded: none inside a folded scope."""

import pytest

from seq2seq.commands.cli import main
from seq2seq.commands.explore import explore_decoder_step
from tests.test_explorer import page_data
from tests.test_seq2seq_transformer_views import SENTENCE, TINY_RUN, transformer_translator

MAX_QUESTIONS = 10


def kinds(q):
    return {m["kind"] for m in q["mistakes"]}


def in_folded_scopes(data):
    """The questions asked at an op inside a scope the page starts folded."""
    folded = {data["scopes"][k][-1] for k in data["folded"]}
    return [q for q in data["questions"]
            if folded.intersection(data["ops"][data["steps"][q["step"] - 1]["op"]]["scope"])]


@pytest.mark.parametrize("options", [dict(), dict(norm="post"),
                                     dict(layers=3, heads=4, positions="learned")])
def test_a_transformers_predict_page_asks_a_few_questions_none_in_a_folded_scope(options):
    page = explore_decoder_step(transformer_translator(**options), SENTENCE, step=3,
                                predict=True)
    data = page.data
    assert 5 <= len(page.questions) <= MAX_QUESTIONS
    assert in_folded_scopes(data) == []
    found = set().union(*(kinds(q) for q in page.questions))
    assert {"softmax_diagonal", "scale_forgotten"} <= found
    # the layer norm's mistake is named, or (where the numbers as shown are too coarse to tell
    # it from the answer) the question says it cannot catch it
    said = " ".join(line for q in page.questions for line in q["not_caught"])
    assert "norm_constants" in found or "the layer norm's mean and variance" in said
    layers = options.get("layers", 2)
    for q in page.questions:                            # the last layer, or the embedding
        scope = data["ops"][data["steps"][q["step"] - 1]["op"]]["scope"]
        assert scope[0] in (f"layer {layers - 1}", "embedding")
    if options.get("norm") != "post":                   # pre-norm: the norm takes the residual
        assert any("sublayer_only" in kinds(q) for q in page.questions)


def test_the_first_head_starts_unfolded_for_its_questions_and_a_chosen_collapse_is_kept():
    translator = transformer_translator()
    page = explore_decoder_step(translator, SENTENCE, step=3, predict=True)
    folded = {page.data["scopes"][k][-1] for k in page.data["folded"]}
    assert "head 0" not in folded and "head 1" in folded
    heads = {tuple(page.data["ops"][page.data["steps"][q["step"] - 1]["op"]]["scope"])
             for q in page.questions}
    assert ("layer 1", "self-attention", "head 0") in heads
    shown = explore_decoder_step(translator, SENTENCE, step=3)      # not predicting: as before
    assert "head 0" in {shown.data["scopes"][k][-1] for k in shown.data["folded"]}
    chosen = explore_decoder_step(translator, SENTENCE, step=3, predict=True,
                                  collapse=["encoder", "head 0", "head 1"])
    assert in_folded_scopes(chosen.data) == [] and chosen.questions
    assert not any("softmax_diagonal" in kinds(q) for q in chosen.questions)


def test_the_command_asks_a_transformer_run_at_most_ten_questions(tmp_path, capsys):
    run = tmp_path / "run"
    assert main([*TINY_RUN, "--out", str(run)]) == 0
    out = tmp_path / "predict.html"
    assert main(["explore", str(run), "--step", "1", "--predict", "--out", str(out)]) == 0
    data = page_data(out.read_text(encoding="utf-8"))
    assert 1 <= len(data["questions"]) <= MAX_QUESTIONS
    assert in_folded_scopes(data) == []
