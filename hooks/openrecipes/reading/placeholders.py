"""Placeholders: the `FILL IN` values `openrecipes new` writes, and the check that none is left.

Every load runs `placeholder_problems`: text ones would pass the schema, so the loader refuses any
value starting with `FILL IN` (in every field, even where the schema would accept it as a string)
and says what belongs there, from the field's description, type and the conditions that require it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from ..problems import Problem, json_path
from .refs import resolve
from .schema import first_sentence
from .yamlsource import SourceMap

PLACEHOLDER = "FILL IN"

Node = Mapping[str, Any]
FieldPath = tuple[str | int, ...]


def is_placeholder(value: Any) -> bool:
    return isinstance(value, str) and value.lstrip().startswith(PLACEHOLDER)


class SchemaWalker:
    """Resolves `$ref`s and finds the schema node that describes a place in a recipe."""

    def __init__(self, document: Node) -> None:
        self.document = document

    def resolve(self, node: Node) -> Node:
        return resolve(node, self.document)

    def child(self, node: Node, key: str | int) -> Node | None:
        node = self.resolve(node)
        if isinstance(key, int):
            items = node.get("items")
            return self.resolve(items) if isinstance(items, Mapping) else None
        if key in node.get("properties", {}):
            return self.resolve(node["properties"][key])
        for pattern, child in node.get("patternProperties", {}).items():
            if re.search(pattern, key):
                return self.resolve(child)
        return None


def schema_types(node: Node) -> list[str]:
    declared = node.get("type", [])
    return list(declared) if isinstance(declared, list) else [declared]


def _bound(node: Node) -> str:
    parts = []
    for keyword, relation in (("minimum", "≥"), ("exclusiveMinimum", ">"), ("maximum", "≤"), ("exclusiveMaximum", "<")):
        if keyword in node:
            parts.append(f"{relation} {node[keyword]:,}")
    return " and ".join(parts)


def expected(node: Node, walker: SchemaWalker) -> str:
    """What a value of `node` looks like, in words: `an integer ≥ 1`, `one of 'bf16', 'fp16'`."""
    node = walker.resolve(node)
    types = schema_types(node)
    nullable = "null" in types
    suffix = ", or null" if nullable else ""
    if "const" in node:
        return repr(node["const"])
    if "enum" in node:
        options = [option for option in node["enum"] if option is not None]
        text = "one of " + ", ".join(repr(option) for option in options)
        return text + (", or null" if nullable or None in node["enum"] else "")
    kind = next((t for t in types if t != "null"), "")
    if kind == "integer":
        return f"an integer {_bound(node)}".rstrip() + suffix
    if kind == "number":
        return f"a number {_bound(node)}".rstrip() + suffix
    if kind == "boolean":
        return "true or false" + suffix
    if kind == "string":
        if node.get("format") == "date":
            return "an ISO date (YYYY-MM-DD)" + suffix
        return "text" + suffix
    if kind == "array":
        items = node.get("items", {})
        count = node.get("minItems") if node.get("minItems") == node.get("maxItems") else None
        what = expected(items, walker) if isinstance(items, Mapping) else "values"
        return (f"a list of {count} values, each {what}" if count else f"a list, each item {what}") + suffix
    if kind == "object":
        if "patternProperties" in node and "properties" not in node:
            return "a mapping of NAME: 'value' ({} for none)"
        return "a mapping" + suffix
    return "a value"


def conditional_requirements(
    document: Node, values: Mapping[str, Any], walker: SchemaWalker
) -> dict[FieldPath, set[str]]:
    """The keys the schema's `allOf` conditions require when the recipe's top-level fields have
    `values` (schema_version 2: `source`), by the path of the object that must hold them."""
    required: dict[FieldPath, set[str]] = {}

    def collect(node: Node, path: FieldPath) -> None:
        node = walker.resolve(node)
        if node.get("required"):
            required.setdefault(path, set()).update(node["required"])
        for name, child in node.get("properties", {}).items():
            collect(child, (*path, name))

    for condition in document.get("allOf", ()):
        expected = condition.get("if", {}).get("properties", {})
        if expected and all(values.get(key) == rule.get("const") for key, rule in expected.items()):
            collect(condition.get("then", {}), ())
    return required


def placeholder_problems(data: Any, source_map: SourceMap, display_path: str, document: Node) -> list[Problem]:
    """Every placeholder left in `data`, each with what to write instead."""
    if not _has_placeholder(data):
        return []  # the common case, kept cheap: no schema walk for a finished recipe
    walker = SchemaWalker(document)
    conditions = {key: value for key, value in data.items() if not isinstance(value, (dict, list))}
    conditional = conditional_requirements(document, conditions, walker)
    problems = []
    for path, node, alternative in _placeholders(data, walker.resolve(document), (), walker, None, conditional):
        what = first_sentence(node.get("description", "")) if node else ""
        message = "placeholder not filled in: " + (f"{what}. " if what else "")
        message += f"Write {expected(node, walker) if node else 'a value'}"
        if alternative:
            message += f", {alternative}"
        hint = node.get("x-hint") if node else None
        if hint:  # the schema's own advice for the field (how to quote a version, what a SHA-256 looks like)
            message += f". {hint}"
        position = source_map.value_at(path)
        problems.append(Problem(display_path, position.line, position.column, json_path(path), message))
    return problems


def _has_placeholder(data: Any) -> bool:
    # A loop over an explicit stack: this runs on every recipe of every build, so it avoids generators.
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, str) and value.lstrip().startswith(PLACEHOLDER):
            return True
    return False


def _placeholders(
    value: Any,
    node: Node | None,
    path: FieldPath,
    walker: SchemaWalker,
    alternative: str | None,
    conditional: Mapping[FieldPath, set[str]],
) -> Iterator[tuple[FieldPath, Node | None, str | None]]:
    """(path, schema node, the nearest way out other than filling it in) of every placeholder."""
    if isinstance(value, dict):
        required = set(node.get("required", ())) if node else set()
        required |= conditional.get(path, set())
        for key, item in value.items():
            child = walker.child(node, key) if node else None
            item_path = (*path, key)
            optional = node is not None and "properties" in node and key not in required
            way_out = _alternative(item, child, item_path, optional) or alternative
            yield from _placeholders(item, child, item_path, walker, way_out, conditional)
    elif isinstance(value, list):
        child = walker.child(node, 0) if node else None
        for index, item in enumerate(value):
            item_path = (*path, index)
            inner = f"or remove the item {json_path(item_path)}" if isinstance(item, dict) else alternative
            yield from _placeholders(item, child, item_path, walker, inner, conditional)
    elif is_placeholder(value):
        yield path, node, alternative


def _alternative(value: Any, node: Node | None, path: FieldPath, optional: bool) -> str | None:
    if optional:
        if isinstance(value, (dict, list)):
            return f"or delete {json_path(path)}: it is optional"
        return "or delete the line: the field is optional"
    if node is not None and isinstance(value, dict) and "null" in schema_types(node):
        return f"or set {json_path(path)} to null"
    return None
