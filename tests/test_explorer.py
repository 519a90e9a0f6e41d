"""The explorer's data (minigrad.viz.explore), without a browser: it is the engine's own walk,
its numbers read back exactly, the page is self-contained and never replaces a file, and predict
mode asks the engine's numbers and computes each known mistake as that mistake would.
The page itself, in a real browser, is tested in test_explorer_browser.py."""

import html
import json
import re
import warnings

import numpy as np
import pytest

import minigrad.functional as F
from minigrad import Tensor, nn, scope
from minigrad.debug import backward_steps
from minigrad.viz import explore
from minigrad.viz.explorer.arrays import number_text, read_numbers
from attention.draw import attention_step, worked_example


def page_data(source):
    """The data of a page: from an Explorer, or from the text of a saved page."""
    if not isinstance(source, str):
        return source.data
    found = re.search(r'<script type="application/json" id="explorer-data">(.*?)</script>',
                      source, re.S)
    return json.loads(found.group(1))


def array(data, ref):
    """Array `ref` of a page, read back as the page reads it."""
    entry = data["arrays"][ref]
    return read_numbers(entry["data"], entry["dtype"]).reshape(entry["shape"])


def attention_context():
    query, keys, values = worked_example()
    _, _, context = attention_step(query, keys, values)
    return context, (query, keys, values)


def test_the_page_replays_the_engines_walk_step_by_step():
    context, _ = attention_context()
    data = page_data(explore(context))
    engine = list(backward_steps(context))
    assert len(data["steps"]) == len(engine) == 6
    for step, expected in zip(data["steps"], engine):
        op = data["ops"][step["op"]]
        assert op["type"] == type(expected.op).__name__
        assert op["step"] == expected.number
        np.testing.assert_array_equal(array(data, step["grad_y"]), expected.grad_y)
        for ref, grad in zip(step["grads"], expected.grads):
            assert (ref is None) == (grad is None)
            if ref is not None:
                got = array(data, ref)
                assert got.dtype == grad.dtype
                np.testing.assert_array_equal(got, grad)                  # bit for bit
        for ref, total in zip(step["totals"], expected.totals):
            if ref is not None:
                np.testing.assert_array_equal(array(data, ref), total)


def test_float32_and_float64_numbers_read_back_bit_for_bit():
    rng = np.random.default_rng(0)
    for dtype in (np.float32, np.float64):
        values = rng.standard_normal(200).astype(dtype) * np.logspace(-40, 30, 200)
        values = np.concatenate([values.astype(dtype), np.array(
            [0.0, -0.0, np.nan, np.inf, -np.inf, np.finfo(dtype).tiny / 4,
             np.finfo(dtype).max], dtype=dtype)])
        text = number_text(values)
        back = read_numbers(text, dtype)
        assert back.tobytes() == values.tobytes()
        # The page reads a float32 with Math.fround(Number(text)): the nearest float32 to the
        # double the text names, which is what NumPy's float64 -> float32 cast gives.
        doubles = np.array([float(v) for v in text.split(",")])
        assert doubles.astype(dtype).tobytes() == values.tobytes()
    assert number_text(np.float32([0.1, 1e-8])) == "0.1,1e-08"      # short, not 0.100000001...


def test_a_tensor_used_twice_gets_each_term_and_the_engines_own_sum():
    x = Tensor([1.0, -2.0, 0.5], requires_grad=True, name="x")
    w = Tensor([3.0, 4.0, 5.0], requires_grad=True, name="w")
    loss = (x * w).sum() + (x * x).sum()
    data = page_data(explore(loss))
    record = data["tensors"][next(i for i, t in enumerate(data["tensors"]) if t["name"] == "x")]
    assert len(record["terms"]) == 3                # x * w once, x * x twice (both inputs)
    loss.backward()
    np.testing.assert_array_equal(array(data, record["terms"][-1][2]), x.grad)
    np.testing.assert_array_equal(array(data, record["grad"]), x.grad)
    steps = [term[0] for term in record["terms"]]
    assert steps == sorted(steps)


