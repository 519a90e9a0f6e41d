"""Each page of the gallery (docs/pages/, `make pages`) opened from its committed file in headless
Chromium: it is drawn (window.explorer.ready), it walks to its last step, and it logs no error
and asks nothing from the network; a Japanese page (docs/pages/ja/) shows no English sentence of
the explorer's words at any step. (The browser, and those checks on every page, are
test_explorer_browser.py's.)"""

import json

import pytest

from docs import pages
from tests import test_explorer_browser as shared
from tests.test_explorer_browser_japanese import english_on
from tests.test_pages import DATA

browser, open_page = shared.browser, shared.open_page       # the fixtures, shared
EVERY_PAGE = [(lang, page) for lang in pages.LANGS for page in pages.PAGES]


@pytest.mark.parametrize("lang, page", EVERY_PAGE,
                         ids=lambda item: item if isinstance(item, str) else item.name)
def test_the_committed_page_opens_from_its_file_and_walks_to_its_end(lang, page, open_page):
    path = pages.OUT / pages.LANGS[lang][0] / page.name
    data = json.loads(DATA.search(path.read_text(encoding="utf-8")).group(2))
    assert data["lang"] == lang
    shown = open_page(path)
    assert shown.evaluate("window.explorer.ready") is True
    assert shown.evaluate("window.explorer.steps") == len(data["steps"]) > 0
    assert shown.evaluate("window.explorer.last()") == len(data["steps"])
    assert shown.evaluate("window.explorer.first()") == 0
    assert shown.evaluate("window.explorer.boxes()") > 0


@pytest.mark.parametrize("page", pages.PAGES, ids=lambda page: page.name)
def test_the_committed_japanese_page_shows_no_english_sentence(page, open_page):
    shown = open_page(pages.OUT / "ja" / page.name)
    assert shown.evaluate("document.documentElement.lang") == "ja"
    assert english_on(shown) == []
