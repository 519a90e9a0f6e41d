"""What a question and its hint write, in a real browser: a name of several words in brackets
in the question line, as in the summary; hints that list every number the rule takes.
(The browser, and the checks made on every page, are those of test_explorer_browser.py.)"""

import re

from attention.explore_self import explore_self_attention
from tests import test_explorer_browser as shared

browser, open_page = shared.browser, shared.open_page       # the fixtures, shared


def test_a_name_of_several_words_is_bracketed_in_the_question_line(tmp_path, open_page):
    explorer = explore_self_attention(heads=2, causal=True, predict=True)
    page = open_page(explorer.save(tmp_path / "self.html"))
    checked = 0
    for q in explorer.questions:
        page.evaluate(f"window.explorer.goto({q['step']})")
        while page.evaluate("window.explorer.question()")["index"] != q["index"]:
            page.evaluate("window.explorer.reveal()")
        name = page.evaluate("window.explorer.question()")["tensor"]
        line = page.locator(".question").last.locator("div").first.inner_text()
        index = "[" + ", ".join(map(str, q["index"])) + "]"
        if re.fullmatch(r"[\w.]+", name):
            assert f"\u2202L/\u2202{name}{index}?" in line, line
        else:
            assert f"\u2202L/\u2202({name}){index}?" in line, line
            checked += 1
    assert checked >= 4             # masked scores #1, #2 and q @ k^T #1, #2
