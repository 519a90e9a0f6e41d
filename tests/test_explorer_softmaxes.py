"""Predict mode's softmax question, for softmaxes built from primitive ops: found by their shape
in any scope (the attention of a seq2seq decoder step) as well as by a scope named softmax, and
asked once, about everything the softmax sends back to its input."""

import numpy as np

from minigrad import Tensor, scope
from minigrad.viz import explore
from seq2seq.commands.cli import main as seq2seq_main
from tests.test_explorer import page_data


def softmax_questions(data):
    return [q for q in data["questions"] if q["span"]]


def max_as_an_op_softmax():
    """A softmax whose shift, the max, is an op of the graph: it sends s a term too (~0)."""
    s = Tensor(np.array([0.3, -1.2, 0.8, 0.1]), requires_grad=True, name="s")
    v = Tensor(np.array([10.0, 20.0, 30.0, 40.0]), name="v")
    with scope("softmax"):
        m = s.max(axis=-1, keepdims=True)
        e = (s - m).exp()
        w = e / e.sum(axis=-1, keepdims=True)
    return s, (w * v).sum()


def test_a_softmax_with_its_max_as_an_op_asks_once_for_the_whole_gradient_of_its_input():
    s, loss = max_as_an_op_softmax()
    data = explore(loss, names={"s": s}, predict=True).data
    (q,) = softmax_questions(data)
    loss.backward()
    assert q["answer"] == s.grad[tuple(q["index"])]     # through the Sub and the Max, summed
    steps = {data["ops"][step["op"]]["type"]: k for k, step in enumerate(data["steps"], 1)}
    assert q["span"] == [steps["Div"], steps["Max"]]
    assert "softmax_diagonal" in {m["kind"] for m in q["mistakes"]}
    # Max's term is ~0 (1e-15): a guess of zero is no "missed sum", so it is not offered as one
    assert all(abs(m["value"]) > q["tolerance"] for m in q["mistakes"])


def test_attention_softmax_outside_a_softmax_scope_is_asked_about():
    from attention import softmax
    q = Tensor([2.0, 1.0], requires_grad=True, name="q")
    keys = Tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [-1.0, 0.0]], requires_grad=True)
    values = Tensor([10.0, 20.0, 30.0, 40.0], requires_grad=True)
    with scope("attention"):
        scores = keys @ q
        weights = softmax(scores)
        context = weights @ values
    data = explore(context, names={"scores": scores}, predict=True).data
    (question,) = softmax_questions(data)
    scores_index = next(i for i, t in enumerate(data["tensors"]) if t["name"] == "scores")
    assert question["tensor"] == scores_index
    y = weights.data                          # dL/dscores_i = y_i (v_i - sum_j y_j v_j)
    expected = y * (values.data - y @ values.data)
    assert np.isclose(question["answer"], expected[tuple(question["index"])], rtol=1e-12)


def test_seq2seq_explore_predict_asks_the_attention_softmax_question(tiny_run, tmp_path):
    out = tmp_path / "step.html"
    assert seq2seq_main(["explore", str(tiny_run), "--step", "1", "--predict",
                         "--out", str(out)]) == 0
    data = page_data(out.read_text(encoding="utf-8"))
    found = softmax_questions(data)
    assert found
    assert all(["attention"] == data["ops"][data["steps"][q["step"] - 1]["op"]]["scope"][-1:]
               for q in found)
    assert any("softmax_diagonal" in {m["kind"] for m in q["mistakes"]} for q in found)
