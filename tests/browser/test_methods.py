"""The home page's matrix per training method in Chromium (issue 22, item 1): pre-training is shown
first, another method is one click away, and the choice works under the site's policy (no script
of its own: Material's tabbed set, radio inputs and CSS), with no console error."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import Project, copy_project

from openrecipes import describe, fmt
from openrecipes.reading.reference import Reference
from openrecipes_tools import chromium

from .conftest import Site, Watch, forget_the_price_basis, project_served_at, watched_tab

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


@pytest.fixture(scope="module")
def methods_site(
    chromium_available: None, tmp_path_factory: pytest.TempPathFactory, reference: Reference
) -> Iterator[Site]:
    """Llama 3.1 70B on H100: pre-training runs in BF16 and FP8, and a LoRA run faster than both."""
    base = tmp_path_factory.mktemp("browser-methods")
    site_dir = base / "site"
    site_dir.mkdir()
    with chromium.serving(site_dir) as url:
        project = Project(copy_project(base / "project"), reference)
        project_served_at(project, url)
        recipes: dict[str, dict[str, Any]] = {}
        for name, tokens, method, precision in (
            ("pretrain", 900.0, "pre-training", "bf16"),
            ("fp8", 1300.0, "pre-training", "fp8"),
            ("lora", 1800.0, "lora", "bf16"),
        ):
            data = project.add_synthetic(f"llama-3.1-70b/h100/{name}", tokens_per_s=tokens, precision=precision)
            data["workload"]["method"] = {"kind": method}
            if method == "lora":
                data["result"]["mfu"] = round(4 * data["result"]["active_params"]["count"] * tokens / 989e12, 4)
            project.add(f"llama-3.1-70b/h100/{name}", data)
            recipes[f"llama-3.1-70b/h100/{name}"] = data
        result = project.build()
        assert result.ok, result.log
        shutil.rmtree(site_dir)
        shutil.move(result.site, site_dir)
        yield Site(site_dir, url, recipes)


@pytest.fixture
def methods_page(browser_context: Any, methods_site: Site, watch: Watch) -> Iterator[Any]:
    with watched_tab(browser_context, methods_site.url, watch) as tab:
        yield tab
        forget_the_price_basis(tab)


def shown(page: Any) -> list[tuple[str, str | None]]:
    """Each matrix on screen: its method and the recipe of its one cell."""
    return page.eval_on_selector_all(
        "[data-or-matrix]",
        """ms => ms.filter(m => m.offsetParent !== null).map(m =>
            [m.dataset.method, m.querySelector('td[data-recipe]')?.dataset.recipe ?? null])""",
    )


def test_the_matrix_shows_pre_training_and_another_method_is_one_click_away(
    methods_page: Any, methods_site: Site
) -> None:
    methods_page.goto(methods_site.page_url())
    assert shown(methods_page) == [["pre-training", "llama-3.1-70b/h100/fp8"]]
    methods_page.click("label[for='or-method-lora']")
    assert shown(methods_page) == [["LoRA", "llama-3.1-70b/h100/lora"]]
    # The choice is a radio input: the keyboard reaches it, and pre-training comes back.
    methods_page.click("label[for='or-method-pre-training']")
    assert shown(methods_page) == [["pre-training", "llama-3.1-70b/h100/fp8"]]
    # The table below lists both, each row saying its method.
    methods = methods_page.eval_on_selector_all(
        "[data-or-catalogue] tbody tr[data-recipe]", "rows => rows.map(r => [r.dataset.recipe, r.dataset.method])"
    )
    assert sorted(methods) == [
        ["llama-3.1-70b/h100/fp8", "pre-training"],
        ["llama-3.1-70b/h100/lora", "LoRA"],
        ["llama-3.1-70b/h100/pretrain", "pre-training"],
    ]


def test_compare_names_each_mfus_peak_and_compares_only_on_one_scale(methods_page: Any, methods_site: Site) -> None:
    methods_page.goto(methods_site.page_url("compare/?a=llama-3.1-70b/h100/pretrain&b=llama-3.1-70b/h100/fp8"))
    methods_page.wait_for_selector("[data-or-compare-figures]")

    def metric(label: str) -> list[str]:
        return methods_page.eval_on_selector_all(
            f"[data-or-compare-figures] tr[data-metric='{label}'] td", "cells => cells.map(c => c.innerText.trim())"
        )

    # Each recipe's training method, beside its figures.
    assert metric("Method") == ["pre-training", "pre-training"]
    n = 70_553_706_496 - 128_256 * 8_192
    bf16, fp8 = fmt.percent(6 * n * 900 / 989e12), fmt.percent(6 * n * 1300 / 1979e12)
    # Against different peaks: each named, no difference.
    assert metric("MFU") == [f"{bf16} vs BF16 peak", f"{fp8} vs FP8 peak"]
    # On the one scale: a difference, in points.
    fp8_on_bf16 = fmt.percent(6 * n * 1300 / 989e12)
    points = describe.point_change(6 * n * 1300 / 989e12, 6 * n * 900 / 989e12)
    assert metric("MFU vs BF16 peak") == [bf16, f"{fp8_on_bf16}\n{points}"]


def test_compare_says_each_recipes_method(methods_page: Any, methods_site: Site) -> None:
    methods_page.goto(methods_site.page_url("compare/?a=llama-3.1-70b/h100/pretrain&b=llama-3.1-70b/h100/lora"))
    methods_page.wait_for_selector("[data-or-compare-figures]")
    cells = methods_page.eval_on_selector_all(
        "[data-or-compare-figures] tr[data-metric='Method'] td", "cells => cells.map(c => c.innerText.trim())"
    )
    assert cells == ["pre-training", "LoRA"]


def test_a_cells_count_opens_the_models_page_at_that_method(methods_page: Any, methods_site: Site) -> None:
    methods_page.goto(methods_site.page_url())
    methods_page.click("label[for='or-method-lora']")
    methods_page.click("[data-or-matrix][data-method='LoRA'] .or-matrix__all")
    methods_page.wait_for_url(lambda url: "models/llama-3.1-70b/" in url and "method=LoRA" in url)
    methods_page.wait_for_function(
        "() => [...document.querySelectorAll('[data-or-catalogue] tbody tr[data-recipe]')]"
        ".filter(r => !r.hidden && r.offsetParent !== null).length === 1"
    )
    visible = methods_page.eval_on_selector_all(
        "[data-or-catalogue] tbody tr[data-recipe]",
        "rows => rows.filter(r => !r.hidden && r.offsetParent !== null).map(r => r.dataset.recipe)",
    )
    assert visible == ["llama-3.1-70b/h100/lora"]


def test_the_method_tabs_have_no_serious_accessibility_violation(methods_page: Any, methods_site: Site) -> None:
    from .test_accessibility import blocking_violations

    methods_page.goto(methods_site.page_url())
    methods_page.wait_for_selector("[data-or-methods]")
    assert blocking_violations(methods_page) == []
    # Each choice is a radio input its label names; the keyboard moves between them.
    methods_page.focus("#or-method-pre-training")
    methods_page.keyboard.press("ArrowRight")
    assert shown(methods_page) == [["LoRA", "llama-3.1-70b/h100/lora"]]
