"""minigrad.viz on the DOT text: every node and arrow, argument positions, values, gradients
(computed without touching `.grad`), scopes as frames and folded boxes, the backward order,
max_nodes, determinism (also across PYTHONHASHSEED), and a 5,000-node graph."""

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("graphviz")

import minigrad.functional as F
from minigrad import Tensor, nn, scope
from minigrad.viz import draw_graph
from minigrad.viz.labels import value_lines
from minigrad.viz.walk import gradients

ROOT = Path(__file__).resolve().parent.parent
NODE = re.compile(r"^\s*(\w+) \[(.*)\]$", re.M)
EDGE = re.compile(r"^\s*(\w+) -> (\w+)(?: \[(.*)\])?$", re.M)
LABEL_BOX = re.compile(r"label\d+$")


def nodes(source):
    """{node name: its label as plain text (tags dropped, entities decoded)}"""
    found = {}
    for name, attrs in NODE.findall(source):
        if name in ("graph", "node", "edge"):
            continue
        found[name] = plain(attrs)
    return found


def edges(source):
    """[(tail, head, label as plain text)] in the order of the DOT text. An arrow drawn through
    the box of its label (label0, label1, ...: backward_order keeps labels inside frames so) is
    one arrow here, with that box's text as its label; one written backwards (dir=back, as
    compact=True writes the arrows between frames) is turned round."""
    boxes = {name: text for name, text in nodes(source).items() if LABEL_BOX.match(name)}
    result, heads = [], {}
    for tail, head, attrs in EDGE.findall(source):
        if "dir=back" in attrs:
            tail, head = head, tail
        if head in boxes:
            heads[head] = (len(result), tail)
            result.append(None)
        elif tail in boxes:
            k, first = heads[tail]
            result[k] = (first, head, boxes[tail])
        else:
            result.append((tail, head, plain(attrs)))
    return result


def plain(attrs):
    """The label among DOT attributes as plain text: tags dropped, entities decoded."""
    html = re.search(r"label=<(.*)>(?: \w+=|$)", attrs)
    quoted = re.search(r'label="([^"]*)"', attrs)
    text = re.sub(r"<[^>]+>", " ", html.group(1)) if html else quoted.group(1) if quoted else ""
    return " ".join(text.replace("&gt;", ">").replace("&lt;", "<").split())


def find(found, text):
    """The one node whose label contains `text`."""
    matches = [name for name, label in found.items() if text in label]
    assert len(matches) == 1, f"{text!r} is in {matches}"
    return matches[0]


def leaf(values, name):
    return Tensor(np.array(values, dtype=np.float64), requires_grad=True, name=name)


def worked_example():
    q = leaf([2.0, 1.0], "q")
    keys = leaf([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [-1.0, 0.0]], "keys")
    values = leaf([10.0, 20.0, 30.0, 40.0], "values")
    return q, keys, values


# ---- nodes, arrows, labels ----------------------------------------------------------------

def test_every_tensor_and_op_is_a_node_and_every_argument_an_arrow():
    a, b, c = leaf([5.0, 6.0], "a"), leaf([1.0, 2.0], "b"), leaf([2.0, 4.0], "c")
    loss = ((a - b) / c).sum()
    source = draw_graph(loss).source
    found = nodes(source)
    assert list(found) == ["t0", "t1", "op0", "t2", "t3", "op1", "t4", "op2", "t5"]
    assert [found[n].split()[0] for n in ("t0", "t1", "t3")] == ["a", "b", "c"]
    assert found["op0"] == "Sub()" and found["op1"] == "Div()"
    assert found["op2"] == "Sum(axis=None, keepdims=False)"
    assert edges(source) == [("t0", "op0", "0"), ("t1", "op0", "1"), ("op0", "t2", ""),
                             ("t2", "op1", "0"), ("t3", "op1", "1"), ("op1", "t4", ""),
                             ("t4", "op2", ""), ("op2", "t5", "")]


