"""Japanese on a machine with no Japanese font: heatmaps (matplotlib) and graph renders
(Graphviz, the system `dot` and pygraphviz's) draw it with the font the project ships
(matplotlib-fontja), not as empty boxes; without it, one warning says what to install.

Each check runs in a fresh process on a "bare machine": fontconfig reads a configuration with
one folder, holding only DejaVu Sans (no Japanese), and matplotlib sees its own fonts alone. So
the fonts installed here do not matter. What is checked is the font actually drawn with: for
matplotlib, the font file each glyph of each label comes from and its character map; for
Graphviz, the fonts embedded in the PDF, fc-match in the configuration the code writes, and the
PNG against one drawn where the glyphs are known to be missing."""

import json
import os
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from minigrad.viz import fonts

ROOT = Path(__file__).resolve().parent.parent
JAPANESE = "ねこがさかなをたべる"
needs_font = pytest.mark.skipif(fonts.font_path() is None, reason="matplotlib-fontja missing")
needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="no system dot")
needs_pygraphviz = pytest.mark.skipif(
    __import__("importlib").util.find_spec("pygraphviz") is None, reason="no pygraphviz")
ENGINES = [pytest.param("dot", marks=needs_dot),
           pytest.param("pygraphviz", marks=needs_pygraphviz)]
SAMPLE_FILE = Path("/usr/share/fontconfig/conf.avail/05-reset-dirs-sample.conf")


