"""The page of `python -m attention explore --self --causal --predict` in a real browser: a
head's softmax question and a masked score's (answered right with 0), and the residual's,
answered with its sublayer's term alone, which the page names as the forgotten direct path.
(The browser, and the checks made on every page, are those of test_explorer_browser.py.)"""

from attention.__main__ import main as attention_main
from tests import test_explorer_browser as shared
from tests.test_explorer import page_data
from tests.test_explorer_browser import gradient_numbers, state, written_as

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
    assert f"the mask of step {masked['span'][1]}" in text and "\u2202L/\u2202scores[" in text
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
    # The questions jumped past count as shown: asked, not right.
    passed = [q for q in questions if q["step"] <= residual["step"]]
    assert state(page, "score") == {"right": 2, "asked": len(passed),
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
