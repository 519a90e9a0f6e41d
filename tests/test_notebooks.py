"""The tutorials as notebooks (docs/notebooks.py): made from the pages, a code cell for each block
that tests/test_docs.py runs, and run headless in a Jupyter kernel of this very interpreter, where
no cell fails, graphs show as SVG and heatmaps as PNG.

Without PyTorch, a notebook runs without exactly the cells whose blocks tests/test_docs.py leaves
out (those that import torch), and its test is reported as skipped, as the page's is."""

import base64
import functools
import inspect
import json
import os
import re
import sys

import pytest

from docs import notebooks

from test_docs import (
    DOCS,
    JAPANESE,
    ROOT,
    blocks_left_out,
    page_name,
    python_blocks,
    torch_installed,
)

KERNEL = "minigrad-test"
SLOW = {"misconceptions.md"}        # trains several small models: run by `pytest -m slow`


def notebook_of(path):
    return notebooks.notebook_from_markdown(path.read_text(encoding="utf-8"), path.name,
                                            [p.name for p in DOCS], path.parent)


def code_cells(notebook):
    return [cell.source for cell in notebook.cells if cell.cell_type == "code"]


# --- made from the pages ---------------------------------------------------------------------

# The Japanese edition's notebooks are made as the English ones are; their code is the English
# pages' (tests/test_docs_ja.py), which run in a kernel below, and test_docs.py runs the pages.
@pytest.mark.parametrize("path", DOCS + JAPANESE, ids=[page_name(p) for p in DOCS + JAPANESE])
def test_code_cells_are_the_blocks_the_doc_test_runs_in_order(path):
    notebook = notebook_of(path)
    setup, *cells = code_cells(notebook)
    assert cells == [block.rstrip("\n") for block in python_blocks(path)]
    where = " / ".join(f'"{part}"' for part in ("docs", *page_name(path).split("/")))
    assert where in setup
    markdown = "\n".join(c.source for c in notebook.cells if c.cell_type == "markdown")
    assert not re.search(r"^```python$", markdown, re.MULTILINE)    # no block left behind as text
    assert notebook.metadata.kernelspec.name == "python3"


def test_text_between_blocks_is_kept_and_page_links_point_at_notebooks():
    text = ("# Title\n\nSee [the op](writing-an-op.md#rules) and [x](elsewhere.md).\n\n"
            "```python\nx = 1\n```\n\n```text\n1\n```\n\nThe end.\n")
    notebook = notebooks.notebook_from_markdown(text, "page.md", ["page.md", "writing-an-op.md"])
    kinds = [cell.cell_type for cell in notebook.cells]
    assert kinds == ["markdown", "code", "markdown", "code", "markdown"]   # note, setup, page
    assert notebook.cells[2].source == ("# Title\n\nSee [the op](writing-an-op.ipynb#rules) "
                                        "and [x](elsewhere.md).")
    assert notebook.cells[3].source == "x = 1"
    assert notebook.cells[4].source == "```text\n1\n```\n\nThe end."


def test_a_pages_picture_travels_inside_its_notebook():
    text = "# Title\n\n![the explorer](images/explorer.png)\n\n```python\nx = 1\n```\n"
    notebook = notebooks.notebook_from_markdown(text, "page.md")
    cell = notebook.cells[2]
    assert cell.source == "# Title\n\n![the explorer](attachment:explorer.png)"
    png = base64.b64decode(cell.attachments["explorer.png"]["image/png"])
    assert png == (ROOT / "docs" / "images" / "explorer.png").read_bytes()
    notebooks.to_bytes(notebook)                          # a valid notebook


def test_a_japanese_pages_notebook_goes_into_ja_with_its_pictures_and_links(tmp_path):
    text = ("# 題\n\n![エクスプローラ](../images/explorer.png) [次へ](writing-an-op.md)"
            " [English](../writing-an-op.md)\n\n```python\nx = 1\n```\n")
    notebook = notebooks.notebook_from_markdown(text, "page.md", ["writing-an-op.md"],
                                                notebooks.JAPANESE)
    cell = notebook.cells[2]
    assert cell.source == ("# 題\n\n![エクスプローラ](attachment:explorer.png) "
                           "[次へ](writing-an-op.ipynb) [English](../writing-an-op.md)")
    png = base64.b64decode(cell.attachments["explorer.png"]["image/png"])
    assert png == (ROOT / "docs" / "images" / "explorer.png").read_bytes()
    assert '"docs" / "ja" / "page.md"' in notebook.cells[1].source
    assert notebook.metadata.minigrad.made_from == "docs/ja/page.md"
    page = ROOT / "docs" / "ja" / "writing-an-op.md"
    [path] = notebooks.make_notebooks([page], tmp_path, log=lambda line: None)
    assert path == tmp_path / "ja" / "writing-an-op.ipynb"
    assert notebooks.japanese_pages() == JAPANESE


