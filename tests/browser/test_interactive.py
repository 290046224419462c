"""The built site in headless Chromium: the table, charts, copy buttons and compare.

The price basis and the home page's matrix are tested in test_price_basis.py.

Each test opens its pages in a fresh tab of one shared browser; the `page` fixture fails it on any
console error, uncaught exception or request that leaves 127.0.0.1.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
import yaml
from conftest import SEED_DATA, SEED_ID, SEED_PATH

from openrecipes import describe, fmt

from .conftest import DEFAULT_ORDER, Site, Watch

H100_BASIS, H200_BASIS = 3.85, 4.5
"""The default price basis: the cheapest sourced H100 and H200 (reference/instances.yaml, Nebius)."""

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

SEED_PAGE = f"recipes/{SEED_ID}/"
SEED_TOKENS = SEED_DATA["result"]["tokens_per_s_per_gpu"]
POINTS = ".or-chart .js-plotly-plot .scatterlayer .point"
PLOTLY = "assets/javascripts/plotly.min.js"


def charts_drawn(scheme: str = "") -> str:
    """A page function: the page has charts, every one drawn (in the palette `scheme`, if given).
    (At least one: right after instant navigation the old page, without charts, may still be shown.)"""
    test = f"c.dataset.orDrawn === '{scheme}'" if scheme else "c.dataset.orDrawn"
    charts = "[...document.querySelectorAll('.or-chart')]"
    return f"() => {charts}.length > 0 && {charts}.every(c => {test})"


def wait_for_path(page: Any, path: str) -> None:
    """Wait for instant navigation to reach `path` (site-relative), whatever fragment Material's
    heading tracking writes into the address meanwhile."""
    page.wait_for_function("path => location.pathname === path", arg=urlsplit(page.url)._replace(path="/" + path).path)


def wait_for_plotted(page: Any, counts: list[int]) -> None:
    """Wait until the page's charts draw these numbers of points (a change of width while the page
    settles redraws a chart, which empties it for a moment)."""
    page.wait_for_function(
        "counts => JSON.stringify([...document.querySelectorAll('.or-chart')]"
        ".map(c => c.querySelectorAll('.scatterlayer .point').length)) === JSON.stringify(counts)",
        arg=counts,
    )


def row_ids(page: Any) -> list[str]:
    """The table's recipes in display order, visible rows only."""
    return page.eval_on_selector_all(
        "[data-or-catalogue] tbody tr[data-recipe]", "rows => rows.filter(r => !r.hidden).map(r => r.dataset.recipe)"
    )


def wait_for_rows(page: Any, expected: list[str]) -> None:
    """After back or forward, Material may swap in the page it fetched again before the page's
    scripts have run on it: wait until the table shows `expected`, then it is settled."""
    page.wait_for_function(
        "ids => JSON.stringify([...document.querySelectorAll('[data-or-catalogue] tbody tr[data-recipe]')]"
        ".filter(r => !r.hidden).map(r => r.dataset.recipe)) === JSON.stringify(ids)",
        arg=expected,
    )


def wait_for_text(page: Any, selector: str, expected: str) -> None:
    """Like `wait_for_rows`, for the text of the first element `selector` finds."""
    page.wait_for_function(
        "([selector, text]) => (document.querySelector(selector) || {}).textContent === text", arg=[selector, expected]
    )


def wait_for_count(page: Any, expected: str) -> None:
    wait_for_text(page, "[data-or-count]", expected)


def query(page: Any) -> dict[str, list[str]]:
    return parse_qs(urlsplit(page.url).query)


def sort_by(page: Any, key: str) -> None:
    page.click(f'th[data-key="{key}"] button')


def sorted_headers(page: Any) -> dict[str, str]:
    """Each header cell with aria-sort, and its value: one, the column the rows are in order of."""
    return page.eval_on_selector_all(
        "th[aria-sort]", "ths => Object.fromEntries(ths.map(th => [th.dataset.key, th.getAttribute('aria-sort')]))"
    )


def tokens_of(site: Site, recipe_id: str) -> float:
    return SEED_TOKENS if recipe_id == SEED_ID else site.recipes[recipe_id]["result"]["tokens_per_s_per_gpu"]


# -- the comparison table -------------------------------------------------------------------------


def test_table_without_script_changes_is_complete_and_in_default_order(page: Any, site: Site) -> None:
    page.goto(site.url)
    assert row_ids(page) == DEFAULT_ORDER
    assert page.text_content("[data-or-count]") == "7 of 7 recipes"
    assert sorted_headers(page) == {"usd": "ascending"}  # the default order's column says so


