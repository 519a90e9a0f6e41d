"""Turning DOT text into a picture, with whichever Graphviz there is.

Two engines do the same layout (Graphviz's `dot`):
    "dot"         the system's `dot` program, if it is on the PATH
    "pygraphviz"  the Graphviz libraries bundled in the pygraphviz wheel, run in a child Python: no
                  program to install and no admin rights (wheels for Linux x86-64 and aarch64,
                  macOS, and Windows x86-64)
"auto" takes the system `dot` where there is one, and pygraphviz otherwise. Both find the
Japanese font the project ships (minigrad.viz.fonts), so Japanese labels are not empty boxes.

    render(draw_graph(loss), "loss.svg")      # also writes loss.dot, the DOT text (never over
                                              # a loss.dot that render did not write)
"""

import re
import shutil
import subprocess
import sys
from pathlib import Path

from minigrad.files import atomic_write, no_directory, refuse_existing
from minigrad.messages import message
from minigrad.viz import dot, fonts

ENGINES = ("auto", "dot", "pygraphviz")
SOURCE_FORMATS = ("dot", "gv")          # formats that are the DOT text itself
FORMATS = ("svg", "svgz", "png", "pdf", "ps", "ps2", "eps", "jpg", "jpeg", "jpe", "gif", "webp",
           "bmp", "tif", "tiff", "json", "json0", "dot_json", "xdot_json", "xdot", "plain",
           "plain-ext", "canon", "fig", "pic", "vml", "vmlz", "imap", "cmapx", "ismap", "cmap",
           "imap_np", "cmapx_np", "mp", "pov", "tk", "vdx", "vrml", "wbmp", "gd", "gd2",
           *SOURCE_FORMATS)             # what Graphviz's `dot -T` writes (its builds differ)

# How to get an engine, and how to draw less: render.how_to_get_one and render.smaller in
# minigrad/messages (en_tools.py, ja_tools.py), said in the language of the messages.


# Graphviz's layout time grows faster than the graph: a chain of 1,500 ops (3,000 boxes) took
# 10 s, one of 3,000 ops 13 s, one of 10,000 ops had not finished after 120 s. A graph above
# MAX_BOXES is refused before Graphviz starts, and a layout still running after TIMEOUT seconds
# is stopped. Both are read at each call: raise them to draw something bigger on purpose. The
# frames of scopes (clusters) count as boxes, and frames nested deeper than
# minigrad.viz.dot.MAX_SCOPE_DEPTH are refused too: Graphviz's parser runs out of memory on
# some 2,000 nested ones, whatever the boxes.
MAX_BOXES = 3000
TIMEOUT = 60


class RenderError(OSError):
    """No Graphviz to render with, Graphviz refused the DOT text, or it was too big or too slow."""


def available_engines():
    """The engines that can render here, in the order "auto" tries them."""
    found = []
    if shutil.which("dot"):
        found.append("dot")
    try:
        import pygraphviz  # noqa: F401
        found.append("pygraphviz")
    except ImportError:
        pass
    return found


def choose_engine(engine="auto"):
    """The engine to use: `engine` itself if it is available, the first available for "auto";
    a RenderError that says how to get one otherwise."""
    if engine not in ENGINES:
        raise ValueError(f"render: engine must be one of {ENGINES}, not {engine!r}")
    found = available_engines()
    if engine == "auto":
        if not found:
            raise RenderError(message("render.no_graphviz", how=message("render.how_to_get_one")))
        return found[0]
    if engine not in found:
        what = message("render.no_dot" if engine == "dot" else "render.no_pygraphviz")
        raise RenderError(message("render.no_engine", engine=engine, what=what,
                                  how=message("render.how_to_get_one")))
    return engine


