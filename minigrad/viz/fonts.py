"""A Japanese font that comes with the project, so pictures show Japanese on any machine.

A fresh Debian or Ubuntu, and many notebook images, have no font with Japanese glyphs. There,
matplotlib (the attention heatmaps) and Graphviz (PNG and PDF renders of graphs) draw every
Japanese token as an empty box, and say nothing. So the project depends on a package that ships
a Japanese font:

    matplotlib-fontja   IPAexGothic (kana, the JIS kanji, Latin), the package under the MIT
                        licence and the font under the IPA Font License v1.0 (OSI-approved;
                        free to use and to redistribute unmodified). A 4.2 MB wheel, 6.1 MB
                        installed; maintained, and the usual choice for Japanese in matplotlib.
    not chosen          noto-cjk-sans-jp-regular: a 13.6 MB wheel for one weight, one release;
                        japanize-matplotlib: the same font, unmaintained (fails on Python 3.12);
                        mplfonts: a font manager built around Chinese fonts.

The package is never imported: its import sets rcParams["font.family"] for the whole process.
`font_path()` finds its font file without running it.

matplotlib: attention.figures (the heatmaps of attention and seq2seq) registers the font with
matplotlib's font manager and lists it as a fallback in the font list of the labels it draws,
nowhere else.

Graphviz: the system `dot` and the Graphviz bundled in pygraphviz find fonts through fontconfig.
`fontconfig_file()` writes a small fonts.conf: the configuration fontconfig loads anyway (the
`fonts.conf` it finds by itself, or the file FONTCONFIG_FILE named), plus the font's folder.
FONTCONFIG_FILE points to it for each `dot` the project runs, and for each child Python that
renders with pygraphviz (minigrad.viz.render): fontconfig reads the variable when it starts.
The DOT text keeps its font names: fontconfig falls back, glyph by glyph, to a font that has the
glyph. (Naming IPAexGothic in the DOT `fontname` made pango draw the Latin
text in it too.) Not done on Windows, whose Graphviz has a fontconfig set-up of its own and whose
fonts include Japanese ones.

The Graphviz in pygraphviz's Linux wheels has an older fontconfig. When it starts it also reads
every sample file in /usr/share/fontconfig/conf.avail (a path built into it), and Debian 12
ships one there, 05-reset-dirs-sample.conf, with an element it does not know: it prints
`Fontconfig warning: ".../conf.avail/05-reset-dirs-sample.conf", line 6: unknown element
"reset-dirs"` at its first render in every process (a red box in a notebook). No setting moves
that path, so `without_sample_file_warnings()` takes those lines out of what a render wrote
to stderr before it is passed on.
"""

import contextlib
import functools
import hashlib
import importlib.util
import os
import re
import sys
import tempfile
import unicodedata
import warnings
from html import escape
from pathlib import Path

from minigrad.files import atomic_write
from minigrad.messages import message

FONT_NAME = "IPAexGothic"
PACKAGE = "matplotlib-fontja"
HOW_TO_GET_IT = f"pip install {PACKAGE}"
DRAWN_FORMATS = ("png", "pdf", "jpg", "jpeg", "gif", "bmp", "ps", "eps", "tif", "tiff", "webp")
MARK = "<!-- minigrad.viz.fonts: fontconfig's own configuration, plus a Japanese font -->"
SAMPLE_FILE_WARNING = re.compile(r'^Fontconfig warning: "[^"]*conf\.avail[/\\][^"]*", line \d+: '
                                 r'unknown element')


class FontWarning(UserWarning):
    """Some characters of a picture will be drawn as empty boxes: no font has them."""


@functools.lru_cache(maxsize=1)
def font_path():
    """The font file of matplotlib-fontja, or None when the package is not installed. Found
    without importing the package (its import changes matplotlib's settings)."""
    spec = importlib.util.find_spec("matplotlib_fontja")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        for path in sorted(Path(folder).glob("fonts/*.ttf")):      # fonts/ipaexg.ttf
            return path
    return None


