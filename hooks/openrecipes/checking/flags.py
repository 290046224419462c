"""Warnings a recipe page shows next to its headline figures: a stale price, an old stack.

Both ages are computed from dates the recipe and the reference data hold; nothing is guessed.
The release dates of the pinned framework, PyTorch or CUDA are not in the data, so the age of the
stack is bounded from below by the day its figures are from: a stack measured (or published) that
long before the build is at least that old.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any

from .. import describe, fmt
from ..builddate import BuildDateError, build_date

PRICE_AGE_DAYS = 180
"""A price sourced more than this many days before the measurement is flagged: cloud prices move
within months, so the $ / 1M tokens may not be what the run cost when it ran."""
STACK_AGE_DAYS = 365
"""Figures dated more than this many days (a year) before the build are flagged: in a year the
framework, PyTorch, CUDA and NCCL have all had releases that change throughput."""


@dataclass(frozen=True)
class Flag:
    key: str
    """Stable name, for tests and styles: `price-age`, `stack-age`."""
    title: str
    text: str


def today() -> dt.date:
    """The build's date, as the loader takes it (a broken SOURCE_DATE_EPOCH is reported there)."""
    try:
        return build_date()
    except BuildDateError:
        return dt.datetime.now(dt.UTC).date()


def _age(days: int) -> str:
    """`266 days`; past two years also in years, which is how people read long ages."""
    if days < 730:
        return fmt.plural(days, "day")
    return f"{fmt.plural(days, 'day')} (over {days // 365} years)"


def _price_flags(fields: Any, derived: Any) -> list[Flag]:
    """A price sourced long before the measurement, named for the figures that use it: the price
    basis for the $ / 1M tokens the page shows and ranks by, the recipe's own instance for its
    $ / 1M at that instance and its run cost. (The seed's warning once blamed its own instance,
    AWS, for a $ / 1M that was at the basis, Nebius.)"""
    measured = fields.result.measured if fields.result is not None else None
    if measured is None:
        return []
    basis = derived.basis.instance if derived.basis is not None else None
    own = derived.instance
    found = []
    if own is not None and (measured - own.sourced.as_of).days > PRICE_AGE_DAYS:
        days = (measured - own.sourced.as_of).days
        at_basis = (
            f"The $ / 1M tokens above is at the price basis ({basis.key}, as of {basis.sourced.as_of.isoformat()}), "
            "not at this price."
            if basis is not None
            else "The $ / 1M tokens above is not at this price either: the GPU type has no price in the basis."
        )
        found.append(
            Flag(
                "price-age",
                f"Its own instance's price is {_age(days)} older than the measurement",
                f"The $ / 1M at its own instance and the run cost use {own.key}'s on-demand price as of "
                f"{own.sourced.as_of.isoformat()}, {fmt.plural(days, 'day')} before the run was measured "
                f"({measured.isoformat()}); cloud prices change within months, so they may not be what the run "
                f"cost then. {at_basis}",
            )
        )
    if basis is not None and (measured - basis.sourced.as_of).days > PRICE_AGE_DAYS:
        days = (measured - basis.sourced.as_of).days
        also = "" if own is not None else " and so does the run cost (the recipe names no instance of its own)"
        found.append(
            Flag(
                "basis-age",
                f"The price basis is {_age(days)} older than the measurement",
                f"The $ / 1M tokens uses the price basis, {basis.key}'s on-demand price as of "
                f"{basis.sourced.as_of.isoformat()}, {fmt.plural(days, 'day')} before the run was measured "
                f"({measured.isoformat()}){also}; cloud prices change within months, so it may not be what a "
                "GPU-hour cost then. Set the price you pay to recompute it.",
            )
        )
    return found


def recipe(fields: Any, derived: Any, on: dt.date | None = None) -> tuple[Flag, ...]:
    """The flags of one recipe on the build date `on` (today's build date unless given)."""
    on = on or today()
    flags = _price_flags(fields, derived)
    dated = describe.dated(fields)
    if dated is not None and (on - dated).days > STACK_AGE_DAYS:
        # Said without the build's date or a count of days to it: a page built from the same
        # commit reads the same whenever it is built (tests/test_reproducible.py).
        how = "measured" if fields.result is not None and fields.result.measured is not None else "published"
        flags.append(
            Flag(
                "stack-age",
                f"{how.capitalize()} more than a year before this page was built",
                f"These figures are from {dated.isoformat()}, so the software stack they were {how} with is at "
                "least that old. Newer releases of the framework, PyTorch, CUDA and NCCL often change throughput "
                "and memory use: measure again before relying on them.",
            )
        )
    flags += _platform_flags(fields)
    return tuple(flags)


_GPU_IN_NAME = re.compile(r"(GB\d{3}|(?<!G)B\d{3}|H\d{3}|A100|MI\d{3}X?)(?!\d)", re.IGNORECASE)
"""A GPU model as submitters write it inside a platform's name (`SR780aV3-8xB200_SXM_180GB`, `NVIDIA GB200`)."""


def _platform_flags(fields: Any) -> list[Flag]:
    """A result whose logs name a platform with other GPUs than the recipe's (read from the system it is
    filed under): its price, peak and so MFU may not be the GPUs it ran on. Platform names are free
    text (`NVIDIA HGX H100`, a placeholder); only a GPU model they name is compared."""
    benchmark = fields.benchmark
    if benchmark is None or benchmark.platform is None:
        return []
    named = {found.upper() for found in _GPU_IN_NAME.findall(benchmark.platform)}
    if not named or fields.gpu.type.split("-")[0].upper() in named:
        return []
    return [
        Flag(
            "platform",
            f"Its logs name a {', '.join(sorted(named))} platform, not {fields.gpu.type}",
            f"The result is filed under {benchmark.system}, whose description gives {fields.gpu.type}, but its logs "
            f"name the platform {benchmark.platform} (submission_platform). It may have run on other GPUs: its "
            "price and MFU, which are figured for the filed GPU type, may not be those it ran on.",
        )
    ]
