"""Readiness in Chromium (issue 28, item 7): the catalogue table filtered by its readiness, at 1,440 px
and on a phone, in the address like every filter; the column within its width budget with every
label in it; the matrix's link; and the compare page's row. The site is test_readiness.py's
catalogue of every state, but that what its failed dry run found and its preparation step are
markup: checks/dry-runs.yaml and the recipes are strangers' data, shown as text."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from conftest import Project, copy_project
from test_readiness import (
    DELL,
    FAILS,
    NVIDIA,
    PREPARE,
    SEED_ID,
    STATES,
    add_every_state,
    entries_of,
    frozen,
    record,
)

from openrecipes.checking.readiness import LABELS
from openrecipes.reading import dryruns
from openrecipes.reading.reference import Reference
from openrecipes_tools import chromium

from .conftest import Watch, assert_within_width_budget, fonts_loaded, project_served_at, watched_tab

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

FILTER = "select[data-or-filter='readiness']"
FOUND = '<img src=x onerror="window.__pwned=1"> sbatch is handed </li><script>window.__pwned=2</script>'
STEP = '<script>window.__pwned=3</script> [x](javascript:window.__pwned=4) https://example.org/"onclick="alert(5)'

ROWS = "[data-or-catalogue] tbody tr[data-recipe]"


@pytest.fixture(scope="module")
def readiness_site(
    chromium_available: None, tmp_path_factory: pytest.TempPathFactory, reference: Reference
) -> Iterator[str]:
    base = tmp_path_factory.mktemp("readiness")
    site_dir = base / "site"
    site_dir.mkdir()
    with chromium.serving(site_dir) as url:
        project = Project(copy_project(base / "project"), reference)
        project_served_at(project, url)
        entries = add_every_state(project)
        dryruns.write(project.root, [record(entries[FAILS], passed=False, problems=(FOUND,))])
        prepared = frozen(DELL)  # with the submission's preparation, as imported
        prepared["launch"]["preparation"][0]["what"] = STEP
        project.add(PREPARE, prepared)  # its launch.sh, and so its dry run, as before
        assert entries_of(project)[PREPARE].derived.readiness.items[0] == STEP
        result = project.build()
        assert result.ok, result.log
        shutil.rmtree(site_dir)
        shutil.move(result.site, site_dir)
        yield url


@pytest.fixture
def tab(browser_context: Any, readiness_site: str, watch: Watch) -> Iterator[Any]:
    with watched_tab(browser_context, readiness_site, watch) as opened:
        yield opened


@pytest.fixture
def phone_tab(touch_context: Any, readiness_site: str, watch: Watch) -> Iterator[Any]:
    with watched_tab(touch_context, readiness_site, watch) as opened:
        yield opened


def shown(page: Any) -> list[str]:
    return page.eval_on_selector_all(ROWS, "rows => rows.filter(r => !r.hidden).map(r => r.dataset.recipe)")


def choices(page: Any) -> list[list[str]]:
    return page.eval_on_selector_all(f"{FILTER} option", "options => options.map(o => [o.value, o.textContent])")


def filter_by_readiness(page: Any, url: str, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 900 if width > 500 else 844})
    page.goto(url)
    fonts_loaded(page)
    assert choices(page) == [
        ["", f"Any readiness ({len(STATES)})"],
        ["as run by the author", "as run by the author (1)"],
        ["differs from the row", "differs from the row (1)"],
        ["fails its dry run", "fails its dry run (1)"],
        ["incomplete", "incomplete (1)"],
        ["needs preparation", "needs preparation (1)"],
        ["not published", "not published (1)"],
        ["not yet run", "not yet run (2)"],
        ["runs as documented", "runs as documented (1)"],
    ]
    page.select_option(FILTER, "runs as documented")
    assert shown(page) == [DELL]
    assert page.text_content("[data-or-count]") == f"1 of {len(STATES)} recipes"
    assert parse_qs(urlsplit(page.url).query) == {"readiness": ["runs as documented"]}
    cell = page.locator(f"{ROWS}[data-recipe='{DELL}'] td[data-key='readiness']")
    assert cell.inner_text().strip() == "runs as documented"
    assert cell.locator(".or-badge--runs").is_visible()
    page.select_option(FILTER, "not yet run")
    assert sorted(shown(page)) == sorted(recipe_id for recipe_id, key in STATES.items() if key == "not-yet-run")
    # Read back from the address, as a shared link is.
    page.goto(f"{url}?readiness=needs%20preparation")
    page.wait_for_function("() => document.querySelector('[data-or-count]').textContent.startsWith('1 of')")
    assert shown(page) == [PREPARE]
    assert page.input_value(FILTER) == "needs preparation"
    # Nothing is wider than the screen.
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_the_table_filters_by_readiness_at_1440_px(tab: Any, readiness_site: str) -> None:
    filter_by_readiness(tab, readiness_site, 1440)


def test_the_table_filters_by_readiness_on_a_phone(phone_tab: Any, readiness_site: str) -> None:
    filter_by_readiness(phone_tab, readiness_site, 390)
    # A row is a card on a phone: its readiness is labelled, as each of its cells.
    cell = phone_tab.locator(f"{ROWS}[data-recipe='{PREPARE}'] td[data-key='readiness']")
    assert cell.evaluate("cell => getComputedStyle(cell, '::before').content") == '"Readiness: "'


def test_every_label_fits_the_columns_width_budget(tab: Any, readiness_site: str) -> None:
    tab.set_viewport_size({"width": 1440, "height": 900})
    tab.goto(readiness_site)
    fonts_loaded(tab)
    labels = tab.eval_on_selector_all(f"{ROWS} td[data-key='readiness']", "cells => cells.map(c => c.textContent)")
    assert sorted(set(labels)) == sorted(LABELS.values())
    assert_within_width_budget(tab)


def test_the_matrix_links_the_cheapest_that_runs(tab: Any, readiness_site: str) -> None:
    tab.set_viewport_size({"width": 1440, "height": 900})
    tab.goto(readiness_site)
    tab.click("label:has-text('LoRA')")
    cell = tab.locator(f"[data-or-matrix] td[data-recipe='{NVIDIA}']")
    assert cell.locator(".or-matrix__readiness .or-badge").inner_text() == "differs from the row"
    cell.locator("a.or-matrix__runs").click()
    tab.wait_for_url(f"**/recipes/{DELL}/")
    assert tab.locator("[data-or-readiness='runs'] .admonition-title").inner_text() == "Readiness: runs as documented"


def test_the_compare_page_gives_each_recipe_its_readiness(tab: Any, readiness_site: str) -> None:
    tab.set_viewport_size({"width": 1440, "height": 900})
    tab.goto(f"{readiness_site}compare/?a={NVIDIA}&b={DELL}&c={SEED_ID}")
    row = tab.locator("[data-or-compare-figures] tr[data-metric='Readiness'] td")
    row.first.wait_for()
    assert row.evaluate_all("cells => cells.map(c => c.dataset.orReadiness)") == ["differs", "runs", "as-run"]
    assert [text.split("\n")[0] for text in row.all_inner_texts()] == [
        "differs from the row",
        "runs as documented",
        "as run by the author",
    ]
    tab.wait_for_selector("[data-or-diff] h3")
    titles = tab.locator("[data-or-diff] h3").all_inner_texts()
    assert titles == [
        f"Launch: {DELL} (runs as documented) against {NVIDIA} (differs from the row)",
        f"Launch: {SEED_ID} (as run by the author) against {NVIDIA} (differs from the row)",
    ]


def test_what_a_dry_run_found_and_a_preparation_step_are_text(tab: Any, readiness_site: str) -> None:
    for recipe_id, text in ((FAILS, FOUND), (PREPARE, STEP)):
        tab.goto(f"{readiness_site}recipes/{recipe_id}/")
        items = tab.locator(".or-readiness li").all_inner_texts()
        assert items[0] == text
        assert tab.locator(".or-readiness script, .or-readiness img, .or-readiness a[href^='javascript']").count() == 0
    tab.goto(f"{readiness_site}compare/?a={FAILS}&b={PREPARE}")
    row = tab.locator("[data-or-compare-figures] tr[data-metric='Readiness'] td")
    row.first.wait_for()
    texts = row.all_inner_texts()
    assert texts[0].endswith(f"What the dry run found: {FOUND}.") and STEP in texts[1]
    assert tab.locator("[data-or-compare] script, [data-or-compare] img").count() == 0
    assert tab.evaluate("window.__pwned") is None
