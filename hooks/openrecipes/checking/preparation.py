"""What a documented launch needs done once before it runs: the publisher's own preparation steps
(`launch.preparation`), as the recipe page, `prepare.sh` and whatever judges how ready a launch is
read them. One function answers for every reader: `preparation_steps`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .launchinputs import Variable, preparation_inputs

KIND_LABELS = {
    "access-token": "access token",
    "account": "account",
    "cluster": "cluster",
    "container-image": "container image",
    "data": "data",
    "checkpoint": "checkpoint",
    "python-environment": "Python environment",
}
"""How each `kind` of input is said on the page."""


@dataclass(frozen=True)
class Step:
    """One preparation step, as a reader is shown it."""

    number: int
    """1-based, in the publisher's order."""
    what: str
    file: str
    lines: tuple[int, int]
    url: str
    """The cited file's permalink, anchored at the step's lines."""
    commands: str | None
    """What `prepare.sh` runs, as the publisher writes it; None for a step done by hand."""
    session: str | None
    """What the publisher types in the interactive shell the commands open (shown, never run)."""
    notes: str | None
    inputs: tuple[Variable, ...]
    """What the step needs from the reader, as `prepare.sh` asks for it (the variable each stands for)."""

    @property
    def by_hand(self) -> bool:
        """The publisher describes the step in words only: no script can do it."""
        return self.commands is None

    @property
    def cited(self) -> str:
        first, last = self.lines
        return f"{self.file} line {first}" if first == last else f"{self.file} lines {first}–{last}"


def preparation_steps(fields: Any) -> tuple[Step, ...]:
    """The steps the recipe's documented launch needs done first, in order; empty when it needs none
    (or the recipe has no documented launch). A launch with any needs preparation before it runs as
    documented."""
    launch = getattr(fields, "launch", None)
    if launch is None or launch.kind != "documented" or not launch.preparation:
        return ()
    variables, _ = preparation_inputs(launch)
    links = {item.path: item.url.split("#", 1)[0] for item in launch.source.files}
    steps = []
    for number, step in enumerate(launch.preparation, start=1):
        first, last = step.lines
        anchor = f"#L{first}" if first == last else f"#L{first}-L{last}"
        own = {item.name for item in step.inputs or ()}
        steps.append(
            Step(
                number,
                step.what,
                step.file,
                (first, last),
                links.get(step.file, "") + anchor,
                step.commands,
                step.session,
                step.notes,
                tuple(item for item in variables if item.written in own),
            )
        )
    return tuple(steps)


def needs_preparation(fields: Any) -> bool:
    """Whether the recipe's documented launch has steps to do before it (`preparation_steps`)."""
    return bool(preparation_steps(fields))
