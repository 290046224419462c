"""Bring recipes/ in line with an import: add, change and remove the importer's own files only.

A file is the importer's own when its `source.importer` names it. Every other file is
hand-written (or another importer's): it is never overwritten, even where an import would
write the same id, and never removed. Files are written in one way only (`render`), so the
bytes on disk equal what the import would write exactly when nothing changed, and `--check`
compares bytes.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..loader import RECIPE_SUFFIX, RECIPES_DIR
from ..problems import Problem
from ..reading import yamlwrite
from ..reading.launchsafety import launch_problems
from ..reading.schema import Schema
from ..reading.yamlsource import read_document, read_file
from .common import Import


def header(recipe_id: str, importer: str) -> str:
    return (
        f"# {RECIPES_DIR}/{recipe_id}{RECIPE_SUFFIX}\n"
        f"# Written by `openrecipes import {importer}` from the publisher's table cited in source;\n"
        "# run the import again rather than edit this file (fields: schema/recipe.schema.yaml).\n"
    )


def render(recipe_id: str, data: Mapping[str, Any], importer: str, schema: Mapping[str, Any]) -> str:
    return yamlwrite.dump(yamlwrite.in_schema_order(dict(data), schema), header(recipe_id, importer))


@dataclass
class Changes:
    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    """Ids the import would write where a hand-written recipe is: left as they are."""
    writes: dict[str, str] = field(default_factory=dict)
    """Text to write, by id (added and changed)."""
    problems: list[Problem] = field(default_factory=list)
    """Schema problems of the files the import would write: none is written while there are any."""

    @property
    def differs(self) -> bool:
        return bool(self.added or self.changed or self.removed)


def importer_of(path: Path) -> str | None:
    """The `source.importer` of the recipe at `path`; None when it has none or cannot be read."""
    raw, problem = read_file(path, str(path))
    if raw is None or problem is not None:
        return None
    document, _ = read_document(raw, str(path))
    if document is None or not isinstance(document.data, dict):
        return None
    source = document.data.get("source")
    value = source.get("importer") if isinstance(source, dict) else None
    return value if isinstance(value, str) else None


def existing(root: Path) -> dict[str, Path]:
    """Every recipe file under recipes/, by id (no links are followed)."""
    recipes = root / RECIPES_DIR
    found = {}
    for folder, folders, files in os.walk(recipes):
        folders.sort()
        for name in sorted(files):
            if name.endswith(RECIPE_SUFFIX):
                path = Path(folder) / name
                found[path.relative_to(recipes).as_posix().removesuffix(RECIPE_SUFFIX)] = path
    return found


def plan(root: Path, imported: Import, schema: Schema) -> Changes:
    changes = Changes()
    on_disk = existing(root)
    owners = {recipe_id: importer_of(path) for recipe_id, path in on_disk.items()}
    wanted = {recipe.id for recipe in imported.recipes}
    for recipe in sorted(imported.recipes, key=lambda planned: planned.id):
        text = render(recipe.id, recipe.data, imported.importer, schema.document)
        changes.problems += _problems(recipe.id, text, schema)
        path = on_disk.get(recipe.id)
        if path is None:
            changes.added.append(recipe.id)
            changes.writes[recipe.id] = text
        elif owners[recipe.id] != imported.importer:
            changes.kept.append(recipe.id)
        elif path.read_bytes() == text.encode("utf-8"):
            changes.unchanged.append(recipe.id)
        else:
            changes.changed.append(recipe.id)
            changes.writes[recipe.id] = text
    changes.removed = sorted(
        recipe_id
        for recipe_id, owner in owners.items()
        if owner == imported.importer and recipe_id not in wanted and imported.owns(recipe_id)
    )
    return changes


def _problems(recipe_id: str, text: str, schema: Schema) -> list[Problem]:
    """The file read back as the site reads it, against the schema and the rules of launch text and
    checkouts: an import never writes an invalid recipe, nor a launch that would run hidden code."""
    display = f"{RECIPES_DIR}/{recipe_id}{RECIPE_SUFFIX}"
    document, problems = read_document(text.encode("utf-8"), display)
    if document is None:
        return problems
    problems += schema.problems(document.data, document.source_map, display, refused=problems)
    return [*problems, *launch_problems(document.data, document.source_map, display, lambda: text, refused=problems)]


def apply(root: Path, changes: Changes) -> None:
    if changes.problems:
        raise ValueError("an import with schema problems is not written")
    recipes = root / RECIPES_DIR
    for recipe_id, text in changes.writes.items():
        path = recipes / f"{recipe_id}{RECIPE_SUFFIX}"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
    for recipe_id in changes.removed:
        path = recipes / f"{recipe_id}{RECIPE_SUFFIX}"
        path.unlink()
        for folder in (path.parent, path.parent.parent):  # <gpu>/ and <model>/, when now empty
            if folder != recipes and not any(folder.iterdir()):
                folder.rmdir()