def render_bytes(source, format, engine="auto"):
    """The picture of the DOT text `source` in `format` ("svg", "png", "pdf", ...), as bytes.
    Refused above MAX_BOXES boxes; stopped after TIMEOUT seconds (see above)."""
    engine = choose_engine(engine)
    frames, deepest = count_frames(source)
    boxes = count_boxes(source) + frames
    if boxes > MAX_BOXES:
        raise RenderError(message("render.too_many_boxes", boxes=boxes, most=MAX_BOXES,
                                  smaller=message("render.smaller")))
    if deepest > dot.MAX_SCOPE_DEPTH:
        raise RenderError(message("render.too_deep", deepest=deepest, most=dot.MAX_SCOPE_DEPTH,
                                  smaller=message("render.smaller")))
    fonts.warn_if_missing(source, format)
    environment = fonts.subprocess_environment()
    if engine == "dot":                 # with the Japanese font added to fontconfig (fonts.py)
        command = [shutil.which("dot"), f"-T{format}"]
        failed = message("render.dot_failed", format=format)
    else:                               # in a child Python, which can be stopped when it is slow
        command = [sys.executable, "-c", _PYGRAPHVIZ_CHILD, format]
        failed = message("render.pygraphviz_failed", format=format)
    try:
        done = subprocess.run(command, input=source.encode("utf-8"), capture_output=True,
                              env=environment, check=False, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        raise RenderError(message("render.stopped", engine=engine, seconds=TIMEOUT, boxes=boxes,
                                  smaller=message("render.smaller"))) from None
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        said = said[:3] if engine == "dot" else said[-1:]      # the child's: its last line
        raise RenderError(f"{failed}: {' '.join(said) or message('render.no_message')}")
    if engine == "pygraphviz":          # its warnings, as if it had run here (not fontconfig's
        said = fonts.without_sample_file_warnings(done.stderr.decode("utf-8", "replace"))
        if said and sys.stderr is not None:         # complaints about its own sample files)
            sys.stderr.write(said)
    return done.stdout


def count_boxes(source):
    """The number of node statements in DOT text: one a line, as draw_graph writes them
    (`t0 [label=...]`, `op3 [...]`); the graph, node and edge defaults are not boxes."""
    return sum(1 for name in _NODE_LINE.findall(source) if name not in ("graph", "node", "edge"))


def count_frames(source):
    """(how many subgraphs, how deep the deepest is nested) in DOT text written one statement a
    line, as draw_graph writes it: a subgraph opens with a line `subgraph name {` and closes
    with a line `}`."""
    frames = depth = deepest = 0
    for line in source.splitlines():
        line = line.strip()
        if line.startswith("subgraph") and line.endswith("{"):
            frames, depth = frames + 1, depth + 1
            deepest = max(deepest, depth)
        elif line == "}":
            depth -= 1
    return frames, deepest


_NODE_LINE = re.compile(r'^\s*("[^"\n]*"|[\w.]+)\s*\[', re.MULTILINE)


# The child Python that renders with pygraphviz: pygraphviz alone, no minigrad (a quicker
# start). Its FONTCONFIG_FILE is set as for `dot` (fonts.py); what it writes to stderr is passed
# on (less fontconfig's sample-file warnings), or, when it fails, its last line is the error.
_PYGRAPHVIZ_CHILD = """import sys
del sys.path[0]                 # the working folder, which `python -c` puts first
import pygraphviz
try:
    graph = pygraphviz.AGraph(string=sys.stdin.buffer.read().decode("utf-8"))
    sys.stdout.buffer.write(graph.draw(format=sys.argv[1], prog="dot"))
except (ValueError, TypeError) as error:
    sys.exit(str(error))
"""


def render(graph, path, format=None, engine="auto", overwrite=False):
    """Write the picture of `graph` (a graphviz.Digraph, or DOT text) to `path`.

    format     "svg", "png", "pdf", ... ; by default the suffix of `path`. "dot" writes the text.
    engine     "auto", "dot" (the system program) or "pygraphviz" (bundled, run by Python)
    overwrite  replace a file at the DOT path, or a picture, that render did not write

    The DOT text is written beside the picture first (`path` with the suffix .dot), so it is
    there whatever happens: to diff two graphs, or to draw it elsewhere. Its first line is a
    comment naming the picture (DOT_HEADER), which is how render knows the file as its own: it
    replaces that file (or one holding the same text) when the picture is drawn again, but
    refuses to replace any other file there without `overwrite=True`. The same holds when the
    picture is itself a .dot path. An existing picture is replaced only when its DOT text with
    that header is beside it (an earlier drawing wrote both), or with `overwrite=True`; a
    refusal writes nothing. Both files are written
    atomically (minigrad.files.atomic_write). Returns the path.
    """
    source = graph.source if hasattr(graph, "source") else str(graph)
    path = Path(path)
    format = (format or path.suffix.lstrip(".")).lower()
    if not format:
        raise ValueError(message("render.no_suffix", path=path))
    if format not in FORMATS:       # refused before drawing: pygraphviz fails on it obscurely
        raise ValueError(message("render.not_a_format", path=path, format=format))
    source_path = path.with_suffix(".dot") if format not in SOURCE_FORMATS else path
    header = DOT_HEADER.format(name=path.name)
    source = _without_header(source)
    existing = _read(source_path)
    ours = existing is None or existing.startswith(header) or overwrite
    if not ours and _without_header(existing) != source:    # the same text there: leave it
        raise FileExistsError(message("render.not_our_dot", dot=source_path, name=path.name))
    if (format not in SOURCE_FORMATS and not overwrite and (path.exists() or path.is_symlink())
            and (existing is None or not existing.startswith(header))):
        raise FileExistsError(message("render.not_our_picture", path=path,
                                      dot=source_path.name))
    if not path.parent.is_dir():            # a picture's folder is the user's to make
        raise no_directory(path)
    if ours:
        atomic_write(source_path, lambda file: file.write(header + source), text=True)
    if format in SOURCE_FORMATS:
        return path
    try:
        picture = render_bytes(source, format, engine)
    except RenderError as error:
        raise RenderError(message("render.dot_text_in", error=error, path=source_path)) from error
    atomic_write(path, lambda file: file.write(picture))
    return path


def refuse_existing_drawing(path, format=None, overwrite=False):
    """For the drawing commands (minigrad.viz, attention draw, seq2seq draw): refuse a format
    Graphviz does not write (.txt), and, as the explorer's commands do, the picture at `path` or
    its DOT text beside it if it exists, unless `overwrite` (FileExistsError: "runs/x.svg
    exists; pass --overwrite to replace it").
    render() itself, called from Python, replaces a drawing it wrote earlier."""
    path = Path(path)
    format = refuse_format(path, format)
    refuse_existing(path, overwrite)
    if format not in SOURCE_FORMATS:
        refuse_existing(path.with_suffix(".dot"), overwrite)


def refuse_format(path, format=None):
    """The format of a drawing command's --out `path` (its suffix, unless `format`), refused
    before the work, and before a .dot is written, when Graphviz does not write it (.txt) or
    when there is none: the suffix to give is named, as a command line has no format=."""
    path = Path(path)
    format = (format or path.suffix.lstrip(".")).lower()
    if not format:
        raise ValueError(message("render.no_suffix_out", path=path))
    if format not in FORMATS:
        raise ValueError(message("render.not_a_format", path=path, format=format))
    return format


DOT_HEADER = "// The DOT text of {name}, written beside it by minigrad.viz.render\n"


def _without_header(source):
    """DOT text without render's header line, so a .dot file rendered again keeps one header."""
    first, newline, rest = source.partition("\n")
    if newline and first.startswith("// The DOT text of ") and first.endswith("viz.render"):
        return rest
    return source


def _read(path):
    """The text of `path`, None if there is no file; "" if it cannot be read as text."""
    if not path.exists() and not path.is_symlink():
        return None
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""
