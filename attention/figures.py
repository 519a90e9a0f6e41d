"""Attention weights as pictures, with matplotlib: figures that Jupyter shows inline, written to a
file only when a path is given.

    from attention.figures import plot_heads
    mha = MultiHeadAttention(embed_dim=8, num_heads=4)
    mha(x, x, x)
    plot_heads(mha.head_weights[0], tokens, tokens)     # one heatmap per head, in a grid

Figure       a matplotlib Figure on the Agg canvas that shows itself in Jupyter (`_repr_png_`)
save         write a figure atomically, in the format the file's suffix names
draw_weights one heatmap on a matplotlib Axes, labelling every k-th token when they do not fit
plot_heads   one heatmap per head (or per matrix of a list), in a grid, with one colour bar
font_family  the fonts that have the glyphs of some tokens (Japanese, say)

This module imports matplotlib when it is imported, so it is itself imported only where a
picture is drawn: `import attention` does not import it.
"""

import contextlib
import functools
import io
import math
import os
import unicodedata
import warnings
from pathlib import Path

import matplotlib
import matplotlib.figure
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg

from minigrad.files import atomic_write
from attention.messages import message

MAX_FIGURE_INCHES = 40.0     # a side of a figure: 4,000 pixels at 100 dpi, 64 MB to draw
MAX_PANELS = 64              # heatmaps in one grid

# The Text properties of every label and title made from data (tokens, a translation, a title
# given by the caller): drawn as written. matplotlib would otherwise read a token "$x^2$" as
# mathtext and draw x², stop at "$\frac{a}{$" with a parse error, and, where a user's settings
# say text.usetex, hand the token to LaTeX, which reads "_" and "%" as commands.
PLAIN = {"parse_math": False, "usetex": False}


class Figure(matplotlib.figure.Figure):
    """A matplotlib Figure drawn with the Agg canvas, that Jupyter shows inline as a PNG.

    It is made without pyplot, so nothing global changes: no backend is chosen (a notebook keeps
    its inline one), no window opens, and pyplot does not hold on to the figure. Jupyter shows an
    object by asking it for a picture; a plain Figure has an answer only once pyplot has loaded
    the inline backend, so this one gives its own PNG (`_repr_png_`) in either case."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        FigureCanvasAgg(self)

    def _repr_png_(self):
        buffer = io.BytesIO()
        with quiet_glyphs():
            self.savefig(buffer, format="png", dpi=100, bbox_inches="tight")
        return buffer.getvalue()


@contextlib.contextmanager
def quiet_glyphs():
    """Keep matplotlib quiet about glyphs no installed font has: the token is drawn with empty
    boxes, which says it already, once per character and not as a warning per glyph."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"Glyph \d+ .*missing from")
        yield


MARK = "minigrad figure"    # in the metadata of every figure saved here: such a file may be
                            # replaced by the next one; any other file only with overwrite=True
MARK_KEYS = {"png": "Software", "pdf": "Creator", "svg": "Creator", "ps": "Creator",
             "eps": "Creator"}


def save(figure, path, dpi=100, overwrite=False):
    """Write `figure` to `path` (PNG, or the format its suffix names), atomically: a reader sees
    the old file or the new one, and a symlink at `path` is replaced, not its target. Returns
    `path`. A file already there is replaced only when an earlier figure of ours wrote it (its
    metadata says so), or with `overwrite`: a thesis.pdf is never lost to a heatmap. A symbolic
    link there (even a broken one) is the user's too, never ours: replaced, not its target, and
    only with `overwrite`."""
    path = check_figure_path(path, overwrite)
    format = path.suffix.lstrip(".").lower() or "png"
    metadata = {MARK_KEYS[format]: MARK} if format in MARK_KEYS else None
    with quiet_glyphs():
        atomic_write(path, lambda file: figure.savefig(file, format=format, dpi=dpi,
                                                       metadata=metadata))
    return path


