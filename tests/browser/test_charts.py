"""Charts in Chromium: points re-priced by the price basis, the model picker, and a phone's touch
screen. (The arithmetic charts.js shares with site/charts.py is held to it without a browser:
tests/vectors/charts.json, tests/js/charts.test.mjs.)

The price basis (`OpenRecipes.priceBasis.usdPerGpuHour(gpu)` and the `openrecipes:prices` event)
is stubbed here, so that these tests hold whichever page script provides it.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import urlsplit

import pytest

from openrecipes.checking import pricebasis
from openrecipes.site import charts

from .conftest import Site, Watch, watched_tab

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

MODEL_PAGE = "models/llama-3.1-70b/"
CHARTS = "[...document.querySelectorAll('.or-chart')]"
DRAWN = f"() => {CHARTS}.length > 0 && {CHARTS}.every(c => c.dataset.orDrawn)"
# The Llama 3.1 70B recipes of the test catalogue: GPU and tokens/s per GPU (tests/browser/conftest.py).
RECIPES = {
    "recipes/llama-3.1-70b/h100/mid/": ("H100", 900.0),
    "recipes/llama-3.1-70b/h100/big/": ("H100", 700.0),
    "recipes/llama-3.1-70b/h100/pricey/": ("H100", 600.0),
    "recipes/llama-3.1-70b/h200/tenfold/": ("H200", 90.0),
    "recipes/llama-3.1-70b/mi325x/onprem/": ("MI325X", 2000.0),
}

SET_BASIS = """prices => {
    // A price basis as price.js provides it: $/GPU-hour by GPU key, null for none.
    const usdPerGpuHour = gpu => (Object.prototype.hasOwnProperty.call(prices, gpu) ? prices[gpu] : null);
    window.OpenRecipes.priceBasis = prices === null ? undefined : {
        loaded: () => true,
        usdPerGpuHour,
        usdPerMillion: (gpu, tokens) =>
            (usdPerGpuHour(gpu) === null ? null : (usdPerGpuHour(gpu) / (tokens * 3600)) * 1e6),
        label: gpu => `stub price for ${gpu}`,
        missing: () => "no price",
        showMissing: element => { element.textContent = "no price"; },
        isDefault: () => false,
        provider: gpu => (usdPerGpuHour(gpu) === null ? null : "Stub cloud"),
    };
    document.dispatchEvent(new CustomEvent("openrecipes:prices"));
}"""

# What the first chart of the page draws: each drawn point's page and $/1M, the frontier, the axes.
DRAWN_FIGURE = """() => {
    const chart = document.querySelector(".or-chart");
    const gd = chart.querySelector(".js-plotly-plot");
    const shown = gd && !gd.hidden;
    const points = {};
    let frontier = null;
    for (const trace of shown ? gd.data : []) {
        const role = trace.meta && trace.meta.role;
        if (role === "points") {
            trace.customdata.forEach((c, i) => { if (trace.y[i] !== null) points[c[0]] = trace.y[i]; });
        } else if (role === "pareto") {
            frontier = trace.showlegend ? [trace.x, trace.y] : null;
        }
    }
    return {
        shown,
        points,
        frontier,
        axes: shown ? [gd._fullLayout.xaxis.type, gd._fullLayout.yaxis.type] : null,
        notes: [...chart.querySelectorAll(".or-chart__notes p")].map(p => p.textContent),
        drawnPoints: chart.querySelectorAll(".scatterlayer .point").length,
    };
}"""


def usd(price: float, tokens: float) -> float:
    return pricebasis.usd_per_million_tokens(price, tokens)


def set_basis(page: Any, prices: dict[str, float | None] | None) -> dict[str, Any]:
    """Stub the price basis (None: no basis at all), announce it, and wait for the redraw."""
    before = page.evaluate("() => document.querySelector('.or-chart').dataset.orRenders || '0'")
    page.evaluate(SET_BASIS, prices)
    page.wait_for_function(
        "before => (document.querySelector('.or-chart').dataset.orRenders || '0') !== before", arg=before
    )
    return page.evaluate(DRAWN_FIGURE)


def point_boxes(page: Any) -> list[tuple[float, float]]:
    return page.evaluate(
        """() => [...document.querySelector(".or-chart").querySelectorAll(".scatterlayer .point")]
            .map(e => { const b = e.getBoundingClientRect(); return [b.x, b.y]; })"""
    )


def test_cost_points_follow_the_price_of_each_gpu_type(page: Any, site: Site) -> None:
    page.goto(site.url + MODEL_PAGE)
    page.wait_for_function(DRAWN)

    # Without a price basis: the build's prices; the MI325X recipe has none and is left out, said so.
    drawn = set_basis(page, None)
    assert set(drawn["points"]) == set(RECIPES) - {"recipes/llama-3.1-70b/mi325x/onprem/"}
    assert drawn["notes"] == ["Not charted: 1 recipe on MI325X, which has no public price."]
    before = point_boxes(page)

    # A price for every GPU type: every point at its GPU's price, the MI325X one too.
    prices = {"H100": 2.0, "H200": 3.0, "MI325X": 20.0}
    drawn = set_basis(page, prices)
    assert drawn["points"] == {url: usd(prices[gpu], tokens) for url, (gpu, tokens) in RECIPES.items()}
    assert drawn["drawnPoints"] == 5 and drawn["notes"] == []
    assert point_boxes(page) != before  # the points moved
    # The frontier, as charts.py computes it: MI325X (fastest) and the cheapest H100 one.
    xy = [(tokens, usd(prices[gpu], tokens)) for gpu, tokens in RECIPES.values()]
    front = charts.pareto_front(xy)
    assert drawn["frontier"] == [[xy[i][0] for i in front], [xy[i][1] for i in front]]
    assert drawn["frontier"][0] == [900.0, 2000.0]
    # 90 to 2,000 tokens/s (22×), $0.62 to $9.26 (15×): both axes logarithmic.
    assert drawn["axes"] == ["log", "log"]

    # One GPU type's price changes: only its points move.
    drawn2 = set_basis(page, prices | {"H200": 1.5})
    assert drawn2["points"] == drawn["points"] | {"recipes/llama-3.1-70b/h200/tenfold/": usd(1.5, 90.0)}

    # No price for H100: its recipes leave the chart, and two points are too few for one.
    drawn = set_basis(page, {"H200": 3.0, "MI325X": 20.0})
    assert drawn["shown"] is False and drawn["drawnPoints"] == 0
    assert drawn["notes"] == [
        "Only 2 of these recipes have a price: too few for a chart (the table lists them).",
        "Not charted: 3 recipes on H100, which has no price in the price basis.",
    ]

    # Prices again: the chart comes back; one dominating point makes no frontier line.
    drawn = set_basis(page, {"H100": 2.0, "H200": 3.0, "MI325X": 1.0})
    assert drawn["shown"] is True and drawn["drawnPoints"] == 5
    assert drawn["frontier"] is None  # MI325X is the fastest and the cheapest: a frontier of one


def test_the_chart_drawn_without_a_price_basis_is_the_file_the_build_wrote(page: Any, site: Site) -> None:
    for path in ("", MODEL_PAGE):
        page.goto(site.url + path)
        page.wait_for_function(DRAWN)
        drawn = set_basis(page, None)
        name = page.get_attribute(".or-chart", "data-chart")
        file = json.loads((site.root / "charts" / f"{name}.json").read_text(encoding="utf-8"))
        figure = file["panels"][file["selected"]]["figure"]
        points = {
            c[0]: y
            for trace in figure["data"]
            if trace["meta"]["role"] == "points"
            for c, y in zip(trace["customdata"], trace["y"], strict=True)
            if y is not None
        }
        pareto = next(t for t in figure["data"] if t["meta"]["role"] == "pareto")
        assert drawn["points"] == points
        assert drawn["frontier"] == ([pareto["x"], pareto["y"]] if pareto["showlegend"] else None)
        assert drawn["axes"] == [figure["layout"]["xaxis"]["type"], figure["layout"]["yaxis"]["type"]]
        # The hover text too: the price line written again by the script is the build's.
        texts = page.evaluate(
            """() => document.querySelector('.or-chart .js-plotly-plot').data
                .filter(t => t.meta.role === 'points').map(t => t.text)"""
        )
        assert texts == [t["text"] for t in figure["data"] if t["meta"]["role"] == "points"]


def test_a_page_of_several_models_has_a_picker(page: Any, site: Site) -> None:
    """Home has a cost chart per model; the test catalogue has one model with enough recipes, so
    the file is given a second panel (Llama 3.1 8B, the same points at twice the throughput). The
    catalogue's recipes state no training method, so each panel is named with it."""

    def two_panels(route: Any) -> None:
        file = route.fetch().json()
        other = json.loads(json.dumps(file["panels"][0]))
        other["name"] = "Llama 3.1 8B · method not stated"
        for trace in other["figure"]["data"]:
            trace["x"] = [x * 2 if x is not None else None for x in trace["x"]]
            for point in trace.get("customdata", []):
                point[2] *= 2
        file["panels"].append(other)
        route.fulfill(json=file)

    page.route("**/charts/home-cost.json", two_panels)
    xs = "() => document.querySelector('.or-chart .js-plotly-plot').data[0].x"
    page.goto(site.url)
    page.wait_for_function(DRAWN)
    select = page.locator(".or-chart select")
    options = ["Llama 3.1 70B · method not stated", "Llama 3.1 8B · method not stated"]
    assert select.locator("option").all_text_contents() == options
    assert page.locator(".or-chart label:has(select)").text_content().startswith("Model")
    first = page.evaluate(xs)
    select.select_option(label=options[1])
    page.wait_for_function(f"first => JSON.stringify(({xs})()) !== JSON.stringify(first)", arg=first)
    assert page.evaluate(xs) == [x * 2 for x in first]

    # The address's model (as the table's model filter writes it, without a method) chooses its panel.
    page.goto(site.url + "?model=Llama+3.1+8B")
    page.wait_for_function(DRAWN)
    assert select.input_value() == "1"
    assert page.evaluate(xs) == [x * 2 for x in first]


