"""The page of `python -m seq2seq explore RUN` on a Transformer of several layers opens where the
learner starts: the root (the loss) and the op that made it, step 1's, in view in the graph, and
the panel beside them. The drawing of a 4-layer decoder step is thousands of pixels tall and the
root is at its foot; the page opened at the top, on the embedding, with the root out of sight.
Each step after that scrolls its op into view, as before.
(The browser, and the checks made on every page, are those of test_explorer_browser.py.)"""

import pytest

from seq2seq.commands.cli import main
from tests import test_explorer_browser as shared
from tests.test_explorer import page_data
from tests.test_explorer_browser_transformer_run import TRAIN

browser, open_page = shared.browser, shared.open_page       # the fixtures, shared


@pytest.fixture(scope="module")
def four_layer_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("runs") / "transformer"
    train = [*TRAIN[:TRAIN.index("--layers")], "--layers", "4",
             *TRAIN[TRAIN.index("--layers") + 2:]]
    assert main([*train, "--out", str(out)]) == 0
    return out


IN_VIEW = """([box, holder]) => {
  const a = document.querySelector(box).getBoundingClientRect();
  const b = holder ? document.querySelector(holder).getBoundingClientRect()
                   : {left: 0, top: 0, right: window.innerWidth, bottom: window.innerHeight};
  return a.width > 0 && a.left >= b.left && a.right <= b.right && a.top >= b.top
         && a.bottom <= b.bottom;
}"""


def in_view(page, box, holder=None):
    return page.evaluate(IN_VIEW, [box, holder])


def step_box(data, k):
    """The box step k's op is drawn as: its own, or that of the folded scope around it."""
    op = data["steps"][k - 1]["op"]
    scope = data["ops"][op]["scope"]
    folded = [n for n in range(1, len(scope) + 1)
              if data["scopes"].index(scope[:n]) in data["folded"]]
    if not folded:
        return f'#graph .box.op[data-id="op{op}"]'
    return f'#graph .box.scope[data-id="scope{data["scopes"].index(scope[:folded[0]])}"]'


@pytest.mark.parametrize("predict", [False, True])
def test_a_large_transformers_page_opens_on_the_root_and_step_1s_op_beside_the_panel(
        four_layer_run, tmp_path, open_page, predict):
    out = tmp_path / "page.html"
    assert main(["explore", str(four_layer_run), "--out", str(out),
                 *(["--predict"] if predict else [])]) == 0
    data = page_data(out.read_text(encoding="utf-8"))
    page = open_page(out)
    height = page.evaluate("document.getElementById('graph').scrollHeight")
    assert height > 3 * page.viewport_size["height"]            # a page taller than the view
    assert page.evaluate("window.explorer.step") == 0
    assert in_view(page, f'#graph .box[data-id="t{data["root"]}"]', "#graph")
    assert in_view(page, step_box(data, 1), "#graph")
    assert in_view(page, ".panel") and in_view(page, "#step h2")
    assert page.evaluate("[window.scrollX, window.scrollY]") == [0, 0]
    page.keyboard.press("Escape")                                   # out of an answer box
    page.evaluate("window.explorer.goto(1)")
    assert in_view(page, step_box(data, 1), "#graph")
    page.evaluate("window.explorer.goto(0)")
    assert in_view(page, f'#graph .box[data-id="t{data["root"]}"]', "#graph")
