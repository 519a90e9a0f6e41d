"""Each page of the gallery (docs/pages/, `make pages`) opened from its committed file in headless
Chromium: it is drawn (window.explorer.ready), it walks to its last step, and it logs no error
and asks nothing from the network. (The browser, and those checks on every page, are
test_explorer_browser.py's.)"""

import json

import pytest

from docs import pages
from tests import test_explorer_browser as shared
from tests.test_pages import DATA

browser, open_page = shared.browser, shared.open_page       # the fixtures, shared


@pytest.mark.parametrize("page", pages.PAGES, ids=lambda page: page.name)
def test_the_committed_page_opens_from_its_file_and_walks_to_its_end(page, open_page):
    path = pages.OUT / page.name
    data = json.loads(DATA.search(path.read_text(encoding="utf-8")).group(2))
    shown = open_page(path)
    assert shown.evaluate("window.explorer.ready") is True
    assert shown.evaluate("window.explorer.steps") == len(data["steps"]) > 0
    assert shown.evaluate("window.explorer.last()") == len(data["steps"])
    assert shown.evaluate("window.explorer.first()") == 0
    assert shown.evaluate("window.explorer.boxes()") > 0
