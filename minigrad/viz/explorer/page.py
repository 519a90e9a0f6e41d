"""The explorer: `explore(root)` replays the engine's backward walk and writes it into one
self-contained HTML page.

    from minigrad.viz import explore
    page = explore(loss, names=model)          # shows itself inline in Jupyter
    page.save("step.html")                     # one file: open it in any browser, offline

The page holds everything it needs inline: its script (layout.js, then the parts in SCRIPT as
one script), its style (explorer.css) and its data (JSON). A Content-Security-Policy forbids it
every network access, so it opens from `file://` on a machine with no network and never calls
out.
"""

import html
import json
import warnings
from importlib import resources
from pathlib import Path

from minigrad.files import atomic_write, exists_message
from minigrad.messages import message
from minigrad.settings import check_number
from minigrad.viz.explorer import predict as predict_mode
from minigrad.viz.explorer.arrays import MAX_BYTES, MAX_ELEMENTS, in_words
from minigrad.viz.explorer.checks import check_arguments, check_names, check_text
from minigrad.viz.explorer.data import MAX_OPS, Graph
from minigrad.viz.explorer.words import check_lang, page_words, words

SUFFIXES = (".html", ".htm")
# No request of any kind: no fetch, no image, font or frame from anywhere; inline script and
# style only.
POLICY = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
          "img-src data:; base-uri 'none'; form-action 'none'")
# The explorer's script, in the order it runs: each part one topic (explorer.js says which), all
# inlined in one function, so that they share its variables and leave only window.explorer
# behind.
SCRIPT = ("script/state.js", "script/visible.js", "script/graph.js", "script/panel.js",
          "script/predict.js", "script/hint.js", "script/summary.js", "explorer.js")


def explore(root, *, grad=None, names=None, variables=None, collapse=None, predict=False,
            predict_at=None, title=None, max_elements=MAX_ELEMENTS, max_bytes=MAX_BYTES,
            max_ops=MAX_OPS, lang="en"):
    """An `Explorer` of the backward pass from `root`: the graph with its values, then every
    step of the engine's own backward walk (`minigrad.autograd.backward_walk`), one op at a
    time. No `.grad` is set anywhere. The tensors' hooks (`register_hook`) run, once, as in
    `backward()`: the page shows the gradients they return (a hook that counts its calls, or
    prints, does so here too).

    root          a tensor: a single number, or any shape with `grad`, the gradient arriving
                  at it
    names         labels for tensors: a dict {name: tensor}, or a Module (its parameters)
    variables     labels for the tensors that have none (no `name` of their own, none in
                  `names`): the {name: tensor} of `minigrad.debug.local_names()`, your local
                  variables. The op's name labels the rest ("MatMul's output"); a label that
                  several tensors have is numbered ("h #1", "h #2": explorer/names.py)
    collapse      scope names drawn folded at first (the page folds and unfolds any scope)
    predict       predict mode: at chosen steps the page asks for one element of a gradient
                  before showing it (see minigrad/viz/explorer/predict.py)
    predict_at    which steps ask (op class names, or a function op -> bool); the default is
                  MatMul, Softmax, and ops whose input was broadcast or is used twice. Giving it
                  turns predict mode on; a Where it chooses (a mask) asks for an element it
                  leaves out, whose gradient is 0. A question is asked only if the page embeds every
                  array it is answered from (they go in first, within max_elements and
                  max_bytes). When it asks nothing, a warning, the repr and the page say
                  why in one line (e.g. the arrays are over max_elements: raise it).
    title         a caption for the page
    max_elements  arrays larger than this are summarised (shape, first values, norm) instead
                  of embedded in full, to keep the page small
    max_bytes     the page embeds the numbers of its arrays, smallest first, until they fill
                  this many bytes (1 MB); the rest are summarised too
    max_ops       a graph of more ops than this (3,000) is refused in one line, at once: a
                  browser would take long to lay it out (minigrad/viz/explorer/data.py, MAX_OPS)
    lang          the page's language: "en" (English) or "ja" (Japanese): every button,
                  heading, rule, question, hint and feedback in it (words/ holds them); numbers,
                  names, op classes and formulas stay as they are
    """
    text = words(check_lang(lang))
    check_arguments(root, grad, names, predict, predict_at, title, max_elements, max_bytes)
    check_names(variables, "variables")
    check_number("max_ops", max_ops, low=1, integer=True, where="explore")
    graph = Graph(root, grad, names, collapse, title, max_elements, max_bytes, max_ops,
                  variables=variables, text=text)
    for t in graph.data["tensors"]:                 # (tensors' own names, and scopes, too)
        check_text("a tensor's name", t["label"])
    for path in graph.data["scopes"]:
        check_text("a scope's name", path[-1])
    asked = predict or predict_at is not None
    skipped = []
    found = predict_mode.questions(graph, predict_at, skipped) if asked else []
    data = graph.finish(first=[ref for q in found for ref in q["needs"]])
    data["questions"] = predict_mode.answerable(found, data["arrays"])   # from the page alone
    if lang != "en":
        in_words(data["arrays"], text)
    data["lang"], data["text"] = lang, page_words(text)
    # Predict mode with nothing to ask says why, here and on the page.
    data["no_questions"] = None
    if asked and not data["questions"]:
        data["no_questions"] = predict_mode.why_none(found, skipped, data["arrays"], predict_at,
                                                     max_elements, max_bytes, text)
        warnings.warn(f"explore: predict mode asks no question: {data['no_questions']}",
                      stacklevel=2)
    return Explorer(data)


