"""Attention weights as a picture: in the terminal (`text_heatmap`) or as a PNG (`plot_heatmap`).

weights[t, s] is how much output token t looked at source token s while it was produced: one
row per output token, one column per source token, each row summing to 1.

    >>> print(text_heatmap(weights, ["ねこ", "が", "さかな", "を", "たべる"],
    ...                    ["the", "cat", "eats", "fish", "<eos>"]))
           ね が さ を た
           こ    か    べ
                 な    る
      the │▓▓▓
      cat │███
     eats │         ░░░▓▓▓
     fish │      ▒▒▒░░░
    <eos> │            ███
    weight:  ' ' < 0.2 ≤ '░' < 0.4 ≤ '▒' < 0.6 ≤ '▓' < 0.8 ≤ '█'

(The verb "たべる" comes last in Japanese but third in English: the crossing is the picture.)

Sizes are bounded, so a long sentence cannot make an absurd picture: `text_heatmap` refuses more
than MAX_TEXT_TOKENS (100) tokens a side, which no terminal shows (draw a PNG instead), and
`plot_heatmap` keeps its figure within MAX_FIGURE_INCHES (40 inches, 4,000 pixels) a side,
labelling only every k-th token when they no longer fit (2,000 tokens once asked matplotlib for
an 80,000-pixel-wide canvas, which died allocating it).
"""

import functools
import math
import unicodedata
from pathlib import Path

import numpy as np

from minigrad.files import atomic_write

SHADES = " ░▒▓█"            # weight 0 .. 1, in five equal steps
MAX_HEADER = 10              # longer source tokens are cut, with "…", in the column headers
MAX_TEXT_TOKENS = 100        # rows or columns of a text heatmap: 200+ terminal cells already
MAX_FIGURE_INCHES = 40.0     # a side of the PNG: 4,000 pixels at 100 dpi, 64 MB to draw
MAX_TITLE = 80               # characters of the PNG's title; a longer one is cut, with "…"


def display_width(text):
    """Terminal cells `text` takes: 2 for wide (East Asian) characters, 0 for combining marks."""
    width = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


def _pad(text, width, right=False):
    space = " " * max(0, width - display_width(text))
    return space + text if right else text + space


def _visible(token):
    """A token as it is shown: whitespace (a space is a token at the character level) as "␣"."""
    return "".join("␣" if ch.isspace() else ch for ch in str(token)) or "␣"


def _check(weights, source_tokens, target_tokens):
    weights = np.asarray(weights, dtype=np.float64)
    expected = (len(target_tokens), len(source_tokens))
    if weights.shape != expected:
        raise ValueError(f"weights have shape {weights.shape}, expected (target tokens, source "
                         f"tokens) = {expected}")
    return weights


def text_heatmap(weights, source_tokens, target_tokens):
    """The weights as text: source tokens written downwards over the columns, output tokens at
    the start of the rows, each cell shaded with SHADES by its weight (clipped to [0, 1]).

    A column is one character wider than the widest header character: 2 terminal cells, or 3
    when a header has a wide (Japanese) character. More than MAX_TEXT_TOKENS output or source
    tokens is a ValueError: such a picture fits no terminal; `plot_heatmap` draws it."""
    weights = _check(weights, source_tokens, target_tokens)                 # (T, S)
    if max(weights.shape) > MAX_TEXT_TOKENS:
        raise ValueError(f"a text heatmap shows at most {MAX_TEXT_TOKENS} output and "
                         f"{MAX_TEXT_TOKENS} source tokens, not {weights.shape[0]} x "
                         f"{weights.shape[1]}: draw a PNG with plot_heatmap (translate --plot)")
    levels = np.floor(np.clip(np.nan_to_num(weights), 0.0, 1.0) * len(SHADES))
    levels = np.minimum(levels, len(SHADES) - 1).astype(int)               # (T, S) in 0..4
    labels = [_visible(t) for t in target_tokens]
    label_width = max([display_width(label) for label in labels], default=0)
    headers = [_visible(t) for t in source_tokens]
    headers = [h if len(h) <= MAX_HEADER else h[:MAX_HEADER - 1] + "…" for h in headers]
    margin = " " * (label_width + 2)                # the labels, then " │"
    cell = 1 + max([display_width(ch) for h in headers for ch in h], default=1)   # a gap after each

    lines = []
    for row in range(max([len(h) for h in headers], default=0)):
        cells = [_pad(h[row] if row < len(h) else "", cell) for h in headers]
        lines.append((margin + "".join(cells)).rstrip())
    for label, row in zip(labels, levels):
        cells = "".join(SHADES[level] * cell for level in row)
        lines.append((_pad(label, label_width, right=True) + " │" + cells).rstrip())
    steps = " ≤ ".join(f"{shade!r} < {(i + 1) / len(SHADES):.1f}"
                       for i, shade in enumerate(SHADES[:-1]))
    lines.append(f"weight:  {steps} ≤ {SHADES[-1]!r}")
    return "\n".join(lines)


