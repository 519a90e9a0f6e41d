"""Predict mode's tries in a real browser: a wrong answer lets the learner try again, a second
one offers a hint, a third shows the number; the score counts first tries; a question stepped
past comes back unanswered unless its number was shown; the tolerance is never written before
an answer; and the summary, on the page, from window.explorer.results() and as a JSON download.
(The browser, and the checks made on every page, are those of test_explorer_browser.py.)"""

import json

import numpy as np

from minigrad import Tensor
from minigrad.viz import explore
from tests import test_explorer_browser as shared
from tests.test_explorer import attention_context, question_type
from tests.test_explorer_browser import state

browser, open_page = shared.browser, shared.open_page       # the fixtures, shared


def attention_page(tmp_path, open_page, name="tries.html"):
    data = explore(attention_context()[0], predict=True).data
    by_type = {question_type(data, q): q for q in data["questions"]}
    page = open_page(explore(attention_context()[0], predict=True).save(tmp_path / name))
    return page, data, by_type


def wrong_number(q):
    """A number far from the answer and from every known mistake."""
    return q["answer"] + 1000 * q["tolerance"] + 7.0


def test_a_wrong_answer_asks_again_then_hints_then_shows_the_number(tmp_path, open_page):
    page, data, by_type = attention_page(tmp_path, open_page)
    matmul = by_type["MatMul"]                          # step 6: dL/dkeys[2, 0] (keys @ query)
    page.evaluate(f"window.explorer.goto({matmul['step']})")
    first = page.evaluate(f"window.explorer.answer({-matmul['answer']!r})")
    assert first == {"right": False, "mistake": "sign", "answer": None}   # not given away
    assert page.locator("#answer").count() == 1         # the box stays, with the feedback
    feedback = page.locator(".feedback").inner_text()
    assert "right size, wrong sign" in feedback and "engine" not in feedback
    assert page.locator("#hint").count() == 0
    q = page.evaluate("window.explorer.question()")
    assert q["answered"] is False and q["attempts"] == [-matmul["answer"]]
    page.fill("#answer", "12345")
    page.press("#answer", "Enter")
    assert page.locator("#answer").count() == 1         # a second wrong try: a hint
    hint = page.locator("#hint").inner_text()
    # dL/dkeys[2, 0] = dL/dscores[2] * q[0]: the rule, the gradient arriving, the query's value
    assert "\u2202L/\u2202keys[2, 0] = \u2202L/\u2202scores[2] \u00b7 q[0]" in hint, hint
    keys, query = data["ops"][data["steps"][5]["op"]]["inputs"]
    assert data["tensors"][keys]["name"] == "keys" and data["tensors"][query]["name"] == "q"
    grad_y = shared_array(data, data["steps"][5]["grad_y"])
    q_values = shared_array(data, data["tensors"][query]["values"])
    assert f"\u2202L/\u2202scores[2] = {float(f'{grad_y[2]:.4g}'):g}" in hint, hint
    assert f"q[0] = {float(f'{q_values[0]:.4g}'):g}" in hint, hint
    assert page.evaluate("window.explorer.question()")["attempts"] == [-matmul["answer"], 12345]
    third = page.evaluate("window.explorer.answer(54321)")
    assert third == {"right": False, "mistake": None, "answer": matmul["answer"]}
    assert page.locator("#answer").count() == 0
    assert "The engine's number" in page.locator(".feedback").inner_text()


def shared_array(data, ref):
    from tests.test_explorer import array
    return np.asarray(array(data, ref), dtype=np.float64).ravel()


def test_show_me_is_there_at_every_try(tmp_path, open_page):
    page, _, by_type = attention_page(tmp_path, open_page)
    page.evaluate(f"window.explorer.goto({by_type['MatMul']['step']})")
    assert page.locator("#reveal").count() == 1
    page.evaluate("window.explorer.answer(12345)")
    assert page.locator("#reveal").count() == 1
    page.click("#reveal")
    assert page.locator("#answer").count() == 0
    assert page.evaluate("window.explorer.question()")["answered"] is True
    assert page.locator(".feedback").inner_text().startswith("Shown after 1 try (the last: 12345)")


def test_the_score_counts_first_tries_and_retries_apart(tmp_path, open_page):
    page, data, by_type = attention_page(tmp_path, open_page)
    page.evaluate("window.explorer.goto(1)")
    one = next(q for q in data["questions"] if q["step"] == 1)
    page.evaluate(f"window.explorer.answer({wrong_number(one)!r})")
    assert page.evaluate(f"window.explorer.answer({one['answer']!r})")["right"] is True
    first = by_type["MatMul"]
    page.evaluate(f"window.explorer.goto({first['step']})")     # the 3 between: their numbers
    page.evaluate(f"window.explorer.answer({first['answer']!r})")       # drawn; right at once
    n = len(data["questions"])
    assert state(page, "score") == {"right": 1, "retried": 1, "asked": n, "questions": n}
    line = page.locator("#score").inner_text()
    assert f"right at the first try: 1 of {n} asked" in line and "right after a retry: 1" in line


def test_the_tolerance_is_not_written_before_an_answer(tmp_path, open_page):
    page, _, by_type = attention_page(tmp_path, open_page)
    q = by_type["MatMul"]
    page.evaluate(f"window.explorer.goto({q['step']})")
    written = f"{q['tolerance']:.2g}"
    assert "counts as right" not in page.locator("#step").inner_text()
    assert written not in page.locator("#step").inner_text()
    page.evaluate(f"window.explorer.answer({q['answer'] * 1.002!r})")
    assert "counts as right" in page.locator(".feedback").inner_text()   # after: how close


