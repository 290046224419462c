"""The one YAML writer for recipe files: `openrecipes new`, the synthetic recipes and the importers.

Written for people who read and diff the files: block style throughout, multi-line text as
literal blocks (launch scripts, excerpts, notes), keys in the order given (`in_schema_order`
puts them in the schema's order), Unicode as itself, lines folded at 100 columns. The output
depends only on the data, so writing the same recipe twice gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import yaml

from .refs import resolve

VERSION_REF = "#/$defs/version"
"""Fields whose schema refers here hold versions: always written quoted ('2.16', '13.2.1.009')."""


class Quoted(str):
    """Text always written in single quotes, even where YAML would read it as text unquoted."""

    __slots__ = ()


class _Dumper(yaml.SafeDumper):
    """Block style throughout, multi-line text as literal blocks."""


def _represent_text(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style="|" if "\n" in text else None)


def _represent_quoted(dumper: yaml.SafeDumper, text: Quoted) -> yaml.ScalarNode:
    return dumper.represent_scalar("tag:yaml.org,2002:str", str(text), style="'")


_Dumper.add_representer(str, _represent_text)
_Dumper.add_representer(Quoted, _represent_quoted)


def dump(data: Mapping[str, Any], header: str = "") -> str:
    """`header` (comment lines, each ending in a newline) followed by `data` as YAML."""
    return header + yaml.dump(dict(data), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)


def in_schema_order(data: Any, schema: Mapping[str, Any], document: Mapping[str, Any] | None = None) -> Any:
    """`data` with every mapping's keys in the order the schema lists them, versions `Quoted`.

    Keys the schema does not list (the names of environment variables) keep their own order,
    after the listed ones; the schema decides what is valid, this only decides the layout.
    """
    document = schema if document is None else document
    node = resolve(schema, document)
    if isinstance(data, Mapping):
        properties: Mapping[str, Any] = node.get("properties", {})
        listed = [key for key in properties if key in data]
        ordered = {}
        for key in [*listed, *(key for key in data if key not in properties)]:
            child = properties.get(key) or _pattern_child(node)
            ordered[key] = in_schema_order(data[key], child, document) if child is not None else data[key]
        return ordered
    if isinstance(data, list):
        items = node.get("items")
        return [in_schema_order(item, items, document) if isinstance(items, Mapping) else item for item in data]
    if isinstance(data, str) and schema.get("$ref") == VERSION_REF:
        return Quoted(data)
    return data


def _pattern_child(node: Mapping[str, Any]) -> Mapping[str, Any] | None:
    patterns = node.get("patternProperties", {})
    return next(iter(patterns.values()), None) if len(patterns) == 1 else None
