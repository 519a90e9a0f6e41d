"""Every tutorial in docs/ runs: its ```python blocks are executed in order, in one namespace,
from the repository's root. A tutorial whose code does not run is a bug.

A block that imports torch (a line starting `import torch` or `from torch`) runs only where
PyTorch is installed; elsewhere it is left out, the others run, and the test is reported as
skipped. So no block without torch may use a name that such a block defines."""

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((ROOT / "docs").glob("*.md"))
BLOCK = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)
NEEDS_TORCH = re.compile(r"^(import torch|from torch)\b", re.MULTILINE)


def python_blocks(path):
    return BLOCK.findall(path.read_text(encoding="utf-8"))


def run_tutorial(path):
    """Run the tutorial's blocks in order, in one namespace; return the numbers of the blocks
    left out because they import torch and it is not installed."""
    has_torch = importlib.util.find_spec("torch") is not None
    namespace, left_out = {"__name__": f"docs.{path.stem}"}, []
    for number, code in enumerate(python_blocks(path), 1):
        if NEEDS_TORCH.search(code) and not has_torch:
            left_out.append(number)
            continue
        exec(compile(code, f"{path.name} (block {number})", "exec"), namespace)
    return left_out


@pytest.mark.parametrize("path", DOCS, ids=[p.name for p in DOCS])
def test_tutorial_runs(path, monkeypatch):
    assert python_blocks(path), f"{path.name} has no ```python block to run"
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    left_out = run_tutorial(path)
    if left_out:
        pytest.skip(f"blocks {left_out} of {path.name} need PyTorch, which is not installed; "
                    "the other blocks ran")


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


def test_readme_example_runs(monkeypatch):
    monkeypatch.chdir(ROOT)
    for number, code in enumerate(python_blocks(ROOT / "README.md"), 1):
        exec(compile(code, f"README.md (block {number})", "exec"), {"__name__": "readme"})


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