def test_clicking_a_header_sorts_numbers_as_numbers_with_unpriced_last_both_ways(page: Any, site: Site) -> None:
    page.goto(site.url)

    # Already sorted by $ / 1M, cheapest first: the first click turns it round.
    sort_by(page, "usd")
    assert sorted_headers(page) == {"usd": "descending"}
    assert row_ids(page) == [*reversed(DEFAULT_ORDER[:-1]), DEFAULT_ORDER[-1]]  # unpriced still last
    assert query(page)["sort"] == ["usd"] and query(page)["dir"] == ["desc"]
    sort_by(page, "usd")
    assert sorted_headers(page) == {"usd": "ascending"}
    assert row_ids(page) == DEFAULT_ORDER  # $24.42 sorts after $3.19: as a number, not as text

    sort_by(page, "gpus")  # 8, 8, 16, ..., 128: "128" would come first as text
    assert page.get_attribute('th[data-key="usd"]', "aria-sort") is None
    assert page.get_attribute('th[data-key="gpus"]', "aria-sort") == "ascending"
    counts = page.eval_on_selector_all("tbody tr[data-recipe]", "rows => rows.map(r => Number(r.dataset.count))")
    assert counts == sorted(counts) and counts[-1] == 128
    assert row_ids(page)[:2] == ["llama-3.1-8b/h100/cheap", SEED_ID]  # ties keep the default order

    sort_by(page, "tokens")
    tokens = [tokens_of(site, recipe_id) for recipe_id in row_ids(page)]
    assert tokens == sorted(tokens)  # 90 < 600 < 700 < 900 < 1194.3 < 2000 < 9000

    sort_by(page, "mfu")
    sort_by(page, "mfu")
    assert row_ids(page)[0] == "llama-3.1-70b/mi325x/onprem"  # 64.8%: the highest MFU, though unpriced

    page.click("[data-or-default-order]")
    assert row_ids(page) == DEFAULT_ORDER
    assert "sort" not in query(page)
    assert sorted_headers(page) == {"usd": "ascending"}


@pytest.mark.parametrize("how", ["the cell's padding", "the keyboard"])
def test_the_whole_header_cell_sorts_and_the_keyboard_reaches_it(page: Any, site: Site, how: str) -> None:
    """A click anywhere in a header cell sorts, not only on the words (the button inside it), and
    the keyboard sorts with Tab and Enter or Space on the same button."""
    page.goto(site.url)
    header = page.locator('th[data-key="gpus"]')
    if how == "the keyboard":
        header.locator("button").focus()
        page.keyboard.press("Enter")
    else:
        cell, words = header.bounding_box(), header.locator("button").bounding_box()
        assert cell["height"] > words["height"] + 4 and cell["width"] > words["width"] + 4
        header.click(position={"x": 2, "y": 2})  # the top left corner: padding, outside the button
    assert sorted_headers(page) == {"gpus": "ascending"}
    counts = page.eval_on_selector_all("tbody tr[data-recipe]", "rows => rows.map(r => Number(r.dataset.count))")
    assert counts == sorted(counts)
    if how == "the keyboard":
        page.keyboard.press("Space")
    else:
        header.click(position={"x": 2, "y": 2})
    assert sorted_headers(page) == {"gpus": "descending"}
    assert page.evaluate("getComputedStyle(document.querySelector('th[data-key=gpus]')).cursor") == "pointer"


