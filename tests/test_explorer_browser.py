"""The explorer page in a real browser: headless Chromium (the system's, Debian's `chromium`
package), driven by Playwright for Python. Nothing is downloaded: Playwright is pointed at the
system browser, and the page may load nothing but its own file.

Each test opens a saved page, fails on any request that is not the page's own file:// URL and on
any console error, and reads the page's state object, window.explorer.

Without Chromium or Playwright these tests skip, saying which is missing; under CI (CI=true)
they fail instead, so that CI always runs them (.ci/run installs the browser).
"""

import os
import re
import shutil
import subprocess

import numpy as np
import pytest

import minigrad.functional as F
from minigrad import Tensor
from minigrad.debug import backward_steps
from minigrad.viz import draw_graph, explore
from tests.test_explorer import attention_context, question_type

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# Headless, and quiet: no first-run work and no background connection (on a machine without a
# network, Chromium's own background requests would only wait and fail).
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def missing():
    """Why the browser tests cannot run here, or None."""
    if CHROMIUM is None:
        return "no chromium on the PATH (Debian: apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -e '.[test]')"
    return None


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    reason = missing()
    if reason is not None:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"browser tests must run under CI: {reason}")
        pytest.skip(f"browser tests skipped: {reason}")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")), executable_path=CHROMIUM,
            args=ARGS, headless=True, viewport={"width": 1400, "height": 900})
        yield context
        context.close()


@pytest.fixture
def open_page(browser):
    """open_page(path) -> a Playwright page showing the saved page, once window.explorer is
    ready. At the end: no console error, no request outside the page's own file."""
    opened = []

    def open_(path, ready="window.explorer && window.explorer.ready"):
        page = browser.new_page()
        errors, outside = [], []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda error: errors.append(str(error)))

        def route(request_route):
            url = request_route.request.url
            if url.startswith("file://"):
                request_route.continue_()
            else:
                outside.append(url)
                request_route.abort()
        page.route("**/*", route)
        page.goto(path.resolve().as_uri())
        if ready:
            page.wait_for_function(ready, timeout=20_000)
        opened.append((page, errors, outside))
        return page

    yield open_
    for page, errors, outside in opened:
        assert errors == [], errors
        assert outside == [], outside
        page.close()


def same(got, expected):
    """The page's numbers are the engine's, bit for bit (a float32 comes as its exact double)."""
    if expected is None:
        return got is None
    return np.array_equal(np.asarray(got, dtype=np.float64),
                          np.asarray(expected).astype(np.float64))


def state(page, what="step"):
    return page.evaluate(f"window.explorer.{what}")


def test_the_keys_walk_every_step_showing_the_engines_numbers(tmp_path, open_page):
    context, _ = attention_context()
    page = open_page(explore(context).save(tmp_path / "step.html"))
    engine = list(backward_steps(context))
    page.keyboard.press("End")
    assert state(page) == len(engine) == state(page, "steps")
    page.keyboard.press("Home")
    assert state(page) == 0 and page.evaluate("window.explorer.current().op") is None
    for expected in engine:
        page.keyboard.press("ArrowRight")
        now = page.evaluate("window.explorer.current()")
        assert now["number"] == expected.number
        assert now["type"] == type(expected.op).__name__
        assert same(now["output_grad"], expected.grad_y)
        for got, grad, total_got, total in zip(now["input_grads"], expected.grads,
                                               now["totals"], expected.totals):
            assert same(got, grad) and same(total_got, total)
        assert same(now["output_value"], expected.output.data)   # the forward values too
        assert all(same(got, x.data) for got, x in zip(now["input_values"], expected.inputs))
        assert page.locator("#step h2").inner_text().startswith(f"Step {expected.number}:")
    page.keyboard.press("ArrowRight")                   # the last step stays the last
    assert state(page) == len(engine)
    page.keyboard.press("ArrowLeft")
    assert state(page) == len(engine) - 1


def test_next_prev_goto_walk_an_lstm_cell_in_float32(tmp_path, open_page):
    from minigrad.viz.__main__ import lstm_cell_step
    loss, cell, _ = lstm_cell_step()
    page = open_page(explore(loss, names=cell).save(tmp_path / "cell.html"))
    engine = list(backward_steps(loss))                 # also fills the leaves' .grad
    for expected in engine:
        assert page.evaluate("window.explorer.next()") == expected.number
        now = page.evaluate("window.explorer.current()")
        assert same(now["output_grad"], expected.grad_y)
        assert all(same(got, grad) for got, grad in zip(now["input_grads"], expected.grads))
    weight = cell.weight_ih                             # its total, complete at its last term
    last = max(s.number for s in engine if any(x is weight for x in s.inputs))
    page.evaluate(f"window.explorer.goto({last})")
    now = page.evaluate("window.explorer.current()")
    position = [x is weight for x in engine[last - 1].inputs].index(True)
    assert same(now["totals"][position], weight.grad)
    assert page.evaluate("window.explorer.prev()") == last - 1
    assert page.evaluate("window.explorer.first()") == 0
    assert page.evaluate("window.explorer.goto(999)") == len(engine)


