"""The gallery (docs/pages/, made by `make pages`, that is docs/pages.py) is what its builder
makes from the code as it is now: each committed page is rebuilt here, into a temporary folder,
and compared with the fresh one.

The comparison allows for the machine. A page's numbers change in their last digits with the
CPU's BLAS kernel (OPENBLAS_CORETYPE), and a trained run's change more, since a whole epoch of
training carries the difference along. So the page's structure is compared exactly: its HTML and
script around the data, and its JSON data with every float, and every decimal number inside a
string, replaced by a placeholder. The numbers are compared within a tolerance: tight for the
pages of untrained graphs, looser for the trained runs, and, for a number written rounded (a
drawing's "0.123"), one unit of its last digit more.
"""

import json
import re

import numpy as np
import pytest

from docs import pages

DATA = pages.DATA                 # the page's JSON data, inside its <script>
# A decimal number in a text: a point or an exponent makes it one (an integer, "head 1", is part
# of the structure), and NaN and the infinities as the pages write them.
DECIMAL = re.compile(r"(?<![\w.])-?(?:(?:\d+\.\d*|\.\d+)(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+"
                     r"|NaN|Infinity|nan|inf)(?![\w.])")
FLOAT = "<float>"
# (rtol, atol). Measured between OPENBLAS_CORETYPE SkylakeX, Haswell, Prescott and Zen on one
# x86-64 machine: every structure the same; numbers apart by at most 2.4e-08 on the untrained
# pages (float32 LSTM and GRU; float64 pages 1.5e-14) and 6.5e-06 on the trained runs' pages,
# each beyond the unit of its last digit written.
UNTRAINED, TRAINED = (1e-5, 1e-6), (1e-3, 1e-4)


def last_digit(text):
    """One unit of the last digit written: 0.001 for "0.123", 1e-08 for "1.5e-07"."""
    if not re.match(r"-?[\d.]", text):
        return 0.0
    mantissa, _, exponent = text.lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    return 10.0 ** (int(exponent or 0) - decimals)


def page_parts(text):
    """(structure, numbers) of a page: the page with its data's floats replaced by FLOAT, and
    the numbers taken out, in order, each as (value, unit of its last digit written)."""
    found = DATA.search(text)
    assert found, "no explorer data in the page"
    numbers = []

    def decimal(match):
        numbers.append((float(match.group()), last_digit(match.group())))
        return FLOAT

    def walk(value):
        if isinstance(value, float):
            numbers.append((value, 0.0))
            return FLOAT
        if isinstance(value, str):
            return DECIMAL.sub(decimal, value)
        if isinstance(value, list):
            return [walk(v) for v in value]
        if isinstance(value, dict):
            return {key: walk(v) for key, v in value.items()}
        return value

    data = walk(json.loads(found.group(2)))
    structure = text[:found.start(2)] + json.dumps(data, ensure_ascii=False) + text[found.end(2):]
    return structure, numbers


def differences(committed, fresh, tolerance):
    """What differs between the page `committed` and the page `fresh` (their texts): None,
    or one line saying where."""
    (old, old_numbers), (new, new_numbers) = page_parts(committed), page_parts(fresh)
    if old != new:
        at = next(k for k, (a, b) in enumerate(zip(old + "\0", new + "\0")) if a != b)
        return (f"its structure differs at character {at}: {old[max(0, at - 60):at + 60]!r} "
                f"is now {new[max(0, at - 60):at + 60]!r}")
    rtol, atol = tolerance
    for k, ((got, unit), (want, unit_new)) in enumerate(zip(old_numbers, new_numbers)):
        same = got == want or (np.isfinite(got) and np.isfinite(want) and abs(got - want)
                               <= atol + rtol * abs(want) + max(unit, unit_new))
        if not same:
            return (f"its number {k} of {len(new_numbers)} is {got!r}, now {want!r}, beyond "
                    f"rtol={rtol} atol={atol}")
    return None


