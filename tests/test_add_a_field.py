"""Adding a field is the schema plus one declaration (HACKING.md, "Adding a field").

The trial of issue 20, made a test: a copy of the project gets two new properties in its schema and
one `Fact` each in the registry (through `facts.extended`, the registry's own extension point, in
place of editing facts.py), recipes that set them, write them `null` and leave them out; the built
site and the `openrecipes` command then show them everywhere the declarations say, and nothing
else was touched. Also here: what the registry refuses, and why (an object's repr, a field the
schema does not have, a `null` with no meaning).
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import SEED, SEED_ID, Project

from openrecipes.cli import main
from openrecipes.loader import load_catalogue
from openrecipes.site import facts
from openrecipes.site.facts import Change, Fact, Format, at
from openrecipes.site.plan import plan_site

ORCHESTRATOR = {
    "description": "What started the job's processes (`slurm`); null: started by hand on one node.",
    "type": ["string", "null"],
    "enum": ["slurm", "kubernetes", "ray", None],
}
ENERGY = {
    "description": "Energy the measured run used, in kWh, from the nodes' power meters.",
    "type": "number",
    "exclusiveMinimum": 0,
    "maximum": 1_000_000_000,
    "x-limit": "No training run uses a terawatt-hour.",
}

# The one declaration each field needs: where it is shown is said here and nowhere else. (Named
# `example_` so that no real field of the schema ever takes their place.)
DECLARED = (
    Fact(
        "example_orchestrator",
        "Orchestrator",
        at("stack.example_orchestrator"),
        null="none (started by hand)",
        section="stack",
        column="text",
        width=6,
        facet="Any orchestrator",
        csv="example_orchestrator",
        terminal="orchestrator",
    ),
    Fact(
        "example_energy",
        "Energy",
        at("result.example_energy_kwh"),
        show=Format("as_written", suffix=" kWh"),
        section="figures",
        compare=Change("relative", better=-1),
    ),
)

GIVEN_UP = {"provider": {"column": None, "width": None}}
"""A 15th column does not fit the table's width budget: as HACKING.md says, one gives way (Provider
stays a filter, in the CSV and on the recipe page)."""

OTHER, UNSAID = "llama-3.1-70b/h100/by-hand", "llama-3.1-70b/h100/unsaid"


def _add_properties(root: Path) -> None:
    """The schema's part: two properties, each with a description and bounds."""
    path = root / "schema/recipe.schema.yaml"
    schema = yaml.safe_load(path.read_text(encoding="utf-8"))
    schema["properties"]["stack"]["properties"]["example_orchestrator"] = ORCHESTRATOR
    schema["properties"]["result"]["properties"]["example_energy_kwh"] = ENERGY
    path.write_text(yaml.safe_dump(schema, allow_unicode=True, sort_keys=False), encoding="utf-8")


def _add_recipes(project: Project) -> None:
    seed = yaml.safe_load(SEED)
    seed["stack"]["example_orchestrator"] = "slurm"
    seed["result"]["example_energy_kwh"] = 1234.5
    project.add(SEED_ID, seed)
    other = project.add_synthetic(OTHER)
    other["stack"]["example_orchestrator"] = None  # a statement: nothing orchestrated it
    project.add(OTHER, other)
    project.add_synthetic(UNSAID)  # says nothing of either: not published


def _cells(html: str, key: str) -> list[str]:
    return re.findall(rf'<td[^>]* data-key="{key}"[^>]*>([^<]*)</td>', html)


def _script_value(script: str, name: str) -> Any:
    match = re.search(rf"^window\.OpenRecipes\.{name} = (.*?);$", script, re.S | re.M)
    assert match, name
    return json.loads(match.group(1))


