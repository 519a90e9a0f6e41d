"""The pages of `python -m attention explore --self` and `--block` in a real browser.

--self --causal --predict: a head's softmax question and a masked score's (answered right with
0), and the residual's, answered with its sublayer's term alone, which the page names as the
forgotten direct path. --block --heads 2 --predict, with and without --causal: every question
of the pass, asked as the right-arrow key reaches it and answered by typing, over as many
passes as it takes to try on each question the right answer and every known mistake the page
offers for it (each named in the feedback), with the score at the end of each pass; a head and
the attention sublayer folded and unfolded with a click, as draw_graph folds them.
(The browser, and the checks made on every page, are those of test_explorer_browser.py.)"""

import pytest

from attention.__main__ import main as attention_main
from attention.explore_self import self_attention_step
from tests import test_explorer_browser as shared
from tests.test_explorer import page_data
from tests.test_explorer_browser import (
    click_inside,
    drawn_boxes,
    gradient_numbers,
    state,
    written_as,
)

browser, open_page = shared.browser, shared.open_page       # the fixtures, shared


def test_self_attention_with_a_causal_mask_checks_a_zero_and_names_sublayer_only(
        tmp_path, open_page):
    out = tmp_path / "self.html"
    assert attention_main(["explore", "--self", "--heads", "2", "--causal", "--predict",
                           "--out", str(out)]) == 0
    data = page_data(out.read_text(encoding="utf-8"))
    page = open_page(out)
    questions = data["questions"]
    masked = next(q for q in questions if q["answer"] == 0.0)
    residual = next(q for q in questions
                    if any(m["kind"] == "sublayer_only" for m in q["mistakes"]))

    # The head's softmax starts: its own question first, answered right, then the mask's.
    softmax = next(q for q in questions if q["step"] == masked["step"] and not q.get("mask"))
    page.evaluate(f"window.explorer.goto({masked['step']})")
    page.fill("#answer", f"{softmax['answer']:.6g}")
    page.press("#answer", "Enter")
    assert page.locator(".feedback").inner_text().startswith("Right")
    assert page.evaluate("window.explorer.question()")["index"] == masked["index"]
    text = page.locator("#step").inner_text()
    assert f"the mask of step {masked['span'][1]}" in text
    assert "\u2202L/\u2202(scores #2)[" in text                   # (head 1's: head 0 has #1)
    page.fill("#answer", "0")
    page.press("#answer", "Enter")
    assert page.locator(".feedback").nth(1).inner_text().startswith("Right: 0.")

    page.evaluate(f"window.explorer.goto({residual['step']})")
    assert page.evaluate("window.explorer.question()")["total"] is True
    forgot = next(m["value"] for m in residual["mistakes"] if m["kind"] == "sublayer_only")
    page.fill("#answer", f"{forgot:.6g}")
    page.click("#check")
    feedback = page.locator(".feedback").inner_text()
    assert "Not quite" in feedback and "a residual, y = x + f(x)" in feedback
    # The questions jumped past count as asked, their numbers drawn on the way (passed).
    passed = [q for q in questions if masked["step"] < q["step"] < residual["step"]]
    assert state(page, "score") == {"right": 2, "retried": 0, "asked": 3 + len(passed),
                                    "questions": len(questions)}


def test_no_question_of_a_block_shows_its_answer_before_it_is_answered(tmp_path, open_page):
    """(A mask's answer is 0, which other gradients on the page may be too: not checked.)"""
    out = tmp_path / "block.html"
    assert attention_main(["explore", "--block", "--causal", "--predict", "--out",
                           str(out)]) == 0
    questions = page_data(out.read_text(encoding="utf-8"))["questions"]
    page = open_page(out)
    for q in questions:
        page.evaluate(f"window.explorer.goto({q['step']})")
        while page.evaluate("window.explorer.question()")["index"] != q["index"] or \
                page.evaluate("window.explorer.question()")["answered"]:
            page.evaluate("window.explorer.reveal()")
        if not q.get("mask"):
            shown = [v for v in gradient_numbers(page) if written_as(q["answer"], v)]
            assert shown == [], (q["step"], q["answer"], shown)
        page.evaluate("window.explorer.reveal()")


# ---- a whole encoder block: every question walked with the keys, each answer typed ----------

NAMED = {   # the words by which the page names each known mistake (explorer/mistakes.py)
    "sublayer_only": "that is what comes back through the sublayer alone",
    "missed_sum": "that is one term alone",
    "norm_constants": "that takes the row's mean and variance as constants",
    "softmax_diagonal": "that is the diagonal of the softmax Jacobian only",
    "scale_forgotten": "that is dL/dy passed on unscaled",
    "through_mask": "that is the gradient it would get without the mask",
    "sign": "right size, wrong sign",
}


def answers(q):
    """What is tried on question q, over the passes: the right answer (None), then each known
    mistake the page offers for it."""
    return [None] + q["mistakes"]


