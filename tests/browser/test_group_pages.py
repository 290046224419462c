"""A model's and a GPU type's page with more recipes than their first rows, in Chromium: table.js
loads the page's other rows from assets/catalogue-rows.json, every row of that group and no other,
and sorts, filters, re-prices and counts them as on the home page.

The pages' first rows (pages.GROUP_ROWS) are set to a few here, so that a small catalogue has
groups larger than them; tests/test_group_pages.py builds one larger than the real number.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import Project, copy_project

from openrecipes.reading.reference import Reference
from openrecipes.site import pages
from openrecipes_tools import chromium

from .conftest import Site, Watch, forget_the_price_basis, project_served_at, watched_tab

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

FIRST_ROWS = 3
ROWS = "[data-or-catalogue] tbody tr[data-recipe]"
COUNT = "[data-or-count]"

# Llama 3.1 8B on H100: six current recipes and a deprecated one, the fastest (9,999 tokens/s).
H100_8B = [f"llama-3.1-8b/h100/r{index}" for index in range(6)]
OLD = "llama-3.1-8b/h100/old"
# Llama 3.1 8B on H200: slower, and dearer at the default basis ($4.50 per H200-hour against $3.85).
H200_8B = ["llama-3.1-8b/h200/a", "llama-3.1-8b/h200/b"]
H100_70B = ["llama-3.1-70b/h100/x", "llama-3.1-70b/h100/y"]
H200_70B = ["llama-3.1-70b/h200/z"]

# In the default order: $ / 1M at the default basis, cheapest first.
MODEL_8B = [*reversed(H100_8B), "llama-3.1-8b/h200/b", "llama-3.1-8b/h200/a"]
GPU_H100 = [*reversed(H100_8B), *H100_70B]


@pytest.fixture(scope="module")
def group_site(
    chromium_available: None, tmp_path_factory: pytest.TempPathFactory, reference: Reference
) -> Iterator[Site]:
    base = tmp_path_factory.mktemp("browser-groups")
    site_dir = base / "site"
    site_dir.mkdir()
    with chromium.serving(site_dir) as url:
        project = Project(copy_project(base / "project"), reference)
        project_served_at(project, url)
        small = {"model": "Llama 3.1 8B", "tp": 1, "pp": 1, "count": 8}
        for index, recipe_id in enumerate(H100_8B):
            project.add_synthetic(recipe_id, **small, tokens_per_s=5000.0 + 100 * index)
        old = project.add_synthetic(OLD, **small, tokens_per_s=9999.0, status="unverified")
        project.add(OLD, {**old, "status": "deprecated", "deprecation": {"reason": "Measured with a broken timer."}})
        for index, recipe_id in enumerate(H200_8B):
            project.add_synthetic(
                recipe_id, **small, gpu="H200", instance="AWS p5en.48xlarge", tokens_per_s=4000.0 + 100 * index
            )
        project.add_synthetic(H100_70B[0], tokens_per_s=900.0)
        project.add_synthetic(H100_70B[1], tokens_per_s=800.0)
        project.add_synthetic(H200_70B[0], gpu="H200", instance="AWS p5en.48xlarge", tokens_per_s=90.0)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(pages, "GROUP_ROWS", FIRST_ROWS)
            patch.setattr(pages, "HOME_ROWS", FIRST_ROWS)
            result = project.build()
        assert result.ok, result.log
        shutil.rmtree(site_dir)
        shutil.move(result.site, site_dir)
        yield Site(site_dir, url, {})


@pytest.fixture
def tab(browser_context: Any, group_site: Site, watch: Watch) -> Iterator[Any]:
    with watched_tab(browser_context, group_site.url, watch) as opened:
        yield opened
        forget_the_price_basis(opened)


def row_ids(page: Any) -> list[str]:
    return page.eval_on_selector_all(ROWS, "rows => rows.map(r => r.dataset.recipe)")


def wait_for_count(page: Any, text: str) -> None:
    page.wait_for_function(
        "([selector, text]) => document.querySelector(selector).textContent === text", arg=[COUNT, text]
    )


def options(page: Any, name: str) -> list[list[str]]:
    return page.eval_on_selector_all(
        f"select[data-or-filter='{name}'] option", "options => options.map(o => [o.value, o.textContent])"
    )


def rows_file_requests(watch: Watch) -> list[str]:
    return [url for url in watch.requests if "catalogue-rows" in url]


@pytest.mark.parametrize(
    ("path", "group", "others"),
    [
        ("models/llama-3.1-8b/", MODEL_8B, [*H100_70B, *H200_70B]),
        ("gpus/h100/", GPU_H100, [*H200_8B, *H200_70B]),
    ],
)
def test_a_group_page_draws_every_row_of_its_group_and_no_other(
    tab: Any, group_site: Site, watch: Watch, path: str, group: list[str], others: list[str]
) -> None:
    html = (group_site.root / path / "index.html").read_text(encoding="utf-8")
    assert html.count('<tr data-recipe="') == FIRST_ROWS
    tab.goto(group_site.url + path)
    wait_for_count(tab, f"{len(group)} of {len(group) + 1} recipes")  # the deprecated one hidden
    assert row_ids(tab) == group  # the page's three and the others, in the default order
    assert rows_file_requests(watch) == [group_site.url + "assets/catalogue-rows.json"]
    # Every recipe of the group, the deprecated one too, and none of another.
    tab.select_option("select[data-or-filter='status']", "all")
    wait_for_count(tab, f"{len(group) + 1} of {len(group) + 1} recipes")
    assert row_ids(tab) == [OLD, *group]  # 9,999 tokens/s: the cheapest, if deprecated
    assert not set(others) & set(row_ids(tab))
    # The filters count the group's rows only.
    assert options(tab, "status") == [
        ["", f"Any status but deprecated ({len(group)})"],
        ["all", f"Any status, deprecated included ({len(group) + 1})"],
        ["deprecated", "deprecated (1)"],
        ["verified", f"verified ({len(group)})"],
    ]


def test_a_group_page_sorts_filters_and_reprices_the_rows_it_loaded(tab: Any, group_site: Site) -> None:
    page = group_site.url + "models/llama-3.1-8b/"
    tab.goto(page)
    wait_for_count(tab, "8 of 9 recipes")
    assert options(tab, "gpu") == [["", "All GPUs (8)"], ["H100", "H100 (6)"], ["H200", "H200 (2)"]]
    # Sorting reaches the rows the page did not hold: the slowest are the H200 ones.
    tab.click("th[data-key='tokens'] button")
    assert row_ids(tab)[:3] == [*H200_8B, "llama-3.1-8b/h100/r0"]
    # A filter, as the home page's matrix links to it.
    tab.goto(page + "?gpu=H200")
    wait_for_count(tab, "2 of 9 recipes")
    assert row_ids(tab) == ["llama-3.1-8b/h200/b", "llama-3.1-8b/h200/a"]
    # The reader's own H200 price puts the H200 recipes first: re-ranked from the data.
    tab.goto(page + "?H200=0.2")
    tab.wait_for_function("() => window.OpenRecipes.priceBasis.loaded()")
    wait_for_count(tab, "8 of 9 recipes")
    tab.wait_for_function(
        "first => document.querySelector('[data-or-catalogue] tbody tr').dataset.recipe === first",
        arg="llama-3.1-8b/h200/b",
    )
    assert row_ids(tab) == ["llama-3.1-8b/h200/b", "llama-3.1-8b/h200/a", *reversed(H100_8B)]
    usd = tab.text_content("tr[data-recipe='llama-3.1-8b/h200/a'] [data-usd-per-mtok]")
    assert usd == "$0.01389"  # $0.20 per GPU-hour ÷ (4,000 tokens/s × 3,600) × 10⁶


def test_the_rows_data_is_loaded_once_across_pages_and_not_by_a_group_that_fits(
    tab: Any, group_site: Site, watch: Watch
) -> None:
    tab.goto(group_site.url + "gpus/h200/")  # three recipes: all in the page
    tab.wait_for_selector(".or-filters")
    assert tab.text_content(COUNT) == "3 of 3 recipes"
    assert rows_file_requests(watch) == []
    # The home page loads the data; its matrix opens the model's page filtered to a GPU type by
    # instant navigation, which keeps the data and takes the model's rows from it.
    tab.goto(group_site.url)
    wait_for_count(tab, "11 of 12 recipes")
    tab.evaluate("window.__notReloaded = true")
    tab.click(".or-matrix tr[data-model='Llama 3.1 8B'] td[data-gpu='H100'] .or-matrix__all")
    # At the matrix's training method too (these recipes state none); Material may keep a heading's hash.
    tab.wait_for_url("**/models/llama-3.1-8b/?gpu=H100&method=not+stated*")
    wait_for_count(tab, "6 of 9 recipes")
    assert tab.evaluate("window.__notReloaded") is True
    assert row_ids(tab) == list(reversed(H100_8B))
    assert rows_file_requests(watch) == [group_site.url + "assets/catalogue-rows.json"]
