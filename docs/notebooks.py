"""The tutorials as Jupyter notebooks, made from their Markdown pages (docs/*.md, and the
Japanese edition's docs/ja/*.md).

    make notebooks                                    every page, into notebooks/ (notebooks/ja/)
    python docs/notebooks.py --out FOLDER [PAGE.md ...]

The Markdown page is the only source: a notebook is made from it and never edited back into it.
Each ```python block becomes a code cell, in order: exactly the blocks that tests/test_docs.py
runs. The text between them, with its ```text outputs and ```console commands, becomes Markdown
cells, and a link to another page points at that page's notebook. A first code cell moves to the
repository's root, where the pages' code runs (it reads docs/, as the tests run it from there).

A notebook you have changed is yours: one whose cells are no longer those this script made is
not replaced unless you pass --overwrite. One that was only run (outputs, no changed cell) is.
"""

import base64
import hashlib
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = ROOT / "docs"
JAPANESE = PAGES / "ja"             # the Japanese edition: a page of the same name per tutorial
BLOCK = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)    # as test_docs.py
PAGE_LINK = re.compile(r"\]\(([\w-]+)\.md(?=[#)])")                 # ](other-page.md#section)
PICTURE = re.compile(r"!\[([^\]]*)\]\(((?:\.\./)?images/[\w.-]+\.png)\)")   # ![alt](images/x.png)

SETUP = '''\
# The page's code runs from the repository's root (as its tests run it): go there.
import os
from pathlib import Path

root = next((folder for folder in (Path.cwd(), *Path.cwd().parents)
             if (folder / "docs" / {where}).is_file()), None)
if root is None:
    raise RuntimeError("this notebook runs from a folder inside the minigrad repository")
os.chdir(root)'''


def notebook_from_markdown(text, name, pages=(), folder=PAGES):
    """The notebook of one page: `text` is its Markdown, `name` its file name ("x.md"), `pages`
    the names of the pages whose links are turned into links to their notebooks, `folder` the
    page's folder (docs/, or docs/ja/ for a Japanese page): its pictures are found from there."""
    from nbformat import v4

    where = " / ".join(f'"{part}"' for part in Path(folder).relative_to(PAGES).parts + (name,))
    made_from = Path(folder).relative_to(ROOT).joinpath(name).as_posix()
    cells = [v4.new_markdown_cell(f"*Made from `{made_from}`: edit the page, not this "
                                  "notebook (`make notebooks` makes it again).*"),
             v4.new_code_cell(SETUP.format(where=where))]
    start = 0
    for block in BLOCK.finditer(text):
        cells.append(_markdown(text[start:block.start()], pages, folder))
        cells.append(v4.new_code_cell(block.group(1).rstrip("\n")))
        start = block.end()
    cells.append(_markdown(text[start:], pages, folder))
    cells = [cell for cell in cells if cell is not None]
    for number, cell in enumerate(cells):
        cell.id = f"cell-{number}"          # fixed ids: the same page makes the same bytes
    notebook = v4.new_notebook(cells=cells, metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
        "language_info": {"name": "python"},
        "minigrad": {"made_from": made_from, "cells_sha256": cells_sha256(cells)}})
    return notebook


def _markdown(text, pages, folder=PAGES):
    from nbformat import v4

    text = text.strip("\n")
    if not text.strip():
        return None
    text = PAGE_LINK.sub(lambda m: f"]({m[1]}.ipynb" if f"{m[1]}.md" in pages else m[0], text)
    # A picture of the page (docs/images/) goes inside the notebook, as an attachment of its
    # cell: the notebook may be anywhere, where a relative path would not lead to it.
    attachments = {}

    def attach(match):
        picture = (Path(folder) / match[2]).resolve()
        if not picture.is_file():
            return match[0]
        data = base64.b64encode(picture.read_bytes()).decode("ascii")
        attachments[picture.name] = {"image/png": data}
        return f"![{match[1]}](attachment:{picture.name})"
    text = PICTURE.sub(attach, text)
    cell = v4.new_markdown_cell(text)
    if attachments:
        cell.attachments = attachments
    return cell


