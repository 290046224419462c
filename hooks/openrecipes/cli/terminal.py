"""The catalogue as plain text for a terminal: the ranked table (`list`) and one recipe (`show`).

Numbers are formatted by `fmt` exactly as the site shows them, so a figure read in the terminal
matches the one on the page.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from .. import describe, fmt
from ..checking import launchscript as launch
from ..checking.preparation import preparation_steps
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
    """One recipe: what it is, every section of its page as the facts registry lists it (the
    headline figures with their notes in brackets), and every check, stated against recomputed."""
    recipe, derived = entry.recipe, entry.derived
    f = recipe.fields
    about = [
        ("id", recipe.id),
        ("file", recipe.path),
        ("page", page_url(recipe.id)),
        ("status", facts.BY_KEY["status"].text(entry)),
        ("readiness", facts.BY_KEY["readiness"].text(entry)),
    ]
    if f.correctness:
        about.append(("correctness", f"{f.correctness.result}: {f.correctness.summary}"))
    if f.deprecation:
        replacement = f" Use {f.deprecation.superseded_by}." if f.deprecation.superseded_by else ""
        about.append(("deprecated", f"{f.deprecation.reason}{replacement}"))
    if f.source:
        about.append(("source", f"{f.source.url} ({f.source.where})"))
    lines = [describe.title(recipe), *_pairs(about, indent="")]
    for name in facts.SECTIONS:
        if name in facts.OPTIONAL_SECTIONS and not facts.publishes(name, entry):
            continue
        title = facts.SECTION_TITLES[name]
        if name == "layout":
            title = f"{title}: {derived.label}"
        rows = [(fact.label, _with_notes(fact, text, entry)) for fact, text in facts.rows(name, entry)]
        lines += ["", title, *(_pairs(rows) if rows else [f"  {facts.NOT_PUBLISHED}"])]
    lines += _publisher_lines(entry)
    lines += ["", *_launch_lines(entry)]
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


def _publisher_lines(entry: Entry) -> list[str]:
    """The publisher's own figures as the page's table gives them: as published, recomputed in their
    convention (or why not), and what each counts; and where the throughput is derived from."""
    derived = entry.derived
    if not derived.publisher_figures:
        return []
    rows = []
    for figure in derived.publisher_figures:
        unit = "%" if figure.utilisation else f" {figure.unit}"
        if figure.recomputed is None:
            again = figure.not_recomputed or "not recomputed"
        elif figure.utilisation:
            again = f"recomputed {fmt.number(figure.recomputed, 2)}%"
        else:
            again = f"recomputed {fmt.number(figure.recomputed, 1)}"
        rows.append((figure.name, f"{fmt.as_written(figure.stated)}{unit}; {again}; {figure.described}"))
    if derived.tokens_from is not None:
        rows.append(("tokens/s per GPU", f"derived from {derived.tokens_from.label}: {derived.tokens_from.how}"))
    return ["", "Publisher's figures", *_pairs(rows)]


def _launch_lines(entry: Entry) -> list[str]:
    """Whether it runs as it stands (its readiness: the label, why, and what it lists), then each
    launch the page shows: its kind, its downloads, and what it needs from the reader."""
    readiness = entry.derived.readiness
    lines = [f"Readiness: {readiness.label}", f"  {_one_line(readiness.why)}"]
    if readiness.items:
        lines += [f"  {readiness.listed}:", *(f"  - {_one_line(item)}" for item in readiness.items)]
    for one in launch.launches(entry.recipe.fields):
        if one.kind == "not-published":
            continue  # the readiness above says why there is none
        rows = [(script.name, page_url(entry.recipe.id) + script.name) for script in one.scripts]
        documented = entry.recipe.fields.launch if one.kind == "documented" else None
        if documented is not None:
            source = documented.source
            rows.append(("revision", f"{source.repository} at {source.commit}"))
            if documented.container:
                rows.append(("container", documented.container))
        if one.inputs:
            rows.append(("needs", ", ".join(item.written for item in one.inputs)))
        steps = preparation_steps(entry.recipe.fields) if one.kind == "documented" else ()
        if steps:
            # What to do first, each step as the page names it; prepare.sh runs them.
            rows.append(("prepare first", "; ".join(f"{step.number}. {step.what}" for step in steps)))
        if one.preparation_inputs:
            rows.append(("prepare needs", ", ".join(item.written for item in one.preparation_inputs)))
        note = (
            ""
            if documented is None
            else " (the command the publisher ran, at that commit: the figures are of that run)"
            if entry.recipe.fields.status == "publisher-verified"
            else " (how the publisher launches this configuration, not a log of the run)"
        )
        lines += [f"Launch: {one.label}{note}", *_pairs(rows)]
    return lines


def _with_notes(fact: facts.Fact, text: str, entry: Entry) -> str:
    notes = [note.text for note in fact.notes_of(entry)]
    return f"{text} ({'; '.join(notes)})" if notes else text


def _one_line(text: str) -> str:
    """Text as one line: whatever breaks a recipe's text holds end up as spaces."""
    return " ".join(text.split())


def _pairs(rows: Sequence[tuple[str, str]], indent: str = "  ") -> list[str]:
    if not rows:
        return []
    width = max(len(label) for label, _ in rows)
    return [f"{indent}{label.ljust(width)}  {_one_line(str(value))}" for label, value in rows]


def closest_ids(wanted: str, ids: Sequence[str], limit: int = 3) -> list[str]:
    """Ids a mistyped id probably meant: same file name first, then by similarity."""
    name = wanted.rsplit("/", 1)[-1].casefold()
    same_name = [recipe_id for recipe_id in ids if recipe_id.rsplit("/", 1)[-1].casefold() == name]
    similar = difflib.get_close_matches(wanted, ids, n=limit, cutoff=0.5)
    containing = [recipe_id for recipe_id in ids if wanted.casefold() in recipe_id.casefold()]
    ordered = dict.fromkeys([*same_name, *similar, *containing])
    return list(ordered)[:limit]
