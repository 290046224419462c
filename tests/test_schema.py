"""The schema is the contributors' reference: complete, described, strict, and in step with the code."""

from __future__ import annotations

import dataclasses
import re
import types
import typing
from collections.abc import Iterator
from typing import Any

import pytest
import yaml
from conftest import REPO, SEED_PATH

from openrecipes import records
from openrecipes.schema import Schema, resolve

SCHEMA = yaml.safe_load((REPO / "schema/recipe.schema.yaml").read_text(encoding="utf-8"))


def _resolve(node: dict[str, Any]) -> dict[str, Any]:
    return resolve(node, SCHEMA)


def _objects(node: dict[str, Any], path: str = "$") -> Iterator[tuple[str, dict[str, Any]]]:
    node = _resolve(node)
    if "properties" in node:
        yield path, node
        for name, child in node["properties"].items():
            yield from _objects(child, f"{path}.{name}")
    if "items" in node:
        yield from _objects(node["items"], f"{path}[]")


def test_every_property_has_a_description_and_every_object_refuses_unknown_keys() -> None:
    for path, node in _objects(SCHEMA):
        assert node.get("additionalProperties") is False, path
        for name, child in node["properties"].items():
            assert child.get("description"), f"{path}.{name} has no description"


def test_records_mirror_the_schema_field_for_field() -> None:
    def check(cls: type, node: dict[str, Any], path: str) -> None:
        node = _resolve(node)
        fields = {field.name: field for field in dataclasses.fields(cls)}
        assert set(fields) == set(node["properties"]), path
        required = set(node.get("required", ()))
        hints = typing.get_type_hints(cls)
        for name, field in fields.items():
            has_default = field.default is not dataclasses.MISSING or field.default_factory is not dataclasses.MISSING
            assert has_default == (name not in required), f"{path}.{name}: optional in one, required in the other"
            annotation = hints[name]
            if typing.get_origin(annotation) in (typing.Union, types.UnionType):
                annotation = next(a for a in typing.get_args(annotation) if a is not type(None))
            child = node["properties"][name]
            if dataclasses.is_dataclass(annotation):
                check(annotation, child, f"{path}.{name}")
            elif typing.get_origin(annotation) is tuple and dataclasses.is_dataclass(typing.get_args(annotation)[0]):
                check(typing.get_args(annotation)[0], _resolve(child)["items"], f"{path}.{name}[]")

    check(records.RecipeFields, SCHEMA, "$")


def test_the_seed_validates_unchanged_including_its_bare_date() -> None:
    from openrecipes.yamlsource import read_document

    document, problems = read_document(SEED_PATH.read_bytes(), "seed")
    assert problems == []
    assert Schema.load(REPO / "schema/recipe.schema.yaml").problems(document.data, document.source_map, "seed") == []


def _patterns(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "pattern":
                yield value
            if key == "patternProperties":
                yield from value
            yield from _patterns(value)
    elif isinstance(node, list):
        for item in node:
            yield from _patterns(item)


@pytest.mark.parametrize("name", ["recipe", "reference"])
def test_no_pattern_ends_with_a_bare_dollar(name: str) -> None:
    # In Python's re (jsonschema's), `$` also matches before a final newline: 'Qwen\n' passes
    # '^[A-Za-z]+$'. `(?![\s\S])`, "nothing follows", means the end in Python and ECMA alike.
    document = yaml.safe_load((REPO / f"schema/{name}.schema.yaml").read_text(encoding="utf-8"))
    for pattern in _patterns(document):
        assert not re.search(r"(?<!\\)\$", pattern), f"{pattern}: end it with (?![\\s\\S]), not $"
        if pattern.startswith("^"):
            assert pattern.endswith(r"(?![\s\S])"), f"{pattern}: anchored at the start, so at the end too"
            assert not re.search(pattern, "a\n"), pattern
