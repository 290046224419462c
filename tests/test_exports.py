"""Static data files for programs: JSON and CSV exports, the schema as JSON, the Atom feed, and the
pages that document them (schema reference, model and GPU views, compare page shell)."""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import io
import json
import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
import yaml
from conftest import REPO, SEED_DATA, SEED_ID, SEED_PATH, BuildResult, Project, built_once, copy_project, parse

from openrecipes import fmt
from openrecipes.loader import Entry
from openrecipes.reading.reference import Reference
from openrecipes.site import export
from openrecipes.site.feed import atom_feed

ATOM = "{http://www.w3.org/2005/Atom}"


def _text(html: str) -> str:
    return " ".join(" ".join(parse(html).text).split())


@pytest.fixture(scope="module")
def catalogue(tmp_path_factory: pytest.TempPathFactory, reference: Reference) -> BuildResult:
    """The seed and two synthetic recipes (one on a GPU type without a sourced price), built once
    for the tests that only read the site."""

    def make(folder: Path) -> Path:
        project = Project(copy_project(folder / "project"), reference)
        project.add_seed()
        project.add_synthetic("llama-3.1-70b/h100/p5", tokens_per_s=900.0, measured=dt.date(2026, 11, 1))
        project.add_synthetic(
            "llama-3.1-70b/mi325x/onprem", gpu="MI325X", instance=None, tokens_per_s=700.0, status="unverified"
        )
        return project.root

    result = built_once(tmp_path_factory, "exports", make)
    assert result.ok, result.errors()
    return result


@pytest.mark.build
def test_api_json_has_every_field_derived_figures_and_checks(catalogue: BuildResult) -> None:
    api = json.loads((catalogue.site / "api/recipes.json").read_text(encoding="utf-8"))
    assert api["version"] == 1 and api["count"] == 3
    assert [r["id"] for r in api["recipes"]] == [SEED_ID, "llama-3.1-70b/h100/p5", "llama-3.1-70b/mi325x/onprem"]
    seed = api["recipes"][0]
    assert seed["url"] == f"recipes/{SEED_ID}/"
    assert (catalogue.site / seed["url"] / "index.html").exists()
    original = yaml.safe_load(SEED_PATH.read_text(encoding="utf-8"))
    original["result"]["measured"] = "2026-10-14"

    def assert_contains(published: object, written: object, where: str) -> None:
        # Every written field is published as written; fields left out are published as null.
        if isinstance(written, dict):
            for key, item in written.items():
                assert_contains(published[key], item, f"{where}.{key}")
            assert all(published[key] is None for key in published.keys() - written.keys()), where
        else:
            assert published == written, where

    assert_contains(seed["fields"], original, "$")
    assert seed["derived"]["peak_tflops"] == 989
    # $ / 1M at the price basis, which it names; and at the recipe's own instance.
    tokens = original["result"]["tokens_per_s_per_gpu"]
    assert seed["derived"]["usd_per_million_tokens"] == pytest.approx(4.5 / (tokens * 3600) * 1e6)
    assert seed["derived"]["usd_per_gpu_hour"] == 4.5
    assert seed["derived"]["price_basis"] == {
        "preset": "cheapest",
        "instance": "Nebius H200",
        "provider": "Nebius",
        "usd_per_gpu_hour": 4.5,
        "as_of": "2026-09-25",
    }
    assert seed["derived"]["instance_usd_per_million_tokens"] == pytest.approx(7.912 / (tokens * 3600) * 1e6)
    assert seed["derived"]["instance"]["name"] == "AWS p5en.48xlarge"
    assert api["recipes"][2]["derived"]["price_basis"] is None  # no sourced MI325X price
    assert {c["name"]: c["passed"] for c in seed["checks"]}["MFU"] is True
    assert api["recipes"][2]["fields"]["result"]["usd_per_million_tokens"] is None


