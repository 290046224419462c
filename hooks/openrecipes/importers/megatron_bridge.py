"""Megatron-Bridge's performance summary (`docs/performance-summary*.md`) as typed rows.

The pages, as NVIDIA has written them from 25.09 on:

    ## Nomenclature                      - **FSDP**: ... with the meaning of each value as sub-bullets
    ## Performance Metrics               - **Tokens/sec/GPU**: Throughput per GPU
    ## <release> NeMo Container          25.09, 25.11, 26.02, ..., 26.06.01, 26.08
    ### <workload> Performance           Pre-Training, SFT, LoRA
    #### Model: <name> | #### System: <name>
    | System or Model | #-GPUs | ... |   each release has its own columns (below)
    - a note under a table              ("Muon optimizer was used for pre-training Kimi-K2.")
    [^name]: a footnote                 referenced from a cell (`661[^gpt-oss-note]`) or the page text

Columns differ by release: 25.09 has no Precision; 25.09 and 25.11 group by system and have FSDP
and GA; 26.02 to 26.04.01 group by model with FSDP and no GA; 26.06 on drop FSDP. A cell may hold
a parenthesised alternative (`37556 (36108)`, `FP8-CS (FP8-MX)`): the row then stands for two
runs, and a cell without one holds the value of both. A model name may carry a qualifier
(`DeepSeekV3 (w/o MTP)`, `Qwen3_30B_a3B (tokendrop)`). `n/a` means not applicable (no virtual
pipeline, no experts). A column this module does not know is an error, so a new column in the
publisher's next release is seen rather than dropped.

This module only reads; `megatron_bridge_recipes` turns rows into recipes.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from . import tables
from .tables import Statement

REPOSITORY = "NVIDIA-NeMo/Megatron-Bridge"
PAGES = ("docs/performance-summary.md", "docs/performance-summary-archive.md")

_RELEASE = re.compile(r"^## (\S+) NeMo Container\s*$")
_WORKLOAD = re.compile(r"^### (.+?) Performance\s*$")
_GROUP = re.compile(r"^#### (Model|System):\s*(.+?)\s*$")
_FOOTNOTE = re.compile(r"^\[\^([^\]]+)\]:\s*(.*?)\s*$")
_REFERENCE = re.compile(r"\[\^([^\]]+)\]")
_BULLET = re.compile(r"^-\s+(.*?)\s*$")
_SUB_BULLET = re.compile(r"^\s+-\s+(.*?)\s*$")
_TERM = re.compile(r"^\*\*(.+?)\*\*:\s*(.*)$")
_PARENTHESISED = re.compile(r"^(.*?)\s*\(([^()]*)\)$")
_RELEASE_WIDE = re.compile(r"\bMoE\b|parenthes", re.IGNORECASE)
"""Bullets about every row of a release, not only the table they follow."""

COLUMNS = {
    "Model": "model",
    "System": "system",
    "#-GPUs": "gpus",
    "Precision": "precision",
    "GBS": "gbs",
    "MBS": "mbs",
    "Sequence Length": "seq_len",
    "FSDP": "fsdp",
    "TP": "tp",
    "PP": "pp",
    "CP": "cp",
    "VP": "vp",
    "EP": "ep",
    "ETP": "etp",
    "GA": "ga",
    "Tokens / sec / GPU": "tokens",
    "Model TFLOP / sec / GPU": "tflops",
}
"""Each column header as published (runs of spaces read as one) and the field it fills."""

REQUIRED = ("gpus", "gbs", "mbs", "seq_len", "tp", "pp", "cp", "tokens", "tflops")
"""Columns every release has had; a table without one of them is not a performance table we know."""

NOT_APPLICABLE = "n/a"


class ParseError(ValueError):
    """The page is not in a shape this module knows; the message names the file and line."""


@dataclass(frozen=True)
class Values:
    """One run's published values: a row, or the parenthesised alternative of a row.

    A field is None when the table has no such column or the cell says `n/a`; `columns` tells
    the two apart.
    """

    model: str
    qualifier: str | None
    system: str
    gpus: int
    precision: str | None
    gbs: int
    mbs: int
    seq_len: int
    fsdp: int | None
    tp: int
    pp: int
    cp: int
    vp: int | None
    ep: int | None
    etp: int | None
    ga: int | None
    tokens: int | float | None
    """None only for an alternative whose cell has no parenthesised value: its throughput is not published."""
    tflops: int | float | None
    footnotes: tuple[str, ...]
    """Names of the footnotes the row's cells reference."""
    columns: frozenset[str]
    alternative_in: frozenset[str]
    """Fields whose cell holds a parenthesised alternative (empty for a row without one)."""


