"""The catalogue as data for programs: one JSON record per recipe, CSV rows of the table, and the files.

The same records back `api/recipes.json` on the site, `openrecipes show --json` and `list --json`,
and the compare page, so every consumer sees the same numbers.
"""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import functools
import io
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from .. import describe
from ..checking import launchscript as launch
from ..checking import pricebasis
from ..checking.figures import Derived
from ..checking.readiness import Readiness
from ..loader import Entry
from ..reading import records
from ..reading.reference import Reference
from ..reading.schema import SCHEMA_RELATIVE_PATH, Schema
from . import facts
from .feed import atom_feed, entry_xml_text
from .outputs import (
    API_CSV,
    API_INDEX,
    API_JSON,
    API_RECIPES_DIR,
    CATALOGUE_ROWS_JSON,
    FACETS_JS,
    FEED,
    PRICES_JSON,
    SCHEMA_JSON,
    Output,
)
from .pieces import Pieces

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
    documented = entry.recipe.fields.launch
    if documented is not None and documented.env is not None:
        fields["launch"]["env"] = dict(documented.env)
    return fields


def launches_json(entry: Entry) -> list[dict[str, Any]]:
    """Each launch as a reader gets it (launchscript.py): its kind, why there is none, the files it
    downloads as (name to text) and what it needs from the reader. Whether it runs is `readiness`."""
    return [
        {
            "kind": one.kind,
            "reason": one.reason,
            "files": {script.name: script.text for script in one.scripts},
            "inputs": [dataclasses.asdict(item) for item in one.inputs],
        }
        for one in launch.launches(entry.recipe.fields)
    ]


def readiness_json(readiness: Readiness) -> dict[str, Any]:
    """Whether a reader can run the recipe as it stands (checking/readiness.py): its key (stable, as
    the CSV's `readiness` holds it), its label as every page writes it, why, and what it lists
    (`items`, each a line; `listed` says what they are, null when there are none)."""
    return {
        "key": readiness.key,
        "label": readiness.label,
        "why": readiness.why,
        "listed": readiness.listed,
        "items": list(readiness.items),
    }


def derived_json(derived: Derived) -> dict[str, Any]:
    instance, basis = derived.instance, derived.basis
    return {
        "gpu": derived.gpu.key if derived.gpu else None,
        "peak_tflops": derived.peak_tflops,
        "mfu": derived.mfu,
        # Which dense peak `mfu` is against, as the pages write it, and the one scale for every precision.
        "mfu_peak": derived.peak_column,
        # With "(derived)" after it when the throughput is derived from a publisher's figure.
        "mfu_against": (
            describe.peak_name(derived.peak_column) + (f" {facts.DERIVED}" if derived.tokens_from is not None else "")
            if derived.peak_column
            else None
        ),
        "bf16_peak_tflops": derived.bf16_peak_tflops,
        "mfu_bf16": derived.mfu_bf16,
        # The training method (None: not stated) and the FLOPs per token counted for it (flops.py).
        "method": derived.method,
        # Every parameter active for every token (no experts): expert parallelism does not apply.
        "dense_model": facts.is_dense(derived.model),
        "method_name": describe.method_name(derived.method),  # as the pages write it: "LoRA", "not stated"
        "flops_per_token": derived.flops_per_token,
        # At the price basis of the GPU type, which `price_basis` names; the recipe's own instance
        # gives `instance_usd_per_million_tokens`.
        "usd_per_million_tokens": derived.usd_per_million_tokens,
        "usd_per_gpu_hour": basis.usd_per_gpu_hour if basis else None,
        "price_basis": None
        if basis is None
        else {
            "preset": pricebasis.DEFAULT.key,
            "instance": basis.instance.key,
            "provider": basis.instance.provider,
            "usd_per_gpu_hour": basis.usd_per_gpu_hour,
            "as_of": basis.instance.sourced.as_of.isoformat(),
        },
        "instance_usd_per_million_tokens": derived.instance_usd_per_million_tokens,
        # A throughput derived from a publisher's figure (null: measured, or published as such): never
        # ranked as measured; the qualifier is what the pages write after it.
        "tokens_per_s_per_gpu_qualifier": facts.DERIVED if derived.tokens_from is not None else None,
        "tokens_per_s_per_gpu_from": None
        if derived.tokens_from is None
        else {
            "figure": derived.tokens_from.label,
            "how": derived.tokens_from.how,
            "recomputed": derived.tokens_from.recomputed,
            "formula": derived.tokens_from.formula,
        },
        # The publisher's own figures, each recomputed in its convention where it can be.
        "publisher_figures": [
            {
                "name": figure.name,
                "value": figure.stated,
                "unit": figure.unit,
                "convention": figure.convention,
                "counts": figure.described,
                "recomputed": figure.recomputed,
                "not_recomputed": figure.not_recomputed,
                "formula": figure.formula or None,
            }
            for figure in derived.publisher_figures
        ],
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
        "derived": {
            **derived_json(entry.derived),
            # A result trained to a quality target: its GPU-hours and what they cost at the price.
            "train_gpu_hours": facts.train_gpu_hours(entry),
            "train_cost_usd": facts.train_cost(entry),
        },
        "readiness": readiness_json(entry.derived.readiness),
        "launches": launches_json(entry),
        "checks": [
            {**_plain(check), "field": ".".join(str(part) for part in check.field)} for check in entry.derived.checks
        ],
    }


