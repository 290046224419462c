"""The site's text is drawn in its own fonts (docs/assets/openrecipes-fonts.css), loaded from the
site and nowhere else, so a page is laid out the same whatever fonts the machine has.

Which font drew each glyph is Chromium's own answer (the DevTools protocol's
`CSS.getPlatformFontsForNode`), asked once with the machine's fonts and once with DejaVu's alone.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import SEED_ID

from .conftest import Site, fonts_loaded

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}
SEED_PAGE = f"recipes/{SEED_ID}/"
PAGES = ["", SEED_PAGE, "models/llama-3.1-70b/", "methodology/"]
# The text a reader reads: prose, tables (headers, figures, links), headings, code, the header.
TEXT = "article p, article li, article th, article td, article h1, article h2, .md-header__topic"
CODE = "article code, article pre"


def _fonts_drawing(tab: Any, selector: str) -> dict[str, int]:
    """Font family (marked `(system)` when it is not a web font) -> glyphs drawn in it, over the
    visible text of every element `selector` matches."""
    cdp = tab.context.new_cdp_session(tab)
    try:
        cdp.send("DOM.enable")
        cdp.send("CSS.enable")
        root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        node_ids = cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": selector})["nodeIds"]
        drawn: dict[str, int] = {}
        for node_id in node_ids:
            for font in cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node_id})["fonts"]:
                name = font["familyName"] if font["isCustomFont"] else f"{font['familyName']} (system)"
                drawn[name] = drawn.get(name, 0) + font["glyphCount"]
        return drawn
    finally:
        cdp.detach()


def _open(tab: Any, site: Site, path: str, size: dict[str, int]) -> None:
    tab.set_viewport_size(size)
    tab.goto(site.url + path)
    fonts_loaded(tab)
    # The charts are drawn after the fonts: their height is part of the page's.
    tab.wait_for_function("() => [...document.querySelectorAll('.or-chart')].every(c => c.dataset.orDrawn)")


@pytest.mark.parametrize("path", PAGES)
def test_text_is_drawn_only_in_the_sites_own_fonts(fonts_page: Any, site: Site, path: str) -> None:
    _open(fonts_page, site, path, DESKTOP)
    text = _fonts_drawing(fonts_page, TEXT)
    # The faces name themselves: "Roboto", "Roboto Light" (300, the large headings), "Roboto Mono".
    assert [family for family in text if not family.startswith("Roboto")] == [], text
    assert text.get("Roboto", 0) > 200
    code = _fonts_drawing(fonts_page, CODE)
    assert [family for family in code if not family.startswith("Roboto Mono")] == [], code


def test_code_is_drawn_in_the_monospace_face(fonts_page: Any, site: Site) -> None:
    _open(fonts_page, site, SEED_PAGE, DESKTOP)
    code = _fonts_drawing(fonts_page, "article pre code")
    assert set(code) == {"Roboto Mono"} and code["Roboto Mono"] > 100, code


def test_the_sort_buttons_draw_no_character(page: Any, site: Site) -> None:
    """The site's fonts have no arrows or triangles: the sort icons are shapes, so no header asks
    the reader's fonts for a glyph."""
    _open(page, site, "", DESKTOP)
    assert page.locator(".or-sort__icon").count() > 5
    assert _fonts_drawing(page, "th, th *").keys() <= {"Roboto"}


def test_the_fonts_come_from_the_site_itself(page: Any, site: Site) -> None:
    """Every font file the page fetched is one of the site's own (a request to another host fails
    the test in `page`), and the body face is among them."""
    _open(page, site, SEED_PAGE, DESKTOP)
    fetched = page.evaluate(
        "() => performance.getEntriesByType('resource').map(r => r.name).filter(n => n.endsWith('.woff2'))"
    )
    assert site.url + "assets/vendor/fonts/roboto-latin-400-normal.woff2" in fetched
    assert all(name.startswith(site.url + "assets/vendor/fonts/") for name in fetched), fetched


# Widths and heights that would change with the font: the article's tables, the headline figures'
# boxes and the page's own height.
GEOMETRY = """() => ({
  tables: [...document.querySelectorAll('article table')].filter(t => t.offsetParent)
    .map(t => Math.round(t.getBoundingClientRect().width)),
  figures: [...document.querySelectorAll('.or-figures > .or-figure')]
    .map(f => Math.round(f.getBoundingClientRect().height)),
  page: document.documentElement.scrollHeight,
})"""


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1440", "390"])
@pytest.mark.parametrize("path", ["", SEED_PAGE])
def test_a_page_is_laid_out_the_same_with_dejavu_alone(
    page: Any, dejavu_only_context: Any, site: Site, path: str, size: dict[str, int]
) -> None:
    """With the reader's fonts, DejaVu Sans made the home table 1,533 px in 1,432 and the phone's
    recipe page 1,900 px taller; in the site's own fonts the machine's fonts change nothing."""
    _open(page, site, path, size)
    default = page.evaluate(GEOMETRY)
    other = dejavu_only_context.new_page()
    try:
        _open(other, site, path, size)
        assert other.evaluate(GEOMETRY) == default
    finally:
        other.close()
