"""Deprecation across releases: a row published again by a later release is superseded by it.

"The same configuration" is decided by each importer (`Planned.configuration`); for
Megatron-Bridge it is the model as published (with its qualifier), the system, the GPU count,
the precision as labelled, the workload and its sequence length and global batch size. The
parallel layout is not part of it: a later release that retunes the layout of the same job
publishes that job's newer figures.

The recipe of the newest release that publishes a configuration stays `published`; every older
one becomes `deprecated`, superseded by that newest one (not by the next release, so a reader
needs one click, not a chain). When the newest release publishes the configuration twice, it
is ambiguous which row replaces the older ones, and nothing is deprecated.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Iterable

from .common import Planned


def reason(release_name: str) -> str:
    return f"superseded by the {release_name} figures"


def supersede(recipes: Iterable[Planned]) -> list[Planned]:
    recipes = list(recipes)
    groups: dict[tuple, list[int]] = defaultdict(list)
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
    data["deprecation"] = {"reason": reason(successor.release_name), "superseded_by": successor.id}
    return dataclasses.replace(recipe, data=data)
