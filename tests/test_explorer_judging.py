"""How predict mode judges an answer: a right method worked on the numbers as the page shows
them (rounded) is accepted, a known mistake is named only where it stands apart from the right
answer and from the other mistakes, a question says which mistakes it cannot catch, and the
LSTM step asks about its gates."""

import numpy as np
import pytest

import minigrad.functional as F
from minigrad import Tensor
from minigrad.viz import explore
from minigrad.viz.__main__ import LSTMCellConfig, explore_lstm_cell
from tests.test_explorer import array


def shown(data, ref):
    """Array `ref` as the page shows it: parsed from the lines it writes when it lists every
    entry, else every value to 4 significant digits (as the page writes first values)."""
    entry = data["arrays"][ref]
    exact = array(data, ref).astype(np.float64)
    if entry["lines"][0].startswith("mean "):
        return np.array([float(f"{v:.4g}") for v in exact.ravel()]).reshape(exact.shape)
    numbers = [float(v) for line in entry["lines"] for v in line.split()]
    return np.array(numbers).reshape(exact.shape)


def step_arrays(data, q):
    """(op type, grad_y, inputs, output) of the question's step, as the page shows them."""
    step = data["steps"][q["step"] - 1]
    op = data["ops"][step["op"]]
    inputs = [shown(data, data["tensors"][i]["values"]) for i in op["inputs"]]
    output = shown(data, data["tensors"][op["output"]]["values"])
    return op["type"], shown(data, step["grad_y"]), inputs, output


def by_hand(data, q):
    """The question's answer worked by the op's rule from the numbers the page shows."""
    kind, g, inputs, y = step_arrays(data, q)
    p = q["input"]
    if kind == "MatMul":
        a, b = inputs
        return (g @ b.T) if p == 0 else (a.T @ g)
    if kind == "Mul":
        return g * inputs[1 - p]
    if kind == "Sigmoid":
        return g * y * (1 - y)
    if kind == "Tanh":
        return g * (1 - y ** 2)
    if kind == "Add":                           # a broadcast input: summed down to its shape
        x = inputs[p]
        axes = tuple(range(g.ndim - x.ndim))
        return g.sum(axis=axes).reshape(x.shape) if x.ndim else g.sum()
    raise AssertionError(kind)


@pytest.mark.parametrize("batch", [1, 3])
def test_the_rule_worked_on_the_shown_numbers_is_accepted_over_40_seeds(batch):
    asked, worst = 0, 0.0
    for seed in range(40):
        page = explore_lstm_cell(LSTMCellConfig(seed=seed, batch=batch), predict=True)
        for q in page.questions:
            if q["total"] or q["span"]:
                continue
            value = by_hand(page.data, q)[tuple(q["index"])]
            worst = max(worst, abs(value - q["answer"]) / q["tolerance"])
            asked += 1
    assert asked >= 80 and worst <= 1.0


def one_hot_softmax(classes):
    x = Tensor(np.linspace(-0.7, 0.9, 2 * classes).reshape(2, classes), requires_grad=True,
               name="x")
    p = F.softmax(x, axis=-1)
    return explore(p[0, classes - 1], predict=True)


@pytest.mark.parametrize("classes", [2, 4])
def test_a_softmax_with_a_one_hot_gradient_says_it_cannot_catch_the_diagonal(classes):
    page = one_hot_softmax(classes)
    (q,) = [q for q in page.questions if page.data["ops"][page.data["steps"][q["step"] - 1]
                                                           ["op"]]["type"] == "Softmax"]
    assert "softmax_diagonal" not in {m["kind"] for m in q["mistakes"]}
    assert q["not_caught"] == ["the softmax Jacobian taken as its diagonal, y_i (1 - y_i) "
                               "dL/dy_i (here it gives the right number, or 0)"]