def drawn_boxes(root, collapse=None):
    """How many boxes draw_graph draws (tensors, ops, folded scopes)."""
    source = draw_graph(root, collapse=collapse).source
    return len(re.findall(r"^\s*(?:t|op|scope)\d+ \[", source, re.M))


def test_a_scope_folds_and_unfolds_with_a_click(tmp_path, open_page):
    context, _ = attention_context()
    page = open_page(explore(context).save(tmp_path / "step.html"))
    boxes = state(page, "boxes()")
    assert boxes == drawn_boxes(context) == 16
    page.locator(".frame text", has_text="softmax").click()
    assert state(page, "folded()") == [["softmax"]]
    # Folded as draw_graph folds: 4 ops, 3 tensors made and the constant max used inside -> 1
    assert state(page, "boxes()") == drawn_boxes(context, ["softmax"]) == boxes - 7
    page.evaluate("window.explorer.goto(4)")            # an op inside: its box is the current
    assert page.locator(".box.scope.current").count() == 1
    page.locator(".box.scope").click()
    assert state(page, "folded()") == [] and state(page, "boxes()") == boxes


def test_predict_mode_names_the_mistake_and_keeps_the_score(tmp_path, open_page):
    context, _ = attention_context()
    page = open_page(explore(context, predict=True).save(tmp_path / "predict.html"))
    data = explore(attention_context()[0], predict=True).data
    by_type = {question_type(data, q): q for q in data["questions"]}
    # Step 1, the mix: arrow keys typed in the answer box move the caret, not the step; Escape
    # leaves the box, and the keys step again (past the question: it counts as shown).
    page.evaluate("window.explorer.goto(1)")
    page.press("#answer", "ArrowLeft")
    assert state(page) == 1
    page.press("#answer", "Escape")
    assert page.evaluate("document.activeElement.id") != "answer"
    page.keyboard.press("ArrowRight")                   # one press stops at the question
    assert state(page) == 1 and "The same move again goes on" in page.locator(
        "#step").inner_text()
    page.keyboard.press("Escape")
    page.keyboard.press("ArrowRight")                   # the same again goes on past it
    assert state(page) == 2 == by_type["Div"]["step"]
    n = len(data["questions"])
    assert state(page, "score") == {"right": 0, "retried": 0, "asked": 1, "questions": n}
    result = page.evaluate(f"window.explorer.answer({-by_type['Div']['answer']!r})")
    assert result == {"right": False, "mistake": "sign", "answer": None}    # a try: not given
    assert page.evaluate(f"window.explorer.answer({by_type['Div']['answer']!r})")["right"]
    # The same step asks the softmax's question next, once the Div's is answered.
    assert page.evaluate("window.explorer.question()")["span"] == [2, 5]
    page.click("#reveal")
    assert page.locator(".feedback").count() == 2
    assert page.locator(".feedback").nth(1).inner_text().startswith("Shown without an answer")

    summed = by_type["Sum"]                              # exp's output, used by two ops
    page.keyboard.press("ArrowRight")
    assert state(page) == summed["step"]
    assert page.evaluate("window.explorer.question()")["total"] is True
    assert page.locator("#step").inner_text().count("Predict before you look") == 1
    one_term = next(m["value"] for m in summed["mistakes"] if m["kind"] == "missed_sum")
    page.fill("#answer", repr(one_term))
    page.click("#check")
    feedback = page.locator(".feedback").inner_text()
    assert "Not quite" in feedback and "one term alone: Exp's output is used by 2 ops" in feedback
    assert state(page, "score") == {"right": 0, "retried": 1, "asked": 4, "questions": n}

    matmul = by_type["MatMul"]                           # (the last one: the score's, step 6)
    page.evaluate(f"window.explorer.goto({matmul['step']})")
    page.fill("#answer", f"{matmul['answer'] * 1.002:.6g}")    # within the tolerance (1%)
    page.press("#answer", "Enter")
    assert page.locator(".feedback").inner_text().startswith("Right")
    assert state(page, "score") == {"right": 1, "retried": 1, "asked": 5, "questions": 5}
    page.keyboard.press("ArrowLeft")                    # answered: the box is gone, keys step
    assert state(page) == matmul["step"] - 1


def test_the_page_reports_when_it_became_interactive(tmp_path, open_page):
    """readyMs is what bench/explorer.py reads for the target (under 1 s for this page); the
    time itself is a benchmark's figure, not a test's: load on the machine moves it."""
    context, _ = attention_context()
    page = open_page(explore(context, predict=True).save(tmp_path / "step.html"))
    assert state(page, "ready") is True and state(page, "readyMs") > 0


def test_a_seq2seq_decoder_step_folds_to_about_60_boxes(tiny_run, tmp_path, open_page):
    from seq2seq.commands.draw import load_step
    from seq2seq.commands.explore import explore_decoder_step

    class Args:
        run, sentence = str(tiny_run), None
    translator, sentence = load_step(Args)
    path = explore_decoder_step(translator, sentence, step=1).save(tmp_path / "step.html")
    assert path.stat().st_size < 2_000_000
    page = open_page(path)
    assert state(page, "boxes()") <= 60
    for _ in range(state(page, "steps")):
        page.evaluate("window.explorer.next()")
    page.evaluate("window.explorer.unfold('encoder')")
    assert state(page, "boxes()") > 30


