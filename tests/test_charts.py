"""The chart files (hooks/openrecipes/site/charts.py): which pages get which charts, and what each
figure holds. Drawing them, re-pricing them and touch screens are tests/browser/test_charts.py's."""

from __future__ import annotations

import dataclasses
import json
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

import plotly.graph_objects as go
import pytest
import yaml
from conftest import REPO, Project

from openrecipes.checking import pricebasis
from openrecipes.loader import Entry, load_catalogue
from openrecipes.site import charts

SCHEMA = yaml.safe_load((REPO / "schema/recipe.schema.yaml").read_text(encoding="utf-8"))

UNSAID = " · method not stated"
"""What a series of recipes that do not state their training method is called after its model."""


def url_of(entry: Entry) -> str:
    return f"recipes/{entry.recipe.id}/"


def catalogue(project: Project, recipes: dict[str, dict[str, Any]]) -> list[Entry]:
    for recipe_id, parameters in recipes.items():
        project.add_synthetic(recipe_id, **parameters)
    loaded = load_catalogue(project.root)
    assert not loaded.problems, loaded.problems
    return list(loaded.entries)


def chart_files(entries: list[Entry]) -> dict[str, dict[str, Any]]:
    return {kind: json.loads(build()) for kind, build in charts.charts_for(entries, url_of).items()}


def traces(figure: dict[str, Any], role: str) -> list[dict[str, Any]]:
    return [trace for trace in figure["data"] if trace["meta"]["role"] == role]


def points(figure: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any], int]]:
    """(page URL, its trace, its index) of every point of a figure."""
    for trace in traces(figure, "points"):
        for i, custom in enumerate(trace["customdata"]):
            yield custom[0], trace, i


TWO_MODELS = {
    # Llama 3.1 70B: four recipes on H100 and H200.
    "llama-3.1-70b/h100/a": {"tokens_per_s": 900.0},
    "llama-3.1-70b/h100/b": {"tokens_per_s": 700.0, "precision": "fp8"},
    "llama-3.1-70b/h100/c": {"tokens_per_s": 600.0},
    "llama-3.1-70b/h200/d": {"gpu": "H200", "instance": "AWS p5en.48xlarge", "tokens_per_s": 1000.0},
    # Llama 3.1 8B: three recipes on H100 and B200.
    "llama-3.1-8b/h100/e": {"model": "Llama 3.1 8B", "tokens_per_s": 9000.0, "tp": 1, "pp": 1, "count": 8},
    "llama-3.1-8b/h100/f": {"model": "Llama 3.1 8B", "tokens_per_s": 8000.0, "tp": 1, "pp": 1, "count": 8},
    "llama-3.1-8b/b200/g": {
        "model": "Llama 3.1 8B",
        "gpu": "B200",
        "instance": "AWS p6-b200.48xlarge",
        "tokens_per_s": 20000.0,
        "tp": 1,
        "pp": 1,
        "count": 8,
    },
    # Llama 3.1 405B: three recipes, all on H100 (one GPU type: priced per type, a curve, no chart).
    **{
        f"llama-3.1-405b/h100/{name}": {
            "model": "Llama 3.1 405B",
            "tokens_per_s": tokens,
            "count": 64,
            "tp": 8,
            "pp": 8,
        }
        for name, tokens in (("h", 150.0), ("i", 160.0), ("j", 140.0))
    },
    # Qwen3-8B: two recipes, too few for a chart.
    **{
        f"qwen3-8b/{gpu.lower()}/{name}": {
            "model": "Qwen3-8B",
            "gpu": gpu,
            "instance": instance,
            "tokens_per_s": 5000.0,
        }
        for name, gpu, instance in (("k", "H100", "AWS p5.48xlarge"), ("l", "H200", "AWS p5en.48xlarge"))
    },
}


