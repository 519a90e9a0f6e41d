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


def hint_of(page, q):
    """The hint the page offers for question q, after two wrong tries."""
    page.reload()
    page.wait_for_function("window.explorer && window.explorer.ready", timeout=20_000)
    page.evaluate(f"window.explorer.goto({q['step']})")
    while page.evaluate("window.explorer.question()")["index"] != q["index"]:
        page.evaluate("window.explorer.reveal()")
    for wrong in (12345, 54321):
        page.evaluate(f"window.explorer.answer({wrong})")
    return page.locator("#hint").inner_text()


def listed(hint, start):
    """The numbers of the hint's line that starts with `start`, "name[0, :] = (1, 2, ...)"."""
    (line,) = [line for line in hint.splitlines() if line.startswith(start)]
    return line.split(" = (", 1)[1].rstrip(")").split(", ")


def op_type(explorer, q):
    data = explorer.data
    return data["ops"][data["steps"][q["step"] - 1]["op"]]["type"]


def test_a_layer_norms_hint_gives_its_backward_and_the_whole_row(tmp_path, open_page):
    explorer = explore_self_attention(heads=2, causal=True, block=True, predict=True)
    page = open_page(explorer.save(tmp_path / "block.html"))
    (q, *_) = [q for q in explorer.questions if op_type(explorer, q) == "FusedLayerNorm"]
    hint = hint_of(page, q)
    assert "dL/dx = (1/sigma) (g - mean(g) - xhat * mean(g * xhat))" in hint, hint
    width = explorer.data["tensors"][q["tensor"]]["shape"][-1]
    row = ", ".join(map(str, q["index"][:-1])) + ", :]"
    lines = [line for line in hint.splitlines() if line.split(" = ")[0].endswith(row)]
    assert len(lines) >= 2, hint                    # dL/dy and x (and y) of that row
    assert all(len(line.split(" = (", 1)[1].split(", ")) == width for line in lines), hint
    assert any("weight[:] = (" in line and len(line.split(", ")) == width
               for line in hint.splitlines()), hint


def test_a_matmuls_hint_lists_every_term_of_the_sum(tmp_path, open_page):
    explorer = explore_self_attention(heads=2, causal=True, predict=True)   # x @ W: 24 terms
    page = open_page(explorer.save(tmp_path / "self.html"))
    checked = 0
    for q in [q for q in explorer.questions if op_type(explorer, q) == "MatMul"]:
        hint = hint_of(page, q)
        numbers = [line.split(" = (", 1)[1] for line in hint.splitlines() if " = (" in line]
        assert numbers and all("\u2026" not in n for n in numbers), hint
        sizes = {len(n.split(", ")) for n in numbers}
        assert len(sizes) == 1, hint               # both factors: one number per term
        checked += max(sizes) > 12
    assert checked >= 1