def test_a_transformer_step_folds_its_parameters_and_unfolded_shows_every_one(tmp_path,
                                                                             open_page):
    """Folded as draw_graph folds it: a parameter used only inside a folded scope has no box
    of its own, and the scope's box counts it; unfolding every scope shows them all."""
    from seq2seq.commands.draw import decoder_step_drawing
    from seq2seq.commands.explore import explore_decoder_step
    from tests.test_seq2seq_transformer_views import SENTENCE, transformer_translator

    translator = transformer_translator()
    parameters = len(list(translator.model.parameters()))           # 68
    page = open_page(explore_decoder_step(translator, SENTENCE, step=1).save(
        tmp_path / "step.html"))
    drawing = decoder_step_drawing(translator, SENTENCE, step=1)
    assert state(page, "boxes()") == drawing.summary["boxes"] <= 70
    assert page.locator(".box.parameter").count() == 5              # where nothing is folded
    held = re.findall(r"(\d+) parameters?: [\d,]+ numbers?", page.locator("#graph").inner_text())
    assert sum(map(int, held)) + 5 == parameters
    for path in state(page, "folded()"):
        page.evaluate(f"window.explorer.unfold({path!r})")
    assert state(page, "folded()") == []
    assert page.locator(".box.parameter").count() == parameters
    assert "parameters:" not in page.locator("#graph").inner_text()


def test_a_screenshot_of_a_step_in_predict_mode(tmp_path, open_page):
    context, _ = attention_context()
    page = open_page(explore(context, predict=True, title="One attention step")
                     .save(tmp_path / "step.html"))
    page.evaluate("window.explorer.goto(2)")
    shot = tmp_path / "explorer.png"
    page.screenshot(path=str(shot))
    assert shot.read_bytes().startswith(b"\x89PNG") and shot.stat().st_size > 20_000


def test_two_explorers_in_one_notebook_step_independently(tmp_path, open_page):
    context, _ = attention_context()
    first, second = explore(context), explore(context * 2)
    host = tmp_path / "notebook.html"
    host.write_text("<!DOCTYPE html><html><body>" + first._repr_html_() + second._repr_html_() +
                    "</body></html>", encoding="utf-8")
    page = open_page(host, ready=None)
    frames = [frame for frame in page.frames if frame != page.main_frame]
    assert len(frames) == 2
    for frame in frames:
        frame.wait_for_function("window.explorer && window.explorer.ready", timeout=20_000)
    frames[0].evaluate("window.explorer.last()")
    assert frames[0].evaluate("window.explorer.step") == 6
    assert frames[1].evaluate("window.explorer.step") == 0
    assert frames[1].evaluate("window.explorer.steps") == 7


def page_numbers(page):
    """Every number written on the page (graph and panel, folded details too), as floats."""
    text = page.evaluate("Array.from(document.querySelectorAll('#graph text, .panel'))"
                         ".map(function (e) { return e.textContent; }).join(' ')")
    return [float(v) for v in re.findall(r"\d+(?:\.\d+)?(?:e[-+]?\d+)?", text)]


def shows_any(page, values):
    """Whether the page writes any of `values` (compared by size: a sign may be drawn apart)."""
    shown = page_numbers(page)
    return any(abs(abs(v) - abs(w)) <= 1e-9 * max(1.0, abs(w)) for v in values for w in shown)


def test_a_question_on_x_times_x_gives_nothing_away_until_answered(tmp_path, open_page):
    x = Tensor([0.3, -1.7, 2.2], requires_grad=True, name="x")
    loss = (x * x).sum()
    page = open_page(explore(loss, predict=True).save(tmp_path / "square.html"))
    page.evaluate("window.explorer.goto(2)")            # the Mul: x twice, one op
    q = page.evaluate("window.explorer.question()")
    assert q["total"] and not q["answered"]
    text = page.locator("#step").inner_text()
    assert "it is used twice by one op" in text and "ops" not in text.split("Predict")[1]
    loss.backward()
    assert not shows_any(page, x.grad)                  # no box, label, total or term sum
    assert page.locator("#step .terms").count() == 0
    labels = page.locator("#graph .labels text").all_text_contents()
    assert labels == ["\u2202 ?", "\u2202 ?"]           # both arrows into the Mul
    now = page.evaluate("window.explorer.current()")    # (the state object keeps the numbers)
    assert same(now["totals"][0], x.grad) and same(now["totals"][1], x.grad)
    page.evaluate("window.explorer.reveal()")
    assert shows_any(page, x.grad)                      # and now the page shows them