def test_filters_search_and_count_live_in_the_address(page: Any, site: Site, watch: Watch) -> None:
    page.goto(site.url)
    assert page.text_content('select[data-or-filter="gpu"] option[value="H100"]') == "H100 (4)"

    page.select_option('select[data-or-filter="gpu"]', "H100")
    assert row_ids(page) == [r for r in DEFAULT_ORDER if "/h100/" in r]
    assert page.text_content("[data-or-count]") == "4 of 7 recipes"
    assert query(page)["gpu"] == ["H100"]
    # Counts in the other filters follow: of the 4 H100 recipes, 3 are verified.
    assert page.text_content('select[data-or-filter="status"] option[value="verified"]') == "verified (3)"

    page.select_option('select[data-or-filter="status"]', "verified")
    assert page.text_content("[data-or-count]") == "3 of 7 recipes"
    page.fill("[data-or-search]", "70B pp8")
    assert row_ids(page) == ["llama-3.1-70b/h100/big"]
    assert page.text_content("[data-or-count]") == "1 of 7 recipes"
    page.press("[data-or-search]", "Enter")
    assert query(page) == {"gpu": ["H100"], "status": ["verified"], "search": ["70B pp8"]}
    sort_by(page, "mfu")
    assert query(page)["sort"] == ["mfu"] and query(page)["dir"] == ["asc"]

    def home_loads() -> int:
        return sum(urlsplit(url).path == "/" for url in watch.requests)

    loads = home_loads()
    page.go_back()  # before sorting
    page.wait_for_function("() => !new URL(location.href).searchParams.has('sort')")
    wait_for_rows(page, ["llama-3.1-70b/h100/big"])
    assert page.get_attribute('th[data-key="mfu"]', "aria-sort") is None
    page.go_back()  # before the search
    page.wait_for_function("() => !new URL(location.href).searchParams.has('search')")
    wait_for_count(page, "3 of 7 recipes")
    assert page.input_value("[data-or-search]") == ""
    page.go_back()  # before the status
    page.wait_for_function("() => !new URL(location.href).searchParams.has('status')")
    wait_for_rows(page, [r for r in DEFAULT_ORDER if "/h100/" in r])
    assert page.input_value('select[data-or-filter="status"]') == ""
    page.go_forward()
    page.wait_for_function("() => new URL(location.href).searchParams.get('status') === 'verified'")
    wait_for_count(page, "3 of 7 recipes")
    assert page.input_value('select[data-or-filter="status"]') == "verified"
    # Back and forward within the page re-read the address. Material's instant navigation fetches
    # the page once, the first time, as it has not seen its path since the full load; no more.
    assert home_loads() - loads <= 1

    page.reload()
    assert page.input_value('select[data-or-filter="gpu"]') == "H100"
    assert page.input_value('select[data-or-filter="status"]') == "verified"
    assert page.text_content("[data-or-count]") == "3 of 7 recipes"
    page.go_forward()  # to the search and then the sorting, entries made before the reload
    page.wait_for_function("() => new URL(location.href).searchParams.has('search')")
    page.go_forward()
    page.wait_for_function("() => new URL(location.href).searchParams.has('sort')")
    page.wait_for_selector('th[data-key="mfu"][aria-sort="ascending"]')
    wait_for_rows(page, ["llama-3.1-70b/h100/big"])
    assert page.input_value("[data-or-search]") == "70B pp8"

    page.click("[data-or-clear]")  # the filters go, the sorting stays
    assert query(page) == {"sort": ["mfu"], "dir": ["asc"]}
    assert page.text_content("[data-or-count]") == "7 of 7 recipes"
    page.click("[data-or-default-order]")
    assert row_ids(page) == DEFAULT_ORDER
    assert query(page) == {}


def test_a_shared_address_opens_the_filtered_view(page: Any, site: Site) -> None:
    page.goto(site.url + "?gpu=H200&status=verified&sort=tokens&dir=desc")
    assert row_ids(page) == [SEED_ID, "llama-3.1-70b/h200/tenfold"]
    assert page.text_content("[data-or-count]") == "2 of 7 recipes"
    assert page.get_attribute('th[data-key="tokens"]', "aria-sort") == "descending"
    page.goto(site.url + "?framework=slime")
    assert row_ids(page) == [SEED_ID]
    page.goto(site.url + "?gpu=TPU")  # no such rows: an empty table that says so, no error
    assert row_ids(page) == []
    assert page.is_visible(".or-empty")


def test_model_page_table_sorts_and_filters_after_instant_navigation(page: Any, site: Site) -> None:
    page.goto(site.url + "models/")
    page.evaluate("window.__notReloaded = true")
    page.click("article a[href*='llama-3.1-70b']")
    page.wait_for_url("**/models/llama-3.1-70b/")
    assert page.evaluate("window.__notReloaded") is True  # Material swapped the page in
    page.wait_for_selector(".or-filters")
    assert page.text_content("[data-or-count]") == "5 of 5 recipes"
    assert page.is_hidden('select[data-or-filter="model"]')  # one model: nothing to choose
    page.select_option('select[data-or-filter="gpu"]', "H100")
    sort_by(page, "tokens")
    assert row_ids(page) == ["llama-3.1-70b/h100/pricey", "llama-3.1-70b/h100/big", "llama-3.1-70b/h100/mid"]
    assert query(page)["sort"] == ["tokens"]


# -- charts ---------------------------------------------------------------------------------------


