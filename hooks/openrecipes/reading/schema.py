"""Validation of recipe data against schema/recipe.schema.yaml, with errors a contributor can act on."""

from __future__ import annotations

import copy
import datetime as dt
import decimal
import difflib
import functools
import re
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import fastjsonschema
import jsonschema
import yaml
from jsonschema import Draft202012Validator

from ..problems import Problem, json_path
from . import envnames, plaintext
from .records import Build, record_builder
from .refs import inline_refs
from .yamlsource import SourceMap

SCHEMA_RELATIVE_PATH = "schema/recipe.schema.yaml"


def _format_checker() -> jsonschema.FormatChecker:
    """Draft 2020-12's formats, and the project's own: `plain-name` and `prose` (plaintext.py),
    `env-name`, `input-name` and `withheld-name` (envnames.py), each refusal raising the reason the
    error message gives."""
    checker = jsonschema.FormatChecker(formats=())
    checker.checkers = dict(Draft202012Validator.FORMAT_CHECKER.checkers)
    for name, problem in (
        ("plain-name", plaintext.name_problem),
        ("prose", plaintext.prose_problem),
        ("env-name", envnames.env_name_problem),
        ("input-name", envnames.input_name_problem),
        ("withheld-name", envnames.withheld_name_problem),
    ):
        checker.checks(name, raises=ValueError)(functools.partial(_rule, problem))
    return checker


def _rule(problem: Callable[[str], str | None], value: Any) -> bool:
    reason = problem(value) if isinstance(value, str) else None
    if reason:
        raise ValueError(reason)
    return True


FORMAT_CHECKER = _format_checker()


@dataclass(frozen=True)
class Schema:
    """A parsed JSON Schema (written in YAML) and a validator for one of its definitions.

    Most recipes are valid, so validation first runs a compiled validator (fastjsonschema, ~15×
    faster) and only when that finds a fault asks jsonschema for every located error. The
    compiled validator checks the same schema with references inlined, and formats with
    jsonschema's own checker, so it never accepts what jsonschema would refuse (a test holds it).

    "integer" means a YAML integer: `8.0` is a float, so not a count of GPUs, though JSON Schema
    since draft 6 calls every whole number an integer. jsonschema gets a type checker that says
    so; the compiled validator gets whole floats as `Decimal`, a number it never calls integer.
    """

    document: Mapping[str, Any]
    validator: Draft202012Validator
    fast: Callable[[Any], Any]
    record: Build
    """Turns data that passed this schema into its records (see records.py)."""

    @classmethod
    def load(cls, path: Path, definition: str | None = None) -> Schema:
        """The schema at `path`; with `definition`, validate against `$defs/<definition>` instead."""
        return cls.from_text(path.read_text(encoding="utf-8"), definition)

    @classmethod
    def from_text(cls, text: str, definition: str | None = None) -> Schema:
        """The schema written in `text` (as `load` reads it from a file)."""
        return cls._compile(text, definition)

    @classmethod
    @functools.lru_cache(maxsize=16)
    def _compile(cls, text: str, definition: str | None) -> Schema:
        # Keyed by the schema's text, so an edited schema is compiled afresh; compiling takes a
        # tenth of a second, and a build needs each schema several times.
        document = _checked_document(text)
        root = document["$defs"][definition] if definition else document
        # References resolved once here rather than on every validation: 3× faster over thousands of recipes.
        inlined = inline_refs(root, document)
        checker = FORMAT_CHECKER
        compiled = {key: value for key, value in inlined.items() if key not in ("$defs", "$schema", "$id")}
        fast = fastjsonschema.compile(
            {"$schema": "http://json-schema.org/draft-07/schema#", **_without_annotations(compiled)},
            formats={name: functools.partial(_conforms, checker, name) for name in checker.checkers},
        )
        validator = _YamlTypesValidator(inlined, format_checker=checker)
        return cls(document, validator, fast, record_builder(inlined))

    def is_valid(self, data: Any) -> bool:
        """Whether `data` (as read from YAML, or already JSON-compatible) is valid: the fast check."""
        try:
            self.fast(to_json_compatible(data, whole_floats=decimal.Decimal))
        except fastjsonschema.JsonSchemaException:
            return False
        return True

    def valid_part(self, data: Any) -> Any:
        """`data` without the values the schema refuses (unknown keys, wrong types, out of bounds),
        so that what is left can still be checked. Missing keys stay missing."""
        pruned = copy.deepcopy(data)
        for _ in range(8):  # removing a value can leave its container invalid: repeat, outermost last
            wrong = [
                error
                for error in self.validator.iter_errors(to_json_compatible(pruned))
                if error.validator != "required"
            ]
            removed = [_remove(pruned, error) for error in wrong]  # every one, not up to the first
            if not any(removed):
                break
        return pruned

    def problems(
        self, data: Any, source_map: SourceMap, display_path: str, refused: Collection[Problem] = ()
    ) -> list[Problem]:
        """Every schema violation in `data`, located in the file and explained.

        Values already `refused` while reading (a tag, a duplicate, a number out of range) are
        not reported again: the schema would only repeat them less clearly.
        """
        if self.is_valid(data):
            return []
        instance = to_json_compatible(data)
        skip = [problem.where for problem in refused if problem.where]
        found = []
        for error in self.validator.iter_errors(instance):
            found.extend(
                problem
                for problem in _explain(error, source_map, display_path, self.validator.schema)
                if not any(_within(problem.where, where) for where in skip)
            )
        return found