@pytest.mark.site
def test_a_field_added_through_the_registry_alone_is_shown_everywhere_it_is_declared(
    project: Project, capsys: pytest.CaptureFixture[str]
) -> None:
    _add_properties(project.root)
    _add_recipes(project)
    before = [fact.key for fact in facts.COLUMNS]
    with facts.extended(*DECLARED, changed=GIVEN_UP):
        built = project.build()
        code = main(["--root", str(project.root), "list"])
        listed, _ = capsys.readouterr()
        assert main(["--root", str(project.root), "show", SEED_ID]) == 0
        shown, _ = capsys.readouterr()
    assert built.ok, built.errors()
    assert code == 0

    # The recipe page: a row of the software stack table, the explicit null as its meaning, and a
    # recipe that says nothing named as not publishing it.
    page = built.html(f"recipes/{SEED_ID}/")
    assert re.search(r'<th scope="row">Orchestrator</th>\s*<td>slurm</td>', page)
    assert re.search(
        r'<th scope="row">Orchestrator</th>\s*<td class="or-missing">none \(started by hand\)</td>',
        built.html(f"recipes/{OTHER}/"),
    )
    assert re.search(r"Not published: [^<]*Orchestrator", built.html(f"recipes/{UNSAID}/"))
    # ... and a headline figure, with the others.
    assert '<span class="or-figure__label">Energy</span><span class="or-figure__value">1,234.5 kWh</span>' in page
    missing = '<span class="or-figure__value"><span class="or-missing">not published</span>'
    assert f'<span class="or-figure__label">Energy</span>{missing}' in built.html(f"recipes/{OTHER}/")

    # The catalogue table: a column (last: declared last), and each row's value for the filter.
    home = built.html("")
    keys = re.findall(r'<th scope="col" data-key="([a-z0-9_]+)"', home)
    assert keys == [*(key for key in before if key != "provider"), "example_orchestrator"]
    assert sorted(_cells(home, "example_orchestrator")) == ["none (started by hand)", "not published", "slurm"]
    assert f'data-recipe="{SEED_ID}"' in home
    row = re.search(rf'<tr data-recipe="{re.escape(SEED_ID)}"[^>]*>', home)
    assert row and 'data-example_orchestrator="slurm"' in row.group(0)

    # The filters and the compare page's figures, as the page scripts read them.
    script = (built.site / "assets/facets.js").read_text(encoding="utf-8")
    filters = {facet["name"]: facet for facet in _script_value(script, "facets")}
    assert filters["example_orchestrator"]["any"] == "Any orchestrator"
    figures = {figure["key"]: figure for figure in _script_value(script, "figures")}
    assert figures["example_energy"] == {
        "key": "example_energy",
        "label": "Energy",
        "path": "fields.result.example_energy_kwh",
        "kind": "value",
        "format": {"name": "as_written", "places": None, "suffix": " kWh"},
        "change": {"kind": "relative", "better": -1, "scale": 1.0, "places": 1},
        "qualifier": None,  # measured against nothing named (an MFU names its peak)
        "hours": None,  # no cost priced from GPU-hours (run cost, cost to train)
        "no_hours": None,
    }
    rows = json.loads((built.site / "assets/catalogue-rows.json").read_text(encoding="utf-8"))
    assert "example_orchestrator" in rows["columns"] and "example_orchestrator" in rows["facets"]

    # The CSV: the raw value, the null's meaning, and nothing for a value not published.
    table = list(csv.DictReader(io.StringIO((built.site / "api/recipes.csv").read_text(encoding="utf-8"))))
    assert {row["id"]: row["example_orchestrator"] for row in table} == {
        SEED_ID: "slurm",
        OTHER: "none (started by hand)",
        UNSAID: "",
    }

    # `openrecipes list` and `show`.
    header, *lines = listed.splitlines()
    assert header.split()[-1] == "orchestrator"
    assert {line.split()[0]: line.split()[-1] for line in lines}[SEED_ID] == "slurm"
    assert "  Energy  " in shown and "1,234.5 kWh" in shown
    assert re.search(r"^  Orchestrator +slurm$", shown, re.M)

    # Outside the block, the registry is as declared in facts.py.
    assert [fact.key for fact in facts.COLUMNS] == before and "example_orchestrator" not in facts.BY_KEY


def test_the_registry_holds_to_the_schema(project: Project) -> None:
    """Every declared fact reads a field the schema has, and can write what it finds there."""
    document = yaml.safe_load((project.root / "schema/recipe.schema.yaml").read_text(encoding="utf-8"))
    facts.check_schema(document)

    def refused(fact: Fact) -> str:
        with pytest.raises(ValueError) as error:
            facts.check_schema(document, [fact])
        return str(error.value)

    # A misspelt or missing field, found before a page is made.
    assert (
        refused(Fact("hfu", "HFU", at("result.hfu")))
        == "fact 'hfu' reads result.hfu, which the recipe schema does not have"
    )
    # An object, a list or a yes/no is written by its `show`, never as Python writes it.
    assert "declare show=" in refused(Fact("sharding2", "Sharding", at("layout.sharding")))
    assert "declare show=" in refused(Fact("window2", "Window", at("result.window")))
    assert "declare show=" in refused(Fact("sp2", "Sequence parallel", at("layout.sequence_parallel")))
    # A field a recipe may write `null` says what the null means (here: no recompute).
    assert "declare null=" in refused(Fact("recompute2", "Recompute", at("layout.recompute"), show=str))


