"""The recipe schema as reference tables, generated from its descriptions so the docs never drift."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from ..reading.refs import resolve


@dataclass(frozen=True)
class FieldDoc:
    name: str
    type: str
    required: bool
    description: str
    constraints: str


@dataclass(frozen=True)
class Section:
    path: Markup
    """`recipe.gpu`: a heading in the page's table of contents, so text of ours, checked to be plain."""
    description: str
    fields: tuple[FieldDoc, ...]


def schema_sections(schema: Mapping[str, Any]) -> list[Section]:
    """One section per object in the schema, depth first, each field with its type and rules."""
    return list(_sections(schema, schema, "recipe"))


def _sections(root: Mapping[str, Any], node: Mapping[str, Any], path: str) -> Iterator[Section]:
    node = resolve(node, root)
    properties = node.get("properties", {})
    required = set(node.get("required", ()))
    fields = []
    children = []
    for name, child in properties.items():
        child = resolve(child, root)
        fields.append(FieldDoc(name, _type(root, child), name in required, child.get("description", ""), _rules(child)))
        if "properties" in child:
            children.append((child, f"{path}.{name}"))
        elif "items" in child and "properties" in resolve(child["items"], root):
            children.append((child["items"], f"{path}.{name}[]"))
    if node.get("patternProperties"):
        for pattern, child in node["patternProperties"].items():
            child = resolve(child, root)
            fields.append(
                FieldDoc(f"names matching {_readable(pattern)}", _type(root, child), False, "", _rules(child))
            )
    if not re.fullmatch(r"[a-z_][a-z0-9_.\[\]]*", path):
        raise ValueError(f"schema path {path!r} is not a plain field path")
    yield Section(Markup(path), node.get("description", ""), tuple(fields))
    for child, child_path in children:
        yield from _sections(root, child, child_path)


def _type(root: Mapping[str, Any], node: Mapping[str, Any]) -> str:
    if "const" in node:
        return f"always {node['const']!r}"
    kinds = node.get("type", "any")
    kinds = kinds if isinstance(kinds, list) else [kinds]
    names = []
    for kind in kinds:
        if kind == "array" and "items" in node:
            names.append(f"list of {_type(root, resolve(node['items'], root))}")
        elif kind == "object":
            names.append("mapping")
        else:
            names.append(str(kind))
    return " or ".join(names)


def _rules(node: Mapping[str, Any]) -> str:
    rules = []
    if "enum" in node:
        rules.append("one of " + ", ".join("null" if value is None else str(value) for value in node["enum"]))
    for keyword, text in (
        ("minimum", "≥ {}"),
        ("exclusiveMinimum", "> {}"),
        ("maximum", "≤ {}"),
        ("exclusiveMaximum", "< {}"),
        ("minItems", "at least {} items"),
        ("maxItems", "at most {} items"),
        ("maxLength", "at most {} characters"),
    ):
        if keyword in node:
            rules.append(text.format(node[keyword]))
    if node.get("format") == "date":
        rules.append("ISO date (YYYY-MM-DD)")
    if "pattern" in node and node["pattern"] != "\\S":
        rules.append(f"matches {_readable(node['pattern'])}")
    return "; ".join(rules)


_WHOLE = ("^", "(?![\\s\\S])")


def _readable(pattern: str) -> str:
    """`^[a-f]+(?![\\s\\S])` as `[a-f]+ (the whole value)`: the anchors are there for machines."""
    start, end = _WHOLE
    if pattern.startswith(start) and pattern.endswith(end):
        return f"{pattern[len(start) : -len(end)]} (the whole value)"
    return pattern