@dataclass(frozen=True)
class Row:
    """A published row (or its alternative), where it is, and what it is read with."""

    path: str
    line: int
    release: str
    workload: str
    table: str
    """The heading the table sits under, as written after `#### ` (`Model: DeepSeekV3`)."""
    number: int
    """1-based position of the row in its table."""
    rows_in_table: int
    variant: str
    """`primary`, or `alternative` for the parenthesised values of a row that has them."""
    values: Values
    excerpt: str
    """The table's heading, header line, separator and the row, verbatim, one per line."""
    notes: tuple[str, ...]
    """Bullets printed under the table (`Muon optimizer was used ...`)."""


@dataclass(frozen=True)
class Page:
    path: str
    rows: tuple[Row, ...]
    releases: tuple[str, ...]
    """Release headings in the order the page prints them."""
    release_lines: dict[str, int]
    footnotes: dict[str, Statement]
    terms: dict[str, Statement]
    """Nomenclature and metric definitions: `FSDP` -> its text, sub-bullets joined with '; '."""
    page_notes: tuple[str, ...]
    """Footnotes referenced in the page's introduction, before any release: they apply to every release."""
    release_notes: dict[str, tuple[Statement, ...]]
    """Bullets of each release that speak of the whole release (MoE benchmarks, values in
    parentheses), wherever they are printed (25.11 prints them under its last table), and any
    bullet printed before the release's first table."""


def _collapse(text: str) -> str:
    return " ".join(text.split())


def split_cell(cell: str) -> tuple[str, str | None, tuple[str, ...]]:
    """`37556 (36108)` -> ('37556', '36108', ()); `661[^gpt-oss-note]` -> ('661', None, ('gpt-oss-note',))."""
    references = tuple(_REFERENCE.findall(cell))
    text = _REFERENCE.sub("", cell).strip()
    match = _PARENTHESISED.match(text)
    if match and match.group(1):
        return match.group(1).strip(), match.group(2).strip(), references
    return text, None, references


def split_model(cell: str) -> tuple[str, str | None]:
    """`DeepSeekV3 (w/o MTP)` -> ('DeepSeekV3', 'w/o MTP'); `GPT OSS 120B` -> ('GPT OSS 120B', None)."""
    text = _REFERENCE.sub("", cell).strip()
    match = _PARENTHESISED.match(text)
    if match and match.group(1):
        return match.group(1).strip(), match.group(2).strip()
    return text, None


def _integer(text: str, what: str, where: str) -> int | None:
    if text.lower() == NOT_APPLICABLE:
        return None
    value = tables.number(text)
    if not isinstance(value, int):
        raise ParseError(f"{where}: {what} {text!r} is not a whole number or {NOT_APPLICABLE}")
    return value


def _figure(text: str, what: str, where: str) -> int | float:
    value = tables.number(text)
    if value is None:
        raise ParseError(f"{where}: {what} {text!r} is not a number")
    return value


