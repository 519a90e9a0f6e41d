"""docs/coming-from-pytorch.md says, before its first code block, how to get PyTorch for the
blocks that import it and what happens without it; its notebook shows the same note before the
first of the page's own code cells."""

import re

import pytest

from docs import notebooks

from test_docs import ROOT

PAGE = ROOT / "docs" / "coming-from-pytorch.md"
INSTALL = ".venv/bin/python -m pip install torch==2.13.0"


def before_the_first_python_block(text):
    return text[:text.index("```python")]


def test_the_page_says_how_to_get_pytorch_before_any_code():
    top = " ".join(before_the_first_python_block(PAGE.read_text(encoding="utf-8")).split())
    assert INSTALL in top
    assert "ModuleNotFoundError: No module named 'torch'" in top
    assert "%pip install torch==2.13.0" in top


def test_the_version_is_the_one_the_readme_names():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert set(re.findall(r"torch==([\d.]+)", readme)) == {"2.13.0"}
    assert INSTALL in " ".join(readme.split())
    assert INSTALL.split("==")[1] == "2.13.0"


def test_the_notebook_shows_the_note_before_the_pages_code():
    pytest.importorskip("nbformat")
    cells = notebooks.notebook_from_markdown(PAGE.read_text(encoding="utf-8"), PAGE.name).cells
    first_code = next(i for i, cell in enumerate(cells[2:], 2) if cell.cell_type == "code")
    note = " ".join(" ".join(cell.source for cell in cells[2:first_code]).split())
    assert INSTALL in note and "ModuleNotFoundError" in note
