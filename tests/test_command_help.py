"""Every option of every command line says what it does in `--help`, and what it defaults to:
an option listed with no description leaves the reader to guess from its name."""

import argparse
import importlib

import pytest

from minigrad.command import Parser

COMMANDS = {                                    # python -m NAME: (module, how main is called)
    "minigrad": ("minigrad.__main__", lambda main: main([])),
    "minigrad.viz": ("minigrad.viz.__main__", lambda main: main([])),
    "minigrad.grade": ("minigrad.grade.grader",
                       lambda main: main({}, "python -m minigrad.grade", [])),
    "attention": ("attention.__main__", lambda main: main([])),
    "seq2seq": ("seq2seq.commands.cli", lambda main: main([])),
}


class Built(Exception):
    """Raised in place of parsing, carrying the parser the command built."""

    def __init__(self, parser):
        self.parser = parser


def built_parser(command, monkeypatch):
    """The parser a command's main() builds, caught before it parses anything."""
    module, call = COMMANDS[command]

    def capture(self, *args, **kwargs):
        raise Built(self)

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", capture)
    with pytest.raises(Built) as caught:
        call(importlib.import_module(module).main)
    return caught.value.parser


def options(parser, prefix):
    """(command, parser, option strings, action) for every option of `parser` and of its
    subcommands, --help left out."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from options(sub, f"{prefix} {name}")
        elif action.option_strings and not isinstance(action, argparse._HelpAction):
            yield prefix, parser, "/".join(action.option_strings), action


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_option_of_every_command_has_a_help_text(command, monkeypatch):
    found = list(options(built_parser(command, monkeypatch), command))
    assert any(flags == "--debug" for _, _, flags, _ in found)     # the walk reached the options
    missing = [f"{where} {flags}" for where, _, flags, action in found if not action.help]
    assert missing == []


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_option_with_a_default_shows_it_in_help(command, monkeypatch):
    """An option that takes a value and has one by default shows it in --help; a flag (on or
    off) needs none."""
    silent = []
    for where, parser, flags, action in options(built_parser(command, monkeypatch), command):
        if action.nargs == 0 or action.default in (None, argparse.SUPPRESS):
            continue
        shown = parser._get_formatter()._expand_help(action)
        if "default" not in shown or "%(" in shown:
            silent.append(f"{where} {flags}: {shown}")
    assert silent == []


def test_the_papers_commands_show_their_defaults_in_help(capsys):
    """`python -m seq2seq compare-lengths --help` states each option's text and default."""
    from seq2seq.commands.cli import main

    with pytest.raises(SystemExit):
        main(["compare-lengths", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    for text in ("training epochs of each model (default: 8)",
                 "pairs generated for the task (default: 12000)",
                 "the LSTMs' state size (default: 128)", "(default: runs/compare-lengths)",
                 "learn (default: toy-ja-", "seeds the data and the weights (default: 0)"):
        assert text in shown


def test_a_default_that_is_whitespace_is_shown_quoted():
    parser = Parser(prog="p")
    parser.add_argument("--sep", default="\t", help="separator")
    assert "separator (default: '\\t')" in parser.format_help()
