"""What a documented launch runs, dimension by dimension, against what its recipe's row states.

A documented launch's `launch.sets` holds the effective value of each dimension of the
configuration the command runs (GPUs, the parallel degrees, the batch sizes, the sequence length,
the precision), as its importer read it from the publisher's files. A dimension the row states is
either stated by `sets` with the same value, stated with another value (*differing*), or not
stated at all (*unstated*: the importer could not read it, and the notes say why). A launch with
any differing or unstated dimension "differs from the row": it is not known to run the
configuration the figures are for. Every part that asks whether a launch runs its row asks
`configuration_gaps`: the Launch values check, the recipe page, and labels built on top of it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .. import fmt
from ..reading import records
from .figures import RecipeFields, lookup


@dataclass(frozen=True)
class Dimension:
    key: str
    """The key of `launch.sets`."""
    path: tuple[str, ...]
    """The recipe's field the row states it in."""
    label: str


DIMENSIONS: tuple[Dimension, ...] = (
    Dimension("gpus", ("gpu", "count"), "GPUs"),
    Dimension("tp", ("layout", "tp"), "TP"),
    Dimension("pp", ("layout", "pp"), "PP"),
    Dimension("vp", ("layout", "vpp"), "VP"),
    Dimension("cp", ("layout", "cp"), "CP"),
    Dimension("ep", ("layout", "ep"), "EP"),
    Dimension("etp", ("layout", "etp"), "ETP"),
    Dimension("gbs", ("workload", "global_batch"), "GBS"),
    Dimension("mbs", ("layout", "rows_per_microbatch"), "MBS"),
    Dimension("seq_length", ("workload", "row_tokens"), "sequence length"),
    Dimension("precision", ("workload", "precision"), "precision"),
)
"""Every dimension a launch's configuration is compared on, in the order the page lists them."""

LABELS: dict[str, str] = {dimension.key: dimension.label for dimension in DIMENSIONS}


@dataclass(frozen=True)
class Comparison:
    """One dimension the row states: its value there, and the launch's (None when unstated)."""

    key: str
    label: str
    row: int | str
    launch: int | str | None

    @property
    def stated(self) -> bool:
        return self.launch is not None

    @property
    def agrees(self) -> bool:
        return self.launch == self.row


@dataclass(frozen=True)
class ConfigurationGaps:
    """The dimensions the row states that a documented launch's `sets` leaves out, and those it
    sets to another value; both empty when the launch runs the row."""

    unstated: tuple[str, ...]
    differing: tuple[str, ...]
    comparisons: tuple[Comparison, ...] = ()

    @property
    def runs_row(self) -> bool:
        return not self.unstated and not self.differing

    def labels(self, keys: tuple[str, ...]) -> str:
        """`('seq_length', 'gbs')` -> 'sequence length, GBS'."""
        return ", ".join(LABELS[key] for key in keys)

    def summary(self) -> str:
        """One line: 'runs the row', or which dimensions differ and which are not stated."""
        if self.runs_row:
            return "runs the row"
        by_key = {comparison.key: comparison for comparison in self.comparisons}
        parts = [
            f"{LABELS[key]} {show(by_key[key].launch)} (the row: {show(by_key[key].row)})" for key in self.differing
        ]
        if self.unstated:
            parts.append("not stated: " + self.labels(self.unstated))
        return "differs from the row: " + "; ".join(parts)


def show(value: int | str | None) -> str:
    if value is None:
        return "not stated"
    return value if isinstance(value, str) else fmt.number(value)


def compare(row: Mapping[str, Any], sets: Mapping[str, Any]) -> ConfigurationGaps:
    """The gaps between what a row states (`sets` keys -> its values; None or absent when it states
    none) and a launch's `sets` as written (a key absent when the launch does not state it).

    A launch's null VP is no interleaving (1); a null ETP leaves the experts' tensor parallelism to
    TP, as Megatron does (so it is unstated when the row states no TP). Plain mappings, so that an
    importer asks the same question of the recipe it is about to write."""
    comparisons = []
    for dimension in DIMENSIONS:
        stated = row.get(dimension.key)
        if stated is None:
            continue
        value = sets.get(dimension.key) if dimension.key in sets else None
        if dimension.key in sets and value is None:
            value = row.get("tp") if dimension.key == "etp" else 1
        comparisons.append(Comparison(dimension.key, dimension.label, stated, value))
    return ConfigurationGaps(
        unstated=tuple(item.key for item in comparisons if not item.stated),
        differing=tuple(item.key for item in comparisons if item.stated and not item.agrees),
        comparisons=tuple(comparisons),
    )


def row_values(f: RecipeFields) -> dict[str, Any]:
    """What the recipe's row states of each dimension (None where it states nothing)."""
    return {dimension.key: lookup(f, *dimension.path) for dimension in DIMENSIONS}


def launch_sets(f: RecipeFields) -> dict[str, Any] | None:
    """A documented launch's `sets` as written (the keys it gives, `null` kept), or None for
    another kind of launch; an empty dict when a documented launch gives no `sets`."""
    launch = lookup(f, "launch")
    if launch is None or lookup(launch, "kind") != "documented":
        return None
    sets = lookup(launch, "sets")
    return {key: getattr(sets, key) for key in LABELS if records.given(sets, key)}


def configuration_gaps(f: RecipeFields) -> ConfigurationGaps | None:
    """For a recipe with a documented launch, the dimensions its row states that the launch's
    configuration does not (unstated) or sets otherwise (differing); None for any other recipe."""
    sets = launch_sets(f)
    if sets is None:
        return None
    return compare(row_values(f), sets)