def test_the_softmax_question_waits_at_the_softmaxs_first_op_with_its_answer_hidden(
        tmp_path, open_page):
    context, _ = attention_context()
    data = explore(attention_context()[0], predict=True).data
    by_type = {question_type(data, q): q for q in data["questions"]}
    page = open_page(explore(context, predict=True).save(tmp_path / "softmax.html"))
    page.evaluate("window.explorer.goto(2)")            # the Div: the softmax's output
    page.evaluate(f"window.explorer.answer({by_type['Div']['answer']!r})")
    q = page.evaluate("window.explorer.question()")
    assert q == {"tensor": "scores", "input": None, "index": by_type["softmax"]["index"],
                 "total": False, "span": [2, 5], "answered": False, "attempts": []}
    assert "softmax sends back to it, through its ops of steps 2 to 5" in page.locator(
        "#step").inner_text()
    scores = next(i for i, t in enumerate(data["tensors"]) if t["name"] == "scores")
    assert page.locator(f'#graph [data-id="t{scores}"]').get_attribute("class").split()[-1] == \
        "asked"
    engine = {type(s.op).__name__: s for s in backward_steps(attention_context()[0])}
    assert not shows_any(page, engine["Sub"].grads[0])  # dL/dscores: nowhere yet
    # nor what the Div sends its numerator: with exps, it is all the rest of the softmax needs
    assert not shows_any(page, engine["Div"].grads[0])
    assert "hidden until you answer the question about scores" in page.locator(
        "#step").inner_text()
    page.evaluate("window.explorer.goto(5)")            # at the Sub it arrives: the answer
    assert same(page.evaluate("window.explorer.current().output_grad"), engine["Sub"].grads[0])


def test_a_hooked_tensors_box_shows_its_gradient_after_the_hook(tmp_path, open_page):
    x = Tensor([1.0, 2.0], requires_grad=True, name="x")
    y = x * 3.0
    y.name = "y"
    y.register_hook(lambda g: g * 10 + 0.5)             # the sum arriving is [1, 1]
    page_object = explore(y.sum())
    page = open_page(page_object.save(tmp_path / "hook.html"))
    index = next(i for i, t in enumerate(page_object.data["tensors"]) if t["name"] == "y")
    box = page.locator(f'#graph [data-id="t{index}"]')
    page.evaluate("window.explorer.goto(1)")            # the Sum sent it its one term
    assert "10.5" in box.text_content()                 # what backward passes on
    assert page.evaluate("window.explorer.goto(2)") == 2
    assert same(page.evaluate("window.explorer.current().output_grad"), [10.5, 10.5])


def test_a_scope_named_with_the_separator_folds_apart_from_the_nested_scopes(
        tmp_path, open_page):
    from minigrad import scope
    x = Tensor([1.0, 2.0], requires_grad=True, name="x")
    with scope("a / b"):
        y = x * 2
    with scope("a"):
        with scope("b"):
            y = y.exp()
    loss = y.sum()
    page = open_page(explore(loss).save(tmp_path / "scopes.html"))
    assert state(page, "boxes()") == drawn_boxes(loss)
    page.evaluate("window.explorer.fold(['a / b'])")
    assert state(page, "folded()") == [["a / b"]]
    assert state(page, "boxes()") == drawn_boxes(loss, ["a / b"])
    page.evaluate("window.explorer.unfold(['a / b'])")
    page.evaluate("window.explorer.fold(['a', 'b'])")
    assert state(page, "folded()") == [["a", "b"]]
    assert state(page, "boxes()") == drawn_boxes(loss, ["b"])
    page.evaluate("window.explorer.goto(2)")            # the Exp, inside a > b: its frames only
    current = page.locator("#graph .frame.current text").all_text_contents()
    assert current == ["a  (click to fold)"]


def test_the_tutorials_console_line_gives_exps_whole_gradient(tmp_path, open_page):
    from pathlib import Path
    doc = (Path(__file__).resolve().parent.parent / "docs/exploring-backprop.md").read_text(
        encoding="utf-8")
    (line,) = re.findall(r"```js\n(.*?)\n```", doc, re.S)
    code, comment = line.split("//")
    assert comment.strip() == "exp's output: its whole gradient"
    context, _ = attention_context()
    page = open_page(explore(context).save(tmp_path / "step.html"))
    got = page.evaluate(f"() => eval({code.strip()!r})")
    exp = next(s for s in backward_steps(attention_context()[0]) if type(s.op).__name__ == "Exp")
    assert same(got, exp.grad_y)                        # what arrives at exp's output, complete


def glyph_pixels(page, selector, text):
    """The pixels of `text` drawn on a canvas in the font of the page's element `selector`:
    characters that no installed font has are all drawn as the same empty box."""
    return page.evaluate("""([selector, text]) => {
        const style = getComputedStyle(document.querySelector(selector));
        const canvas = document.createElement("canvas");
        canvas.width = 80; canvas.height = 40;
        const context = canvas.getContext("2d");
        context.font = style.fontWeight + " 24px " + style.fontFamily;
        context.fillText(text, 4, 30);
        return Array.from(context.getImageData(0, 0, 80, 40).data);
    }""", [selector, text])