def test_argument_positions_only_where_order_matters():
    x, w = leaf([[1.0, 2.0]], "x"), leaf([[3.0], [4.0]], "w")
    y = ((x @ w) * x + x - 1.0).sum()
    source = draw_graph(y).source
    found, arrows = nodes(source), edges(source)
    labels_into = {found[head]: sorted(label for _, h, label in arrows if h == head)
                   for _, head, _ in arrows if head.startswith("op")}
    assert labels_into["MatMul()"] == ["0", "1"]
    assert labels_into["Mul()"] == ["", ""]                 # commutative: no positions
    assert labels_into["Add()"] == ["", ""]
    assert labels_into["Sub()"] == ["0", "1"]


def test_the_same_tensor_twice_gives_two_arrows():
    x = leaf([3.0], "x")
    source = draw_graph((x * x).sum()).source
    mul = find(nodes(source), "Mul()")
    assert [tail for tail, head, _ in edges(source) if head == mul] == ["t0", "t0"]


def test_ops_with_many_inputs_name_each_argument():
    cell = nn.LSTMCell(2, 3, fused=True)
    x = Tensor(np.ones((1, 2), dtype=np.float32))
    h, _ = cell(x)
    source = draw_graph(h.sum(), names=cell).source
    fused = find(nodes(source), "FusedLSTMCell()")
    labels = [label for _, head, label in edges(source) if head == fused]
    assert labels == ["0 x", "1 h", "2 c", "3 weight_ih", "4 weight_hh", "5 bias_ih", "6 bias_hh"]


def test_ops_show_their_settings_and_slices_read_as_indices():
    x = leaf(np.arange(8.0).reshape(2, 4), "x")
    y = F.softmax(x[:, 1:3], axis=-1).sum()
    found = nodes(draw_graph(y).source)
    assert find(found, "Softmax(axis=-1)")
    assert find(found, "GetItem(index=[:, 1:3])")


def test_tensor_boxes_hold_name_shape_dtype_values_and_grad():
    q, keys, values = worked_example()
    weights = F.softmax(keys @ q)
    weights.name = "weights"
    context = weights @ values
    found = nodes(draw_graph(context).source)
    assert found[find(found, "weights")] == (
        "weights (4,) float64 0.244 0.090 0.662 0.004 grad 10 20 30 40")
    assert found[find(found, "values")] == (
        "values (4,) float64 10 20 30 40 grad 0.244 0.090 0.662 0.004")
    assert found[find(found, "keys")].startswith("keys (4, 2) float64 1 0 0 1 1 1 -1 0 grad")
    assert found[find(found, "q (2,)")] == "q (2,) float64 2 1 grad 0.243 3.408"
    root = [label for label in found.values() if label.startswith("() float64")]
    assert root == ["() float64 24.28 grad 1"]


def test_values_and_grads_can_be_left_out():
    q, keys, values = worked_example()
    context = F.softmax(keys @ q) @ values
    found = nodes(draw_graph(context, show_values=False, show_grads=False).source)
    assert found[find(found, "values")] == "values (4,) float64"
    assert not any("grad" in label for label in found.values())


def test_numbers_read_at_a_glance():
    assert value_lines(np.array([0.24363, 0.08963, 0.66227, 0.00446])) == [
        "0.244  0.090  0.662  0.004"]
    assert value_lines(np.array(24.2812)) == ["24.28"]
    assert value_lines(np.array([[1.0, 0.0], [-1.0, 2.0]])) == ["1  0", "-1  2"]
    assert value_lines(np.array([1e-5, -3e-6])) == ["1e-05  -3e-06"]
    # Tiny but not zero never reads as zero beside a large number; zero itself stays 0.000.
    assert value_lines(np.array([1.0, 1e-7, -2.5e-9, 0.0])) == ["1.000  1e-07  -2.5e-09  0.000"]
    assert value_lines(np.array([np.nan, np.inf, -np.inf, 1.5])) == ["nan  inf  -inf  1.500"]
    assert value_lines(np.array([True, False])) == ["T  F"]
    big = np.arange(100.0)
    assert value_lines(big) == ["mean 49.50  std 28.87", "min 0.00  max 99.00"]