@functools.lru_cache(maxsize=4)
def _checked_document(text: str) -> Any:
    """The schema document, checked against its metaschema once per text (not per definition)."""
    document = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    Draft202012Validator.check_schema(document)
    return document


_ANNOTATIONS = frozenset(("description", "title", "examples", "$comment"))
"""Keywords that describe and never validate (with `x-` keywords, which validators ignore)."""


def _without_annotations(node: Any) -> Any:
    """The schema without its words: fastjsonschema writes each subschema, descriptions and all,
    into the code it generates for every error, and Python then takes twice as long to compile it.
    Only keywords go (a property may itself be named `description`), never what `enum` or `const`
    hold."""
    if isinstance(node, list):
        return [_without_annotations(item) for item in node]
    if not isinstance(node, dict):
        return node
    kept = {}
    for key, value in node.items():
        if key in ("enum", "const"):
            kept[key] = value
        elif key in ("properties", "patternProperties", "$defs"):
            kept[key] = {name: _without_annotations(child) for name, child in value.items()}
        elif not (key in _ANNOTATIONS or key.startswith("x-")):
            kept[key] = _without_annotations(value)
    return kept


def _remove(data: Any, error: jsonschema.ValidationError) -> bool:
    """Take the value `error` is about out of `data`; whether anything was removed."""
    path = list(error.absolute_path)
    if "propertyNames" in error.absolute_schema_path and isinstance(error.instance, str):
        path.append(error.instance)  # a refused key, reported at the mapping: the key goes, not the mapping
    container = data
    for part in path[:-1]:
        try:
            container = container[part]
        except (KeyError, IndexError, TypeError):
            return False
    if error.validator in ("additionalProperties", "not"):
        target = container[path[-1]] if path else data
        if not isinstance(target, dict):
            return False
        if error.validator == "additionalProperties":
            names = _unexpected_keys(target, error.schema)
        else:
            names = [name for name in error.validator_value.get("required", ()) if name in target]
        for name in names:
            del target[name]
        return bool(names)
    if not path:
        return False
    try:
        del container[path[-1]]
    except (KeyError, IndexError, TypeError):
        return False
    return True


def _within(path: str, ancestor: str) -> bool:
    return path == ancestor or path.startswith((ancestor + ".", ancestor + "["))


def _conforms(checker: jsonschema.FormatChecker, name: str, value: Any) -> bool:
    return checker.conforms(value, name)


def _is_yaml_integer(checker: Any, instance: Any) -> bool:
    return isinstance(instance, int) and not isinstance(instance, bool)


_YamlTypesValidator = jsonschema.validators.extend(
    Draft202012Validator,
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_yaml_integer),
)