def test_cost_charts_are_per_model_and_only_where_gpu_types_can_be_compared(project: Project) -> None:
    entries = catalogue(project, TWO_MODELS)
    home = chart_files(entries)
    cost = home["cost"]
    assert cost["version"] == charts.FILE_VERSION and cost["kind"] == "cost"
    # One panel per model with three recipes or more on two GPU types or more, by name, and by
    # training method after it unless it is pre-training (these recipes do not state one).
    assert [panel["name"] for panel in cost["panels"]] == [f"Llama 3.1 70B{UNSAID}", f"Llama 3.1 8B{UNSAID}"]
    for panel in cost["panels"]:
        slug = panel["name"].removesuffix(UNSAID).lower().replace(" ", "-")
        assert {url.split("/")[1] for url, _, _ in points(panel["figure"])} == {slug}
    assert cost["selected"] == 0  # the model with the most priced recipes

    # A model page: its own chart, no picker.
    model = chart_files([e for e in entries if e.recipe.fields.model == "Llama 3.1 8B"])
    assert [panel["name"] for panel in model["cost"]["panels"]] == [f"Llama 3.1 8B{UNSAID}"]
    # A GPU page: one GPU type, so no cost chart; MFU, a row per model.
    gpu = chart_files([e for e in entries if e.recipe.fields.gpu.type == "H100"])
    assert set(gpu) == {"mfu"}
    rows = [a["text"] for a in gpu["mfu"]["panels"][0]["figure"]["layout"]["annotations"]]
    assert rows == [f"{name}{UNSAID}" for name in ("Llama 3.1 405B", "Llama 3.1 70B", "Llama 3.1 8B", "Qwen3-8B")]
    # On a model page, the MFU rows are its GPU types.
    rows = [a["text"] for a in model["mfu"]["panels"][0]["figure"]["layout"]["annotations"]]
    assert rows == ["B200", "H100"]


def test_no_chart_under_three_points(project: Project) -> None:
    entries = catalogue(project, TWO_MODELS)
    qwen = [e for e in entries if e.recipe.fields.model == "Qwen3-8B"]
    assert len(qwen) == 2 and charts.charts_for(qwen, url_of) == {}
    assert charts.charts_for([], url_of) == {}
    # A third recipe: both charts.
    project.add_synthetic("qwen3-8b/h100/m", model="Qwen3-8B", tokens_per_s=4000.0)
    third = next(e for e in load_catalogue(project.root).entries if e.recipe.id == "qwen3-8b/h100/m")
    assert charts.charts_for([*qwen, third], url_of).keys() == {"cost", "mfu"}


def test_deprecated_recipes_are_not_charted(project: Project) -> None:
    recipes = {key: value for key, value in TWO_MODELS.items() if key.startswith("llama-3.1-8b/")}
    entries = catalogue(project, recipes)
    assert set(chart_files(entries)) == {"cost", "mfu"}
    deprecated = [
        dataclasses.replace(
            e, recipe=dataclasses.replace(e.recipe, fields=dataclasses.replace(e.recipe.fields, status="deprecated"))
        )
        if e.recipe.id.endswith("/e")
        else e
        for e in entries
    ]
    assert charts.charts_for(deprecated, url_of) == {}


