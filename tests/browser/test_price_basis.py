"""The price basis, the home page's model × GPU matrix and the catalogue table's rows in Chromium.

Most tests use the shared test catalogue (conftest.RECIPES). A second, larger catalogue, whose
home page holds only its first rows in HTML and has a deprecated recipe, tests the rows loaded
from assets/catalogue-rows.json, the default-hidden deprecated recipes and showing more rows.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urljoin, urlsplit

import pytest
from conftest import SEED_DATA, SEED_ID, Project, copy_project

from openrecipes import fmt
from openrecipes.reading.reference import Reference
from openrecipes.site import pages
from openrecipes_tools import chromium

from .conftest import DEFAULT_ORDER, Site, Watch, forget_the_price_basis, project_served_at, watched_tab

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

SEED_PAGE = f"recipes/{SEED_ID}/"
SEED_TOKENS = SEED_DATA["result"]["tokens_per_s_per_gpu"]
ROWS = "[data-or-catalogue] tbody tr[data-recipe]"
# The sourced on-demand prices per GPU-hour the presets choose from (reference/instances.yaml).
NEBIUS_H100, AWS_P5, NEBIUS_H200, AWS_P5EN = 3.85, 6.88, 4.5, 7.912


def row_ids(page: Any) -> list[str]:
    return page.eval_on_selector_all(ROWS, "rows => rows.map(r => r.dataset.recipe)")


def usd_cells(page: Any) -> dict[str, str]:
    return page.eval_on_selector_all(
        ROWS,
        "rows => Object.fromEntries(rows.map(r => [r.dataset.recipe,"
        " r.querySelector('[data-usd-per-mtok]').textContent]))",
    )


def query(page: Any) -> dict[str, list[str]]:
    # The page's own address: Playwright's page.url follows history.pushState a moment later.
    return parse_qs(urlsplit(page.evaluate("location.href")).query)


def usd(price: float, tokens_per_s: float) -> str:
    """$ / 1M as the site writes it: $ per GPU-hour ÷ (tokens/s per GPU × 3,600) × 1,000,000."""
    return fmt.usd(price / (tokens_per_s * 3600) * 1e6)


def tokens_of(site: Site, recipe_id: str) -> float:
    return SEED_TOKENS if recipe_id == SEED_ID else site.recipes[recipe_id]["result"]["tokens_per_s_per_gpu"]


def goto(page: Any, url: str) -> None:
    """Open `url` and wait for the price basis: price.js loads its presets (assets/prices.json)
    after the page has loaded, and until then the page shows the figures as the build wrote them."""
    page.goto(url)
    settled(page)


def settled(page: Any) -> None:
    """The page's price-basis controls are drawn: its figures are at the reader's basis."""
    page.wait_for_function(
        "() => window.OpenRecipes.priceBasis.loaded() && document.querySelector('[data-or-basis-preset]')"
    )


def open_own_prices(page: Any) -> None:
    page.click("[data-or-basis-own] > summary")


def wait_for_order(page: Any, expected: list[str]) -> None:
    page.wait_for_function(
        "([selector, ids]) => JSON.stringify([...document.querySelectorAll(selector)].map(r => r.dataset.recipe))"
        " === JSON.stringify(ids)",
        arg=[ROWS, expected],
    )


# -- the matrix -----------------------------------------------------------------------------------


def test_the_matrix_leads_to_the_cheapest_recipe_for_a_model_and_gpu(page: Any, site: Site) -> None:
    goto(page, site.url)
    models = page.eval_on_selector_all(".or-matrix tbody th[scope=row]", "ths => ths.map(th => th.textContent)")
    gpus = page.eval_on_selector_all(".or-matrix thead th[data-gpu]", "ths => ths.map(th => th.dataset.gpu)")
    assert models == ["Llama 3.1 8B", "Llama 3.1 70B", "Qwen3.8-27B"]  # in reading order: 8B before 70B
    assert gpus == ["H100", "H200", "MI325X"]
    cell = page.locator(".or-matrix tr[data-model='Llama 3.1 70B'] td[data-gpu='H100']")
    # Of the three 70B recipes on H100 (900, 700 and 600 tokens/s per GPU), the fastest is the cheapest.
    assert cell.locator("[data-usd-per-mtok]").text_content() == usd(NEBIUS_H100, 900.0) == "$1.19"
    assert "900 tokens/s/GPU" in cell.text_content()
    assert cell.locator(".or-matrix__all").text_content() == "3 recipes"
    assert page.locator(".or-matrix tr[data-model='Llama 3.1 8B'] td[data-gpu='H200']").get_attribute("class") == (
        "or-matrix__none"
    )

    page.evaluate("window.__notReloaded = true")
    cell.locator("a.or-matrix__best").click()  # one click to the recipe
    page.wait_for_url("**/recipes/llama-3.1-70b/h100/mid/")
    assert page.evaluate("window.__notReloaded") is True
    assert page.text_content(".or-figure [data-usd-per-mtok]") == "$1.19"

    page.go_back()
    page.wait_for_url(site.url)
    page.locator(".or-matrix tr[data-model='Llama 3.1 70B'] td[data-gpu='H100'] .or-matrix__all").click()
    # The model's page at the GPU type and the matrix's training method (these recipes state none).
    page.wait_for_url(re.compile(r"/models/llama-3\.1-70b/\?gpu=H100&method=not\+stated$"))
    page.wait_for_function("() => document.querySelector('[data-or-count]').textContent === '3 of 5 recipes'")
    assert row_ids(page) == ["llama-3.1-70b/h100/mid", "llama-3.1-70b/h100/big", "llama-3.1-70b/h100/pricey"]


def test_the_matrix_follows_the_basis(page: Any, site: Site) -> None:
    goto(page, site.url + "?basis=hyperscaler")
    cell = ".or-matrix tr[data-model='Llama 3.1 70B'] td[data-gpu='{}'] [data-usd-per-mtok]"
    assert page.text_content(cell.format("H100")) == usd(AWS_P5, 900.0)
    assert page.text_content(cell.format("H200")) == usd(AWS_P5EN, 90.0)
    assert page.text_content(cell.format("MI325X")) == "no hyperscaler price"
    page.select_option("[data-or-basis-preset]", "cheapest")
    assert page.text_content(cell.format("H100")) == usd(NEBIUS_H100, 900.0)
    assert page.text_content(cell.format("MI325X")) == "no public price"


# -- the basis ------------------------------------------------------------------------------------


def test_the_default_basis_is_the_cheapest_sourced_price_named(page: Any, site: Site) -> None:
    goto(page, site.url)
    # Every $ / 1M at the cheapest sourced price of its GPU type, whatever instance the recipe names.
    expected = {recipe_id: usd(NEBIUS_H100, tokens_of(site, recipe_id)) for recipe_id in DEFAULT_ORDER[:-1]}
    expected[SEED_ID] = usd(NEBIUS_H200, SEED_TOKENS)
    expected["llama-3.1-70b/h200/tenfold"] = usd(NEBIUS_H200, 90.0)
    expected["llama-3.1-70b/mi325x/onprem"] = "no public price — enter yours"
    assert usd_cells(page) == expected
    assert row_ids(page) == DEFAULT_ORDER
    status = page.text_content("[data-or-basis-status]")
    assert "H100 $3.85 (Nebius H100)" in status and "H200 $4.50 (Nebius H200)" in status
    assert "MI325X: no price" in status
    assert page.is_hidden("[data-or-basis-reset]")
    assert page.evaluate("OpenRecipes.priceBasis.usdPerGpuHour('H100')") == NEBIUS_H100
    assert page.evaluate("OpenRecipes.priceBasis.usdPerGpuHour('MI325X')") is None
    assert page.evaluate("OpenRecipes.priceBasis.label('H200')") == "Nebius H200, $4.50 per GPU-hour (cheapest sourced)"
    assert query(page) == {}


def test_presets_change_which_instance_prices_a_gpu_type(page: Any, site: Site) -> None:
    goto(page, site.url)
    page.evaluate(
        "window.__events = []; document.addEventListener('openrecipes:prices', e => window.__events.push(e.detail))"
    )
    page.select_option("[data-or-basis-preset]", "hyperscaler")
    assert query(page) == {"basis": ["hyperscaler"]}
    assert page.evaluate("window.__events.map(e => e.preset)") == ["hyperscaler"]
    cells = usd_cells(page)
    assert cells["llama-3.1-8b/h100/cheap"] == usd(AWS_P5, 9000.0)  # AWS p5, not Nebius
    assert cells[SEED_ID] == usd(AWS_P5EN, SEED_TOKENS)
    assert cells["llama-3.1-70b/mi325x/onprem"] == "no hyperscaler price — enter yours"
    assert "H100 $6.88 (AWS p5.48xlarge)" in page.text_content("[data-or-basis-status]")
    assert page.evaluate("OpenRecipes.priceBasis.label('H100')") == (
        "AWS p5.48xlarge, $6.88 per GPU-hour (on-demand hyperscaler)"
    )
    title = page.get_attribute(f"tr[data-recipe='{SEED_ID}'] [data-usd-per-mtok]", "title")
    assert title == "At AWS p5en.48xlarge, $7.91 per GPU-hour (on-demand hyperscaler)"

    page.select_option("[data-or-basis-preset]", "neocloud")
    assert query(page) == {"basis": ["neocloud"]}
    assert usd_cells(page)["llama-3.1-8b/h100/cheap"] == usd(NEBIUS_H100, 9000.0)
    page.click("[data-or-basis-reset]")
    assert query(page) == {}
    assert page.evaluate("window.__events.map(e => e.preset)") == ["hyperscaler", "neocloud", "cheapest"]


def test_a_price_for_one_gpu_type_reranks_the_table_lives_in_the_address_and_follows_the_reader(
    page: Any, site: Site
) -> None:
    goto(page, site.url)
    open_own_prices(page)
    page.fill("[data-or-basis-gpu='H200']", "0.2")
    assert query(page) == {"H200": ["0.2"]}
    # The H200 recipes move up; the others keep the basis price of their GPU type.
    reranked = [
        SEED_ID,  # $0.2 ÷ (tokens/s × 3,600) × 1,000,000: a few cents
        "llama-3.1-8b/h100/cheap",  # $0.1188
        "llama-3.1-70b/h200/tenfold",  # $0.6173
        "llama-3.1-70b/h100/mid",
        "llama-3.1-70b/h100/big",
        "llama-3.1-70b/h100/pricey",
        "llama-3.1-70b/mi325x/onprem",
    ]
    assert row_ids(page) == reranked
    yours = usd(0.2, SEED_TOKENS)
    assert usd_cells(page)[SEED_ID] == yours
    assert usd_cells(page)["llama-3.1-8b/h100/cheap"] == usd(NEBIUS_H100, 9000.0)
    assert "H200 $0.2000 (yours)" in page.text_content("[data-or-basis-status]")

    # To a recipe page (by instant navigation): the same basis, written into its address.
    page.evaluate("window.__notReloaded = true")
    page.click(f"tr[data-recipe='{SEED_ID}'] td[data-key='model'] a")
    page.wait_for_url(re.compile(re.escape(f"/{SEED_PAGE}?H200=0.2")))
    page.wait_for_function(
        "yours => document.querySelector('.or-figure [data-usd-per-mtok]').textContent === yours", arg=yours
    )
    assert page.evaluate("window.__notReloaded") is True
    assert page.text_content(".or-figure [data-usd-per-mtok]") == yours
    assert page.text_content("[data-price-source]") == "price basis: your price for H200, $0.2000 per GPU-hour"
    own = usd(AWS_P5EN, SEED_TOKENS)
    assert page.text_content("[data-own-instance]") == f"at its own instance, AWS p5en.48xlarge: {own}"
    assert page.input_value("[data-or-basis-gpu='H200']") == "0.2"

    # And back; then a fresh visit without the address remembers it.
    page.go_back()
    page.wait_for_url(re.compile(re.escape(f"{site.url}?H200=0.2")))
    wait_for_order(page, reranked)
    goto(page, site.url)
    page.wait_for_url(re.compile(re.escape(f"{site.url}?H200=0.2")))
    assert row_ids(page) == reranked

    page.click("[data-or-basis-reset]")
    assert query(page) == {}
    assert row_ids(page) == DEFAULT_ORDER
    goto(page, site.url + SEED_PAGE)
    assert query(page) == {}
    assert page.text_content(".or-figure [data-usd-per-mtok]") == usd(NEBIUS_H200, SEED_TOKENS)


def test_a_shared_address_with_a_price_opens_at_that_price_and_bad_values_are_ignored(page: Any, site: Site) -> None:
    goto(page, site.url + "?basis=nonsense&H100=abc&MI325X=2&Z9=1")
    assert usd_cells(page)["llama-3.1-70b/mi325x/onprem"] == usd(2, 2000.0)
    assert usd_cells(page)["llama-3.1-8b/h100/cheap"] == usd(NEBIUS_H100, 9000.0)  # "abc" is no price
    assert page.input_value("[data-or-basis-preset]") == "cheapest"
    # An unpriced GPU type with a price of yours ranks with the others.
    assert row_ids(page).index("llama-3.1-70b/mi325x/onprem") < row_ids(page).index("llama-3.1-70b/h100/mid")


def test_typing_something_that_is_not_a_price_says_so(page: Any, site: Site) -> None:
    goto(page, site.url)
    open_own_prices(page)
    page.fill("[data-or-basis-gpu='H100']", "cheap")
    assert "is not a price" in page.text_content("[data-or-basis-status]")
    assert page.get_attribute("[data-or-basis-gpu='H100']", "aria-invalid") == "true"
    assert usd_cells(page)["llama-3.1-8b/h100/cheap"] == usd(NEBIUS_H100, 9000.0)
    page.fill("[data-or-basis-gpu='H100']", "$2.50/h")
    assert usd_cells(page)["llama-3.1-8b/h100/cheap"] == usd(2.5, 9000.0)
    assert query(page) == {"H100": ["2.5"]}


def test_recipe_pages_run_cost_and_other_recipes_follow_the_basis(page: Any, site: Site) -> None:
    # No instance of its own: the run cost is at the basis, and follows it.
    goto(page, site.url + "recipes/llama-3.1-70b/mi325x/onprem/?MI325X=3")
    hours = site.recipes["llama-3.1-70b/mi325x/onprem"]["result"]["gpu_hours"]
    assert page.text_content("[data-run-cost]") == fmt.usd(hours * 3)
    assert page.text_content(".or-figure [data-usd-per-mtok]") == usd(3, 2000.0)
    page.click("[data-or-basis-reset]")
    assert page.text_content("[data-run-cost]") == "unpriced"
    assert page.text_content(".or-figure [data-usd-per-mtok]") == "no public price"

    # Its own instance: the run cost is what the run cost there, whatever the basis.
    goto(page, site.url + "recipes/llama-3.1-70b/h100/mid/?basis=hyperscaler")
    run_cost = page.text_content("[data-run-cost]")
    row = page.locator("table.or-alternatives tr").filter(has_text="16 × H200")  # "tenfold": 90 tokens/s
    assert row.locator("[data-usd-per-mtok]").text_content() == usd(AWS_P5EN, 90.0)
    # Against this recipe at the same basis: (7.912 / 90) / (6.88 / 900) − 1.
    assert row.locator("[data-usd-delta]").text_content() == "(+1,050.0%)"
    page.select_option("[data-or-basis-preset]", "cheapest")
    assert row.locator("[data-usd-per-mtok]").text_content() == usd(NEBIUS_H200, 90.0)
    assert row.locator("[data-usd-delta]").text_content() == "(+1,068.8%)"  # (4.5 / 90) / (3.85 / 900) − 1
    assert page.text_content("[data-run-cost]") == run_cost


def test_the_model_index_shows_each_models_lowest_price_at_the_basis(page: Any, site: Site) -> None:
    goto(page, site.url + "models/?MI325X=0.5")
    row = page.locator(".or-groups tr").filter(has_text="Llama 3.1 70B")
    shown = row.locator("[data-usd-lowest] [data-usd-per-mtok]:visible")
    assert shown.count() == 1 and shown.text_content() == usd(0.5, 2000.0)  # the MI325X recipe, now the cheapest
    page.click("[data-or-basis-reset]")
    assert shown.text_content() == usd(NEBIUS_H100, 900.0)


# -- the table on a phone -----------------------------------------------------------------------------


def test_on_a_phone_each_recipe_is_a_card_with_model_gpus_price_and_mfu_in_view(page: Any, site: Site) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    goto(page, site.url)
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    boxes = page.eval_on_selector_all(
        ROWS,
        """rows => rows.map(row => Object.fromEntries(['model', 'gpus', 'usd', 'mfu'].map(key => {
            const box = row.querySelector(`td[data-key="${key}"]`).getBoundingClientRect();
            return [key, [box.left, box.right, box.width, box.top]];
        })))""",
    )
    assert len(boxes) == len(DEFAULT_ORDER)
    for row in boxes:
        for key, (left, right, width, _) in row.items():
            assert left >= 0 and right <= 390 and width > 0, (key, left, right)
        # GPUs and MFU on one line, right under model and $ / 1M (which wraps only when it must).
        top = {key: box[3] for key, box in row.items()}
        assert abs(top["gpus"] - top["mfu"]) < 4 and top["model"] <= top["usd"] < top["gpus"] < top["usd"] + 40, top
    # The cards' cells carry no padding of their own: the wide screen's (a more specific rule) once
    # made every card twice as tall.
    paddings = page.eval_on_selector_all(
        ROWS + " td", "cells => [...new Set(cells.map(c => getComputedStyle(c).padding))]"
    )
    assert paddings == ["0px"]
    # Nothing in the table scrolls sideways.
    assert page.eval_on_selector(".or-catalogue .or-scroll", "el => el.scrollWidth <= el.clientWidth")
    # The matrix becomes a list of each model's GPU types, all in view.
    rights = page.eval_on_selector_all(
        ".or-matrix td, .or-matrix th", "cells => cells.map(c => c.getBoundingClientRect().right)"
    )
    assert rights and max(rights) <= 390
    # A GPU type without a recipe for the model is no card at all.
    assert page.locator(".or-matrix td.or-matrix__none").count() > 0
    assert page.eval_on_selector_all(".or-matrix td.or-matrix__none", "cells => cells.every(c => !c.offsetParent)")


# -- a catalogue larger than the home page's first rows ----------------------------------------------

HTML_ROWS = 5
MANY = 56  # more than two pages of rows (table.js PAGE = 25)


@pytest.fixture(scope="module")
def big_site(
    chromium_available: None, tmp_path_factory: pytest.TempPathFactory, reference: Reference
) -> Iterator[Site]:
    """The test catalogue plus many 8B recipes and a deprecated one; its home page holds its first
    HTML_ROWS rows, the rest are in assets/catalogue-rows.json."""
    base = tmp_path_factory.mktemp("browser-big")
    site_dir = base / "site"
    site_dir.mkdir()
    with chromium.serving(site_dir) as url:
        project = Project(copy_project(base / "project"), reference)
        project_served_at(project, url)
        recipes: dict[str, dict[str, Any]] = {}
        for index in range(MANY):
            recipe_id = f"llama-3.1-8b/h100/r{index:02d}"
            recipes[recipe_id] = project.add_synthetic(
                recipe_id, model="Llama 3.1 8B", tokens_per_s=5000.0 + 50 * index, tp=1, pp=1, count=8
            )
        old = project.add_synthetic(
            "llama-3.1-8b/h100/old", model="Llama 3.1 8B", tokens_per_s=9999.0, tp=1, pp=1, count=8, status="unverified"
        )
        old = {**old, "status": "deprecated", "deprecation": {"reason": "Measured with a broken timer."}}
        project.add("llama-3.1-8b/h100/old", old)
        recipes["llama-3.1-8b/h100/old"] = old
        recipes["llama-3.1-70b/h200/slow"] = project.add_synthetic(
            "llama-3.1-70b/h200/slow", gpu="H200", instance="AWS p5en.48xlarge", tokens_per_s=50.0
        )
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(pages, "HOME_ROWS", HTML_ROWS)
            patch.setattr(pages, "GROUP_ROWS", MANY + 1)  # the model page holds every row the build writes
            result = project.build()
        assert result.ok, result.log
        shutil.rmtree(site_dir)
        shutil.move(result.site, site_dir)
        yield Site(site_dir, url, recipes)


@pytest.fixture
def big_page(browser_context: Any, big_site: Site, watch: Watch) -> Iterator[Any]:
    with watched_tab(browser_context, big_site.url, watch) as tab:
        yield tab
        forget_the_price_basis(tab)


def test_the_home_page_holds_its_first_rows_and_loads_the_others(big_page: Any, big_site: Site, watch: Watch) -> None:
    html = (big_site.root / "index.html").read_text(encoding="utf-8")
    assert html.count('<tr data-recipe="') == HTML_ROWS
    assert "deprecated" not in html.split("<tbody>", 2)[-1].split("</tbody>")[0]  # the first current rows
    goto(big_page, big_site.url)
    big_page.wait_for_function("() => document.querySelector('[data-or-count]').textContent === '57 of 58 recipes'")
    assert [url for url in watch.requests if "catalogue-rows" in url] == [big_site.url + "assets/catalogue-rows.json"]
    ids = row_ids(big_page)
    assert len(ids) == 25 and "llama-3.1-8b/h100/old" not in ids  # a page of rows; the deprecated one hidden
    assert ids[0] == "llama-3.1-8b/h100/r55"  # the fastest current 8B recipe is the cheapest
    assert big_page.text_content("[data-or-more]") == "Show 25 more"
    big_page.click("[data-or-more]")
    assert row_ids(big_page)[:25] == ids and len(row_ids(big_page)) == 50
    assert big_page.text_content("[data-or-more]") == "Show 7 more" and big_page.is_hidden("[data-or-all]")
    big_page.click("[data-or-more]")
    assert len(row_ids(big_page)) == 57 and big_page.is_hidden("[data-or-more]")
    assert row_ids(big_page)[-1] == "llama-3.1-70b/h200/slow"  # $25.00 at Nebius's $4.50 per H200-hour


def test_deprecated_recipes_are_hidden_until_the_status_filter_shows_them(big_page: Any, big_site: Site) -> None:
    goto(big_page, big_site.url)
    big_page.wait_for_function("() => document.querySelector('[data-or-count]').textContent === '57 of 58 recipes'")
    options = big_page.eval_on_selector_all(
        "select[data-or-filter='status'] option", "options => options.map(o => [o.value, o.textContent])"
    )
    assert options == [
        ["", "Any status but deprecated (57)"],
        ["all", "Any status, deprecated included (58)"],
        ["deprecated", "deprecated (1)"],
        ["verified", "verified (57)"],
    ]
    big_page.select_option("select[data-or-filter='status']", "all")
    assert row_ids(big_page)[0] == "llama-3.1-8b/h100/old"  # 9,999 tokens/s: the cheapest, if deprecated
    assert query(big_page) == {"status": ["all"]}
    big_page.select_option("select[data-or-filter='status']", "deprecated")
    assert row_ids(big_page) == ["llama-3.1-8b/h100/old"]
    big_page.select_option("select[data-or-filter='status']", "verified")
    assert big_page.text_content("[data-or-count]") == "57 of 58 recipes"
    # The matrix counts only current recipes.
    assert big_page.text_content(".or-matrix tr[data-model='Llama 3.1 8B'] .or-matrix__all") == "56 recipes"


def test_rows_drawn_from_the_data_are_the_rows_the_build_writes(big_page: Any, big_site: Site) -> None:
    """The home page draws its other rows from assets/catalogue-rows.json; the model page holds the
    same rows as HTML: every cell the same (links to the same page)."""
    cells = """rows => Object.fromEntries(rows.map(row => [row.dataset.recipe, {
        attributes: Object.fromEntries([...row.attributes].map(a => [a.name, a.value])),
        cells: [...row.cells].map(cell => ({
            // Numbers as numbers: Python writes 5000.0 where JavaScript writes 5000.
            attributes: Object.fromEntries([...cell.attributes].filter(a => a.name !== 'title')
                .map(a => [a.name, a.value !== '' && Number.isFinite(Number(a.value)) ? Number(a.value) : a.value])),
            html: cell.innerHTML.replace(/ href="[^"]*"/g, ''),
            href: cell.querySelector('a') ? cell.querySelector('a').href : null,
        })),
    }]))"""
    goto(big_page, big_site.url + "?status=all&sort=tokens")
    big_page.wait_for_function("() => document.querySelector('[data-or-count]').textContent === '58 of 58 recipes'")
    big_page.click("[data-or-all]")
    home = big_page.eval_on_selector_all(ROWS, cells)
    goto(big_page, big_site.url + "models/llama-3.1-8b/?status=all")
    big_page.click("[data-or-all]")
    model = big_page.eval_on_selector_all(ROWS, cells)
    assert len(model) == MANY + 1
    for recipe_id, row in model.items():
        assert home[recipe_id] == row, recipe_id
    assert home["llama-3.1-8b/h100/r00"]["cells"][0]["href"] == urljoin(big_site.url, "recipes/llama-3.1-8b/h100/r00/")


def test_sorting_and_searching_reach_the_rows_not_in_the_page(big_page: Any, big_site: Site) -> None:
    goto(big_page, big_site.url + "?search=r00")
    big_page.wait_for_function("() => document.querySelector('[data-or-count]').textContent === '1 of 58 recipes'")
    assert row_ids(big_page) == ["llama-3.1-8b/h100/r00"]  # the slowest 8B recipe: not among the page's rows
    big_page.fill("[data-or-search]", "")
    big_page.click("th[data-key='tokens'] button")
    assert row_ids(big_page)[:2] == ["llama-3.1-70b/h200/slow", "llama-3.1-8b/h100/r00"]
