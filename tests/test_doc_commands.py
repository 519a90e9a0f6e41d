"""The shell examples in README.md and docs/ can be pasted one after another from a fresh clone:
every file a command writes with `--out` goes under `runs/`, which git ignores, so nothing lands
among the repository's own files; and no two commands on a page name the same file, so the
second does not stop with "exists: not replaced"."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SHELL_BLOCK = re.compile(r"^```(?:sh|console|bash)\n(.*?)^```", re.M | re.S)


def out_paths(page):
    """The `--out` argument of every command in the page's shell blocks, in order."""
    text = page.read_text(encoding="utf-8")
    return [m.group(1) for block in SHELL_BLOCK.findall(text)
            for m in re.finditer(r"--out\s+(\S+)", block)]


def test_every_shell_example_writes_under_runs():
    outside = [f"{page.relative_to(ROOT)}: --out {out}"
               for page in PAGES for out in out_paths(page) if not out.startswith("runs/")]
    assert outside == []


def test_no_two_shell_examples_on_a_page_write_the_same_file():
    for page in PAGES:
        outs = out_paths(page)
        assert len(outs) == len(set(outs)), (page.name, outs)


def test_readme_shell_examples_found():
    """The parsing above sees the README's drawing commands (a regex that matched nothing
    would pass both tests)."""
    assert "runs/step-predict.html" in out_paths(ROOT / "README.md")