def test_explore_sets_no_grad_anywhere():
    context, leaves = attention_context()
    explore(context, predict=True)
    assert all(t.grad is None for t in leaves)


def test_the_page_shows_the_gradient_after_hooks_as_the_walk_hands_it_out():
    x = Tensor([1.0, 2.0], requires_grad=True, name="x")
    y = x * 3.0
    y.name = "y"
    y.register_hook(lambda g: g * 10)
    data = page_data(explore(y.sum()))
    mul = next(s for s in data["steps"] if data["ops"][s["op"]]["type"] == "Mul")
    np.testing.assert_array_equal(array(data, mul["grad_y"]), [10.0, 10.0])
    np.testing.assert_array_equal(array(data, mul["grads"][0]), [30.0, 30.0])


def test_the_page_needs_nothing_from_the_network():
    context, _ = attention_context()
    page = explore(context).html()
    assert "default-src 'none'" in page                 # the browser refuses every request
    for pattern in ("<script src", "<link", "@import", "url(http", "src=\"http", "fetch("):
        assert pattern not in page, pattern
    assert set(re.findall(r"https?://[^\s\"')]+", page)) == {"http://www.w3.org/2000/svg"}


def test_save_never_replaces_a_file_unless_asked(tmp_path):
    context, _ = attention_context()
    page = explore(context)
    mine = tmp_path / "mine.html"
    mine.write_text("my notes")
    with pytest.raises(FileExistsError, match="mine.html exists"):
        page.save(mine)
    assert mine.read_text() == "my notes"
    page.save(mine, overwrite=True)
    assert page_data(mine.read_text(encoding="utf-8"))["steps"] == page.data["steps"]
    with pytest.raises(ValueError, match="ending in .html"):
        page.save(tmp_path / "step.svg")
    (tmp_path / "folder.html").mkdir()
    with pytest.raises(IsADirectoryError):
        page.save(tmp_path / "folder.html", overwrite=True)


def test_two_explorers_in_one_notebook_are_two_separate_frames():
    context, _ = attention_context()
    first, second = explore(context), explore(context.sum() * 2)
    frames = [first._repr_html_(), second._repr_html_()]
    for frame, page in zip(frames, (first, second)):
        assert frame.startswith("<iframe srcdoc=")
        assert 'sandbox="allow-scripts allow-downloads"' in frame
        srcdoc = re.search(r'srcdoc="(.*?)"', frame, re.S).group(1)
        assert html.unescape(srcdoc) == page.html()
    assert page_data(first) != page_data(second)


def test_a_large_array_is_summarised_with_its_first_values_and_norm():
    w = Tensor(np.arange(12.0).reshape(3, 4), requires_grad=True, name="w")
    data = page_data(explore((w * w).sum(), max_elements=5))
    entry = data["arrays"][data["tensors"][0]["values"]]
    assert entry["data"] is None and entry["size"] == 12
    assert entry["head"] == "0.0,1.0,2.0,3.0,4.0,5.0"
    assert entry["norm"] == pytest.approx(np.linalg.norm(np.arange(12.0)))


def test_past_max_bytes_the_largest_arrays_are_summarised_first():
    small = Tensor(np.arange(3.0), requires_grad=True, name="small")
    large = Tensor(np.arange(50.0), requires_grad=True, name="large")
    loss = (small * 2).sum() + (large * 3).sum()
    data = page_data(explore(loss, max_bytes=200))
    embedded = {t["name"]: data["arrays"][t["values"]]["data"] is not None
                for t in data["tensors"] if t["name"]}
    assert embedded == {"small": True, "large": False}
    assert sum(len(a["data"] or "") for a in data["arrays"]) <= 200
    assert all(a["data"] is not None for a in page_data(explore(loss))["arrays"])


