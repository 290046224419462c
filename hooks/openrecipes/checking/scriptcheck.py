"""What bash and ShellCheck find in the scripts a recipe's launches download, and what of it a
recipe may not publish.

A documented launch's script is made here from the publisher's command (launchscript.py), so it
must be a script that runs what it says: one bash cannot parse, or in which ShellCheck finds an
error (or a flag standing where a command should, the sign of a lost line continuation), is a
problem of the recipe, at the line of the field the faulty text comes from. An author's as-run
script is served byte for byte as it was run; what is found in it is shown beside it, never
changed or refused. Either way, the page shows each script's errors and warnings.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..problems import Problem, json_path
from ..reading.yamlsource import SourceMap
from . import launchscript, shellcheck
from .shellcheck import Finding

REFUSED_WARNINGS = {
    "SC2215": "a flag stands where a command should: a line continuation (a backslash at the line's end) is missing",
}
"""ShellCheck's warnings (not errors) that mean a generated script would not run what it shows."""
SHOWN_LEVELS = frozenset({"error", "warning"})


@dataclass(frozen=True)
class CheckedScript:
    """One downloadable script and what bash and ShellCheck find in it (errors and warnings)."""

    kind: launchscript.Kind
    name: str
    findings: tuple[Finding, ...]


def checked_scripts(fields: Any) -> tuple[CheckedScript, ...]:
    """Every script the recipe's launches download, each with its findings; none where bash or
    ShellCheck is missing (`shellcheck.unavailable`: the loader says so once), so that no page
    says a script was checked when it was not."""
    if shellcheck.unavailable():
        return ()
    scripts = [(one.kind, script) for one in launchscript.launches(fields) for script in one.scripts]
    found = shellcheck.findings([script.text for _, script in scripts])
    return tuple(
        CheckedScript(kind, script.name, tuple(item for item in each if item.level in SHOWN_LEVELS))
        for (kind, script), each in zip(scripts, found, strict=True)
    )


def script_problems(
    path: str, fields: Any, locations: SourceMap, checked: tuple[CheckedScript, ...]
) -> Iterator[Problem]:
    """A generated script's findings that refuse the recipe, each at the recipe's line it comes from."""
    if not any(each.kind == "documented" for each in checked):
        return
    scripts = {
        script.name: script
        for one in launchscript.launches(fields)
        if one.kind == "documented"
        for script in one.scripts
    }
    for each in checked:
        if each.kind != "documented":
            continue
        script = scripts[each.name]
        for finding in _refused(each.findings):
            why = REFUSED_WARNINGS.get(finding.code, finding.message)
            part = _part_of(script, finding.line)
            if part is None:  # in what OpenRecipes writes around the recipe's text: ours to fix
                position = locations.value_at(("launch",))
                yield Problem(
                    path,
                    position.line,
                    position.column,
                    "$.launch",
                    f"OpenRecipes made a {each.name} that bash cannot run as written ({finding}); this is a bug "
                    "in OpenRecipes, not in the recipe: please report it with this message",
                )
                continue
            position = locations.value_at(part.field)
            # A block scalar (`command: |`) begins on the line after its key; a one-line value on it.
            within = min(finding.line, part.first + part.lines - 1) - part.first
            line = position.line + within + (1 if part.lines > 1 else 0)
            yield Problem(
                path,
                line,
                position.column if part.lines == 1 else 1,
                json_path(part.field),
                f"the {each.name} made of this would not run as written: {why} ({finding.code}, "
                f"{each.name} line {finding.line}); fix the text as the publisher meant it and say so in "
                + ("the step's `notes`" if part.field[:2] == ("launch", "preparation") else "`launch.notes`"),
            )


def _refused(findings: tuple[Finding, ...]) -> list[Finding]:
    """The findings that refuse a generated script, each problem once: where it does not parse,
    the first parse error alone (what follows it, ShellCheck's and bash's, is the same mistake seen
    again), then what else ShellCheck finds."""
    refused = [item for item in findings if item.level == "error" or item.code in REFUSED_WARNINGS]
    parse_errors = [item for item in refused if item.code.startswith("SC1") or item.code == shellcheck.BASH_CODE]
    first = [min(parse_errors, key=lambda item: (item.line, item.code == shellcheck.BASH_CODE))] if parse_errors else []
    return first + [item for item in refused if item not in parse_errors]


def _part_of(script: launchscript.Script, line: int) -> launchscript.Part | None:
    """The part of the recipe a script's line comes from; a parse error found past the end of the
    text (an `if` never closed) is the last part's, whose text left it open."""
    for part in script.parts:
        if part.first <= line < part.first + part.lines:
            return part
    last = max(script.parts, key=lambda part: part.first, default=None)
    if last is not None and line >= last.first + last.lines and line > script.text.count("\n"):
        return last
    return None