def test_an_end_press_stops_at_the_question_it_would_pass_and_a_second_goes_on(tmp_path,
                                                                              open_page):
    """One press cannot pass a question unseen: End stops at the first unanswered one on the
    way; End again goes on, and every number the jump drew counts as shown (passed)."""
    page, data, by_type = attention_page(tmp_path, open_page)
    page.evaluate("window.explorer.goto(1)")
    page.keyboard.press("Escape")
    page.keyboard.press("End")                          # by accident: it stays at step 1
    assert state(page) == 1 and page.evaluate("window.explorer.question()")["answered"] is False
    assert "The same move again goes on past it" in page.locator("#step").inner_text()
    page.keyboard.press("Escape")                       # (the answer box had the keys)
    page.keyboard.press("End")                          # on purpose: to the end
    assert state(page) == state(page, "steps")
    assert page.evaluate("window.explorer.question()")["answered"] is False  # the last asks
    page.keyboard.press("Escape")
    page.keyboard.press("Home")
    assert state(page, "score")["asked"] == len(data["questions"]) - 1  # their numbers drawn
    page.evaluate("window.explorer.goto(2)")
    assert page.evaluate("window.explorer.question()")["answered"] is True
    page.evaluate("window.explorer.goto(1)")
    assert page.locator(".feedback").inner_text().startswith("Passed without an answer")


def test_a_softmax_question_counts_as_shown_where_its_number_is_first_drawn(tmp_path,
                                                                            open_page):
    """The Exp's input, shifted, gets exactly dL/dscores (the max is a constant): its step
    draws the softmax question's number, before the last of the softmax's ops."""
    page, data, by_type = attention_page(tmp_path, open_page)
    q = by_type["softmax"]
    page.evaluate(f"window.explorer.goto({q['step']})")
    page.evaluate(f"window.explorer.answer({by_type['Div']['answer']!r})")   # the Div's first
    page.evaluate(f"window.explorer.goto({q['span'][1] - 1})")              # the Exp
    page.evaluate(f"window.explorer.goto({q['step']})")
    assert page.evaluate("window.explorer.question()")["answered"] is True


def test_the_summary_lists_every_question_and_tallies_the_mistakes(tmp_path, open_page):
    page, data, by_type = attention_page(tmp_path, open_page)
    q = by_type["MatMul"]
    page.evaluate(f"window.explorer.goto({q['step']})")
    page.evaluate(f"window.explorer.answer({-q['answer']!r})")          # sign
    page.evaluate(f"window.explorer.answer({-q['answer']!r})")          # sign again
    page.evaluate(f"window.explorer.answer({q['answer']!r})")           # right, third try
    results = page.evaluate("window.explorer.results()")
    assert len(results["questions"]) == len(data["questions"])
    mine = next(r for r in results["questions"] if r["step"] == q["step"])
    assert mine == {"step": q["step"], "tensor": "keys", "index": q["index"],
                    "attempts": [-q["answer"], -q["answer"], q["answer"]],
                    "right": True, "first_try": False, "revealed": False,
                    "passed": False, "mistakes": ["sign", "sign"]}
    sign = next(m for m in q["mistakes"] if m["kind"] == "sign")
    assert results["mistakes"] == [{"kind": "sign", "text": sign["text"], "times": 2}]
    assert results["score"]["retried"] == 1
    page.evaluate(f"window.explorer.goto({state(page, 'steps')})")      # the end: the summary
    summary = page.locator("#summary").inner_text()
    assert "right size, wrong sign: 2 times" in summary
    with page.expect_download() as caught:
        page.click("#download-results")
    download = caught.value
    assert download.suggested_filename == "backprop-explorer-results.json"
    assert download.url.startswith("blob:")
    saved = json.loads(open(download.path(), encoding="utf-8").read())
    assert saved == page.evaluate("window.explorer.results()")


def test_the_summary_button_shows_it_at_any_step(tmp_path, open_page):
    x = Tensor([0.3, -1.7, 2.2], requires_grad=True, name="x")
    page = open_page(explore((x * x).sum(), predict=True, title="Squares, week 2")
                     .save(tmp_path / "square.html"))
    page.evaluate("window.explorer.goto(1)")
    assert page.locator("#summary").count() == 0
    page.click("#show-summary")
    assert "x[" in page.locator("#summary").inner_text()
    with page.expect_download() as caught:
        page.click("#download-results")
    assert caught.value.suggested_filename == "Squares-week-2-results.json"


def test_the_results_download_from_a_notebooks_frame(tmp_path, open_page):
    x = Tensor([0.3, -1.7, 2.2], requires_grad=True, name="x")
    host = tmp_path / "notebook.html"
    host.write_text("<!DOCTYPE html><html><body>" + explore((x * x).sum(), predict=True,
                                                            title="Week 2")._repr_html_() +
                    "</body></html>", encoding="utf-8")
    page = open_page(host, ready=None)
    (frame,) = [frame for frame in page.frames if frame != page.main_frame]
    frame.wait_for_function("window.explorer && window.explorer.ready", timeout=20_000)
    frame.click("#show-summary")
    with page.expect_download(timeout=5_000) as caught:
        frame.click("#download-results")
    assert caught.value.suggested_filename == "Week-2-results.json"


def test_a_long_title_makes_a_file_name_a_file_system_takes(tmp_path, open_page):
    x = Tensor([0.3, -1.7, 2.2], requires_grad=True, name="x")
    page = open_page(explore((x * x).sum(), predict=True, title="week " * 60)
                     .save(tmp_path / "long.html"))
    page.click("#show-summary")
    with page.expect_download() as caught:
        page.click("#download-results")
    name = caught.value.suggested_filename
    assert name.startswith("week-week-") and name.endswith("-results.json")
    assert len(name.encode()) <= 255 and len(name) <= 73 and "--" not in name