def test_the_rule_is_the_docstrings_formula_and_derivative():
    x = Tensor([[1.0, 2.0, 0.5]], requires_grad=True)
    data = page_data(explore(F.cross_entropy(F.softmax(x) * 3, np.array([1]))))
    rules = {op["type"]: op["rule"] for op in data["ops"]}
    assert rules["Softmax"][1].strip().startswith("dL/dx = y * (dL/dy - sum(dL/dy * y))")
    assert any("dL/dlogits" in line for line in rules["CrossEntropy"])   # from a later paragraph


def test_scopes_are_listed_as_a_tree_and_collapse_folds_them():
    x = Tensor([1.0, 2.0], requires_grad=True)
    with scope("outer"):
        y = x * 2
        with scope("inner"):
            y = y.exp()
    with scope("after"):
        y = y.sum()
    with scope("outer"):
        y = y * 3
    data = page_data(explore(y, collapse=["inner"]))
    assert data["scopes"] == [["outer"], ["outer", "inner"], ["after"]]
    assert [data["scopes"][k] for k in data["folded"]] == [["outer", "inner"]]


# ---- predict mode -----------------------------------------------------------------------------

def question_type(data, q):
    """The type of the op a question is asked at; "softmax" for a softmax scope's question."""
    return "softmax" if q["span"] else data["ops"][data["steps"][q["step"] - 1]["op"]]["type"]


def attention_questions():
    context, _ = attention_context()
    page = explore(context, predict=True)
    return page.data, {question_type(page.data, q): q for q in page.questions}


def test_predict_asks_at_matmul_softmax_broadcast_and_a_tensor_used_twice():
    data, by_type = attention_questions()
    assert set(by_type) == {"MatMul", "Div", "Sum", "softmax"}
    assert by_type["Sum"]["total"]                  # exp's output: used by Sum and by Div
    assert explore(attention_context()[0]).questions == []          # off unless asked


def test_the_softmax_question_is_asked_at_its_first_op_backward_not_at_the_subtraction():
    data, by_type = attention_questions()
    q = by_type["softmax"]                          # dL/dscores: at the Sub, step 5, the
    scores = data["tensors"][q["tensor"]]           # gradient arriving would be the answer
    assert scores["name"] == "scores" and q["span"] == [2, 5] and q["step"] == 2
    assert question_type(data, {"span": None, "step": 2}) == "Div"    # the softmax's output
    assert q["input"] is None and not q["total"]
    assert [term[0] for term in scores["terms"]] == [5]
    assert q["answer"] == array(data, scores["terms"][0][1])[tuple(q["index"])]
    on_step_2 = [question_type(data, q) for q in data["questions"] if q["step"] == 2]
    assert on_step_2 == ["Div", "softmax"]          # the op's own question first


def test_each_question_asks_the_engines_own_number():
    data, _ = attention_questions()
    for q in data["questions"]:
        if q["span"]:                               # a softmax scope's: the term it sends
            step = data["steps"][q["span"][1] - 1]
            ref = step["grads"][data["ops"][step["op"]]["inputs"].index(q["tensor"])]
        else:
            step = data["steps"][q["step"] - 1]
            ref = step["totals" if q["total"] else "grads"][q["input"]]
        assert q["answer"] == array(data, ref)[tuple(q["index"])]


def test_the_missed_sum_says_used_by_two_ops_or_twice_by_one_op():
    _, by_type = attention_questions()
    texts = {m["text"] for m in by_type["Sum"]["mistakes"] if m["kind"] == "missed_sum"}
    assert texts == {"that is one term alone: Exp's output is used by 2 ops, and its gradient "
                     "is the sum of what each use sends back"}
    x = Tensor([0.3, -1.7, 2.2], requires_grad=True, name="x")
    (q,) = explore((x * x).sum(), predict=True).questions
    assert q["total"] and q["answer"] == pytest.approx(2 * x.data[tuple(q["index"])])
    (text,) = {m["text"] for m in q["mistakes"] if m["kind"] == "missed_sum"}
    assert "x is used twice by one op," in text and "ops" not in text
    three = (x * x).sum() + (x * 2).sum()
    (q,) = [q for q in explore(three, predict=True).questions if q["total"]]
    assert "x is used 3 times, by 2 ops," in q["mistakes"][0]["text"]


