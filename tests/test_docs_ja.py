"""The Japanese edition (docs/ja/, README.ja.md) says what the English one says, with the same
code, and in the glossary's terms.

- Every tutorial docs/NAME.md has its Japanese page docs/ja/NAME.md, and the two stay together:
  the Japanese page's ```python blocks are the English page's, in the same order, as Python
  reads them. Comments and docstrings may differ (they are prose for the reader), and so may the
  strings a `print(...)` call prints; nothing else. tests/test_docs.py runs the Japanese pages
  and compares what they print with their ```text blocks, as it does the English ones.
- docs/ja/glossary.md (用語集) lists each term with its Japanese and English forms and the page
  that introduces it. An entry marked 固定 is the edition's word for that term: a Japanese page
  whose English page uses the English term uses it, and no page writes one of the entry's
  rejected forms (「トランス」 for Transformer, say).
"""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((ROOT / "docs").glob("*.md"))
JA = ROOT / "docs" / "ja"
GLOSSARY = JA / "glossary.md"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```[ \t]*$", re.DOTALL | re.MULTILINE)


def python_blocks(path):
    return [code for kind, code in FENCE.findall(path.read_text(encoding="utf-8"))
            if kind == "python"]


class _Prose(ast.NodeTransformer):
    """Blanks what may differ between the editions: docstrings, and the strings printed."""

    def visit_Call(self, node):
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id == "print":
            for part in ast.walk(node):
                if isinstance(part, ast.Constant) and isinstance(part.value, str):
                    part.value = ""
        return node

    def _docstring(self, node):
        self.generic_visit(node)
        body = node.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            body[0].value.value = ""
        return node

    visit_Module = visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _docstring


def code_of(block):
    """The block as Python reads it, without its comments, docstrings and printed strings."""
    return ast.dump(_Prose().visit(ast.parse(block)))


def drift(english, japanese):
    """Where the Japanese blocks part from the English ones: a list of lines, empty if none."""
    if len(english) != len(japanese):
        return [f"{len(japanese)} python blocks, the English page has {len(english)}"]
    return [f"block {number} differs from the English page's block {number}"
            for number, (a, b) in enumerate(zip(english, japanese), 1)
            if code_of(a) != code_of(b)]


def test_every_tutorial_has_its_japanese_page():
    missing = [path.name for path in DOCS if not (JA / path.name).is_file()]
    assert missing == [], f"docs/ja/ has no Japanese page for {missing}"
    assert (ROOT / "README.ja.md").is_file()


@pytest.mark.parametrize("path", DOCS, ids=[p.name for p in DOCS])
def test_the_japanese_pages_code_is_the_english_pages(path):
    japanese = JA / path.name
    if not japanese.is_file():
        pytest.fail(f"docs/ja/{path.name} is missing")
    assert drift(python_blocks(path), python_blocks(japanese)) == []


def test_only_comments_docstrings_and_printed_strings_may_differ():
    english = ['def f(x):\n    """Twice x."""\n    return 2 * x  # doubled\n\n'
               'print("twice", f(2))\n']
    same = ['def f(x):\n    """x の2倍。"""\n    return 2 * x  # 2倍\n\nprint("2倍:", f(2))\n']
    assert drift(english, same) == []
    for changed in ['def f(x):\n    return 3 * x\n\nprint("twice", f(2))\n',
                    'def f(x):\n    return 2 * x\n\nprint("twice", f(3))\n',
                    'def f(x):\n    return 2 * x\n\nlabel = "2倍"\nprint(label, f(2))\n']:
        assert drift(english, [changed]) == ["block 1 differs from the English page's block 1"]
    assert drift(english, english * 2) == ["2 python blocks, the English page has 1"]


# --- the glossary ------------------------------------------------------------------------------

def glossary():
    """The glossary's entries: dicts with 'ja', 'en' (its English forms), 'page', 'fixed' and
    'rejected' (the forms not to write)."""
    rows = re.findall(r"^\|(.+)\|[ \t]*$", GLOSSARY.read_text(encoding="utf-8"), re.M)
    entries = []
    for row in rows[2:]:                                  # after the header and its rule
        ja, en, page, fixed, rejected = (cell.strip() for cell in row.split("|"))
        entries.append({"ja": ja, "en": [form.strip() for form in en.split(",")],
                        "page": page, "fixed": fixed == "固定",
                        "rejected": [form.strip() for form in rejected.split("、")
                                     if form.strip()]})
    return entries


def prose(text):
    """The text without its code: fenced blocks and `inline code` removed."""
    return re.sub(r"`[^`\n]*`", " ", FENCE.sub(" ", text))


def uses(text, english):
    return re.search(rf"(?<![\w-]){re.escape(english)}(?![\w-])", text, re.IGNORECASE) is not None


# The Japanese texts of the code: the explorer's page, and the messages of the commands and the
# graders. They are the edition's too, and follow the glossary as its pages do.
CATALOGUES = ["minigrad/viz/explorer/words/ja*.py", "minigrad/messages/ja*.py",
              "seq2seq/commands/messages/ja*.py", "seq2seq/data/messages/ja*.py",
              "seq2seq/models/messages/ja*.py", "docs/pages/README.ja.md",
              "attention/messages/ja*.py"]


def japanese_text():
    """Every text of the Japanese edition but the glossary (which names the rejected forms)."""
    paths = [ROOT / "README.ja.md", *sorted(JA.glob("*.md")),
             *(path for pattern in CATALOGUES for path in sorted(ROOT.glob(pattern)))]
    return {path.relative_to(ROOT).as_posix(): path.read_text(encoding="utf-8")
            for path in paths if path.is_file() and path != GLOSSARY}


def test_the_catalogues_are_read():
    names = japanese_text()
    for pattern in CATALOGUES:
        assert any(Path(name).match(pattern) for name in names), pattern


def test_the_glossary_has_the_terms_learners_know():
    entries = glossary()
    assert len(entries) >= 60
    known = {entry["ja"] for entry in entries}
    for term in ("勾配", "逆伝播", "順伝播", "計算グラフ", "損失関数", "重み", "隠れ状態",
                 "エンコーダ", "デコーダ", "系列変換モデル", "Teacher forcing", "アテンション",
                 "ソフトマックス", "埋め込み", "層正規化", "位置エンコーディング", "Transformer"):
        assert term in known, term
    transformer = next(entry for entry in entries if entry["ja"] == "Transformer")
    assert transformer["fixed"] and "トランス" in transformer["rejected"]


def test_each_entry_links_the_japanese_page_that_introduces_it():
    for entry in glossary():
        link = re.fullmatch(r"\[[^\]]+\]\(([\w-]+\.md)\)", entry["page"])
        assert link, f"{entry['ja']}: write its page as [title](page.md)"
        page = JA / link.group(1)
        assert page.is_file(), f"{entry['ja']}: {link.group(1)} is not a page of docs/ja/"
        assert entry["ja"].lower() in page.read_text(encoding="utf-8").lower(), \
            f"{entry['ja']} does not appear in docs/ja/{link.group(1)}, its page"


def test_no_page_writes_a_rejected_form_of_a_fixed_term():
    found = [f"{name}: {form} (write {entry['ja']})" for entry in glossary() if entry["fixed"]
             for name, text in japanese_text().items() for form in entry["rejected"]
             if form in text]
    assert found == []


def test_a_page_whose_english_uses_a_fixed_term_uses_the_glossarys_japanese():
    missing = []
    for path in DOCS:
        japanese = JA / path.name
        if not japanese.is_file():
            continue
        english, text = prose(path.read_text(encoding="utf-8")), japanese.read_text(
            encoding="utf-8").lower()
        for entry in glossary():
            if entry["fixed"] and any(uses(english, form) for form in entry["en"]) \
                    and entry["ja"].lower() not in text:
                missing.append(f"docs/ja/{path.name}: {entry['ja']} ({entry['en'][0]})")
    assert missing == []


def test_the_check_sees_a_term_in_prose_only():
    assert uses(prose("The hidden state `h`.\n"), "hidden state")
    assert not uses(prose("```python\nhidden_state = 1  # the hidden state\n```\n"),
                    "hidden state")
    assert not uses("the self-attention layer", "attention")
    assert uses("Attention, then softmax", "attention")


# --- the Japanese README's reading order, and links that lead somewhere -----------------------

ANY_LINK = re.compile(r"\]\(((?:\.\./|docs/)*[\w./-]*?[\w-]+\.md)(?:#([^)\s]+))?\)")


def section(path, heading):
    return path.read_text(encoding="utf-8").split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]


