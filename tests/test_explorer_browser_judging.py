"""How the page judges an answer, in a real browser: the rule worked on the numbers as the page
shows them is accepted, a mistake worked on them is named (within its own tolerance), and a
question says in one line which mistake it cannot catch.
(The browser, and the checks made on every page, are those of test_explorer_browser.py.)"""

from minigrad.viz.__main__ import LSTMCellConfig, explore_lstm_cell
from tests import test_explorer_browser as shared
from tests.test_explorer_judging import by_hand, mistake_by_hand, one_hot_softmax

browser, open_page = shared.browser, shared.open_page       # the fixtures, shared


def test_a_matmul_worked_on_the_shown_numbers_is_right_on_the_page(tmp_path, open_page):
    # the first lstm-cell question where the rounded numbers miss 1% of the answer
    for seed in range(40):
        explorer = explore_lstm_cell(LSTMCellConfig(seed=seed), predict=True)
        found = [(q, by_hand(explorer.data, q)[tuple(q["index"])]) for q in explorer.questions
                 if explorer.data["ops"][explorer.data["steps"][q["step"] - 1]["op"]]["type"]
                 == "MatMul"]
        found = [(q, v) for q, v in found if abs(v - q["answer"]) > 0.01 * abs(q["answer"])]
        if found:
            break
    q, value = found[0]
    page = open_page(explorer.save(tmp_path / "rounded.html"))
    page.evaluate(f"window.explorer.goto({q['step']})")
    while page.evaluate("window.explorer.question()")["index"] != q["index"]:
        page.click("#reveal")                           # an earlier question of the step
    page.fill("#answer", f"{value:.6g}")
    page.press("#answer", "Enter")
    assert page.locator(".feedback").last.inner_text().startswith("Right")


def test_the_page_says_which_mistake_a_question_cannot_catch(tmp_path, open_page):
    explorer = one_hot_softmax(4)
    (q,) = [q for q in explorer.questions if q["not_caught"]]
    page = open_page(explorer.save(tmp_path / "one-hot.html"))
    page.evaluate(f"window.explorer.goto({q['step']})")
    line = page.locator(".question .not-caught").inner_text()
    assert line == ("This question cannot catch: the softmax Jacobian taken as its diagonal, "
                    "y_i (1 - y_i) dL/dy_i (here it gives the right number, or 0).")
    page.fill("#answer", "0")
    page.press("#answer", "Enter")
    assert page.locator(".question .not-caught").count() == 1     # still there with the verdict


def test_a_mistake_worked_on_the_shown_numbers_is_named_on_the_page(tmp_path, open_page):
    # the first sigmoid whose slope forgotten, on the shown numbers, is past the question's
    # tolerance from the engine's mistaken number (within the mistake's own)
    for seed in range(40):
        explorer = explore_lstm_cell(LSTMCellConfig(seed=seed), predict=True)
        found = [(q, m, mistake_by_hand(explorer.data, q, m["kind"]))
                 for q in explorer.questions for m in q["mistakes"]
                 if m["kind"] == "derivative_forgotten"]
        found = [(q, m, v) for q, m, v in found if abs(v - m["value"]) > q["tolerance"]]
        if found:
            break
    q, m, value = found[0]
    page = open_page(explorer.save(tmp_path / "slope.html"))
    page.evaluate(f"window.explorer.goto({q['step']})")
    page.fill("#answer", f"{value:.6g}")
    page.press("#answer", "Enter")
    feedback = page.locator(".feedback").last.inner_text()
    assert feedback.startswith("Not quite") and "without the slope" in feedback