def kinds(question):
    found = {}
    for mistake in question["mistakes"]:
        found.setdefault(mistake["kind"], []).append(mistake["value"])
    return found


def test_each_known_mistake_is_the_number_that_mistake_gives():
    data, by_type = attention_questions()
    q = by_type["Sum"]                               # missed sum: one use's term alone
    x = data["tensors"][q["tensor"]]
    terms = [array(data, term[1])[tuple(q["index"])] for term in x["terms"]]
    assert sorted(kinds(q)["missed_sum"]) == sorted(terms)
    assert q["answer"] == pytest.approx(sum(terms))
    q = by_type["Div"]                               # the (1,) softmax denominator, broadcast
    assert data["tensors"][q["tensor"]]["shape"] == [1]
    # the four elements before the sum, but one within the tolerance of 0 (a guess of 0 is no
    # known mistake): the three offered add up to the answer within that tolerance
    offered = kinds(q)["broadcast_sum"]
    assert len(offered) == 3 and all(abs(v) > q["tolerance"] for v in offered)
    assert sum(offered) == pytest.approx(q["answer"], abs=q["tolerance"])
    q = by_type["softmax"]                           # softmax: the Jacobian's diagonal only
    weights = next(t for t in data["tensors"] if t["name"] == "weights")
    y, g = array(data, weights["values"]), array(data, weights["grad"])
    i = tuple(q["index"])
    assert kinds(q)["softmax_diagonal"] == [pytest.approx(y[i] * (1 - y[i]) * g[i])]
    for q in data["questions"]:
        assert kinds(q)["sign"] == [-q["answer"]]


def test_a_matmul_question_knows_the_transposed_mistake():
    a = Tensor([[1.0, 2.0], [3.0, -1.0]], requires_grad=True, name="A")
    b = Tensor([[0.5, -2.0], [1.5, 4.0]], requires_grad=True, name="B")
    upstream = np.array([[1.0, -1.0], [2.0, 0.5]])
    page = explore(a @ b, grad=upstream, predict=True)
    (q,) = page.questions
    i = tuple(q["index"])
    assert q["answer"] == (upstream @ b.data.T)[i]
    assert (upstream @ b.data)[i] in kinds(q)["transposed"]             # B not transposed


def test_predict_at_names_the_ops_that_ask():
    context, _ = attention_context()
    page = explore(context, predict_at=["Exp"])
    assert [page.data["ops"][page.data["steps"][q["step"] - 1]["op"]]["type"]
            for q in page.questions] == ["Exp"]


def test_a_module_names_its_parameters_on_the_page():
    layer = nn.Linear(3, 2)
    x = Tensor(np.ones((1, 3), dtype=np.float32))
    data = page_data(explore(layer(x).sum(), names=layer))
    assert {"weight", "bias"} <= {t["name"] for t in data["tensors"]}


def test_the_pages_script_and_style_ship_in_the_wheel():
    from pathlib import Path
    folder = Path(__file__).resolve().parent.parent
    declared = (folder / "pyproject.toml").read_text(encoding="utf-8")
    assert '"minigrad.viz.explorer" = ["*.js", "*.css"]' in declared
    assets = sorted(p.name for p in (folder / "minigrad/viz/explorer").iterdir()
                    if p.suffix in (".js", ".css"))
    assert assets == ["explorer.css", "explorer.js", "layout.js"]
    page = explore(Tensor([1.0], requires_grad=True).sum()).html()
    for name in assets:                                  # each one inlined whole
        text = (folder / "minigrad/viz/explorer" / name).read_text(encoding="utf-8")
        assert text in page