def needs_cjk_font(text):
    """True if `text` has wide (Chinese, Japanese, Korean) characters: the ones a Latin font
    lacks and the bundled font is for."""
    return any(unicodedata.east_asian_width(ch) in ("W", "F", "H") for ch in str(text))


_warned = set()


def warn_once(message):
    """A FontWarning with `message`, the first time only in this process."""
    if message not in _warned:
        _warned.add(message)
        warnings.warn(message, FontWarning, stacklevel=3)


def warn_if_missing(text, format):
    """One FontWarning, naming what to install, if `text` needs the bundled font, it is not
    installed, and `format` is one whose glyphs Graphviz draws (PNG, PDF; not SVG, whose text
    the viewer draws): Graphviz then draws empty boxes unless a system font has the glyphs."""
    drawn = str(format).split(":")[0].lower() in DRAWN_FORMATS
    if drawn and font_path() is None and sys.platform != "win32" and needs_cjk_font(text):
        warn_once(message("fonts.missing", how=HOW_TO_GET_IT))


# ---- fontconfig (Graphviz) -----------------------------------------------------------------

_made = {}      # the configuration in force ("" for fontconfig's own) -> our fonts.conf with it


def fontconfig_file():
    """The path of a fonts.conf that adds the bundled font to the configuration in force
    (FONTCONFIG_FILE, or fontconfig's own), written once (in the user's cache folder, or a
    private temporary one); None where there is no font to add, or on Windows."""
    font = font_path()
    if font is None or sys.platform == "win32":
        return None
    current = os.environ.get("FONTCONFIG_FILE", "")
    if current in _made and Path(_made[current]).is_file():
        return _made[current]
    folder = f"  <dir>{escape(str(font.parent))}</dir>\n"
    if current in _made.values() or _is_ours(current, folder):  # in force already (perhaps
        return current                                          # set by our parent process)
    text = ('<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">\n'
            f"{MARK}\n<fontconfig>\n"
            f'  <include ignore_missing="yes">{escape(current or "fonts.conf")}</include>\n'
            f"{folder}</fontconfig>\n")
    path = _folder() / f"fonts-{hashlib.sha256(text.encode()).hexdigest()[:16]}.conf"
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        atomic_write(path, lambda file: file.write(text), text=True)
    _made[current] = str(path)
    return str(path)


def _is_ours(path, folder):
    """True if `path` is a fonts.conf that fontconfig_file wrote, adding the font `folder`."""
    try:
        text = Path(path).read_text(encoding="utf-8") if path else ""
    except (OSError, UnicodeDecodeError):
        return False
    return MARK in text and folder in text


_temporary_folder = None


def _folder():
    """Where our fonts.conf files go: $XDG_CACHE_HOME/minigrad (~/.cache/minigrad), or a private
    temporary folder where that cannot be written."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = Path(base) / "minigrad"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if os.access(folder, os.W_OK):
            return folder
    except OSError:
        pass
    global _temporary_folder
    if _temporary_folder is None:
        _temporary_folder = Path(tempfile.mkdtemp(prefix="minigrad-fonts-"))
    return _temporary_folder


def subprocess_environment():
    """The environment to run `dot` in: this one, with FONTCONFIG_FILE set to our fonts.conf
    (this one unchanged where there is none)."""
    config = fontconfig_file()
    return dict(os.environ, FONTCONFIG_FILE=config) if config else dict(os.environ)


@contextlib.contextmanager
def environment():
    """FONTCONFIG_FILE set to our fonts.conf during the block, for a `dot` that a library runs
    with this process's environment (graphviz.Digraph.pipe and .render); restored after."""
    config = fontconfig_file()
    before = os.environ.get("FONTCONFIG_FILE")
    if config:
        os.environ["FONTCONFIG_FILE"] = config
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("FONTCONFIG_FILE", None)
        else:
            os.environ["FONTCONFIG_FILE"] = before


def without_sample_file_warnings(text):
    """`text` (what a pygraphviz render wrote to stderr) without fontconfig's warnings about
    unknown elements in its sample files (conf.avail: see the module's docstring)."""
    return "".join(line for line in text.splitlines(keepends=True)
                   if not SAMPLE_FILE_WARNING.match(line))
