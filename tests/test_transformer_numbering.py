"""A Transformer's layers and heads are numbered one way wherever a learner sees them: from 0,
as PyTorch numbers them (the parameters `decoder.layers.0....`, head 0). The scopes of the
drawings and the explorer ("layer 0", "head 0"), the tensors named after them, the grid titles
of `translate --plot` and the names of head-alignments all say the same; the layers were
numbered from 1 and the heads from 0."""

import numpy as np
import pytest

from minigrad.graph import walk
from tests.test_seq2seq_transformer_views import SENTENCE, transformer_translator


@pytest.fixture(scope="module")
def step():
    from seq2seq.commands.draw import decoder_step
    translator = transformer_translator(layers=2, heads=4, steps=0)
    run = decoder_step(translator, SENTENCE, step=1)
    return translator, run, {tuple(op.scope) for op in walk([run["loss"]]).ops if op.scope}


def test_the_layer_scopes_are_numbered_as_the_layers_parameters_are(step):
    translator, _, scopes = step
    indices = sorted({name.split(".")[2] for name, _ in translator.model.named_parameters()
                      if name.startswith("decoder.layers.")})
    decoder = sorted({path[0] for path in scopes if path[0].startswith("layer ")})
    encoder = sorted({path[1] for path in scopes if path[0] == "encoder" and len(path) > 1
                      and path[1].startswith("layer ")})
    assert decoder == encoder == [f"layer {i}" for i in indices] == ["layer 0", "layer 1"]
    assert sorted({path[-1] for path in scopes if path[-1].startswith("head ")}) == [
        "head 0", "head 1", "head 2", "head 3"]


def test_the_grid_titles_are_the_scope_names_of_each_layer_and_head(step):
    from seq2seq.heatmap import plot_layer_heads
    _, _, scopes = step
    cross = sorted({(path[0], path[2]) for path in scopes if len(path) == 3
                    and path[1] == "cross-attention" and path[2].startswith("head ")})
    figure = plot_layer_heads(np.full((2, 4, 2, 4), 0.25), list("abcd"), list("xy"))
    titles = [ax.get_title() for ax in figure.axes if ax.get_images()]
    assert titles == [f"{layer} {head}" for layer, head in cross]
    assert titles[0] == "layer 0 head 0" and titles[-1] == "layer 1 head 3"


def test_the_named_tensors_and_the_folded_layers_use_the_scopes_numbers(step):
    from seq2seq.commands.draw import default_collapse
    translator, run, _ = step
    names = run["names"]
    assert {"layer 0 kept keys", "layer 1 kept values",
            "layer 1 cross-attention head 3 weights"} <= set(names)
    assert "layer 2 kept keys" not in names
    assert list(default_collapse(translator.model))[:2] == ["encoder", "layer 0"]


def test_head_alignments_names_each_head_by_its_scopes(step, monkeypatch):
    from seq2seq.papers import heads
    monkeypatch.setattr(heads, "measure", lambda task, views, references: len(views))
    names = list(heads.measure_heads([], [], [], layers=2, heads=3))
    assert names == ["layer 0 head 0", "layer 0 head 1", "layer 0 head 2", "layer 0 mean",
                     "layer 1 head 0", "layer 1 head 1", "layer 1 head 2", "layer 1 mean"]
