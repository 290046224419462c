"""A new GPU is data (issue 23, item 5): its chart colour comes from reference/gpus.yaml, or from the
palette by its key, so a pull request that only adds a GPU builds its charts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from conftest import REPO, Project

from openrecipes.loader import load_catalogue
from openrecipes.site import charts


def _add_gpu(root: Path, key: str, colour: str | None = None) -> None:
    """reference/gpus.yaml with a part `key`: H100-PCIe's figures under a new name, as a contributor would add it."""
    gpus = root / "reference/gpus.yaml"
    data = yaml.safe_load(gpus.read_text(encoding="utf-8"))
    entry = dict(data["H100-PCIe"], name=f"Example {key}", aliases=[])
    entry.pop("colour", None)
    if colour:
        entry["colour"] = colour
    block = yaml.safe_dump({key: entry}, sort_keys=False, allow_unicode=True, width=1000)
    gpus.write_text(gpus.read_text(encoding="utf-8") + block, encoding="utf-8")


def _recipes_on(project: Project, key: str) -> None:
    for index, tokens in enumerate((700.0, 800.0, 900.0)):
        data = project.add_synthetic(
            f"llama-3.1-70b/{key.lower()}/run-{index}", gpu="H100-PCIe", instance=None, tokens_per_s=tokens
        )
        data["gpu"]["type"] = key
        project.add(f"llama-3.1-70b/{key.lower()}/run-{index}", data)
    for index, tokens in enumerate((1000.0, 1100.0, 1200.0)):
        project.add_synthetic(f"llama-3.1-70b/h100/run-{index}", tokens_per_s=tokens)


def _colours(site: Path) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in (site / "charts").rglob("*.json"):
        chart = json.loads(path.read_text(encoding="utf-8"))
        for panel in chart["panels"]:
            for trace in panel["figure"]["data"]:
                if trace["meta"]["role"] in ("points", "key-gpu"):
                    found.setdefault(trace["meta"]["gpu"], set()).add(trace["marker"]["color"])
    return found


@pytest.mark.site
def test_a_gpu_added_to_the_reference_alone_builds_strict_and_is_charted_in_a_palette_colour(project: Project) -> None:
    _add_gpu(project.root, "H800")
    _recipes_on(project, "H800")
    result = project.build()
    assert result.ok, result.log
    colours = _colours(result.site)
    assert colours["H800"] == {charts.palette_colour("H800")}
    assert charts.palette_colour("H800") in charts.PALETTE
    assert colours["H100"] == {"#0072B2"}  # H100's own, from reference/gpus.yaml


def test_a_colour_in_the_reference_is_the_gpus_colour_on_every_chart(project: Project) -> None:
    _add_gpu(project.root, "H800", colour="#CC79A7")
    _recipes_on(project, "H800")
    loaded = load_catalogue(project.root)
    assert not loaded.problems, loaded.problems
    files = {
        kind: json.loads(build())
        for kind, build in charts.charts_for(list(loaded.entries), lambda e: e.recipe.id).items()
    }
    seen = {
        trace["marker"]["color"]
        for chart in files.values()
        for panel in chart["panels"]
        for trace in panel["figure"]["data"]
        if trace["meta"].get("gpu") == "H800"
    }
    assert seen == {"#CC79A7"}


def test_a_colour_that_is_not_rrggbb_is_refused_where_it_is_written(project: Project) -> None:
    _add_gpu(project.root, "H800", colour="red")
    loaded = load_catalogue(project.root)
    messages = [str(problem) for problem in loaded.problems]
    assert any("reference/gpus.yaml" in m and "colour" in m for m in messages), messages


def test_the_palette_colour_of_a_key_is_fixed() -> None:
    # A digest of the key: the same on every machine and build, whatever else the reference holds.
    assert [charts.palette_colour(key) for key in ("H800", "MI400X", "TPU v5p")] == [
        charts.palette_colour("H800"),
        charts.palette_colour("MI400X"),
        charts.palette_colour("TPU v5p"),
    ]
    import hashlib

    digest = hashlib.sha256(b"H800").digest()
    assert charts.palette_colour("H800") == charts.PALETTE[int.from_bytes(digest[:4], "big") % 7]


def test_the_catalogues_gpu_types_have_their_colours_in_the_reference() -> None:
    data = yaml.safe_load((REPO / "reference/gpus.yaml").read_text(encoding="utf-8"))
    assert {key: entry.get("colour") in charts.PALETTE for key, entry in data.items()} == dict.fromkeys(data, True)
