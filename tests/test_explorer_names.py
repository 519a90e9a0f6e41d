"""The names an explorer page gives its tensors: the learner's variables (debug.local_names)
where no name is given, the op's name only where there is none, never one name for two tensors."""

import re

import numpy as np

from minigrad import Tensor, debug
from minigrad.viz import explore
from minigrad.viz.__main__ import LSTMCellConfig, explore_lstm_cell


def labels_of(data):
    return [t["label"] for t in data["tensors"]]


def test_the_lstm_cell_command_names_the_gates_and_no_two_tensors_alike():
    data = explore_lstm_cell(LSTMCellConfig(batch=3)).data
    labels = labels_of(data)
    assert len(set(labels)) == len(labels)
    assert {"gates", "i", "f", "g", "o", "h'", "c'", "weight_ih", "bias_hh"} <= set(labels)
    for step in data["steps"]:                          # no panel names two tensors alike
        op = data["ops"][step["op"]]
        shown = {i: labels[i] for i in op["inputs"] + [op["output"]]}
        assert len(set(shown.values())) == len(shown)


def test_ops_outputs_without_a_name_are_numbered_in_forward_order():
    x = Tensor(np.arange(3.0), requires_grad=True, name="x")
    y = ((x + 1.0) + 2.0).sum()
    labels = labels_of(explore(y).data)
    assert [label for label in labels if "Add" in label] == ["Add's output #1",
                                                            "Add's output #2"]
    assert labels[-1] == "Sum's output"                 # alone of its kind: no number


def test_given_names_beat_a_tensors_own_name_which_beats_a_local_variable():
    x = Tensor(np.arange(3.0), requires_grad=True, name="x")
    with debug.local_names() as found:
        doubled = x * 2.0
        shifted = doubled + 1.0
        total = shifted.sum()
    total.name = "loss"
    data = explore(total, names={"moved": shifted}, variables=found).data
    assert labels_of(data) == ["x", "a constant #1", "doubled", "a constant #2", "moved",
                               "loss"]
    assert data["tensors"][0]["name"] == "x"


def test_one_name_for_two_tensors_is_numbered_on_the_page():
    a = Tensor(np.ones(2), requires_grad=True, name="h")
    b = Tensor(np.ones(2), requires_grad=True, name="h")
    data = explore((a * b).sum()).data
    assert [t["label"] for t in data["tensors"][:2]] == ["h #1", "h #2"]
    assert [t["name"] for t in data["tensors"][:2]] == ["h #1", "h #2"]


def test_variables_must_be_a_dict_of_tensors():
    x = Tensor(np.arange(3.0), requires_grad=True)
    try:
        explore((x * 2.0).sum(), variables={"y": 3})
    except TypeError as error:
        assert str(error) == "explore: variables['y'] is a int, not a Tensor"
    else:
        raise AssertionError("variables={'y': 3} was accepted")


def test_the_seq2seq_page_names_the_attention_by_the_models_variables(tiny_run, tmp_path):
    from seq2seq.commands.cli import main as seq2seq_main
    from tests.test_explorer import page_data
    out = tmp_path / "step.html"
    assert seq2seq_main(["explore", str(tiny_run), "--step", "1", "--out", str(out)]) == 0
    labels = labels_of(page_data(out.read_text(encoding="utf-8")))
    assert len(set(labels)) == len(labels)
    assert {"scores", "shifted", "exps", "context", "context #2"} <= set(labels)
    assert "attention weights" in labels        # the name the command gives wins


def test_a_given_name_stays_plain_and_the_variables_of_that_name_are_numbered_after_it():
    x = Tensor(np.arange(3.0), requires_grad=True, name="x")

    def norm(v):
        x = v * 2.0                             # a variable named x, like the input
        return x

    with debug.local_names() as found:
        y = norm(norm(x)).sum()
    data = explore(y, variables=found).data
    assert labels_of(data) == ["x", "a constant #1", "x #2", "a constant #2", "x #3", "y"]


def test_a_slice_or_a_transpose_that_no_variable_held_is_named_from_its_input():
    labels = labels_of(explore_lstm_cell(LSTMCellConfig(batch=3)).data)     # hidden size 2
    assert {"weight_ih^T", "weight_hh^T"} <= set(labels)
    assert {"gates[:, 0:2]", "gates[:, 2:4]", "gates[:, 4:6]", "gates[:, 6:8]"} <= set(labels)
    assert not [label for label in labels if "GetItem" in label or "Transpose" in label]


def test_reshape_swapaxes_and_indexing_name_their_output_from_a_named_input_only():
    x = Tensor(np.arange(24.0).reshape(2, 3, 4), requires_grad=True, name="x")
    with debug.local_names() as found:
        total = (x.reshape(6, 4).sum() + x.swapaxes(-1, -2).sum() + x.transpose(2, 0, 1).sum()
                 + x.swapaxes(0, 1).sum() + x[..., 1, ::2].sum() + x[[1, 0]].sum()
                 + x[np.array([0, 1, 1, 0, 1])].sum() + (x * 2.0)[0].sum())
    labels = labels_of(explore(total, variables=found).data)
    assert {"x.reshape(6, 4)", "x^T", "x.transpose(2, 0, 1)", "x.swapaxes(0, 1)",
            "x[..., 1, ::2]", "x[[1, 0]]"} <= set(labels)
    assert "GetItem's output #1" in labels      # an index array: not written out
    assert "GetItem's output #2" in labels      # its input has no name: nothing to build on


def test_a_name_of_several_words_or_a_numbered_one_is_put_in_brackets_before_its_slice():
    a = Tensor(np.ones((2, 3)), requires_grad=True, name="encoder outputs")
    b, c = (Tensor(np.ones((2, 3)), requires_grad=True, name="k") for _ in "bc")
    labels = labels_of(explore((a.T.sum() + b.T.sum()) * c[0].sum()).data)
    assert {"(encoder outputs)^T", "(k #1)^T", "(k #2)[0]"} <= set(labels)


def test_a_transformers_step_names_its_masked_scores_its_stream_its_norms_and_its_embedding():
    from seq2seq.commands.explore import explore_decoder_step
    from tests.test_seq2seq_transformer_views import SENTENCE, transformer_translator
    data = explore_decoder_step(transformer_translator(layers=1), SENTENCE, step=0).data
    labels = labels_of(data)
    made = {op["output"]: op for op in data["ops"]}

    def named(kind, *scopes):           # (an Add of two ops' outputs: not a bias)
        return [labels[i] for i, op in made.items() if op["type"] == kind
                and (not scopes or (op["scope"][-1] in scopes and set(op["inputs"]) <= set(made)))]
    assert named("Where") and all(label.startswith("masked_scores #") for label in named("Where"))
    sums = named("Add", "self-attention", "cross-attention", "feed-forward")   # x = x + ...
    assert len(sums) == 5 and all(label.startswith("x #") for label in sums)   # each block's x
    embeddings = [labels[i] for i, op in made.items() if op["scope"][-1:] == ["positions"]]
    stream = sums + embeddings                          # (the source's embedding is an x too)
    assert set(label for label in labels if re.match(r"x( #\d+)?$", label)) <= set(stream)
    assert {label.split(" #")[0] for label in named("FusedLayerNorm")} == {
        "norm1(x)", "norm2(x)", "norm3(x)"}
    assert embeddings[0] == "embedding of <bos> at position 0"
    assert not [label for label in labels if "EmbeddingLookup" in label]
