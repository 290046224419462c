"""What a documented launch needs from the reader: the variables its command reads, the variables
its `<placeholders>` stand for (shelltext.py), and the prerequisites it names in words, each with the
input of the recipe that describes it, or none. The same holds for its preparation (`prepare.sh`),
whose steps' commands read what the steps' own inputs describe. A script made of either
(launchscript.py) requires each variable but those the recipe calls optional; `openrecipes validate`
refuses a launch with one the recipe does not describe, and an input named as a variable that no
script reads.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..reading.shelltext import placeholder_variables, placeholders
from .scriptinputs import SHELL_VARIABLES, script_inputs

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class Variable:
    """A value the reader provides before a documented launch runs, as the script requires it."""

    name: str
    """The shell variable (`SLURM_ACCOUNT`, or `PATH_TO_DATA_DIR` for `<path/to/data/dir>`)."""
    written: str
    """As the recipe writes it (`SLURM_ACCOUNT`, `<path/to/data/dir>`)."""
    description: str
    origin: str | None
    required: bool
    """Whether it is a variable of the script (it stops when the variable is unset, unless `optional`),
    or a prerequisite said in words."""
    optional: bool = False
    """The recipe says the launch runs without it: the script does not stop when it is unset."""
    kind: str | None = None
    """What kind of thing it is (`access-token`, `data`…), where the recipe says."""


def launch_scripts(launch: Any) -> tuple[str, str]:
    """A documented launch's two pieces of shell, run one after the other: checkout, command."""
    return (launch.checkout or "", launch.command or "")


def preparation_scripts(launch: Any) -> tuple[str, ...]:
    """The shell `prepare.sh` runs: the checkout, then each step's commands (empty for a step done by
    hand); a step's `session` is shown to the reader, never run."""
    return (launch.checkout or "", *(step.commands or "" for step in launch.preparation or ()))


UNDESCRIBED = "not described by the recipe"


def documented_inputs(launch: Any) -> tuple[list[Variable], list[dict[int, str]]]:
    """What a documented launch needs from the reader, and for its checkout and its command which
    variable stands for the placeholder at each offset (shelltext.py). Each input the recipe
    describes comes in its order: a variable the command reads, a placeholder as the variables it
    stands for, or, read nowhere, a prerequisite said in words (`<Slurm cluster>`). A placeholder
    the recipe does not describe is still a variable the script requires (validate refuses it)."""
    return _inputs(launch, launch.inputs or (), (0, 1))


def preparation_inputs(launch: Any) -> tuple[list[Variable], list[dict[int, str]]]:
    """What `prepare.sh` needs from the reader, as `documented_inputs` says it of `launch.sh`: every
    step's inputs in order (one described in two steps, once), and for the checkout and each step's
    commands which variable stands for the placeholder at each offset."""
    described: dict[str, Any] = {}
    for step in launch.preparation or ():
        for item in step.inputs or ():
            if item.name is not None:
                described.setdefault(item.name, item)
    steps = len(launch.preparation or ())
    return _inputs(launch, tuple(described.values()), (0, *range(2, 2 + steps)))


def _inputs(launch: Any, items: Sequence[Any], chosen: Sequence[int]) -> tuple[list[Variable], list[dict[int, str]]]:
    """The inputs `items` describe for the scripts at `chosen` of (checkout, command, each step's
    commands). A placeholder stands for one variable in every script of the launch, worked out over
    all of them: what `prepare.sh` builds and `launch.sh` runs is the one `<docker/registry>`."""
    every = (*launch_scripts(launch), *(step.commands or "" for step in launch.preparation or ()))
    steps_described = [item for step in launch.preparation or () for item in step.inputs or ()]
    named = [item.name for item in (*(launch.inputs or ()), *steps_described) if item.name is not None]
    taken = set(SHELL_VARIABLES) | {name for name, _ in launch.env or ()}
    taken |= {name for name in named if _NAME.fullmatch(name)}
    per_script = [placeholder_variables(every, taken)[index] for index in chosen]
    uses = [pair for pairs in per_script for pair in pairs]
    described = [item for item in items if item.name is not None]
    by_variable = {item.name for item in described if _NAME.fullmatch(item.name)}
    inputs: list[Variable] = []
    covered: set[str] = set()
    for item in described:
        extra = {"optional": bool(item.optional), "kind": item.kind}
        if _NAME.fullmatch(item.name):
            inputs.append(Variable(item.name, item.name, item.description, item.origin, True, **extra))
            covered.add(item.name)
            continue
        # A placeholder's variables: those named after it, and those it is assigned to that the
        # recipe does not describe by their own name.
        standing = [variable for variable, use in uses if use.written == item.name and variable not in by_variable]
        for variable in dict.fromkeys(standing):
            inputs.append(Variable(variable, item.name, item.description, item.origin, True, **extra))
            covered.add(variable)
        if not standing:
            inputs.append(Variable(item.name, item.name, item.description, item.origin, False, **extra))
    for variable, use in uses:
        if variable not in covered:
            inputs.append(Variable(variable, use.written, UNDESCRIBED, None, True))
            covered.add(variable)
    return inputs, [{use.start: variable for variable, use in pairs} for pairs in per_script]


def unread_inputs(launch: Any) -> list[tuple[tuple[Any, ...], str, str]]:
    """Each input written as a placeholder of one word (`<path/to/dataset>`, as publishers write them in
    commands) that no script writes, with where it is (`("launch", "inputs", 2, "name")`), what should
    have written it and the name: a stale or misspelt input, which would pass for a prerequisite said
    in words (`<Slurm cluster>`). The launch's are written by its checkout or command, a preparation
    step's by the checkout or its own commands. A variable (`MODEL`) may be read by a program the
    command starts (run.sub), so the script exports it whether its text reads it or not."""
    found = []
    written = _written(launch_scripts(launch))
    for index, item in enumerate(launch.inputs or ()):
        if _one_word_placeholder(item.name) and item.name not in written:
            found.append((("launch", "inputs", index, "name"), "neither the checkout nor the command", item.name))
    for number, step in enumerate(launch.preparation or ()):
        written = _written([launch.checkout or "", step.commands or ""])
        for index, item in enumerate(step.inputs or ()):
            if _one_word_placeholder(item.name) and item.name not in written:
                where = ("launch", "preparation", number, "inputs", index, "name")
                found.append((where, f"the commands of preparation step {number + 1}", item.name))
    return found


def _one_word_placeholder(name: str | None) -> bool:
    return name is not None and name.startswith("<") and " " not in name


def _written(scripts: Iterable[str]) -> set[str]:
    return {use.written for script in scripts for use in placeholders(script)}


def undescribed_in_steps(launch: Any) -> list[tuple[int, list[str]]]:
    """Each preparation step whose commands read a variable or a placeholder that the step's inputs
    do not describe and no earlier step sets (`prepare.sh` runs them in one shell): (step index, what
    it reads, as written)."""
    found = []
    before = ""
    for number, step in enumerate(launch.preparation or ()):
        if not step.commands:
            continue
        names = {item.name for item in step.inputs or () if item.name is not None}
        # Read with the steps before it, so that what they set counts as set; only its own lines count.
        first = before.count("\n") + 1
        together = before + step.commands + ("" if step.commands.endswith("\n") else "\n")
        missing = [
            read.written
            for read in script_inputs(together)
            if read.line >= first and (read.name if read.kind == "variable" else read.written) not in names
        ]
        if missing:
            found.append((number, missing))
        before = together
    return found
