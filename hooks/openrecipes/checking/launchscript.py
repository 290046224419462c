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
(`<Slurm cluster>`) is a prerequisite, said in the script's header; an input the recipe calls
optional is a variable the script does not stop for. A launch with preparation steps also downloads
as a `prepare.sh`, made the same way: the checkout, then each step's commands as written (a step
done by hand, or typed in a container's shell, is said to the reader, never run). Both scripts use
one clone: the checkout's `git clone` is skipped where the clone is there already. Every text from
the recipe reaches a script as a comment line or a single-quoted word, so no description can run.
"""

from __future__ import annotations

import posixpath
import re
import shlex
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..reading import launchsafety
from ..reading.shelltext import substituted
from .launchinputs import Variable, documented_inputs, launch_scripts, preparation_inputs, preparation_scripts

Kind = Literal["as-run", "documented", "not-published"]

LABELS: dict[Kind, str] = {
    "as-run": "As run",
    "documented": "The publisher's documented launch",
    "not-published": "Not published",
}
"""What each kind is called where a recipe's page and `show` set its launches apart; whether a
recipe runs is its readiness (readiness.py), the one label the lists, exports and compare page give."""

INCOMPLETE_LABEL = "The publisher's launch, incomplete"
"""A documented launch that needs files not at its commit is not called documented (its readiness says
which files)."""

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
    field: tuple[str | int, ...]
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
    prepare_sh: Script | None = None
    """A documented launch's preparation (`launch.preparation`), run once before it."""
    preparation_inputs: tuple[Variable, ...] = ()
    """What its preparation needs from the reader, the steps' inputs in order."""

    incomplete: bool = False
    """A documented launch that needs files not in the repository at its commit (`launch.missing`)."""

    @property
    def label(self) -> str:
        return INCOMPLETE_LABEL if self.incomplete else LABELS[self.kind]

    @property
    def scripts(self) -> tuple[Script, ...]:
        """Every file the launch downloads as: launch.sh, env.sh, then prepare.sh (what every list of them
        shows, in this order)."""
        return tuple(script for script in (self.launch_sh, self.env_sh, self.prepare_sh) if script is not None)


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
    checkout, command = (
        substituted(text, chosen) for text, chosen in zip(launch_scripts(launch), substitutions, strict=True)
    )
    steps = tuple(launch.preparation or ())
    header = _header(fields, launch, "launch")
    if steps:
        header += _comment(
            f"Run {prefix}prepare.sh first, in this folder: the publisher's {_steps(len(steps))} before this "
            "launch, which it lists."
        )
    body: list[tuple[str, str, tuple[str | int, ...] | None]] = []
    if env_text:
        body.append(("# The environment the publisher's configuration sets (env.sh).", env_text, None))
    body += _checkout(checkout)
    placeholders_set = checkout != (launch.checkout or "") or command != launch.command
    title = "# The documented command" + (", each <placeholder> a variable above." if placeholders_set else ".")
    body.append((title, command, ("launch", "command")))
    text, parts = _script(f"{prefix}launch.sh", header, inputs, body)
    env = _env_script(f"{prefix}env.sh", env_pairs, ("launch", "env"), quote=True) if env_pairs else None
    prepare, needs = _preparation(fields, launch, prefix) if steps else (None, ())
    return Launch(
        "documented",
        Script(f"{prefix}launch.sh", text, parts),
        env,
        inputs=tuple(inputs),
        prepare_sh=prepare,
        preparation_inputs=needs,
        incomplete=bool(launch.missing),
    )


def _steps(count: int) -> str:
    return "preparation step" if count == 1 else f"{count} preparation steps"


