"""The Transformer translator in the commands that show a model: one decoder step drawn and
explored (seq2seq/commands/draw.py, explore.py, transformer_step.py), its cross-attention as a
grid of heatmaps (translate --plot), and the model in torch.nn modules (seq2seq.to_torch)."""

import shutil

import numpy as np
import pytest

import minigrad
from minigrad import no_grad
from minigrad.graph import walk
from minigrad.settings import SettingError
from seq2seq.commands.cli import main
from seq2seq.data import tasks
from seq2seq.data.vocab import Vocab, tokenize
from seq2seq.models.transformer import Transformer
from seq2seq.translator import Translator

SENTENCE = "31415"
TINY_RUN = ["train", "--task", "copy", "--num-examples", "60", "--epochs", "1", "--arch",
            "transformer", "--d-model", "8", "--heads", "2", "--d-ff", "16", "--layers", "1",
            "--batch-size", "16", "--no-progress"]


def transformer_translator(layers=2, heads=2, norm="pre", positions="sinusoidal", steps=3,
                           dtype=np.float64, max_len=64):
    """A tiny Transformer on the reversal task, trained `steps` Adam updates, then told never to
    write <eos> (its logit -1000), so that every step up to the length limit is there."""
    from minigrad.optim import Adam
    from seq2seq.data.batching import pad_sources, pad_targets
    pairs = tasks.make_task("reverse", 32, seed=0, min_len=3, max_len=5)
    level = tasks.task_level("reverse")
    src_vocab = Vocab.build(tokenize(s, level) for s, _ in pairs)
    tgt_vocab = Vocab.build(tokenize(t, level) for _, t in pairs)
    minigrad.manual_seed(0)
    model = Transformer(len(src_vocab), len(tgt_vocab), d_model=8, heads=heads, layers=layers,
                        d_ff=16, norm=norm, positions=positions, max_len=max_len).to(dtype)
    src = pad_sources([src_vocab.encode(tokenize(s, level)) for s, _ in pairs], 0)
    tgt = pad_targets([tgt_vocab.encode(tokenize(t, level), bos=True, eos=True)
                       for _, t in pairs], 0)
    optimizer = Adam(model.parameters(), lr=0.01)
    for _ in range(steps):
        optimizer.zero_grad()
        model.loss(src, tgt).backward()
        optimizer.step()
    model.decoder.out.bias.data[tgt_vocab.eos_id] = -1e3
    return Translator(model.eval(), src_vocab, tgt_vocab, level, False)


@pytest.fixture(scope="module")
def translator():
    return transformer_translator()


def written_tokens(translator, sentence):
    return [translator.tgt_vocab.stoi[t] for t in translator.translate(sentence).tokens]


# ---- one decoder step: draw and explore ------------------------------------------------------

def test_the_drawn_step_is_the_decoding_step_with_the_kept_keys_of_the_steps_before(translator):
    from seq2seq.commands.draw import decoder_step
    model = translator.model
    written = written_tokens(translator, SENTENCE)
    assert len(written) >= 3
    run = decoder_step(translator, SENTENCE, step=2)
    with no_grad():
        memory, state, mask = model.encode(translator.source_ids([SENTENCE]))
        token = np.array([translator.tgt_vocab.bos_id])
        for _ in range(3):
            logits, state, _ = model.decoder.step(token, state, memory, mask)
            token = logits.data.argmax(-1)
    np.testing.assert_allclose(run["logits"].data, logits.data, atol=1e-12)
    assert run["token"] == written[2]
    names = run["names"]
    assert names["layer 0 kept keys"].shape == (1, 2, 2, 4)     # steps 0 and 1, (1, H, t, Dh)
    assert names["layer 1 kept values"].creator is None         # constants: not drawn back
    word = translator.tgt_vocab.token(written[1])
    assert names[f"embedding of {word} at position 2"].shape == (1, 1, 8)   # the new token only
    for h in range(2):                                          # the named weights are the heads'
        np.testing.assert_allclose(names[f"layer 1 cross-attention head {h} weights"].data,
                                   model.decoder.cross_weights[-1][:, h], atol=1e-15)


def test_the_step_runs_each_head_in_its_scope_and_leaves_the_model_as_it_was(translator):
    from seq2seq.commands.draw import decoder_step
    run = decoder_step(translator, SENTENCE, step=1)
    scopes = {tuple(op.scope) for op in walk([run["loss"]]).ops}
    for sublayer in ("self-attention", "cross-attention"):
        assert ("layer 1", sublayer, "head 1") in scopes
    assert ("encoder", "layer 0", "self-attention", "head 0") in scopes
    assert not any("heads" in path for path in scopes)          # not all heads at once
    assert [m.heads_apart for m in translator.model.modules() if hasattr(m, "heads_apart")] \
        == [False] * 6                                            # back to all at once