def test_each_point_carries_what_re_prices_it(project: Project) -> None:
    entries = catalogue(
        project, TWO_MODELS | {"llama-3.1-70b/mi325x/x": {"gpu": "MI325X", "instance": None, "tokens_per_s": 2000.0}}
    )
    by_url = {url_of(e): e for e in entries}
    panel = chart_files(entries)["cost"]["panels"][0]
    seen = set()
    for url, trace, i in points(panel["figure"]):
        entry = by_url[url]
        page, gpu, tokens, usd_per_gpu_hour, head = trace["customdata"][i]
        assert (page, gpu, tokens) == (url, entry.derived.gpu.key, entry.recipe.fields.result.tokens_per_s_per_gpu)
        assert trace["meta"]["gpu"] == gpu and trace["name"] == gpu
        basis = entry.derived.basis  # the price basis of its GPU type, as the table ranks by
        assert usd_per_gpu_hour == (basis.usd_per_gpu_hour if basis else None)
        assert head.startswith(f"Llama 3.1 70B on {entry.recipe.fields.gpu.count} × {gpu}")
        if usd_per_gpu_hour is None:  # kept, not drawn: a price for MI325X draws it
            assert trace["y"][i] is None and trace["text"][i] == ""
        else:  # $/1M as checking/derive.py computes it, to the last bit
            assert trace["y"][i] == pricebasis.usd_per_million_tokens(usd_per_gpu_hour, tokens)
            assert trace["y"][i] == entry.derived.usd_per_million_tokens
            assert trace["text"][i] == "<br>" + charts.price_text(usd_per_gpu_hour, tokens)
        seen.add(url)
    assert seen == {url for url, e in by_url.items() if e.recipe.fields.model == "Llama 3.1 70B"}
    # The unpriced GPU type has its legend entry ready, hidden until a price draws its point.
    keys = {t["meta"]["gpu"]: t["showlegend"] for t in traces(panel["figure"], "key-gpu")}
    assert keys == {"H100": True, "H200": True, "MI325X": False}


def test_axes_are_logarithmic_where_values_span_more_than_ten_times(project: Project) -> None:
    assert charts.axis_type([1.0, 10.0]) == "linear"  # ten times: not more
    assert charts.axis_type([1.0, 10.01]) == "log"
    assert charts.axis_type([5.0]) == charts.axis_type([]) == charts.axis_type([0.0, 50.0]) == "linear"

    entries = catalogue(
        project,
        {
            "llama-3.1-70b/h100/slow": {"tokens_per_s": 90.0},
            "llama-3.1-70b/h100/fast": {"tokens_per_s": 1500.0},
            "llama-3.1-70b/h200/mid": {"gpu": "H200", "instance": "AWS p5en.48xlarge", "tokens_per_s": 900.0},
            "llama-3.1-8b/h100/a": {"model": "Llama 3.1 8B", "tokens_per_s": 9000.0, "tp": 1, "pp": 1, "count": 8},
            "llama-3.1-8b/h100/b": {"model": "Llama 3.1 8B", "tokens_per_s": 7000.0, "tp": 1, "pp": 1, "count": 8},
            "llama-3.1-8b/h200/c": {
                "model": "Llama 3.1 8B",
                "gpu": "H200",
                "instance": "AWS p5en.48xlarge",
                "tokens_per_s": 8000.0,
                "tp": 1,
                "pp": 1,
                "count": 8,
            },
        },
    )
    wide, narrow = (panel["figure"]["layout"] for panel in chart_files(entries)["cost"]["panels"])
    # 90 to 1,500 tokens/s (16.7×), and so the price too (the same $/GPU-hour on H100).
    assert (wide["xaxis"]["type"], wide["yaxis"]["type"]) == ("log", "log")
    assert "rangemode" not in wide["xaxis"]
    # 7,000 to 9,000: linear, from zero.
    assert (narrow["xaxis"]["type"], narrow["yaxis"]["type"]) == ("linear", "linear")
    assert narrow["xaxis"]["rangemode"] == narrow["yaxis"]["rangemode"] == "tozero"


def test_the_pareto_frontier_is_drawn_with_two_points_or_more(project: Project) -> None:
    assert charts.pareto_front([]) == []
    assert charts.pareto_front([(1.0, 1.0), (2.0, 0.5), (1.5, 2.0), (3.0, 0.7)]) == [1, 3]
    assert charts.pareto_front([(1.0, 1.0), (1.0, 1.0)]) == [0]

    entries = catalogue(project, TWO_MODELS)
    seventy, eight = (panel["figure"] for panel in chart_files(entries)["cost"]["panels"])
    # Llama 3.1 70B: H200 at 1,000 tokens/s ($2.20/1M) and H100 at 900 ($2.12): both on the frontier.
    (pareto,) = traces(seventy, "pareto")
    assert pareto["showlegend"] is True
    assert pareto["x"] == [900.0, 1000.0]
    xy = [(t["x"][i], t["y"][i]) for _, t, i in points(seventy)]
    assert [xy[i] for i in charts.pareto_front(xy)] == list(zip(pareto["x"], pareto["y"], strict=True))
    # Llama 3.1 8B: the B200 recipe is both the fastest and the cheapest: a frontier of one, not drawn.
    (pareto,) = traces(eight, "pareto")
    assert (pareto["x"], pareto["y"], pareto["showlegend"]) == ([], [], False)