def test_a_mistake_is_named_only_apart_from_the_answer_from_zero_and_from_the_others():
    for seed in range(30):
        page = explore_lstm_cell(LSTMCellConfig(seed=seed, batch=2), predict=True)
        for q in page.questions:
            t = q["tolerance"]
            values = [m["value"] for m in q["mistakes"]]
            assert all(abs(v - q["answer"]) > 2 * t and abs(v) > 2 * t for v in values)
            assert all(abs(v - w) > 2 * t for n, v in enumerate(values) for w in values[:n])


def test_a_broadcast_sum_named_at_some_of_its_terms_is_not_said_to_be_uncatchable():
    x = Tensor([[0.5], [1.0], [-2.0], [1.5]], requires_grad=True, name="x")
    b = Tensor([0.3], requires_grad=True, name="b")
    weights = np.array([[1.0], [0.5], [1e-4], [-0.7]])
    page = explore(x + b, grad=weights, predict=True)
    (q,) = [q for q in page.questions if page.data["tensors"][q["tensor"]]["name"] == "b"]
    offered = sorted(m["value"] for m in q["mistakes"] if m["kind"] == "broadcast_sum")
    assert offered == [-0.7, 0.5, 1.0]
    assert q["not_caught"] == []            # the tiny term (1e-4) is not named; the others are


def test_lstm_cell_asks_about_each_gate_and_the_product_rule_at_c():
    page = explore_lstm_cell(LSTMCellConfig(), predict=True)
    data = page.data
    asked = {}
    for q in page.questions:
        op = data["ops"][data["steps"][q["step"] - 1]["op"]]
        asked[q["step"]] = (op["type"], q["input"])
    assert asked == {2: ("Mul", 0), 3: ("Tanh", 0), 5: ("Mul", 0), 6: ("Tanh", 0),
                     8: ("Sigmoid", 0), 10: ("Mul", 0), 11: ("Sigmoid", 0),
                     13: ("Sigmoid", 0), 18: ("MatMul", 0), 20: ("MatMul", 0)}
    # step 10 is f * c: dL/df = dL/dc' * c; step 5 is i * g: dL/di = dL/dc' * g
    for k in (5, 10):
        q = next(q for q in page.questions if q["step"] == k)
        step = data["steps"][k - 1]
        other = data["tensors"][data["ops"][step["op"]]["inputs"][1]]
        expected = array(data, step["grad_y"]) * array(data, other["values"])
        assert q["answer"] == pytest.approx(float(expected[tuple(q["index"])]), rel=1e-6)


def gate_question(kind, position=0):
    """A question at a lone op of `kind` on random numbers, and its step's arrays."""
    rng = np.random.default_rng(7)
    a = Tensor(rng.standard_normal((2, 3)), requires_grad=True, name="a")
    b = Tensor(rng.standard_normal((2, 3)), requires_grad=True, name="b")
    y = {"Sigmoid": lambda: a.sigmoid(), "Tanh": lambda: a.tanh(), "Mul": lambda: a * b}[kind]()
    upstream = rng.standard_normal((2, 3))
    page = explore(y, grad=upstream, predict_at=[kind])
    (q,) = page.questions
    assert q["input"] == position
    out = y.data
    return q, upstream, a.data, b.data, out


def kinds(q):
    return {m["kind"]: m["value"] for m in q["mistakes"]}


def test_a_sigmoid_question_knows_the_forgotten_derivative_and_sigma_taken_as_its_slope():
    q, g, _, _, y = gate_question("Sigmoid")
    i = tuple(q["index"])
    assert q["answer"] == pytest.approx(g[i] * y[i] * (1 - y[i]))
    assert kinds(q)["derivative_forgotten"] == pytest.approx(g[i])
    assert kinds(q)["sigmoid_as_slope"] == pytest.approx(g[i] * y[i])


def test_a_tanh_question_knows_the_forgotten_derivative_and_the_forgotten_square():
    q, g, _, _, y = gate_question("Tanh")
    i = tuple(q["index"])
    assert kinds(q)["derivative_forgotten"] == pytest.approx(g[i])
    assert kinds(q)["square_forgotten"] == pytest.approx(g[i] * (1 - y[i]))


