"""Every tutorial in docs/ runs: its ```python blocks are executed in order, in one namespace,
from the repository's root. A tutorial whose code does not run is a bug.

What a block prints is checked too. A ```text block that directly follows a ```python block
(nothing but blank lines between them) shows what that block prints, and must be what it prints
now: each block's stdout is captured while it runs and compared with the text, line by line,
after trailing spaces and trailing blank lines are dropped. Otherwise the text drifts from the
code while the code still runs. Two ways to allow for what truly varies from run to run:

- `...` in a line of the text stands for any characters within that line (never for a line
  break), e.g. `saved to .../model.npz in ... s`. Output that holds a literal `...` still matches.
- `<!-- output not compared: REASON -->` on its own, between the ```python block and the
  ```text block, leaves that text out of the comparison; REASON says why (say, the text shows
  what the code prints when run as a file, which a test of its own checks). A note without a
  reason is an error. (A text after prose is not compared either: it need not be the output.)
- `<!-- numbers within P%: REASON -->` in the same place compares the text with the figures of a
  trained model in mind, which move with the CPU's BLAS kernel (the same sums, added in another
  order, change the last bits, and training carries that on): each number printed must be within
  P% of the number shown in its place, and everything else must match as above. P is the
  largest change measured, with room to spare, and REASON says what moves. Round-off itself
  (1e-16) is no trained figure: a page prints it as a bound, `< 1e-12`, which is stable.

A text block that does not match fails the page's test with a diff naming the page, the block's
number and the text's line.

A block that imports torch (a line starting `import torch` or `from torch`) runs only where
PyTorch is installed; elsewhere it is left out (its text, if any, is not compared), the others
run, and the test is reported as skipped. So no block without torch may use a name that such a
block defines."""