# ---- PNG -----------------------------------------------------------------------------------

# Fonts that have Japanese (kana and kanji) glyphs, looked for when a token needs one
CJK_FONT_HINTS = ("Noto Sans CJK", "Noto Serif CJK", "Noto Sans JP", "Source Han Sans",
                  "IPAexGothic", "IPAGothic", "IPAPGothic", "TakaoGothic", "VL Gothic",
                  "Droid Sans Fallback", "WenQuanYi", "Hiragino", "Yu Gothic", "MS Gothic",
                  "Meiryo", "Unifont")


@functools.lru_cache(maxsize=1)
def _cjk_fonts():
    """(name, set of code points) of the fonts that can draw Japanese: first the one the project
    ships (minigrad.viz.fonts), registered with matplotlib's font manager here, then the
    installed fonts named in CJK_FONT_HINTS. Registering adds a font matplotlib may use; it
    changes no setting (rcParams)."""
    from matplotlib import font_manager
    from matplotlib.ft2font import FT2Font

    from minigrad.viz import fonts
    known = {entry.fname for entry in font_manager.fontManager.ttflist}
    bundled = fonts.font_path()
    for path in [str(bundled)] if bundled else []:
        if path not in known:
            font_manager.fontManager.addfont(path)
    for path in font_manager.findSystemFonts():     # fonts installed after matplotlib's font cache
        if path not in known:                       # was built are not in its list yet
            try:
                font_manager.fontManager.addfont(path)
            except (OSError, RuntimeError, ValueError):
                continue
    found = []
    for entry in font_manager.fontManager.ttflist:
        ours = bundled is not None and Path(entry.fname) == bundled
        if ours or any(hint.lower() in entry.name.lower() for hint in CJK_FONT_HINTS):
            try:
                charmap = frozenset(FT2Font(entry.fname).get_charmap())
            except (OSError, RuntimeError, ValueError):
                continue                            # a font file FreeType cannot read
            found.append((not ours, entry.name, charmap))
    return [(name, charmap) for _, name, charmap in sorted(found, key=lambda f: f[0])]


def _default_charmap():
    """The code points of the font matplotlib draws text in by default (DejaVu Sans, usually)."""
    from matplotlib import font_manager, rcParams
    from matplotlib.ft2font import FT2Font
    path = font_manager.findfont(font_manager.FontProperties(family=rcParams["font.family"]))
    return frozenset(FT2Font(path).get_charmap())