def japanese_font_missing():
    """Why Japanese cannot be drawn here, or None: the page uses the system's fonts (a page
    may load none), so some installed font must have Japanese glyphs."""
    if shutil.which("fc-list") is None:
        return None                                     # (not fontconfig: let the test tell)
    found = subprocess.run(["fc-list", ":lang=ja"], capture_output=True, text=True).stdout
    return None if found.strip() else ("no font with Japanese glyphs is installed (Debian: "
                                       "apt-get install fonts-noto-cjk)")


def test_japanese_labels_are_drawn_with_real_glyphs(tmp_path, open_page):
    reason = japanese_font_missing()
    if reason is not None:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"the Japanese test must run under CI: {reason}")
        pytest.skip(reason)
    x = Tensor(np.array([1.0, 2.0]), requires_grad=True)
    cat, fish = x * 2.0, x * 3.0
    loss = (cat * fish).sum()
    page = open_page(explore(loss, names={"猫": cat, "魚": fish}, title="ねこ が さかな を たべる")
                     .save(tmp_path / "ja.html"))
    page.screenshot(path=str(tmp_path / "ja.png"))
    names = page.locator(".box text.bold", has_text="猫")
    assert names.count() == 1 and names.evaluate("e => e.getComputedTextLength()") > 5
    # An empty box (tofu) is one glyph for every missing character: two different kanji,
    # and a kanji and a kana, must differ in the page's own fonts, in the graph and the panel.
    for selector in (".box text.bold", "h1"):
        cat_pixels = glyph_pixels(page, selector, "猫")
        assert any(cat_pixels), "nothing drawn"
        assert cat_pixels != glyph_pixels(page, selector, "魚"), selector
        assert cat_pixels != glyph_pixels(page, selector, "ね"), selector


def click_inside(page, box, dx=4):
    """Click a box `dx` pixels in from its left edge, half way down: inside it, beside its
    centred text."""
    rect = box.locator("rect.outline").bounding_box()
    page.mouse.click(rect["x"] + dx, rect["y"] + rect["height"] / 2)


def test_a_click_anywhere_inside_an_op_or_a_folded_scope_acts(tmp_path, open_page):
    context, _ = attention_context()
    page = open_page(explore(context).save(tmp_path / "step.html"))
    exp = page.locator(".box.op", has_text="Exp()")
    click_inside(page, exp)
    assert state(page) == 4                              # Exp is backward step 4
    page.evaluate("window.explorer.fold('softmax')")
    click_inside(page, page.locator(".box.scope"), dx=2)    # (left of its shadow)
    assert state(page, "folded()") == []


def test_a_running_sum_of_a_large_array_adds_up_on_its_first_values(tmp_path, open_page):
    rng = np.random.default_rng(0)
    x = Tensor(rng.normal(size=(3, 5)), requires_grad=True)
    first, second = Tensor(rng.normal(size=(3, 5))), Tensor(rng.normal(size=(3, 5)))
    loss = ((x * first).tanh() + (x * second).exp()).sum()
    page = open_page(explore(loss, names={"x": x}).save(tmp_path / "sum.html"))
    engine = list(backward_steps(loss))
    last = max(s.number for s in engine if any(t is x for t in s.inputs))
    page.evaluate(f"window.explorer.goto({last})")
    lines = page.locator("#step .terms pre.sum").inner_text().splitlines()
    assert lines[0] == "each (3, 5), its first 4 of 15 values:"
    rows = [[float(v) for v in line.rstrip(" \u2026").split()[-4:]] for line in lines[1:]]
    assert len(rows) == 3 and all(len(row) == 4 for row in rows)    # two terms, their sum
    np.testing.assert_allclose(rows[2], x.grad.ravel()[:4], rtol=1e-3)
    np.testing.assert_allclose(np.add(rows[0], rows[1]), rows[2], rtol=1e-3, atol=1e-3)


def in_view(page, ids):
    """Whether the boxes `ids` (data-id) are wholly inside the graph's visible area, and
    whether they could all be (they fit in it together)."""
    return page.evaluate("""(ids) => {
        const area = document.getElementById("graph").getBoundingClientRect();
        const rects = ids.map((id) => document.querySelector(`.box[data-id="${id}"]`)
                                              .getBoundingClientRect());
        const inside = rects.every((r) => r.left >= area.left && r.right <= area.right &&
                                          r.top >= area.top && r.bottom <= area.bottom);
        const width = Math.max(...rects.map((r) => r.right)) -
                      Math.min(...rects.map((r) => r.left));
        const height = Math.max(...rects.map((r) => r.bottom)) -
                       Math.min(...rects.map((r) => r.top));
        return [inside, width <= area.width && height <= area.height];
    }""", ids)


