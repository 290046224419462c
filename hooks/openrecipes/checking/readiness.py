"""Whether a reader can run a recipe as it stands: one label, the same on its page, in the tables and
their filters, the home matrix, the CSV and JSON, `openrecipes show` and `list`, and the compare page.

Decided in this order, the first that holds:

1. *not published*: no launch script and no documented launch (the publisher's reason, if any);
2. *as run by the author*: the author's own script (`run`), exactly as the run was made, never
   checked to run elsewhere; listed with the inputs it reads that the author does not describe;
3. *incomplete*: the publisher's documented launch needs files that are not in their repository at
   its commit (`launch.missing`: a file its configuration sources, the training configuration or
   script its code runs, the Dockerfile its image is built from), so it cannot run as written;
4. *differs from the row*: the publisher's documented launch does not set this row's configuration
   (`configuration_gaps`: a value it sets differs from the row's, or the row states one it leaves
   out), so it may not give these figures;
5. the documented launch is not known to run: *not yet run* (no dry run recorded, or the one
   recorded ran an earlier launch.sh) or *fails its dry run* (with what the dry run found);
6. *needs preparation*: it passed its dry run, and the publisher lists steps to prepare first
   (`launch.preparation`: data, checkpoints);
7. *runs as documented*: it passed its dry run over the publisher's files, and every input it
   needs is declared (validation refuses a documented launch with an undescribed one).

Only the last two count as running (`Readiness.runs`): the home matrix names the cheapest recipe
that does beside a cheaper one that does not.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .. import fmt
from . import launchscript, launchvalues, preparation
from .dryrunstate import DryRunOutcome
from .figures import lookup

Key = Literal[
    "runs", "needs-preparation", "incomplete", "differs", "as-run", "not-yet-run", "fails-dry-run", "not-published"
]

LABELS: dict[Key, str] = {
    "runs": "runs as documented",
    "needs-preparation": "needs preparation",
    "incomplete": "incomplete",
    "differs": "differs from the row",
    "as-run": "as run by the author",
    "not-yet-run": "not yet run",
    "fails-dry-run": "fails its dry run",
    "not-published": "not published",
}
"""Each state's label, wherever it is shown; its key is what the CSV, the JSON, the filters' address
and a badge's class hold."""

MEANINGS: dict[Key, str] = {
    "not-published": "no launch script and no documented launch: the page says why, in the publisher's words "
    "where there are some.",
    "as-run": "the author's own script, exactly as the run was made; nothing checks that it runs anywhere else. "
    "The page lists the inputs it reads that the author does not describe.",
    "incomplete": "the publisher's documented launch needs files that are not in their repository at its commit "
    "(a file its configuration sources, the training configuration or script its code runs, the Dockerfile its "
    "image is built from): it cannot run as written. The page lists each, with the file and line that needs it.",
    "differs": "the publisher's documented launch sets a GPU count, layout or batch other than the row's, or "
    "leaves out one the row states: run as documented, it is not known to give the row's figures. The page "
    "lists each.",
    "not-yet-run": "the publisher's documented launch has no dry run recorded for the launch.sh it makes now "
    "(openrecipes launch check --record).",
    "fails-dry-run": "the publisher's documented launch failed its dry run over their files at its commit; the "
    "page lists what the dry run found.",
    "needs-preparation": "the publisher's documented launch passed its dry run, and runs after the steps the "
    "publisher lists (data, checkpoints), which the page lists.",
    "runs": "the publisher's documented launch passed its dry run over their files at its commit: its launcher "
    "received the documented command, and every input it needs is declared and stops it when unset.",
}
"""What each label means, in the order it is decided (the Methodology page lists them so)."""

RUNNABLE: tuple[Key, ...] = ("runs", "needs-preparation")

NO_SOURCE_COMMAND = (
    "The source documents no command for this run; its figures are what the publisher measured with their own tooling."
)


@dataclass(frozen=True)
class Gap:
    """A dimension of the row that a documented launch does not set as the row states it."""

    label: str
    row: int | str
    launch: int | str | None
    """What the launch sets; None when it does not state this dimension."""

    @property
    def text(self) -> str:
        row = launchvalues.show(self.row)
        if self.launch is None:
            return f"{self.label}: the row states {row}; the launch does not state it"
        return f"{self.label}: the launch sets {launchvalues.show(self.launch)}, the row states {row}"


@dataclass(frozen=True)
class Readiness:
    key: Key
    why: str
    """One or two sentences: what the label rests on."""
    items: tuple[str, ...] = ()
    """What the label refers to, one line each: the undescribed inputs, the dimensions that differ
    or that the launch leaves unstated, what the dry run found, the preparation steps."""
    listed: str | None = None
    """What `items` are, as a heading for them ("Inputs the author does not describe")."""

    @property
    def label(self) -> str:
        return LABELS[self.key]

    @property
    def runs(self) -> bool:
        """Whether the recipe runs as the publisher documents it (after their preparation steps)."""
        return self.key in RUNNABLE


