"""Readiness on the built site (issue 28, item 7): every state of test_readiness.py's catalogue, with
its dry runs recorded, carries the same label on its page, in its table row and filter value, in the
home matrix, in api/recipes.csv and in its JSON record. In the matrix, the cheapest Llama 2 70B on
H100 (NVIDIA's, whose launch differs from the row) names the cheapest that runs as documented
(Dell's, slower)."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from conftest import SEED_ID, BuildResult, Project, copy_project, parse
from test_readiness import DELL, INCOMPLETE, NONE, NVIDIA, PREPARE, STATES, add_every_state

from openrecipes import fmt
from openrecipes.checking.readiness import LABELS
from openrecipes.loader import Entry
from openrecipes.reading.reference import Reference
from openrecipes.site import facts

pytestmark = pytest.mark.build


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, reference: Reference) -> tuple[BuildResult, dict[str, Entry]]:
    project = Project(copy_project(tmp_path_factory.mktemp("readiness") / "project"), reference)
    entries = add_every_state(project)
    result = project.build()
    assert result.ok, result.log
    return result, entries


def words(text: str) -> str:
    return " ".join(text.replace("¶", "").split())


def captured(html: str, attribute: str, tag: str | None = None) -> dict[str, str]:
    """The text of each element (of `tag`) carrying `attribute`, by the attribute's value."""
    values: list[str] = []

    def chosen(name: str, attrs: dict[str, str | None]) -> bool:
        if attribute in attrs and tag in (None, name):
            values.append(attrs[attribute] or "")
            return True
        return False

    found = parse(html, capture_when=chosen).captured
    return dict(zip(values, (words(text) for text in found), strict=True))


def test_each_page_says_its_readiness_by_its_badge_and_in_its_launch_section(built: Any) -> None:
    result, entries = built
    for recipe_id, key in STATES.items():
        html = result.html(f"recipes/{recipe_id}/")
        readiness = entries[recipe_id].derived.readiness
        # The author's inputs in a line (code), anything else a list.
        joined = f"{', '.join(readiness.items)}." if key == "as-run" else " ".join(readiness.items)
        listed = f" {readiness.listed}: {joined}" if readiness.items else ""
        assert captured(html, "data-or-readiness") == {key: f"Readiness: {LABELS[key]} {readiness.why}{listed}"}
        badge = f'<span class="or-badge or-badge--{key}" title="Whether it runs as it stands: see Launch"'
        assert f"{badge} data-or-readiness-badge>readiness: {LABELS[key]}</span>" in html, recipe_id


def test_the_authors_inputs_are_listed_as_code_and_the_admonition_is_materials(built: Any) -> None:
    result, _ = built
    html = result.html(f"recipes/{SEED_ID}/")
    assert '<div class="admonition warning or-readiness" data-or-readiness="as-run">' in html
    assert "<code>$NVLINK_COUNT</code>, <code>&lt;slime entry module&gt;</code>, " in html
    assert '<div class="admonition success or-readiness" data-or-readiness="runs">' in result.html(f"recipes/{DELL}/")


def test_each_table_row_shows_and_filters_by_its_label(built: Any) -> None:
    result, _ = built
    html = result.html("")
    rows = {
        attrs["data-recipe"]: attrs.get("data-readiness")
        for tag, attrs in parse(html).elements
        if tag == "tr" and "data-recipe" in attrs
    }
    assert rows == {recipe_id: LABELS[key] for recipe_id, key in STATES.items()}
    cells = captured(html, "data-recipe", "tr")
    for recipe_id, key in STATES.items():
        # The row's last cell, right of the status.
        assert cells[recipe_id].endswith(f" {LABELS[key]}"), cells[recipe_id]
        cell = f'<td data-key="readiness" data-label="Readiness" data-value="{key}">'
        assert f'{cell}<span class="or-badge or-badge--{key}">{LABELS[key]}</span></td>' in html
    assert {
        "name": "readiness",
        "label": "Readiness",
        "any": "Any readiness",
        "numeric": False,
        "unit": None,
        "hidden": [],
    } in facts.facet_config()
    assert '"any": "Any readiness"' in (result.site / "assets/facets.js").read_text(encoding="utf-8")


def test_the_matrix_names_the_cheapest_that_runs_beside_a_cheaper_one_that_does_not(built: Any) -> None:
    result, entries = built
    html = result.html("")
    cells = captured(html, "data-recipe", "td")
    runs = entries[DELL]
    price = facts.BY_KEY["usd"].text(runs)
    # The cell of Llama 2 70B on H100: NVIDIA's, the cheapest, differs; Dell's is the cheapest that runs
    # (each part a line of its own: the text runs on where the page breaks the line).
    cheapest = entries[NVIDIA]
    assert cells[NVIDIA] == (
        f"{facts.BY_KEY['usd'].text(cheapest)} / 1M"
        f"{fmt.number(cheapest.recipe.fields.result.tokens_per_s_per_gpu)} tokens/s/GPU"
        "readiness: differs from the row"
        f"the cheapest that does: runs as documented {price} / 1M, 4 GPUs {runs.derived.label}"
        "7 recipes"
    )
    links = [attrs for tag, attrs in parse(html).elements if tag == "a" and "data-or-runs" in attrs]
    assert links == [
        {"class": "or-matrix__runs", "href": f"recipes/{DELL}/", "title": DELL, "data-or-runs": DELL},
    ]
    # A cell whose cheapest is the only recipe names no other, whatever its readiness.
    assert cells[SEED_ID].endswith("tokens/s/GPUreadiness: as run by the author1 recipe")
    assert cells[NONE].endswith("tokens/s/GPUreadiness: not published1 recipe")
    assert PREPARE not in cells and INCOMPLETE not in cells


def test_the_exports_carry_one_field(built: Any) -> None:
    result, entries = built
    text = (result.site / "api/recipes.csv").read_text(encoding="utf-8")
    rows = {row["id"]: row for row in csv.DictReader(io.StringIO(text))}
    assert {recipe_id: row["readiness"] for recipe_id, row in rows.items()} == STATES
    for recipe_id, key in STATES.items():
        record = json.loads((result.site / f"api/recipes/{recipe_id}.json").read_text(encoding="utf-8"))
        readiness = entries[recipe_id].derived.readiness
        assert record["readiness"] == {
            "key": key,
            "label": LABELS[key],
            "why": readiness.why,
            "listed": readiness.listed,
            "items": list(readiness.items),
        }
    dell = json.loads((result.site / f"api/recipes/{DELL}.json").read_text(encoding="utf-8"))["readiness"]
    assert (dell["listed"], dell["items"]) == (None, [])