import contextlib
import difflib
import importlib.util
import io
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from minigrad import language

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((ROOT / "docs").glob("*.md"))
# The Japanese edition: docs/ja/NAME.md for each docs/NAME.md (tests/test_docs_ja.py checks that
# its code is the English page's). Its pages run here as the English ones do, outputs compared.
JAPANESE = [ROOT / "docs" / "ja" / path.name for path in DOCS
            if (ROOT / "docs" / "ja" / path.name).is_file()]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```[ \t]*$", re.DOTALL | re.MULTILINE)
NOT_COMPARED = re.compile(r"<!-- output not compared: \S.*? -->")
# A Japanese page runs with the messages in Japanese, as a reader whose locale is Japanese sees
# them, and shows them so; a page whose code checks the English messages says so and why.
ENGLISH_MESSAGES = re.compile(r"^<!-- messages in English: \S.*? -->$", re.MULTILINE)
WITHIN = re.compile(r"<!-- numbers within (\d+(?:\.\d+)?)%: \S.*? -->")
NUMBER = r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?"
NEEDS_TORCH = re.compile(r"^(import torch|from torch)\b", re.MULTILINE)


def page_blocks(text):
    """The page's ```python blocks, in order, each as (code, shown): shown is (line, text,
    within) of the ```text block that directly follows the code and is to be compared with what
    it prints (within: the tolerance in percent on its numbers, or None), or None."""
    fences = list(FENCE.finditer(text))
    blocks = []
    for fence, after in zip(fences, fences[1:] + [None]):
        if fence.group(1) != "python":
            continue
        shown = None
        if after is not None and after.group(1) == "text":
            between = text[fence.end():after.start()].strip()   # prose or a note: not compared
            line = text.count("\n", 0, after.start()) + 1
            if not between:
                shown = (line, after.group(2), None)
            elif between.startswith("<!-- numbers within"):
                within = WITHIN.fullmatch(between)
                assert within, f"line {line - 1}: write the note as " \
                    "<!-- numbers within P%: REASON -->, the reason said, just before the text"
                shown = (line, after.group(2), float(within.group(1)))
            elif between.startswith("<!-- output not"):
                assert NOT_COMPARED.fullmatch(between), f"line {line - 1}: write the note as " \
                    "<!-- output not compared: REASON -->, the reason said, just before the text"
        blocks.append((fence.group(2), shown))
    return blocks


def python_blocks(path):
    return [code for code, _ in page_blocks(path.read_text(encoding="utf-8"))]


def torch_installed():
    return importlib.util.find_spec("torch") is not None


def blocks_left_out(blocks, has_torch):
    """The numbers (from 1) of the blocks that do not run here: those that import torch, where
    it is not installed. tests/test_notebooks.py leaves out the same cells."""
    if has_torch:
        return []
    return [number for number, code in enumerate(blocks, 1) if NEEDS_TORCH.search(code)]


def _lines(text):
    lines = [line.rstrip() for line in text.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def output_matches(shown, printed, within=None):
    """Is the printed text the shown one, line for line, `...` standing for any characters
    within a line? With `within` (percent), each number printed may differ from the one shown
    in its place by that much of it."""
    shown, printed = _lines(shown), _lines(printed)
    return len(shown) == len(printed) and all(
        line_matches(a, b, within) for a, b in zip(shown, printed))


def line_matches(shown, printed, within=None):
    def literal(text):
        return ".*".join(map(re.escape, text.split("...")))
    if within is None:
        return re.fullmatch(literal(shown), printed) is not None
    texts, numbers = re.split(NUMBER, shown), re.findall(NUMBER, shown)
    pattern = f"({NUMBER})".join(map(literal, texts))
    match = re.fullmatch(pattern, printed)
    return match is not None and all(
        abs(float(got) - float(expected)) <= within / 100 * abs(float(expected))
        for got, expected in zip(match.groups(), numbers))


@dataclass
class PageRun:
    left_out: list = field(default_factory=list)     # numbers of blocks needing absent torch
    mismatches: list = field(default_factory=list)   # diffs, one per text that differs


def page_name(path):
    """The page as its test names it: "x.md", or "ja/x.md" for the Japanese edition's."""
    return path.relative_to(ROOT / "docs").as_posix() if path.is_relative_to(
        ROOT / "docs") else path.name


def run_page(path, name):
    """Run the page's blocks in order, in one namespace, capturing what each prints, and
    compare that with the text block shown after it."""
    text = path.read_text(encoding="utf-8")
    blocks = page_blocks(text)
    namespace = {"__name__": name}
    japanese = path.parent == ROOT / "docs" / "ja" and not ENGLISH_MESSAGES.search(text)
    language.choose("ja" if japanese else "en")
    try:
        return _run_blocks(path, blocks, namespace)
    finally:
        language.choose(None)


def _run_blocks(path, blocks, namespace):
    run = PageRun(blocks_left_out([code for code, _ in blocks], torch_installed()))
    for number, (code, shown) in enumerate(blocks, 1):
        if number in run.left_out:
            continue
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(code, f"{page_name(path)} (block {number})", "exec"), namespace)
        if shown is not None and not output_matches(shown[1], printed.getvalue(), shown[2]):
            where = f"{page_name(path)}, block {number}, text at line {shown[0]}"
            where += f", numbers within {shown[2]:g}%" if shown[2] is not None else ""
            diff = difflib.unified_diff(_lines(shown[1]), _lines(printed.getvalue()),
                                        f"{where} (shown)", "printed", lineterm="")
            run.mismatches.append("\n".join(diff))
    return run


def run_tutorial(path):
    """Run the tutorial's blocks in order, in one namespace; fail if a text block differs from
    what its block printed; return the numbers of the blocks left out because they import torch
    and it is not installed."""
    run = run_page(path, "docs." + page_name(path).removesuffix(".md").replace("/", "."))
    if run.mismatches:
        raise AssertionError("what the code prints is not what the page shows:\n\n"
                             + "\n\n".join(run.mismatches))
    return run.left_out


@pytest.mark.parametrize("path", DOCS + JAPANESE, ids=[page_name(p) for p in DOCS + JAPANESE])
def test_tutorial_runs(path, monkeypatch):
    assert python_blocks(path), f"{page_name(path)} has no ```python block to run"
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    left_out = run_tutorial(path)
    if left_out:
        pytest.skip(f"blocks {left_out} of {page_name(path)} need PyTorch, which is not "
                    "installed; the other blocks ran")


def test_without_torch_the_blocks_that_import_it_are_left_out_and_the_rest_run(monkeypatch):
    """As on a machine without PyTorch (sys.modules["torch"] = None makes `import torch` fail):
    the page for PyTorch users still runs, all but its torch blocks."""
    path = ROOT / "docs" / "coming-from-pytorch.md"
    blocks = python_blocks(path)
    needing = [n for n, code in enumerate(blocks, 1) if NEEDS_TORCH.search(code)]
    assert len(needing) >= 5 and len(needing) < len(blocks)
    monkeypatch.chdir(ROOT)
    monkeypatch.setitem(sys.modules, "torch", None)
    assert run_tutorial(path) == needing


def test_readme_example_runs_and_prints_what_it_shows(monkeypatch):
    monkeypatch.chdir(ROOT)
    run = run_page(ROOT / "README.md", "readme")
    if run.mismatches:
        raise AssertionError("\n\n".join(run.mismatches))


PAGE = """Prose.

```python
print("a\\nb")
```

```text
a
b
```

```python
print("saved in /tmp/x1 after 0.31 s")
```

<!-- output not compared: a sample -->
```text
anything
```

```python
print("kept")
```

Prose between: this text is not the block's output.

```text
not compared
```

```python
print("saved in /tmp/x1 after 0.31 s")
```
```text
saved in .../x1 after ... s
```
"""
FENCED_WILD = "saved in .../x1 after ... s\n"