@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    folder = tmp_path_factory.mktemp("pages")
    pages.build(folder, log=lambda *args: None)
    return folder


# Every page of the gallery: its language, and its path under docs/pages/ (docs/pages/ja/ for
# the Japanese pages).
EVERY_PAGE = [(lang, page, f"{pages.LANGS[lang][0]}/{page.name}".lstrip("/"))
              for lang in pages.LANGS for page in pages.PAGES]
INDEXES = [name for _, name in pages.LANGS.values()]


@pytest.mark.parametrize("lang, page, name", EVERY_PAGE, ids=[name for *_, name in EVERY_PAGE])
def test_the_committed_page_is_what_make_pages_makes_now(lang, page, name, fresh):
    committed = pages.OUT / name
    assert committed.is_file(), f"docs/pages/{name} is missing: run `make pages`"
    text = committed.read_text(encoding="utf-8")
    assert f'<html lang="{lang}">' in text
    why = differences(text, (fresh / name).read_text(encoding="utf-8"),
                      TRAINED if page.trained else UNTRAINED)
    assert why is None, f"docs/pages/{name}: {why}; run `make pages` to make it again"


def test_the_gallery_holds_its_pages_and_its_indexes_and_nothing_else(fresh):
    for lang, (folder, name) in pages.LANGS.items():
        index = (pages.OUT / name).read_text(encoding="utf-8")
        assert index == (fresh / name).read_text(encoding="utf-8"), (
            f"docs/pages/{name} is not the index docs/pages.py writes: run `make pages`")
        for page in pages.PAGES:
            link = f"{folder}/{page.name}".lstrip("/")
            assert f"]({link})" in index and page.command_line(lang) in index
        others = [other for other in INDEXES if other != name]
        assert all(f"]({other})" in index for other in others), f"{name} links no {others}"
    held = sorted(p.name for p in pages.OUT.iterdir())
    assert held == sorted([p.name for p in pages.PAGES] + INDEXES + ["ja"]), (
        f"docs/pages/ holds {held}: only the pages of docs/pages.py, ja/ and the indexes belong "
        "there")
    held = sorted(p.name for p in (pages.OUT / "ja").iterdir())
    assert held == sorted(p.name for p in pages.PAGES), (
        f"docs/pages/ja/ holds {held}: only the Japanese pages of docs/pages.py belong there")


def test_the_japanese_index_says_what_each_page_shows_in_japanese(fresh):
    index = (pages.OUT / "README.ja.md").read_text(encoding="utf-8")
    for page in pages.PAGES:
        assert page.shows_ja and page.shows_ja in index and page.command_line("ja") in index
        assert not page.command or "--lang ja" in page.command_line("ja")
    assert "(逆伝播 " in index and "The explorer's gallery" not in index


def test_the_same_code_makes_the_same_bytes(fresh, tmp_path):
    """No time, no random id, no path in a page: a second build on this machine, trained runs
    and all, is the first, byte for byte (and so are the indexes)."""
    pages.build(tmp_path, log=lambda *args: None)
    for name in [name for *_, name in EVERY_PAGE] + INDEXES:
        assert (tmp_path / name).read_bytes() == (fresh / name).read_bytes(), name


def test_a_number_moved_beyond_round_off_or_a_changed_structure_is_found():
    text = (pages.OUT / "attention-step.html").read_text(encoding="utf-8")
    data = json.loads(DATA.search(text).group(2))
    norm = next(entry["norm"] for entry in data["arrays"] if entry["norm"])

    def changed(new_norm, title=None):
        edited = dict(data, arrays=[dict(e, norm=new_norm) if e["norm"] == norm else e
                                    for e in data["arrays"]])
        edited["title"] = title or data["title"]
        return text.replace(DATA.search(text).group(2), json.dumps(edited))

    rebuilt = changed(norm)                             # the same numbers, written afresh
    assert differences(text, rebuilt, UNTRAINED) is None
    assert differences(text, changed(norm * (1 + 1e-9)), UNTRAINED) is None   # round-off
    assert "number" in differences(text, changed(norm * 1.001), UNTRAINED)
    assert differences(text, changed(norm * 1.0005), TRAINED) is None
    assert "structure" in differences(text, changed(norm, title="Another step"), UNTRAINED)