EXAMPLE_DERIVED = ("gpu", "peak_tflops", "mfu", "usd_per_million_tokens")
EXAMPLE_CHECK = ("name", "stated", "recomputed", "passed")
ELIDED = {"...": "..."}


def example_api(entry: Entry, url: str, count: int) -> str:
    """The start of api/recipes.json as the Data page shows it: the first record, made by
    `recipe_json` (the very function the export writes it with) and shortened to a few values of
    each part, `"...": "..."` standing for the rest. A hand-written example went stale: it showed a
    $ / 1M at the recipe's own instance after the export had moved to the price basis."""
    record = recipe_json(entry, url)

    def shortened(values: dict[str, Any], keys: Sequence[str]) -> dict[str, Any]:
        kept = {key: values[key] for key in keys if key in values}
        return {**kept, **ELIDED} if len(kept) < len(values) else kept

    fields = shortened(record["fields"], ("schema_version", "model"))
    if "gpu" in record["fields"]:
        fields = {**{k: v for k, v in fields.items() if k != "..."}, "gpu": ELIDED, **ELIDED}
    parts = {
        **{key: record[key] for key in ("id", "url", "path", "title")},
        "fields": fields,
        "derived": shortened(record["derived"], EXAMPLE_DERIVED),
        "checks": [shortened(record["checks"][0], EXAMPLE_CHECK)] if record["checks"] else [],
    }

    # One line a part, as the export writes each value (json.dumps): the figures are its digits.
    lines = [f"      {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}" for key, value in parts.items()]
    head = f'{{\n  "version": {API_VERSION},\n  "count": {count},\n  "recipes": [\n    {{\n'
    return head + ",\n".join(lines) + "\n    }\n  ]\n}\n"


def csv_columns() -> tuple[str, ...]:
    """The header of recipes.csv: id, page, and the registry's CSV columns in its order."""
    return ("id", "url", *(fact.csv for fact in facts.CSV if fact.csv))


def csv_row(entry: Entry, url: str) -> dict[str, Any]:
    """One recipe's row of recipes.csv: its id, page and every fact the registry exports, raw."""
    return {"id": entry.recipe.id, "url": url, **{fact.csv: fact.csv_value(entry) for fact in facts.CSV}}