def parse_row(group: str, header: tuple[str, ...], line: str, where: str) -> dict[str, Values]:
    """The run(s) one row publishes: {'primary': ...} and, with parenthesised values, {'alternative': ...}.

    `group` is the table's heading after `#### ` (`Model: DeepSeekV3`): it names the model or the
    system the table's rows share.
    """
    kind, _, name = group.partition(":")
    fields = []
    for column in header:
        known = COLUMNS.get(_collapse(column))
        if known is None:
            raise ParseError(f"{where}: unknown column {column!r} (known: {', '.join(COLUMNS)})")
        fields.append(known)
    row = tables.cells(line)
    if len(row) != len(fields):
        raise ParseError(f"{where}: {len(row)} cells under {len(fields)} columns")
    missing = [name for name in REQUIRED if name not in fields]
    if missing:
        raise ParseError(f"{where}: the table has no {', '.join(missing)} column")
    grouped = {"Model": "model", "System": "system"}.get(kind.strip())
    if grouped is None:
        raise ParseError(f"{where}: table heading {group!r} is neither 'Model: ...' nor 'System: ...'")
    raw = dict(zip(fields, row, strict=True))
    raw.setdefault(grouped, name.strip())
    if "model" not in raw or "system" not in raw:
        raise ParseError(f"{where}: the table names no model or no system")

    model, qualifier = split_model(raw["model"])
    primary: dict[str, str | None] = {}
    alternative: dict[str, str | None] = {}
    references: list[str] = []
    for name_ in fields:
        if name_ in ("model", "system"):
            continue
        first, second, refs = split_cell(raw[name_])
        references += refs
        primary[name_] = first
        if second is not None:
            alternative[name_] = second

    def values(cells: dict[str, str | None], measured: dict[str, str | None]) -> Values:
        def integer(key: str) -> int | None:
            text = cells.get(key)
            return None if text is None else _integer(text, key, where)

        def required(key: str) -> int:
            value = integer(key)
            if value is None:
                raise ParseError(f"{where}: {key} is {NOT_APPLICABLE}")
            return value

        precision = cells.get("precision")
        return Values(
            model=model,
            qualifier=qualifier,
            system=_REFERENCE.sub("", raw["system"]).strip(),
            gpus=required("gpus"),
            precision=None if precision is None or precision.lower() == NOT_APPLICABLE else precision,
            gbs=required("gbs"),
            mbs=required("mbs"),
            seq_len=required("seq_len"),
            fsdp=integer("fsdp"),
            tp=required("tp"),
            pp=required("pp"),
            cp=required("cp"),
            vp=integer("vp"),
            ep=integer("ep"),
            etp=integer("etp"),
            ga=integer("ga"),
            tokens=None if measured.get("tokens") is None else _figure(measured["tokens"] or "", "tokens/s/GPU", where),
            tflops=None if measured.get("tflops") is None else _figure(measured["tflops"] or "", "TFLOP/s/GPU", where),
            footnotes=tuple(dict.fromkeys(references)),
            columns=frozenset(fields),
            alternative_in=frozenset(alternative),
        )

    found = {"primary": values(primary, primary)}
    if alternative:
        # A layout cell without a parenthesised value is printed once for both runs; a measured
        # figure without one is not the alternative's (25.09 H100 DeepSeekV3: `1297 | 338 (330)`).
        found["alternative"] = values({**primary, **alternative}, alternative)
    return found


def parse_excerpt(excerpt: str, where: str = "excerpt") -> dict[str, Values]:
    """The values of the row a recipe's `source.excerpt` quotes (heading, header, separator, row)."""
    lines = excerpt.splitlines()
    if len(lines) != 4 or not lines[0].startswith("#### ") or not tables.is_separator(lines[2]):
        raise ParseError(f"{where}: not a '#### heading', header, separator and row")
    return parse_row(lines[0].removeprefix("#### ").strip(), tables.cells(lines[1]), lines[3], where)


