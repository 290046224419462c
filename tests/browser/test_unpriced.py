"""Rows without a price in Chromium (issue 22, item 5): never ranked among the priced rows, whichever
way the table is sorted, a line where the ranking ends, and "enter yours" opening the price basis at
the GPU type's own field; a typed price ranks the row like any other.

The shared test catalogue (conftest.RECIPES): one recipe on MI325X, which has no public price, and
faster per GPU than every 70B recipe."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import DEFAULT_ORDER, Site

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

UNPRICED = "llama-3.1-70b/mi325x/onprem"
ROWS = "[data-or-catalogue] tbody tr[data-recipe]"


def goto(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_function(
        "() => window.OpenRecipes.priceBasis.loaded() && document.querySelector('[data-or-basis-preset]')"
    )


def rows(page: Any) -> list[tuple[str, bool]]:
    """Each row's recipe, and whether it carries the line where the ranking by cost ends."""
    found = page.eval_on_selector_all(
        ROWS, "rows => rows.map(r => [r.dataset.recipe, r.classList.contains('or-unranked-first')])"
    )
    return [(recipe_id, line) for recipe_id, line in found]


def cell(page: Any, recipe_id: str) -> str:
    return page.text_content(f"tr[data-recipe='{recipe_id}'] [data-usd-per-mtok]")


def test_an_unpriced_row_is_last_in_either_direction_under_the_line(page: Any, site: Site) -> None:
    priced = [recipe_id for recipe_id in DEFAULT_ORDER if recipe_id != UNPRICED]
    goto(page, site.url)
    assert rows(page) == [*((r, False) for r in priced), (UNPRICED, True)]
    goto(page, site.url + "?sort=usd&dir=desc")
    page.wait_for_function(f"() => document.querySelector('{ROWS}').dataset.recipe === '{priced[-1]}'")
    assert rows(page) == [*((r, False) for r in reversed(priced)), (UNPRICED, True)]
    goto(page, site.url + "?sort=usd&dir=asc")
    assert rows(page) == [*((r, False) for r in priced), (UNPRICED, True)]
    assert cell(page, UNPRICED) == "no public price — enter yours"
    # Sorted by throughput it is ranked like any row (second: only the 8B recipe is faster), and no
    # line is drawn.
    goto(page, site.url + "?sort=tokens&dir=desc")
    page.wait_for_function(f"() => document.querySelector('{ROWS}').dataset.recipe === 'llama-3.1-8b/h100/cheap'")
    assert [recipe_id for recipe_id, _ in rows(page)].index(UNPRICED) == 1
    assert all(not line for _, line in rows(page))


def test_enter_yours_opens_the_gpu_types_field_and_a_typed_price_ranks_the_row(page: Any, site: Site) -> None:
    goto(page, site.url)
    note = "[data-or-basis-unpriced]"
    assert page.text_content(note) == (
        "No public price for MI325X: its recipes are not ranked by cost (they come after the priced ones, "
        "whichever way the table is sorted). Type your own $ per GPU-hour below to price and rank them."
    )
    assert not page.evaluate("document.querySelector('[data-or-basis-own]').open")
    page.click(f"tr[data-recipe='{UNPRICED}'] [data-or-enter-price]")
    assert page.evaluate("document.querySelector('[data-or-basis-own]').open")
    assert page.evaluate("document.activeElement.getAttribute('data-or-basis-gpu')") == "MI325X"
    page.keyboard.type("0.01")
    page.wait_for_function(f"() => document.querySelector('{ROWS}').dataset.recipe === '{UNPRICED}'")
    # $0.01 per GPU-hour at 2,000 tokens/s per GPU: the cheapest row, ranked, with no line and no button.
    assert rows(page)[0] == (UNPRICED, False)
    assert all(not line for _, line in rows(page))
    assert cell(page, UNPRICED) == "$0.001389"
    assert page.is_hidden(note)
    assert page.is_hidden(".or-matrix td[data-gpu='MI325X'] [data-or-enter-price]")
