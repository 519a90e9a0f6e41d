"""The words of an explorer page, one table per language: en.py (English) and ja.py (Japanese).

Each table is a dict {key: text}; the same keys in every language, and the same `{name}`
placeholders in each text (tests/test_explorer_words.py checks both). `explore(..., lang="ja")`
takes the Japanese table: Python fills in the texts it writes (a question's known mistakes, why
predict mode asks nothing, a tensor's name) with `say`, and the page gets the table's texts for
its script (`page_words`), which fills them in the same way (`say` in script/state.js).

    say(words("ja"), "page.step", step=3, op="MatMul")       # 'ステップ 3: MatMul'
"""

import importlib
import re

from minigrad.messages import message

LANGUAGES = ("en", "ja")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def check_lang(lang, where="explore"):
    """`lang` if it is one of LANGUAGES; else a one-line ValueError naming them."""
    if not isinstance(lang, str) or lang not in LANGUAGES:
        raise ValueError(message("explorer.bad_lang", where=where, lang=repr(lang),
                                 languages=", ".join(map(repr, LANGUAGES))))
    return lang


def words(lang="en"):
    """The table of `lang` ("en" or "ja")."""
    return importlib.import_module(f"minigrad.viz.explorer.words.{check_lang(lang)}").TEXT


def say(table, key, **values):
    """The text of `key` with each `{name}` replaced by values[name] (as str). Only `{word}`
    is a placeholder, so a brace elsewhere in a text is kept as it is."""
    return PLACEHOLDER.sub(lambda m: str(values[m.group(1)]), table[key])


def placeholders(text):
    """The names of the placeholders of a text, as a set."""
    return set(PLACEHOLDER.findall(text))


def page_words(table):
    """The texts the page's script uses (the keys page.*, name.*, uses.*), for its data."""
    return {key: text for key, text in table.items()
            if key.split(".")[0] in ("page", "name", "uses")}


def add_lang_option(parser):
    """`--lang {en,ja}` on an explore command line: the page's language, passed to explore().
    Not written, it is None: the command then gives the page the messages' language (the
    locale's, or the --lang written before the command)."""
    parser.add_argument("--lang", choices=LANGUAGES, default=None,
                        help="the page's language: en (English) or ja (Japanese: every button, "
                        "heading, rule, question and hint) (default: the messages' language, "
                        "from a --lang before the command or the locale; else en)")
