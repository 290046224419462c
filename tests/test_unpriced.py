"""A GPU type with no public price (issue 22, item 5): its recipes say so and offer to type one, and
are never ranked by cost among the priced ones, in a site built from the tests' own recipes."""

from __future__ import annotations

import re

import pytest
from conftest import BuildResult, Project, copy_project, parse

from openrecipes import fmt
from openrecipes.checking import pricebasis
from openrecipes.reading.reference import Reference

FAST_UNPRICED = "llama-3.1-70b/gb300/fastest"  # the fastest recipe, on a GPU type with no public price
PRICED = ("llama-3.1-70b/h100/mid", "llama-3.1-70b/h100/slow", "llama-3.1-70b/h200/dear")
SLOW_UNPRICED = "llama-3.1-70b/mi325x/slowest"  # the slowest, also without a price


def _text(html: str) -> str:
    return " ".join("".join(parse(html).text).split())


def _rows(html: str) -> list[str]:
    """The catalogue table's rows, their ids in the order written."""
    return re.findall(r'<tr data-recipe="([^"]+)"', html)


def _cell(html: str, recipe_id: str) -> str:
    row = re.search(rf'<tr data-recipe="{re.escape(recipe_id)}".*?</tr>', html, re.S)
    assert row, recipe_id
    return re.search(r"<td [^>]*data-usd-per-mtok[^>]*>(.*?)</td>", row.group(0), re.S).group(1)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, reference: Reference) -> tuple[BuildResult, dict[str, float]]:
    project = Project(copy_project(tmp_path_factory.mktemp("unpriced") / "project"), reference)
    tokens = {
        FAST_UNPRICED: 3000.0,
        PRICED[0]: 900.0,
        PRICED[1]: 800.0,
        PRICED[2]: 1000.0,
        SLOW_UNPRICED: 300.0,
    }
    for recipe_id, tokens_per_s in tokens.items():
        gpu = recipe_id.split("/")[1].upper()
        project.add_synthetic(
            recipe_id,
            gpu=gpu,
            instance={"H100": "AWS p5.48xlarge", "H200": "AWS p5en.48xlarge"}.get(gpu),
            per_node=4 if gpu == "GB300" else 8,
            tokens_per_s=tokens_per_s,
        )
    result = project.build()
    assert result.ok, result.log
    return result, tokens


def _usd(reference: Reference, gpu: str, tokens_per_s: float) -> str:
    spec = pricebasis.basis_instance(reference, gpu)
    assert spec is not None
    return fmt.usd(pricebasis.usd_per_million_tokens(spec.usd_per_gpu_hour, tokens_per_s))


def test_the_reference_data_prices_no_gpu_type_without_a_public_price(reference: Reference) -> None:
    for gpu in ("GB300", "H100-96GB", "MI325X"):
        assert all(pricebasis.basis_instance(reference, gpu, preset) is None for preset in pricebasis.PRESETS)
    assert pricebasis.basis_instance(reference, "MI300X").key == "Crusoe MI300X"


@pytest.mark.site
def test_unpriced_rows_come_after_every_priced_one_and_say_so(
    built: tuple[BuildResult, dict[str, float]], reference: Reference
) -> None:
    result, tokens = built
    for page in ("", "models/llama-3.1-70b/"):
        html = result.html(page)
        # Cheapest first among the priced rows; then the unpriced ones, the fastest of all included.
        priced = sorted(
            PRICED,
            key=lambda r: pricebasis.usd_per_million_tokens(
                pricebasis.basis_instance(reference, r.split("/")[1].upper()).usd_per_gpu_hour, tokens[r]
            ),
        )
        assert _rows(html) == [*priced, FAST_UNPRICED, SLOW_UNPRICED], page
        assert _text(_cell(html, FAST_UNPRICED)) == "no public price — enter yours"
        assert '<button type="button" class="or-enter-price" data-or-enter-price="GB300">enter yours</button>' in _cell(
            html, FAST_UNPRICED
        )
        assert _text(_cell(html, SLOW_UNPRICED)) == "no public price — enter yours"
        assert _text(_cell(html, PRICED[0])) == _usd(reference, "H100", tokens[PRICED[0]])
        assert "data-or-enter-price" not in _cell(html, PRICED[0])
        # Sorted by nothing but their missing price: data-value is empty, which table.js keeps last.
        assert 'data-value=""' in re.search(rf'<tr data-recipe="{FAST_UNPRICED}".*?</tr>', html, re.S).group(0)
    note = _text(result.html(""))
    assert (
        'Recipes on GPU types with no price in the basis (no public on-demand price: "no public price — enter yours") '
        "are not ranked by cost: they come after every priced recipe, whichever way the column is sorted"
    ) in note


@pytest.mark.site
def test_an_unpriced_recipe_is_no_ones_cheapest(
    built: tuple[BuildResult, dict[str, float]], reference: Reference
) -> None:
    result, tokens = built
    html = result.html("")
    cell = re.search(r'<td data-gpu="GB300" data-recipe="[^"]+">(.*?)</td>', html, re.S).group(1)
    # With its readiness (synthetic recipes carry their author's script: test_readiness_site.py).
    assert _text(cell) == "no public price / 1Menter yours3,000 tokens/s/GPUreadiness: as run by the author1 recipe"
    assert 'data-or-enter-price="GB300"' in cell
    # The models' index: the model's cheapest is a priced recipe, never the fastest unpriced one.
    index = result.html("models/")
    row = re.search(r"<tr><td[^>]*><a [^>]*>Llama 3.1 70B</a>.*?</tr>", index, re.S).group(0)
    shown = re.search(r"<span data-usd-per-mtok[^>]*?(?<!hidden)>([^<]*)</span>", row).group(1)
    cheapest = min(
        PRICED,
        key=lambda r: pricebasis.usd_per_million_tokens(
            pricebasis.basis_instance(reference, r.split("/")[1].upper()).usd_per_gpu_hour, tokens[r]
        ),
    )
    assert shown == _usd(reference, cheapest.split("/")[1].upper(), tokens[cheapest])


@pytest.mark.site
def test_methodology_says_what_no_public_price_means(built: tuple[BuildResult, dict[str, float]]) -> None:
    text = _text(built[0].html("methodology/"))
    assert (
        "No public price. A GPU type no provider sells on demand at a public price has no instance in the "
        'reference data and no price in any preset ("none" in every column below;'
    ) in text
    assert "No price is ever estimated for it." in text
    assert "GB300 none none none" in text and "H100-96GB none none none" in text