class Explorer:
    """One backward pass, ready to show: `.save(path)` writes the page, `.html()` gives its
    text, and Jupyter shows it inline (`_repr_html_`: the page in a sandboxed frame, so that
    several explorers in one notebook never mix up their scripts)."""

    def __init__(self, data):
        self.data = data

    @property
    def steps(self):
        """How many ops the backward pass visits (the page's last step)."""
        return len(self.data["steps"])

    @property
    def questions(self):
        """The questions of predict mode (none when it is off)."""
        return self.data["questions"]

    def __repr__(self):
        title = f" {self.data['title']!r}" if self.data["title"] else ""
        why = self.data.get("no_questions")
        why = f" (predict mode: {why})" if why else ""
        return (f"<Explorer{title}: {self.steps} backward steps, {len(self.data['tensors'])} "
                f"tensors, {len(self.questions)} questions{why}; .save('step.html') writes the "
                "page>")

    def html(self):
        """The page: one HTML document with everything inline."""
        text = words(self.data["lang"])
        fixed = {key.split(".")[1]: html.escape(value) for key, value in text.items()
                 if key.startswith("html.")}
        title = html.escape(self.data["title"]) or fixed["title"]
        return PAGE.format(policy=POLICY, style=_asset("explorer.css"), data=_json(self.data),
                           layout=_asset("layout.js"), script=_script(),
                           **{**fixed, "title": title})

    def save(self, path, overwrite=False):
        """Write the page to `path` (.html), atomically. An existing file there is never
        replaced unless `overwrite=True`. Returns the path."""
        path = Path(path)
        if path.suffix.lower() not in SUFFIXES:
            raise ValueError(message("explorer.not_html", path=path))
        if path.is_dir():
            raise IsADirectoryError(message("explorer.is_a_directory", path=path))
        if (path.exists() or path.is_symlink()) and not overwrite:
            raise FileExistsError(exists_message(path, "overwrite=True"))
        text = self.html()
        atomic_write(path, lambda file: file.write(text), text=True)
        return path

    def _repr_html_(self):
        page = html.escape(self.html(), quote=True)
        # (allow-downloads: predict mode's summary saves its results as a file)
        return (f'<iframe srcdoc="{page}" sandbox="allow-scripts allow-downloads" '
                'style="width: 100%; height: 640px; border: 1px solid #d5d8dc;" '
                f'title="{html.escape(words(self.data["lang"])["html.frame"])}"></iframe>')


def save_page(explorer, out, overwrite=False):
    """`explorer.save(out)` for the command lines: the refusal names their --overwrite."""
    try:
        return explorer.save(out, overwrite=overwrite)
    except FileExistsError:
        raise FileExistsError(exists_message(out)) from None


def _asset(name):
    return resources.files("minigrad.viz.explorer").joinpath(name).read_text(encoding="utf-8")


def _script():
    """The parts of SCRIPT as one script: one function, in strict mode, that runs them in order."""
    parts = "".join(f"\n// ---- {name} ----\n\n{_asset(name)}" for name in SCRIPT)
    return f'(function () {{\n"use strict";\n{parts}}})();\n'


def _json(data):
    """The data as JSON that is safe inside a <script> element: no '<', '>' or '&' unescaped
    (they can only appear inside strings, where \\u003c reads the same)."""
    text = json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


PAGE = """<!DOCTYPE html>
<!-- The backprop explorer of minigrad (minigrad.viz.explore): one backward pass, op by op. -->
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{policy}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
{style}</style>
</head>
<body>
<div class="explorer">
  <div class="graph" id="graph"></div>
  <div class="panel">
    <h1>{title}</h1>
    <div class="controls">
      <button id="first" title="{first}">|&#x25C0;</button>
      <button id="prev" title="{back}">&#x25C0;</button>
      <button id="next" title="{next}">&#x25B6;</button>
      <button id="last" title="{last}">&#x25B6;|</button>
      <span class="counter" id="counter"></span>
      <span class="zoom"><button id="zoom-out" title="{smaller}">&minus;</button>
      <button id="zoom-in" title="{larger}">+</button></span>
    </div>
    <div class="score" id="score" hidden></div>
    <div id="step"></div>
    <h3>{scopes}</h3>
    <div class="scopes" id="scopes"></div>
    <h3>{legend}</h3>
    <div class="legend">
      <span class="swatch" style="background:#d4efdf"></span><span>{parameter}</span>
      <span class="swatch" style="background:#d6eaf8"></span><span>{input}</span>
      <span class="swatch" style="background:#f2f3f4"></span><span>{constant}</span>
      <span class="swatch" style="background:#fdebd0"></span><span>{root}</span>
      <span class="swatch op" style="background:#eaecee"></span><span>{op}</span>
      <span class="swatch" style="background:#e8daef"></span><span>{folded}</span>
      <span class="swatch" style="border:3px solid #e67e22"></span><span>{current}</span>
      <span class="swatch" style="border:2px solid #b03a2e"></span><span>{arriving}</span>
      <span class="swatch" style="background:#b03a2e"></span><span>{gradients}</span>
    </div>
    <p class="help">{help}</p>
  </div>
</div>
<script type="application/json" id="explorer-data">{data}</script>
<script>
{layout}</script>
<script>
{script}</script>
</body>
</html>
"""
