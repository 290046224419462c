"""A recipe's launch as a reader gets it: which kind it is, and the `launch.sh` and `env.sh` it downloads.

Three kinds, never confused: *as run* (the author's exact script, `run`), *documented* (the
publisher's documented launch of this configuration, `launch` of kind documented: how the publisher
launches it, read from their own files, not a log of the command that produced the figures) and
*not published* (`launch` of kind not-published, with the publisher's reason; or nothing at all).

An as-run script is served byte for byte as the author wrote it. A documented launch becomes a
script that runs the publisher's command as written, after checking out their revision, with what
the reader must provide made into variables that stop the script when unset: an input named as a
variable (`SLURM_ACCOUNT`) is required as it is; a `<placeholder>` the command writes is replaced
by a variable named after it (`<path/to/data/dir>` by `${PATH_TO_DATA_DIR}`); an input neither
(`<Slurm cluster>`) is a prerequisite, said in the script's header. Every text from the recipe
reaches the script as a comment line or a single-quoted word, so no description can run.
"""

from __future__ import annotations

import re
import shlex
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..reading.shelltext import substituted
from .launchinputs import Variable, documented_inputs, launch_scripts

Kind = Literal["as-run", "documented", "not-published"]

LABELS: dict[Kind, str] = {
    "as-run": "As run",
    "documented": "The publisher's documented launch",
    "not-published": "Not published",
}
"""What each kind is called where a recipe's page and `show` set its launches apart; whether a
recipe runs is its readiness (readiness.py), the one label the lists, exports and compare page give."""

NO_LAUNCH_REASON = "The recipe publishes no launch script and no documented launch."

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_COMMENT_WIDTH = 96


@dataclass(frozen=True)
class Script:
    """One downloadable file: its name beside the recipe's page (`launch.sh`) and its text."""

    name: str
    text: str
    parts: tuple[Part, ...] = ()
    """Where its lines come from in the recipe: what bash or ShellCheck finds there is the recipe's."""


@dataclass(frozen=True)
class Part:
    """Lines of a script copied from one field of the recipe."""

    first: int
    """The script's line the field's text begins on, 1-based."""
    lines: int
    field: tuple[str, ...]
    """The field (`("launch", "command")`, `("env", "NCCL_DEBUG")`)."""


@dataclass(frozen=True)
class Launch:
    """A recipe's launch of one kind, with what its page, exports and compare page show."""

    kind: Kind
    launch_sh: Script | None
    env_sh: Script | None
    reason: str | None = None
    """Why there is none (kind not-published)."""
    inputs: tuple[Variable, ...] = ()
    """What a documented launch needs from the reader, in the recipe's order."""

    @property
    def label(self) -> str:
        return LABELS[self.kind]


def launches(fields: Any) -> tuple[Launch, ...]:
    """Every launch a recipe publishes, the as-run script first; a recipe with none has one of
    kind not-published, saying why. Two launches of one recipe download under different names."""
    found: list[Launch] = []
    if fields.run:
        env = _env_script("env.sh", fields.env or (), ("env",), quote=False) if fields.env else None
        run = Script("launch.sh", fields.run, (Part(1, fields.run.count("\n") + 1, ("run",)),))
        found.append(Launch("as-run", run, env))
    documented = fields.launch
    if documented is not None and documented.kind == "documented":
        prefix = "publisher-" if found else ""
        found.append(_documented(fields, documented, prefix))
    elif not found:
        reason = documented.reason if documented is not None else NO_LAUNCH_REASON
        found.append(Launch("not-published", None, None, reason=reason))
    return tuple(found)


def env_exports(pairs: Sequence[tuple[str, str]], *, quote: bool) -> str:
    """`export NAME=value` lines. An author's values are shell text and stay as written; a
    publisher's are values (`launch.env`) and are quoted so that the shell reads them back exactly,
    but for a `~` that begins the value or follows a `:`, which the publisher's own assignment
    expanded to the home folder (`~/.config/enroot`), and which stays outside the quotes to do so."""
    return "".join(f"export {name}={assigned_value(value) if quote else value}\n" for name, value in pairs)


def _env_script(name: str, pairs: Sequence[tuple[str, str]], field: tuple[str, ...], *, quote: bool) -> Script:
    """`env.sh`: an `export` line for each value, each line the recipe's value of its name."""
    parts, line = [], 1
    for key, value in pairs:
        parts.append(Part(line, value.count("\n") + 1, (*field, key)))
        line += value.count("\n") + 1
    return Script(name, env_exports(pairs, quote=quote), tuple(parts))


