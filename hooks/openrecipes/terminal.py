"""The catalogue as plain text for a terminal: the ranked table (`list`) and one recipe (`show`).

Numbers are formatted by `fmt` exactly as the site shows them, so a figure read in the terminal
matches the one on the page.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from . import describe, fmt
from .catalogue import Entry

NO_PRICE = "–"
LIST_COLUMNS = ("id", "GPUs", "layout", "tokens/s/GPU", "$/1M", "MFU %", "status")
_RIGHT_ALIGNED = {"tokens/s/GPU", "$/1M", "MFU %"}


def page_url(recipe_id: str) -> str:
    """The recipe's page, relative to the site root (as in api/recipes.json)."""
    return f"recipes/{recipe_id}/"


def price(value: float | None) -> str:
    return NO_PRICE if value is None else fmt.usd(value)


def list_row(entry: Entry) -> tuple[str, ...]:
    f = entry.recipe.fields
    return (
        entry.recipe.id,
        f"{f.gpu.count} × {f.gpu.type}",
        f.layout.label,
        fmt.number(f.result.tokens_per_s_per_gpu, 1),
        price(f.result.usd_per_million_tokens),
        fmt.percent(f.result.mfu).removesuffix("%"),
        f.status,
    )


def columns(header: Sequence[str], rows: Sequence[Sequence[str]], right: set[str]) -> str:
    """Rows aligned under their header, numbers right-aligned, two spaces between columns."""
    widths = [max(len(cell) for cell in column) for column in zip(header, *rows, strict=True)]
    lines = []
    for row in (header, *rows):
        cells = [
            cell.rjust(width) if name in right else cell.ljust(width)
            for cell, width, name in zip(row, widths, header, strict=True)
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines) + "\n"


def catalogue_table(entries: Sequence[Entry]) -> str:
    return columns(LIST_COLUMNS, [list_row(entry) for entry in entries], _RIGHT_ALIGNED)


def recipe_text(entry: Entry) -> str:
    """One recipe: headline figures, fleet, layout, stack and every check, stated against recomputed."""
    recipe, derived = entry.recipe, entry.derived
    f = recipe.fields
    lines = [
        describe.title(recipe),
        f"id        {recipe.id}",
        f"file      {recipe.path}",
        f"page      {page_url(recipe.id)}",
        "",
        "Headline",
    ]
    headline = [
        ("Tokens/s per GPU", fmt.as_written(f.result.tokens_per_s_per_gpu)),
        (
            "$ / 1M tokens",
            NO_PRICE if f.result.usd_per_million_tokens is None else fmt.usd(f.result.usd_per_million_tokens, 4),
        ),
        ("MFU", fmt.percent(f.result.mfu, 2)),
        ("Status", f.status),
        ("Correctness", f"{f.correctness.result}: {f.correctness.summary}"),
        ("Measured", f.result.measured.isoformat()),
        ("Fleet", describe.fleet(recipe)),
        ("Precision", f.workload.precision),
    ]
    lines += _pairs(headline)
    lines += ["", f"Layout: {f.layout.label}", *_pairs(describe.layout_rows(f.layout))]
    lines += ["", "Stack", *_pairs(describe.stack_pins(f.stack))]
    lines += ["", "Checks"]
    check_rows = [
        ("pass" if check.passed else "FAIL", check.name, f"stated {check.stated}", f"recomputed {check.recomputed}")
        for check in derived.checks
    ]
    if check_rows:
        lines += [
            "  " + line for line in columns(("", "check", "stated", "recomputed"), check_rows, set()).splitlines()[1:]
        ]
    return "\n".join(lines) + "\n"


def _pairs(rows: Sequence[tuple[str, str]]) -> list[str]:
    if not rows:
        return []
    width = max(len(label) for label, _ in rows)
    return [f"  {label.ljust(width)}  {' '.join(str(value).split())}" for label, value in rows]


def closest_ids(wanted: str, ids: Sequence[str], limit: int = 3) -> list[str]:
    """Ids a mistyped id probably meant: same file name first, then by similarity."""
    name = wanted.rsplit("/", 1)[-1].casefold()
    same_name = [recipe_id for recipe_id in ids if recipe_id.rsplit("/", 1)[-1].casefold() == name]
    similar = difflib.get_close_matches(wanted, ids, n=limit, cutoff=0.5)
    containing = [recipe_id for recipe_id in ids if wanted.casefold() in recipe_id.casefold()]
    ordered = dict.fromkeys([*same_name, *similar, *containing])
    return list(ordered)[:limit]