def test_markers_by_precision_and_a_legend_of_gpus_and_precisions(project: Project) -> None:
    precisions = SCHEMA["properties"]["workload"]["properties"]["precision"]["enum"]
    assert set(charts.PRECISION_SYMBOLS) == set(precisions)  # every precision the schema allows has a shape
    assert len(set(charts.PRECISION_SYMBOLS.values())) == len(charts.PRECISION_SYMBOLS)

    entries = catalogue(project, TWO_MODELS)
    by_url = {url_of(e): e for e in entries}
    for chart in chart_files(entries).values():
        figure = chart["panels"][0]["figure"]
        for url, trace, i in points(figure):
            assert (
                trace["marker"]["symbol"][i] == charts.PRECISION_SYMBOLS[by_url[url].recipe.fields.workload.precision]
            )
            assert trace["showlegend"] is False  # the legend is the key traces'
        key = [
            (t["meta"]["role"], t["name"], t["marker"]["symbol"])
            for t in figure["data"]
            if t["meta"]["role"].startswith("key")
        ]
        assert ("key-precision", "bf16", "circle") in key and ("key-precision", "fp8", "diamond") in key
        assert ("key-gpu", "H100", "square") in key
        assert figure["layout"]["showlegend"] is True
        assert figure["layout"]["legend"]["itemclick"] is False  # a key, not a control


def test_hover_text_and_names_are_escaped_for_plotly(project: Project) -> None:
    entries = catalogue(project, {k: v for k, v in TWO_MODELS.items() if k.startswith("llama-3.1-70b/")})
    hostile = "<b>x</b> & <a href='javascript:alert(1)'>y</a>"
    entries = [
        dataclasses.replace(
            e, recipe=dataclasses.replace(e.recipe, fields=dataclasses.replace(e.recipe.fields, model=hostile))
        )
        for e in entries
    ]
    files = chart_files(entries)
    text = json.dumps([panel["figure"] for chart in files.values() for panel in chart["panels"]])
    assert "<b>" not in text and "<a " not in text and "&lt;b&gt;x&lt;/b&gt; &amp; &lt;a href=&#x27;" in text
    # Only `<br>` is markup, our own.
    heads = [t["customdata"][i][4] for _, t, i in points(files["cost"]["panels"][0]["figure"])]
    assert all(head.replace("<br>", "").count("<") == 0 for head in heads)
    # The picker shows the name as text (never as markup): it is written as it is.
    assert files["cost"]["panels"][0]["name"] == hostile + UNSAID
    # The MFU chart's rows are models when there are several: named in annotations, escaped.
    renamed = dataclasses.replace(
        entries[0],
        recipe=dataclasses.replace(
            entries[0].recipe, fields=dataclasses.replace(entries[0].recipe.fields, model=hostile + " 2")
        ),
    )
    mfu = chart_files([renamed, *entries[1:]])["mfu"]["panels"][0]["figure"]["layout"]
    assert [a["text"] for a in mfu["annotations"]] == sorted(
        [charts.escape(hostile + UNSAID), charts.escape(hostile + " 2" + UNSAID)]
    )


# -- the real catalogue ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def real() -> list[Entry]:
    return list(load_catalogue(REPO).entries)


def real_pages(entries: list[Entry]) -> dict[str, dict[str, dict[str, Any]]]:
    """Every page's chart files: home, each model's, each GPU type's."""
    groups: dict[str, list[Entry]] = defaultdict(list)
    for entry in entries:
        groups[f"model {entry.recipe.fields.model}"].append(entry)
        groups[f"gpu {entry.derived.gpu.key}"].append(entry)
    return {"home": chart_files(entries)} | {page: chart_files(members) for page, members in groups.items()}