def test_on_a_touch_screen_the_first_tap_shows_the_tooltip_and_the_second_opens(touch_context: Any, site: Site) -> None:
    watch = Watch()
    with watched_tab(touch_context, site.url, watch) as tab:
        tab.goto(site.url + MODEL_PAGE)
        tab.wait_for_function(DRAWN)
        assert tab.evaluate("matchMedia('(pointer: coarse)').matches") is True
        assert tab.locator(".or-chart .modebar").count() == 0  # no tool bar over the plot
        tab.evaluate("window.__notReloaded = true")

        point = tab.locator(".or-chart .scatterlayer .point").first
        point.scroll_into_view_if_needed()
        box = point.bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        tab.touchscreen.tap(x, y)
        label = tab.locator(".or-chart .hoverlayer .hovertext")
        label.wait_for()
        text = label.text_content()
        assert "Llama 3.1 70B on" in text and "per 1M tokens" in text and text.endswith("Tap again to open")
        tab.wait_for_timeout(500)  # a navigation would have started by now
        assert urlsplit(tab.url).path == "/" + MODEL_PAGE

        tab.touchscreen.tap(x, y)
        tab.wait_for_url(re.compile(r"/recipes/llama-3\.1-70b/"))
        assert tab.evaluate("window.__notReloaded") is True  # instant navigation