PLUMBING = ["projections", "output", "feed-forward"]


def test_by_default_the_encoder_the_earlier_layers_every_head_and_the_plumbing_are_folded(
        translator):
    from seq2seq.commands.draw import decoder_step_drawing, default_collapse
    model = translator.model
    assert list(default_collapse(model)) == ["encoder", "layer 0", "head 0", "head 1",
                                             *PLUMBING, "final norm"]
    three = transformer_translator(layers=3, heads=4, steps=0).model
    assert list(default_collapse(three)) == ["encoder", "layer 0", "layer 1", "head 0",
                                             "head 1", "head 2", "head 3", *PLUMBING,
                                             "final norm"]
    post = transformer_translator(norm="post", steps=0).model     # no final norm to fold
    assert list(default_collapse(post))[-3:] == PLUMBING
    folded = decoder_step_drawing(translator, SENTENCE, step=1).source
    for box in ("encoder", "layer 0", "head 0", "head 1", *PLUMBING, "final norm"):
        assert f"<B>{box}</B>" in folded or f">{box}<" in folded, box
    assert "Exp()" not in folded                                # the heads' softmax is inside
    assert "ReLU()" not in folded                               # and the feed-forward's ReLU
    assert 'label="cross-attention"' in folded                  # the last layer's frame
    assert "layer 1 kept keys" in folded
    assert "(the new token alone, with the keys and values kept from step 0)" in folded
    unfolded = decoder_step_drawing(translator, SENTENCE, step=1,
                                    collapse=["encoder", "layer 0", "head 0"]).source
    assert "Exp()" in unfolded and "layer 1 cross-attention head 1 weights" in unfolded
    assert "layer 1 cross-attention head 0 weights" not in unfolded
    assert "ReLU()" in unfolded


def test_the_default_step_drawing_holds_the_parameters_in_its_folds_and_unfolded_draws_each(
        translator):
    """2 layers, 2 heads: 61 boxes by default (223 when each parameter had a box of its own
    beside its folded scope); with nothing folded, 768, a box for every parameter."""
    import re

    from seq2seq.commands.draw import decoder_step_drawing
    named = dict(translator.model.named_parameters())
    folded = decoder_step_drawing(translator, SENTENCE, step=1)
    assert folded.summary["boxes"] <= 70
    drawn = [name for name, p in named.items() if folded.node_name(p) is not None]
    assert drawn == ["decoder.embedding.tokens.weight", "decoder.layers.1.norm1.weight",
                     "decoder.layers.1.norm1.bias", "decoder.layers.1.norm2.weight",
                     "decoder.layers.1.norm2.bias"]        # used where nothing is folded
    held = [int(n) for n in re.findall(r"(\d+) parameters?: [\d,]+ numbers?", folded.source)]
    assert sum(held) + len(drawn) == len(named) == 68      # each one in one fold, or drawn
    unfolded = decoder_step_drawing(translator, SENTENCE, step=1, collapse=[])
    assert [name for name, p in named.items() if unfolded.node_name(p) is None] == []
    assert "parameters:" not in unfolded.source and unfolded.summary["boxes"] > 700


def test_a_scope_the_step_has_not_is_refused_listing_the_transformer_scopes(translator):
    from seq2seq.commands.draw import decoder_step_drawing
    with pytest.raises(SettingError, match=r"names no scope 'decoder lstm' of this graph; its "
                       r"scopes: 'embedding', 'positions', 'layer 0', 'self-attention', "
                       r"'projections', 'head 0', 'head 1', 'output', 'cross-attention', "
                       r"'encoder', 'feed-forward', 'layer 1', 'final norm', 'loss'$"):
        decoder_step_drawing(translator, SENTENCE, step=1, collapse=["decoder lstm"])


def test_a_step_beyond_the_models_last_position_is_refused_naming_max_len():
    from seq2seq.commands.draw import decoder_step
    short = transformer_translator(positions="learned", steps=0, max_len=8)
    assert decoder_step(short, "2718", step=7)["logits"].shape == (1, len(short.tgt_vocab))
    with pytest.raises(SettingError, match=r"^step 8 is past the last step decoding of '2718' "
                       r"can reach: it stops after 8 steps \(the model's max_len: it has no "
                       r"position beyond\), so the steps are 0 to 7$"):
        decoder_step(short, "2718", step=8)


