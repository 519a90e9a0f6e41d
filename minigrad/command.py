"""Running a command-line tool: every failure is one line on stderr and a non-zero exit status.

    python -m seq2seq train --hidden-size 0      error: --hidden-size must be an integer >= 1, got 0
    python -m seq2seq --debug train ...          the full traceback instead
    MINIGRAD_DEBUG=1 python -m seq2seq ...       the same, for any of the project's tools

A traceback is for the person who wrote the code; the person who typed the command needs to know
what to change, in one line. Any exception becomes that line (its type is named when it is not
a plain bad-input error), Ctrl-C exits with status 130, a closed stdout (`... | head -1`) ends
the command quietly with status 0 (the reader had what it wanted), and `--debug` or
MINIGRAD_DEBUG=1 lets the exception through, traceback and all, for a bug report or a debugger.
"""

import argparse
import errno
import importlib.util
import os
import re
import sys
import traceback

from minigrad import language
from minigrad.files import REASONS, os_error_text
from minigrad.messages import message
from minigrad.settings import SettingError

# Errors whose message says it all; any other type is named in front of its message.
PLAIN = (OSError, ValueError, KeyError, TypeError)

# The project's dependencies (pyproject.toml), by import name. One of them missing means the
# command was run by a Python the project is not installed in: most often the system's `python`
# where the project's environment (.venv, made by `make`) was meant.
DEPENDENCIES = {"numpy", "tqdm", "threadpoolctl", "matplotlib", "matplotlib_fontja", "graphviz",
                "pygraphviz"}


class DefaultsFormatter(argparse.HelpFormatter):
    """`--help` with each option's default after its text, "(default: 128)", unless the text
    says it already; flags (on or off) and options with no default get none."""

    def _get_help_string(self, action):
        text = action.help or ""
        default = action.default
        if (action.nargs == 0 or default is None or default is argparse.SUPPRESS
                or "default" in text or not action.option_strings):
            return text
        shown = repr(default) if isinstance(default, str) and (
            not default.isprintable() or not default or default.strip() != default) else default
        return f"{text} (default: {str(shown).replace('%', '%%')})"


class RawDescriptionDefaultsFormatter(DefaultsFormatter, argparse.RawDescriptionHelpFormatter):
    """DefaultsFormatter, with the description and epilog printed as written."""


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose own errors (`--lr abc`, a missing argument or command) are one
    line, `error: ... (see PROG --help)`, and exit status 2, like every other error of the
    project's tools; argparse would print the whole usage first. Its subcommands' parsers are
    of this class too (add_subparsers makes them of the parser's own type). Its `--help` shows
    each option's default (DefaultsFormatter)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", DefaultsFormatter)
        super().__init__(*args, **kwargs)

    def parse_known_args(self, args=None, namespace=None):
        """argparse's parse_known_args, with the language of the messages taken first from
        `--lang` (minigrad.language.given_in), so that argparse's own errors already speak it."""
        given = language.given_in(sys.argv[1:] if args is None else args)
        if given is not None:
            language.choose(given)
        parsed, rest = super().parse_known_args(args, namespace)
        if getattr(parsed, "lang", None) in language.LANGUAGES:     # as argparse read it
            language.choose(parsed.lang)
        return parsed, rest

    def error(self, text):
        self.exit(2, message("command.usage", message=usage_error(" ".join(text.split())),
                             prog=self.prog) + "\n")


# argparse's messages (Python's own, in English), matched to say them in the chosen language
USAGE_ERRORS = (
    ("argparse.invalid_choice", r"argument (?P<argument>[^:]+): invalid choice: (?P<value>.*) "
                                r"\(choose from (?P<choices>.*)\)"),
    ("argparse.invalid_value",
     r"argument (?P<argument>[^:]+): invalid (?P<kind>\S+) value: (?P<value>.*)"),
    ("argparse.required", r"the following arguments are required: (?P<names>.*)"),
    ("argparse.unrecognized", r"unrecognized arguments: (?P<names>.*)"),
    ("argparse.one_argument", r"argument (?P<argument>[^:]+): expected one argument"),
)


def usage_error(text):
    """argparse's error `text` in the language of the messages, when it is one of the usual
    ones (USAGE_ERRORS); any other is left as argparse wrote it."""
    for key, pattern in USAGE_ERRORS:
        found = re.fullmatch(pattern, text)
        if found:
            values = found.groupdict()
            if key == "argparse.invalid_value" and values["kind"] in ("int", "float"):
                key, values["kind"] = "argparse.invalid_number", message(
                    f"argparse.kind_{values['kind']}")      # 'an int', 'a number': said
            return message(key, **values)
    return text


def add_debug_option(parser, subparsers=None):
    """--debug on the parser and, if given, on each of its subcommands, so that it may be written
    before the subcommand or after it."""
    help = "show the full traceback of an error (or set MINIGRAD_DEBUG=1)"
    parser.add_argument("--debug", action="store_true", help=help)
    for sub in (subparsers.choices.values() if subparsers is not None else ()):
        sub.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help=help)


def debug_wanted(args=None):
    """True with --debug or MINIGRAD_DEBUG set to anything but '' or '0'."""
    return bool(getattr(args, "debug", False)) or os.environ.get("MINIGRAD_DEBUG", "") not in (
        "", "0")