def test_charts_draw_on_a_full_load_and_after_instant_navigation(page: Any, site: Site, watch: Watch) -> None:
    page.goto(site.url + "gpus/h100/")
    page.wait_for_selector(POINTS)
    assert page.locator(POINTS).count() == 4  # the four H100 recipes' MFU (one GPU type: no cost chart)
    page.evaluate("window.__notReloaded = true")

    page.locator("a.md-tabs__link", has_text="Recipes").click()  # the home page
    wait_for_path(page, "")
    assert page.evaluate("window.__notReloaded") is True
    page.wait_for_function(charts_drawn())
    # Llama 3.1 70B's priced recipes (the only model with three, on two GPU types), then every
    # recipe's MFU.
    wait_for_plotted(page, [4, 7])
    assert page.locator(".or-chart .js-plotly-plot").count() == 2

    # Plotly is fetched once for the whole visit, and its stylesheet survives the page swap.
    assert [url for url in watch.requests if url.endswith("plotly.min.js")] == [site.url + PLOTLY]
    assert page.evaluate("!!document.getElementById('plotly.js-style-global')")

    # A recipe page loads no Plotly.
    page.goto(site.url + SEED_PAGE)
    assert page.evaluate("typeof window.Plotly") == "undefined"
    assert [url for url in watch.requests if url.endswith("plotly.min.js")] == [site.url + PLOTLY]


def test_instant_navigation_leaves_no_listeners_behind(page: Any, site: Site) -> None:
    cdp = page.context.new_cdp_session(page)

    def listeners() -> dict[str, list[str]]:
        found = {}
        for name in ("window", "document", "document.body"):
            handle = cdp.send("Runtime.evaluate", {"expression": name})["result"]["objectId"]
            found[name] = sorted(
                item["type"] for item in cdp.send("DOMDebugger.getEventListeners", {"objectId": handle})["listeners"]
            )
        return found

    def round_trip() -> None:
        """Home -> GPUs -> H100 (charts, table, price) -> compare -> home, all by instant navigation."""
        nav = "a.md-tabs__link"  # the navigation, as tabs in the header of every page
        page.locator(nav, has_text="Models").first.click()
        wait_for_path(page, "models/")
        page.locator(nav, has_text="GPUs").first.click()
        wait_for_path(page, "gpus/")
        page.locator("article a", has_text="H100").first.click()
        wait_for_path(page, "gpus/h100/")
        page.wait_for_function(charts_drawn())
        page.select_option("[data-or-basis-preset]", "hyperscaler")
        page.click("[data-or-basis-reset]")  # else every page after this one shows ?basis= in its address
        page.locator(nav, has_text="Compare").first.click()
        wait_for_path(page, "compare/")
        page.wait_for_selector("[data-or-compare-add]")
        page.locator(nav, has_text="Recipes").first.click()
        wait_for_path(page, "")
        page.wait_for_function(charts_drawn())

    page.goto(site.url)
    page.wait_for_function(charts_drawn())
    page.evaluate("window.__notReloaded = true")
    round_trip()
    before = listeners()
    round_trip()
    round_trip()
    assert page.evaluate("window.__notReloaded") is True
    assert listeners() == before


def test_clicking_a_point_opens_its_recipe(page: Any, site: Site) -> None:
    page.goto(site.url + "models/llama-3.1-70b/")
    page.wait_for_function(charts_drawn())
    page.evaluate("window.__notReloaded = true")
    point = page.locator(POINTS).first
    point.scroll_into_view_if_needed()
    box = point.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_url(re.compile(r"/recipes/"))
    assert re.fullmatch(r"/recipes/llama-3\.1-70b/[a-z0-9]+/[a-z]+/", urlsplit(page.url).path)
    assert page.evaluate("window.__notReloaded") is True


def test_palette_toggle_redraws_charts_in_the_new_colours(page: Any, site: Site) -> None:
    page.goto(site.url)
    page.wait_for_selector(POINTS)
    chart = ".or-chart"
    tick_colour = "el => getComputedStyle(el.querySelector('.xtick text')).fill"
    light = page.eval_on_selector(chart, tick_colour)
    assert page.get_attribute(chart, "data-or-drawn") == "default"

    page.click("label.md-header__button[for^='__palette']:visible")
    page.wait_for_function("() => document.body.dataset.mdColorScheme === 'slate'")
    page.wait_for_function(charts_drawn("slate"))
    dark = page.eval_on_selector(chart, tick_colour)
    assert dark != light
    background = page.eval_on_selector(chart, "el => el.querySelector('.main-svg').style.background")
    assert background in ("rgba(0, 0, 0, 0)", "transparent")
    wait_for_plotted(page, [4, 7])

    page.click("label.md-header__button[for^='__palette']:visible")
    page.wait_for_function(charts_drawn("default"))
    assert page.eval_on_selector(chart, tick_colour) == light


# -- recipe pages ---------------------------------------------------------------------------------


