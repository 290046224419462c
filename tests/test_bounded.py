"""Input that validates is rendered with bounded work, and what would not be is refused (issue 19).

No timings: speed targets live in `./dev bench`, which builds the worst recipes. Here the work
is counted, deterministically: the Python lines the renderer runs (every step of every loop, in
markdown-it-py and in markup.py), for a text and for one four times as long. Work linear in the
text grows about four times; the quadratic Markdown parsers this replaced grew sixteen times on
their worst shapes. Work inside C (a regular expression's scan, a string search) is not counted:
markdown-it-py bounds its own (a cache of backtick runs, of link labels), and the bench times it.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import Any

import pytest
import yaml
from conftest import REPO, Project

from openrecipes import markup
from openrecipes.loader import MARKDOWN_FIELDS, load_catalogue, validate_catalogue
from openrecipes.reading.yamlsource import MAX_FILE_BYTES, MAX_TEXT, read_document
from openrecipes_tools.synthetic import MARKDOWN_SHAPES, markdown_shape

SMALL = 1_000
GROWTH = 4
SLACK = 1.25
"""Work may grow at most this much faster than the text: linear work measures 0.96-1.05 times
(fixed costs), n log n would be 1.2 at these sizes, quadratic about 4."""

REFUSED_SHAPES: dict[str, Callable[[int], str]] = {
    "quotes nested 30 deep": lambda size: ("> " * 30 + "deep\n") * max(1, size // 65),
    "lists nested 15 deep": lambda size: ("- " * 15 + "deep\n") * max(1, size // 35),
    "a 1,000-column header over one-letter rows": lambda size: "|a" * 1000 + "\n" + "|-" * 1000 + "\n" + "x\n" * size,
    "a 30-column table of one-letter rows": lambda size: "|a" * 30 + "\n" + "|-" * 30 + "\n" + "x\n" * (size // 2),
    "a link reference used past the limit": lambda size: (
        f"[a]: https://e.example/{'x' * 200}\n\n" + "[a] " * max(40, (size - 230) // 4)
    ),
}
"""Markdown the renderer refuses at any size, each shape for its own reason."""


def _work(text: str) -> int:
    """Python lines run (and calls made) to check and render `text`."""
    count = 0

    def trace(frame: Any, event: str, arg: Any) -> Any:
        nonlocal count
        count += 1
        return trace

    sys.settrace(trace)
    try:
        markup._checked(text)  # what markdown_problem and markdown_html do, without their cache
    finally:
        sys.settrace(None)
    return count


@pytest.fixture(scope="module", autouse=True)
def _warm() -> None:
    """The first parse builds markdown-it-py's rule chains; no measured one does."""
    markup._checked("*warm* [a](https://e.example) `x`\n\n| a |\n|---|\n| b |\n\n> q\n\n- l\n")


def _growth(make: Callable[[int], str], small_size: int = SMALL) -> tuple[float, str, str]:
    """How much faster than the text the work grows from `make(small_size)` to a text about
    GROWTH times as long; and the two texts."""
    small, large = make(small_size), make(small_size * GROWTH)
    assert len(large) > 1.5 * len(small)
    return (_work(large) / _work(small)) / (len(large) / len(small)), small, large


def test_the_count_tells_quadratic_work_from_linear() -> None:
    """The measure itself: a scan from every character to the end, inside one call, is seen."""

    def quadratic(text: str) -> int:
        found = 0
        for start in range(len(text)):
            for char in text[start:]:
                found += char == "["
        return found

    def count(text: str) -> int:
        lines = 0

        def trace(frame: Any, event: str, arg: Any) -> Any:
            nonlocal lines
            lines += 1
            return trace

        sys.settrace(trace)
        try:
            quadratic(text)
        finally:
            sys.settrace(None)
        return lines

    assert count("[" * 400) / count("[" * 100) > 3 * GROWTH