def test_kinds_of_tensor_are_styled_apart():
    weight = nn.Parameter(np.array([2.0]))
    x, constant = leaf([3.0], "x"), Tensor([4.0], name="constant")
    y = (weight * x + constant).sum()
    source = draw_graph(y, names={"weight": weight}).source
    colour = {name: re.search(r'BGCOLOR="(#\w+)"', line).group(1)
              for name, line in re.findall(r"^\s*(\w+) \[label=<<TABLE(.*)$", source, re.M)}
    found = nodes(source)
    assert colour[find(found, "weight")] == "#d4efdf"          # parameter
    assert colour[find(found, "x (1,)")] == "#d6eaf8"          # input that wants a gradient
    assert colour[find(found, "constant")] == "#f2f3f4"
    assert colour[find(found, "() float64")] == "#fdebd0"      # the root
    dashed = [tail for tail, _, attrs in EDGE.findall(source) if "dashed" in (attrs or "")]
    assert dashed == [find(found, "constant")]


def test_names_come_from_a_module_or_a_dict():
    layer = nn.Linear(2, 1)
    x = Tensor(np.ones((1, 2), dtype=np.float32), name="x")
    y = layer(x).sum()
    found = nodes(draw_graph(y, names=layer).source)
    assert find(found, "weight (1, 2) float32") and find(found, "bias (1,) float32")
    found = nodes(draw_graph(y, names={"my weight": layer.weight}).source)
    assert find(found, "my weight (1, 2)")
    with pytest.raises(TypeError, match="names"):
        draw_graph(y, names={"x": np.ones(2)})


# ---- gradients ------------------------------------------------------------------------------

def test_gradients_agree_with_backward_and_leave_grad_untouched():
    q, keys, values = worked_example()
    scores = keys @ q
    weights = F.softmax(scores)
    context = weights @ values
    draw_graph(context)
    assert q.grad is None and keys.grad is None and values.grad is None
    passed = gradients(context)
    context.backward()
    for t in (q, keys, values):
        np.testing.assert_allclose(passed.of_tensor[id(t)], t.grad, rtol=1e-12)
    by_hand = weights.data * (values.data - context.item())        # dc/ds_j = a_j (v_j - c)
    np.testing.assert_allclose(passed.of_tensor[id(scores)], by_hand, rtol=1e-12)


def test_a_non_scalar_root_needs_grad_or_shows_the_leaves_grad():
    x = leaf([1.0, 2.0], "x")
    y = x * 3.0
    found = nodes(draw_graph(y, grad=np.array([1.0, 10.0])).source)
    assert found[find(found, "x (2,)")].endswith("grad 3 30")
    y.backward(np.array([2.0, 2.0]))                     # the caller's own backward
    found = nodes(draw_graph(y).source)
    assert found[find(found, "x (2,)")].endswith("grad 6 6")
    with pytest.raises(RuntimeError, match="not a single number; pass grad="):   # as backward()
        draw_graph(y, backward_order=True)


def test_hard_attention_draws_no_gradient_reaching_the_scores():
    from attention.draw import draw_attention_step
    source = draw_attention_step(hard=True).source
    found = nodes(source)
    assert found[find(found, "scores")] == "scores (4,) float64 2 1 3 -2 grad none"
    assert found[find(found, "values")].endswith("grad 0 0 1 0")
    assert found[find(found, "one-hot")] == "one-hot (4,) float64 0 0 1 0"
    cut = [(t, h) for t, h, label in edges(source) if "argmax" in label]
    assert cut == [(find(found, "scores"), find(found, "one-hot"))]


def test_backward_order_numbers_ops_and_writes_gradients_on_arrows():
    x = leaf([1.0, 2.0], "x")
    y = (x * 2.0).exp().sum()
    source = draw_graph(y, backward_order=True).source
    found, arrows = nodes(source), edges(source)
    assert found[find(found, "Sum(")].endswith("backward #1")
    assert found[find(found, "Exp()")].endswith("backward #2")
    assert found[find(found, "Mul()")].endswith("backward #3")
    into_mul = [label for tail, head, label in arrows if head == find(found, "Mul()")]
    e2, e4 = np.exp(2.0), np.exp(4.0)
    assert into_mul == [f"∂ {2 * e2:.1f} {2 * e4:.1f}", ""]    # the constant 2 gets none
    assert [label for _, head, label in arrows if head == find(found, "Exp()")] == [
        f"∂ {e2:.2f} {e4:.2f}"]