def test_copy_button_puts_the_exact_launch_script_on_the_clipboard(page: Any, site: Site) -> None:
    run = yaml.safe_load(SEED_PATH.read_text(encoding="utf-8"))["run"]
    page.goto(site.url + SEED_PAGE)
    page.evaluate("navigator.clipboard.writeText('')")
    block = page.locator("div.highlight[data-or-file='launch.sh']")
    block.hover()
    block.locator("button.md-code__button[data-md-type='copy']").click()
    page.wait_for_function("async () => (await navigator.clipboard.readText()) !== ''")
    copied = page.evaluate("navigator.clipboard.readText()")
    # Material trims trailing whitespace; everything else byte for byte.
    assert copied == run.rstrip()
    assert copied.encode("utf-8") == run.rstrip().encode("utf-8")


def test_recipe_page_links_to_compare_with_itself_chosen(page: Any, site: Site) -> None:
    page.goto(site.url + SEED_PAGE)
    page.evaluate("window.__notReloaded = true")
    page.click("a.md-button:has-text('Compare with other recipes')")
    page.wait_for_url(re.compile(r"/compare/\?a="))
    assert query(page) == {"a": [SEED_ID]}
    assert page.evaluate("window.__notReloaded") is True
    page.wait_for_selector(f"[data-or-compare-chosen] li[data-recipe='{SEED_ID}']")
    assert "Add at least one more recipe" in page.text_content(".or-compare")

    page.select_option("[data-or-compare-add]", "llama-3.1-8b/h100/cheap")
    page.wait_for_selector("[data-or-compare-figures]")
    assert query(page) == {"a": [SEED_ID], "b": ["llama-3.1-8b/h100/cheap"]}


# -- compare ----------------------------------------------------------------------------------------


def test_compare_shows_deltas_differing_fields_and_a_script_diff(page: Any, site: Site) -> None:
    page.goto(site.url + "compare/?a=llama-3.1-70b/h100/mid&b=llama-3.1-70b/h100/big")
    page.wait_for_selector("[data-or-compare-figures]")

    def metric(label: str) -> list[str]:
        return page.eval_on_selector_all(
            f"[data-or-compare-figures] tr[data-metric='{label}'] td", "cells => cells.map(c => c.innerText.trim())"
        )

    def at(usd_per_gpu_hour: float) -> list[str]:
        mid, big = (usd_per_gpu_hour / (tokens * 3600) * 1e6 for tokens in (900.0, 700.0))
        return [fmt.usd(mid), f"{fmt.usd(big)}\n+{fmt.usd(big - mid)} ({describe.relative_change(big, mid)})"]

    assert metric("Tokens/s per GPU") == ["900", "700\n−22.2%"]
    # At the price basis, not at the instances their authors rented (below a dollar: four figures).
    assert metric("$ / 1M tokens") == at(H100_BASIS) == ["$1.19", "$1.53\n+$0.3395 (+28.6%)"]
    # MFU names its peak; N is Llama 3.1 70B's less its input embedding.
    n = 70_553_706_496 - 128_256 * 8_192
    points = describe.point_change(6 * n * 700 / 989e12, 6 * n * 900 / 989e12)
    assert metric("MFU")[1].endswith(f" vs BF16 peak\n{points}")
    assert metric("Step-time CV")[1].endswith("same")
    run_cost = ["$82.56", "$660.48\n+$577.92 (+700.0%)"]  # at their own instance, whatever the basis
    assert metric("Run cost") == run_cost

    # A price of the reader's own, in the address as price.js keeps it: the figures follow.
    page.goto(site.url + "compare/?a=llama-3.1-70b/h100/mid&b=llama-3.1-70b/h100/big&H100=3")
    page.wait_for_function(
        "expected => document.querySelector(\"[data-or-compare-figures] tr[data-metric='$ / 1M tokens'] td\")"
        "?.innerText.trim() === expected",
        arg=at(3.0)[0],
    )
    assert metric("$ / 1M tokens") == at(3.0)
    assert metric("Run cost") == run_cost

    def differs(path: str) -> str:
        return page.get_attribute(f"[data-or-compare-fields] tr[data-path='{path}']", "data-differs")

    assert differs("layout.pp") == "true"
    assert differs("gpu.count") == "true"
    assert differs("layout.tp") == "false"
    assert differs("env.NCCL_DEBUG") == "false"
    assert differs("stack.nccl") == "false"
    assert page.locator("[data-or-compare-fields] tr.or-differs").count() >= 5

    diff = page.eval_on_selector_all("[data-or-diff] .or-diff__line", "lines => lines.map(l => l.textContent)")
    assert diff == [
        " torchrun --nproc-per-node 8 pretrain_gpt.py \\",
        "   --tensor-model-parallel-size 8 \\",
        "-  --pipeline-model-parallel-size 2",
        "+  --pipeline-model-parallel-size 8",
    ]
    assert page.text_content("[data-or-diff] .or-diff__hunk") == "@@ -1,3 +1,3 @@"

    page.check("[data-or-compare-only-differences]")
    assert not page.is_visible("[data-or-compare-fields] tr[data-path='layout.tp']")
    assert page.is_visible("[data-or-compare-fields] tr[data-path='layout.pp']")


