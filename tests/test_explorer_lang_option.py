"""`--lang {en,ja}` on every explore command line: `--help` says it, `--lang ja` writes a
Japanese page (explore's lang="ja"), not written it is the messages' language (English by
default), and another language is refused."""

import re

import pytest

from minigrad.language import choose
from docs.pages import commands
from tests.test_pages import DATA

EXPLORE = {"attention": ["explore"], "minigrad.viz": ["explore", "lstm-cell"],
           "seq2seq": ["explore", "RUN"]}


def page_lang(path):
    text = path.read_text(encoding="utf-8")
    data = DATA.search(text).group(2)
    return re.search(r'<html lang="(\w+)">', text).group(1), re.search(r'"lang":"(\w+)"',
                                                                        data).group(1)


@pytest.mark.parametrize("module", EXPLORE)
def test_every_explore_command_says_its_lang_option_in_its_help(module, capsys):
    with pytest.raises(SystemExit):
        commands()[module]([EXPLORE[module][0], "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "--lang {en,ja}" in shown and "ja (Japanese" in shown
    assert "(default: the messages' language" in shown


@pytest.mark.parametrize("module", ["attention", "minigrad.viz"])
def test_lang_ja_writes_a_japanese_page_and_the_default_an_english_one(module, tmp_path,
                                                                       capsys):
    main, argv = commands()[module], EXPLORE[module]
    for lang, extra in (("ja", ["--lang", "ja", "--predict"]), ("en", [])):
        choose(None)            # each command line in a new process: the locale (en) again
        out = tmp_path / f"{lang}.html"
        assert main([*argv, *extra, "--out", str(out)]) in (0, None)
        assert page_lang(out) == (lang, lang)
    assert "逆伝播" in (tmp_path / "ja.html").read_text(encoding="utf-8")


def test_another_language_is_refused(tmp_path, capsys):
    with pytest.raises(SystemExit):
        commands()["attention"](["explore", "--lang", "fr", "--out", str(tmp_path / "x.html")])
    assert "invalid choice: 'fr'" in capsys.readouterr().err