def test_the_same_page_makes_the_same_bytes():
    page = ROOT / "docs" / "writing-an-op.md"
    first, second = notebooks.to_bytes(notebook_of(page)), notebooks.to_bytes(notebook_of(page))
    assert first == second
    assert json.loads(first)["nbformat"] == 4


# --- never losing a reader's notebook --------------------------------------------------------

def test_a_run_notebook_is_replaced_and_an_edited_one_is_refused(tmp_path):
    page = ROOT / "docs" / "writing-an-op.md"
    [path] = notebooks.make_notebooks([page], tmp_path, log=lambda line: None)
    notebook = notebook_of(page)
    assert notebooks.write_notebook(notebook, path) == "unchanged"

    ran = json.loads(path.read_text(encoding="utf-8"))
    ran["cells"][3]["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "1\n"}]
    path.write_text(json.dumps(ran), encoding="utf-8")
    assert notebooks.write_notebook(notebook, path) == "wrote"       # outputs only: replaced
    assert path.read_bytes() == notebooks.to_bytes(notebook)

    edited = json.loads(path.read_text(encoding="utf-8"))
    edited["cells"][3]["source"] = "my own notes"
    path.write_text(json.dumps(edited), encoding="utf-8")
    with pytest.raises(FileExistsError, match="--overwrite"):
        notebooks.write_notebook(notebook, path)
    assert json.loads(path.read_text(encoding="utf-8"))["cells"][3]["source"] == "my own notes"
    assert notebooks.write_notebook(notebook, path, overwrite=True) == "wrote"

    stranger = tmp_path / "stranger.ipynb"
    stranger.write_text("{}", encoding="utf-8")
    with pytest.raises(FileExistsError):
        notebooks.write_notebook(notebook, stranger)                # not made from a page


def test_fingerprint_ignores_outputs_and_sees_edits():
    cell = {"cell_type": "code", "source": ["x = 1\n", "y = 2"], "outputs": []}
    ran = dict(cell, outputs=[{"output_type": "stream", "text": "1"}])
    as_one_string = dict(cell, source="x = 1\ny = 2")           # how nbformat holds it in memory
    edited = dict(cell, source="x = 1\ny = 3")
    fingerprint = notebooks.cells_sha256([cell])
    assert notebooks.cells_sha256([ran]) == notebooks.cells_sha256([as_one_string]) == fingerprint
    assert notebooks.cells_sha256([edited]) != fingerprint


# --- run headless in a kernel of this interpreter ---------------------------------------------

@pytest.fixture(scope="module")
def kernels(tmp_path_factory):
    """A kernel spec that starts this interpreter (sys.executable), so the notebooks run in the
    project's venv whatever other `python3` kernels the machine has."""
    from ipykernel.kernelspec import write_kernel_spec

    folder = tmp_path_factory.mktemp("kernels")
    write_kernel_spec(str(folder / KERNEL), overrides={"display_name": "minigrad tests"})
    assert json.loads((folder / KERNEL / "kernel.json").read_text())["argv"][0] == sys.executable
    return folder


def leave_out(notebook, has_torch):
    """Remove the code cells of the blocks that tests/test_docs.py leaves out here (numbered as
    it numbers them, the setup cell not counted); return their numbers."""
    setup, *cells = [cell for cell in notebook.cells if cell.cell_type == "code"]
    numbers = blocks_left_out([cell.source for cell in cells], has_torch)
    dropped = {id(cells[number - 1]) for number in numbers}
    notebook.cells = [cell for cell in notebook.cells if id(cell) not in dropped]
    return numbers


BLOCK_TORCH = ('import sys\n'
               'sys.modules["torch"] = None     # `import torch` fails, as without PyTorch')


@functools.cache
def executed(name, kernels, has_torch=None, block_torch=False):
    """The notebook of docs/`name`, run top to bottom as Jupyter runs it: in a new kernel started
    in docs/ (the notebook's first cell finds the repository's root from there), importing this
    checkout, with matplotlib's inline backend (MPLBACKEND unset), without the cells that
    tests/test_docs.py leaves out when PyTorch is missing (`has_torch`, by default whether it is
    installed). `block_torch` makes `import torch` fail in the kernel. A cell that fails raises
    nbclient's CellExecutionError, with the cell and its traceback. Returns the notebook and the
    numbers of the blocks left out."""
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import AsyncKernelManager
    from nbclient import NotebookClient
    from nbformat import v4

    notebook = notebook_of(ROOT / "docs" / name)
    numbers = leave_out(notebook, torch_installed() if has_torch is None else has_torch)
    if block_torch:
        notebook.cells.insert(0, v4.new_code_cell(BLOCK_TORCH))
    env = {key: value for key, value in os.environ.items() if key != "MPLBACKEND"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in [env.get("PYTHONPATH")] if p])
    km = AsyncKernelManager(kernel_name=KERNEL,
                            kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(kernels)]))
    client = NotebookClient(notebook, km=km, timeout=300, shutdown_kernel="immediate",
                            resources={"metadata": {"path": str(ROOT / "docs")}})
    client.execute(env=env, cleanup_kc=True)      # stops the kernel and closes its sockets
    return notebook, numbers


