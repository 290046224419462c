"""The catalogue as data for programs: one JSON record per recipe, and CSV rows of the table.

The same records back `api/recipes.json` on the site, `openrecipes show --json` and `list --json`,
and the compare page, so every consumer sees the same numbers.
"""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import io
from typing import Any

from . import describe, facts, records
from .catalogue import Entry
from .checks import Derived

API_VERSION = 1


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {name: _plain(item) for name, item in records.items(value)}
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


def fields_json(entry: Entry) -> dict[str, Any]:
    """Every field of the recipe, as the schema names them; dates as ISO strings."""
    fields = _plain(entry.recipe.fields)
    env = entry.recipe.fields.env
    fields["env"] = None if env is None else dict(env)
    return fields


def derived_json(derived: Derived) -> dict[str, Any]:
    instance = derived.instance
    return {
        "gpu": derived.gpu.key if derived.gpu else None,
        "peak_tflops": derived.peak_tflops,
        "mfu": derived.mfu,
        "usd_per_million_tokens": derived.usd_per_million_tokens,
        "usd_per_gpu_hour": derived.usd_per_gpu_hour,
        "tokens_per_gpu_hour": derived.tokens_per_gpu_hour,
        "run_cost_usd": derived.run_cost_usd,
        "price_age_days": derived.price_age_days,
        "instance": None
        if instance is None
        else {
            "name": instance.key,
            "provider": instance.provider,
            "gpus": instance.gpus,
            "usd_per_hour": instance.usd_per_hour,
            "region": instance.region,
            "source": instance.sourced.source,
            "as_of": instance.sourced.as_of.isoformat(),
        },
    }


def recipe_json(entry: Entry, url: str) -> dict[str, Any]:
    """One recipe for programs: id, page URL (relative to the site root), fields, derived figures, checks."""
    return {
        "id": entry.recipe.id,
        "url": url,
        "path": entry.recipe.path,
        "title": describe.title(entry.recipe),
        "fields": fields_json(entry),
        "derived": derived_json(entry.derived),
        "checks": [
            {**_plain(check), "field": ".".join(str(part) for part in check.field)} for check in entry.derived.checks
        ],
    }


CSV_COLUMNS = ("id", "url", *(fact.csv for fact in facts.CSV))


def csv_row(entry: Entry, url: str) -> dict[str, Any]:
    """One recipe's row of recipes.csv: its id, page and every fact the registry exports, raw."""
    return {"id": entry.recipe.id, "url": url, **{fact.csv: fact.csv_value(entry) for fact in facts.CSV}}


def catalogue_csv(rows: list[dict[str, Any]]) -> str:
    """CSV text; cells that a spreadsheet would run as a formula are prefixed with a quote."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({key: _defuse(value) for key, value in row.items()})
    return buffer.getvalue()


def _defuse(value: Any) -> Any:
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value