def test_the_explorer_page_folds_the_same_scopes_and_holds_every_head(translator):
    from seq2seq.commands.explore import explore_decoder_step
    page = explore_decoder_step(translator, SENTENCE, step=1)
    scopes, folded = page.data["scopes"], page.data["folded"]
    names = sorted({scopes[k][-1] for k in folded})
    assert names == ["encoder", "feed-forward", "final norm", "head 0", "head 1", "layer 0",
                     "output", "projections"]
    assert ["layer 1", "cross-attention", "head 1"] in scopes    # there to unfold
    assert [k for k, path in enumerate(scopes) if path == ["layer 1"]][0] not in folded
    assert page.data["title"].endswith("(the new token alone, with the keys and values kept "
                                       "from step 0)")
    assert explore_decoder_step(translator, SENTENCE, step=3).data["title"].endswith(
        "kept from steps 0 to 2)")
    tensors = {t["name"] for t in page.data["tensors"]}
    assert {"layer 0 kept keys", "layer 1 cross-attention head 0 weights"} <= tensors
    with pytest.raises(ValueError, match="max_elements"):       # the LSTM's limits hold
        explore_decoder_step(translator, SENTENCE, step=1, max_elements=-1)


# ---- translate --plot: cross-attention by layer and head ---------------------------------------

@pytest.mark.parametrize("reverse_input, beam_size", [(False, 1), (True, 1), (False, 3)])
def test_the_cross_attention_rows_are_the_steps_and_the_last_layers_mean_is_the_heatmap(
        translator, reverse_input, beam_size):
    model, sentence = translator.model, "2718"
    reading = Translator(model, translator.src_vocab, translator.tgt_vocab, translator.level,
                         reverse_input)
    translation = reading.translate(sentence, beam_size=beam_size)
    weights = reading.cross_attention(sentence, translation)
    assert weights.shape == (2, 2, len(translation.tokens), 4)          # (L, H, n_out, n)
    np.testing.assert_allclose(weights[-1].mean(axis=0), translation.weights, atol=1e-12)
    np.testing.assert_allclose(weights.sum(-1), 1, atol=1e-12)
    assert not np.allclose(weights[0], weights[1])                      # each layer its own


def test_the_cross_attention_of_a_model_without_layers_of_heads_is_refused(translator):
    from seq2seq.models.rnn import Seq2Seq
    src, tgt = translator.src_vocab, translator.tgt_vocab
    lstm = Translator(Seq2Seq(len(src), len(tgt), 4, 6, attention="dot"), src, tgt,
                      translator.level, False)
    translation = lstm.translate("2718")
    with pytest.raises(ValueError, match="a Transformer's; this model is a Seq2Seq"):
        lstm.cross_attention("2718", translation)