@pytest.fixture
def bare(tmp_path):
    """The environment of a machine whose only font is DejaVu Sans, as fontconfig sees it."""
    matplotlib = pytest.importorskip("matplotlib")
    folder = tmp_path / "system-fonts"
    folder.mkdir()
    shutil.copy(Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf", folder)
    config = tmp_path / "system-fonts.conf"
    config.write_text('<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:'
                      f'fonts.dtd">\n<fontconfig><dir>{folder}</dir>'
                      f"<cachedir>{tmp_path / 'fc-cache'}</cachedir></fontconfig>\n")
    return dict(os.environ, FONTCONFIG_FILE=str(config), XDG_CACHE_HOME=str(tmp_path / "cache"),
                PYTHONPATH=str(ROOT))


def run(script, env, *args):
    """Run `script` in a fresh Python; its stdout, read as JSON."""
    done = subprocess.run([sys.executable, "-c", script, *map(str, args)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


# Unless argv[1] is "1", the font package counts as not installed.
NO_FONT = """
import sys
from minigrad.viz import fonts
if sys.argv[1] != "1":
    fonts.font_path = lambda: None
"""

HEATMAP = NO_FONT + """
import json, warnings
import matplotlib
import matplotlib.backends.backend_agg as agg
from matplotlib import font_manager
from seq2seq.heatmap import plot_heatmap

own = matplotlib.get_data_path()                # matplotlib sees its own fonts alone
font_manager.fontManager.ttflist = [f for f in font_manager.fontManager.ttflist
                                    if f.fname.startswith(own)]
system_fonts = font_manager.findSystemFonts
font_manager.findSystemFonts = lambda fontpaths=None, fontext="ttf": (
    system_fonts(fontpaths, fontext) if fontpaths else [])

drawn = []                                      # (text, the font files Agg draws it with)
text = [None]
draw_text, get_font = agg.RendererAgg.draw_text, agg.get_font
def recording_draw_text(self, gc, x, y, s, *args, **kwargs):
    text[0] = s
    return draw_text(self, gc, x, y, s, *args, **kwargs)
def recording_get_font(paths, *args, **kwargs):
    if text[0] is not None:
        drawn.append((text[0], [str(p) for p in paths]))
    return get_font(paths, *args, **kwargs)
agg.RendererAgg.draw_text, agg.get_font = recording_draw_text, recording_get_font

family = list(matplotlib.rcParams["font.family"])
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    plot_heatmap([[0.9, 0.1, 0.0], [0.0, 0.2, 0.8]], ["ねこ", "が", "たべる"], ["cat", "eats"],
                 sys.argv[2], title="ねこ が さかな を たべる")
print(json.dumps({"drawn": drawn, "warnings": [str(w.message) for w in caught],
                  "family unchanged": list(matplotlib.rcParams["font.family"]) == family}))
"""


@cache
def charmap(path):
    from matplotlib.ft2font import FT2Font
    return frozenset(FT2Font(path).get_charmap())


def font_of(ch, paths):
    """The font file matplotlib takes `ch` from: the first of `paths` that has it, or None."""
    return next((path for path in paths if ord(ch) in charmap(path)), None)


@needs_font
def test_heatmap_labels_draw_japanese_from_the_bundled_font_on_a_bare_machine(bare, tmp_path):
    result = run(HEATMAP, bare, 1, tmp_path / "h.png")
    japanese = {text: paths for text, paths in result["drawn"] if fonts.needs_cjk_font(text)}
    assert set(japanese) >= {"ねこ", "が", "たべる", "ねこ が さかな を たべる"}
    for text, paths in japanese.items():
        for ch in text.replace(" ", ""):
            assert font_of(ch, paths) == str(fonts.font_path()), (text, ch, paths)
    assert result["warnings"] == []                # no glyph is missing, nothing to say
    assert result["family unchanged"]              # matplotlib's settings are as they were
    latin = dict(result["drawn"])["cat"]
    assert Path(font_of("c", latin)).name == "DejaVuSans.ttf"      # Latin keeps its font


def test_without_the_font_package_the_heatmap_warns_once_naming_it(bare, tmp_path):
    result = run(HEATMAP, bare, 0, tmp_path / "h.png")
    japanese = [paths for text, paths in result["drawn"] if "ねこ" in text]
    assert japanese and all(font_of("ね", paths) is None for paths in japanese)   # boxes
    assert len(result["warnings"]) == 1, result["warnings"]
    assert "empty boxes" in result["warnings"][0]
    assert "pip install matplotlib-fontja" in result["warnings"][0]


GRAPH = NO_FONT + """
import json, warnings
from pathlib import Path
from minigrad import Tensor
from minigrad.viz import draw_graph, render

engine, out = sys.argv[2], sys.argv[3]
x = Tensor([1.0, 2.0], requires_grad=True)
drawing = draw_graph((x * x).sum(), names={"ねこ": x}, title="ねこ が さかな を たべる")
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    for suffix in ("png", "pdf"):
        render(drawing, f"{out}/graph.{suffix}", engine=engine)
    if engine == "dot":                          # what graphviz.Digraph runs (and Jupyter)
        Path(out, "piped.pdf").write_bytes(drawing.pipe(format="pdf"))
print(json.dumps({"warnings": [str(w.message) for w in caught],
                  "fonts.conf": fonts.fontconfig_file()}))
"""


def embedded_fonts(pdf):
    """The names of the fonts a PDF (cairo's) embeds: /BaseFont /ABCDEF+Name."""
    data = Path(pdf).read_bytes()
    names = set()
    for chunk in data.split(b"/BaseFont")[1:]:
        name = chunk.split(b"/", 1)[1].split()[0]
        names.add(name.split(b"+")[-1].decode("ascii", "replace"))
    return names


@needs_font
@pytest.mark.parametrize("engine", ENGINES)
def test_graph_renders_draw_japanese_with_the_bundled_font_on_a_bare_machine(engine, bare,
                                                                              tmp_path):
    with_font, without = tmp_path / "with", tmp_path / "without"
    with_font.mkdir(), without.mkdir()
    result = run(GRAPH, bare, 1, engine, with_font)
    assert result["warnings"] == []
    assert fonts.FONT_NAME in embedded_fonts(with_font / "graph.pdf")
    if engine == "dot":
        assert fonts.FONT_NAME in embedded_fonts(with_font / "piped.pdf")

    control = run(GRAPH, bare, 0, engine, without)                 # the glyphs known missing
    assert fonts.FONT_NAME not in embedded_fonts(without / "graph.pdf")
    assert (with_font / "graph.png").read_bytes() != (without / "graph.png").read_bytes()
    assert len(control["warnings"]) == 1 and "pip install matplotlib-fontja" in \
        control["warnings"][0]


def fc_match(pattern, config):
    """The font file fontconfig picks for `pattern` with the configuration file `config`."""
    env = dict(os.environ, FONTCONFIG_FILE=config) if config else \
        {k: v for k, v in os.environ.items() if k != "FONTCONFIG_FILE"}
    done = subprocess.run(["fc-match", "-f", "%{file}", pattern], env=env, capture_output=True,
                          text=True, timeout=60, check=False)
    return done.stdout


@needs_font
@pytest.mark.skipif(shutil.which("fc-match") is None, reason="no fc-match")
def test_fc_match_finds_the_bundled_font_for_japanese_in_the_written_configuration(
        bare, monkeypatch, tmp_path):
    config = run(GRAPH, bare, 1, "auto", tmp_path)["fonts.conf"]
    assert bare["FONTCONFIG_FILE"] in Path(config).read_text()     # the machine's own, included
    assert Path(fc_match(":charset=306d 3053", config)) == fonts.font_path()       # ね, こ
    assert Path(fc_match(":charset=306d 3053", bare["FONTCONFIG_FILE"])).name == \
        "DejaVuSans.ttf"                                           # without it: no ね anywhere

    monkeypatch.setattr(fonts, "_made", {})                         # no FONTCONFIG_FILE: the
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))   # system's configuration
    monkeypatch.delenv("FONTCONFIG_FILE", raising=False)            # is the one included
    assert fc_match("sans-serif", fonts.fontconfig_file()) == fc_match("sans-serif", None)


def test_the_written_configuration_includes_what_was_in_force(monkeypatch, tmp_path):
    monkeypatch.setattr(fonts, "font_path", lambda: tmp_path / "fonts" / "ipaexg.ttf")
    monkeypatch.setattr(fonts, "_made", {})
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("FONTCONFIG_FILE", raising=False)
    default = Path(fonts.fontconfig_file()).read_text()
    assert '<include ignore_missing="yes">fonts.conf</include>' in default  # fontconfig's own
    assert f"<dir>{tmp_path / 'fonts'}</dir>" in default
    monkeypatch.setenv("FONTCONFIG_FILE", "/somewhere/my & fonts.conf")
    mine = fonts.fontconfig_file()
    assert "<include ignore_missing=\"yes\">/somewhere/my &amp; fonts.conf</include>" in \
        Path(mine).read_text()
    monkeypatch.setenv("FONTCONFIG_FILE", mine)
    assert fonts.fontconfig_file() == mine                          # in force: not wrapped again
    monkeypatch.setattr(fonts, "font_path", lambda: None)
    monkeypatch.delenv("FONTCONFIG_FILE")
    assert fonts.fontconfig_file() is None


def test_only_the_sample_file_warnings_are_kept_off_stderr():
    warning = ('Fontconfig warning: "/usr/share/fontconfig/conf.avail/05-reset-dirs-sample.conf",'
               ' line 6: unknown element "reset-dirs"\n')
    assert fonts.without_sample_file_warnings(warning + "Error: syntax error in line 1\n") == \
        "Error: syntax error in line 1\n"


@needs_pygraphviz
@pytest.mark.skipif(not SAMPLE_FILE.exists(), reason="no fontconfig sample file to warn about")
def test_pygraphviz_renders_without_the_fontconfig_sample_file_warning(tmp_path):
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"), PYTHONPATH=str(ROOT))
    env.pop("FONTCONFIG_FILE", None)                 # the machine's own configuration
    raw = "import pygraphviz; pygraphviz.AGraph(string='digraph { a }').draw(format='png', " \
        "prog='dot')"
    ours = "from minigrad.viz.render import render_bytes; render_bytes('digraph { a }', 'png', " \
        "'pygraphviz')"
    stderr = {}
    for name, code in (("raw", raw), ("ours", ours)):
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        stderr[name] = done.stderr
    if "reset-dirs" not in stderr["raw"]:
        pytest.skip("this pygraphviz's fontconfig knows <reset-dirs>: nothing to keep quiet")
    assert stderr["ours"] == ""
