"""Warnings a recipe page shows next to its headline figures: a stale price, an old stack.

Both ages are computed from dates the recipe and the reference data hold; nothing is guessed.
The release dates of the pinned framework, PyTorch or CUDA are not in the data, so the age of the
stack is bounded from below by the day its figures are from: a stack measured (or published) that
long before the build is at least that old.
"""

from __future__ import annotations

import datetime as dt
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


def recipe(fields: Any, derived: Any, on: dt.date | None = None) -> tuple[Flag, ...]:
    """The flags of one recipe on the build date `on` (today's build date unless given)."""
    on = on or today()
    flags = []
    age = derived.price_age_days
    if age is not None and age > PRICE_AGE_DAYS and derived.price is not None:
        instance = derived.price.instance
        flags.append(
            Flag(
                "price-age",
                f"The price is {_age(age)} older than the measurement",
                f"The $ / 1M tokens uses {instance.key}'s on-demand price as of "
                f"{instance.sourced.as_of.isoformat()}, {fmt.plural(age, 'day')} before the run was measured "
                f"({fields.result.measured.isoformat()}); cloud prices change within months, so it may not be "
                f"what the run cost then. Set the price you pay to recompute it.",
            )
        )
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
    return tuple(flags)
