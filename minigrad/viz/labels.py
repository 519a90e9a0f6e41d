"""The text inside the boxes and on the arrows: numbers, shapes, op settings, argument positions,
and the HTML-like labels of Graphviz.

Numbers are written so that a small array reads at a glance: integers as integers, and otherwise
four significant digits of the largest entry with at most three decimals, every entry alike
(0.244 0.090 0.662 0.004; 24.28), except that a number too small for those decimals is not
written as zero but in exponent form (1.000 1e-07). Arrays too large to list are summarised
(mean, std, min, max).
"""

import inspect
import math

import numpy as np

from minigrad.versions import saved_arrays

MAX_LISTED = 12          # arrays with more elements than this are summarised
MAX_ROWS = 6             # ... and so are arrays with more rows than this
MAX_SETTING = 40         # characters of one op setting before it is cut with "…"
ORDERLESS = ("Add", "Mul")      # two-input ops whose argument order does not matter

# Colours: one per kind of tensor (the header of its box), and one for gradients.
FILL = {"parameter": "#d4efdf", "input": "#d6eaf8", "constant": "#f2f3f4",
        "intermediate": "#ffffff", "root": "#fdebd0"}
GRAD_COLOR = "#b03a2e"
MUTED_COLOR = "#7f8c8d"
OP_FILL = "#eaecee"
SCOPE_FILL = "#e8daef"
FRAME_COLOR, FRAME_FONT_COLOR = "#a569bd", "#7d3c98"   # the dashed frame of a scope


