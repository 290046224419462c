"""The price basis as data: presets from the reference data, the generated assets, prices as written."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import SEED_ID, Project

from openrecipes import fmt
from openrecipes.checking import pricebasis
from openrecipes.loader import load_catalogue
from openrecipes.reading.reference import Reference
from openrecipes.site import export, facts


@pytest.mark.parametrize(
    ("value", "written"),
    [
        (1.8402, "$1.84"),
        (24.4198, "$24.42"),
        (1.0, "$1.00"),
        (0.212345, "$0.2123"),  # below a dollar: four significant figures
        (0.0051234, "$0.005123"),
        (0.5, "$0.5000"),
        (0.99995, "$1.00"),  # rounds up to a dollar: to the cent
        (0.099996, "$0.1000"),  # rounds up to 0.1: four figures one place sooner
        (0.0999949, "$0.09999"),
        (0.125, "$0.1250"),
        (1e-7, "$0.0000001000"),
        (0, "$0.00"),
        (1194.3, "$1,194.30"),
    ],
)
def test_prices_are_written_to_the_cent_or_to_four_significant_figures(value: float, written: str) -> None:
    assert fmt.usd(value) == written


def test_a_fixed_number_of_decimals_is_still_available() -> None:
    assert fmt.usd(0.212345, 2) == "$0.21" and fmt.usd(1.84022, 4) == "$1.8402"


def test_each_preset_takes_the_cheapest_price_of_its_kind(reference: Reference) -> None:
    by_key = {preset.key: preset for preset in pricebasis.PRESETS}
    assert pricebasis.DEFAULT is by_key["cheapest"]
    for gpu in reference.gpus:
        offers = [spec for spec in reference.instances.values() if spec.gpu == gpu]
        for preset in pricebasis.PRESETS:
            eligible = [spec for spec in offers if preset.kinds is None or spec.kind in preset.kinds]
            chosen = pricebasis.basis_instance(reference, gpu, preset)
            if not eligible:
                assert chosen is None
            else:
                assert chosen.usd_per_gpu_hour == min(spec.usd_per_gpu_hour for spec in eligible)
    assert pricebasis.basis_instance(reference, "H100", by_key["hyperscaler"]).key == "AWS p5.48xlarge"
    assert pricebasis.basis_instance(reference, "H100", by_key["neocloud"]).key == "Nebius H100"
    assert pricebasis.basis_instance(reference, "B300", by_key["neocloud"]) is None  # only AWS sells B300 here
    assert pricebasis.basis_instance(reference, "MI325X") is None
    assert "Lambda, Nebius, RunPod" in by_key["neocloud"].describe(reference)


def test_every_instance_is_a_hyperscalers_or_a_neoclouds(reference: Reference) -> None:
    kinds = {spec.provider: spec.kind for spec in reference.instances.values()}
    assert kinds == {
        "AWS": "hyperscaler",
        "GCP": "hyperscaler",
        "Azure": "hyperscaler",
        "Lambda": "neocloud",
        "CoreWeave": "neocloud",
        "Nebius": "neocloud",
        "RunPod": "neocloud",
        "Crusoe": "neocloud",
    }


def test_no_gpu_type_shares_its_name_with_a_query_parameter(reference: Reference) -> None:
    """A reader's own price for a GPU type is `?<gpu key>=2.5`: no key may name a filter, the sort
    or the basis itself."""
    taken = pricebasis.RESERVED_PARAMETERS | {fact.key for fact in facts.FACTS}
    assert not {gpu.casefold() for gpu in reference.gpus} & {name.casefold() for name in taken}


def test_the_presets_are_a_site_asset_of_every_gpu_types_price(reference: Reference) -> None:
    data = pricebasis.price_data(reference)
    assert json.loads(pricebasis.prices_json(reference)) == data
    assert data["default"] == "cheapest" and data["gpus"] == list(reference.gpus)
    presets = {preset["key"]: preset for preset in data["presets"]}
    assert list(presets) == ["cheapest", "hyperscaler", "neocloud"]
    assert presets["cheapest"]["prices"]["H200"] == {
        "instance": "Nebius H200",
        "provider": "Nebius",
        "usd_per_gpu_hour": 4.5,
        "as_of": "2026-09-25",
    }
    assert presets["hyperscaler"]["prices"]["H200"]["instance"] == "AWS p5en.48xlarge"
    assert "MI325X" not in presets["cheapest"]["prices"]


def _expand(column: dict[str, Any]) -> list[Any]:
    return column["list"] if "list" in column else [column["values"][i] for i in column["index"]]


def test_the_tables_rows_as_data_hold_what_the_table_shows(project: Project) -> None:
    project.add_seed()
    project.add_synthetic("llama-3.1-70b/h100/a", tokens_per_s=900.0)
    project.add_synthetic("llama-3.1-70b/h100/b", tokens_per_s=800.0, status="unverified")
    project.add_synthetic("llama-3.1-70b/mi325x/c", gpu="MI325X", instance=None, tokens_per_s=700.0)
    catalogue = load_catalogue(project.root)
    data = export.catalogue_rows(catalogue.entries, lambda entry: f"recipes/{entry.recipe.id}/")
    assert data["id"] == [entry.recipe.id for entry in catalogue.entries]  # in table order
    assert data["url"] == {"prefix": "recipes/", "suffix": "/"}
    assert data["tokens"] == [entry.recipe.fields.result.tokens_per_s_per_gpu for entry in catalogue.entries]
    assert "usd" not in data["columns"]  # recomputed by the page at the reader's basis
    for fact in facts.COLUMNS:
        if fact.column == "price":
            continue
        column = data["columns"][fact.key]
        assert _expand(column["text"]) == [fact.text(entry) for entry in catalogue.entries]
        values = _expand(column["value"]) if "value" in column else _expand(column["text"])
        sort_values = [fact.sort_value(entry) for entry in catalogue.entries]
        assert values == [value.isoformat() if hasattr(value, "isoformat") else value for value in sort_values]
    assert _expand(data["columns"]["status"]["detail"])[data["id"].index(SEED_ID)] == "pass"
    for fact in facts.FACETS:
        assert _expand(data["facets"][fact.key]) == [fact.facet_text(entry) for entry in catalogue.entries]
