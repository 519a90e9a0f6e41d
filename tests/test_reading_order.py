"""The README's list of tutorials leaves none out, and its links between pages lead somewhere.

The Documentation section of README.md is how a reader finds the tutorials: a numbered reading
order, then the pages for extending the project. A page added to docs/ without a line there
would be found by no one; a link to a page, or to a section of one (`page.md#5-a-heading`), that
a rename left behind leads nowhere. Headings become anchors as GitHub makes them: lower case,
punctuation dropped, each space a hyphen."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((ROOT / "docs").glob("*.md"))
LINK = re.compile(r"\]\((?:docs/)?([\w-]+\.md)(?:#([\w-]+))?\)")


def documentation_section():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return text.split("\n## Documentation\n", 1)[1].split("\n## ", 1)[0]


def linked_pages(text):
    """The pages `text` links to, each once, in the order of their first link."""
    return list(dict.fromkeys(page for page, _ in LINK.findall(text)))


def anchor(heading):
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(path):
    text = re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"), flags=re.S | re.M)
    return {anchor(h) for h in re.findall(r"^#{1,6} (.+)$", text, re.M)}


def test_the_readme_lists_every_tutorial():
    assert set(linked_pages(documentation_section())) == {path.name for path in DOCS}


def test_the_reading_order_is_numbered_one_by_one_and_the_transformer_follows_seq2seq():
    section = documentation_section()
    numbers = [int(n) for n in re.findall(r"^(\d+)\. ", section, re.M)]
    assert numbers == list(range(1, len(numbers) + 1))
    order = linked_pages(section)
    assert order.index("from-attention-to-the-transformer.md") == \
        order.index("seq2seq-with-attention.md") + 1


def test_a_heading_becomes_githubs_anchor():
    assert anchor("5. Temperature: from a soft mixture to a hard choice") == \
        "5-temperature-from-a-soft-mixture-to-a-hard-choice"
    assert anchor("7. The 1/√d_k, once more") == "7-the-1d_k-once-more"


def test_every_link_between_pages_leads_to_a_page_and_section_that_exist():
    broken = []
    for path in [ROOT / "README.md", *DOCS]:
        for page, section in LINK.findall(path.read_text(encoding="utf-8")):
            target = ROOT / "docs" / page
            if not target.is_file():
                broken.append(f"{path.name}: {page}")
            elif section and section not in anchors(target):
                broken.append(f"{path.name}: {page}#{section}")
    assert broken == []
