"""A model's and a GPU type's page with more recipes than their table's first rows: the page holds
those rows (pages.GROUP_ROWS) and says how many there are; table.js loads the page's others from
assets/catalogue-rows.json, which says each row's model and GPU page (tests/browser/test_group_pages.py
drives that part in Chromium)."""

from __future__ import annotations

import json
import re

import pytest
from conftest import Project, parse

from openrecipes.site import pages

MANY = pages.GROUP_ROWS + 2


def _table(html: str) -> tuple[str, list[str]]:
    """The catalogue table's opening tag and its rows' recipe ids."""
    root = re.search(r"<div class=\"or-catalogue\"[^>]*>", html).group(0)
    rows = [attrs["data-recipe"] for tag, attrs in parse(html).elements if tag == "tr" and "data-recipe" in attrs]
    return root, rows


def _values(column: dict) -> list:
    return column["list"] if "list" in column else [column["values"][i] for i in column["index"]]


@pytest.mark.site
def test_model_and_gpu_pages_hold_their_first_rows_and_say_how_many_there_are(project: Project) -> None:
    small = {"model": "Llama 3.1 8B", "tp": 1, "pp": 1, "count": 8}
    for index in range(MANY):
        project.add_synthetic(f"llama-3.1-8b/h100/r{index:02d}", **small, tokens_per_s=5000.0 + 10 * index)
    # The fastest of them all, but deprecated: not among the first rows, as on the home page.
    old = project.add_synthetic("llama-3.1-8b/h100/old", **small, tokens_per_s=9999.0, status="unverified")
    project.add("llama-3.1-8b/h100/old", {**old, "status": "deprecated", "deprecation": {"reason": "A broken timer."}})
    # The same model on another GPU type, and another model on the same GPU type.
    project.add_synthetic("llama-3.1-8b/h200/other-gpu", **small, gpu="H200", instance="AWS p5en.48xlarge")
    project.add_synthetic("llama-3.1-70b/h100/other-model", tokens_per_s=900.0)
    result = project.build()
    assert result.ok, result.errors()

    data = json.loads((result.site / "assets/catalogue-rows.json").read_text(encoding="utf-8"))
    status = dict(zip(data["id"], _values(data["facets"]["status"]), strict=True))
    for kind, slug, members in (
        ("model", "llama-3.1-8b", MANY + 2),  # the H100 ones, the deprecated one, the H200 one
        ("gpu", "h100", MANY + 2),  # the 8B ones, the deprecated one, the 70B one
    ):
        # The data says each row's page; the page's rows are its group's first current ones, in table order.
        slugs = _values(data["groups"][kind])
        group = [recipe_id for recipe_id, key in zip(data["id"], slugs, strict=True) if key == slug]
        assert len(group) == members
        html = result.html(f"{kind}s/{slug}/")
        root, rows = _table(html)
        assert rows == [recipe_id for recipe_id in group if status[recipe_id] != "deprecated"][: pages.GROUP_ROWS]
        assert len(rows) == pages.GROUP_ROWS
        assert f'data-or-total="{members}"' in root
        assert f'data-or-group-by="{kind}" data-or-group="{slug}"' in root
        text = " ".join(" ".join(parse(html).text).split())
        assert f"The {pages.GROUP_ROWS} cheapest current recipes of {members}" in text
        assert f"Without JavaScript this page lists the {pages.GROUP_ROWS} cheapest current recipes" in text

    # A group that fits holds every recipe, the deprecated ones too, and loads nothing.
    for kind, slug, ids in (
        ("gpu", "h200", ["llama-3.1-8b/h200/other-gpu"]),
        ("model", "llama-3.1-70b", ["llama-3.1-70b/h100/other-model"]),
    ):
        root, rows = _table(result.html(f"{kind}s/{slug}/"))
        assert rows == ids
        assert "data-or-total" not in root and f'data-or-group="{slug}"' in root