def test_a_product_question_knows_the_output_or_its_own_factor_in_place_of_the_other():
    q, g, a, b, y = gate_question("Mul")
    i = tuple(q["index"])
    assert q["answer"] == pytest.approx(g[i] * b[i])
    assert kinds(q)["output_for_factor"] == pytest.approx(g[i] * y[i])
    assert kinds(q)["own_factor"] == pytest.approx(g[i] * a[i])


def test_lstm_cell_with_a_batch_also_asks_at_the_add_that_broadcasts_the_biases():
    page = explore_lstm_cell(LSTMCellConfig(batch=3), predict=True)
    data = page.data
    added = [q for q in page.questions
             if data["ops"][data["steps"][q["step"] - 1]["op"]]["type"] == "Add"]
    assert len(added) == 1 and data["tensors"][added[0]["tensor"]]["shape"] == [8]
    assert "broadcast_sum" in {m["kind"] for m in added[0]["mistakes"]}


def mistake_by_hand(data, q, kind):
    """The number a known mistake of the op's own rule gives, worked from the shown numbers."""
    op, g, inputs, y = step_arrays(data, q)
    rules = {"derivative_forgotten": lambda: g, "sigmoid_as_slope": lambda: g * y,
             "square_forgotten": lambda: g * (1 - y), "output_for_factor": lambda: g * y,
             "own_factor": lambda: g * inputs[q["input"]], "sign": lambda: -by_hand(data, q)}
    return rules[kind]()[tuple(q["index"])] if kind in rules else None


def named(q, number):
    """The kind of mistake the page names for a typed number (predict.js: the first whose
    window, its own tolerance or else the question's, holds it), or None."""
    if abs(number - q["answer"]) <= q["tolerance"]:
        return None
    return next((m["kind"] for m in q["mistakes"]
                 if abs(number - m["value"]) <= m.get("tolerance", q["tolerance"])), None)


@pytest.mark.parametrize("batch", [1, 3])
def test_a_mistake_worked_on_the_shown_numbers_is_named_over_40_seeds(batch):
    checked = 0
    for seed in range(40):
        page = explore_lstm_cell(LSTMCellConfig(seed=seed, batch=batch), predict=True)
        for q in page.questions:
            for m in q["mistakes"]:
                value = mistake_by_hand(page.data, q, m["kind"])
                if value is not None and not (q["total"] or q["span"]):
                    assert named(q, value) == m["kind"], (seed, q["step"], m)
                    checked += 1
    assert checked >= 600


def test_the_windows_of_the_answer_of_zero_and_of_each_mistake_do_not_overlap():
    for seed in range(30):
        page = explore_lstm_cell(LSTMCellConfig(seed=seed, batch=2), predict=True)
        for q in page.questions:
            t = q["tolerance"]
            windows = [(q["answer"], t), (0.0, t)] + [(m["value"], m.get("tolerance", t))
                                                      for m in q["mistakes"]]
            for n, (v, r) in enumerate(windows):
                assert all(abs(v - w) > r + s for w, s in windows[:n])


def test_the_scale_forgotten_says_the_scale_this_op_applies():
    rng = np.random.default_rng(0)
    x = Tensor(rng.normal(size=(2, 3)), requires_grad=True, name="x")
    for y, said in ((x * Tensor(np.sqrt(32.0)), "constant, 5.657,"),
                    (x / Tensor(4.0), "constant, 1/4 = 0.25,")):
        page = explore(y, grad=rng.normal(size=(2, 3)), predict=True, predict_at="Mul" if
                       type(y.creator).__name__ == "Mul" else "Div")
        (text,) = [m["text"] for q in page.questions for m in q["mistakes"]
                   if m["kind"] == "scale_forgotten"]
        assert said in text and "d_k" not in text, text
