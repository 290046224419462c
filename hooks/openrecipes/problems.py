"""Problems found in recipe files, kept as values so every one of them is reported in one run."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True, order=True)
class Problem:
    """One thing wrong with one file, located as precisely as the input allows.

    `path` is relative to the project root and uses forward slashes; `line` and `column` are
    1-based (0 when the problem concerns the whole file); `where` is a JSON path such as
    `$.layout.tp` (empty when no field is involved).
    """

    path: str
    line: int
    column: int
    where: str
    message: str
    warning: bool = False
    """Worth the author's attention, never a reason to refuse the file or stop the build."""

    def __str__(self) -> str:
        location = f"{self.path}:{self.line}:{self.column}" if self.line else self.path
        field = f" {self.where}:" if self.where else ""
        kind = " warning:" if self.warning else ""
        return f"{location}:{field}{kind} {self.message}"

    def github_annotation(self) -> str:
        """The same problem as a GitHub Actions workflow command, shown on the pull request's diff."""
        text = f"{self.where}: {self.message}" if self.where else self.message
        props = [f"file={_escape_property(self.path)}"]
        if self.line:
            props += [f"line={self.line}", f"col={self.column}"]
        return f"::{'warning' if self.warning else 'error'} {','.join(props)}::{_escape_data(text)}"


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def internal_error(path: str, error: Exception) -> Problem:
    """An unexpected exception while checking `path`, as that file's problem: the other files are
    still checked and reported, and nobody sees a traceback."""
    lines = str(error).strip().splitlines()
    detail = f"{type(error).__name__}: {lines[0][:200]}" if lines else type(error).__name__
    return Problem(path, 0, 0, "", f"internal error while checking this file ({detail}); please report it")


def json_path(parts: Iterable[str | int]) -> str:
    """`('layout', 'tp')` -> `$.layout.tp`; list indexes in brackets; odd keys quoted."""
    out = "$"
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part.isidentifier():
            out += f".{part}"
        else:
            out += "[" + repr(part) + "]"
    return out


def sorted_problems(problems: Iterable[Problem]) -> tuple[Problem, ...]:
    return tuple(sorted(set(problems)))