def answer_typed(page, q, mistake, nth):
    """Type the answer (the right one, or the mistake's number) into the box that has the keys,
    press Enter, and check what the `nth` feedback of the step says."""
    value = q["answer"] if mistake is None else mistake["value"]
    assert page.evaluate("document.activeElement.id") == "answer"
    page.keyboard.type(f"{value:.6g}")
    page.keyboard.press("Enter")
    feedback = page.locator(".feedback").nth(nth).inner_text()
    if mistake is None:
        assert feedback.startswith("Right: "), feedback
    else:
        assert feedback.startswith("Not quite"), feedback
        assert f"It matches a known mistake: {NAMED[mistake['kind']]}" in feedback, feedback
        page.click("#reveal")                           # (else it asks again: see the tries)


def walk_answering(page, questions, choose, keys=True):
    """Answer each question as it is asked with choose(q) (None: right, else a mistake),
    stepping through the whole pass with the right-arrow key (keys=False: going straight to
    the steps that ask); returns how many were answered right."""
    at = {}
    for q in questions:
        at.setdefault(q["step"], []).append(q)
    right = 0
    for k in range(1, state(page, "steps") + 1) if keys else sorted(at):
        if keys:
            page.keyboard.press("ArrowRight")
        else:
            page.evaluate(f"window.explorer.goto({k})")
        assert state(page) == k
        for nth, q in enumerate(at.get(k, [])):
            asked = page.evaluate("window.explorer.question()")
            assert (asked["index"], asked["answered"]) == (q["index"], False)
            mistake = choose(q)
            answer_typed(page, q, mistake, nth)
            right += mistake is None
        if k in at:                                     # all answered: the keys step on
            assert page.evaluate("window.explorer.question()")["answered"] is True
    if keys:
        page.keyboard.press("ArrowRight")               # the last step stays the last
        assert state(page) == state(page, "steps")
    return right


# (The causal block offers every mistake the other does, and the mask's: the other is slow.)
@pytest.mark.parametrize("causal", [pytest.param(False, marks=pytest.mark.slow), True])
def test_a_blocks_every_question_answered_right_or_with_each_mistake_it_names(
        tmp_path, open_page, causal):
    out = tmp_path / "block.html"
    assert attention_main(["explore", "--block", "--heads", "2", "--predict", "--out", str(out),
                           *(["--causal"] if causal else [])]) == 0
    questions = page_data(out.read_text(encoding="utf-8"))["questions"]
    kinds = {m["kind"] for q in questions for m in q["mistakes"]}
    assert kinds == set(NAMED) - (set() if causal else {"through_mask"})
    for p in range(max(len(answers(q)) for q in questions)):     # every answer of every q
        page = open_page(out)
        order = {id(q): n for n, q in enumerate(questions)}
        right = walk_answering(page, questions, lambda q: answers(q)[
            (order[id(q)] + p) % len(answers(q))], keys=p == 0)    # (the keys: once)
        n = len(questions)
        assert state(page, "score") == {"right": right, "retried": 0, "asked": n, "questions": n}
        assert page.locator("#score").inner_text().startswith(
            f"Predict mode: right at the first try: {right} of {n} asked; right after a retry: "
            f"0 ({n} questions in this pass)")


def test_a_blocks_head_and_sublayer_fold_and_unfold_with_a_click_as_draw_graph_folds(
        tmp_path, open_page):
    out = tmp_path / "block.html"
    assert attention_main(["explore", "--block", "--heads", "2", "--causal", "--predict",
                           "--out", str(out)]) == 0
    loss = self_attention_step(heads=2, causal=True, block=True)[0]    # the page's graph
    data = page_data(out.read_text(encoding="utf-8"))
    page = open_page(out)
    boxes = state(page, "boxes()")
    assert state(page, "folded()") == [] and boxes == drawn_boxes(loss)
    head = ["encoder block", "self-attention", "head 1"]
    page.locator(".frame text", has_text="head 1").click()
    assert state(page, "folded()") == [head]
    assert state(page, "boxes()") == drawn_boxes(loss, ["head 1"]) < boxes
    folded = page.locator(".box.scope")
    assert folded.count() == 1
    members = [op for op in data["ops"] if op["scope"][:3] == head]     # slices to Where
    assert len(members) == 12 and folded.locator("text").all_text_contents()[:2] == [
        "head 1  (folded: click to unfold)", "12 ops: GetItem \u00d73, Div \u00d72, MatMul "
        "\u00d72, Exp, \u2026"]
    inside = next(q["step"] for q in data["questions"]             # its softmax's question
                  if data["ops"][data["steps"][q["step"] - 1]["op"]]["scope"][-1] == "head 1")
    page.evaluate(f"window.explorer.goto({inside})")
    assert page.locator(".box.scope.current").count() == 1          # the op's box: the scope's
    click_inside(page, folded)
    assert state(page, "folded()") == [] and state(page, "boxes()") == boxes
    page.locator(".frame text", has_text="self-attention").click()   # the heads go with it
    assert state(page, "boxes()") == drawn_boxes(loss, ["self-attention"])
    assert page.locator(".frame text", has_text="head 0").count() == 0
    click_inside(page, page.locator(".box.scope"))
    assert state(page, "boxes()") == boxes
    assert page.locator(".frame text", has_text="head 0").count() == 1