def test_one_colour_per_gpu_type_on_every_page(real: list[Entry], reference: Any) -> None:
    colour_of = {key: charts.gpu_colour(spec) for key, spec in reference.gpus.items()}  # from the reference data
    colours: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for page, files in real_pages(real).items():
        for chart in files.values():
            for panel in chart["panels"]:
                for trace in panel["figure"]["data"]:
                    if trace["meta"]["role"] in ("points", "key-gpu"):
                        colours[trace["meta"]["gpu"]].add((trace["marker"]["color"], page))
    assert {gpu: {c for c, _ in seen} for gpu, seen in colours.items()} == {gpu: {colour_of[gpu]} for gpu in colours}
    # The same GPU on the home page and on its own page.
    assert {page for _, page in colours["GB200"]} >= {"home", "gpu GB200"}
    # The parts compared with each other most are told apart; seven colours cannot tell apart every
    # part (reference/gpus.yaml gives the others a colour of a part they are rarely charted with).
    most = ("H100", "H100-96GB", "H200", "B200", "B300", "GB200", "GB300")
    assert len({colour_of[gpu] for gpu in most}) == len(most)


def test_the_real_catalogue_charts_are_valid_plotly_figures(real: list[Entry]) -> None:
    pages = real_pages(real)
    home = pages["home"]
    # A panel per model and training method (the method after the model's name unless pre-training).
    names = [panel["name"] for panel in home["cost"]["panels"]]
    assert names == sorted(names)
    models = {e.recipe.fields.model for e in real if e.recipe.fields.status != "deprecated"}
    assert {name.split(" · ")[0] for name in names} <= models
    assert home["cost"]["panels"][home["cost"]["selected"]]["name"] == "Llama 3.1 405B"
    # No GPU page has a cost chart; the recipes without an MFU are said, not silently dropped.
    assert all("cost" not in files for page, files in pages.items() if page.startswith("gpu "))
    assert any("8 recipes on H100-96GB" in note for note in home["mfu"]["panels"][0]["notes"])
    for files in pages.values():
        for chart in files.values():
            for panel in chart["panels"]:
                go.Figure(panel["figure"])  # raises on any property Plotly does not have


def test_a_gpu_type_draws_at_most_max_points_evenly_spread_and_says_so(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(charts, "MAX_POINTS", 4)
    recipes: dict[str, dict[str, Any]] = {
        f"llama-3.1-70b/h100/r{i}": {"tokens_per_s": 600.0 + 10 * i} for i in range(10)
    }
    h200 = {"gpu": "H200", "instance": "AWS p5en.48xlarge"}
    recipes |= {f"llama-3.1-70b/h200/{name}": {**h200, "tokens_per_s": t} for name, t in (("a", 700.0), ("b", 750.0))}
    files = chart_files(catalogue(project, recipes))
    # Of ten H100 recipes, four evenly spread by throughput (for MFU, by MFU: the same order here),
    # the slowest and the fastest among them; the two H200 recipes, fewer than the most, all.
    expected = sorted(
        [f"recipes/llama-3.1-70b/h100/r{i}/" for i in (0, 3, 6, 9)]
        + ["recipes/llama-3.1-70b/h200/a/", "recipes/llama-3.1-70b/h200/b/"]
    )
    for kind, spread in (("cost", "throughput, the fastest among them"), ("mfu", "MFU in each row")):
        panel = files[kind]["panels"][0]
        assert sorted(url for url, _, _ in points(panel["figure"])) == expected, kind
        assert panel["notes"][-1] == (
            f"Drawn: 6 of these 12 recipes, at most 4 of a GPU type, evenly spread over their {spread}."
            " The table lists every one."
        )
    # The frontier is the one of every recipe: each GPU type's fastest (H200 faster, H100 cheaper).
    (front,) = traces(files["cost"]["panels"][0]["figure"], "pareto")
    assert front["x"] == [690.0, 750.0]