def test_stepping_scrolls_the_op_its_inputs_and_its_output_into_view(tmp_path, open_page):
    from minigrad.viz.__main__ import lstm_cell_step
    context, _ = attention_context()
    loss, cell, _ = lstm_cell_step()
    for explorer, name in ((explore(context), "attention"), (explore(loss, names=cell), "cell")):
        page = open_page(explorer.save(tmp_path / f"{name}.html"))
        page.set_viewport_size({"width": 1000, "height": 560})
        data, fitted = explorer.data, 0
        for order in (range(1, explorer.steps + 1), range(explorer.steps, 0, -1)):
            for k in order:
                page.evaluate(f"window.explorer.goto({k})")
                step = data["steps"][k - 1]
                ids = [f"op{step['op']}"] + [f"t{i}" for i in data["ops"][step["op"]]["inputs"]]
                ids.append(f"t{step['output']}")
                inside, fit = in_view(page, ids)
                assert inside or not fit, (name, k)
                assert in_view(page, ids[:1])[0], (name, k)       # the op, always
                fitted += fit
        assert fitted >= explorer.steps, name            # (most steps fit at this size)


def crossing(first, second):
    """Whether two polylines [(x, y), ...] cross (a proper intersection of two segments)."""
    def side(p, q, r):
        return np.sign((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]))
    for a, b in zip(first, first[1:]):
        for c, d in zip(second, second[1:]):
            if side(a, b, c) * side(a, b, d) < 0 and side(c, d, a) * side(c, d, b) < 0:
                return True
    return False


def arrows_into(page, op):
    """The arrows into box `op`, each as [its tensor's box, 60 points along it], and the
    rectangles of the gradient labels now shown, as [x, y, w, h]."""
    return page.evaluate("""(op) => {
        const arrows = Array.from(document.querySelectorAll(`.edge[data-to="${op}"]`))
            .map((g) => {
                const path = g.querySelector("path"), length = path.getTotalLength();
                const points = [];
                for (let k = 0; k <= 60; k++) {
                    const p = path.getPointAtLength(length * k / 60);
                    points.push([p.x, p.y]);
                }
                return [g.dataset.from, points];
            });
        const labels = Array.from(document.querySelectorAll(".labels rect")).map((r) => {
            const b = r.getBBox();
            return [b.x, b.y, b.width, b.height];
        });
        return [arrows, labels];
    }""", op)


def overlap(r, s):
    return r[0] < s[0] + s[2] and s[0] < r[0] + r[2] and r[1] < s[1] + s[3] and s[1] < r[1] + r[3]


def two_consumers():
    x = Tensor(np.array([1.0, 2.0]), requires_grad=True)
    return ((x * 2.0) * (x * 3.0)).sum()


def three_inputs():
    """A concat of three tensors: the fewest crossings overall has two of its arrows cross
    (b's arrow would otherwise cross a's to the Where), and their labels must still not
    overlap."""
    a, b, c = (Tensor(np.array([1.0, 2.0]) * k, requires_grad=True) for k in (1, 2, 3))
    mixed = F.where(np.array([True, False]), a, c).sum()
    return (F.concat([a.exp(), b * 2.0, c.tanh()]) * mixed).sum()


def test_the_arrows_into_an_op_never_cross_nor_their_labels_overlap(tmp_path, open_page):
    from minigrad.viz.__main__ import lstm_cell_step
    context, _ = attention_context()
    loss, cell, _ = lstm_cell_step()
    pages = {"attention": explore(context), "cell": explore(loss, names=cell),
             "two": explore(two_consumers()), "three": explore(three_inputs())}
    checked = 0
    for name, explorer in pages.items():
        page = open_page(explorer.save(tmp_path / f"{name}.html"))
        for k, step in enumerate(explorer.data["steps"], start=1):
            page.evaluate(f"window.explorer.goto({k})")
            arrows, labels = arrows_into(page, f"op{step['op']}")
            for n, (source, points) in enumerate(arrows):
                for other, more in arrows[n + 1:]:
                    if name != "three":
                        assert source == other or not crossing(points, more), (name, k)
                        checked += 1
            for n, label in enumerate(labels):
                assert not any(overlap(label, other) for other in labels[n + 1:]), (name, k)
    assert checked >= 10


def thousand_uses_of_one_tensor():
    """x feeds 1,000 Muls, in a chain of Adds (5,001 boxes): the layout's worst case for long
    arrows."""
    x = Tensor(np.arange(3.0), requires_grad=True)
    total = x * 1.0
    for k in range(2, 1001):
        total = total + x * float(k)
    return total.sum()


@pytest.mark.slow
def test_a_tensor_feeding_a_thousand_ops_opens_in_seconds(tmp_path, open_page):
    loss = thousand_uses_of_one_tensor()
    page = open_page(explore(loss).save(tmp_path / "wide.html"))
    assert state(page, "ready")          # within open_page's wait (it took 140 s before)
    # The arrows of x share one trunk, drawn once: a few points per arrow, not one per row
    # crossed (2 million before).
    segments = page.evaluate("""Array.from(document.querySelectorAll(".edge path"))
        .reduce((n, p) => n + p.getAttribute("d").split("C").length - 1, 0)""")
    assert segments < 10 * page.locator(".edge path").count()
    # At a step, the arrow from x to the op of the step is drawn whole, from x's box down.
    data = explore(loss).data
    leaf = next(i for i, t in enumerate(data["tensors"]) if t["needs_grad"] and
                t["creator"] is None)
    k, step = next((k, step) for k, step in enumerate(data["steps"], start=1)
                   if k > 1000 and leaf in data["ops"][step["op"]]["inputs"])
    page.evaluate(f"window.explorer.goto({k})")
    start = page.evaluate(f"""(() => {{
        const path = document.querySelector('.edge.current[data-from="t{leaf}"] path');
        const box = document.querySelector('.box[data-id="t{leaf}"] rect.outline').getBBox();
        const at = path.getPointAtLength(0);
        const where = document.querySelector('.box[data-id="t{leaf}"]').transform.baseVal;
        const shift = where.consolidate().matrix;
        return [at.x, at.y, shift.e + box.width / 2, shift.f + box.height];
    }})()""")
    assert start[:2] == pytest.approx(start[2:])


