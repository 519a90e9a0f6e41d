"""The explorer page at the widths learners open it (1,024, 1,280 and 1,400 px): tensors named by
the learner's variables and never two alike on a panel, a column shown as a column, a rule that
wraps between terms and never after a sign, and a graph that no part of the panel lies over.
(The browser, and the checks made on every page, are those of test_explorer_browser.py.)"""

import numpy as np
import pytest

from minigrad import Tensor
from minigrad.viz import explore
from minigrad.viz.__main__ import LSTMCellConfig, explore_lstm_cell
from tests import test_explorer_browser as shared
from tests.test_explorer import attention_context

browser, open_page = shared.browser, shared.open_page       # the fixtures, shared
WIDTHS = (1024, 1280, 1400)


def panel_names(page):
    """The names the panel gives the step's output and inputs, by tensor index."""
    return page.evaluate("""() => {
        const heading = Array.from(document.querySelectorAll('#step h3'))
            .map(h => h.textContent).find(t => t.startsWith('Arriving at its output, '));
        const inputs = Array.from(document.querySelectorAll('#step .input .name'))
            .map(e => e.textContent.replace(/^input \\d+: /, ''));
        return [heading.replace('Arriving at its output, ', '')].concat(inputs)
            .map(t => t.replace(/ \\([^()]*\\)$/, ''));      // without the shape
    }""")


def test_each_panel_names_its_tensors_by_the_learners_variables_never_two_alike(
        tmp_path, open_page):
    explorer = explore_lstm_cell(LSTMCellConfig(batch=3))
    page = open_page(explorer.save(tmp_path / "cell.html"))
    data, seen = explorer.data, set()
    for k, step in enumerate(data["steps"], start=1):
        page.evaluate(f"window.explorer.goto({k})")
        op = data["ops"][step["op"]]
        names = panel_names(page)
        by_tensor = dict(zip([op["output"]] + op["inputs"], names))
        assert len(set(by_tensor.values())) == len(by_tensor), (k, names)
        seen.update(names)
    assert {"i", "f", "g", "o", "gates", "h'", "c'", "bias_hh"} <= seen
    assert {"Add's output #1", "Add's output #2"} <= seen          # (two Adds, no variable)


def test_a_column_vector_shows_as_a_column(tmp_path, open_page):
    x = Tensor(np.array([[1.5], [-2.0]]), requires_grad=True, name="x")         # (2, 1)
    w = Tensor(np.array([[3.25, 4.0]]), requires_grad=True, name="w")           # (1, 2)
    page = open_page(explore((x * w).sum()).save(tmp_path / "column.html"))
    page.evaluate("window.explorer.goto(2)")                                    # the Mul
    shown = page.locator("#step .input").first
    assert shown.locator(".name").inner_text() == "input 0: x (2, 1)"
    assert shown.locator("pre.values").inner_text().split("\n") == ["7.250", "7.250"]
    page.evaluate("window.explorer.goto(0)")
    assert page.locator("#graph .box").count() > 0


# For each sign written before a term (-dL/dy), the line its character is on and the line of
# the character after it: a rule may wrap between terms, never between a sign and its term.
SIGNS = """() => {
    const rule = document.querySelector('#step pre.rule, #step .rule');
    const walker = document.createTreeWalker(rule, NodeFilter.SHOW_TEXT);
    const chars = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (let i = 0; i < node.data.length; i++) chars.push([node, i, node.data[i]]);
    }
    const top = ([node, i]) => {
        const range = document.createRange();
        range.setStart(node, i); range.setEnd(node, i + 1);
        return Math.round(range.getClientRects()[0].top);
    };
    const pairs = [];
    for (let n = 0; n + 1 < chars.length; n++) {
        if ('-\\u2212'.includes(chars[n][2]) && !/\\s/.test(chars[n + 1][2])) {
            pairs.push([top(chars[n]), top(chars[n + 1])]);
        }
    }
    return {pairs, lines: new Set(chars.filter(c => !/\\s/.test(c[2])).map(top)).size};
}"""


@pytest.mark.parametrize("width", WIDTHS)
def test_the_div_rule_wraps_between_terms_and_keeps_each_sign_with_its_term(
        width, tmp_path, open_page):
    context, _ = attention_context()
    explorer = explore(context, predict=True)
    page = open_page(explorer.save(tmp_path / "div.html"))
    page.set_viewport_size({"width": width, "height": 900})
    div = next(op["step"] for op in explorer.data["ops"] if op["type"] == "Div")
    page.evaluate(f"window.explorer.goto({div})")        # the question of the sign mistake
    assert page.evaluate("window.explorer.question().tensor")
    found = page.evaluate(SIGNS)
    assert found["lines"] > 1                            # it does wrap, at this width
    assert len(found["pairs"]) == 2                      # -dL/dy * a / b**2 = -dL/dy * y / b
    assert all(sign == term for sign, term in found["pairs"]), found


OVERLAP = """() => {
    const panel = document.querySelector('.panel').getBoundingClientRect();
    return Array.from(document.querySelectorAll('#graph .box')).map(box => {
        const r = box.getBoundingClientRect();
        return [box.textContent.slice(0, 30), r.right > panel.left && r.left < panel.right &&
                r.bottom > panel.top && r.top < panel.bottom];
    }).filter(([, under]) => under).map(([text]) => text);
}"""


@pytest.mark.parametrize("width", WIDTHS)
def test_no_box_of_the_graph_lies_under_the_panel(width, tmp_path, open_page):
    page = open_page(explore_lstm_cell(LSTMCellConfig(batch=3)).save(tmp_path / "cell.html"))
    page.set_viewport_size({"width": width, "height": 900})
    for step in (0, 5, state_steps(page)):
        page.evaluate(f"window.explorer.goto({step})")
        assert page.evaluate(OVERLAP) == [], (width, step)


def state_steps(page):
    return page.evaluate("window.explorer.steps")
