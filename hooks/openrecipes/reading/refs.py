"""Local JSON Schema references (`$ref: '#/$defs/x'`), resolved the one way every reader of the schema needs."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def resolve(node: Mapping[str, Any], document: Mapping[str, Any]) -> dict[str, Any]:
    """`node` with its local `$ref` replaced by the target; keywords beside the `$ref` (a
    description, a maxLength) refine the target."""
    node = dict(node)
    while "$ref" in node:
        target: Any = document
        for part in node.pop("$ref").removeprefix("#/").split("/"):
            target = target[part]
        node = {**target, **node}
    return node


def inline_refs(node: Any, document: Mapping[str, Any]) -> Any:
    """`node` with every local `$ref` replaced by what it points at (our schemas are not recursive)."""
    if isinstance(node, list):
        return [inline_refs(item, document) for item in node]
    if not isinstance(node, dict):
        return node
    node = resolve(node, document)
    return {key: (value if key in ("enum", "const") else inline_refs(value, document)) for key, value in node.items()}
