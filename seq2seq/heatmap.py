"""Attention weights as a picture: in the terminal (`text_heatmap`) or as a matplotlib figure
(`plot_heatmap`), which Jupyter shows inline and which is written to a file when given a path.

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
than MAX_TEXT_TOKENS (100) tokens a side, which no terminal shows (draw a figure instead), and
`plot_heatmap` keeps its figure within attention.figures.MAX_FIGURE_INCHES (40 inches, 4,000
pixels) a side, labelling only every k-th token when they no longer fit (2,000 tokens once asked
matplotlib for an 80,000-pixel-wide canvas, which died allocating it).

A Transformer attends with several heads in each of its layers: `plot_layer_heads` draws them
all, a grid with a row per layer and a column per head (translate --plot); the text heatmap and
`plot_heatmap` show the last layer's, its heads averaged (what `Translation.weights` holds).

matplotlib is imported by the functions that plot only: the text heatmap needs numpy alone.
"""

import unicodedata

import numpy as np

from seq2seq.commands.messages import message

SHADES = " ░▒▓█"            # weight 0 .. 1, in five equal steps
MAX_HEADER = 10              # longer source tokens are cut, with "…", in the column headers
MAX_TEXT_TOKENS = 100        # rows or columns of a text heatmap: 200+ terminal cells already
MAX_TITLE = 80               # characters of the figure's title; a longer one is cut, with "…"


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
    lines.append(message("heatmap.legend", shades=f"{steps} ≤ {SHADES[-1]!r}"))
    return "\n".join(lines)


# ---- a figure --------------------------------------------------------------------------------

def plot_heatmap(weights, source_tokens, target_tokens, path=None, title=None, overwrite=False):
    """The weights as a matplotlib Figure, returned (Jupyter shows it inline): source tokens
    along the x axis, output tokens down the y axis, and a colour bar. With a `path`, it is also
    written there (PNG, or the format the suffix names), atomically.

    Drawn with matplotlib's Agg canvas, without pyplot, so nothing global changes (see
    attention.figures). Japanese is drawn in the font the project ships (see
    attention.figures.font_family); a glyph that no font has is drawn as an empty box, with one
    FontWarning in the process instead of matplotlib's warnings, one per glyph and draw. The
    figure is at most attention.figures.MAX_FIGURE_INCHES a side: for a long sentence every cell
    is still drawn, but only every k-th token is labelled.
    """
    import matplotlib

    from attention import figures

    weights = _check(weights, source_tokens, target_tokens)                 # (T, S)
    n_target, n_source = weights.shape
    source_labels = [_visible(t) for t in source_tokens]
    target_labels = [_visible(t) for t in target_tokens]
    if title and len(title) > MAX_TITLE:
        title = title[:MAX_TITLE - 1] + "…"
    width, x_stride = figures.figure_axis(n_source, 0.4, 1.5, least=4.0)
    height, y_stride = figures.figure_axis(n_target, 0.35, 1.2, least=3.0)
    family = figures.font_family(source_labels + target_labels + [title or ""])
    with figures.quiet_glyphs(), matplotlib.rc_context({"font.family": family}):
        figure = figures.Figure(figsize=(width, height))
        ax = figure.add_subplot()
        image = figures.draw_weights(ax, weights, source_labels, target_labels, x_stride, y_stride)
        ax.set_xlabel("source token" + (f" (1 in {x_stride} labelled)" if x_stride > 1 else ""))
        ax.set_ylabel("output token" + (f" (1 in {y_stride} labelled)" if y_stride > 1 else ""))
        if title:
            ax.set_title(title, **figures.PLAIN)          # "$x^2$" as written, not as math
        figure.colorbar(image, ax=ax, label="attention weight")
        figure.tight_layout()
    if path is not None:
        figures.save(figure, path, overwrite=overwrite)
    return figure


def check_grid(layers, heads):
    """Refuse more layers x heads than one grid of heatmaps draws (attention.figures.MAX_PANELS),
    in one line, so that `translate --plot` can say so before it translates."""
    from attention.figures import MAX_PANELS

    if layers * heads > MAX_PANELS:
        raise ValueError(f"{layers} layer{'s' * (layers != 1)} of {heads} heads make "
                         f"{layers * heads} heatmaps, and a grid draws at most {MAX_PANELS}: "
                         f"draw some of them with attention.figures.plot_heads")


def plot_layer_heads(weights, source_tokens, target_tokens, path=None, title=None,
                     overwrite=False):
    """A Transformer's cross-attention, every layer and head (Translator.cross_attention):
    weights (L, H, T, S) as a grid of heatmaps, one row per layer and one column per head
    ("layer 0 head 0": both from 0, as the drawings name their scopes), each with the source
    tokens along the x axis and the output tokens down the y axis, labelled as plain text as
    plot_heatmap's are, and one colour bar (attention.figures.plot_heads, which bounds the
    figure's size). Returns the Figure; with a `path` it is also written there."""
    from attention.figures import plot_heads, save

    weights = np.asarray(weights, dtype=np.float64)
    if weights.ndim != 4:
        raise ValueError(f"weights of shape {weights.shape}, expected (layers, heads, target "
                         f"tokens, source tokens)")
    layers, heads = weights.shape[:2]
    check_grid(layers, heads)
    matrices = [_check(w, source_tokens, target_tokens)                    # L H of (T, S)
                for w in weights.reshape(-1, *weights.shape[2:])]
    if title and len(title) > MAX_TITLE:
        title = title[:MAX_TITLE - 1] + "…"
    titles = [f"layer {i} head {h}" for i in range(layers) for h in range(heads)]
    figure = plot_heads(matrices, target_tokens, source_tokens, title=title, columns=heads,
                        titles=titles)
    figure.supxlabel("source token")
    figure.supylabel("output token")
    if path is not None:
        save(figure, path, overwrite=overwrite)
    return figure
