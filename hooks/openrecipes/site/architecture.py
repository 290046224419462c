"""Models of one architecture, linked: a reader looking for Llama 3.1 8B on an H100 finds the
Llama 3 8B recipes there (reference/models.yaml `same_architecture`, both ways).

The same layers, sizes and vocabulary make the same FLOPs per token and the same parallel layouts
fit, so a recipe of one runs the other's weights as it is; the links never merge the two models'
rankings (a row stays its own model's), they only point from one model's page, row and empty cells
of the home matrix to the other's recipes."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ..loader import Entry, slug
from ..reading.reference import Reference
from . import facts


@dataclass(frozen=True)
class Kin:
    """Another model of the same architecture, with current (not deprecated) recipes here."""

    name: str
    """As its model page is named (the model as its first recipe writes it)."""
    slug: str
    """Its model page's slug."""
    current: int
    """Its current recipes: what its page lists before the status filter asks for more."""
    by_gpu: Mapping[str, int] = field(default_factory=dict)
    """Its current recipes per GPU key."""


def kin_by_model(reference: Reference, entries: Sequence[Entry]) -> dict[str, tuple[Kin, ...]]:
    """For each model page's slug, the other models of its architecture that have current recipes,
    in the reference data's order. A model the reference data does not know has none."""
    names: dict[str, str] = {}
    keys: dict[str, str] = {}  # model page slug -> reference key
    current: dict[str, int] = defaultdict(int)
    by_gpu: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for entry in entries:
        model_slug = slug(entry.recipe.fields.model)
        names.setdefault(model_slug, entry.recipe.fields.model)
        if entry.derived.model is not None:
            keys.setdefault(model_slug, entry.derived.model.key)
        if not facts.hidden_by_default(entry):
            current[model_slug] += 1
            by_gpu[model_slug][entry.gpu_key] += 1
    slugs_of: dict[str, list[str]] = defaultdict(list)  # reference key -> model page slugs
    for model_slug, key in keys.items():
        slugs_of[key].append(model_slug)
    kin: dict[str, tuple[Kin, ...]] = {}
    for model_slug, key in keys.items():
        found = [
            Kin(names[other], other, current[other], dict(by_gpu[other]))
            for other_key in reference.same_architecture(key)
            for other in slugs_of.get(other_key, ())
            if current[other]
        ]
        if found:
            kin[model_slug] = tuple(found)
    return kin


def recipes(count: int) -> str:
    return f"{count} recipe{'s' if count != 1 else ''}"