def test_compare_shows_differences_under_a_cent_and_says_what_a_recipe_does_not_publish(page: Any, site: Site) -> None:
    # The second recipe's record as a published one would be: a throughput close to the first's,
    # no step-time CV and no GPU-hours (so no run cost either).
    other = "llama-3.1-70b/h100/big"

    def published(route: Any) -> None:
        response = route.fetch()
        record = response.json()
        result = record["fields"]["result"]
        result["tokens_per_s_per_gpu"] = 8800.0
        del result["step_time_cv_percent"], result["gpu_hours"], record["derived"]["run_cost_usd"]
        route.fulfill(response=response, json=record)

    page.route(f"**/api/recipes/{other}.json", published)
    page.goto(site.url + f"compare/?a=llama-3.1-8b/h100/cheap&b={other}")
    page.wait_for_selector("[data-or-compare-figures]")

    def metric(label: str) -> list[str]:
        return page.eval_on_selector_all(
            f"[data-or-compare-figures] tr[data-metric='{label}'] td", "cells => cells.map(c => c.innerText.trim())"
        )

    # $0.1188 against $0.1215: under a cent apart, and 2.3% is not "same".
    cheap, close = (H100_BASIS / (tokens * 3600) * 1e6 for tokens in (9000.0, 8800.0))
    change = f"+{fmt.usd(close - cheap)} ({describe.relative_change(close, cheap)})"
    assert metric("$ / 1M tokens") == [fmt.usd(cheap), f"{fmt.usd(close)}\n{change}"]
    assert change.startswith("+$0.00")
    # Absent figures say so, with no difference against the other recipe's.
    assert metric("Step-time CV")[1] == "not published"
    assert metric("GPU-hours")[1] == "not published"
    assert metric("Run cost")[1] == "not published (no GPU-hours)"
    assert page.locator("[data-or-compare-figures] tr[data-metric='GPU-hours'] [data-delta]").count() == 0
    cells = page.eval_on_selector_all(
        "[data-or-compare-fields] tr[data-path='result.gpu_hours'] td", "cells => cells.map(c => c.innerText.trim())"
    )
    assert cells[1] == "not published"


def test_compare_three_recipes_against_the_seed_and_change_the_choice(page: Any, site: Site) -> None:
    page.goto(site.url + f"compare/?a={SEED_ID}&b=llama-3.1-8b/h100/cheap&c=llama-3.1-70b/mi325x/onprem")
    page.wait_for_selector("[data-or-compare-figures]")
    assert page.locator("[data-or-compare-figures] thead th").count() == 4
    price_cells = page.eval_on_selector_all(
        "[data-or-compare-figures] tr[data-metric='$ / 1M tokens'] td", "cells => cells.map(c => c.innerText.trim())"
    )
    seed = H200_BASIS / (SEED_TOKENS * 3600) * 1e6
    cheap = H100_BASIS / (9000.0 * 3600) * 1e6
    change = f"−{fmt.usd(seed - cheap)} ({describe.relative_change(cheap, seed)})"
    assert price_cells == [fmt.usd(seed), f"{fmt.usd(cheap)}\n{change}", "no public price"]  # no difference to show
    assert page.get_attribute("[data-or-compare-fields] tr[data-path='stack.framework']", "data-differs") == "true"
    # The seed's script and a synthetic one share no line: all removed, all added.
    cheap = page.locator("[data-or-diff='llama-3.1-8b/h100/cheap'] .or-diff__line")
    assert cheap.filter(has_text=re.compile(r"^\+")).count() == 3

    page.click(
        "[data-or-compare-chosen] li[data-recipe='llama-3.1-70b/mi325x/onprem'] button:has-text('Make baseline')"
    )
    assert query(page) == {"a": ["llama-3.1-70b/mi325x/onprem"], "b": [SEED_ID], "c": ["llama-3.1-8b/h100/cheap"]}
    page.click(f"[data-or-compare-chosen] li[data-recipe='{SEED_ID}'] button:has-text('Remove')")
    assert query(page) == {"a": ["llama-3.1-70b/mi325x/onprem"], "b": ["llama-3.1-8b/h100/cheap"]}
    page.go_back()
    page.wait_for_function("() => new URL(location.href).searchParams.has('c')")
    page.wait_for_function("() => document.querySelectorAll('[data-or-compare-figures] thead th').length === 4")


