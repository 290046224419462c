"""Flags beside a recipe's headline figures: a price older than the measurement, an old stack."""

from __future__ import annotations

import datetime as dt
import html as htmllib
import re
from types import SimpleNamespace
from typing import Any

import pytest
from conftest import SEED_DATA, SEED_ID, BuildResult

from openrecipes.checking import flags

MEASURED = dt.date(2026, 10, 14)


def recipe(
    *,
    measured: dt.date | None = MEASURED,
    published: dt.date | None = None,
    price_age: int | None = 0,
    basis_age: int | None = 0,
    platform: str | None = None,
    gpu: str = "B300",
) -> Any:
    """The parts of a recipe and its derived figures the flags read: its own instance's price
    `price_age` days older than the measurement (None: it names none), the basis's `basis_age`."""

    def instance(key: str, age: int) -> Any:
        return SimpleNamespace(key=key, sourced=SimpleNamespace(as_of=MEASURED - dt.timedelta(days=age)))

    fields = SimpleNamespace(
        result=SimpleNamespace(measured=measured),
        source=SimpleNamespace(published=published, first_published=None) if published else None,
        benchmark=SimpleNamespace(system="SR680aV4-8xB300_SXM", platform=platform),
        gpu=SimpleNamespace(type=gpu),
    )
    own = instance("AWS p5en.48xlarge", price_age) if price_age is not None else None
    basis = SimpleNamespace(instance=instance("Nebius H200", basis_age)) if basis_age is not None else None
    return fields, SimpleNamespace(instance=own, basis=basis)


def keys(found: tuple[flags.Flag, ...]) -> list[str]:
    return [flag.key for flag in found]


@pytest.mark.parametrize(("age", "flagged"), [(0, False), (180, False), (181, True), (-400, False), (None, False)])
def test_a_price_more_than_180_days_older_than_the_measurement_is_flagged(age: int | None, flagged: bool) -> None:
    found = flags.recipe(*recipe(price_age=age), on=MEASURED)
    assert keys(found) == (["price-age"] if flagged else [])
    if flagged:
        assert found[0].title == "Its own instance's price is 181 days older than the measurement"
        assert found[0].text == (
            "The $ / 1M at its own instance and the run cost use AWS p5en.48xlarge's on-demand price as of "
            "2026-04-16, 181 days before the run was measured (2026-10-14); cloud prices change within months, so "
            "they may not be what the run cost then. The $ / 1M tokens above is at the price basis (Nebius H200, as "
            "of 2026-10-14), not at this price."
        )


@pytest.mark.parametrize("own", [True, False])
def test_a_price_basis_older_than_the_measurement_is_flagged_as_the_basis(own: bool) -> None:
    """The $ / 1M the page shows is at the basis: its age is the basis's, never the own instance's."""
    found = flags.recipe(*recipe(price_age=0 if own else None, basis_age=200), on=MEASURED)
    assert keys(found) == ["basis-age"]
    assert found[0].title == "The price basis is 200 days older than the measurement"
    also = "" if own else " and so does the run cost (the recipe names no instance of its own)"
    assert found[0].text == (
        "The $ / 1M tokens uses the price basis, Nebius H200's on-demand price as of 2026-03-28, 200 days before "
        f"the run was measured (2026-10-14){also}; cloud prices change within months, so it may not be what a "
        "GPU-hour cost then. Set the price you pay to recompute it."
    )
    both = flags.recipe(*recipe(price_age=300, basis_age=200), on=MEASURED)
    assert keys(both) == ["price-age", "basis-age"]


@pytest.mark.parametrize(("days", "flagged"), [(0, False), (365, False), (366, True), (800, True)])
def test_figures_measured_more_than_a_year_before_the_build_flag_the_stack(days: int, flagged: bool) -> None:
    found = flags.recipe(*recipe(), on=MEASURED + dt.timedelta(days=days))
    assert keys(found) == (["stack-age"] if flagged else [])
    if flagged:
        assert found[0].title == "Measured more than a year before this page was built"
        assert "These figures are from 2026-10-14, so the software stack" in found[0].text