def test_only_a_text_right_after_a_python_block_is_compared_with_what_it_prints():
    blocks = page_blocks(PAGE)
    assert [shown for _, shown in blocks] == [(7, "a\nb\n", None), None, None,
                                              (34, FENCED_WILD, None)]
    with pytest.raises(AssertionError, match="REASON"):
        page_blocks(PAGE.replace("compared: a sample -->", "compared -->"))
    for path in DOCS + JAPANESE:                       # the same blocks as a plain search finds
        assert python_blocks(path) == re.findall(r"^```python\n(.*?)^```", path.read_text(
            encoding="utf-8"), re.DOTALL | re.MULTILINE), path.name


def test_a_shown_text_matches_line_for_line_with_dots_for_any_characters_within_a_line():
    assert output_matches("a\nb  \n\n", "a\nb\n")                  # trailing spaces, blanks
    assert not output_matches("a\nb\n", "a\nc\n")
    assert not output_matches("a\n", "a\nb\n")                       # a line more
    assert output_matches(FENCED_WILD, "saved in /tmp/abc/x1 after 12.5 s\n")
    assert not output_matches(FENCED_WILD, "saved in /tmp/abc/x2 after 12.5 s\n")
    assert not output_matches("a ... b\n", "a 1\n2 b\n")             # never across lines
    assert output_matches("LSTM(...)\n", "LSTM(...)\n")               # a literal ... matches
    assert not output_matches("(a+b)\n", "(aab)\n")                   # the rest is literal


def test_with_a_stated_percent_each_number_may_move_that_much_and_nothing_else_may():
    shown = "epoch 1: loss 1.4928  exact match 97.9%\n"
    assert output_matches(shown, "epoch 1: loss 1.4950  exact match 98.1%\n", within=1)
    assert not output_matches(shown, "epoch 1: loss 1.4950  exact match 98.1%\n", within=0.1)
    assert not output_matches(shown, "epoch 2: loss 1.4928  exact match 97.9%\n", within=50)
    assert not output_matches(shown, "epoch 1: loss 1.4928  exact_match 97.9%\n", within=50)
    assert not output_matches(shown, "epoch 1: loss 1.4928\n", within=50)
    assert not output_matches("w -0.5\n", "w 0.5\n", within=50)          # never the sign
    assert not output_matches("moved 0\n", "moved 1e-300\n", within=50)   # 0 stays 0
    assert output_matches("took ... s, 12.5%\n", "took 3.2 s, 12.6%\n", within=1)
    assert not output_matches(shown, "epoch 1: loss 1.4950  exact match 98.1%\n")  # no note


def test_a_numbers_note_needs_its_percent_and_reason():
    page = "```python\nprint(1.0)\n```\n\n<!-- numbers within 2%: trained -->\n```text\n1.01\n```\n"
    assert page_blocks(page) == [("print(1.0)\n", (6, "1.01\n", 2.0))]
    for note in ("<!-- numbers within 2% -->", "<!-- numbers within two percent: trained -->"):
        with pytest.raises(AssertionError, match="P%: REASON"):
            page_blocks(page.replace("<!-- numbers within 2%: trained -->", note))


def test_a_page_whose_text_differs_from_what_its_code_prints_fails_naming_page_and_block(
        tmp_path, monkeypatch):
    page = tmp_path / "page.md"
    page.write_text(PAGE.replace("a\nb\n```", "a\nB\n```", 1), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(AssertionError) as failure:
        run_tutorial(page)
    assert "page.md, block 1, text at line 7" in str(failure.value)
    assert "-B" in str(failure.value) and "+b" in str(failure.value)
    page.write_text(PAGE, encoding="utf-8")
    assert run_tutorial(page) == []


def test_the_swish_program_of_writing_an_op_prints_what_the_page_says(tmp_path):
    """Section 6 shows a block as a whole program and what it prints, line numbers included:
    saved as the page says (swish.py, the block exactly) and run from its folder, it must print
    that text."""
    path = ROOT / "docs" / "writing-an-op.md"
    program = next(code for code in python_blocks(path) if "class Swish(Function)" in code)
    after = path.read_text(encoding="utf-8").split("Saved as a file, `swish.py`", 1)[1]
    printed = re.search(r"^```text\n(.*?)^```", after, re.DOTALL | re.MULTILINE).group(1)
    (tmp_path / "swish.py").write_text(program, encoding="utf-8")
    run = subprocess.run([sys.executable, "swish.py"], cwd=tmp_path, capture_output=True,
                         text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert run.returncode == 0, run.stderr
    assert run.stdout == printed