@pytest.mark.build
def test_api_csv_has_the_comparison_columns(catalogue: BuildResult) -> None:
    text = (catalogue.site / "api/recipes.csv").read_text(encoding="utf-8")
    assert text.splitlines()[0].split(",") == list(export.csv_columns())  # the registry's, in its order
    rows = list(csv.DictReader(io.StringIO(text)))
    tokens = SEED_DATA["result"]["tokens_per_s_per_gpu"]
    assert (
        rows[0]
        | {
            "id": SEED_ID,
            "url": f"recipes/{SEED_ID}/",
            "model": "Qwen3.8-27B",
            "gpu_type": "H200",
            "gpu_count": "8",
            "layout": "TP4 PP2",
            "tokens_per_s_per_gpu": repr(tokens),
            # The figures the site recomputes from sourced data, at full precision; the recipe's own are in the JSON.
            # $ / 1M at the price basis of H200, named; and at the recipe's own instance.
            "usd_per_million_tokens": repr(4.5 / (tokens * 3600) * 1e6),
            "price_basis": "cheapest",
            "basis_instance": "Nebius H200",
            "basis_usd_per_gpu_hour": "4.5",
            "instance_usd_per_million_tokens": repr(7.912 / (tokens * 3600) * 1e6),
            "mfu": repr(6 * SEED_DATA["result"]["active_params"]["count"] * tokens / 989e12),
            "status": "verified",
            "correctness": "pass",
            "measured": "2026-10-14",
            "framework": "slime 0.3.0: THUDM/slime a897e1f plus 8 commits that do not change the training step",
            "instance": "AWS p5en.48xlarge",
        }
        == rows[0]
    )
    # No sourced MI325X price: no figure, no basis, no instance; its `instance: null` is written as
    # the page writes it (facts.Fact.null), not as a value left out.
    no_price = ["usd_per_million_tokens", "price_basis", "basis_instance", "basis_usd_per_gpu_hour"]
    no_price += ["instance_usd_per_million_tokens"]
    assert [rows[2][column] for column in no_price] == [""] * len(no_price)
    assert rows[2]["instance"] == "none (no public price)"


@pytest.mark.site
def test_csv_cells_cannot_become_spreadsheet_formulas(project: Project) -> None:
    data = project.add_synthetic("llama-3.1-70b/h100/formula")
    data["stack"]["framework"] = '=HYPERLINK("http://evil")'
    project.add("llama-3.1-70b/h100/formula", data)
    result = project.build()
    assert result.ok, result.errors()
    rows = list(csv.DictReader(io.StringIO((result.site / "api/recipes.csv").read_text(encoding="utf-8"))))
    assert rows[0]["framework"] == '\'=HYPERLINK("http://evil")'


@pytest.mark.build
def test_schema_is_published_as_json_and_documented_field_by_field(catalogue: BuildResult) -> None:
    published = json.loads((catalogue.site / "schema/recipe.schema.json").read_text(encoding="utf-8"))
    assert published == yaml.safe_load((REPO / "schema/recipe.schema.yaml").read_text(encoding="utf-8"))
    text = _text(catalogue.html("schema/"))
    assert "recipe.layout.recompute" in text
    assert "mfu number no > 0; ≤ 1 Model FLOPs utilisation as a fraction in (0, 1]" in text
    assert "tokens_per_s_per_gpu number yes ≥ 0.01; ≤ 100000000 Training throughput" in text
    assert "cuda string no CUDA toolkit version (NVIDIA GPUs)." in text


@pytest.mark.build
def test_atom_feed_lists_recipes_newest_first_with_absolute_links(catalogue: BuildResult) -> None:
    feed = ElementTree.fromstring((catalogue.site / "feed.xml").read_bytes())
    entries = feed.findall(f"{ATOM}entry")
    assert [e.findtext(f"{ATOM}id") for e in entries] == [
        "urn:openrecipes:recipe:llama-3.1-70b/h100/p5",
        f"urn:openrecipes:recipe:{SEED_ID}",
        "urn:openrecipes:recipe:llama-3.1-70b/mi325x/onprem",
    ]
    assert feed.findtext(f"{ATOM}updated") == "2026-11-01T00:00:00Z"
    usd = fmt.usd(4.5 / (SEED_DATA["result"]["tokens_per_s_per_gpu"] * 3600) * 1e6)
    assert f"{usd} per 1M tokens at the price basis (Nebius H200)" in entries[1].findtext(f"{ATOM}summary")
    link = entries[1].find(f"{ATOM}link").get("href")
    assert link == f"https://openrecipes.github.io/openrecipes/recipes/{SEED_ID}/"
    assert '<link rel="alternate" type="application/atom+xml"' in catalogue.html("")


NOT_IN_XML = "".join(map(chr, [*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0xD800, 0xDFFF, 0xFFFE, 0xFFFF]))
"""Characters XML 1.0 does not allow anywhere in a document (its production `Char`)."""


def _seed_entry_saying(entries: dict[str, Entry], text: str) -> Entry:
    """The seed's catalogue entry with `text` in every free-text field the feed shows."""
    entry = entries[SEED_ID]
    fields = entry.recipe.fields
    fields = dataclasses.replace(
        fields,
        model=text,
        author=dataclasses.replace(fields.author, name=text, url=text),
        layout=dataclasses.replace(fields.layout, summary=text),
    )
    return dataclasses.replace(entry, recipe=dataclasses.replace(entry.recipe, fields=fields))


