"""The explorer page in a real browser, with graphs that once broke it: scope names that are
also names of JavaScript's objects or the separators of paths, a hooked tensor in predict mode,
an op with a thousand inputs, and more than ten scopes folded at once.
(The browser, and the checks made on every page, are those of test_explorer_browser.py.)"""

import numpy as np
import pytest

import minigrad.functional as F
from minigrad import Tensor, scope
from minigrad.viz import explore
from tests import test_explorer_browser as shared
from tests.test_explorer_browser import drawn_boxes, state

browser, open_page = shared.browser, shared.open_page       # the fixtures, shared


def nested(names, x):
    """x through one op inside the scopes `names`, nested in that order."""
    if not names:
        return (x * 2.0).exp()
    with scope(names[0]):
        return nested(names[1:], x)


def test_scope_names_of_javascripts_objects_and_separators_draw_and_fold(tmp_path, open_page):
    x = Tensor([1.0, 2.0], requires_grad=True, name="x")
    paths = [[""], ["", ""], ["constructor"], ["toString"], ["__proto__"], ["a\u0000b"],
             ["a", "b"], ["hasOwnProperty", "valueOf"]]
    loss = sum((nested(path, x).sum() for path in paths), Tensor(0.0))
    page = open_page(explore(loss).save(tmp_path / "names.html"))
    assert state(page, "boxes()") == drawn_boxes(loss)
    frames = page.locator("#graph .frame > text").all_text_contents()
    assert sorted(frames) == sorted(name + "  (click to fold)" for name in [
        "", "", "constructor", "toString", "__proto__", "a\u0000b", "a", "b",
        "hasOwnProperty", "valueOf"])
    for path in paths:
        page.evaluate(f"window.explorer.fold({path!r})")
        assert state(page, "folded()") == [path]
        page.evaluate(f"window.explorer.unfold({path!r})")
    page.keyboard.press("End")
    assert state(page) == state(page, "steps")


def test_a_tensor_with_hooks_is_not_asked_for_its_whole_gradient(tmp_path, open_page):
    """The page cannot show what a hook does (any function), so a question whose answer is the
    gradient after the hook could not be answered from it."""
    x = Tensor([0.5, -1.0, 2.0], requires_grad=True, name="x")
    loss = (x * x + x.exp()).sum()
    assert [q for q in explore(loss, predict=True).data["questions"] if q["total"]]
    x.register_hook(lambda g: g * 10)
    with pytest.warns(UserWarning, match=r"predict mode asks no question: the tensors it would "
                                         r"ask about have hooks \(register_hook\), which the "
                                         r"page cannot show \(Mul at step 4: its input has "
                                         r"hooks\)$"):
        explorer = explore(loss, predict=True)
    assert not [q for q in explorer.data["questions"] if q["total"]]
    page = open_page(explorer.save(tmp_path / "hooked.html"))
    for step in range(1, state(page, "steps") + 1):
        page.evaluate(f"window.explorer.goto({step})")
        question = state(page, "question()")
        assert question is None or not question["total"]


@pytest.mark.slow
def test_a_stack_of_one_tensor_a_thousand_times_labels_a_few_arrows_inside_the_drawing(
        tmp_path, open_page):
    x = Tensor(np.arange(3.0), requires_grad=True, name="x")
    explorer = explore(F.stack([x] * 1000).sum())
    page = open_page(explorer.save(tmp_path / "stack.html"))
    k = next(k for k, step in enumerate(explorer.data["steps"], start=1)
             if explorer.data["ops"][step["op"]]["type"] == "Stack")
    page.evaluate(f"window.explorer.goto({k})")        # (9 s, with a thousand labels placed
                                                        # and a thousand sums of 1,000 terms)
    labels = page.evaluate("""Array.from(document.querySelectorAll('.labels rect'))
        .map(r => [+r.getAttribute('x'), +r.getAttribute('y'), +r.getAttribute('width')])""")
    left, top, width, height = map(float, page.locator("#graph svg").get_attribute(
        "viewBox").split())
    assert len(labels) == 6
    for x0, y0, w in labels:                            # (one was at y = -11143)
        assert left <= x0 and x0 + w <= left + width and top <= y0 and y0 + 14 <= top + height
    covered = page.evaluate("""(() => {              // x's box stays readable: side by side
        const box = document.querySelector('.box.tensor rect.outline').getBoundingClientRect();
        return Array.from(document.querySelectorAll('.labels rect')).some(r => {
            const s = r.getBoundingClientRect();
            return s.left < box.right && box.left < s.right && s.top < box.bottom &&
                   box.top < s.bottom; }); })()""")
    assert not covered
    assert "+ 994 more, here" in page.locator("#step").inner_text()
    assert "+ \u2026 992 more terms" in page.locator("#step").inner_text()


def test_an_answer_must_be_a_decimal_number_not_hex_nor_infinity(tmp_path, open_page):
    x = Tensor([0.5, 3.0], requires_grad=True, name="x")
    explorer = explore((x * x).sum(), predict=True)
    (q,) = explorer.data["questions"]
    page = open_page(explorer.save(tmp_path / "answers.html"))
    page.evaluate(f"window.explorer.goto({q['step']})")
    for typed in ["0xC", "0b11", "0o7", "Infinity", "1e", "--1", ""]:
        assert page.evaluate(f"window.explorer.answer({typed!r})") is None, typed
    assert "Type a number" in page.locator("#answer-note").inner_text()
    said = page.evaluate(f"window.explorer.answer(' {q['answer']!r} ')")
    assert said["right"] is True


def test_nan_and_infinity_are_spelled_alike_in_boxes_and_sums(tmp_path, open_page):
    x = Tensor([float("nan"), float("inf"), 1.0], requires_grad=True, name="x")
    page = open_page(explore((x * x).sum()).save(tmp_path / "nan.html"))
    page.evaluate("window.explorer.goto(2)")            # x * x: both terms, and their sum
    text = page.locator("#step").text_content() + page.locator("#graph").text_content()
    assert "nan" in text and "inf" in text
    assert "NaN" not in text and "Infinity" not in text


def test_folded_lists_the_scopes_in_the_pages_order_past_ten_of_them(tmp_path, open_page):
    """(Sorted as text, scope 10 came before scope 2.)"""
    x = Tensor([1.0, 2.0], requires_grad=True, name="x")
    loss = sum((nested([f"part {k}"], x).sum() for k in range(12)), Tensor(0.0))
    explorer = explore(loss)
    page = open_page(explorer.save(tmp_path / "twelve.html"))
    for k in range(12):
        page.evaluate(f"window.explorer.fold('part {k}')")
    assert state(page, "folded()") == explorer.data["scopes"] == [
        [f"part {k}"] for k in range(12)]