def to_json_compatible(value: Any, *, whole_floats: Callable[[float], Any] = float) -> Any:
    """YAML dates become ISO strings, as JSON Schema's `format: date` expects; whole floats
    (8.0) become `whole_floats(value)`."""
    if isinstance(value, dict):
        return {key: to_json_compatible(item, whole_floats=whole_floats) for key, item in value.items()}
    if isinstance(value, list):
        return [to_json_compatible(item, whole_floats=whole_floats) for item in value]
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return whole_floats(value)
    return value


def _property(root: Mapping[str, Any], path: tuple) -> Mapping[str, Any]:
    """The schema of the property at `path` (list indexes step into `items`), or {}."""
    node: Any = root
    for part in path:
        if not isinstance(node, Mapping):
            return {}
        node = node.get("items", {}) if isinstance(part, int) else node.get("properties", {}).get(part, {})
    return node if isinstance(node, Mapping) else {}


def _explain(
    error: jsonschema.ValidationError, source_map: SourceMap, display_path: str, root: Mapping[str, Any]
) -> Iterator[Problem]:
    path = tuple(error.absolute_path)
    schema = error.schema if isinstance(error.schema, Mapping) else {}
    # A key refused by the mapping's `propertyNames` rule: jsonschema reports it at the mapping,
    # with the key as the instance; it is pointed at where the key is written.
    names_key = "propertyNames" in error.absolute_schema_path and isinstance(error.instance, str)
    if names_key:
        path = (*path, error.instance)

    def at(location_path: tuple, message: str, *, key: bool = False) -> Problem:
        position = source_map.key_at(location_path) if key or names_key else source_map.value_at(location_path)
        return Problem(display_path, position.line, position.column, json_path(location_path), message)

    if error.validator == "additionalProperties":
        allowed = sorted(schema.get("properties", {}))
        patterns = list(schema.get("patternProperties", {}))
        for name in _unexpected_keys(error.instance, schema):
            if patterns and not allowed:
                hint = schema.get("x-hint")
                rule = f". {hint}" if hint else f"; names match {' or '.join(patterns)}"
                yield at((*path, name), f"{name!r} is not a valid name here{rule}", key=True)
                continue
            message = f"unknown key {name!r}"
            close = difflib.get_close_matches(name, allowed, n=1, cutoff=0.6)
            if close:
                message += f"; did you mean {close[0]!r}?"
            message += " Allowed keys: " + ", ".join(allowed)
            yield at((*path, name), message, key=True)
        return

    if error.validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        # A key a condition requires (schema version 1) is described where the property is.
        description = _property(root, (*path, missing)).get("description", "")
        message = f"missing required key {missing!r}"
        if description:
            message += f" ({first_sentence(description, 120)})"
        yield at(path, message, key=True)
        return

    if error.validator == "not" and isinstance(error.validator_value, Mapping) and schema.get("x-message"):
        # A key written where a condition forbids it: pointed at, with the schema's own words.
        names = [name for name in error.validator_value.get("required", ()) if name in (error.instance or {})]
        where = (*path, names[0]) if names else path
        yield at(where, schema["x-message"], key=bool(names))
        return

    shown = _shown_value(error.instance, () if names_key else path, source_map)
    if error.validator == "type":
        expected = error.validator_value
        expected_text = " or ".join(repr(t) for t in expected) if isinstance(expected, list) else repr(expected)
        message = f"{shown} is not of type {expected_text}"
        hint = _type_hint(error.instance, expected, path, source_map) or schema.get("x-hint")
    elif error.validator == "enum":
        options = [option for option in error.validator_value if option is not None]
        message = f"{shown} is not one of " + ", ".join(repr(option) for option in options)
        if isinstance(error.instance, str):
            close = difflib.get_close_matches(error.instance, [str(o) for o in options], n=1, cutoff=0.6)
            if close:
                message += f"; did you mean {close[0]!r}?"
        if None in error.validator_value:
            message += ", or null"
        hint = schema.get("x-hint")
    elif error.validator == "const":
        message = f"{shown} is not allowed here; the value must be {error.validator_value!r}"
        hint = schema.get("x-hint")
    elif error.validator == "format" and error.validator_value == "date":
        message = f"{shown} is not an ISO date; write it as YYYY-MM-DD (2026-10-14)"
        hint = None
    elif error.validator == "format" and error.cause is not None:
        message = f"{shown} {error.cause}"
        hint = schema.get("x-hint")
    elif error.validator == "maximum" and error.validator_value == 1 and _is_number(error.instance):
        message = f"{shown} is greater than 1; this is a fraction: did you mean {error.instance / 100:g}?"
        hint = schema.get("x-hint")
    elif error.validator in _BOUNDS and _is_number(error.instance):
        message = f"{shown} is {_BOUNDS[error.validator]} {error.validator_value:,}"
        # A count below 1 or a size below 0 needs no reason; the plausible limits do.
        obvious = error.validator in ("minimum", "exclusiveMinimum") and error.validator_value in (0, 1)
        hint = schema.get("x-hint") if obvious else schema.get("x-limit") or schema.get("x-hint")
    elif error.validator in ("minItems", "maxItems") and isinstance(error.instance, list):
        bound = "at least" if error.validator == "minItems" else "at most"
        count = len(error.instance)
        message = f"{shown} has {count} item{'s' if count != 1 else ''}; expected {bound} {error.validator_value}"
        hint = schema.get("x-hint")
    elif error.validator == "pattern":
        message = f"{shown} does not have the expected form"
        hint = schema.get("x-hint") or f"It must match the pattern {error.validator_value}."
    else:
        message = error.message if not shown else error.message.replace(repr(error.instance), shown, 1)
        hint = schema.get("x-hint")
    if hint:
        message += f". {hint}" if not message.endswith((".", "?")) else f" {hint}"
    yield at(path, message)


