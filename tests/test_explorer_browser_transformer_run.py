"""The page of `python -m seq2seq explore RUN --predict` on a trained Transformer run (2 layers,
2 heads, d_model 8: trained here in a few seconds) in a real browser. It opens folded by layer
and by head; its questions are asked where its ops are drawn, outside every folded scope, and
answered by typing: the layer norms' with their mean and variance taken as constants, the
softmax's with the diagonal of its Jacobian, a scale's right and the other's unscaled, each
named by the feedback. A click unfolds the first layer, then a head, and shows their boxes; the
step-through reaches the end.
(The browser, and the checks made on every page, are those of test_explorer_browser.py.)"""

import pytest

from seq2seq.commands.cli import main
from tests import test_explorer_browser as shared
from tests.test_explorer import page_data
from tests.test_explorer_browser import state
from tests.test_explorer_browser_transformer import answer_typed

browser, open_page = shared.browser, shared.open_page       # the fixtures, shared

TRAIN = ["train", "--task", "copy", "--num-examples", "60", "--epochs", "1", "--arch",
         "transformer", "--d-model", "8", "--heads", "2", "--d-ff", "16", "--layers", "2",
         "--batch-size", "16", "--no-progress"]


@pytest.fixture(scope="module")
def two_layer_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("runs") / "transformer"
    assert main([*TRAIN, "--out", str(out)]) == 0
    return out


def drawn(data, folded):
    """The op boxes and the folded scopes' boxes drawn with the scopes `folded` (paths) folded:
    an op inside a folded scope is drawn as the box of the outermost one (visible.js)."""
    index = {tuple(path): k for k, path in enumerate(data["scopes"])}
    folded = {index[tuple(path)] for path in folded}
    ops, scopes = set(), set()
    for j, op in enumerate(data["ops"]):
        outer = [index[tuple(op["scope"][:n])] for n in range(1, len(op["scope"]) + 1)]
        group = next((k for k in outer if k in folded), None)
        if group is None:
            ops.add(f"op{j}")
        else:
            scopes.add(f"scope{group}")
    return ops, scopes


def boxes_on(page, kind):
    return set(page.evaluate(f"""Array.from(document.querySelectorAll('#graph .box.{kind}'))
        .map((g) => g.dataset.id)"""))


def typed_answers(questions):
    """For each question, the mistake typed (None: the right answer): a layer norm's, its mean
    and variance taken as constants; a softmax's, the diagonal of its Jacobian; the first
    scale's, right, and the others', dL/dy passed on unscaled."""
    chosen, scaled = [], 0
    for q in questions:
        kinds = {m["kind"]: m for m in q["mistakes"]}
        kind = next((k for k in ("norm_constants", "softmax_diagonal") if k in kinds), None)
        if kind is None:
            assert "scale_forgotten" in kinds, kinds
            kind, scaled = "scale_forgotten" if scaled else None, scaled + 1
        chosen.append(kinds[kind] if kind else None)
    return chosen


def test_a_transformer_runs_page_asks_outside_its_folds_and_unfolds_a_layer_and_a_head(
        two_layer_run, tmp_path, open_page):
    out = tmp_path / "predict.html"
    assert main(["explore", str(two_layer_run), "--predict", "--out", str(out)]) == 0
    data = page_data(out.read_text(encoding="utf-8"))
    page = open_page(out)
    folded = [data["scopes"][k] for k in sorted(data["folded"])]
    assert state(page, "folded()") == folded
    assert ["layer 0"] in folded and ["layer 1", "self-attention", "head 1"] in folded
    assert ["layer 1", "self-attention", "head 0"] not in folded
    ops, scopes = drawn(data, folded)
    assert (boxes_on(page, "op"), boxes_on(page, "scope")) == (ops, scopes)

    questions = data["questions"]
    assert 5 <= len(questions) <= 7
    assert len({q["step"] for q in questions}) == len(questions)   # one question a step
    typed = typed_answers(questions)
    assert {m["kind"] for m in typed if m} == {"norm_constants", "softmax_diagonal",
                                               "scale_forgotten"}
    for q, mistake in zip(questions, typed):
        page.evaluate(f"window.explorer.goto({q['step']})")
        op = f"op{data['steps'][q['step'] - 1]['op']}"
        assert op in ops                                # drawn: in no folded scope
        assert page.locator(f'#graph .box.op.current[data-id="{op}"]').count() == 1
        asked = page.locator(f'#graph .box[data-id="t{q["tensor"]}"]')
        assert asked.get_attribute("class").split()[-1] == "asked"
        answer_typed(page, q, mistake, 0)               # (the feedback names the mistake)
    n = len(questions)
    assert state(page, "score") == {"right": typed.count(None), "retried": 0, "asked": n,
                                    "questions": n}
    assert typed.count(None) == 1

    boxes = state(page, "boxes()")
    for path in (["layer 0"], ["layer 1", "self-attention", "head 1"]):
        page.locator(f'#graph .box.scope[data-id="scope{data["scopes"].index(path)}"]').click()
        now = state(page, "folded()")
        assert now == [scope for scope in folded if scope != path]
        folded = now
        ops, scopes = drawn(data, now)
        assert (boxes_on(page, "op"), boxes_on(page, "scope")) == (ops, scopes)
        assert state(page, "boxes()") > boxes
        boxes = state(page, "boxes()")
    head = {f"op{j}" for j, op in enumerate(data["ops"])
            if op["scope"] == ["layer 1", "self-attention", "head 1"]}
    assert {data["ops"][int(j[2:])]["type"] for j in head} >= {"Exp", "MatMul"}
    assert head <= boxes_on(page, "op")                 # the head's scores, softmax, weights

    page.keyboard.press("Home")                         # and step through, with the keys
    for k in range(1, state(page, "steps") + 1):
        page.keyboard.press("ArrowRight")
        assert state(page) == k
    page.keyboard.press("ArrowRight")                   # the last step stays the last
    assert state(page) == state(page, "steps") == len(data["steps"])