def test_an_op_taking_a_tensor_twice_gives_both_inputs_the_total_after_the_step():
    x = Tensor([1.0, -2.0, 0.5], requires_grad=True, name="x")
    loss = (x * x).sum()
    data = page_data(explore(loss))
    (square,) = [s for s in data["steps"] if data["ops"][s["op"]]["type"] == "Mul"]
    expected = next(s for s in backward_steps(loss) if type(s.op).__name__ == "Mul")
    loss.backward()
    for ref, total in zip(square["totals"], expected.totals):
        np.testing.assert_array_equal(array(data, ref), total)   # both terms, as the engine
        np.testing.assert_array_equal(array(data, ref), x.grad)  # (not the first term alone)


def test_a_leaf_as_the_root_is_a_one_line_error_not_an_empty_page():
    with pytest.raises(ValueError, match=r"^explore: root .* is a leaf .*\(x \* 2\)\.sum\(\)$"):
        explore(Tensor([1.0, 2.0], requires_grad=True))
    with pytest.raises(ValueError, match="does not require grad"):
        explore(Tensor([1.0, 2.0]))


def bad_arguments():
    x = Tensor([1.0, 2.0], requires_grad=True, name="x")
    with scope("square"):
        y = (x * x).sum()
    return y, [
        (dict(max_elements=float("nan")), TypeError, "max_elements must be an integer >= 0"),
        (dict(max_elements=-1), ValueError, "max_elements must be an integer >= 0, got -1"),
        (dict(max_bytes=2.5), TypeError, "max_bytes must be an integer >= 0, got 2.5"),
        (dict(max_bytes="100"), TypeError, "max_bytes must be an integer >= 0, got '100'"),
        (dict(max_bytes=True), TypeError, "max_bytes must be an integer >= 0, got True"),
        (dict(max_ops=0), ValueError, "max_ops must be an integer >= 1, got 0"),
        (dict(max_ops=1), ValueError, "the graph has 2 ops, more than max_ops=1"),
        (dict(names=[x]), TypeError, "names must be a dict {name: tensor} or a Module, not list"),
        (dict(names={"x": 3}), TypeError, "names['x'] is a int, not a Tensor"),
        (dict(names={1: x}), TypeError, "names' keys are the labels, strings, not int"),
        (dict(collapse=3), TypeError, "collapse must be scope names"),
        (dict(collapse=["square", None]), TypeError, "collapse must be scope names (strings)"),
        (dict(collapse=["nosuch"]), ValueError,
         "collapse names no scope 'nosuch' of this graph; its scopes: 'square'"),
        (dict(predict="yes"), TypeError, "predict must be True or False, not 'yes'"),
        (dict(predict_at=3), TypeError, "predict_at must be op class names, op classes"),
        (dict(predict_at=["Matmul"]), ValueError, "predict_at names 'Matmul', which is no op"),
        (dict(predict_at=[int]), TypeError, "predict_at names int, which is not an op class"),
        (dict(title=5), TypeError, "title must be a string (or None), not int"),
        (dict(grad=np.ones(3)), ValueError, "grad has shape (3,), but the root has shape ()"),
        (dict(grad=np.array(["a"])), TypeError, "grad must be an array of numbers"),
        (dict(grad=np.array(np.nan)), ValueError, "grad has NaN or infinite entries"),
    ]


@pytest.mark.parametrize("case", range(len(bad_arguments()[1])))
def test_each_bad_argument_is_a_one_line_error_naming_it(case):
    root, cases = bad_arguments()
    arguments, error, words = cases[case]
    with pytest.raises(error) as raised:
        explore(root, **arguments)
    message = str(raised.value)
    assert message.startswith("explore: ") and words in message and "\n" not in message


def test_good_arguments_of_every_accepted_kind_still_make_a_page():
    x = Tensor([1.0, 2.0], requires_grad=True, name="x")
    with scope("square"):
        y = x * x
    from minigrad.ops.arithmetic import Mul
    for arguments in (dict(collapse="square"), dict(collapse=("square",)),
                      dict(predict_at=Mul), dict(predict_at=("Mul", Mul)),
                      dict(predict_at=lambda op: True), dict(names={"x": x}),
                      dict(max_bytes=np.int64(10), max_elements=0),
                      dict(predict=np.bool_(True), title="t")):
        assert explore(y, grad=Tensor([1.0, 1.0]), **arguments).steps == 1
    with pytest.raises(ValueError, match="not a single number: pass grad="):
        explore(y)