def gradient_numbers(page):
    """The numbers of gradients the page writes now, as written: the boxes' gradient lines,
    the arrows' labels and the panel's gradients and running sums (not the forward values a
    learner works from, nor the question's own words)."""
    text = page.evaluate(
        "Array.from(document.querySelectorAll('#graph text.grad, #graph text.partial, "
        "#graph .labels text, #step .array:not(.forward), #step .terms'))"
        ".map(function (e) { return e.textContent; }).join(' ')")
    return re.findall(r"\d+(?:\.\d+)?(?:e[-+]?\d+)?", text)


def written_as(value, shown):
    """Whether `shown` gives |value| away: it is |value| rounded to its own 3 or more
    significant digits (the page's summaries write 3 or 4), or exactly |value|."""
    mantissa = shown.split("e")[0].replace(".", "").lstrip("0")
    digits = max(len(mantissa), 1)
    if abs(float(shown) - abs(value)) <= 1e-9 * abs(value):
        return True
    return digits >= 3 and float(f"{abs(value):.{digits - 1}e}") == float(shown)


def test_no_question_of_the_real_pages_shows_its_answer_before_it_is_answered(
        tiny_run, composed_run, tmp_path, open_page):
    from tests.test_explorer_cli import real_pages
    pages = real_pages(tmp_path, tiny_run, composed_run)
    for name in pages:
        page = open_page(tmp_path / {"attention": "attention.html", "lstm-cell": "cell.html",
                                     tiny_run.name: "run0.html"}.get(name, "run1.html"))
        for q in pages[name]["questions"]:
            page.evaluate(f"window.explorer.goto({q['step']})")
            while page.evaluate("window.explorer.question()")["index"] != q["index"] or \
                    page.evaluate("window.explorer.question()")["answered"]:
                page.evaluate("window.explorer.reveal()")
            shown = [v for v in gradient_numbers(page) if written_as(q["answer"], v)]
            assert shown == [], (name, q["step"], q["answer"], shown)
            page.evaluate("window.explorer.reveal()")


def test_stepping_to_the_step_after_an_unanswered_question_counts_it_as_shown(tmp_path,
                                                                               open_page):
    context, _ = attention_context()
    page = open_page(explore(context, predict=True).save(tmp_path / "peek.html"))
    page.evaluate("window.explorer.goto(1)")            # dL/dweights[3]: values[3], 40
    assert page.evaluate("window.explorer.question()")["answered"] is False
    page.evaluate("window.explorer.next()")             # step 2 shows dL/dweights arriving
    page.evaluate("window.explorer.prev()")
    assert page.evaluate("window.explorer.question()")["answered"] is True
    assert page.evaluate("window.explorer.answer(40)") is None     # no score from peeking
    assert page.locator(".feedback").inner_text().startswith("Passed without an answer")
    assert state(page, "score")["right"] == 0 and state(page, "score")["asked"] == 1
    page.keyboard.press("End")                  # jumping past the others: none of them shown
    assert state(page, "score")["asked"] == 1 and state(page, "score")["right"] == 0


def test_x_times_x_counts_its_two_terms_one_per_input(tmp_path, open_page):
    x = Tensor([0.3, -1.7, 2.2], requires_grad=True, name="x")
    mid = x * 2.0
    mid.name = "mid"
    big = Tensor(np.arange(6.0).reshape(2, 3), requires_grad=True, name="big")
    for loss, step, words in [((mid * mid).sum(), 2, ["term 1 of 2", "term 2 of 2"]),
                              ((big * big + big).sum(), 3, ["term 2 of 3", "term 3 of 3"])]:
        page = open_page(explore(loss).save(tmp_path / f"square{step}.html"))
        page.evaluate(f"window.explorer.goto({step})")
        assert page.evaluate("window.explorer.current().type") == "Mul"
        texts = page.locator("#step .terms").all_inner_texts()
        assert [text.split("this is ")[1].split(".")[0] for text in texts] == words
        assert "The sum so far" in texts[0] and "sum of all" in texts[1]


