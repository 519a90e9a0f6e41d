"""The language of the messages a person reads: the graders' verdicts, the command line's notes
and its one-line errors. English, or Japanese.

    python -m seq2seq train --lang ja ...        Japanese, whatever the locale
    LANG=ja_JP.UTF-8 python -m seq2seq train     Japanese, from the locale
    python -m minigrad.grade --lang en ...       English, whatever the locale

The language is `--lang` when a command line gives it (the last one, if several); else the
locale, read as Python's gettext reads it: the first of LANGUAGE, LC_ALL, LC_MESSAGES and LANG
that is set and not empty ("ja_JP.UTF-8", "ja" or a LANGUAGE list starting with ja gives
Japanese; anything else English). English is the
default, so a machine without a Japanese locale, or a script, sees what it always saw.

Each floor of the project keeps its messages in one place per language, a dict from a key to a
text with named placeholders (minigrad/messages/en.py and ja.py; seq2seq/commands/messages/),
read through a `Catalog`:

    message = Catalog("minigrad.messages")
    message("grade.failed", report=text)          'failed: ...' or '不合格: ...'

A key the chosen language lacks falls back to English; the test suite checks that none lacks one.
"""

import argparse
import importlib
import os

LANGUAGES = ("en", "ja")
ENVIRONMENT = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")     # gettext's order

_chosen = None              # set by --lang (choose); None: the environment decides


def from_environment(environ=None):
    """'ja' or 'en', from the first of LANGUAGE, LC_ALL, LC_MESSAGES, LANG that is set.
    LANGUAGE may be a list ("ja:en"); its first entry counts, an empty one left out (":ja")."""
    environ = os.environ if environ is None else environ
    for name in ENVIRONMENT:
        value = environ.get(name, "")
        if value:
            first = next((entry for entry in value.split(":") if entry.strip()), "")
            return "ja" if first.strip().lower().startswith("ja") else "en"
    return "en"


def choose(name):
    """Use language `name` ('en' or 'ja') from now on, whatever the locale; None goes back to
    the locale. Any other name is a ValueError, one line saying which names there are."""
    global _chosen
    if name is not None and name not in LANGUAGES:
        raise ValueError(f"--lang {name!r}: the languages are {', '.join(LANGUAGES)}")
    _chosen = name


def current():
    """The language messages are written in now: --lang's, else the locale's."""
    return _chosen if _chosen is not None else from_environment()


def environment():
    """The variables that make a child process (the graders' graded code) speak the language
    chosen here: {} when the locale decides, as the child inherits it."""
    return {} if _chosen is None else {"LANGUAGE": _chosen}


SPELLINGS = ("--lang", "--lan", "--la")     # argparse takes an option's prefix for it


def given_in(argv):
    """The value of the last `--lang X` or `--lang=X` in a command line (or `--la X`, as argparse
    reads a prefix), if it names a language, else None. Read before argparse parses the line, so
    that argparse's own errors (a bad --lr) are already in that language; a value that names
    none is left for argparse to refuse. After parsing, the parsed value decides
    (minigrad.command.Parser), the same when the prefix was another option's."""
    argv = list(argv)
    found = None
    for i, word in enumerate(argv):
        if word == "--":
            break
        option, equals, value = word.partition("=")
        if option in SPELLINGS:
            value = value if equals else argv[i + 1] if i + 1 < len(argv) else None
            found = value if value in LANGUAGES else found
    return found


HELP = ("the language of the messages, en or ja (default: the locale's, from LANGUAGE, LC_ALL, "
        "LC_MESSAGES or LANG: ja_JP.UTF-8 gives ja, anything else en)")


def add_language_option(parser, subparsers=None):
    """--lang {en,ja} on the parser and, if given, on each of its subcommands, so that it may be
    written before the subcommand or after it. Not written, the locale decides. A subcommand
    with a --lang of its own (explore's, the page's language) keeps it: the value written there
    is read for the messages too (minigrad.command.Parser reads it before parsing)."""
    parser.add_argument("--lang", choices=LANGUAGES, default=None, help=HELP)
    for sub in (subparsers.choices.values() if subparsers is not None else ()):
        if "--lang" not in sub._option_string_actions:
            sub.add_argument("--lang", choices=LANGUAGES, default=argparse.SUPPRESS, help=HELP)


class Catalog:
    """One floor's messages: `catalog(key, **values)` is the text of `key` in the current
    language, its placeholders ({path}, {value:.4f}) filled from `values`. The texts live in
    PACKAGE.en and PACKAGE.ja, each a dict MESSAGES; a key missing from one falls back to
    English. Both are imported when the catalog is made, so that saying a message never
    imports (the graders' graded code runs under a guard that watches what is opened)."""

    def __init__(self, package):
        self.package = package
        self.texts = {name: importlib.import_module(f"{package}.{name}").MESSAGES
                      for name in LANGUAGES}

    def __call__(self, key, /, **values):      # a placeholder may be named key too
        english = self.texts["en"]
        template = self.texts[current()].get(key, english[key])
        return template.format(**values)