def test_compare_loads_the_records_it_shows_and_the_list_only_to_choose(page: Any, site: Site, watch: Watch) -> None:
    page.goto(site.url + "compare/?a=llama-3.1-70b/h100/mid&b=llama-3.1-70b/h100/big")
    page.wait_for_selector("[data-or-diff] .or-diff__line")
    data = [url.removeprefix(site.url) for url in watch.requests if "/api/" in url]
    assert sorted(data) == ["api/recipes/llama-3.1-70b/h100/big.json", "api/recipes/llama-3.1-70b/h100/mid.json"]

    page.focus("[data-or-compare-filter]")
    page.fill("[data-or-compare-filter]", "cheap")
    page.wait_for_selector("[data-or-compare-add] option[value='llama-3.1-8b/h100/cheap']", state="attached")
    assert [url for url in watch.requests if url.endswith("/api/index.json")] == [site.url + "api/index.json"]
    page.select_option("[data-or-compare-add]", "llama-3.1-8b/h100/cheap")
    page.wait_for_function("() => document.querySelectorAll('[data-or-compare-figures] thead th').length === 4")
    assert not any(url.endswith("/api/recipes.json") for url in watch.requests)


def test_compare_works_under_a_strict_content_security_policy(page: Any, site: Site, watch: Watch) -> None:
    """The diff library included, nothing on the page needs eval or an inline script: a policy of
    `script-src 'self'` sent by the server (besides the page's own) changes nothing."""

    def with_policy(route: Any) -> None:
        response = route.fetch()
        route.fulfill(response=response, headers={**response.headers, "content-security-policy": "script-src 'self'"})

    page.route(re.compile(r"/compare/(\?.*)?$"), with_policy)
    page.goto(site.url + "compare/?a=llama-3.1-70b/h100/mid&b=llama-3.1-70b/h100/big")
    page.wait_for_selector("[data-or-diff] .or-diff__line")
    assert page.text_content("[data-or-diff] .or-diff__hunk") == "@@ -1,3 +1,3 @@"
    assert page.evaluate("OpenRecipes.diffLibrary") == site.url + "assets/vendor/diff.min.js"
    assert site.url + "assets/vendor/diff.min.js" in watch.requests
    # The page fixture fails the test on any console error: a refused script or eval would be one.


def test_compare_says_so_when_the_diff_library_cannot_load(page: Any, site: Site, watch: Watch) -> None:
    # A library whose bytes are not the site's is refused by its integrity (the policy allows
    # scripts by hash): the browser says so on the console, and the page says the diff is missing.
    page.route("**/assets/vendor/diff.min.js", lambda route: route.fulfill(status=200, body="/* empty */"))
    page.goto(site.url + "compare/?a=llama-3.1-70b/h100/mid&b=llama-3.1-70b/h100/big")
    page.wait_for_selector("[data-or-diff-unavailable]")
    assert page.locator("[data-or-compare-figures] tr[data-metric='MFU']").count() == 1
    refused = [error for error in watch.errors if "integrity" in error and "diff.min.js" in error]
    assert len(refused) == 1, watch.errors
    watch.errors.remove(refused[0])


def test_compare_with_unknown_ids_says_so(page: Any, site: Site, watch: Watch) -> None:
    page.goto(site.url + "compare/?a=no/such/recipe&b=llama-3.1-70b/h100/mid&c=%3Cscript%3Ealert(1)%3C/script%3E")
    page.wait_for_selector("[data-or-compare-unknown]")
    message = page.text_content("[data-or-compare-unknown]")
    assert "no/such/recipe" in message and "<script>alert(1)</script>" in message
    assert page.locator(".or-compare script").count() == 0
    assert "Add at least one more recipe" in page.text_content(".or-compare")
    page.click("[data-or-compare-drop]")
    assert query(page) == {"a": ["llama-3.1-70b/h100/mid"]}
    # An id of a recipe's form is looked up (and not found: the browser reports the 404 as a
    # console error, the one expected here); anything else is never made into an address.
    records = [url for url in watch.requests if "/api/recipes/" in url]
    asked = ("llama-3.1-70b/h100/mid", "no/such/recipe")
    assert sorted(records) == [f"{site.url}api/recipes/{recipe_id}.json" for recipe_id in asked]
    page.wait_for_timeout(100)
    not_found = [error for error in watch.errors if "status of 404" in error]
    assert len(not_found) == 1
    watch.errors.remove(not_found[0])