def listed(text, prefix):
    return list(dict.fromkeys(re.findall(rf"\]\({re.escape(prefix)}([\w-]+\.md)[#)]", text)))


def test_the_japanese_readme_lists_the_tutorials_in_the_english_reading_order():
    english = section(ROOT / "README.md", "Documentation")
    japanese = section(ROOT / "README.ja.md", "ドキュメント")
    assert [p for p in listed(japanese, "docs/ja/") if p != "glossary.md"] == \
        listed(english, "docs/")
    assert "glossary.md" in listed(japanese, "docs/ja/")
    numbers = re.findall(r"^(\d+)\. ", japanese, re.M)
    assert numbers == re.findall(r"^(\d+)\. ", english, re.M)


def test_the_two_readmes_link_each_other_near_their_top():
    assert "](README.ja.md)" in (ROOT / "README.md").read_text(encoding="utf-8")[:300]
    assert "](README.md)" in (ROOT / "README.ja.md").read_text(encoding="utf-8")[:300]


def test_every_link_of_the_japanese_edition_leads_to_a_page_and_section_that_exist():
    from test_reading_order import anchors

    broken = []
    for path in [ROOT / "README.ja.md", *sorted(JA.glob("*.md"))]:
        for target, anchor in ANY_LINK.findall(path.read_text(encoding="utf-8")):
            if "://" in target:
                continue
            page = (path.parent / target).resolve()
            if not page.is_file():
                broken.append(f"{path.relative_to(ROOT)}: {target}")
            elif anchor and anchor not in anchors(page):
                broken.append(f"{path.relative_to(ROOT)}: {target}#{anchor}")
    assert broken == []


@pytest.mark.parametrize("path", DOCS, ids=[p.name for p in DOCS])
def test_each_japanese_page_links_its_english_page_at_its_top(path):
    japanese = JA / path.name
    if not japanese.is_file():
        pytest.fail(f"docs/ja/{path.name} is missing")
    assert f"](../{path.name})" in japanese.read_text(encoding="utf-8")[:400]