def escape(text):
    """Text made safe inside an HTML-like label."""
    return (str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def shape_text(shape):
    """(4, 2) -> '(4, 2)'; () -> '()' (a scalar)."""
    return "(" + ", ".join(str(n) for n in shape) + ("," if len(shape) == 1 else "") + ")"


def number_format(array):
    """A function that writes every entry of `array` the same way (see the module docstring)."""
    finite = array[np.isfinite(array)] if array.dtype.kind in "fc" else array
    if array.dtype.kind == "b":
        return lambda v: "T" if v else "F"
    if finite.size == 0 or array.dtype.kind in "iu" or np.all(finite == np.round(finite)):
        if finite.size == 0 or float(np.abs(finite).max()) < 1e6:    # (1e6 in float16: inf)
            return lambda v: _special(v) or str(int(v))
    largest = float(np.abs(finite).max())
    if largest >= 1e5 or largest < 1e-3:
        return lambda v: _special(v) or f"{v:.3g}"
    decimals = min(3, max(0, 3 - math.floor(math.log10(largest))))

    def write(v):
        text = _special(v) or f"{v:.{decimals}f}"
        if v != 0 and float(text) == 0:     # 1e-07 beside 1.0 is not 0.000: a gradient that
            return f"{v:.3g}"               # is tiny but not zero must not read as zero
        return text
    return write


def _special(v):
    if np.isnan(v):
        return "nan"
    if np.isinf(v):
        return "inf" if v > 0 else "-inf"
    return ""


def value_lines(array):
    """The lines that show an array: every entry of a small one (a line per row), or else a
    summary. A (4, 2) array gives four lines of two numbers; a scalar gives one number."""
    array = np.asarray(array)
    if array.dtype.kind not in "biufc":
        return [f"{array.dtype} values"]
    if array.size == 0:
        return ["(empty)"]
    if not listed(array):
        return summary_lines(array)
    write = number_format(array)
    return ["  ".join(write(v) for v in row) for row in _rows(array)]


def listed(array):
    """Whether value_lines lists every entry of a (numeric, non-empty) array, rather than
    summarising it: at most MAX_LISTED entries in at most MAX_ROWS lines."""
    return array.size <= MAX_LISTED and len(_rows(array)) <= MAX_ROWS


def _rows(array):
    rows = array.reshape(-1, array.shape[-1]) if array.ndim > 1 else array.reshape(1, -1)
    return rows.reshape(1, -1) if rows.shape[1] == 1 else rows    # a column (n, 1): one line


def summary_lines(array):
    """mean, std, min, max of a large array, as two lines."""
    data = array.astype(np.float64, copy=False)
    finite = data[np.isfinite(data)]
    if finite.size == 0:
        return ["no finite values"]
    stats = np.array([finite.mean(), finite.std(), finite.min(), finite.max()])
    write = number_format(stats)
    mean, std, low, high = (write(v) for v in stats)
    return [f"mean {mean}  std {std}", f"min {low}  max {high}"]


def short_values(array, limit=4):
    """One short line for an edge: the entries of a tiny array, or its norm."""
    array = np.asarray(array)
    if array.size <= limit:
        write = number_format(array)
        return " ".join(write(v) for v in array.ravel())
    norm = np.array([np.linalg.norm(array.astype(np.float64, copy=False))])
    return f"{shape_text(array.shape)} norm {number_format(norm)(norm[0])}"


# ---------------------------------------------------------------------------------------------
# Ops
# ---------------------------------------------------------------------------------------------

def op_title(op):
    """`Softmax(axis=-1)`: the op's class and its settings; arrays by their shape (a boolean one,
    such as a mask, with how many entries are True), indices as `[:, 0:2]`."""
    settings = ", ".join(f"{name}={_setting(getattr(op, name, '?'))}" for name in op.settings)
    return f"{type(op).__name__}({settings})"


def _setting(value):
    if isinstance(value, np.ndarray) and value.dtype == bool:      # a mask: how much it keeps
        kept = int(value.sum())
        text = f"array{shape_text(value.shape)}, " + (
            "all True" if kept == value.size else f"{kept} of {value.size} True")
    elif isinstance(value, np.ndarray):
        text = f"array{shape_text(value.shape)}"
    elif isinstance(value, slice) or (isinstance(value, tuple) and any(
            isinstance(v, (slice, type(Ellipsis), type(None), np.ndarray)) for v in value)):
        parts = value if isinstance(value, tuple) else (value,)
        text = "[" + ", ".join(_index_part(p) for p in parts) + "]"
    else:
        text = repr(value)
    return text if len(text) <= MAX_SETTING else text[:MAX_SETTING - 1] + "…"


def _index_part(part):
    if isinstance(part, slice):
        start = "" if part.start is None else str(part.start)
        stop = "" if part.stop is None else str(part.stop)
        return f"{start}:{stop}" + ("" if part.step is None else f":{part.step}")
    if part is Ellipsis:
        return "..."
    if part is None:
        return "None"
    if isinstance(part, np.ndarray):
        return f"array{shape_text(part.shape)}"
    return repr(part)


# ---------------------------------------------------------------------------------------------
# HTML-like labels
# ---------------------------------------------------------------------------------------------

def table(rows, border=1, color="#555555"):
    """A Graphviz HTML-like table label with one cell per row."""
    body = "".join(f"<TR>{row}</TR>" for row in rows)
    return (f'<<TABLE BORDER="{border}" CELLBORDER="0" CELLSPACING="0" CELLPADDING="3" '
            f'COLOR="{color}">{body}</TABLE>>')


def cell(lines, fill=None, color=None, size=None, bold_first=False):
    """One table cell holding `lines` (already escaped), each on its own line."""
    lines = list(lines)
    if bold_first and lines:
        lines[0] = f"<B>{lines[0]}</B>"
    text = "<BR/>".join(lines)
    if color or size:
        attrs = (f' COLOR="{color}"' if color else "") + (f' POINT-SIZE="{size}"' if size else "")
        text = f"<FONT{attrs}>{text}</FONT>"
    background = f' BGCOLOR="{fill}"' if fill else ""
    return f'<TD{background} ALIGN="CENTER">{text}</TD>'


def tensor_label(t, name, kind, values=True, grad=None, show_grad=False):
    """The box of a tensor: name, shape and dtype on top; then its values; then its gradient.

    kind       'parameter', 'input', 'constant', 'intermediate' or 'root' (the header's colour)
    grad       the gradient to show, or None; `show_grad` also writes 'grad none' for a tensor
               that wants a gradient but got none
    """
    header = f"{shape_text(t.shape)} {t.dtype}"
    lines = [escape(name), escape(header)] if name else [escape(header)]
    rows = [cell(lines, fill=FILL[kind], bold_first=bool(name))]
    if values:
        rows.append(cell([escape(line) for line in value_lines(t.data)]))
    if grad is not None:
        lines = value_lines(grad)
        lines = ["grad " + lines[0]] if len(lines) == 1 else ["grad"] + lines
        rows.append(cell([escape(line) for line in lines], color=GRAD_COLOR))
    elif show_grad and t.requires_grad:
        rows.append(cell(["grad none"], color=MUTED_COLOR))
    return table(rows, border=2 if kind == "root" else 1)


def op_label(op, step=None, saved=False):
    """The box of an op: `Softmax(axis=-1)`; the backward step that visits it; what it saved."""
    lines = [escape(op_title(op))]
    if step is not None:
        lines.append(f'<FONT COLOR="{GRAD_COLOR}">backward #{step}</FONT>')
    if saved:
        for name, array in saved_arrays(op, with_settings=False):
            inputs = [i for i, x in enumerate(op.inputs) if x.data is array]
            origin = f" = input {inputs[0]}" if inputs else ""
            lines.append(f'<FONT POINT-SIZE="9" COLOR="{MUTED_COLOR}">saved {escape(name)} '
                         f'{escape(shape_text(array.shape))}{origin}</FONT>')
    return "<" + "<BR/>".join(lines) + ">"


def scope_label(name, ops, steps=None, parameters=()):
    """The box of a collapsed scope: its name, how many ops it holds and of which kinds, and
    how many parameters (and numbers in them) it holds, those used only inside it."""
    counts = {}
    for op in ops:
        counts[type(op).__name__] = counts.get(type(op).__name__, 0) + 1
    kinds = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    summary = ", ".join(f"{kind} ×{n}" if n > 1 else kind for kind, n in kinds[:4])
    if len(kinds) > 4:
        summary += ", …"
    lines = [f"<B>{escape(name)}</B>", f"{len(ops)} ops: {escape(summary)}"]
    if parameters:
        lines.append(parameters_text(parameters))
    if steps:
        lines.append(f'<FONT COLOR="{GRAD_COLOR}">backward #{steps[0]}–#{steps[-1]}</FONT>')
    return "<" + "<BR/>".join(lines) + ">"


def parameters_text(parameters):
    """'1 parameter: 12 numbers', '4 parameters: 12,544 numbers' (the explorer writes the same)."""
    numbers = sum(int(p.data.size) for p in parameters)
    return (f"{len(parameters)} parameter{'' if len(parameters) == 1 else 's'}: "
            f"{numbers:,} number{'' if numbers == 1 else 's'}")


# ---------------------------------------------------------------------------------------------
# Arrows
# ---------------------------------------------------------------------------------------------

def argument_labels(op):
    """The label of each input's arrow: its position where order matters, with the parameter
    name of `forward` for ops of three or more inputs; None for ops where it does not."""
    n = len(op.inputs)
    if n < 2 or type(op).__name__ in ORDERLESS:
        return [None] * n
    params = [p for p in inspect.signature(type(op).forward).parameters.values()
              if p.name != "self"]
    named = n > 2 and len(params) == n and all(p.kind == p.POSITIONAL_OR_KEYWORD for p in params)
    return [f"{i} {params[i].name}" if named else str(i) for i in range(n)]


def arrow(x, position, grad_x):
    """An input's arrow: its position (where it matters) and the gradient flowing back along it;
    grey and dashed when the input wants no gradient."""
    attrs = {} if x.requires_grad else {"style": "dashed", "color": MUTED_COLOR}
    lines = [] if position is None else [escape(position)]
    if grad_x is not None:
        text = escape("∂ " + short_values(grad_x))
        lines.append(f'<FONT COLOR="{GRAD_COLOR}">{text}</FONT>')
    if lines:
        attrs["label"] = "<" + "<BR/>".join(lines) + ">"
    return attrs