# -- every page -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "",
        "models/",
        "models/llama-3.1-70b/",
        "gpus/",
        "gpus/mi325x/",
        SEED_PAGE,
        "recipes/llama-3.1-70b/mi325x/onprem/",
        "compare/",
        "methodology/",
        "data/",
        "schema/",
        "about/",
    ],
)
def test_every_page_loads_without_errors_or_requests_to_other_hosts(
    page: Any, site: Site, watch: Watch, path: str
) -> None:
    page.goto(site.url + path, wait_until="networkidle")
    if page.locator(".or-chart").count():
        page.wait_for_function(charts_drawn())
    else:
        assert not any(url.endswith("plotly.min.js") for url in watch.requests)
    # The launch-script diff library only where there are scripts to diff.
    assert any(url.endswith("/vendor/diff.min.js") for url in watch.requests) == (path == "compare/")
    assert all(urlsplit(url).netloc == urlsplit(site.url).netloc for url in watch.requests)
    # The page fixture asserts, after this, that no console error, page error or foreign request happened.


def test_a_phone_sized_window_keeps_the_table_inside_the_page(page: Any, site: Site) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(site.url + "?gpu=H100")
    page.wait_for_selector(POINTS)
    assert page.text_content("[data-or-count]") == "4 of 7 recipes"
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0
    chart_width = page.eval_on_selector(".or-chart", "el => el.getBoundingClientRect().width")
    assert chart_width <= 390
    assert page.eval_on_selector(".or-chart .main-svg", "svg => svg.getBoundingClientRect().width") <= chart_width

    # Turned sideways: the charts follow the new width.
    page.set_viewport_size({"width": 844, "height": 390})
    page.wait_for_function(
        "() => [...document.querySelectorAll('.or-chart')].every(c => c.clientWidth > 600"
        " && Math.abs(c.querySelector('.main-svg').getBoundingClientRect().width - c.clientWidth) < 2)"
    )


# -- the compare page's script diff -----------------------------------------------------------------


def test_script_diff_is_a_shortest_edit_script(page: Any, site: Site) -> None:
    random = __import__("random").Random(7)
    cases = [([], []), (["a"], []), ([], ["a"]), (["a", "b"], ["a", "b"]), (["a", "b", "c"], ["x", "b", "y"])]
    for _ in range(60):
        alphabet = "abcde"[: random.randint(1, 5)]
        a = [random.choice(alphabet) for _ in range(random.randint(0, 30))]
        b = [random.choice(alphabet) for _ in range(random.randint(0, 30))]
        cases.append((a, b))

    def shortest(a: list[str], b: list[str]) -> int:
        lcs = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
        for i in range(len(a) - 1, -1, -1):
            for j in range(len(b) - 1, -1, -1):
                lcs[i][j] = lcs[i + 1][j + 1] + 1 if a[i] == b[j] else max(lcs[i + 1][j], lcs[i][j + 1])
        return len(a) + len(b) - 2 * lcs[0][0]

    page.goto(site.url + "compare/")
    page.wait_for_function("() => window.Diff")  # the page loads its diff library itself
    results = page.evaluate(
        """cases => cases.map(([a, b]) => {
            // Scripts as the recipes hold them: the last line with or without its newline.
            const before = a.join("\\n") + (a.length % 2 ? "\\n" : ""), after = b.join("\\n");
            const whole = OpenRecipes.scriptDiff(before, after, a.length + b.length);  // every line as context
            const shown = OpenRecipes.scriptDiff(before, after, 3);
            const lines = (diff) => diff.hunks.map(h => [h.header, h.lines.map(l => [l.op, l.text])]);
            return {whole: lines(whole), shown: lines(shown), added: shown.added, removed: shown.removed};
        })""",
        cases,
    )
    for (a, b), result in zip(cases, results, strict=True):
        whole = [line for _, lines in result["whole"] for line in lines]
        assert [text for op, text in whole if op != "+"] == (a if a != b else [])
        assert [text for op, text in whole if op != "-"] == (b if a != b else [])
        assert result["added"] + result["removed"] == shortest(a, b), (a, b)
        assert result["added"] == sum(op == "+" for op, _ in whole)
        for header, lines in result["shown"]:
            numbers = re.fullmatch(r"@@ -(\d+),(\d+) \+(\d+),(\d+) @@", header).groups()
            for (start, count), side, other in (((numbers[0], numbers[1]), a, "+"), ((numbers[2], numbers[3]), b, "-")):
                # Each side's lines are where the header says; with none, it names the line before them.
                first, count = int(start) - (int(count) > 0), int(count)
                assert [text for op, text in lines if op != other] == side[first : first + count], header
                assert 0 <= first <= len(side)
        # Hunks are in order and do not overlap.
        starts = [int(re.match(r"@@ -(\d+)", header).group(1)) for header, _ in result["shown"]]
        assert starts == sorted(starts)
