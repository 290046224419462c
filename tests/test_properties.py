"""Property-based tests: whatever a file holds, reading it ends in a valid recipe or in located
problems, never in a traceback; the compiled validator never accepts what jsonschema refuses."""

from __future__ import annotations

import copy
import math
import unicodedata
from typing import Any

import pytest
import yaml
from conftest import REPO, SEED, SEED_ID, Project, build_site, copy_project
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from openrecipes import fmt
from openrecipes.cli import main as cli
from openrecipes.loader import load_catalogue
from openrecipes.reading.refs import resolve
from openrecipes.reading.schema import SCHEMA_RELATIVE_PATH, Schema, to_json_compatible
from openrecipes.reading.yamlsource import MIN_NUMBER, first_refused, read_document

SEED_DATA = yaml.safe_load(SEED)
SCHEMA = Schema.load(REPO / SCHEMA_RELATIVE_PATH)
FILE = f"recipes/{SEED_ID}.yaml"

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=40),
    st.dates(),
    st.sampled_from(["", "0", "1.10", "no", "~", "<script>", "{{ 7*7 }}", "\u202e", "\x00", "- x", ": y", "&a *a"]),
)
values = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(st.text(max_size=12), children, max_size=4)
    ),
    max_leaves=20,
)
yaml_syntax = st.text(alphabet=st.sampled_from(list("ab:-[]{}&*!|>'\"#%@`,?\n\t 01.")), max_size=200)


def _assert_located(problems: Any, data_ok: bool) -> None:
    for problem in problems:
        assert problem.path
        assert problem.line >= 0 and problem.column >= 0
        assert problem.message
        assert problem.where == "" or problem.where.startswith("$")
    assert data_ok or problems


def _leaf_paths(value: Any, path: tuple = ()) -> list[tuple]:
    if isinstance(value, dict):
        return [path] + [p for key, item in value.items() for p in _leaf_paths(item, (*path, key))]
    if isinstance(value, list):
        return [path] + [p for index, item in enumerate(value) for p in _leaf_paths(item, (*path, index))]
    return [path]


@st.composite
def mutated_recipes(draw: st.DrawFn) -> dict[str, Any]:
    """The seed with a few fields replaced, removed or added."""
    data = copy.deepcopy(SEED_DATA)
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        paths = [p for p in _leaf_paths(data) if p]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        action = draw(st.sampled_from(["replace", "delete", "add"]))
        if action == "replace":
            parent[path[-1]] = draw(values)
        elif action == "delete":
            del parent[path[-1]]
        elif isinstance(parent, dict):
            parent[draw(st.text(min_size=1, max_size=12))] = draw(values)
    return data


def _dump(data: Any) -> bytes:
    try:
        return yaml.safe_dump(data, sort_keys=False, allow_unicode=True).encode("utf-8")
    except (yaml.YAMLError, UnicodeEncodeError):
        return b"model: [unrepresentable\n"


@settings(max_examples=300, deadline=None)
@given(st.one_of(yaml_syntax, st.binary(max_size=200), values.map(_dump)))
def test_any_bytes_read_into_a_document_or_located_problems(raw: str | bytes) -> None:
    raw = raw.encode("utf-8") if isinstance(raw, str) else raw
    document, problems = read_document(raw, "x.yaml")
    _assert_located(problems, document is not None)
    if document is not None:
        _assert_located(SCHEMA.problems(document.data, document.source_map, "x.yaml"), True)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mutated_recipes())
def test_mutated_recipes_load_or_report_located_problems(project: Project, data: dict[str, Any]) -> None:
    project.add(SEED_ID, _dump(data))
    catalogue = load_catalogue(project.root)
    _assert_located(catalogue.problems, bool(catalogue.entries))
    assert catalogue.problems or len(catalogue.entries) == 1  # a valid recipe, or located problems


@settings(max_examples=300, deadline=None)
@given(mutated_recipes())
def test_the_compiled_validator_never_accepts_what_jsonschema_refuses(data: dict[str, Any]) -> None:
    instance = to_json_compatible(data)
    if _has_non_finite(instance):
        return  # refused while reading, before the schema
    if SCHEMA.is_valid(instance):
        assert list(SCHEMA.validator.iter_errors(instance)) == []


