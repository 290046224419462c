"""axe-core on the built site, in the light and the dark palette, and the contrasts axe cannot see.

axe-core comes inside the axe-playwright-python wheel (axe.min.js): nothing is fetched when the
tests run. A serious or critical violation fails the test, whether it comes from the site's own
markup or from the theme's (the search dialog, the progress bar, the copy button, the footer).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from conftest import SEED_ID

from .conftest import Site

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

SEED_PAGE = f"recipes/{SEED_ID}/"
COMPARE_PAGE = f"compare/?a={SEED_ID}&b=llama-3.1-70b/h100/mid"
PAGES = {
    "home": "",
    "recipe": SEED_PAGE,
    "model": "models/llama-3.1-70b/",
    "gpu": "gpus/h100/",
    "compare": COMPARE_PAGE,
}
SCHEMES = {"light": "default", "dark": "slate"}
BLOCKING = ("serious", "critical")

# The colour a page paints behind an element: its own background, else the nearest ancestor's, each
# laid over the one behind it (Material's colours have alpha).
_CONTRAST = """
([selector, property]) => {
  const parse = (text) => {
    const m = text.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const [r, g, b, a] = m[1].split(/[\\s,/]+/).filter(Boolean).map(Number);
    return [r, g, b, a === undefined ? 1 : a];
  };
  const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat(1);
  const backdrop = (element) => {
    const layers = [];
    for (let e = element; e; e = e.parentElement) {
      const colour = parse(getComputedStyle(e).backgroundColor);
      if (colour && colour[3] > 0) layers.push(colour);
      if (colour && colour[3] === 1) break;
    }
    return layers.reverse().reduce((under, top) => over(top, under), [255, 255, 255, 1]);
  };
  const luminance = (rgb) => {
    const [r, g, b] = rgb.slice(0, 3).map((c) => {
      c /= 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const element = document.querySelector(selector);
  const behind = backdrop(element);
  const front = over(parse(getComputedStyle(element)[property]), behind);
  const [light, dark] = [luminance(front), luminance(behind)].sort((a, b) => b - a);
  return (light + 0.05) / (dark + 0.05);
}
"""


def use_palette(page: Any, scheme: str) -> None:
    """Switch to `scheme` with the header's toggle, as a reader does (the choice is remembered)."""
    if page.evaluate("document.body.dataset.mdColorScheme") != scheme:
        page.click("label.md-header__button[for^='__palette']:visible")
        page.wait_for_function("s => document.body.dataset.mdColorScheme === s", arg=scheme)
        page.wait_for_timeout(400)  # Material eases colours over up to 250 ms: judge them after


@pytest.fixture
def palette_page(page: Any) -> Iterator[Any]:
    """The `page`, put back in the light palette afterwards: the browser profile keeps the choice."""
    yield page
    if not page.is_closed() and page.evaluate("document.body.dataset.mdColorScheme") != "default":
        use_palette(page, "default")


def settled(page: Any, path: str) -> None:
    """Wait until the page's scripts have drawn what they draw: charts, the comparison."""
    if page.locator(".or-chart").count():
        page.wait_for_function("() => [...document.querySelectorAll('.or-chart')].every(c => c.dataset.orDrawn)")
    if path.startswith("compare/"):
        page.wait_for_selector("[data-or-compare-fields] tbody tr")


def blocking_violations(page: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page).response
    return [
        f"{violation['id']} ({violation['impact']}): {violation['help']}\n"
        + "\n".join(
            f"    {', '.join(map(str, node['target']))}: {node.get('failureSummary', '').splitlines()[-1].strip()}"
            for node in violation["nodes"]
        )
        for violation in results["violations"]
        if violation["impact"] in BLOCKING
    ]


@pytest.mark.parametrize("palette", SCHEMES)
@pytest.mark.parametrize("name", PAGES)
def test_axe_finds_no_serious_or_critical_violation(palette_page: Any, site: Site, name: str, palette: str) -> None:
    page = palette_page
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(site.url + PAGES[name])
    use_palette(page, SCHEMES[palette])
    settled(page, PAGES[name])
    violations = blocking_violations(page)
    assert violations == [], f"{name} in the {palette} palette:\n" + "\n".join(violations)


def test_axe_sees_the_theme_markup_it_checks(page: Any, site: Site) -> None:
    """The run above is worth something only if axe reaches the theme's parts: the named search
    dialog and progress bar are there, and an unnamed one would be reported."""
    page.goto(site.url + SEED_PAGE)
    assert page.get_attribute(".md-search[role='dialog']", "aria-label") == "Search"
    assert page.get_attribute(".md-progress[role='progressbar']", "aria-label")
    page.evaluate("document.querySelector('.md-search').removeAttribute('aria-label')")
    assert any(v.startswith("aria-dialog-name") for v in blocking_violations(page))


@pytest.mark.parametrize("palette", SCHEMES)
def test_outlined_buttons_read_at_4_5_to_1_at_rest_and_hovered(palette_page: Any, site: Site, palette: str) -> None:
    page = palette_page
    page.goto(site.url + SEED_PAGE)
    use_palette(page, SCHEMES[palette])
    button = ".or-actions .md-button"
    assert page.evaluate(_CONTRAST, [button, "color"]) >= 4.5
    page.hover(button)
    page.wait_for_timeout(200)  # Material eases the colours over 125 ms
    assert page.evaluate(_CONTRAST, [button, "color"]) >= 4.5


@pytest.mark.parametrize("palette", SCHEMES)
def test_copy_button_is_visible_before_the_code_is_hovered(palette_page: Any, site: Site, palette: str) -> None:
    """A control's icon needs 3:1 against what is behind it (WCAG 1.4.11), hovered or not."""
    page = palette_page
    page.goto(site.url + SEED_PAGE)
    use_palette(page, SCHEMES[palette])
    page.mouse.move(0, 0)
    copy = "div.highlight[data-or-file='launch.sh'] button.md-code__button[data-md-type='copy']"
    page.wait_for_selector(copy, state="attached")
    page.wait_for_timeout(300)  # Material eases the colour over 250 ms
    assert page.evaluate(_CONTRAST, [copy, "color"]) >= 3
