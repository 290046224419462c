"""Deprecation across releases: the one rule that says when a newer release supersedes a row.

**The rule.** Two imported rows are the same configuration when they have the same model as
printed (with its qualifier: `DeepSeekV3 (w/o MTP)` is not `DeepSeekV3`), system, GPU count,
precision as recorded (with its FP8 scaling: a `FP8-CS` row, tensorwise, is not a 26.x `FP8`
row, whose scaling the page does not state), training method and sequence length. Of a
configuration, the recipe of the newest release that publishes it stays `published`; every older
one becomes `deprecated`, with a reason that states this rule and `superseded_by` naming the newest
one (not the next release, so a reader needs one click, not a chain).

Not part of it: the parallel layout and the global and micro batch sizes, which a release retunes
for the same job (26.02 runs GPT-OSS 120B on 64 H100s at GBS 1,280 where 25.11 ran GBS 512); they
are the newer figures for that job. The sequence length is: a figure at 8,192 tokens a row is not
comparable with one at 4,096, and a newer release that only publishes the shorter one has not
replaced the longer. When the newest release publishes one configuration twice (two batch sizes),
which row replaces the older ones is ambiguous: nothing is deprecated, and all of them stay
`published`.

Each importer says what a row's configuration is by building a `Configuration`; this module alone
decides what follows from it.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .. import fmt

if TYPE_CHECKING:
    from .common import Planned

RULE = "same model, system, GPU count, precision, training method and sequence length"
"""The rule in words, as the deprecation reason, the README and Methodology state it."""


@dataclass(frozen=True)
class Configuration:
    """What makes rows of two releases the same configuration (see the module's rule)."""

    model: str
    """As printed, with its qualifier (`DeepSeekV3 (w/o MTP)`)."""
    system: str
    gpus: int
    precision: str
    """As recorded: `workload.precision`, and its `fp8_scaling` when stated (`fp8 tensorwise`)."""
    method: str
    """`workload.method.kind` (`pre-training`, `full-fine-tune`, `lora`)."""
    sequence_length: int
    precision_from: str = dataclasses.field(default="", compare=False)
    """How `precision` was read when the row's label alone does not say it (a 26.x `FP8` row, by
    the configuration the publisher's launcher loads for it); not part of the comparison."""

    def describe(self) -> str:
        return (
            f"{self.model}, {self.system}, {self.gpus} GPUs, {self.precision}, {self.method}, "
            f"sequence length {fmt.number(self.sequence_length)}"
        )


def reason(recipe: Planned, successor: Planned) -> str:
    assert recipe.configuration is not None and successor.configuration is not None
    throughput = successor.data.get("result", {}).get("tokens_per_s_per_gpu")
    own = recipe.data.get("result", {}).get("tokens_per_s_per_gpu")
    figures = f": {fmt.as_written(throughput)} tokens/s per GPU" if throughput is not None else ""
    if figures and own is not None:
        figures += f" (this row: {fmt.as_written(own)})"
    read = [
        f"{planned.release_name}: {planned.configuration.precision_from}"
        for planned in (recipe, successor)
        if planned.configuration is not None and planned.configuration.precision_from
    ]
    precision = f" The precision as read for {'; '.join(read)}." if read else ""
    return (
        f"Superseded by the {successor.release_name} release's row for the same configuration "
        f"({successor.configuration.describe()}){figures}. The rule: a newer release that publishes the {RULE} "
        f"supersedes the older row; layout and batch sizes may differ, as releases retune them.{precision}"
    )


def supersede(recipes: Iterable[Planned]) -> list[Planned]:
    recipes = list(recipes)
    groups: dict[Configuration, list[int]] = defaultdict(list)
    for index, recipe in enumerate(recipes):
        if recipe.configuration is not None:
            groups[recipe.configuration].append(index)
    for members in groups.values():
        newest = max(recipes[index].release for index in members)
        successors = [index for index in members if recipes[index].release == newest]
        if len(successors) != 1:
            continue
        successor = recipes[successors[0]]
        for index in members:
            if recipes[index].release < newest:
                recipes[index] = _deprecated(recipes[index], successor)
    return recipes


def _deprecated(recipe: Planned, successor: Planned) -> Planned:
    data = dict(recipe.data)
    data["status"] = "deprecated"
    data["deprecation"] = {"reason": reason(recipe, successor), "superseded_by": successor.id}
    return dataclasses.replace(recipe, data=data)