def _has_non_finite(value: Any) -> bool:
    if isinstance(value, float):
        return not math.isfinite(value)
    if isinstance(value, dict):
        return any(_has_non_finite(item) for item in value.values())
    if isinstance(value, list):
        return any(_has_non_finite(item) for item in value)
    return False


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mutated_recipes())
def test_openrecipes_validate_never_tracebacks(project: Project, capsys: Any, data: dict[str, Any]) -> None:
    project.add(SEED_ID, _dump(data))
    code = cli(["validate", "--root", str(project.root)])
    out, err = capsys.readouterr()
    assert code in (0, 1)
    assert "Traceback" not in out + err


@pytest.mark.build
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mutated_recipes())
def test_builds_of_mutated_recipes_end_in_a_site_or_reported_problems(
    tmp_path_factory: pytest.TempPathFactory, data: dict[str, Any]
) -> None:
    # A few whole builds (each takes a second); the loaders above see hundreds of cases.
    work = tmp_path_factory.mktemp("build")
    root = copy_project(work / "project")
    (root / FILE).parent.mkdir(parents=True)
    (root / FILE).write_bytes(_dump(data))
    result = build_site(root, work / "site")  # raises if anything but a clean abort happens
    assert result.ok or result.errors()


REFUSED_CATEGORIES = {"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"}


@settings(max_examples=2000, deadline=None)
@given(st.characters(), st.text(alphabet=st.characters(codec="ascii"), max_size=5))
def test_a_character_is_refused_exactly_when_its_category_is(char: str, around: str) -> None:
    refused = unicodedata.category(char) in REFUSED_CATEGORIES and char not in "\t\n"
    text = around + char + around
    assert (first_refused(text) is not None) == (refused or first_refused(around + around) is not None)
    if refused and first_refused(around) is None:
        assert first_refused(text) == len(around)


def test_the_seed_with_windows_line_ends_and_a_byte_order_mark_reads_the_same() -> None:
    document, problems = read_document(b"\xef\xbb\xbf" + SEED.replace("\n", "\r\n").encode("utf-8"), FILE)
    assert problems == []
    assert document is not None and document.data == SEED_DATA


# Figures recomputed from bounded fields reach about 10^24 (window tokens: steps × batch × row).
recomputed_numbers = st.one_of(
    st.integers(min_value=-(10**24), max_value=10**24),
    st.just(0.0),
    st.floats(min_value=MIN_NUMBER, max_value=1e24),
    st.floats(min_value=-1e24, max_value=-MIN_NUMBER),
)


@settings(max_examples=500, deadline=None)
@given(recomputed_numbers, st.integers(min_value=0, max_value=4))
def test_every_number_the_reader_lets_through_can_be_formatted(value: float, places: int) -> None:
    for text in (fmt.number(value, places), fmt.usd(value, places), fmt.percent(value, places), fmt.as_written(value)):
        assert text and "e" not in text.lower()


def _whole_numbers(value: Any, path: tuple = ()) -> list[tuple]:
    if isinstance(value, dict):
        return [p for key, item in value.items() for p in _whole_numbers(item, (*path, key))]
    if isinstance(value, list):
        return [p for index, item in enumerate(value) for p in _whole_numbers(item, (*path, index))]
    return [path] if isinstance(value, int) and not isinstance(value, bool) else []


@pytest.mark.parametrize("path", _whole_numbers(SEED_DATA), ids=lambda path: ".".join(map(str, path)))
def test_an_integer_written_with_a_decimal_point_is_refused_by_both_validators(path: tuple) -> None:
    data = copy.deepcopy(SEED_DATA)
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = float(parent[path[-1]])
    errors = list(SCHEMA.validator.iter_errors(to_json_compatible(data)))
    assert SCHEMA.is_valid(data) == (errors == [])
    node: Any = SCHEMA.document
    for key in path:
        node = resolve(node, SCHEMA.document)
        node = node["items"] if isinstance(key, int) else node["properties"][key]
    if "integer" in str(resolve(node, SCHEMA.document).get("type")):
        assert [error.validator for error in errors] == ["type"]
    else:
        assert errors == []  # a number, such as memory in GB, may have a decimal point
