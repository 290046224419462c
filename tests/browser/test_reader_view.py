"""What a reader sees, in Chromium (issue 22, item 7): the home matrix of twelve GPU types fits a
1,440 px screen without sideways scrolling and a phone as one list; a figure that is not there is
set as a note, not as a figure. The HTML side of each fix is in tests/test_reader_view.py.

The catalogue here is the tests' own: the frozen recipes (tests/fixtures) and synthetic recipes of
three models on twelve GPU types, some without a public price, built once for this module."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import FIXTURE_RECIPES, Project, copy_project

from openrecipes.loader import slug
from openrecipes.reading.reference import Reference
from openrecipes_tools import chromium
from openrecipes_tools.synthetic import recipe_data

from .conftest import (
    Site,
    Watch,
    assert_within_width_budget,
    fonts_loaded,
    forget_the_price_basis,
    project_served_at,
    watched_tab,
)

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}
TWELVE = (
    "A100",
    "A100-40GB",
    "H100",
    "H100-NVL",
    "H100-PCIe",
    "H200",
    "B200",
    "B300",
    "GB200",
    "GB300",
    "MI300X",
    "MI355X",
)
"""Twelve GPU types with a sourced BF16 peak: some with a public price, some without."""
MODELS = {
    # model: (tp, pp): the longest name, and the smallest and the largest model (the widest figures).
    "Nemotron 3 Super 120B-A12B": (4, 2),
    "Llama 3.1 8B": (1, 1),
    "Llama 3.1 405B": (8, 2),
}


def add_twelve_gpu_types(project: Project, reference: Reference) -> list[str]:
    """A recipe of each model on each of the twelve GPU types at an MFU from 30% to 52%, priced at
    the GPU type's first sourced instance where it has one; returns their ids."""
    ids = []
    for model, (tp, pp) in MODELS.items():
        spec = reference.model(model)
        assert spec is not None
        for step, gpu in enumerate(TWELVE):
            peak = reference.gpus[gpu].peak_tflops("bf16")
            assert peak is not None
            instances = [key for key, instance in reference.instances.items() if instance.gpu == gpu]
            recipe_id = f"{slug(model)}/{gpu.lower()}/wide"
            data = recipe_data(
                reference,
                name="wide",
                model=model,
                gpu=gpu,
                instance=instances[0] if instances else None,
                tokens_per_s=round((0.3 + step / 50) * peak * 1e12 / (6 * spec.active_params), 1),
                tp=tp,
                pp=pp,
                count=16,
            )
            data["workload"]["method"] = {"kind": "pre-training"}  # the matrix the home page opens on
            project.add(recipe_id, data)
            ids.append(recipe_id)
    return ids


@pytest.fixture(scope="module")
def wide(site: Site, tmp_path_factory: pytest.TempPathFactory, reference: Reference) -> Iterator[Site]:
    """The catalogue of twelve GPU types and the frozen recipes, served on 127.0.0.1. (It asks for
    the shared `site` only so that the session's browser is started for it.)"""
    base = tmp_path_factory.mktemp("wide")
    site_dir = base / "site"
    site_dir.mkdir()
    with chromium.serving(site_dir) as url:
        project = Project(copy_project(base / "project", with_recipes=FIXTURE_RECIPES), reference)
        project_served_at(project, url)
        add_twelve_gpu_types(project, reference)
        result = project.build()
        assert result.ok, result.log
        shutil.rmtree(site_dir)
        shutil.move(result.site, site_dir)
        yield Site(site_dir, url, {})


@pytest.fixture
def tab(browser_context: Any, wide: Site) -> Iterator[Any]:
    with watched_tab(browser_context, wide.url, Watch()) as opened:
        yield opened
        forget_the_price_basis(opened)


@pytest.fixture
def fonts_tab(fonts_context: Any, wide: Site) -> Iterator[Any]:
    """`tab`, once with the machine's fonts and once with DejaVu's alone."""
    with watched_tab(fonts_context, wide.url, Watch()) as opened:
        yield opened
        forget_the_price_basis(opened)