def outputs(notebook, mime):
    return [output["data"][mime] for cell in notebook.cells if cell.cell_type == "code"
            for output in cell.outputs if mime in output.get("data", {})]


@pytest.mark.parametrize("path", [pytest.param(p, marks=pytest.mark.slow) if p.name in SLOW
                                  else p for p in DOCS], ids=[p.name for p in DOCS])
def test_notebook_runs_in_a_kernel_without_an_error(path, kernels):
    notebook, left_out = executed(path.name, kernels)
    errors = [output for cell in notebook.cells for output in cell.get("outputs", [])
              if output.output_type == "error"]
    assert not errors
    assert all(cell.execution_count for cell in notebook.cells if cell.cell_type == "code")
    if left_out:
        pytest.skip(f"the cells of blocks {left_out} of {path.name} need PyTorch, which is not "
                    "installed; the other cells ran")


def test_without_torch_the_cells_that_import_it_are_left_out_and_the_rest_run(kernels):
    """As on a machine without PyTorch: the notebook for PyTorch users runs all but the cells of
    the blocks that the page's test leaves out, in a kernel where `import torch` fails."""
    path = ROOT / "docs" / "coming-from-pytorch.md"
    blocks = python_blocks(path)
    notebook, left_out = executed(path.name, kernels, has_torch=False, block_torch=True)
    assert left_out == blocks_left_out(blocks, has_torch=False)
    assert len(left_out) >= 5
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert len(code) == 2 + len(blocks) - len(left_out)            # the blocker, the setup, ...
    assert all(cell.execution_count for cell in code)
    assert not any(output.output_type == "error" for cell in code for output in cell.outputs)


def test_graphs_show_as_svg(kernels):
    pictures = outputs(executed("rendering-graphs.md", kernels)[0], "image/svg+xml")
    assert len(pictures) >= 3                         # the step, its backward order, hard attention
    assert all("<svg" in svg and "</svg>" in svg for svg in pictures)
    assert "24.28" in pictures[0] and "MatMul()" in pictures[0]     # the worked attention step


def test_the_explorer_shows_inline_in_its_own_frame(kernels):
    pages = outputs(executed("exploring-backprop.md", kernels)[0], "text/html")
    assert len(pages) == 1 and pages[0].startswith("<iframe srcdoc=")
    assert "window.explorer" in pages[0] and 'sandbox="allow-scripts allow-downloads"' in pages[0]


def heatmaps_are_figures():
    """Whether `plot_heatmap` returns a figure that a notebook shows, instead of writing a file
    to a path it requires."""
    from seq2seq.heatmap import plot_heatmap

    path = inspect.signature(plot_heatmap).parameters.get("path")
    return path is None or path.default is not inspect.Parameter.empty


@pytest.mark.xfail(not heatmaps_are_figures(), strict=True,
                   reason="plot_heatmap still writes a file: no heatmap is shown inline yet")
@pytest.mark.parametrize("name", ["seq2seq-with-attention.md", "why-soft-attention-trains.md"])
def test_heatmaps_show_as_png(name, kernels):
    pictures = outputs(executed(name, kernels)[0], "image/png")
    assert pictures
    assert all(base64.b64decode(png).startswith(b"\x89PNG\r\n\x1a\n") for png in pictures)
