"""`openrecipes new`: a new recipe file at the right path, with every field and placeholders to fill in."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..loader import RECIPE_SUFFIX, RECIPES_DIR, segment_problem, slug
from ..problems import json_path
from ..reading.placeholders import PLACEHOLDER, FieldPath, is_placeholder
from ..reading.reference import Reference, load_reference
from ..reading.schema import SCHEMA_RELATIVE_PATH, Schema
from ..reading.yamlsource import SourceMap
from .scaffold import recipe_text, skeleton

NO_INSTANCE = "none"

OPTIONS: dict[FieldPath, str] = {
    ("model",): "--model",
    ("gpu", "type"): "--gpu",
    ("gpu", "count"): "--count",
    ("gpu", "per_node"): "--per-node",
    ("gpu", "instance"): "--instance",
}


@dataclass(frozen=True)
class NewRecipe:
    model: str
    gpu: str
    count: int
    name: str
    per_node: int | None = None
    instance: str | None = None
    """`none` for GPUs without a public price; None when not given (a placeholder)."""
    status: str = "verified"
    """`published` writes the core every public report has; otherwise every field."""


def given_values(request: NewRecipe, reference: Reference | None) -> tuple[dict[FieldPath, Any], list[str]]:
    """The fields the request fills in, spelled as the reference data spells them, and notes for the author."""
    notes = []
    gpu_spec = reference.gpu(request.gpu) if reference else None
    model_spec = reference.model(request.model) if reference else None
    values: dict[FieldPath, Any] = {
        ("schema_version",): 2,
        ("status",): request.status,
        ("model",): model_spec.key if model_spec else request.model,
        ("gpu", "type"): gpu_spec.key if gpu_spec else request.gpu,
        ("gpu", "count"): request.count,
    }
    if reference is not None and gpu_spec is None:
        notes.append(
            f"GPU {request.gpu!r} is not in reference/gpus.yaml: add it there with its source, "
            f"or validation fails (known: {', '.join(sorted(reference.gpus))})"
        )
    if gpu_spec is not None and request.status != "published":
        # Never a default: the author states what their GPUs had (a variant the reference data does
        # not list yet has another size). The placeholder says what the reference data knows.
        sizes = " or ".join(f"{size:g}" for size in gpu_spec.memory_options)
        values[("gpu", "memory_gb")] = (
            f"{PLACEHOLDER}: Memory of one GPU in the vendor's GB, as your GPUs have it "
            f"(reference/gpus.yaml lists {sizes} GB for {gpu_spec.key})"
        )
    instance_spec = None
    if request.instance is not None:
        if request.instance.strip().lower() == NO_INSTANCE:
            values[("gpu", "instance")] = None
        else:
            instance_spec = reference.instance(request.instance) if reference else None
            values[("gpu", "instance")] = instance_spec.key if instance_spec else request.instance
            if reference is not None and instance_spec is None:
                notes.append(
                    f"instance {request.instance!r} is not in reference/instances.yaml: add it there with its "
                    "price and source, or validation fails"
                )
    if request.per_node is not None:
        values[("gpu", "per_node")] = request.per_node
    elif instance_spec is not None:
        values[("gpu", "per_node")] = instance_spec.gpus
    return values, notes


def create(root: Path, request: NewRecipe) -> tuple[Path, list[str]]:
    """Write the new recipe; its path and notes for the author. ValueError (one line) when it cannot be."""
    name = request.name.removesuffix(RECIPE_SUFFIX)
    problem = segment_problem(name)
    if problem:
        raise ValueError(f"--name {request.name!r}: {problem}")
    schema = Schema.load(root / SCHEMA_RELATIVE_PATH)
    reference, _ = load_reference(root)  # broken reference data: no spelling help, validate reports it
    values, notes = given_values(request, reference)
    # Written later, never in a new recipe: a deprecation when it is retired, disagreements when an
    # import finds the publisher's figures disagree.
    leave_out = [("deprecation",), ("disagreements",)]
    data = skeleton(schema.document, values, core_only=request.status == "published", leave_out=leave_out)
    _check_given(schema, data, values)
    model_folder, gpu_folder = slug(values[("model",)]), slug(values[("gpu", "type")])
    relative = f"{RECIPES_DIR}/{model_folder}/{gpu_folder}/{name}{RECIPE_SUFFIX}"
    path = root / relative
    if path.exists() or path.is_symlink():
        raise ValueError(f"{relative} already exists; choose another --name, or edit that file")
    taken = [other for other in path.parent.glob("*") if other.name.casefold() == path.name.casefold()]
    if taken:
        raise ValueError(f"{taken[0].relative_to(root).as_posix()} differs only in letter case; choose another --name")
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("x", encoding="utf-8", newline="\n") as handle:  # "x": never overwrite, even in a race
        handle.write(recipe_text(data, relative))
    return path, notes


def _check_given(schema: Schema, data: dict[str, Any], values: dict[FieldPath, Any]) -> None:
    """A value given on the command line that the schema refuses is refused now, naming the option."""
    for problem in schema.problems(data, SourceMap(), "new"):
        for path, option in OPTIONS.items():
            if problem.where == json_path(path) and path in values and not is_placeholder(values[path]):
                raise ValueError(f"{option} {values[path]!r}: {problem.message}")