def assigned_value(value: str) -> str:
    """`value` as the right-hand side of an assignment that gives it back, tildes expanded where an
    assignment expands them (see `env_exports`)."""
    parts = []
    for part in value.split(":"):
        if part == "~" or part.startswith("~/"):
            rest = part[1:]
            parts.append("~" + (shlex.quote(rest) if rest else ""))
        else:
            parts.append(shlex.quote(part) if part else "")
    if parts[0].startswith("="):
        # shlex leaves `=x` bare, and ShellCheck refuses `NAME==x` (SC1097) though bash reads it.
        parts[0] = f"'{parts[0]}'"
    return ":".join(parts) if value else "''"


def _documented(fields: Any, launch: Any, prefix: str) -> Launch:
    env_pairs = tuple(launch.env or ())
    inputs, substitutions = documented_inputs(launch)
    env_text = env_exports(env_pairs, quote=True) if env_pairs else None
    variables = [item for item in inputs if item.required]
    prerequisites = [item for item in inputs if not item.required]
    checkout, command = (
        substituted(text, chosen) for text, chosen in zip(launch_scripts(launch), substitutions, strict=True)
    )
    text = _documented_script(fields, launch, variables, prerequisites, checkout, command, env_text)
    env = _env_script(f"{prefix}env.sh", env_pairs, ("launch", "env"), quote=True) if env_pairs else None
    parts = tuple(
        Part(_line_of(text, piece), piece.count("\n") + (0 if piece.endswith("\n") else 1), ("launch", field))
        for piece, field in ((checkout, "checkout"), (command, "command"))
        if piece.strip()
    )
    return Launch("documented", Script(f"{prefix}launch.sh", text, parts), env, inputs=tuple(inputs))


def _line_of(text: str, piece: str) -> int:
    """The line `piece` (the last copy of it: the command comes last) begins on in `text`."""
    return text.count("\n", 0, text.rindex(piece.rstrip("\n"))) + 1


def _comment(text: str, indent: str = "") -> list[str]:
    """Prose as comment lines: any line break in it ends up inside a comment, never as a command."""
    words = " ".join(text.split())
    return [f"# {indent}{line}".rstrip() for line in textwrap.wrap(words, _COMMENT_WIDTH - len(indent))] or ["#"]


def _provided(variable: Variable) -> str:
    where = f" From: {variable.origin}." if variable.origin else ""
    return f"{variable.written}: {variable.description.rstrip('.')}.{where}"


def _documented_script(
    fields: Any,
    launch: Any,
    variables: Sequence[Variable],
    prerequisites: Sequence[Variable],
    checkout: str,
    command: str,
    env_text: str | None,
) -> str:
    source = launch.source
    gpus = launch.sets.gpus if launch.sets is not None and launch.sets.gpus is not None else None
    lines = ["#!/usr/bin/env bash"]
    lines += _comment(
        f"{fields.model} on {fields.gpu.count} x {fields.gpu.type}: the publisher's documented launch of this "
        f"configuration, read from {source.repository} at commit {source.commit}. It is how the publisher "
        "launches this configuration, not a log of the command that produced the published figures."
    )
    if launch.container:
        lines += _comment(f"Container: {launch.container}")
    if gpus is not None:
        lines += _comment(f"GPUs the configuration is written for: {gpus}")
    lines.append("#")
    if prerequisites:
        lines.append("# What this needs:")
        for item in prerequisites:
            lines += _comment(_provided(item), "  ")
    if variables:
        lines.append("# Set before running (the script stops if one is unset):")
        for item in variables:
            lines += _comment(
                _provided(item) if item.name == item.written else f"{item.name}, the command's {_provided(item)}", "  "
            )
    lines += ["set -eo pipefail", ""]
    if variables:
        lines += [
            "require() {",
            '  if [ -z "${!1:-}" ]; then',
            '    printf \'launch.sh: %s is not set: %s\\n\' "$1" "$2" >&2',
            "    exit 1",
            "  fi",
            "}",
        ]
        lines += [f"require {item.name} {shlex.quote(item.description)}" for item in variables]
        # For the programs the command starts, and a `bash -c '…'` script that reads one, to see them.
        lines.append("export " + " ".join(dict.fromkeys(item.name for item in variables)))
        lines.append("")
    if env_text:
        lines.append("# The environment the publisher's configuration sets (env.sh).")
        lines.append(env_text.rstrip("\n"))
        lines.append("")
    if checkout:
        lines.append("# The publisher's revision.")
        lines.append(checkout.rstrip("\n"))
        lines.append("")
    placeholders_set = checkout != (launch.checkout or "") or command != launch.command
    lines.append("# The documented command" + (", each <placeholder> a variable above." if placeholders_set else "."))
    lines.append(command.rstrip("\n"))
    return "\n".join(lines) + "\n"