FORMATS = ("png", "pdf", "svg", "svgz", "ps", "eps", "jpg", "jpeg", "tif", "tiff", "webp",
           "pgf", "raw", "rgba")                # matplotlib's, with Pillow for jpg, tif, webp


def check_figure_path(path, overwrite=False):
    """What `save` would refuse, checked before a command does the work the figure shows (a
    translation, a training): a folder that does not exist, a format matplotlib does not write,
    a file or a symbolic link there that no figure of ours wrote, without `overwrite`. Returns
    the path as a Path."""
    from minigrad.files import no_directory
    path = Path(path)
    format = path.suffix.lstrip(".").lower() or "png"
    if format not in FORMATS:
        raise ValueError(message("figure.not_format", path=path, format=format))
    if not path.parent.is_dir():
        raise no_directory(path, "draw")
    if os.path.lexists(path) and not overwrite and (path.is_symlink() or not _ours(path)):
        raise FileExistsError(message("figure.symlink" if path.is_symlink() else
                                      "figure.not_ours", path=path))
    return path


def _ours(path, limit=50_000_000):
    """Whether the file at `path` is a figure saved here (its metadata holds MARK)."""
    try:
        return path.is_file() and path.stat().st_size < limit and MARK.encode() in path.read_bytes()
    except OSError:
        return False


def visible(token):
    """A token as it is shown: whitespace (a space is a token at the character level) as "␣"."""
    return "".join("␣" if ch.isspace() else ch for ch in str(token)) or "␣"


def figure_axis(n, per_token, margin, least, most=MAX_FIGURE_INCHES):
    """(inches, label stride) along one axis: `per_token` inches for each of the `n` tokens, plus
    a `margin`, while that fits in `most`; past that the axis stays that long and only every
    stride-th token is labelled, so the labels still do not overlap. (2,000 tokens once asked
    matplotlib for an 80,000-pixel-wide canvas, which died allocating it.)"""
    inches = max(least, margin + per_token * n)
    if inches <= most:
        return inches, 1
    return most, math.ceil(per_token * n / max(most - margin, per_token))


def draw_weights(axes, weights, x_labels=None, y_labels=None, x_stride=1, y_stride=1):
    """A heatmap of `weights` (rows, columns) on `axes`, coloured from 0 to 1; every x_stride-th
    column and y_stride-th row labelled when labels are given, as plain text (PLAIN). Returns the
    image (for a colour bar)."""
    image = axes.imshow(weights, cmap="viridis", vmin=0.0, vmax=1.0, aspect="auto")
    rows, columns = weights.shape
    if x_labels is None:
        axes.set_xticks([])
    else:
        upright = all(len(label) == 1 for label in x_labels)               # characters
        axes.set_xticks(range(0, columns, x_stride), x_labels[::x_stride],
                        rotation=0 if upright else 90, **PLAIN)
    if y_labels is None:
        axes.set_yticks([])
    else:
        axes.set_yticks(range(0, rows, y_stride), y_labels[::y_stride], **PLAIN)
    return image


def weight_matrices(weights):
    """A list of 2-D float arrays: one per head of (H, Tq, Tk) weights, the matrices of a list,
    or the one matrix of (Tq, Tk) weights."""
    if isinstance(weights, (list, tuple)):
        matrices = [np.asarray(w, dtype=np.float64) for w in weights]
    else:
        weights = np.asarray(weights, dtype=np.float64)
        if weights.ndim == 4:
            raise ValueError(message("figure.sentences", shape=weights.shape,
                                     count=weights.shape[0]))
        if weights.ndim not in (2, 3):
            raise ValueError(message("figure.weights_shape", shape=weights.shape))
        matrices = list(weights) if weights.ndim == 3 else [weights]
    for i, matrix in enumerate(matrices):
        if matrix.ndim != 2:
            raise ValueError(message("figure.matrix_shape", index=i, shape=matrix.shape))
    if not 1 <= len(matrices) <= MAX_PANELS:
        raise ValueError(message("figure.panels", count=len(matrices), most=MAX_PANELS))
    return matrices


