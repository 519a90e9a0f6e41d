"""A Japanese page (`explore(..., lang="ja")`) in headless Chromium, walked as the English one is
(test_explorer_browser.py): the steps, a question answered wrong (the Japanese feedback names the
mistake) and right, the summary; and no visible text of the page is an English sentence of the
explorer's words."""

import re

import numpy as np
import pytest

from minigrad import Tensor
from minigrad.viz import explore
from minigrad.viz.explorer.words import PLACEHOLDER, words
from tests import test_explorer_browser as shared
from tests.test_explorer import attention_context, question_type
from tests.test_explorer_words import ENGLISH

browser, open_page, state = shared.browser, shared.open_page, shared.state   # the fixtures

# Every text node the learner can see now (SVG text too): its parent is rendered, not hidden.
VISIBLE_TEXT = """() => {
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const found = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim(), parent = node.parentElement;
    if (!text || !parent || parent.closest("script, style")) continue;
    const box = parent.getBoundingClientRect(), style = getComputedStyle(parent);
    if (style.visibility === "hidden" || style.display === "none") continue;
    if (box.width === 0 && box.height === 0) continue;
    found.push(text);
  }
  return found;
}"""


def english_sentences():
    """The pieces of the English words between their placeholders that are sentences (two
    English words or more): what a Japanese page must never show."""
    pieces = set()
    for text in words("en").values():
        for piece in PLACEHOLDER.split(text)[::2]:
            piece = piece.strip(" .,:;()")
            if ENGLISH.search(piece):
                pieces.add(piece)
    return sorted(pieces, key=len, reverse=True)


# The learner's own names on a page (scopes, tensors), which stay as they were given.
NAMES = """() => {
  const data = JSON.parse(document.getElementById("explorer-data").textContent);
  return data.scopes.map(path => path[path.length - 1])
    .concat(data.tensors.map(t => t.label)).filter(Boolean);
}"""


def english_on(page):
    """The English sentences in the visible text of `page`, at every step, with its summary,
    its questions' values and every "all values" opened: a piece of the explorer's English
    words, or two English words in a row outside the learner's own names."""
    sentences, seen = english_sentences(), set()
    names = sorted(page.evaluate(NAMES), key=len, reverse=True)
    for k in range(page.evaluate("window.explorer.steps") + 1):
        page.evaluate(f"window.explorer.goto({k})")
        page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        seen.update(page.evaluate(VISIBLE_TEXT))
    found = {(s, text) for text in seen for s in sentences if s in text}
    for text in seen:
        rest = text
        for name in names:
            rest = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", " ", rest)
        found |= {(m, text) for m in ENGLISH.findall(rest)}
    return sorted(found)


def attention_page(tmp_path, lang):
    return explore(attention_context()[0], predict=True, lang=lang).save(
        tmp_path / f"predict-{lang}.html")


def test_a_japanese_page_walks_its_steps_in_japanese(tmp_path, open_page):
    page = open_page(attention_page(tmp_path, "ja"))
    assert page.evaluate("document.documentElement.lang") == "ja"
    assert page.locator("#step h2").inner_text() == "順伝播"
    assert page.locator("#counter").inner_text() == f"ステップ 0 / {state(page, 'steps')}"
    for k in range(1, state(page, "steps") + 1):
        page.evaluate(f"window.explorer.goto({k})")
        assert re.match(rf"ステップ {k}: \w+", page.locator("#step h2").inner_text())
        assert "この演算の規則" in page.locator("#step").inner_text()
    assert "凡例" in page.locator(".panel").inner_text()


def test_a_japanese_question_names_the_mistake_and_the_summary_is_japanese(tmp_path,
                                                                           open_page):
    page = open_page(attention_page(tmp_path, "ja"))
    data = explore(attention_context()[0], predict=True).data
    by_type = {question_type(data, q): q for q in data["questions"]}
    div = by_type["Div"]
    page.evaluate(f"window.explorer.goto({div['step']})")
    assert "見る前に予測してください" in page.locator("#step").inner_text()
    page.fill("#answer", repr(-div["answer"]))            # the right size, the wrong sign
    page.click("#check")
    feedback = page.locator(".feedback").inner_text()
    assert feedback.startswith(f"違います: {-div['answer']!r}")
    assert "よくある誤りと一致します: 大きさは正しく、符号が逆です" in feedback
    assert "もう一度どうぞ (あと 2 回で数値を表示します)" in feedback
    page.fill("#answer", repr(div["answer"]))
    page.press("#answer", "Enter")
    assert page.locator(".feedback").first.inner_text().startswith("正解:")

    summed = by_type["Sum"]                               # exp's output, used by two ops
    page.evaluate(f"window.explorer.goto({summed['step']})")
    one_term = next(m["value"] for m in summed["mistakes"] if m["kind"] == "missed_sum")
    page.fill("#answer", repr(one_term))
    page.click("#check")
    assert ("それはひとつの項だけです。Exp の出力 は 2 個の演算で使われているので"
            in page.locator(".feedback").inner_text())
    page.evaluate("window.explorer.last()")
    summary = page.locator("#summary").inner_text()
    assert summary.startswith("予測モードのまとめ")
    assert "2 回目で正解" in summary and "一致したよくある誤り:" in summary
    assert "大きさは正しく、符号が逆です: 1 回" in summary and "(sign)" not in summary
    assert page.locator("#score").inner_text().startswith(
        "予測モード: 1 回目で正解 0 問 (回答 4 問中)、再挑戦で正解 1 問")


def test_no_visible_text_of_a_japanese_page_is_an_english_sentence(tmp_path, open_page):
    english = open_page(attention_page(tmp_path, "en"))
    english.evaluate("window.explorer.goto(1)")
    english.evaluate("window.explorer.answer(12345); window.explorer.answer(12345)")
    assert len(english_on(english)) > 20                  # the check finds the English page's
    page = open_page(attention_page(tmp_path, "ja"))
    page.evaluate("window.explorer.goto(1)")              # a wrong try twice: the hint shows
    page.evaluate("window.explorer.answer(12345); window.explorer.answer(12345)")
    assert page.locator("#hint").is_visible()
    feedback = page.locator(".feedback").inner_text()     # a wild guess: no "so close"
    assert feedback.startswith("違います: 12345。既知のよくある誤りのどれとも一致しません。")
    assert english_on(page) == []
    page.evaluate("window.explorer.last()")               # a question not seen: not right yet
    summary = page.locator("#summary").inner_text()
    assert "あなたの答え 12345、12345。通過" in summary and "まだ正解していません" in summary
    assert not [text for text in page.evaluate(VISIBLE_TEXT) if re.search("。[ \u3000]", text)]


def test_a_japanese_lstm_cell_page_shows_no_english_sentence(tmp_path, open_page):
    from minigrad.viz.__main__ import explore_lstm_cell
    page = open_page(explore_lstm_cell(predict=True, lang="ja").save(tmp_path / "cell.html"))
    page.evaluate("window.explorer.goto(1)")
    page.evaluate("window.explorer.answer(12345); window.explorer.answer(12345)")
    assert english_on(page) == []


def test_a_japanese_page_with_no_question_says_why_in_japanese(tmp_path, open_page):
    big = Tensor(np.random.default_rng(0).normal(size=(40, 50)), requires_grad=True)
    with pytest.warns(UserWarning):
        explorer = explore((big * big + big).sum(), predict=True, lang="ja")
    page = open_page(explorer.save(tmp_path / "none.html"))
    banner = page.locator("#score").inner_text()
    assert banner.startswith("このページでは予測モードの問題はありません: ")
    assert "max_elements=2000 に上げてください" in banner
