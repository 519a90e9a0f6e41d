"""The shell examples in README.md and docs/ can be pasted one after another from a fresh clone:
every file a command writes with `--out` goes under `runs/`, which git ignores, so nothing lands
among the repository's own files; and no two commands on a page name the same file, so the
second does not stop with "exists; pass --overwrite to replace it"."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# The Japanese edition gives the same commands as the English page it translates: it is checked
# as a page of its own, but names the same files as its English page (the reader runs one of
# the two).
JAPANESE = [path for path in [ROOT / "README.ja.md", *sorted((ROOT / "docs" / "ja").glob("*.md"))]
            if path.is_file()]
SHELL_BLOCK = re.compile(r"^```(?:sh|console|bash)\n(.*?)^```", re.M | re.S)


def out_paths(page):
    """The `--out` argument of every command in the page's shell blocks, in order."""
    text = page.read_text(encoding="utf-8")
    return [m.group(1) for block in SHELL_BLOCK.findall(text)
            for m in re.finditer(r"--out\s+(\S+)", block)]


def test_every_shell_example_writes_under_runs():
    outside = [f"{page.relative_to(ROOT)}: --out {out}" for page in PAGES + JAPANESE
               for out in out_paths(page) if not out.startswith("runs/")]
    assert outside == []


def test_no_two_shell_examples_on_a_page_write_the_same_file():
    for page in PAGES + JAPANESE:
        outs = out_paths(page)
        assert len(outs) == len(set(outs)), (page.name, outs)


def test_readme_shell_examples_found():
    """The parsing above sees the README's drawing commands (a regex that matched nothing
    would pass both tests)."""
    assert "runs/step-predict.html" in out_paths(ROOT / "README.md")


def test_no_two_pages_name_the_same_output_file():
    """A file named with --out or --plot (a picture, a page, a figure) is its page's own, so a
    reader who runs the README and then a tutorial is not refused by a file an earlier page
    wrote. (Run folders, --out RUN, are shared on purpose: a later page uses an earlier run.)"""
    pages = {}
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for name in set(re.findall(r"--(?:out|plot)\s+(runs/[^\s`]+\.[a-z]+)\b", text)):
            pages.setdefault(name, []).append(page.name)
    shared = {name: where for name, where in pages.items() if len(where) > 1}
    assert shared == {}
    assert "runs/step.html" in pages                       # the pattern finds prose commands too


def test_a_japanese_page_names_the_files_its_english_page_names():
    """The Japanese edition runs the same commands: the same files, no more, no fewer."""
    def named(page):
        return sorted(set(re.findall(r"--(?:out|plot)\s+(runs/[^\s`]+)", page.read_text(
            encoding="utf-8"))))
    for page in JAPANESE:
        english = ROOT / "README.md" if page.name == "README.ja.md" else ROOT / "docs" / page.name
        if english.is_file():
            assert named(page) == named(english), page.relative_to(ROOT)


def test_every_command_in_prose_writes_under_runs():
    """Commands in running text (`python -m ... --out FILE`) too write under runs/."""
    outside = [f"{page.relative_to(ROOT)}: --out {out}" for page in PAGES + JAPANESE
               for out in re.findall(r"`python -m [^`]*--(?:out|plot)\s+([^\s`]+)", page.read_text(
                   encoding="utf-8")) if not out.startswith("runs/") and out != "RUN"]
    assert outside == []


def test_the_reverser_command_trains_the_tutorial_blocks_model():
    """docs/seq2seq-with-attention.md trains the reverser in Python, then gives the command that
    makes runs/reverse for section 4: both must mean the same settings."""
    import argparse

    from seq2seq.commands.train import TrainConfig
    from seq2seq.commands.train_options import add_train_options, config_from

    text = (ROOT / "docs" / "seq2seq-with-attention.md").read_text(encoding="utf-8")
    command = re.search(r"^python -m seq2seq train (--task reverse --out runs/reverse .*)$", text,
                        re.M).group(1)
    parser = argparse.ArgumentParser()
    add_train_options(parser)
    from_command = config_from(parser.parse_args(command.split()))
    block = re.search(r"config = TrainConfig\((.*?)\)\n", text, re.S).group(1)
    from_block = eval(f"TrainConfig({block})", {"TrainConfig": TrainConfig,
                                                "tempfile": type("T", (), {"mkdtemp": str})})
    ignore = {"out": "", "progress": True}
    assert (dataclasses_replace(from_command, **ignore) == dataclasses_replace(from_block,
                                                                                **ignore))


def dataclasses_replace(config, **changes):
    import dataclasses
    return dataclasses.replace(config, **changes)