def parse_page(path: str, text: str, lenient: bool = False) -> Page:
    """Every row of every release on one page, with the notes and definitions that apply to them.

    `lenient` leaves out a row it cannot read rather than stopping there: for reading a page's
    past versions (`firstseen`), where a typo fixed later (25.11's first version printed a GA of
    `32 64`) must not hide every other row of that version.
    """
    lines = text.splitlines()
    found_tables = tables.tables(lines)
    rows: list[Row] = []
    releases: list[str] = []
    release_lines: dict[str, int] = {}
    footnotes: dict[str, Statement] = {}
    terms: dict[str, Statement] = {}
    intro_references: list[str] = []
    release_notes: dict[str, list[Statement]] = {}
    release = workload = group = None
    last_table: list[Row] | None = None  # rows of the table the next bullets are printed under
    index = 0
    while index < len(lines):
        line = lines[index]
        number = index + 1
        where = f"{path}:{number}"
        if match := _RELEASE.match(line):
            release, workload, group, last_table = match.group(1), None, None, None
            if release in release_lines:
                raise ParseError(f"{where}: release {release} appears twice")
            releases.append(release)
            release_lines[release] = number
            release_notes[release] = []
        elif line.startswith("## "):
            release = workload = group = None
            last_table = None
        elif match := _WORKLOAD.match(line):
            workload, group, last_table = match.group(1), None, None
        elif match := _GROUP.match(line):
            group, last_table = f"{match.group(1)}: {match.group(2)}", None
        elif match := _FOOTNOTE.match(line):
            footnotes[match.group(1)] = Statement(match.group(2), number)
        elif index in found_tables:
            table = found_tables[index]
            if release is not None:
                if workload is None or group is None:
                    raise ParseError(f"{where}: a table of release {release} outside a workload and a table heading")
                last_table = _table_rows(path, table, release, workload, group, lenient)
                rows.extend(last_table)
            index = table.header_line + 1 + len(table.rows)
            continue
        elif match := _BULLET.match(line):
            term = _TERM.match(match.group(1))
            if release is None:
                intro_references += _REFERENCE.findall(match.group(1))
                if term:
                    subs = []
                    while index + 1 < len(lines) and (sub := _SUB_BULLET.match(lines[index + 1])):
                        subs.append(sub.group(1))
                        index += 1
                    definition = "; ".join([term.group(2), *subs]) if term.group(2) else "; ".join(subs)
                    terms[term.group(1)] = Statement(definition, number)
            else:
                statement = Statement(match.group(1), number)
                if _RELEASE_WIDE.search(statement.text) or last_table is None:
                    release_notes[release].append(statement)
                else:
                    _attach(rows, last_table, statement.text)
        elif release is None:
            intro_references += _REFERENCE.findall(line)
        index += 1
    return Page(
        path=path,
        rows=tuple(rows),
        releases=tuple(releases),
        release_lines=release_lines,
        footnotes=footnotes,
        terms=terms,
        page_notes=tuple(dict.fromkeys(intro_references)),
        release_notes={name: tuple(notes) for name, notes in release_notes.items()},
    )


def _attach(rows: list[Row], table_rows: list[Row], note: str) -> None:
    """Give the rows of the table just printed a note printed under it (rows are frozen: replace them)."""
    start = len(rows) - len(table_rows)
    for offset, row in enumerate(table_rows):
        updated = dataclasses.replace(row, notes=(*row.notes, note))
        rows[start + offset] = updated
        table_rows[offset] = updated


def _table_rows(
    path: str, table: tables.Table, release: str, workload: str, group: str, lenient: bool = False
) -> list[Row]:
    found = []
    for position, (number, line) in enumerate(table.rows, start=1):
        where = f"{path}:{number}"
        excerpt = "\n".join([f"#### {group}", table.header_text, table.separator_text, line])
        try:
            parsed = parse_row(group, table.header, line, where)
        except ParseError:
            if not lenient:
                raise
            continue
        for variant, values in parsed.items():
            found.append(
                Row(path, number, release, workload, group, position, len(table.rows), variant, values, excerpt, ())
            )
    return found


def release_key(release: str) -> tuple[int, ...]:
    """`26.06.01` -> (26, 6, 1): releases sort by their numbers, `26.06` < `26.06.01` < `26.08`."""
    parts = tuple(int(part) for part in re.findall(r"\d+", release))
    return parts + (0,) * (3 - len(parts))