def catalogue_csv(rows: list[dict[str, Any]]) -> str:
    """CSV text; cells that a spreadsheet would run as a formula are prefixed with a quote."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=csv_columns(), lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({key: _defuse(value) for key, value in row.items()})
    return buffer.getvalue()


def _defuse(value: Any) -> Any:
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def _column(values: Sequence[Any]) -> dict[str, list[Any]]:
    """Values as a column: the distinct values and each row's index into them when they repeat
    (models, GPUs, statuses), else the values themselves (ids, MFUs)."""
    distinct = list(dict.fromkeys(values))
    if len(distinct) * 2 > len(values):
        return {"list": list(values)}
    position = {value: index for index, value in enumerate(distinct)}
    return {"values": distinct, "index": [position[value] for value in values]}


def _sort_value(value: Any) -> Any:
    """A sort value as JSON holds it (dates as their ISO text, as the tables' `data-value`)."""
    return value.isoformat() if hasattr(value, "isoformat") else value


def _row_columns() -> tuple[facts.Fact, ...]:
    # The price is recomputed from `gpu` and `tokens` at the reader's basis.
    return tuple(fact for fact in facts.COLUMNS if fact.column != "price")


def _row(entry: Entry, columns: Sequence[facts.Fact]) -> tuple[Any, ...]:
    """One recipe's cells in `catalogue_rows`, column by column: its text, sort value, GPU-hours at
    the reader's basis and detail; then its filter values and group slugs. Made from the recipe
    alone, so `mkdocs serve` keeps them for every recipe an edit leaves unchanged (pieces.py)."""
    cells = []
    for fact in columns:
        detail = facts.BY_KEY[fact.detail] if fact.detail else None
        cells.append(
            (
                fact.text(entry),
                _sort_value(fact.sort_value(entry)),
                fact.basis_hours(entry) if fact.column == "cost" else None,
                (detail.text(entry) if detail.value(entry) is not None else "") if detail else None,
            )
        )
    facet_values = tuple(fact.facet_text(entry) for fact in facts.FACETS)
    groups = tuple(facts.group_slug(key, entry) for key in facts.GROUPED_BY)
    return tuple(cells), facet_values, groups


def catalogue_rows(
    entries: Sequence[Entry], url: Callable[[Entry], str], pieces: Pieces | None = None
) -> dict[str, Any]:
    """The catalogue tables' rows in table order, column by column, for docs/assets/table.js: each
    column's text and sort value, each filter's value, the GPU type and tokens/s the $ / 1M is
    recomputed from at the reader's price basis, and the slugs of its model's and GPU type's pages
    (`groups`). About a tenth of the table's HTML per row. `pieces` keeps each recipe's cells."""
    ids = [entry.recipe.id for entry in entries]
    urls = [url(entry) for entry in entries]
    prefix, suffix = ("", "")
    if entries:
        prefix, _, suffix = urls[0].partition(ids[0])
    same_shape = all(address == f"{prefix}{recipe_id}{suffix}" for recipe_id, address in zip(ids, urls, strict=True))
    row_columns = _row_columns()
    # The registry's columns are part of what a kept row was made for (a test may extend them).
    shape = (tuple(fact.key for fact in row_columns), tuple(fact.key for fact in facts.FACETS))
    kept = pieces if pieces is not None else Pieces()
    rows = [kept.get("row", entry, shape, functools.partial(_row, entry, row_columns)) for entry in entries]
    columns: dict[str, Any] = {}
    for index, fact in enumerate(row_columns):
        cells = [row[0][index] for row in rows]
        texts = [cell[0] for cell in cells]
        column: dict[str, Any] = {"text": _column(texts)}
        values = [cell[1] for cell in cells]
        if values != texts:
            column["value"] = _column(values)
        if fact.column == "cost":  # priced again at the reader's basis, where the recipe has no instance
            column["hours"] = _column([cell[2] for cell in cells])
        if fact.detail:
            column["detail"] = _column([cell[3] for cell in cells])
            column["detail_label"] = facts.BY_KEY[fact.detail].label.lower()
        columns[fact.key] = column
    return {
        "version": 1,
        "count": len(entries),
        "id": ids,
        "url": {"prefix": prefix, "suffix": suffix} if same_shape else {"list": urls},
        "tokens": [entry.recipe.fields.result.tokens_per_s_per_gpu for entry in entries],
        # The rows whose throughput is derived from a publisher's figure: never ranked by price.
        "derived": [index for index, entry in enumerate(entries) if not facts.measured_throughput(entry)],
        "columns": columns,
        "facets": {fact.key: _column([row[1][index] for row in rows]) for index, fact in enumerate(facts.FACETS)},
        # The model's and the GPU type's page of each row (their slugs): a group page keeps its own.
        "groups": {key: _column([row[2][index] for row in rows]) for index, key in enumerate(facts.GROUPED_BY)},
    }


def recipe_json_path(recipe_id: str) -> str:
    """Where one recipe's record is published on its own: what the compare page loads."""
    return f"{API_RECIPES_DIR}/{recipe_id}.json"


def data_outputs(
    root: Path,
    entries: Sequence[Entry],
    url: Callable[[Entry], str],
    site_url: str | None,
    reference: Reference,
    pieces: Pieces | None = None,
) -> list[Output]:
    """The catalogue as files for programs: `api/recipes.json` and `.csv`, each recipe's record on its
    own (`api/recipes/<id>.json`) with an index of them (`api/index.json`), the schema as JSON, the
    Atom feed; and the page scripts' data: the table's filters and rows, the price-basis presets
    (from `reference`). `url` is a recipe page's address from the site root. `pieces` (see
    pieces.py) keeps each recipe's record, row and feed entry between builds."""
    kept = pieces if pieces is not None else Pieces()
    everything = tuple(entry.digest for entry in entries)

    def record(entry: Entry) -> str:
        # Compact: with an indent, json falls back to its pure-Python encoder, 5× slower at 1,000 recipes.
        return kept.get(
            "json",
            entry,
            url(entry),
            lambda: json.dumps(recipe_json(entry, url(entry)), ensure_ascii=False, separators=(",", ":")),
        )

    def api() -> str:
        # The records written one by one make the very text json.dumps makes of the whole document.
        head = json.dumps({"version": API_VERSION, "count": len(entries)}, separators=(",", ":"))[:-1]
        return f'{head},"recipes":[{",".join(record(entry) for entry in entries)}]}}\n'

    def index() -> str:
        rows = [{"id": e.recipe.id, "title": describe.title(e.recipe), "model": e.recipe.fields.model} for e in entries]
        data = {"version": API_VERSION, "count": len(rows), "recipes": rows}
        return json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"

    def table() -> str:
        rows = (
            kept.get("csv", entry, url(entry), lambda entry=entry: _csv_line(entry, url(entry))) for entry in entries
        )
        return _csv_header() + "".join(rows)

    def schema() -> str:
        document = Schema.load(root / SCHEMA_RELATIVE_PATH).document
        return json.dumps(document, indent=2, ensure_ascii=False) + "\n"

    def feed() -> str:
        def entry_xml(entry: Entry, page: str, base: str) -> str:
            return kept.get("feed", entry, (page, base), lambda: entry_xml_text(entry, page, base))

        return atom_feed([(entry, url(entry)) for entry in describe.newest_first(entries)], site_url, entry_xml)

    def facets_script() -> str:
        config = json.dumps(facts.facet_config(), ensure_ascii=False, indent=2)
        order = json.dumps([{"key": key, "dir": direction} for key, direction in facts.DEFAULT_ORDER])
        figures = json.dumps(facts.figure_config(), ensure_ascii=False, indent=2)
        return (
            "// Generated from hooks/openrecipes/site/facts.py when the site is built: the catalogue table's filters\n"
            "// and its order before the reader sorts it (then by id), and the compare page's headline figures.\n"
            "window.OpenRecipes = window.OpenRecipes || {};\n"
            f"window.OpenRecipes.facets = {config};\n"
            f"window.OpenRecipes.tableOrder = {order};\n"
            f"window.OpenRecipes.figures = {figures};\n"
        )

    def rows() -> str:
        return json.dumps(catalogue_rows(entries, url, kept), ensure_ascii=False, separators=(",", ":")) + "\n"

    return [
        Output(FACETS_JS, render=facets_script, inputs=()),
        Output(PRICES_JSON, render=functools.partial(pricebasis.prices_json, reference), inputs=()),
        # Every recipe's listing: the rows show what lists of recipes show (as Output.inputs=None).
        Output(CATALOGUE_ROWS_JSON, render=rows),
        Output(API_JSON, render=api, inputs=everything),
        Output(API_CSV, render=table, inputs=everything),
        Output(API_INDEX, render=index, inputs=everything),
        Output(SCHEMA_JSON, render=schema, inputs=()),
        Output(FEED, render=feed, inputs=everything),
        # After the catalogue's own file, which makes every record these reuse.
        *(
            Output(
                recipe_json_path(entry.recipe.id),
                render=functools.partial(_line, record, entry),
                inputs=(entry.digest, url(entry)),
                origin=entry.recipe.path,
            )
            for entry in entries
        ),
    ]


def _line(make: Callable[[Entry], str], entry: Entry) -> str:
    return make(entry) + "\n"


def _csv_header() -> str:
    buffer = io.StringIO()
    csv.DictWriter(buffer, fieldnames=csv_columns(), lineterminator="\n").writeheader()
    return buffer.getvalue()


def _csv_line(entry: Entry, url: str) -> str:
    return catalogue_csv([csv_row(entry, url)]).split("\n", 1)[1]