def test_atom_feed_stays_well_formed_xml_whatever_text_it_is_given(fixture_entries: dict[str, Entry]) -> None:
    markup = "<b>x</b> &amp; ]]> \"quoted\" 'single' \t tab\nline"
    feed_text = atom_feed(
        [(_seed_entry_saying(fixture_entries, markup + NOT_IN_XML), "recipes/a<b>/\x01/")], "https://e.org/a&b\x00/"
    )
    assert re.match(r"<\?xml version=(.)1\.0\1 encoding=(.)utf-8\2\?>\n", feed_text)
    # Expat, like every feed reader, refuses a document holding any of those characters.
    feed = ElementTree.fromstring(feed_text.encode("utf-8"))
    shown = markup + "\ufffd" * len(NOT_IN_XML)  # each one replaced, so a reader sees something was there
    entry = feed.find(f"{ATOM}entry")
    assert entry.find(f"{ATOM}author").findtext(f"{ATOM}name") == shown
    assert entry.find(f"{ATOM}author").findtext(f"{ATOM}uri") == shown
    assert entry.findtext(f"{ATOM}title").startswith(shown + " on ")
    assert entry.findtext(f"{ATOM}summary").endswith(". " + shown)
    assert feed.get("{http://www.w3.org/XML/1998/namespace}base") == "https://e.org/a&b\ufffd/"
    assert entry.find(f"{ATOM}link").get("href") == "https://e.org/a&b\ufffd/recipes/a<b>/\ufffd/"


def test_atom_feed_is_dated_by_the_recipes_not_the_clock(fixture_entries: dict[str, Entry]) -> None:
    entry = _seed_entry_saying(fixture_entries, "text")
    feed_text = atom_feed([(entry, "recipes/x/")], None)
    assert feed_text == atom_feed([(entry, "recipes/x/")], None)
    feed = ElementTree.fromstring(feed_text)
    measured = entry.recipe.fields.result.measured.isoformat()
    assert feed.findtext(f"{ATOM}updated") == feed.find(f"{ATOM}entry").findtext(f"{ATOM}updated")
    assert feed.findtext(f"{ATOM}updated") == f"{measured}T00:00:00Z"
    assert feed.findtext(f"{ATOM}id") == "/feed.xml"  # no site_url: links relative to the server's root
    empty = ElementTree.fromstring(atom_feed([], None))
    assert empty.findtext(f"{ATOM}updated") == "1970-01-01T00:00:00Z" and empty.find(f"{ATOM}entry") is None


@pytest.mark.build
def test_home_page_lists_recently_added_and_links_the_data(catalogue: BuildResult) -> None:
    home = catalogue.html("")
    recent = re.search(r'<h2 id="recently-added".*?</ul>', home, re.S).group(0)
    assert re.findall(r'href="(recipes/[^"]+)"', recent) == [
        "recipes/llama-3.1-70b/h100/p5/",
        f"recipes/{SEED_ID}/",
        "recipes/llama-3.1-70b/mi325x/onprem/",
    ]
    for target in ("api/recipes.json", "api/recipes.csv", "schema/recipe.schema.json", "feed.xml"):
        assert f'href="{target}"' in home


@pytest.mark.build
def test_model_and_gpu_pages_list_their_recipes(catalogue: BuildResult) -> None:
    model = catalogue.html("models/llama-3.1-70b/")
    assert re.findall(r'<tr data-recipe="([^"]+)"', model) == ["llama-3.1-70b/h100/p5", "llama-3.1-70b/mi325x/onprem"]
    assert 'href="../../recipes/llama-3.1-70b/h100/p5/"' in model
    assert 'class="or-chart"' not in model  # two recipes: the table says it all (tests/test_charts.py)
    gpu = catalogue.html("gpus/h200/")
    assert re.findall(r'<tr data-recipe="([^"]+)"', gpu) == [SEED_ID]
    assert "NVIDIA H200 SXM 141GB: 989 TFLOP/s dense BF16, 1,979 FP8, 141 GB" in _text(gpu)
    models = _text(catalogue.html("models/"))
    # Its lowest $ / 1M: 900 tokens/s at Nebius's $3.85 per H100-hour; the MI325X recipe's (no price)
    # is there, hidden, for a reader who gives MI325X a price.
    # A row per training method (these say none), with its best MFU against the BF16 peak.
    n = 70_553_706_496 - 128_256 * 8_192  # Llama 3.1 70B less its input embedding
    assert f"Llama 3.1 70B not stated 2 $1.19 no public price {fmt.percent(6 * n * 900 / 989e12)}" in models
    lowest = re.search(r"<span data-usd-lowest>(.*?)</span></td>", catalogue.html("models/"), re.S).group(1)
    assert re.findall(r'data-gpu="([^"]+)"[^>]*?( hidden)?>', lowest) == [("H100", ""), ("MI325X", " hidden")]
    nav = re.search(r'<nav class="md-nav md-nav--primary[^"]*".*?</nav>\s*</div>', catalogue.html(""), re.S).group(0)
    assert "Models" in nav and "GPUs" in nav and "Compare" in nav