def test_the_grid_has_a_row_per_layer_and_a_column_per_head_labelled_with_the_tokens(tmp_path):
    from seq2seq.heatmap import plot_layer_heads
    rng = np.random.default_rng(0)
    weights = rng.dirichlet(np.ones(4), size=(3, 2, 5))                 # (L, H, T, S)
    source, output = ["ね", "こ", " ", "$x^2$"], ["a", "b", "c", "d", "<eos>"]
    figure = plot_layer_heads(weights, source, output, tmp_path / "grid.png", title="abcd")
    panels = [ax for ax in figure.axes if ax.get_images()]
    assert [ax.get_title() for ax in panels] == [f"layer {i} head {h}" for i in (0, 1, 2)
                                                 for h in (0, 1)]
    for k, ax in enumerate(panels):
        spec = ax.get_subplotspec()
        assert (spec.rowspan.start, spec.colspan.start) == divmod(k, 2)
        np.testing.assert_array_equal(ax.get_images()[0].get_array(), weights[k // 2, k % 2])
        assert [t.get_text() for t in ax.get_xticklabels()] == ["ね", "こ", "␣", "$x^2$"]
        assert [t.get_text() for t in ax.get_yticklabels()] == output
    assert (figure.get_supxlabel(), figure.get_supylabel()) == ("source token", "output token")
    assert (tmp_path / "grid.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(ValueError, match=r"expected \(layers, heads, target tokens, source"):
        plot_layer_heads(weights[0], source, output)
    with pytest.raises(ValueError, match=r"weights have shape \(5, 4\), expected .* \(4, 4\)"):
        plot_layer_heads(weights, source, output[:4])
    with pytest.raises(ValueError, match="9 layers of 8 heads make 72 heatmaps"):
        plot_layer_heads(np.full((9, 8, 1, 1), 1.0), ["a"], ["b"])


# ---- seq2seq.to_torch: the Transformer in torch.nn modules -------------------------------------

@pytest.mark.parametrize("dtype, tolerance", [(np.float64, 1e-10), (np.float32, 1e-5)])
@pytest.mark.parametrize("norm, positions", [("pre", "sinusoidal"), ("post", "learned")])
def test_the_transformer_in_torch_layers_gives_our_logits_on_a_padded_batch(norm, positions,
                                                                             dtype, tolerance):
    torch = pytest.importorskip("torch")
    from seq2seq.to_torch import to_torch, torch_forward
    model = transformer_translator(norm=norm, positions=positions, steps=2, dtype=dtype).model
    rng = np.random.default_rng(0)
    src = rng.integers(4, 14, size=(4, 6))
    for row, pads in enumerate((0, 1, 3, 5)):                   # left padding, one token left
        src[row, :pads] = 0
    tgt_in = np.c_[np.ones((4, 1), dtype=np.int64), rng.integers(3, 14, size=(4, 4))]
    tgt_in[1, 3:] = tgt_in[3, 2:] = 0                            # padded targets, on the right
    ours, _ = model(src, tgt_in)                                 # (B, T, V)
    theirs = to_torch(model)
    assert isinstance(theirs.decoder.layers[0], torch.nn.TransformerDecoderLayer)
    assert theirs.decoder.layers[0].norm_first == (norm == "pre")
    assert ("norm" in theirs.encoder) == (norm == "pre")
    logits, weights = torch_forward(theirs, src, tgt_in)
    assert weights is None and logits.dtype == torch.from_numpy(ours.data).dtype
    assert np.abs(logits.detach().numpy() - ours.data).max() <= tolerance
    with torch.no_grad():                                        # torch's fast path, eval mode
        fast, _ = torch_forward(theirs, src, tgt_in)
    assert np.abs(fast.numpy() - ours.data).max() <= tolerance
    moved = src.copy()
    moved[0, -1] = 0                                             # a pad after a token
    with pytest.raises(ValueError, match="src row 0 has a pad at position 5, after a token"):
        torch_forward(theirs, moved, tgt_in)


def test_the_torch_copy_has_our_names_and_every_weight_of_ours():
    pytest.importorskip("torch")
    from seq2seq.to_torch import to_torch
    model = transformer_translator(layers=1, positions="learned", steps=0).model
    theirs = to_torch(model)
    ours = model.state_dict()
    copied = theirs.state_dict()
    assert list(copied) == list(ours)
    for name, array in ours.items():
        np.testing.assert_array_equal(copied[name].numpy(), array, err_msg=name)


# ---- from the command line: a Transformer run --------------------------------------------------

def one_error_line(capsys):
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


def test_draw_and_explore_show_a_transformer_runs_decoder_step_folded_by_layer_and_head(
        tmp_path, capsys):
    if not shutil.which("dot"):                         # the drawing needs a Graphviz
        pytest.importorskip("pygraphviz")
    out = tmp_path / "run"
    assert main([*TINY_RUN, "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["draw", str(out), "--out", str(tmp_path / "step.svg")]) == 0
    dot = (tmp_path / "step.dot").read_text(encoding="utf-8")
    assert "cross-attention" in dot and "layer 0 kept keys" in dot and "Exp()" not in dot
    assert main(["draw", str(out), "--collapse", "encoder", "head 0", "--out",
                 str(tmp_path / "head1.svg")]) == 0
    assert "layer 0 cross-attention head 1 weights" in (tmp_path / "head1.dot").read_text(
        encoding="utf-8")
    assert main(["explore", str(out), "--step", "1", "--out", str(tmp_path / "step.html")]) == 0
    assert "head 1" in (tmp_path / "step.html").read_text(encoding="utf-8")
    assert main(["draw", str(out), "--collapse", "decoder lstm", "--out",
                 str(tmp_path / "refused.svg")]) == 1
    assert "--collapse names no scope 'decoder lstm'" in one_error_line(capsys)


def test_translate_plot_draws_a_transformers_cross_attention_a_row_per_layer(tmp_path, capsys):
    out = tmp_path / "run"
    assert main([*TINY_RUN, "--layers", "2", "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["translate", str(out), "12345", "--plot", str(tmp_path / "grid.png")]) == 0
    printed = capsys.readouterr().out
    assert "│" in printed                                 # the text heatmap: the heads' mean
    assert f"a row per layer, a column per head: {tmp_path / 'grid.png'}" in printed
    assert (tmp_path / "grid.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