def font_family(tokens):
    """The font list to draw `tokens` with: matplotlib's default font, then, as fallbacks, fonts
    that have the glyphs it lacks (Japanese, say): the project's Japanese font first. matplotlib
    (>= 3.6) takes each glyph from the first font in the list that has it. Characters no font
    has get one FontWarning (naming what to install), as they would be drawn as empty boxes."""
    from matplotlib import rcParams

    from minigrad.viz import fonts
    family = list(rcParams["font.family"])
    needed = {ord(ch) for token in tokens for ch in str(token)} - _default_charmap()
    needed = {code for code in needed if not unicodedata.category(chr(code)).startswith("C")}
    for name, charmap in _cjk_fonts() if needed else []:
        if needed & charmap:
            family += [name] if name not in family else []
            needed -= charmap
    if needed:
        sample = "".join(chr(code) for code in sorted(needed)[:10])
        why = "no installed font has them"
        if fonts.font_path() is None and fonts.needs_cjk_font(sample):
            why = f"the project's Japanese font is not installed; {fonts.HOW_TO_GET_IT}"
        fonts.warn_once(f"the heatmap draws {sample!r} as empty boxes: {why}")
    return family


def _figure_axis(n, per_token, margin, least):
    """(inches, label stride) along one axis of the PNG: `per_token` inches for each of the `n`
    tokens, plus a `margin`, while that fits in MAX_FIGURE_INCHES; past that the axis stays that
    long and only every stride-th token is labelled, so the labels still do not overlap."""
    inches = max(least, margin + per_token * n)
    if inches <= MAX_FIGURE_INCHES:
        return inches, 1
    return MAX_FIGURE_INCHES, math.ceil(per_token * n / (MAX_FIGURE_INCHES - margin))


def plot_heatmap(weights, source_tokens, target_tokens, path, title=None):
    """Draw the weights to an image file (PNG, or the format its suffix names; written
    atomically): source tokens along the x axis, output tokens down the y axis, and a colour
    bar. Returns `path`.

    Drawn with matplotlib's Agg canvas, without pyplot, so nothing global changes. Japanese is
    drawn in the font the project ships (see `font_family`); a glyph that no font has is drawn
    as an empty box, with one FontWarning in the process instead of matplotlib's warnings, one
    per glyph and draw. The figure is at most MAX_FIGURE_INCHES a side:
    for a long sentence every cell is still drawn, but only every k-th token is labelled.
    """
    import warnings

    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    weights = _check(weights, source_tokens, target_tokens)                 # (T, S)
    n_target, n_source = weights.shape
    source_labels = [_visible(t) for t in source_tokens]
    target_labels = [_visible(t) for t in target_tokens]
    if title and len(title) > MAX_TITLE:
        title = title[:MAX_TITLE - 1] + "…"
    width, x_stride = _figure_axis(n_source, 0.4, 1.5, least=4.0)
    height, y_stride = _figure_axis(n_target, 0.35, 1.2, least=3.0)
    family = font_family(source_labels + target_labels + [title or ""])
    with warnings.catch_warnings(), matplotlib.rc_context({"font.family": family}):
        warnings.filterwarnings("ignore", message=r"Glyph \d+ .*missing from")
        figure = Figure(figsize=(width, height))
        FigureCanvasAgg(figure)
        ax = figure.add_subplot()
        image = ax.imshow(weights, cmap="viridis", vmin=0.0, vmax=1.0, aspect="auto")
        upright = all(len(label) == 1 for label in source_labels)         # characters
        ax.set_xticks(range(0, n_source, x_stride), source_labels[::x_stride],
                      rotation=0 if upright else 90)
        ax.set_yticks(range(0, n_target, y_stride), target_labels[::y_stride])
        ax.set_xlabel("source token" + (f" (1 in {x_stride} labelled)" if x_stride > 1 else ""))
        ax.set_ylabel("output token" + (f" (1 in {y_stride} labelled)" if y_stride > 1 else ""))
        if title:
            ax.set_title(title)
        figure.colorbar(image, ax=ax, label="attention weight")
        figure.tight_layout()
        format = Path(path).suffix.lstrip(".").lower() or "png"
        atomic_write(path, lambda file: figure.savefig(file, format=format, dpi=100))
    return path