@pytest.mark.build
def test_chart_files_are_named_by_their_page_and_recipe_pages_load_no_plotly(catalogue: BuildResult) -> None:
    home = catalogue.html("")
    # Three recipes of two models: MFU (comparable across models), no cost chart (two of one model).
    names = re.findall(r'<div class="or-chart" data-chart="([a-z0-9-]+)"', home)
    assert names == ["home-mfu"]
    assert "Cost against throughput" not in home
    mfu = json.loads((catalogue.site / "charts/home-mfu.json").read_text(encoding="utf-8"))
    figure = mfu["panels"][0]["figure"]
    assert sum(len(trace["x"]) for trace in figure["data"] if trace["meta"]["role"] == "points") == 3
    assert "template" not in figure["layout"]
    recipe_page = catalogue.html(f"recipes/{SEED_ID}/")
    assert "or-chart" not in recipe_page and "plotly" not in recipe_page.lower()
    assert (catalogue.site / "assets/javascripts/plotly.min.js").stat().st_size > 1_000_000


@pytest.mark.site
def test_other_recipes_for_the_model_show_differences(project: Project) -> None:
    project.add_synthetic("llama-3.1-70b/h100/base", tokens_per_s=900.0)
    project.add_synthetic("llama-3.1-70b/h100/faster", tokens_per_s=990.0)
    result = project.build()
    assert result.ok, result.errors()
    text = _text(result.html("recipes/llama-3.1-70b/h100/base/"))
    assert "Other recipes for this model" in text
    assert "Of the same training method (not stated): a recipe is ranked only with its own kind." in text
    # The MFU names its peak; beside it, the figure against the BF16 peak whatever the precision.
    mfu = fmt.percent(6 * (70_553_706_496 - 128_256 * 8_192) * 990 / 989e12)
    assert f"TP8 PP2 16 × H100 990 (+10.0%) $1.08 (−9.1%) {mfu} vs BF16 peak (+3.8 pp) {mfu} (+3.8 pp) verified" in text


@pytest.mark.site
def test_other_recipes_are_the_cheapest_on_each_gpu_type(project: Project) -> None:
    """Whatever the reader's price basis, every recipe of one GPU type is priced at one $ per
    GPU-hour, so the cheapest other recipe is the fastest of some GPU type: a page lists those."""
    project.add_synthetic("llama-3.1-70b/h100/fastest", tokens_per_s=990.0)
    project.add_synthetic("llama-3.1-70b/h100/second", tokens_per_s=950.0)
    project.add_synthetic("llama-3.1-70b/h100/slow", tokens_per_s=800.0)
    project.add_synthetic("llama-3.1-70b/h200/only", gpu="H200", instance=None, tokens_per_s=1000.0)
    retired = project.add_synthetic("llama-3.1-70b/h200/retired", gpu="H200", instance=None, tokens_per_s=1500.0)
    retired.update(status="deprecated", deprecation={"reason": "Superseded by a faster layout."})
    project.add("llama-3.1-70b/h200/retired", retired)
    result = project.build()
    assert result.ok, result.errors()

    def listed(recipe_id: str) -> list[str]:
        html = result.html(f"recipes/{recipe_id}/")
        table = re.search(r'<table class="or-alternatives">.*?</table>', html, re.S)
        assert table, recipe_id
        return re.findall(r'<td><a href="([^"]+)">', table.group(0))

    # The fastest H100 sees the second fastest; the others see the fastest. A deprecated recipe is
    # no one's alternative, and the only H200 recipe is everyone's.
    assert sorted(listed("llama-3.1-70b/h100/fastest")) == ["../../h200/only/", "../second/"]
    assert sorted(listed("llama-3.1-70b/h100/slow")) == ["../../h200/only/", "../fastest/"]
    assert listed("llama-3.1-70b/h200/only") == ["../../h100/fastest/"]
    note = re.sub(r"<[^>]+>", "", result.html("recipes/llama-3.1-70b/h100/slow/"))
    assert "The cheapest on each GPU type (2 of 4): see them all on the Llama 3.1 70B page." in note


@pytest.mark.build
def test_compare_page_is_linked_from_every_recipe(catalogue: BuildResult) -> None:
    page = catalogue.html(f"recipes/{SEED_ID}/")
    assert f'href="../../../../compare/?a={SEED_ID}"' in page
    compare = catalogue.html("compare/")
    assert "data-or-compare" in compare