def test_a_published_recipe_without_a_measurement_date_is_dated_by_its_publication() -> None:
    fields, derived = recipe(measured=None, published=dt.date(2025, 6, 13), price_age=None, basis_age=None)
    found = flags.recipe(fields, derived, on=dt.date(2026, 12, 2))
    assert [flag.key for flag in found] == ["stack-age"]
    assert found[0].title == "Published more than a year before this page was built"
    assert flags.recipe(fields, derived, on=dt.date(2026, 6, 13)) == ()


def test_long_price_ages_are_also_said_in_years() -> None:
    found = flags.recipe(*recipe(price_age=1000), on=MEASURED)
    assert found[0].title == "Its own instance's price is 1000 days (over 2 years) older than the measurement"


def test_no_flag_says_the_date_of_the_build() -> None:
    """A page built from the same commit reads the same on any later day (test_reproducible.py)."""
    texts = {flags.recipe(*recipe(), on=dt.date(year, 1, 1)) for year in (2028, 2031)}
    assert len(texts) == 1


def test_a_recipe_with_no_dates_has_no_flags() -> None:
    assert flags.recipe(*recipe(measured=None, price_age=None, basis_age=None), on=MEASURED) == ()


def test_the_seed_page_shows_its_price_age_right_after_the_headline_figures(fixture_site: BuildResult) -> None:
    """The seed's own instance's price (AWS, of 2026-01-21) is months older than its run: a warning
    admonition, not the grey note it was, that blames that price for what it is used for (the $ / 1M
    at its own instance, the run cost) and not for the $ / 1M above it, which is at the basis."""
    html = fixture_site.html(f"recipes/{SEED_ID}/")
    figures_end = html.index('<div class="or-figures">')
    after = html[figures_end:]
    flag = re.search(
        r'</div>\s*</div>\s*</section>\s*<div class="admonition warning or-flag" data-or-flag="price-age">', after
    )
    assert flag, "the price-age flag does not follow the figures"
    days = (SEED_DATA["result"]["measured"] - dt.date(2026, 1, 21)).days
    shown = " ".join(re.sub(r"<[^>]+>", " ", htmllib.unescape(after[: after.index('id="launch"')])).split())
    assert f"Its own instance's price is {days} days older than the measurement" in shown
    assert "The $ / 1M at its own instance and the run cost use AWS p5en.48xlarge's on-demand price" in shown
    assert "The $ / 1M tokens above is at the price basis (Nebius H200, as of " in shown


def test_a_recipe_published_over_a_year_ago_shows_the_stack_age(fixture_site: BuildResult) -> None:
    # Published 2025-06-13: more than a year before any build from now on.
    html = fixture_site.html("recipes/llama-3.1-8b/h100-96gb/tt-202412-torchtitan-fp8-8gpu-fsdp8-cp1/")
    assert re.search(r'data-or-flag="stack-age">\s*<p class="admonition-title">Published more than a year', html)


@pytest.mark.parametrize(
    ("platform", "gpu", "flagged"),
    [
        ("SR780aV3-8xB200_SXM_180GB", "B300", True),  # Lenovo's v5.1 B300 result: its logs name a B200 system
        ("SR680aV4-8xB300_SXM", "B300", False),
        ("NVIDIA GB200", "GB300", True),
        ("NVIDIA GB200", "GB200", False),
        ("XE9680Lx8H200-SXM-141GB", "H200", False),
        ("AS-A126GS-TNBR", "B200", False),  # a model number, not a GPU
        ("SUBMISSION_PLATFORM_PLACEHOLDER", "B200", False),
        (None, "B300", False),
    ],
)
def test_logs_that_name_a_platform_with_other_gpus_are_flagged(platform: str | None, gpu: str, flagged: bool) -> None:
    found = [flag for flag in flags.recipe(*recipe(platform=platform, gpu=gpu), on=MEASURED) if flag.key == "platform"]
    assert bool(found) == flagged
    if found:
        assert found[0].text.startswith(f"The result is filed under SR680aV4-8xB300_SXM, whose description gives {gpu}")