_BOUNDS = {
    "minimum": "less than the minimum of",
    "exclusiveMinimum": "less than or equal to the minimum of",
    "maximum": "greater than the maximum of",
    "exclusiveMaximum": "greater than or equal to the maximum of",
}


def _unexpected_keys(instance: Any, schema: Mapping[str, Any]) -> list[str]:
    properties = schema.get("properties", {})
    patterns = [re.compile(p) for p in schema.get("patternProperties", {})]
    return [key for key in instance if key not in properties and not any(pattern.search(key) for pattern in patterns)]


def _shown_value(instance: Any, path: tuple, source_map: SourceMap) -> str:
    """The value as the author wrote it when YAML changed it (1.10 read as 1.1), else its repr."""
    written = source_map.scalar_text.get(path)
    if written is not None and not isinstance(instance, (dict, list)):
        return written
    if isinstance(instance, dict):
        return "a mapping"
    text = repr(instance)
    if isinstance(instance, list) and len(text) > 80:
        return "a list"
    return text if len(text) <= 80 else text[:77] + "..."


def _type_hint(instance: Any, expected: Any, path: tuple, source_map: SourceMap) -> str | None:
    expected_types = expected if isinstance(expected, list) else [expected]
    if "string" in expected_types and not isinstance(instance, (dict, list)) and instance is not None:
        written = source_map.scalar_text.get(path, str(instance))
        if isinstance(instance, bool):
            return f"YAML reads {written} as a boolean; quote it: '{written}'."
        return f"YAML reads {written} as a number; quote it to keep the text: '{written}'."
    if "integer" in expected_types and isinstance(instance, float) and instance.is_integer():
        return "Write it without a decimal point."
    if (
        "integer" in expected_types
        and isinstance(instance, str)
        and instance.replace(",", "").replace("_", "").isdigit()
    ):
        return "Write the number without quotes or separators."
    return None


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def first_sentence(text: str, limit: int | None = None) -> str:
    """The first sentence of a schema description, without its full stop (a period inside `1.5` or
    `e.g.` does not end it); cut to `limit` characters when given."""
    text = " ".join(text.split())
    sentence = re.split(r"(?<=[a-z0-9)`'])\. ", text, maxsplit=1)[0].rstrip(".")
    return sentence if limit is None or len(sentence) <= limit else sentence[: limit - 3] + "..."
