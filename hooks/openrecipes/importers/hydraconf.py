"""A Hydra/OmegaConf YAML configuration of a publisher's, read as data: never loaded by OmegaConf, nothing run.

MLPerf's NeMo implementations compute their global batch and sequence length in YAML
(`global_batch_size: ${multiply:${oc.decode:${oc.env:MINIBS}},${floor_div:…}}`) from the variables
the `config_*.sh` a result ran exports. This module reads such a configuration far enough to give
one key's value:

- **Which files.** The primary config (`conf/<name>.yaml`, as the training script's
  `hydra.main`/`hydra_runner` names it), and each plain entry of its `defaults:` list
  (`- custom` is `conf/custom.yaml`, merged at the root). A group entry (`- data_prefix@model.data…:
  x`) is left out. A key two files write differently is ambiguous: not known.
- **Which values.** A scalar as YAML writes it, or an interpolation: `${a.b}` (another key),
  `${oc.env:NAME,default}` (the environment, given by the caller), `${oc.decode:…}` (a string
  read as a number, a boolean or null), and the resolvers the training script registers with a
  `lambda` (`OmegaConf.register_new_resolver("floor_div", lambda x, y: x // y)`, evaluated from
  its expression) or NeMo registers itself (`multiply`, x × y, `NEMO_RESOLVERS`).

Anything else (a resolver neither registers, a relative reference, a text mixing interpolations)
is not known, with why. Every value says the file and line it is written at.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import yaml


@dataclass(frozen=True)
class Written:
    """A key's value as a file writes it."""

    text: Any
    path: str
    line: int


@dataclass(frozen=True)
class Resolved:
    """A value, or why it is not known (`known` False)."""

    value: Any
    known: bool = True
    why: str = ""


def not_known(why: str) -> Resolved:
    return Resolved(None, False, why)


NEMO_RESOLVERS: dict[str, Callable[..., Any]] = {"multiply": lambda x, y: x * y}
"""Resolvers NeMo registers itself (nemo/core/config), which an implementation uses without registering."""

Env = Callable[[str], Resolved | None]
"""NAME -> its value (a string) as the run's environment holds it; None when the environment does
not hold it (the default applies); not known where that cannot be told."""


def flatten(path: str, text: str) -> dict[str, Written]:
    """Every scalar of a YAML file by its dotted key, with its line; `defaults` left out."""
    loader = yaml.SafeLoader(text)
    try:
        root = loader.get_single_node()
    finally:
        loader.dispose()
    found: dict[str, Written] = {}

    def walk(node: yaml.Node, prefix: str) -> None:
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                if isinstance(key, yaml.ScalarNode) and not (not prefix and key.value == "defaults"):
                    walk(value, f"{prefix}{key.value}.")
        elif isinstance(node, yaml.ScalarNode):
            # The composer resolved its implicit tag (int, bool, null, str): build the scalar by it.
            found[prefix[:-1]] = Written(loader.construct_object(node), path, node.start_mark.line + 1)

    if root is not None:
        walk(root, "")
    return found


def defaults(text: str) -> list[str]:
    """The plain entries of a config's `defaults:` list (`custom`), `_self_` and groups left out."""
    data = yaml.safe_load(text) or {}
    entries = data.get("defaults", []) if isinstance(data, dict) else []
    return [entry for entry in entries if isinstance(entry, str) and entry != "_self_" and " " not in entry]


@dataclass
class Config:
    """A composed configuration: each key's values as the files write them, and the resolvers."""

    keys: dict[str, list[Written]]
    resolvers: dict[str, Callable[..., Any]]
    env: Env
    primary: str = ""
    defaults_lines: tuple[int, int] | None = None
    """The lines of the primary config's `defaults:` list, which name the other files read."""

    def resolve(self, key: str, depth: int = 0) -> tuple[Resolved, Written | None]:
        """A key's value, resolved, and where it is written."""
        written = self.keys.get(key, [])
        texts = {repr(item.text) for item in written}
        if not written:
            return not_known(f"no file of the configuration writes {key}"), None
        if len(texts) > 1:
            places = ", ".join(f"{item.path} line {item.line}" for item in written)
            return not_known(f"{key} is written differently in {places}"), written[0]
        if depth > 20:
            return not_known(f"{key} refers to itself"), written[0]
        return self.value(written[0].text, depth), written[0]

    def value(self, text: Any, depth: int) -> Resolved:
        if not isinstance(text, str) or "${" not in text:
            return Resolved(text)
        inner = _whole(text)
        if inner is None:
            return not_known(f"{text!r} mixes text and interpolations")
        return self._interpolation(inner, depth + 1)

    def _interpolation(self, inner: str, depth: int) -> Resolved:
        name, colon, rest = inner.partition(":")
        if not colon or "${" in name:
            if inner.startswith(".") or not re.fullmatch(r"[A-Za-z_][\w.]*", inner):
                return not_known(f"the reference ${{{inner}}}")
            return self.resolve(inner, depth)[0]
        args = _split(rest)
        if name == "oc.env":
            found = self.env(args[0].strip())
            if found is not None:
                return found
            if len(args) < 2:
                return not_known(f"{args[0]} is not set, and oc.env gives it no default")
            default = self.value(args[1], depth)
            return Resolved(None if default.value is None else str(default.value)) if default.known else default
        values = [self.value(_literal(arg), depth) for arg in args]
        unknown = next((item for item in values if not item.known), None)
        if unknown is not None:
            return unknown
        if name == "oc.decode":
            return Resolved(_decode(values[0].value))
        function = self.resolvers.get(name)
        if function is None:
            return not_known(f"the resolver {name} is registered by neither the training script nor NeMo")
        try:
            return Resolved(function(*(item.value for item in values)))
        except (TypeError, ValueError, ZeroDivisionError, ArithmeticError):
            return not_known(f"{name} of {', '.join(repr(item.value) for item in values)} fails")