def _preparation(fields: Any, launch: Any, prefix: str) -> tuple[Script, tuple[Variable, ...]]:
    """`prepare.sh`: the checkout, then each preparation step as the publisher writes it."""
    inputs, substitutions = preparation_inputs(launch)
    checkout, *commands = (
        substituted(text, chosen) for text, chosen in zip(preparation_scripts(launch), substitutions, strict=True)
    )
    steps = launch.preparation
    header = _header(fields, launch, "preparation")
    header.append("# Steps, each the publisher's commands as written, in the file and lines named:")
    for number, step in enumerate(steps, start=1):
        how = "" if step.commands else " (by hand: the publisher gives no commands)"
        header += _comment(f"{number}. {step.what.rstrip('.')}{how} ({_cited(step)})", "  ")
    header += _comment(f"Then run {prefix}launch.sh in this folder: it uses the clone this script leaves.")
    body = _checkout(checkout)
    here = launchsafety.checkout_folder(launch.checkout or "", launch.source.repository, launch.source.commit)
    for index, (step, text) in enumerate(zip(steps, commands, strict=True)):
        field: tuple[str | int, ...] = ("launch", "preparation", index, "commands")
        lines = _comment(f"Step {index + 1} of {len(steps)}: {step.what.rstrip('.')} ({_cited(step)}).")
        away = step.folder is not None and here is not None and step.folder.rstrip("/") != here
        if away:
            lines.append(
                f"cd -- {shlex.quote(posixpath.relpath(step.folder, here or '.'))}"
                f"  # {step.folder}, where the publisher runs this step"
            )
        if step.session:
            lines += _comment(
                "The publisher types these commands in the shell the last command below opens, then leaves it (exit):"
            )
            lines += [f"#   {line}".rstrip() for line in step.session.rstrip("\n").split("\n")]
            lines.append(
                "printf '%s\\n' "
                + shlex.quote(
                    f"{prefix}prepare.sh, step {index + 1}: in the shell that opens now, run these, then exit:"
                )
                + " "
                + shlex.quote(step.session.rstrip("\n"))
                + " >&2"
            )
        if not step.commands:
            lines += _comment("By hand: the publisher describes this step in words, in the lines named above.")
        body.append(("\n".join(lines), text, field if step.commands else None))
        if away:
            back = posixpath.relpath(here or ".", step.folder)
            body.append((f"cd -- {shlex.quote(back)}  # back to the launch's folder", "", None))
    text, parts = _script(f"{prefix}prepare.sh", header, inputs, body)
    return Script(f"{prefix}prepare.sh", text, parts), tuple(inputs)


def _cited(step: Any) -> str:
    first, last = step.lines
    return f"{step.file} line {first}" if first == last else f"{step.file} lines {first}-{last}"


def _header(fields: Any, launch: Any, what: str) -> list[str]:
    source = launch.source
    lines = ["#!/usr/bin/env bash"]
    if what == "launch":
        lines += _comment(
            f"{fields.model} on {fields.gpu.count} x {fields.gpu.type}: the publisher's documented launch of this "
            f"configuration, read from {source.repository} at commit {source.commit}. It is how the publisher "
            "launches this configuration, not a log of the command that produced the published figures."
        )
        gpus = launch.sets.gpus if launch.sets is not None and launch.sets.gpus is not None else None
        if launch.container:
            lines += _comment(f"Container: {launch.container}")
        if gpus is not None:
            lines += _comment(f"GPUs the configuration is written for: {gpus}")
    else:
        lines += _comment(
            f"{fields.model} on {fields.gpu.count} x {fields.gpu.type}: what the publisher says to do once before "
            f"its documented launch of this configuration, read from {source.repository} at commit {source.commit}."
        )
    if launch.missing:
        lines += _comment(
            "INCOMPLETE: this launch needs files that are not in the repository at that commit, and cannot run as "
            "written:"
        )
        for item in launch.missing:
            lines += _comment(missing_text(item), "  ")
    return lines


def missing_text(item: Any) -> str:
    """One line for a file a launch needs that is not there (`launch.missing`): the file, how it is
    needed, and the file (and line) that needs it."""
    where = item.file if item.line is None else f"{item.file} line {item.line}"
    return f"{item.path}: {item.what} ({where})"