def test_backward_visits_a_diamond_once_per_op_after_both_uses():
    x = leaf([1.0], "x")
    a = x.tanh()
    y = (a * 2.0 + a.exp()).sum()
    found = nodes(draw_graph(y, backward_order=True).source)
    steps = {label.split("(")[0]: int(label.split("#")[1]) for label in found.values()
             if "backward #" in label}
    assert steps["Tanh"] == max(steps.values())                 # after both of its users
    assert sorted(steps.values()) == list(range(1, len(steps) + 1))


def test_show_saved_lists_what_backward_keeps():
    x, w = leaf([[1.0, 2.0]], "x"), leaf([[3.0], [4.0]], "w")
    found = nodes(draw_graph((x @ w).tanh().sum(), show_saved=True).source)
    assert "saved a (1, 2) = input 0 saved b (2, 1) = input 1" in found[find(found, "MatMul")]
    assert "saved y (1, 1)" in found[find(found, "Tanh")]


# ---- scopes ---------------------------------------------------------------------------------

def scoped_graph():
    x = leaf([1.0, -1.0], "x")
    with scope("outer"):
        y = x * 2.0
        with scope("inner"):
            z = y.tanh()
    return (z + 1.0).sum()


def test_scopes_are_drawn_as_nested_frames():
    source = draw_graph(scoped_graph()).source
    outer = source.index("subgraph cluster_0 {")
    inner = source.index("subgraph cluster_1 {")
    assert outer < inner
    assert "label=outer" in source[outer:inner] and "label=inner" in source[inner:]
    inner_body = source[inner:source.index("}", inner)]
    assert "Tanh()" in inner_body and "Mul()" not in inner_body
    outer_body = source[outer:inner]
    assert "Mul()" in outer_body and "x</B>" in outer_body      # a leaf sits where it is used
    assert re.search(r"^\t\tsubgraph cluster_1", source, re.M)  # indented: inside cluster_0


def test_collapse_draws_a_scope_as_one_box():
    source = draw_graph(scoped_graph(), collapse=["outer"]).source
    found = nodes(source)
    assert "cluster" not in source
    assert sorted(found[n] for n in found if n.startswith("op")) == [
        "Add()", "Sum(axis=None, keepdims=False)"]
    box = find(found, "outer")
    assert found[box].startswith("outer 2 ops: Mul, Tanh")
    assert [t for t, h, _ in edges(source) if h == box] == [find(found, "x (2,)")]
    assert not any("() float64 2" == label for label in found.values())   # constant folded in


def test_collapse_an_inner_scope_keeps_the_outer_frame():
    source = draw_graph(scoped_graph(), collapse="inner").source
    found = nodes(source)
    outer = source[source.index("subgraph cluster_0 {"):]
    assert "inner 1 ops: Tanh" in found[find(found, "inner")]
    assert f"\t\t{find(found, 'inner')} [" in outer
    assert "Tanh()" not in source


def test_a_collapsed_lstm_holds_its_parameters_and_keeps_its_input_and_outputs():
    cell = nn.LSTMCell(3, 2)
    x = Tensor(np.ones((1, 3), dtype=np.float32), requires_grad=True, name="x")
    with scope("lstm"):
        h, c = cell(x)
    y = (h * c).sum()
    source = draw_graph(y, names=cell, collapse=["lstm"], backward_order=True).source
    found, arrows = nodes(source), edges(source)
    box = find(found, "lstm")
    assert [found[t].split()[0] for t, head, _ in arrows if head == box] == ["x"]
    assert "4 parameters: 56 numbers" in found[box]             # 8x3 + 8x2 + 8 + 8, inside
    assert not any(label.startswith(("weight", "bias")) for label in found.values())
    outputs = [head for tail, head, _ in arrows if tail == box]
    assert len(outputs) == 2                                     # h and c, both used outside
    assert "backward #3–#22" in found[box]                      # after Sum (#1) and Mul (#2)
    assert all("∂" in label for _, head, label in arrows if head == box)
    unfolded = nodes(draw_graph(y, names=cell, backward_order=True).source)
    assert sorted(label.split()[0] for label in unfolded.values()
                  if label.startswith(("weight", "bias"))) == [
        "bias_hh", "bias_ih", "weight_hh", "weight_ih"]


