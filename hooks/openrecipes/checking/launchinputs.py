"""What a documented launch needs from the reader: the variables its command reads, the variables
its `<placeholders>` stand for (shelltext.py), and the prerequisites it names in words, each with the
input of the recipe that describes it, or none. The script made of the launch (launchscript.py)
requires each variable; `openrecipes validate` refuses a launch with one the recipe does not describe.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..reading.shelltext import placeholder_variables
from .scriptinputs import SHELL_VARIABLES

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
    """Whether the script requires it set (a variable), or it is a prerequisite said in words."""


def launch_scripts(launch: Any) -> tuple[str, str]:
    """A documented launch's two pieces of shell, run one after the other: checkout, command."""
    return (launch.checkout or "", launch.command or "")


UNDESCRIBED = "not described by the recipe"


def documented_inputs(launch: Any) -> tuple[list[Variable], list[dict[int, str]]]:
    """What a documented launch needs from the reader, and for its checkout and its command which
    variable stands for the placeholder at each offset (shelltext.py). Each input the recipe
    describes comes in its order: a variable the command reads, a placeholder as the variables it
    stands for, or, read nowhere, a prerequisite said in words (`<Slurm cluster>`). A placeholder
    the recipe does not describe is still a variable the script requires (validate refuses it)."""
    described = [item for item in launch.inputs or () if item.name is not None]
    taken = set(SHELL_VARIABLES) | {name for name, _ in launch.env or ()}
    taken |= {item.name for item in described if _NAME.fullmatch(item.name)}
    per_script = placeholder_variables(launch_scripts(launch), taken)
    uses = [pair for pairs in per_script for pair in pairs]
    by_variable = {item.name for item in described if _NAME.fullmatch(item.name)}
    inputs: list[Variable] = []
    covered: set[str] = set()
    for item in described:
        if _NAME.fullmatch(item.name):
            inputs.append(Variable(item.name, item.name, item.description, item.origin, True))
            covered.add(item.name)
            continue
        # A placeholder's variables: those named after it, and those it is assigned to that the
        # recipe does not describe by their own name.
        standing = [variable for variable, use in uses if use.written == item.name and variable not in by_variable]
        for variable in dict.fromkeys(standing):
            inputs.append(Variable(variable, item.name, item.description, item.origin, True))
            covered.add(variable)
        if not standing:
            inputs.append(Variable(item.name, item.name, item.description, item.origin, False))
    for variable, use in uses:
        if variable not in covered:
            inputs.append(Variable(variable, use.written, UNDESCRIBED, None, True))
            covered.add(variable)
    return inputs, [{use.start: variable for variable, use in pairs} for pairs in per_script]