def _script(
    name: str,
    header: list[str],
    inputs: Sequence[Variable],
    body: Sequence[tuple[str, str, tuple[str | int, ...] | None]],
) -> tuple[str, tuple[Part, ...]]:
    """A documented script: the header, what it needs (each variable required unless optional), then
    each piece of the body under its title; and where each recipe field's text is in it."""
    whose = "the steps'" if name.endswith("prepare.sh") else "the command's"
    variables = [item for item in inputs if item.required]
    required = [item for item in variables if not item.optional]
    optional = [item for item in variables if item.optional]
    prerequisites = [item for item in inputs if not item.required]
    lines = [*header, "#"]
    if prerequisites:
        lines.append("# What this needs:")
        for item in prerequisites:
            lines += _comment(_provided(item), "  ")
    for title, chosen in (
        ("# Set before running (the script stops if one is unset):", required),
        ("# May be set (optional: the script runs without it):", optional),
    ):
        if chosen:
            lines.append(title)
            for item in chosen:
                lines += _comment(
                    _provided(item) if item.name == item.written else f"{item.name}, {whose} {_provided(item)}",
                    "  ",
                )
    lines += ["set -eo pipefail", ""]
    if required:
        lines += [
            "require() {",
            '  if [ -z "${!1:-}" ]; then',
            f'    printf \'{name}: %s is not set: %s\\n\' "$1" "$2" >&2',
            "    exit 1",
            "  fi",
            "}",
        ]
        lines += [f"require {item.name} {shlex.quote(item.description)}" for item in required]
    if variables:
        # For the programs the command starts, and a `bash -c '…'` script that reads one, to see them.
        lines.append("export " + " ".join(dict.fromkeys(item.name for item in variables)))
        lines.append("")
    pieces: list[tuple[str, tuple[str | int, ...]]] = []
    for title, text, field in body:
        lines.append(title)
        if text:
            lines.append(text.rstrip("\n"))
            if field is not None:
                pieces.append((text, field))
        lines.append("")
    while lines and lines[-1] == "":
        lines.pop()
    script = "\n".join(lines) + "\n"
    parts = []
    at = 0
    for piece, field in pieces:
        if not piece.strip():
            continue
        start = script.index(piece.rstrip("\n"), at)
        at = start + len(piece.rstrip("\n"))
        count = piece.count("\n") + (0 if piece.endswith("\n") else 1)
        parts.append(Part(script.count("\n", 0, start) + 1, count, field))
    return script, tuple(parts)


def _checkout(checkout: str) -> list[tuple[str, str, tuple[str | int, ...] | None]]:
    if not checkout:
        return []
    title = "# The publisher's revision (a clone of it already in this folder is used again)."
    return [(title, reused_clone(checkout), ("launch", "checkout"))]


_CLONE_OPTIONS = frozenset({"-q", "--quiet", "--recursive", "--recurse-submodules", "--no-checkout"})


def reused_clone(checkout: str) -> str:
    """The checkout with its `git clone` skipped where the folder it clones into is a clone already:
    `prepare.sh` and `launch.sh`, run one after the other in one folder, share it. The line keeps its
    place, so what bash or ShellCheck find there is still the checkout's line."""
    lines = checkout.split("\n")
    for index, line in enumerate(lines):
        words = line.split("#", 1)[0].split("&&", 1)[0].split()
        if words[:2] != ["git", "clone"]:
            continue
        arguments = [word for word in words[2:] if word not in _CLONE_OPTIONS]
        if not arguments:
            return checkout
        url = arguments[0].rstrip("/")
        folder = arguments[1] if len(arguments) > 1 else url.rsplit("/", 1)[-1].removesuffix(".git")
        indent = line[: len(line) - len(line.lstrip())]
        lines[index] = f"{indent}[ -d {shlex.quote(folder.rstrip('/') + '/.git')} ] || {line.lstrip()}"
        return "\n".join(lines)
    return checkout


def _comment(text: str, indent: str = "") -> list[str]:
    """Prose as comment lines: any line break in it ends up inside a comment, never as a command."""
    words = " ".join(text.split())
    # Paths and names are never broken: a long one has a line of its own.
    wrapped = textwrap.wrap(words, _COMMENT_WIDTH - len(indent), break_long_words=False, break_on_hyphens=False)
    return [f"# {indent}{line}".rstrip() for line in wrapped] or ["#"]


def _provided(variable: Variable) -> str:
    where = f" From: {variable.origin}." if variable.origin else ""
    return f"{variable.written}: {variable.description.rstrip('.')}.{where}"
