"""The layout at 1,440 px and at a phone's 390 px: the navigation on every page, tables and formulas
that fit or scroll inside a region of their own, never clipped and never widening the page.

The catalogue table's own layout (its columns, its phone cards) is tested with the table; here it
is only held to not widening the page.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import SEED_ID

from .conftest import Site, assert_within_width_budget, fonts_loaded

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}
SEED_PAGE = f"recipes/{SEED_ID}/"
COMPARE_PAGE = f"compare/?a={SEED_ID}&b=llama-3.1-70b/h100/mid"
NAVIGATION = ["Recipes", "Models", "GPUs", "Compare", "Methodology", "Data", "Contribute"]

# Every table of the article (the catalogue tables and the matrix too) that is cut off: wider than the article,
# or scrolling inside an element between it and the article.
CLIPPED_TABLES = """() => {
  const article = document.querySelector('article').getBoundingClientRect();
  const clipped = [];
  for (const table of document.querySelectorAll('article table')) {
    if (!table.offsetParent) continue;
    const name = (table.querySelector('th') || table).textContent.trim().slice(0, 30);
    if (table.getBoundingClientRect().right > article.right + 1) clipped.push(`${name}: past the article`);
    for (let e = table; e && e.tagName !== 'ARTICLE'; e = e.parentElement) {
      if (e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible') {
        clipped.push(`${name}: ${e.scrollWidth}px scrolling in ${e.clientWidth}px`);
        break;
      }
    }
  }
  return clipped;
}"""


def open_at(page: Any, site: Site, path: str, size: dict[str, int]) -> None:
    page.set_viewport_size(size)
    page.goto(site.url + path)
    if path.startswith("compare/"):
        page.wait_for_selector("[data-or-compare-fields] tbody tr")
    fonts_loaded(page)


@pytest.mark.parametrize("path", ["", SEED_PAGE, "models/llama-3.1-70b/", COMPARE_PAGE, "methodology/", "about/"])
def test_the_navigation_is_in_the_header_at_1440_px(page: Any, site: Site, path: str) -> None:
    open_at(page, site, path, DESKTOP)
    tabs = page.locator("nav.md-tabs a.md-tabs__link")
    shown = [text.strip() for text in tabs.all_inner_texts()]
    assert [name for name in NAVIGATION if name not in shown] == []
    for name in NAVIGATION:
        assert page.locator("nav.md-tabs a.md-tabs__link", has_text=name).first.is_visible(), name
    page.locator("nav.md-tabs a.md-tabs__link", has_text="GPUs").click()
    page.wait_for_url("**/gpus/")


@pytest.mark.parametrize("path", ["", SEED_PAGE])
def test_the_navigation_is_in_the_drawer_on_a_phone(page: Any, site: Site, path: str) -> None:
    open_at(page, site, path, PHONE)
    assert not page.locator("nav.md-tabs").is_visible()
    page.click("label.md-header__button[for='__drawer']")
    drawer = page.locator(".md-sidebar--primary nav.md-nav--primary")
    for name in NAVIGATION:
        # The current page is a label there (it opens the page's contents), the others links.
        assert drawer.locator(".md-nav__link", has_text=name).first.is_visible(), name
    drawer.locator("a.md-nav__link", has_text="Compare").first.click()
    page.wait_for_url("**/compare/")


@pytest.mark.parametrize(
    "path",
    [
        "",
        "models/llama-3.1-70b/",
        "gpus/h100/",
        SEED_PAGE,
        COMPARE_PAGE,
        "models/",
        "gpus/",
        "methodology/",
        "schema/",
        "data/",
        "contributing/",
    ],
)
def test_no_table_is_clipped_at_1440_px(fonts_page: Any, site: Site, path: str) -> None:
    open_at(fonts_page, site, path, DESKTOP)
    assert fonts_page.evaluate(CLIPPED_TABLES) == []


@pytest.mark.parametrize("path", ["", "models/llama-3.1-70b/", "gpus/h100/"])
def test_the_catalogue_table_keeps_to_its_width_budget_at_1440_px(fonts_page: Any, site: Site, path: str) -> None:
    open_at(fonts_page, site, path, DESKTOP)
    assert_within_width_budget(fonts_page)


def test_data_pages_use_the_width_of_the_screen(page: Any, site: Site) -> None:
    """Material's grid stopped at 1,220 px with a sidebar on each side: 688 px for a recipe's
    tables. The compare page and the home page give up the table of contents as well."""
    widths = {}
    for path in (SEED_PAGE, COMPARE_PAGE, ""):
        open_at(page, site, path, DESKTOP)
        widths[path] = page.evaluate("document.querySelector('article').getBoundingClientRect().width")
    assert widths[SEED_PAGE] >= 1100
    assert widths[COMPARE_PAGE] >= 1350 and widths[""] >= 1350


def test_every_check_result_badge_is_whole_at_1440_px(fonts_page: Any, site: Site) -> None:
    page = fonts_page
    open_at(page, site, SEED_PAGE, DESKTOP)
    cut = page.eval_on_selector_all(
        "table.or-checks .or-badge",
        """badges => badges.filter(b => {
          const r = b.getBoundingClientRect(), t = b.closest('table').getBoundingClientRect();
          return r.right > t.right || r.right > innerWidth || b.scrollWidth > b.clientWidth;
        }).map(b => b.closest('tr').cells[0].textContent)""",
    )
    assert page.locator("table.or-checks .or-badge").count() > 10
    assert cut == []


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1440", "390"])
def test_both_recipes_of_a_comparison_are_side_by_side(page: Any, site: Site, size: dict[str, int]) -> None:
    open_at(page, site, COMPARE_PAGE, size)
    for table in ("[data-or-compare-figures]", "[data-or-compare-fields]"):
        rights = page.eval_on_selector_all(f"{table} thead th", "ths => ths.map(t => t.getBoundingClientRect().right)")
        assert len(rights) == 3, table
        assert max(rights) <= size["width"], table


def test_headline_figures_are_two_a_row_on_a_phone(fonts_page: Any, site: Site) -> None:
    page = fonts_page
    open_at(page, site, SEED_PAGE, PHONE)
    tops = page.eval_on_selector_all(".or-figures > .or-figure", "els => els.map(e => e.getBoundingClientRect().top)")
    assert len(tops) == 7 and tops[0] == tops[1] and tops[2] == tops[3] and tops[1] < tops[2]


def test_schema_field_names_are_never_broken(page: Any, site: Site) -> None:
    open_at(page, site, "schema/", DESKTOP)
    broken = page.eval_on_selector_all(
        "article td:first-child > code:only-child",
        "codes => codes.filter(c => c.getClientRects().length > 1).map(c => c.textContent)",
    )
    assert page.locator("article td:first-child > code:only-child").count() > 50
    assert broken == []


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1440", "390"])
def test_formulas_wrap_instead_of_being_clipped(page: Any, site: Site, size: dict[str, int]) -> None:
    open_at(page, site, "methodology/", size)
    overflowing = page.eval_on_selector_all(
        "pre.or-formula > code", "codes => codes.map(c => c.scrollWidth - c.clientWidth)"
    )
    assert len(overflowing) == 3  # MFU (a line per training method), $ / 1M, the cost to train
    assert max(overflowing) <= 1


@pytest.mark.parametrize("path", ["", SEED_PAGE, COMPARE_PAGE, "methodology/", "schema/"])
def test_nothing_widens_the_page_on_a_phone(fonts_page: Any, site: Site, path: str) -> None:
    open_at(fonts_page, site, path, PHONE)
    assert fonts_page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_table_wider_than_a_phone_scrolls_in_a_region_the_keyboard_reaches(page: Any, site: Site) -> None:
    open_at(page, site, SEED_PAGE, PHONE)
    region = page.locator(".or-scroll:has(> table.or-checks)")
    assert region.get_attribute("tabindex") == "0"
    assert region.get_attribute("aria-label") == "Checks"
    assert region.evaluate("r => r.scrollWidth > r.clientWidth")
    region.focus()
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    page.wait_for_function("r => r.scrollLeft > 0", arg=region.element_handle())


def test_the_price_age_flag_is_visible_beside_the_figures(page: Any, site: Site) -> None:
    open_at(page, site, SEED_PAGE, DESKTOP)
    flag = page.locator("section:has(> .or-figures) + .or-flag[data-or-flag='price-age']")
    assert flag.is_visible()
    assert "days older than the measurement" in flag.locator(".admonition-title").inner_text()


def test_numbers_in_the_catalogue_tables_are_right_aligned(page: Any, site: Site) -> None:
    """Digits line up by place in a column (Material's own table rule would align them left)."""
    for path in ("", "models/llama-3.1-70b/"):
        open_at(page, site, path, DESKTOP)
        aligns = page.eval_on_selector_all(
            ".or-catalogue td.or-num", "tds => [...new Set(tds.map(td => getComputedStyle(td).textAlign))]"
        )
        assert aligns == ["right"], path