def test_a_tiny_gradient_never_reads_as_zero_on_the_page():
    x = Tensor(np.array([1.0, 2.0]), requires_grad=True)
    w = np.array([1.0, 1e-7])                         # dL/dx = w: one entry tiny, not zero
    big = Tensor(np.linspace(0.0, 1.0, 20), requires_grad=True)
    scale = np.full(20, 3e-8)
    scale[0] = 2.0                                      # summarised: its min is 3e-08
    data = page_data(explore((x * Tensor(w)).sum() + (big * Tensor(scale)).sum()))
    shown = {}
    for t in data["tensors"]:
        if t["grad"] is not None and t["creator"] is None and t["needs_grad"]:
            entry = data["arrays"][t["grad"]]
            shown[entry["size"]] = (entry["lines"], entry["short"])
    assert shown[2] == (["1.000  1e-07"], "1.000 1e-07")
    assert shown[20][0] == ["mean 0.100  std 0.436", "min 3e-08  max 2.000"]


def test_predict_mode_with_no_question_says_why_and_what_to_raise():
    big = Tensor(np.random.default_rng(0).normal(size=(40, 50)), requires_grad=True)
    loss = (big * big + big).sum()
    with pytest.warns(UserWarning, match=r"over max_elements=1024: raise it with "
                                         r"max_elements=2000$") as caught:
        page = explore(loss, predict=True)
    assert page.questions == [] and "\n" not in str(caught[0].message)
    assert "0 questions (predict mode: the 1 question found (step 3) need" in repr(page)
    assert len(explore(loss, predict=True, max_elements=2000).questions) == 1
    x = Tensor(np.ones(3), requires_grad=True)
    with pytest.warns(UserWarning, match="no op of this graph is one predict mode asks at"):
        explore((x * 2.0).sum(), predict=True)
    assert explore((x * 2.0).sum()).data["no_questions"] is None      # predict mode off


def test_predict_mode_on_gradients_with_nan_or_inf_says_so_without_a_numpy_warning():
    x = Tensor(np.array([1.5, -2.0, np.nan, np.inf]), requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        page = explore((x * x).sum(), predict=True)
    assert page.questions == []
    assert [str(w.message) for w in caught] == [
        "explore: predict mode asks no question: the gradients at the ops it would ask at are "
        "not finite (Mul at step 2: its gradients hold nan or inf)"]


def test_a_graph_above_max_ops_is_refused_at_once_naming_the_limit_and_its_size():
    from minigrad.viz.explorer.data import MAX_OPS
    assert MAX_OPS == 3000
    y = Tensor(np.ones(3), requires_grad=True, name="x")
    for _ in range(MAX_OPS):
        y = y * 0.5
    with pytest.raises(ValueError) as refused:
        explore(y.sum())                                    # 3,001 ops: the sum too
    assert str(refused.value) == (
        "explore: the graph has 3,001 ops, more than max_ops=3,000 (a browser needs seconds to "
        "lay out a few thousand); explore a smaller part (one step, one layer) or raise max_ops")
    assert len(explore(y.sum(), max_ops=3001).data["ops"]) == 3001     # raised: drawn


def test_every_python_file_of_the_explorer_is_under_300_lines():
    """The explorer's modules stay short enough to read in one sitting (predict mode's was 304
    lines: which ops are asked at is predict.py, how one question is made is question.py)."""
    from pathlib import Path

    import minigrad.viz.explorer as package
    lengths = {path.name: len(path.read_text(encoding="utf-8").splitlines())
               for path in Path(package.__file__).parent.glob("*.py")}
    assert {"predict.py", "question.py"} <= set(lengths)
    assert {name: n for name, n in lengths.items() if n >= 300} == {}
