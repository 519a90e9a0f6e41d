"""Every tutorial in docs/ runs: its ```python blocks are executed in order, in one namespace,
from the repository's root. A tutorial whose code does not run is a bug."""

import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((ROOT / "docs").glob("*.md"))
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def python_blocks(path):
    return BLOCK.findall(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", DOCS, ids=[p.name for p in DOCS])
def test_tutorial_runs(path, monkeypatch):
    blocks = python_blocks(path)
    assert blocks, f"{path.name} has no ```python block to run"
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    namespace = {"__name__": f"docs.{path.stem}"}
    for number, code in enumerate(blocks, 1):
        compiled = compile(code, f"{path.name} (block {number})", "exec")
        exec(compiled, namespace)


def test_readme_example_runs(monkeypatch):
    monkeypatch.chdir(ROOT)
    for number, code in enumerate(python_blocks(ROOT / "README.md"), 1):
        exec(compile(code, f"README.md (block {number})", "exec"), {"__name__": "readme"})