def test_nothing_is_written_as_a_repr(project: Project) -> None:
    """A fact made without the schema's check (a script's own registry) still never writes an
    object as Python would: it says which fact needs a `show`."""
    project.add(SEED_ID, SEED)
    entry = load_catalogue(project.root).entries[0]
    offload = Fact("offload2", "Offload", at("layout.offload"), csv="offload2", facet="Any")  # an object in the seed
    for write in (offload.text, offload.csv_value, offload.facet_text, offload.sort_value):
        with pytest.raises(TypeError, match="fact 'offload2': a Offload is not written as it is; declare show="):
            write(entry)


def test_a_compared_figure_is_written_by_a_format_the_page_script_knows() -> None:
    with pytest.raises(ValueError, match="show= must be a Format"):
        Fact("energy", "Energy", at("result.energy_kwh"), show=str, compare=Change("relative"))
    with pytest.raises(ValueError, match="say where its value is in the record"):
        Fact("energy", "Energy", lambda entry: 1, show=Format("number"), compare=Change("relative"))


def test_a_column_goes_where_its_declaration_says() -> None:
    last = Fact("last", "Last", at("model"), column="text", width=6)
    second = Fact("second", "Second", at("model"), column="text", width=6, column_after="model")
    room = {"provider": {"column": None}, "train_cost": {"column": None}}
    with facts.extended(last, second, changed=room):
        keys = [fact.key for fact in facts.COLUMNS]
    # Right of its column, after those placed there before it (the training method).
    assert keys[:3] == ["model", "method", "second"] and keys[-1] == "last"
    nowhere = Fact("nowhere", "Nowhere", at("model"), column="text", width=1, column_after="nope")
    with pytest.raises(ValueError, match="column_after names no column"), facts.extended(nowhere):
        pass
    # A list shows no field only a recipe's own page shows: `mkdocs serve` would leave it stale.
    notes = Fact("notes", "Notes", at("notes"), csv="notes")
    with pytest.raises(ValueError, match="only its recipe's page shows"), facts.extended(notes):
        pass


def test_a_column_past_the_width_budget_is_refused_by_name() -> None:
    """The catalogue table fits a 1,440 px screen with 5% to spare (measured by
    tests/browser/conftest.py's assert_within_width_budget): a column that would take the table
    past its budget is refused, named, before any page is made, and so is one with no width."""
    room = facts.TABLE_BUDGET_EM - sum(fact.width or 0 for fact in facts.COLUMNS)
    assert 0 <= room < 6.5  # no room for a column of a figure (6.5 em and more): one more must make room
    wide = Fact("example_wide", "Example", at("model"), column="text", width=6.5)
    with pytest.raises(ValueError, match=r"column 'example_wide' \(6.5 em, the column declared last\) does not fit"):
        facts.extended(wide).__enter__()
    assert "example_wide" not in facts.BY_KEY
    unsized = Fact("example_unsized", "Example", at("model"), column="text")
    with pytest.raises(ValueError, match="column 'example_unsized' declares no width="):
        facts.extended(unsized, changed=GIVEN_UP).__enter__()
    with facts.extended(wide, changed=GIVEN_UP):
        assert [fact.key for fact in facts.COLUMNS][-1] == "example_wide"
    with pytest.raises(ValueError, match="changed names no fact: nope"):
        facts.extended(changed={"nope": {}}).__enter__()


def test_the_planned_site_refuses_a_fact_the_schema_cannot_back(project: Project) -> None:
    project.add(SEED_ID, SEED)
    hfu = Fact("hfu", "HFU", at("result.hfu"), csv="hfu")
    with facts.extended(hfu), pytest.raises(ValueError, match=r"result\.hfu, which the recipe schema does not have"):
        plan_site(project.root)
    assert plan_site(project.root).problems == ()