def run(command, debug=False, memory_hint=None):
    """Call `command()`; its return value (None: 0) is the exit status. On an error, print one
    line to stderr and return 1 (130 for Ctrl-C), or re-raise it if `debug`.
    memory_hint() -> a few words on which setting to lower, added to an error about an array
    too big to make (out of memory, or beyond NumPy's largest shape)."""
    try:
        status = command()
    except BrokenPipeError:
        if debug:
            raise
        drop_stdout()                          # so the flush at exit does not raise again
        return 0
    except KeyboardInterrupt:
        if debug:
            raise
        print(message("command.interrupted"), file=sys.stderr)
        return 130
    except SystemExit as error:     # no command of ours calls sys.exit: code it ran did (a
        if debug:                   # --rnn layer file), and exit status 0 would read as a pass
            raise
        print(message("command.exit_called", site=exit_site(error), call=exit_call(error)),
              file=sys.stderr)
        return 1
    except Exception as error:                  # MemoryError and RecursionError included
        if debug:
            raise
        line = one_line(error)
        if too_big(error) and memory_hint is not None:
            hint = memory_hint()
            line += f" ({hint})" if hint else ""
        print(message("command.error", message=line), file=sys.stderr)
        return 1
    return 0 if status is None else status


def exit_call(error):
    """'sys.exit(3)', 'sys.exit()': the call a SystemExit came from, as the code wrote it."""
    return f"sys.exit({'' if error.code is None else repr(error.code)})"


def exit_site(error):
    """'FILE, line N' of the call that raised `error` (the innermost frame of its traceback)."""
    frames = traceback.extract_tb(error.__traceback__)
    if not frames:
        return "code the command ran"
    return f"{frames[-1].filename}, line {frames[-1].lineno}"


def drop_stdout(stream=None):
    """Point stdout (or `stream`, e.g. stderr) at the null device, as Python's docs advise after a
    BrokenPipeError: what is still buffered, and every later write, goes nowhere instead of
    raising again (also at exit, where a failed flush would end the program with status 120)."""
    stream = sys.stdout if stream is None else stream
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        if stream is sys.stdout:
            sys.stdout = open(os.devnull, "w")
        elif stream is sys.stderr:
            sys.stderr = open(os.devnull, "w")


def require(module):
    """Raise now, before any work, the ModuleNotFoundError that importing `module` later would
    (one line, as missing_dependency says it, once run() catches it)."""
    if importlib.util.find_spec(module) is None:
        raise ModuleNotFoundError(f"No module named {module!r}", name=module)


def missing_dependency(error):
    """The line for a dependency of the project that this Python cannot import, or None."""
    name = getattr(error, "name", None) or ""
    if not isinstance(error, ModuleNotFoundError) or name.split(".")[0] not in DEPENDENCIES:
        return None
    return message("command.no_dependency", python=sys.executable, name=name)


def too_big(error):
    """Whether the error says that an array could not be made that big: a MemoryError, or
    NumPy's ValueError for a shape beyond what it can index."""
    return isinstance(error, MemoryError) or (isinstance(error, ValueError) and any(
        words in str(error) for words in ("Maximum allowed dimension", "array is too big")))


def one_line(error):
    """The error as one line: a setting as its option (--lr), the type named unless the error is
    a plain bad-input one, line breaks and tabs of a long message folded into single spaces.
    A run of plain spaces stays as it is: it may be inside a quoted value ('   ', a line of
    three spaces), which must read as what the user wrote."""
    if missing_dependency(error):
        return missing_dependency(error)
    if isinstance(error, SettingError):
        text = error.as_option()
    elif isinstance(error, KeyError) and len(error.args) == 1 and " " not in str(error.args[0]):
        text = message("command.missing_key", key=repr(error.args[0]))  # str() is the key alone
    elif os_error(error):
        text = os_error(error)
    else:
        text = str(error)
    text = re.sub(r" *[^\S ]\s*", " ", text).strip()     # any run holding a break or a tab
    if isinstance(error, MemoryError):
        return message("command.out_of_memory") + (f": {text}" if text else "")
    if isinstance(error, RecursionError):
        return message("command.recursion", text=text)
    if not isinstance(error, PLAIN) or not text:
        return f"{type(error).__name__}: {text}" if text else type(error).__name__
    return text


OS_ERRORS = {errno.ENOENT: "command.no_such_file", errno.EACCES: "command.permission",
             errno.EISDIR: "command.is_a_directory"}


def os_error(error):
    """The line for an OSError as the system raised it ("[Errno 2] No such file or directory:
    'x'"), in the language of the messages, or None for any other error (one whose message the
    project wrote, which says more). The errnos of OS_ERRORS have a line of their own; the
    other usual ones (minigrad.files.REASONS) keep the system's form, their reason said by
    os_reason: "[Errno 36] File name too long: 'x'",
    "ファイル名が長すぎます: 'x' (エラー番号 36)"."""
    if not isinstance(error, OSError) or error.filename is None:
        return None
    if str(error) != f"[Errno {error.errno}] {error.strerror}: {error.filename!r}":
        return None
    if error.errno in OS_ERRORS:
        return message(OS_ERRORS[error.errno], path=os.fspath(error.filename))
    return os_error_text(error) if error.errno in REASONS else None