def compose(
    read: Callable[[str], str | None], folder: str, name: str, resolvers: Mapping[str, Callable[..., Any]], env: Env
) -> Config | None:
    """The primary config `folder/name.yaml` and its plain defaults; None when the primary is missing."""
    primary = f"{folder}/{name}.yaml"
    text = read(primary)
    if text is None:
        return None
    keys: dict[str, list[Written]] = {}
    for path in [primary, *(f"{folder}/{entry}.yaml" for entry in defaults(text))]:
        other = text if path == primary else read(path)
        if other is None:
            continue
        for key, written in flatten(path, other).items():
            keys.setdefault(key, []).append(written)
    return Config(keys, {**NEMO_RESOLVERS, **resolvers}, env, primary, _defaults_lines(text))


def _defaults_lines(text: str) -> tuple[int, int] | None:
    loader = yaml.SafeLoader(text)
    try:
        root = loader.get_single_node()
    finally:
        loader.dispose()
    if not isinstance(root, yaml.MappingNode):
        return None
    for key, value in root.value:
        if isinstance(key, yaml.ScalarNode) and key.value == "defaults":
            mark = value.end_mark
            last, lines = mark.line + (0 if mark.column == 0 else 1), text.splitlines()
            while last > key.start_mark.line + 1 and not lines[last - 1].strip():
                last -= 1  # the blank lines before the next key are not the list's
            return key.start_mark.line + 1, last
    return None


def registered_resolvers(path: str, text: str) -> dict[str, tuple[Callable[..., Any], int]]:
    """`OmegaConf.register_new_resolver("name", lambda x, y: …)` calls of a Python file: each
    resolver as a function of its lambda's expression, and its line."""
    found: dict[str, tuple[Callable[..., Any], int]] = {}
    for node in ast.walk(ast.parse(text)):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "register_new_resolver"
            and len(node.args) >= 2
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and isinstance(node.args[1], ast.Lambda)
        ):
            found[node.args[0].value] = (_lambda(node.args[1]), node.lineno)
    return found


def _lambda(node: ast.Lambda) -> Callable[..., Any]:
    names = [argument.arg for argument in node.args.args]

    def call(*values: Any) -> Any:
        return _arithmetic(node.body, dict(zip(names, values, strict=True)))

    return call


_OPERATORS: dict[type[ast.AST], Callable[[Any, Any], Any]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.FloorDiv: lambda a, b: a // b,
    ast.Mod: lambda a, b: a % b,
    ast.Lt: lambda a, b: a < b,
    ast.LtE: lambda a, b: a <= b,
    ast.Gt: lambda a, b: a > b,
    ast.GtE: lambda a, b: a >= b,
    ast.Eq: lambda a, b: a == b,
    ast.NotEq: lambda a, b: a != b,
}


def _arithmetic(node: ast.expr, names: dict[str, Any]) -> Any:
    """A lambda's expression of numbers: + - * / // %, comparisons, `a if c else b`, int(), max(), min()."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return node.value
    if isinstance(node, ast.Name) and node.id in names:
        return names[node.id]
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        return _OPERATORS[type(node.op)](_arithmetic(node.left, names), _arithmetic(node.right, names))
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _OPERATORS:
        return _OPERATORS[type(node.ops[0])](_arithmetic(node.left, names), _arithmetic(node.comparators[0], names))
    if isinstance(node, ast.IfExp):
        return _arithmetic(node.body if _arithmetic(node.test, names) else node.orelse, names)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_arithmetic(node.operand, names)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("int", "max", "min"):
        values = [_arithmetic(argument, names) for argument in node.args]
        return {"int": int, "max": max, "min": min}[node.func.id](*values)
    raise ValueError(f"a resolver's expression this reader does not evaluate: {ast.unparse(node)}")


def _whole(text: str) -> str | None:
    """The inside of `${…}` when the text is exactly one interpolation."""
    if not (text.startswith("${") and text.endswith("}")):
        return None
    depth = 0
    for index, char in enumerate(text):
        if text.startswith("${", index):
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0 and index != len(text) - 1:
                return None
    return text[2:-1]


def _split(text: str) -> list[str]:
    """Resolver arguments, split at the commas outside nested interpolations."""
    parts, depth, current = [], 0, []
    for index, char in enumerate(text):
        if text.startswith("${", index):
            depth += 1
        elif char == "}":
            depth -= 1
        if char == "," and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    parts.append("".join(current))
    return [part.strip() for part in parts]


def _literal(text: str) -> Any:
    """A resolver argument as OmegaConf reads one: an interpolation stays text; else a number,
    a boolean, null or the text."""
    return text if "${" in text else _decode(text)


def _decode(text: Any) -> Any:
    if not isinstance(text, str):
        return text
    value = yaml.safe_load(text) if text.strip() else text
    return value if isinstance(value, (int, float, bool, type(None), str)) else text