def configuration_gaps(fields: Any) -> tuple[Gap, ...]:
    """The row's dimensions a documented launch sets otherwise, then those the row states and
    `launch.sets` leaves out, in the order the page lists them: launchvalues.configuration_gaps,
    the comparison the Launch values check and the recipe page make, one line each."""
    gaps = launchvalues.configuration_gaps(fields)
    if gaps is None:
        return ()
    by_key = {comparison.key: comparison for comparison in gaps.comparisons}
    return tuple(
        Gap(by_key[key].label, by_key[key].row, by_key[key].launch) for key in (*gaps.differing, *gaps.unstated)
    )


def preparation_steps(fields: Any) -> tuple[str, ...]:
    """What the publisher asks the reader to do first, each step's `what` (preparation.py's steps)."""
    return tuple(" ".join(step.what.split()) for step in preparation.preparation_steps(fields))


def readiness(fields: Any, inputs: Sequence[tuple[str, str | None]], dry_run: DryRunOutcome | None) -> Readiness:
    """The recipe's readiness (module docstring): `inputs` are the as-run script's (Derived.inputs),
    `dry_run` the documented launch's recorded outcome (Derived.dry_run)."""
    documented = lookup(fields, "launch")
    is_documented = documented is not None and documented.kind == "documented"
    if not lookup(fields, "run") and not is_documented:
        return Readiness("not-published", _no_launch_reason(fields))
    if lookup(fields, "run"):
        return _as_run(inputs)
    if documented.missing:
        return _incomplete(documented)
    gaps = configuration_gaps(fields)
    if gaps:
        return _differs(gaps)
    if dry_run is None or dry_run.state in ("not run", "stale") or dry_run.record is None:
        return _not_yet_run(dry_run)
    where = f"{dry_run.record.repository} at {dry_run.record.commit[:12]}"
    if dry_run.state == "failed":
        return Readiness(
            "fails-dry-run",
            f"The publisher's documented launch failed its dry run over the files of {where}.",
            tuple(" ".join(problem.split()) for problem in dry_run.record.problems),
            "What the dry run found",
        )
    passed = (
        f"The publisher's documented launch passed its dry run over the files of {where}: the launcher received "
        "the documented command, and every input it needs is declared and stops it when unset."
    )
    steps = preparation_steps(fields)
    if steps:
        first = f"{passed} The publisher lists steps to take first."
        return Readiness("needs-preparation", first, steps, "Preparation")
    return Readiness("runs", passed)


def _no_launch_reason(fields: Any) -> str:
    documented = lookup(fields, "launch")
    if documented is not None and documented.reason:
        return str(documented.reason)
    return NO_SOURCE_COMMAND if lookup(fields, "source") is not None else launchscript.NO_LAUNCH_REASON


def _as_run(inputs: Sequence[tuple[str, str | None]]) -> Readiness:
    undescribed = tuple(written for written, description in inputs if description is None)
    why = "The author's own script, exactly as the run was made; nothing checks that it runs anywhere else"
    if not undescribed:
        return Readiness("as-run", f"{why}. It describes every input it reads.")
    count = fmt.plural(len(undescribed), "input")
    return Readiness(
        "as-run",
        f"{why}, and it reads {count} the author does not describe.",
        undescribed,
        "Inputs the author does not describe",
    )


def _incomplete(launch: Any) -> Readiness:
    where = f"{launch.source.repository} at {launch.source.commit[:12]}"
    count = fmt.plural(len(launch.missing), "file")
    return Readiness(
        "incomplete",
        f"The publisher's documented launch needs {count} that {'is' if len(launch.missing) == 1 else 'are'} not "
        f"in {where}: it cannot run as written.",
        tuple(launchscript.missing_text(item) for item in launch.missing),
        "What the launch needs that is not there",
    )


def _differs(gaps: Sequence[Gap]) -> Readiness:
    differing = sum(1 for gap in gaps if gap.launch is not None)
    unstated = len(gaps) - differing
    parts = []
    if differing:
        parts.append(f"sets {fmt.plural(differing, 'value')} other than the row's")
    if unstated:
        parts.append(f"does not state {fmt.plural(unstated, 'value')} the row states")
    return Readiness(
        "differs",
        f"The publisher's documented launch {' and '.join(parts)}: run as documented, it is not known to be "
        "this row's configuration, nor to give its figures.",
        tuple(gap.text for gap in gaps),
        "Where the launch and the row part",
    )


def _not_yet_run(dry_run: DryRunOutcome | None) -> Readiness:
    if dry_run is not None and dry_run.state == "stale" and dry_run.record is not None:
        where = f"{dry_run.record.repository} at {dry_run.record.commit[:12]}"
        return Readiness(
            "not-yet-run",
            f"The recorded dry run (over the files of {where}) ran an earlier launch.sh: this one is not yet "
            "known to run.",
        )
    return Readiness(
        "not-yet-run",
        "No dry run of the publisher's documented launch is recorded (openrecipes launch check --record): "
        "it is not yet known to run.",
    )
