"""How the debugger aids write tensors and arrays: short labels, values, norms and tables."""

import numpy as np


def label(t, numbers=None):
    """A short name for a tensor: its name; else `#k` when op number k of a trace made it; else
    what made it (`<Softmax>`), or `<leaf>` / `<constant>`."""
    if t.name is not None:
        return t.name
    if t.creator is not None:
        if numbers is not None and t.creator in numbers:
            return f"#{numbers[t.creator]}"
        return f"<{type(t.creator).__name__}>"
    return "<leaf>" if t.requires_grad else "<constant>"


def values(a, limit=8):
    """An array's values on one line; a large one is cut short, with its norm."""
    a = np.asarray(a)
    text = np.array2string(a, precision=4, threshold=limit, edgeitems=2, separator=", ",
                           max_line_width=10_000)
    text = " ".join(text.split())
    if a.size > limit and np.issubdtype(a.dtype, np.number):
        text += f"  (norm {norm(a):.4g})"
    return text


def norm(a):
    """The Euclidean norm of all elements (NaN or inf when the array holds one)."""
    a = np.asarray(a)
    if a.dtype == bool or not np.issubdtype(a.dtype, np.number):
        return float("nan")
    with np.errstate(all="ignore"):
        return float(np.sqrt(np.sum(np.square(a, dtype=np.float64))))


def summary(a):
    """Shape, dtype and the facts that explain a NaN: range, and counts of NaN, inf and 0."""
    a = np.asarray(a)
    text = f"shape {a.shape} {a.dtype}"
    if a.size == 0 or not np.issubdtype(a.dtype, np.floating):
        return text
    finite = a[np.isfinite(a)]
    facts = []
    if finite.size:
        facts.append(f"min {finite.min():.4g}, max {finite.max():.4g}")
    for name, count in (("NaN", np.isnan(a).sum()), ("inf", np.isinf(a).sum()),
                        ("zero", (a == 0).sum())):
        if count:
            facts.append(f"{count} {name}{'s' if count > 1 and name == 'zero' else ''}")
    return text + (": " + "; ".join(facts) if facts else "")


def table(header, rows, indent="  "):
    """Rows of strings as a text table with aligned columns (the last one is not padded)."""
    rows = [tuple(header)] + [tuple(str(cell) for cell in row) for row in rows]
    widths = [max(len(row[k]) for row in rows) for k in range(len(header))]
    lines = []
    for row in rows:
        cells = [cell.ljust(width) for cell, width in zip(row[:-1], widths)] + [row[-1]]
        lines.append((indent + "  ".join(cells)).rstrip())
    return "\n".join(lines)


def clip(text, width=40):
    return text if len(text) <= width else text[:width - 3] + "..."