# What scrolls sideways or is cut off: the page, the matrix and what holds it up to its own box
# (`.or-matrix`; the training method's tabs around it scroll their labels by Material's design), and
# a matrix reaching past the article.
SIDEWAYS = """() => {
  const out = [];
  const page = document.documentElement;
  if (page.scrollWidth > innerWidth) out.push(`page: ${page.scrollWidth}px in ${innerWidth}px`);
  for (const table of document.querySelectorAll('.or-matrix table')) {
    if (!table.offsetParent) continue;
    for (let e = table; e && e.tagName !== 'ARTICLE' && !e.matches('.tabbed-set'); e = e.parentElement) {
      if (e.scrollWidth > e.clientWidth + 1) out.push(`${e.className}: ${e.scrollWidth}px in ${e.clientWidth}px`);
    }
    const article = document.querySelector('article').getBoundingClientRect();
    if (table.getBoundingClientRect().right > article.right + 1) out.push('the matrix is wider than the article');
  }
  return out;
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_matrix_of_twelve_gpu_types_fits_1440_px(fonts_tab: Any, wide: Site, scheme: str) -> None:
    tab = fonts_tab
    tab.emulate_media(color_scheme=scheme)
    tab.set_viewport_size(DESKTOP)
    tab.goto(wide.url)
    fonts_loaded(tab)
    matrix = tab.locator(".or-matrix").first
    columns = matrix.locator("thead th[data-gpu]").evaluate_all("ths => ths.map(th => th.dataset.gpu)")
    assert sorted(columns) == sorted(TWELVE)
    assert tab.evaluate(SIDEWAYS) == []
    # Every cell's figures are whole: nothing cut off or spilling into the next column.
    spilled = matrix.locator("tbody td, tbody th").evaluate_all(
        "cells => cells.filter(c => c.scrollWidth > c.clientWidth + 1).map(c => c.textContent.slice(0, 40))"
    )
    assert spilled == []
    # A price with its unit stays on one line, and a throughput's number too (its unit may go under it).
    broken = matrix.locator(".or-matrix__best").evaluate_all(
        "els => els.filter(e => e.getClientRects().length > 1).map(e => e.textContent)"
    )
    broken += matrix.locator(".or-matrix__tokens").evaluate_all(
        """els => els.filter(e => {
          const text = e.firstChild, range = document.createRange();
          range.setStart(text, 0);
          range.setEnd(text, text.textContent.indexOf(' '));
          return range.getClientRects().length > 1;
        }).map(e => e.textContent)"""
    )
    assert broken == []


@pytest.mark.parametrize("path", ["", "models/nemotron-3-super-120b-a12b/", "gpus/mi300x/"])
def test_the_catalogue_of_many_gpu_types_keeps_to_the_width_budget(fonts_tab: Any, wide: Site, path: str) -> None:
    """The tests' frozen real recipes and the twelve GPU types: the longest model name, every kind
    of figure and of badge, at 1,440 px in both font setups."""
    fonts_tab.set_viewport_size(DESKTOP)
    fonts_tab.goto(wide.url + path)
    fonts_loaded(fonts_tab)
    assert_within_width_budget(fonts_tab)


def test_the_matrix_of_twelve_gpu_types_is_a_list_on_a_phone(fonts_tab: Any, wide: Site) -> None:
    tab = fonts_tab
    tab.emulate_media(color_scheme="dark")
    tab.set_viewport_size(PHONE)
    tab.goto(wide.url)
    fonts_loaded(tab)
    assert tab.evaluate(SIDEWAYS) == []
    right = tab.eval_on_selector_all(
        ".or-matrix td, .or-matrix th", "cells => Math.max(...cells.map(c => c.getBoundingClientRect().right))"
    )
    assert right <= PHONE["width"]


DEEPSEEK = "recipes/deepseek-v3/gb200/mb-26.08-mxfp8-256gpu/"  # a published recipe: some figures not published

STYLE = """el => { const s = getComputedStyle(el); return {size: parseFloat(s.fontSize), weight: Number(s.fontWeight),
  colour: s.color, top: el.getBoundingClientRect().top}; }"""


@pytest.mark.parametrize(("scheme", "size"), [("light", DESKTOP), ("dark", PHONE)])
def test_a_figure_not_published_is_a_note_in_its_box(tab: Any, wide: Site, scheme: str, size: dict[str, int]) -> None:
    """ "not published" was set as large and bold as the figures beside it."""
    tab.emulate_media(color_scheme=scheme)
    tab.set_viewport_size(size)
    tab.goto(wide.url + DEEPSEEK)
    missing = tab.locator(".or-figure__value .or-missing")
    assert missing.count() > 0 and missing.first.text_content() == "not published"
    figure = tab.locator(".or-figure__value:not(:has(.or-missing))").first.evaluate(STYLE)
    note = tab.locator(".or-figure__note").first.evaluate(STYLE)
    for shown in missing.evaluate_all(f"els => els.map({STYLE})"):
        assert shown["size"] < 0.8 * figure["size"] and shown["weight"] < figure["weight"]
        assert shown["size"] >= note["size"] and shown["colour"] == note["colour"]  # as secondary as a note
    assert tab.evaluate("document.documentElement.scrollWidth") <= size["width"]


SEED = "qwen3.8-27b/h200/attune-tp4-pp2"  # ran on AWS (its own instance); its $ / 1M is at the basis, Nebius


def provider_shown(tab: Any, recipe_id: str) -> tuple[str, str]:
    """A row's provider cell and what its $ / 1M cell says about whose price it is at."""
    row = tab.locator(f"[data-or-catalogue] tr[data-recipe='{recipe_id}']").first
    ran = row.locator("td[data-key='provider']").text_content() or ""
    at = row.locator("td[data-key='usd']").evaluate("td => getComputedStyle(td, '::after').content")
    return ran, at


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_price_says_whose_price_it_is_beside_where_the_run_ran(tab: Any, wide: Site, scheme: str) -> None:
    """The seed's row read "AWS · $1.05" while $1.05 is at Nebius's price (the basis)."""
    tab.emulate_media(color_scheme=scheme)
    tab.set_viewport_size(DESKTOP)
    tab.goto(wide.url + "models/qwen3.8-27b/")
    tab.wait_for_function("() => document.querySelector('[data-or-catalogue] td[data-key=usd]').title !== ''")
    assert provider_shown(tab, SEED) == ("AWS", '"at Nebius"')
    cell = tab.locator(f"tr[data-recipe='{SEED}'] td[data-key='usd']")
    assert cell.get_attribute("data-price-provider") == "Nebius"
    assert cell.evaluate("td => getComputedStyle(td, '::after').display") == "block"  # under the figure
    # The reader's own price: the figure says so; a GPU type without a price names no one.
    tab.goto(wide.url + "models/qwen3.8-27b/?H200=2.5")
    tab.wait_for_function(
        f"() => document.querySelector(\"tr[data-recipe='{SEED}'] td[data-key=usd]\").dataset.priceProvider"
        " === 'your price'"
    )
    assert provider_shown(tab, SEED) == ("AWS", '"at your price"')
    tab.goto(wide.url + "gpus/gb300/")
    unpriced = tab.locator("[data-or-catalogue] td[data-key='usd']").first
    tab.wait_for_function("() => document.querySelector('[data-or-catalogue] td[data-key=usd]').title !== ''")
    assert unpriced.get_attribute("data-price-provider") is None


TRAINY = "llama-3.1-8b/h200/tt-202506-trainy-whitefiber-fp8-32gpu"  # dense; publishes no EP or ETP
DEEPSEEK_ID = "deepseek-v3/gb200/mb-26.08-mxfp8-256gpu"  # experts: EP 64, no ETP


def test_the_compare_page_says_expert_parallelism_does_not_apply_to_a_dense_model(tab: Any, wide: Site) -> None:
    tab.set_viewport_size(PHONE)
    tab.goto(wide.url + f"compare/?a={DEEPSEEK_ID}&b={TRAINY}")
    tab.wait_for_selector("[data-or-compare-fields] tbody tr")

    def values(path: str) -> list[str]:
        return tab.locator(f"[data-or-compare-fields] tr[data-path='{path}'] td").all_text_contents()

    assert values("layout.ep") == ["64", "does not apply (dense model)"]
    assert values("layout.etp") == ["—", "does not apply (dense model)"]  # "—": left out, as every field
