"""Markdown pipe tables as publishers write them, and the cell values they hold.

Only what the publishers' files use: a header line, a separator line (`|---|:---:|`), rows;
a blank line or any line not starting with `|` ends the table (with `bare_rows`, a row may leave
out its leading pipe, as GitHub's Markdown allows and NVIDIA's DGX Cloud READMEs write some rows:
then a line holding no `|` ends it). Cells are stripped of the padding around them and nothing else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_INTEGER = re.compile(r"^\d{1,3}(,\d{3})+$|^\d+$")
_DECIMAL = re.compile(r"^\d+\.\d+$")


def cells(line: str) -> tuple[str, ...]:
    """The cells of a table line: `| a | b |` -> ('a', 'b'); a missing outer pipe is tolerated."""
    text = line.strip()
    text = text.removeprefix("|")
    text = text[:-1] if text.endswith("|") and not text.endswith("\\|") else text
    return tuple(cell.strip() for cell in text.split("|"))


def is_separator(line: str) -> bool:
    return bool(_SEPARATOR.match(line))


@dataclass(frozen=True)
class Table:
    """A table and where it is: lines are 1-based line numbers in the file."""

    header: tuple[str, ...]
    header_line: int
    header_text: str
    separator_text: str
    rows: tuple[tuple[int, str], ...]
    """(line number, the line as written) of each row."""


def tables(lines: list[str], bare_rows: bool = False) -> dict[int, Table]:
    """Every table in `lines`, keyed by the index (0-based) of its header line."""
    found: dict[int, Table] = {}
    index = 0

    def is_row(line: str) -> bool:
        return line.lstrip().startswith("|") or (bare_rows and "|" in line and bool(line.strip()))

    while index < len(lines) - 1:
        line = lines[index]
        if line.lstrip().startswith("|") and is_separator(lines[index + 1]) and not is_separator(line):
            rows = []
            end = index + 2
            while end < len(lines) and is_row(lines[end]):
                rows.append((end + 1, lines[end]))
                end += 1
            found[index] = Table(cells(line), index + 1, line, lines[index + 1], tuple(rows))
            index = end
        else:
            index += 1
    return found


def number(text: str) -> int | float | None:
    """`4912` -> 4912, `5,762` -> 5762, `597.3` -> 597.3; anything else (`n/a`, ``) -> None.

    Whole numbers stay integers and decimals keep the digits written, so a value is stored
    exactly as the publisher printed it.
    """
    text = text.strip()
    if _INTEGER.match(text):
        return int(text.replace(",", ""))
    if _DECIMAL.match(text):
        return float(text)
    return None


@dataclass(frozen=True)
class Statement:
    """A sentence the publisher prints (a footnote, a definition), and its line, for citing it."""

    text: str
    line: int
