"""A question's line "This question cannot catch: ..." agrees with what the page names, in a
real browser, on the attention pages the gallery shows: every number of a mistake in that line,
typed, is not named as that mistake, and every mistake the page names is not in the line.
(The browser, and the checks made on every page, are those of test_explorer_browser.py.)"""

import pytest

from minigrad.viz.explorer import judging, masked, question
from minigrad.viz.explorer.mistakes import NAMES
from attention.explore import explore_attention_step
from attention.explore_self import explore_self_attention
from tests import test_explorer_browser as shared

browser, open_page = shared.browser, shared.open_page       # the fixtures, shared


def with_every_number(monkeypatch, make):
    """The page `make()` builds, and for each question every number each known mistake gives
    at its element: {(step, index): [(kind, number), ...]}."""
    seen = {}

    def recording(candidates, index, answer, tolerance, text=None):
        key = (tuple(int(i) for i in index), float(answer), float(tolerance))
        seen[key] = [(kind, value) for kind, value, _ in
                     judging.numbers(candidates, index, tolerance)]
        return judging.matching(candidates, index, answer, tolerance, text)

    monkeypatch.setattr(question, "matching", recording)
    monkeypatch.setattr(masked, "matching", recording)
    page = make()
    return page, {(q["step"], tuple(q["index"])): seen[(tuple(q["index"]), q["answer"],
                                                         q["tolerance"])]
                  for q in page.questions}


def named_on_the_page(page, q, number):
    """The kind of mistake the page names for `number` typed at question q (None for none)."""
    page.reload()
    page.wait_for_function("window.explorer && window.explorer.ready", timeout=20_000)
    page.evaluate(f"window.explorer.goto({q['step']})")
    while page.evaluate("window.explorer.question()")["index"] != q["index"]:
        page.evaluate("window.explorer.reveal()")           # an earlier question of the step
    return page.evaluate(f"window.explorer.answer({number!r})")["mistake"]


PAGES = {
    "attention": lambda: explore_attention_step(predict=True),
    "self-attention": lambda: explore_self_attention(heads=2, causal=True, predict=True),
    "encoder-block": lambda: explore_self_attention(heads=2, causal=True, block=True,
                                                    predict=True),
}


@pytest.mark.parametrize("which", PAGES)
def test_what_a_question_cannot_catch_is_what_the_page_does_not_name(which, tmp_path,
                                                                     open_page, monkeypatch):
    explorer, numbers = with_every_number(monkeypatch, PAGES[which])
    page = open_page(explorer.save(tmp_path / f"{which}.html"))
    checked = 0
    for q in explorer.questions:
        not_caught = {kind for kind, name in NAMES.items()
                      if any(line.startswith(name + " (") for line in q["not_caught"])}
        named = {m["kind"] for m in q["mistakes"]}
        assert not named & not_caught, (q["step"], named, q["not_caught"])
        for kind, number in numbers[(q["step"], tuple(q["index"]))]:
            if kind != "sign":                  # (its one number: minus the answer)
                got = named_on_the_page(page, q, number)
                assert got is None or got not in not_caught, (q["step"], kind, number, got)
                assert kind not in not_caught or got != kind, (q["step"], kind, number)
                checked += 1
    assert checked >= 6