def cells_sha256(cells):
    """A fingerprint of the cells' kinds and sources, not of their outputs: running a notebook
    leaves it unchanged, editing a cell changes it."""
    content = [[cell["cell_type"], "".join(cell["source"])] for cell in cells]
    return hashlib.sha256(json.dumps(content).encode("utf-8")).hexdigest()


def to_bytes(notebook):
    import nbformat

    nbformat.validate(notebook)
    return (nbformat.writes(notebook).rstrip("\n") + "\n").encode("utf-8")


def write_notebook(notebook, path, overwrite=False):
    """Write `notebook` to `path`: 'wrote' it, or 'unchanged' when the file already holds these
    bytes. Refuses (FileExistsError) to replace a file that this script did not make, or whose
    cells were changed since, unless `overwrite`."""
    from minigrad.files import atomic_write

    path = Path(path)
    data = to_bytes(notebook)
    if path.exists() and not overwrite:
        if path.read_bytes() == data:
            return "unchanged"
        if not made_here_unchanged(path):
            raise FileExistsError(f"{path} was changed since it was made (or was not made from "
                                  "a page): pass --overwrite to replace it, or move it away")
    atomic_write(path, lambda file: file.write(data))
    return "wrote"


def made_here_unchanged(path):
    """Whether the notebook at `path` was made by this script and its cells are still the ones
    it made (only outputs added)."""
    try:
        notebook = json.loads(path.read_text(encoding="utf-8"))
        made = notebook["metadata"]["minigrad"]["cells_sha256"]
        return made == cells_sha256(notebook["cells"])
    except (OSError, ValueError, KeyError, TypeError):
        return False


def make_notebooks(pages, out, overwrite=False, log=print):
    """A notebook for each page (paths of .md files) in the folder `out`, a Japanese page's in
    `out`/ja; returns their paths."""
    out = Path(out)
    made = []
    for page in pages:
        page = Path(page)
        folder = page.resolve().parent
        if page.suffix != ".md" or folder not in (PAGES, JAPANESE):
            raise ValueError(f"{page}: expected a tutorial page, docs/NAME.md or docs/ja/NAME.md")
        if not page.is_file():
            raise FileNotFoundError(f"{page}: no such page")
        names = {path.name for path in folder.glob("*.md")}
        notebook = notebook_from_markdown(page.read_text(encoding="utf-8"), page.name, names,
                                          folder)
        path = (out if folder == PAGES else out / "ja") / f"{page.stem}.ipynb"
        path.parent.mkdir(parents=True, exist_ok=True)
        log(f"{write_notebook(notebook, path, overwrite)} {path}")
        made.append(path)
    return made


def japanese_pages():
    """The Japanese edition's tutorials: each page of docs/ja/ that has its English page (the
    glossary, the edition's own, has no code to run)."""
    return [page for page in sorted(JAPANESE.glob("*.md")) if (PAGES / page.name).is_file()]


def main(argv=None):
    from minigrad.command import Parser, add_debug_option, debug_wanted, run

    parser = Parser(prog="python docs/notebooks.py", description=__doc__.split("\n")[0])
    parser.add_argument("pages", nargs="*",
                        help="the pages (default: every docs/*.md and its docs/ja/ edition)")
    parser.add_argument("--out", default=str(ROOT / "notebooks"),
                        help="the folder for the notebooks (default: notebooks/)")
    parser.add_argument("--overwrite", action="store_true",
                        help="replace notebooks whose cells were changed since they were made")
    add_debug_option(parser)
    args = parser.parse_args(argv)
    pages = args.pages or [*sorted(PAGES.glob("*.md")), *japanese_pages()]
    return run(lambda: make_notebooks(pages, args.out, args.overwrite) and None,
               debug=debug_wanted(args))


if __name__ == "__main__":
    sys.exit(main())
