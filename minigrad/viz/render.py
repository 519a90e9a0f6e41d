"""Turning DOT text into a picture, with whichever Graphviz there is.

Two engines do the same layout (Graphviz's `dot`):
    "dot"         the system's `dot` program, if it is on the PATH
    "pygraphviz"  the Graphviz libraries bundled in the pygraphviz wheel, run inside Python: no
                  program to install and no admin rights (wheels for Linux x86-64 and aarch64,
                  macOS, and Windows x86-64)
"auto" takes the system `dot` where there is one, and pygraphviz otherwise. Both find the
Japanese font the project ships (minigrad.viz.fonts), so Japanese labels are not empty boxes.

    render(draw_graph(loss), "loss.svg")      # also writes loss.dot, the DOT text (never over
                                              # a loss.dot that render did not write)
"""

import shutil
import subprocess
from pathlib import Path

from minigrad.files import atomic_write
from minigrad.viz import fonts

ENGINES = ("auto", "dot", "pygraphviz")
SOURCE_FORMATS = ("dot", "gv")          # formats that are the DOT text itself

HOW_TO_GET_ONE = ("install one: `pip install pygraphviz` (its wheels bundle Graphviz on Linux, "
                  "macOS and Windows x86-64), or the Graphviz package of your system "
                  "(apt install graphviz, brew install graphviz, winget install graphviz)")


class RenderError(OSError):
    """No Graphviz to render with, or Graphviz refused the DOT text."""


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
            raise RenderError("no Graphviz to render with: neither the `dot` program nor the "
                              f"pygraphviz package was found; {HOW_TO_GET_ONE}")
        return found[0]
    if engine not in found:
        what = "the `dot` program is not on the PATH" if engine == "dot" else \
            "the pygraphviz package is not installed"
        raise RenderError(f"cannot render with engine={engine!r}: {what}; {HOW_TO_GET_ONE}")
    return engine


def render_bytes(source, format, engine="auto"):
    """The picture of the DOT text `source` in `format` ("svg", "png", "pdf", ...), as bytes."""
    engine = choose_engine(engine)
    fonts.warn_if_missing(source, format)
    if engine == "dot":                 # with the Japanese font added to fontconfig (fonts.py)
        done = subprocess.run([shutil.which("dot"), f"-T{format}"], input=source.encode("utf-8"),
                              capture_output=True, env=fonts.subprocess_environment(),
                              check=False)
        if done.returncode != 0:
            message = done.stderr.decode("utf-8", "replace").strip().splitlines()
            raise RenderError(f"dot -T{format} failed: {' '.join(message[:3]) or 'no message'}")
        return done.stdout
    import pygraphviz
    fonts.use_in_this_process()         # before its fontconfig starts, at the first render
    try:
        with fonts.without_sample_file_warnings():
            return pygraphviz.AGraph(string=source).draw(format=format, prog="dot")
    except (ValueError, TypeError) as error:
        raise RenderError(f"pygraphviz could not render {format}: {error}") from error


def render(graph, path, format=None, engine="auto", overwrite=False):
    """Write the picture of `graph` (a graphviz.Digraph, or DOT text) to `path`.

    format     "svg", "png", "pdf", ... ; by default the suffix of `path`. "dot" writes the text.
    engine     "auto", "dot" (the system program) or "pygraphviz" (bundled, in-process)
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
        raise ValueError(f"render: {path} has no suffix; pass format= (svg, png, pdf, dot)")
    source_path = path.with_suffix(".dot") if format not in SOURCE_FORMATS else path
    header = DOT_HEADER.format(name=path.name)
    source = _without_header(source)
    existing = _read(source_path)
    ours = existing is None or existing.startswith(header) or overwrite
    if not ours and _without_header(existing) != source:    # the same text there: leave it
        raise FileExistsError(f"{source_path} exists and is not the DOT text of {path.name}: "
                              "not replaced (move it, draw to another name, or overwrite it "
                              "explicitly)")
    if (format not in SOURCE_FORMATS and not overwrite and (path.exists() or path.is_symlink())
            and (existing is None or not existing.startswith(header))):
        raise FileExistsError(f"{path} exists and no earlier drawing wrote it (its DOT text "
                              f"{source_path.name} is not beside it): not replaced (move it, "
                              "draw to another name, or overwrite it explicitly)")
    if not path.parent.is_dir():            # a picture's folder is the user's to make
        raise FileNotFoundError(f"cannot write {path}: no folder {path.parent} (a drawing is "
                                "written into a folder that exists)")
    if ours:
        atomic_write(source_path, lambda file: file.write(header + source), text=True)
    if format in SOURCE_FORMATS:
        return path
    try:
        picture = render_bytes(source, format, engine)
    except RenderError as error:
        raise RenderError(f"{error}. The DOT text is in {source_path}") from error
    atomic_write(path, lambda file: file.write(picture))
    return path


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
