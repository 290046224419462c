"""The one YAML writer for recipe files: `openrecipes new`, the synthetic recipes and the importers.

Written for people who read and diff the files: block style throughout, multi-line text as
literal blocks (launch scripts, excerpts, notes), keys in the order given (`in_schema_order`
puts them in the schema's order), Unicode as itself, lines folded at 100 columns. The output
depends only on the data, so writing the same recipe twice gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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


def set_in_place(text: str, section: str, values: Mapping[str, Any], order: Sequence[str]) -> str:
    """`text` with `section`'s keys in `values` set, every other line kept byte for byte.

    For `openrecipes measure --write`: a recipe someone wrote by hand keeps its comments, its
    layout and its other values. A key already there has its lines (the key, its value, not the
    comments after it) replaced; a new key goes where `order` (the schema's order of the
    section's keys) puts it; a missing section is added at the end. `values` are written as
    `dump` writes them. The text must be a block mapping at the top, with `section` (when present)
    a block mapping too: a recipe file is.
    """
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    root = yaml.compose(text, Loader=yaml.SafeLoader)
    if not isinstance(root, yaml.MappingNode) or root.flow_style:
        raise ValueError("the file is not a block mapping")
    block = next((value for key, value in root.value if key.value == section), None)
    if block is None:
        added = dump({section: dict(values)})
        return "".join(lines) + added
    if not isinstance(block, yaml.MappingNode) or block.flow_style or not block.value:
        raise ValueError(f"'{section}' is not a block mapping")
    indent = block.value[0][0].start_mark.column
    present = {key.value: (key, value) for key, value in block.value}
    edits: list[tuple[int, int, str]] = []  # (first line, line after the last, new text), 0-based
    for name, value in values.items():
        rendered = _indented(dump({name: value}), indent)
        if name in present:
            key_node, value_node = present[name]
            edits.append((key_node.start_mark.line, _end_line(value_node, lines), rendered))
            continue
        rank = order.index(name) if name in order else len(order)
        after = [key for key in present if (order.index(key) if key in order else len(order)) > rank]
        if after:
            at = present[after[0]][0].start_mark.line
        else:
            at = max(_end_line(value_node, lines) for _, value_node in block.value)
        edits.append((at, at, rendered))
    for first, stop, rendered in sorted(edits, key=lambda edit: (edit[0], edit[1]), reverse=True):
        lines[first:stop] = [rendered]
    return "".join(lines)


def _indented(block: str, indent: int) -> str:
    return "".join(" " * indent + line if line.strip() else line for line in block.splitlines(keepends=True))


def _end_line(node: yaml.Node, lines: list[str]) -> int:
    """The line after `node`'s last line of content (comments and blank lines after it are not its)."""
    end = node.end_mark.line + (0 if node.end_mark.column == 0 else 1)
    start = node.start_mark.line
    while end - 1 > start and (not lines[end - 1].strip() or lines[end - 1].lstrip().startswith("#")):
        end -= 1
    return end