def test_no_gradient_label_covers_a_port_number_a_box_or_another_label(tmp_path, open_page):
    a = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]]), requires_grad=True, name="a")
    b = Tensor(np.array([[0.5, -1.0], [2.0, 1.5]]), requires_grad=True, name="b")
    explorer = explore(((a * b) + (a @ b)).sum(), predict=True)
    page = open_page(explorer.save(tmp_path / "ports.html"))
    checked = 0
    for k in range(1, explorer.steps + 1):
        page.evaluate(f"window.explorer.goto({k})")
        page.evaluate("window.explorer.reveal(); window.explorer.reveal()")
        labels, ports, boxes = page.evaluate("""() => {
            const box = (e) => {
                const b = e.getBoundingClientRect();
                return [b.x, b.y, b.width, b.height];
            };
            return [".labels rect", "#graph .edge text", "#graph g[data-id] rect.outline"]
                .map((s) => Array.from(document.querySelectorAll(s)).map(box));
        }""")
        assert len(ports) == 2                          # MatMul's inputs, 0 and 1
        for n, label in enumerate(labels):
            assert not any(overlap(label, port) for port in ports), (k, label, ports)
            assert not any(overlap(label, box) for box in boxes), (k, label)
            assert not any(overlap(label, other) for other in labels[n + 1:]), k
            checked += 1
    assert checked >= 6


def test_predict_mode_with_no_question_says_why_on_the_page(tmp_path, open_page):
    big = Tensor(np.random.default_rng(0).normal(size=(40, 50)), requires_grad=True)
    with pytest.warns(UserWarning):
        explorer = explore((big * big + big).sum(), predict=True)
    page = open_page(explorer.save(tmp_path / "none.html"))
    banner = page.locator("#score")
    assert banner.is_visible()
    assert banner.inner_text().startswith("Predict mode asks no question on this page: ")
    assert "raise it with max_elements=2000" in banner.inner_text()


def test_a_question_takes_the_keys_and_every_row_of_values_says_its_index(tmp_path, open_page):
    context, _ = attention_context()
    page = open_page(explore(context, predict=True).save(tmp_path / "keys.html"))
    page.keyboard.press("ArrowRight")                   # step 1 asks: typing goes to the box
    assert page.evaluate("document.activeElement.id") == "answer"
    page.keyboard.type("40")
    page.keyboard.press("Enter")
    assert page.evaluate("window.explorer.question()")["answered"] is True
    assert state(page, "score")["right"] == 1
    x = Tensor(np.arange(24.0).reshape(2, 3, 4), requires_grad=True)
    page = open_page(explore((x * 2.0).sum()).save(tmp_path / "rows.html"))
    page.evaluate("window.explorer.goto(2)")
    rows = page.locator("#step pre.full").nth(1).text_content().split("\n")   # dL/dx: 2s
    assert len(rows) == 6 and rows[0].split() == ["[0,", "0,", ":]", "2", "2", "2", "2"]
    assert rows[5].split() == ["[1,", "2,", ":]", "2", "2", "2", "2"]


# ---- big graphs: up to explore's limit, and a layout with no stack to overflow ---------------

def test_a_chain_of_max_ops_ops_lays_out_without_error(tmp_path, open_page):
    from minigrad.viz.explorer.data import MAX_OPS
    y = Tensor(np.ones(3), requires_grad=True, name="x")
    for _ in range(MAX_OPS - 1):
        y = y * 0.5
    page = open_page(explore(y.sum()).save(tmp_path / "chain.html"))    # the limit: 3,000 ops
    assert state(page, "steps") == MAX_OPS
    assert page.locator(".box").count() == 3 * MAX_OPS                  # and every box drawn
    page.evaluate(f"window.explorer.goto({MAX_OPS})")
    assert state(page) == MAX_OPS


LAYOUT_CASES = {
    # one box used by 150,000 others: `push.apply` and `Math.max.apply` over that many items
    # overflowed the stack ("Maximum call stack size exceeded")
    "wide": """(n) => { const nodes = [{id: "x", w: 40, h: 20, path: []}], edges = [];
        for (let i = 0; i < n; i++) {
          nodes.push({id: "b" + i, w: 40, h: 20, path: []});
          edges.push({from: "x", to: "b" + i});
        }
        const out = layoutGraph(nodes, edges);
        return [Object.keys(out.boxes).length, out.boxes.b0.y > out.boxes.x.y]; }""",
    # a box inside 3,000 nested scopes: the frames were made, laid out and placed recursively
    "deep": """(n) => { const path = [];
        for (let i = 0; i < n; i++) path.push("s" + i);
        const nodes = [{id: "a", w: 40, h: 20, path: path}, {id: "b", w: 40, h: 20, path: []}];
        const out = layoutGraph(nodes, [{from: "a", to: "b"}]);
        return [out.frames.length, out.boxes.b.y > out.boxes.a.y]; }""",
}


@pytest.mark.parametrize("case, size, expected", [("wide", 150_000, [150_001, True]),
                                                  ("deep", 3_000, [3_000, True])])
def test_the_layout_has_no_stack_to_overflow(tmp_path, open_page, case, size, expected):
    x = Tensor(np.ones(2), requires_grad=True, name="x")
    page = open_page(explore((x * 2).sum()).save(tmp_path / "small.html"))
    assert page.evaluate(LAYOUT_CASES[case], size) == expected
