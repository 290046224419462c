"""The schema is the contributors' reference: complete, described, strict, and in step with the code."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Iterator
from typing import Any

import pytest
import yaml
from conftest import REPO, SEED_PATH

from openrecipes.reading import records
from openrecipes.reading.refs import resolve
from openrecipes.reading.schema import Schema

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


def test_records_are_made_from_the_schema_with_absent_fields_none() -> None:
    from openrecipes.reading.yamlsource import read_document

    schema = Schema.load(REPO / "schema/recipe.schema.yaml")
    document, _ = read_document(SEED_PATH.read_bytes(), "seed")
    fields = schema.record(document.data)

    def check(record: Any, node: dict[str, Any], data: Any, path: str) -> None:
        node = _resolve(node)
        assert dataclasses.is_dataclass(record), path
        assert [name for name, _ in records.items(record)] == list(node["properties"]), path
        for name, child in node["properties"].items():
            value = getattr(record, name)
            assert records.given(record, name) == (name in data), f"{path}.{name}"
            if name not in data:
                assert value is None, f"{path}.{name}: absent in the file, so None"
            elif "properties" in _resolve(child) and data[name] is not None:
                check(value, child, data[name], f"{path}.{name}")

    check(fields, SCHEMA, document.data, "$")
    assert fields.result.measured == dt.date(2026, 10, 14)
    assert fields.env[0] == ("CUDA_DEVICE_MAX_CONNECTIONS", "1")
    assert fields.result.window == (5, 19)
    with pytest.raises(dataclasses.FrozenInstanceError):
        fields.model = "other"  # type: ignore[misc]


def test_the_seed_validates_unchanged_including_its_bare_date() -> None:
    from openrecipes.reading.yamlsource import read_document

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