def test_a_parameter_used_outside_its_folded_scope_too_is_drawn_with_an_arrow_into_it():
    w = nn.Parameter(np.array([1.0, 2.0]))
    v = nn.Parameter(np.array([3.0, 4.0]))
    with scope("inside"):
        y = (w * v).tanh()
    with scope("other"):
        z = (y * w).sum()                                        # w is used here too
    source = draw_graph(z, names={"w": w, "v": v}, collapse=["inside", "other"]).source
    found, arrows = nodes(source), edges(source)
    inside, other = find(found, "inside"), find(found, "other")
    assert [found[t].split()[0] for t, head, _ in arrows if head == inside] == ["w"]
    assert [found[t].split()[0] for t, head, _ in arrows if head == other][-1] == "w"
    assert "1 parameter: 2 numbers" in found[inside]             # v alone is inside
    assert "parameter" not in found[other]
    assert not any(label.startswith("v ") for label in found.values())


# ---- size, limits, determinism --------------------------------------------------------------

def chain(ops):
    x = leaf(np.ones(3), "x")
    y = x
    with scope("chain"):
        for i in range(ops):
            y = y.tanh() if i % 2 else y * 0.5
    return y.sum()


def test_a_5000_node_graph_draws_and_collapses_without_recursion():
    loss = chain(2500)                                  # 2,500 ops and 5,000 tensors (with consts)
    found = nodes(draw_graph(loss).source)
    assert len(found) > 5000
    folded = nodes(draw_graph(loss, collapse=["chain"]).source)
    assert len(folded) == 5 and "chain 2500 ops: Mul ×1250, Tanh ×1250" in folded.values()


def test_max_nodes_keeps_the_boxes_nearest_the_root():
    source = draw_graph(chain(50), max_nodes=7).source
    found = nodes(source)
    assert len(found) == 8 and found["more"].startswith("… ")
    assert find(found, "Sum(")
    assert [head for tail, head, _ in edges(source) if tail == "more"]


def test_the_same_graph_gives_the_same_dot_text():
    first = draw_graph(scoped_graph(), backward_order=True).source
    assert draw_graph(scoped_graph(), backward_order=True).source == first
    q, keys, values = worked_example()
    context = F.softmax(keys @ q) @ values
    assert draw_graph(context).source == draw_graph(context).source


SCRIPT = """
import hashlib
import numpy as np
from attention.draw import draw_attention_step
from minigrad import Tensor, manual_seed, nn, scope
from minigrad.viz import draw_graph
manual_seed(0)
cell = nn.LSTMCell(3, 2)
with scope("lstm"):
    h, c = cell(Tensor(np.ones((1, 3), dtype=np.float32), requires_grad=True))
text = draw_attention_step(backward_order=True).source
text += draw_graph((h * c).sum(), names=cell, collapse=["lstm"], show_saved=True).source
print(hashlib.sha256(text.encode()).hexdigest())
"""


def test_dot_text_is_the_same_across_hash_seeds():
    def digest(seed):
        done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True,
                              text=True, env={"PYTHONHASHSEED": seed, "PATH": ""}, timeout=60)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()
    assert digest("0") == digest("12345") == digest("random")


def test_import_minigrad_needs_numpy_alone():
    code = ("import sys; sys.modules['graphviz'] = None; sys.modules['pygraphviz'] = None\n"
            "import minigrad, minigrad.viz\n"
            "assert 'graphviz' not in [m for m in sys.modules if sys.modules[m] is not None]\n"
            "print('ok')")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.strip() == "ok", done.stderr


def test_bad_arguments_are_refused():
    x = leaf([1.0], "x")
    with pytest.raises(ValueError, match="rankdir"):
        draw_graph(x.sum(), rankdir="up")
    with pytest.raises(TypeError, match="Tensor"):
        draw_graph(np.ones(2))
    with pytest.raises(ValueError, match="shape"):
        draw_graph(x * 2.0, grad=np.ones(3))
    with pytest.raises(ValueError, match="max_nodes"):
        draw_graph(x.sum(), max_nodes=0)


def test_drawing_knows_which_box_is_which_tensor():
    x = leaf([1.0], "x")
    y = (x * 2.0).sum()
    drawing = draw_graph(y)
    assert drawing.node_name(x) == "t0"
    assert drawing.node_name(y) == list(nodes(drawing.source))[-1]
    assert drawing.node_name(leaf([1.0], "other")) is None
