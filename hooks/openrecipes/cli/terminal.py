"""The catalogue as plain text for a terminal: the ranked table (`list`) and one recipe (`show`).

Numbers are formatted by `fmt` exactly as the site shows them, so a figure read in the terminal
matches the one on the page.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from .. import describe, fmt
from ..loader import Entry
from ..site import facts


def page_url(recipe_id: str) -> str:
    """The recipe's page, relative to the site root (as in api/recipes.json)."""
    return f"recipes/{recipe_id}/"


def list_row(entry: Entry) -> tuple[str, ...]:
    return (entry.recipe.id, *(fact.text(entry) for fact in facts.TERMINAL))


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
    header = ("id", *(fact.terminal or fact.label for fact in facts.TERMINAL))
    right = {fact.terminal or fact.label for fact in facts.TERMINAL if fact.numeric}
    return columns(header, [list_row(entry) for entry in entries], right)


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
    price = facts.NO_PRICE
    if derived.basis is not None and derived.usd_per_million_tokens is not None:
        basis = derived.basis.instance
        usd = fmt.usd(derived.usd_per_million_tokens, 4)
        price = f"{usd} at the price basis ({basis.key}, the cheapest {basis.gpu})"
    if derived.instance is not None and derived.instance_usd_per_million_tokens is not None:
        own = f"{fmt.usd(derived.instance_usd_per_million_tokens, 4)} at its own instance ({derived.instance.key})"
        price = own if price == facts.NO_PRICE else f"{price}; {own}"
    dated = describe.dated(f)
    headline = [
        ("Tokens/s per GPU", fmt.as_written(f.result.tokens_per_s_per_gpu)),
        ("$ / 1M tokens", price),
        ("MFU", facts.NOT_PUBLISHED if derived.mfu is None else fmt.percent(derived.mfu, 2)),
        ("Status", f.status),
        ("Correctness", f"{f.correctness.result}: {f.correctness.summary}" if f.correctness else facts.NOT_PUBLISHED),
        ("Measured" if f.result.measured else "Published", dated.isoformat() if dated else facts.NOT_PUBLISHED),
        ("Precision", f.workload.precision),
    ]
    if f.source:
        headline.append(("Source", f"{f.source.url} ({f.source.where})"))
    lines += _pairs(headline)
    for title, name in (("Fleet", "fleet"), (f"Layout: {derived.label}", "layout"), ("Stack", "stack")):
        rows = [(fact.label, text) for fact, text in facts.rows(name, entry)]
        lines += ["", title, *(_pairs(rows) if rows else [f"  {facts.NOT_PUBLISHED}"])]
    lines += ["", "Checks"]
    check_rows = [
        (
            check.outcome if check.passed or check.explained else "FAIL",
            check.name,
            f"stated {check.stated}",
            f"recomputed {check.recomputed}",
        )
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