def test_on_a_touch_screen_a_swipe_over_a_chart_scrolls_the_page(touch_context: Any, site: Site) -> None:
    """Plotly takes a drag over the plot for a zoom, which on a phone traps the finger scrolling
    past a chart (and leaves no tool bar to undo it): on touch screens there is no drag."""
    watch = Watch()
    with watched_tab(touch_context, site.url, watch) as tab:
        tab.goto(site.url + MODEL_PAGE)
        tab.wait_for_function(DRAWN)
        plot = tab.locator(".or-chart .js-plotly-plot .nsewdrag").first  # the plot area's drag layer
        plot.scroll_into_view_if_needed()
        box = plot.bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.8
        assert tab.evaluate("([x, y]) => !!document.elementFromPoint(x, y).closest('.or-chart')", [x, y])
        before = tab.evaluate("scrollY")
        cdp = tab.context.new_cdp_session(tab)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
        for step in range(1, 11):
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y - 20 * step}]})
            tab.wait_for_timeout(16)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        tab.wait_for_function("before => scrollY > before + 100", arg=before)
        cdp.detach()


def test_with_a_mouse_the_mode_bar_is_there(page: Any, site: Site) -> None:
    page.goto(site.url + MODEL_PAGE)
    page.wait_for_function(DRAWN)
    assert page.evaluate("matchMedia('(pointer: coarse)').matches") is False
    page.hover(".or-chart .js-plotly-plot")
    assert page.locator(".or-chart .modebar").count() >= 1


def test_a_price_typed_into_the_real_control_reranks_the_table_and_moves_the_points(page: Any, site: Site) -> None:
    """The price basis of price.js, not a stub: one GPU type's own price re-ranks the model's table
    and moves that type's points on its chart, and only those."""
    page.goto(site.url + MODEL_PAGE)
    page.wait_for_function(DRAWN)
    page.wait_for_function(
        "() => window.OpenRecipes.priceBasis.loaded() && document.querySelector('[data-or-basis-own]')"
    )
    rows = "[data-or-catalogue] tbody tr[data-recipe]"
    order = page.eval_on_selector_all(rows, "rows => rows.map(r => r.dataset.recipe)")
    assert order[0] == "llama-3.1-70b/h100/mid"  # $1.19 at Nebius's H100 price, the cheapest
    before = page.evaluate(DRAWN_FIGURE)
    boxes = point_boxes(page)

    renders = page.evaluate("() => document.querySelector('.or-chart').dataset.orRenders || '0'")
    page.click("[data-or-basis-own] > summary")
    page.fill("[data-or-basis-gpu='H200']", "0.2")  # H200 at $0.20 per GPU-hour: 90 tokens/s is $0.6173 per 1M
    page.wait_for_function(
        "before => (document.querySelector('.or-chart').dataset.orRenders || '0') !== before", arg=renders
    )
    page.wait_for_function(
        "selector => document.querySelector(selector).dataset.recipe === 'llama-3.1-70b/h200/tenfold'", arg=rows
    )
    after = page.evaluate(DRAWN_FIGURE)
    tenfold = "recipes/llama-3.1-70b/h200/tenfold/"
    assert after["points"][tenfold] == usd(0.2, 90.0)
    assert after["points"][tenfold] < before["points"][tenfold]
    # Every other point keeps its price, and the drawing changed.
    assert {url: y for url, y in after["points"].items() if url != tenfold} == {
        url: y for url, y in before["points"].items() if url != tenfold
    }
    assert point_boxes(page) != boxes
    assert page.text_content(f"{rows}[data-recipe='llama-3.1-70b/h200/tenfold'] [data-usd-per-mtok]") == "$0.6173"