@pytest.mark.parametrize("shape", list(MARKDOWN_SHAPES))
def test_markdown_of_every_hostile_shape_renders_with_work_linear_in_its_length(shape: str) -> None:
    before, unit, after = MARKDOWN_SHAPES[shape]
    small_size = max(SMALL, len(before) + 4 * len(unit) + len(after))  # a few of a long unit
    growth, small, large = _growth(lambda size: markdown_shape(shape, size), small_size)
    assert growth <= SLACK, f"{shape}: work grew {growth:.2f} times faster than the text"
    # And the HTML grows with the text, within the renderer's limit.
    (refused_small, html_small), (refused_large, html_large) = markup._checked(small), markup._checked(large)
    assert refused_small is None and refused_large is None, refused_large
    assert len(html_large) <= SLACK * GROWTH * len(html_small) + markup.HTML_SPARE
    assert len(html_large) <= markup.HTML_PER_CHARACTER * len(large) + markup.HTML_SPARE


@pytest.mark.parametrize("shape", list(REFUSED_SHAPES))
def test_markdown_the_renderer_cannot_bound_is_refused_with_bounded_work(shape: str) -> None:
    make = REFUSED_SHAPES[shape]
    growth, small, large = _growth(make)
    assert growth <= SLACK, f"{shape}: work grew {growth:.2f} times faster than the text"
    for text in (small, large):
        problem = markup.markdown_problem(text)
        assert problem is not None, shape
        with pytest.raises(ValueError, match="Markdown refused"):
            markup.markdown_html(text)


def test_the_limits_leave_real_markdown_alone() -> None:
    """Every Markdown field of the catalogue renders, and well within the HTML allowed."""
    texts = []
    for path in sorted((REPO / "recipes").rglob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for field in MARKDOWN_FIELDS:
            values = [data]
            for key in field:
                if key == "*":
                    values = [item for value in values if isinstance(value, list) for item in value]
                else:
                    values = [value[key] for value in values if isinstance(value, dict) and key in value]
            texts += [value for value in values if isinstance(value, str)]
    assert texts
    for text in texts:
        problem, html = markup._checked(text)
        assert problem is None, problem
        assert len(html) <= 4 * len(text) + markup.HTML_SPARE


def test_the_markdown_fields_are_those_the_recipe_page_renders_as_markdown() -> None:
    template = (REPO / "hooks" / "openrecipes" / "templates" / "recipe.md.j2").read_text(encoding="utf-8")
    loops = dict(re.findall(r"\{%\s*for (\w+) in f\.([\w.]+)", template))
    fields = set()
    for expression in re.findall(r"\{\{\s*([\w.]+)\s*\|\s*markdown\s*\}\}", template):
        head, *rest = expression.split(".")
        if head == "f":
            fields.add(tuple(rest))
        else:
            fields.add((*loops[head].split("."), "*", *rest))
    assert fields == set(MARKDOWN_FIELDS)


def test_validate_refuses_exactly_what_the_build_refuses(project: Project) -> None:
    for index, shape in enumerate(REFUSED_SHAPES):
        data = project.add_synthetic(f"llama-3.1-70b/h100/refused-{index}")
        data["notes"] = REFUSED_SHAPES[shape](SMALL)
        data["patches"] = [{"name": "p", "description": REFUSED_SHAPES[shape](SMALL)}]
        project.add(f"llama-3.1-70b/h100/refused-{index}", data)
    built = load_catalogue(project.root)  # what the build loads
    validated = validate_catalogue(project.root)
    assert validated.problems == built.problems
    where = sorted({(problem.path, problem.where) for problem in built.problems})
    assert where == sorted(
        (f"recipes/llama-3.1-70b/h100/refused-{index}.yaml", field)
        for index in range(len(REFUSED_SHAPES))
        for field in ("$.notes", "$.patches[0].description")
    )
    assert not built.entries


def test_a_file_without_aliases_never_meets_the_limit_on_text() -> None:
    """The limit on text built through aliases is the file-size limit: a file of the largest size
    allowed, all text, builds; repeating that text through an alias is refused at the alias."""
    assert MAX_TEXT == MAX_FILE_BYTES
    text = "notes: " + "x" * (MAX_FILE_BYTES - len("notes: \n")) + "\n"
    document, problems = read_document(text.encode(), "r.yaml")
    assert problems == [] and document is not None
    aliased = "a: &a " + "x" * (MAX_TEXT // 2) + "\nb: *a\n"
    document, problems = read_document(aliased.encode(), "r.yaml")
    assert document is None
    assert [(p.line, p.column, p.where) for p in problems] == [(2, 4, "$.b")]
    assert "more than 262,144 characters of text" in problems[0].message