def plot_heads(weights, query_tokens=None, key_tokens=None, path=None, title=None, columns=4,
               titles=None, overwrite=False):
    """One heatmap per attention head, in a grid of `columns`, with one colour bar: rows are
    queries, columns keys. Returns the Figure (Jupyter shows it); with a `path` it is also
    written there (PNG, or the format the suffix names).

    weights: (H, Tq, Tk), say `MultiHeadAttention.head_weights[b]` for sentence b, or a list of
    (Tq, Tk) matrices (of any sizes: weights of different layers or steps). Tokens, when given,
    label the axes of every panel, so each matrix must then be (len(query_tokens),
    len(key_tokens)). `titles` name the panels (default "head 0", "head 1", ...)."""
    matrices = weight_matrices(weights)
    for i, matrix in enumerate(matrices):
        for axis, tokens, side in ((0, query_tokens, "query"), (1, key_tokens, "key")):
            if tokens is not None and matrix.shape[axis] != len(tokens):
                raise ValueError(message(f"figure.{side}_tokens", index=i, shape=matrix.shape,
                                         count=len(tokens)))
    titles = [f"head {h}" for h in range(len(matrices))] if titles is None else list(titles)
    if len(titles) != len(matrices):
        raise ValueError(message("figure.titles", titles=len(titles), matrices=len(matrices)))
    columns = max(1, min(columns, len(matrices)))
    rows = math.ceil(len(matrices) / columns)
    width, x_stride = figure_axis(max(m.shape[1] for m in matrices), 0.3, 1.0, least=2.5,
                                  most=MAX_FIGURE_INCHES / columns)
    height, y_stride = figure_axis(max(m.shape[0] for m in matrices), 0.3, 0.8, least=2.0,
                                   most=MAX_FIGURE_INCHES / rows)
    x_labels = None if key_tokens is None else [visible(t) for t in key_tokens]
    y_labels = None if query_tokens is None else [visible(t) for t in query_tokens]
    family = font_family((x_labels or []) + (y_labels or []) + [title or ""] + titles)
    with quiet_glyphs(), matplotlib.rc_context({"font.family": family}):
        figure = Figure(figsize=(width * columns + 1.0, height * rows), layout="constrained")
        grid = figure.subplots(rows, columns, squeeze=False)
        for axes, matrix, name in zip(grid.flat, matrices, titles):
            image = draw_weights(axes, matrix, x_labels, y_labels, x_stride, y_stride)
            axes.set_title(name, **PLAIN)
        for axes in grid.flat[len(matrices):]:
            axes.set_axis_off()                                 # the grid's empty places
        figure.colorbar(image, ax=grid, label="attention weight", shrink=0.8)
        if title:
            figure.suptitle(title, **PLAIN)
    if path is not None:
        save(figure, path, overwrite=overwrite)
    return figure


# ---- fonts ---------------------------------------------------------------------------------

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
    from minigrad.viz import fonts
    family = list(matplotlib.rcParams["font.family"])
    needed = {ord(ch) for token in tokens for ch in str(token)} - _default_charmap()
    needed = {code for code in needed if not unicodedata.category(chr(code)).startswith("C")}
    for name, charmap in _cjk_fonts() if needed else []:
        if needed & charmap:
            family += [name] if name not in family else []
            needed -= charmap
    if needed:
        sample = "".join(chr(code) for code in sorted(needed)[:10])
        why = message("figure.no_font")
        if fonts.font_path() is None and fonts.needs_cjk_font(sample):
            why = message("figure.no_japanese_font", how=fonts.HOW_TO_GET_IT)
        fonts.warn_once(message("figure.empty_boxes", sample=sample, why=why))
    return family