def test_a_rounded_number_may_move_by_one_in_its_last_digit():
    assert last_digit("0.123") == pytest.approx(1e-3)
    assert last_digit("1.5e-07") == pytest.approx(1e-8)
    assert last_digit("NaN") == 0.0
    before = '<script type="application/json" id="explorer-data">{"lines": ["0.124  7"]}</script>'
    after = before.replace("0.124", "0.123")
    assert differences(before, after, UNTRAINED) is None
    assert "number" in differences(before, before.replace("0.124", "0.122"), UNTRAINED)
    assert "structure" in differences(before, before.replace("7", "8"), UNTRAINED)


def test_the_gallerys_gru_is_pytorchs_grucell():
    torch = pytest.importorskip("torch")
    from minigrad import Tensor

    rng = np.random.default_rng(1)
    B, D, H = 3, 4, 5                           # batch, input size, hidden size
    arrays = [rng.standard_normal(shape) for shape in
              ((B, D), (B, H), (3 * H, D), (3 * H, H), (3 * H,), (3 * H,))]
    ours = [Tensor(a, requires_grad=True) for a in arrays]
    h_new = pages.gru_cell(*ours)[0]
    upstream = rng.standard_normal((B, H))
    (h_new * Tensor(upstream)).sum().backward()

    cell = torch.nn.GRUCell(D, H).double()
    with torch.no_grad():
        for parameter, a in zip((cell.weight_ih, cell.weight_hh, cell.bias_ih, cell.bias_hh),
                                arrays[2:]):
            parameter.copy_(torch.from_numpy(a))
    x, h = (torch.tensor(a, requires_grad=True) for a in arrays[:2])
    theirs = cell(x, h)
    theirs.backward(torch.from_numpy(upstream))
    np.testing.assert_allclose(h_new.data, theirs.detach().numpy(), rtol=1e-12, atol=1e-12)
    for tensor, grad in zip(ours, (x.grad, h.grad, cell.weight_ih.grad, cell.weight_hh.grad,
                                   cell.bias_ih.grad, cell.bias_hh.grad)):
        np.testing.assert_allclose(tensor.grad, grad.numpy(), rtol=1e-10, atol=1e-12)


def test_the_gru_page_names_the_gates_as_the_learner_does():
    data = pages.gru_page().data
    named = {t["name"] for t in data["tensors"]}
    assert {"r", "z", "n", "h", "h'", "x", "weight_ih", "weight_hh"} <= named


# Where each page is discussed: the README (the gallery, and the worked example), the explorer's
# tutorial (every page) and the Transformer's (its three pages).
LINKED_FROM = {"README.md": ("pages/README.md", "pages/attention-step.html"),
               "docs/exploring-backprop.md": tuple(f"pages/{p.name}" for p in pages.PAGES),
               "docs/from-attention-to-the-transformer.md": (
                   "pages/self-attention.html", "pages/encoder-block.html",
                   "pages/transformer-decoder-step.html")}


@pytest.mark.parametrize("where", LINKED_FROM)
def test_the_tutorials_link_the_pages_they_discuss_and_every_link_is_a_page(where):
    text = (pages.ROOT / where).read_text(encoding="utf-8")
    links = set(re.findall(r"\]\((?:docs/)?(pages/[\w.-]+)\)", text))
    missing = [link for link in LINKED_FROM[where] if link not in links]
    assert missing == [], f"{where} does not link {missing}"
    gone = [link for link in links if not (pages.OUT.parent / link).is_file()]
    assert gone == [], f"{where} links {gone}, not in docs/pages/ (docs/pages.py, make pages)"
