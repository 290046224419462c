"""Typed, immutable recipe records, made from the schema itself.

schema/recipe.schema.yaml is the single source of truth for the fields: the record classes are
frozen dataclasses built from it (one class per object in the schema, a field per property), so a
field added to the schema is a field of the record, with nothing else to keep in step.

Records are built from data that has already passed the schema. A property the file leaves out is
`None`: absent, never a default, so a page can say "not published" instead of showing a zero.
Lists become tuples; a mapping of free names (the environment) becomes (name, value) pairs in
the order written; ISO dates become `datetime.date`.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .refs import resolve

Build = Callable[[Any], Any]
GIVEN = "_given"
"""Each record's set of the properties the file wrote, so that an explicit `null` ("none") can be
told apart from a property left out ("not published")."""


@dataclass(frozen=True, slots=True)
class Recipe:
    """One recipe: where it lives and what it says."""

    id: str
    """`<model>/<gpu>/<name>`: the file's path under recipes/ without `.yaml`."""
    path: str
    """The file's path relative to the project root, e.g. `recipes/<id>.yaml`."""
    fields: Any
    """Everything the file says, as the schema's record classes (see `record_builder`)."""


def record_builder(document: Mapping[str, Any]) -> Build:
    """A function turning schema-valid data into records, for the schema `document`.

    Worked out once per schema: classes and converters are made here, so building a record is a
    few dictionary look-ups and constructor calls per object.
    """
    return _builder(document, document, "RecipeFields")


def _class_name(key: str) -> str:
    return "".join(part.capitalize() for part in re.split(r"[^A-Za-z0-9]+", key) if part) or "Record"


def _identity(value: Any) -> Any:
    return value


def _builder(root: Mapping[str, Any], node: Mapping[str, Any], name: str) -> Build:
    node = resolve(node, root)
    kinds = node.get("type")
    kinds = set(kinds if isinstance(kinds, list) else [kinds])
    if "object" in kinds and "properties" in node:
        return _object_builder(root, node, name)
    if "object" in kinds and "patternProperties" in node:
        # Free names (environment variables): ordered (name, value) pairs, as written.
        return lambda value: None if value is None else tuple((str(k), str(v)) for k, v in value.items())
    if "array" in kinds and "items" in node:
        item = _builder(root, node["items"], name.removesuffix("s") or name)
        return lambda value: None if value is None else tuple(item(element) for element in value)
    if node.get("format") == "date":
        return lambda value: dt.date.fromisoformat(value) if isinstance(value, str) else value
    return _identity


def _object_builder(root: Mapping[str, Any], node: Mapping[str, Any], name: str) -> Build:
    properties: Mapping[str, Any] = node["properties"]
    fields = {key: _builder(root, child, _class_name(key)) for key, child in properties.items()}
    cls = dataclasses.make_dataclass(
        name,
        [
            *((key, Any, dataclasses.field(default=None)) for key in properties),
            (GIVEN, frozenset, dataclasses.field(default=frozenset(), repr=False)),
        ],
        frozen=True,
        slots=True,
        kw_only=True,
    )
    cls.__module__ = __name__
    cls.__doc__ = str(node.get("description", "")).strip() or None

    def build(value: Any) -> Any:
        if value is None:
            return None
        return cls(**{key: fields[key](item) for key, item in value.items()}, **{GIVEN: frozenset(value)})

    build.record_class = cls  # type: ignore[attr-defined]
    return build


def given(record: Any, name: str) -> bool:
    """Whether the file wrote property `name` of `record` (`null` included)."""
    return record is not None and name in getattr(record, GIVEN)


def items(record: Any) -> list[tuple[str, Any]]:
    """The record's schema properties and their values, in the schema's order."""
    return [(field.name, getattr(record, field.name)) for field in dataclasses.fields(record) if field.name != GIVEN]
