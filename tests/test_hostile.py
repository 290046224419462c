"""Recipe text from strangers is shown as text, never run as markup, script or template."""

from __future__ import annotations

import csv
import io
import json
import re
import xml.etree.ElementTree as ElementTree
from typing import Any

import pytest
from conftest import Project, code_blocks, parse

HOSTILE = (
    "<script>alert(1)</script> <img src=x onerror=alert(2)> {{ 7*7 }} {% raw %}r{% endraw %} "
    "a | b `tick` *em* _u_ [link](javascript:alert(3)) <!-- c --> &amp; ]]> #h ~~s~~ {: .x onclick=y}"
)
"""One string holding every injection we guard against: HTML, event handlers, Jinja, Markdown
tables, code, emphasis, links, comments, entities, CDATA ends, headings and attribute lists."""

FREE_TEXT = [
    ("author", "name"),
    ("stack", "framework"),
    ("stack", "megatron_lm"),
    ("stack", "pytorch"),
    ("stack", "cuda"),
    ("stack", "python"),
    ("stack", "network"),
    ("stack", "source"),
    ("workload", "rows"),
    ("workload", "dataset", "name"),
    ("workload", "dataset", "source"),
    ("workload", "dataset", "license"),
    ("workload", "dataset", "build", "name"),
    ("workload", "dataset", "build", "tokenizer"),
    ("workload", "dataset", "build", "packing"),
    ("workload", "dataset", "build", "builder"),
    ("layout", "summary"),
    ("layout", "highlights"),
    ("result", "mfu_note"),
    ("result", "gpu_hours_note"),
    ("correctness", "summary"),
    ("correctness", "rules"),
    ("correctness", "convergence", "note"),
]
MARKDOWN_FIELDS = [("notes",), ("layout", "notes"), ("correctness", "reference")]


def _set(data: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


def _hostile_recipe(project: Project) -> dict[str, Any]:
    data = project.add_synthetic("llama-3.1-70b/h100/hostile")
    for path in FREE_TEXT + MARKDOWN_FIELDS:
        _set(data, path, HOSTILE)
    data["correctness"]["component_tests"] = [{"name": HOSTILE, "result": "pass", "note": HOSTILE}]
    data["patches"] = [{"name": HOSTILE, "description": HOSTILE, "url": "https://example.org/p?a=1&b=2"}]
    data["env"] = {"HOSTILE": HOSTILE, "QUOTED": "\"$(echo '`x`')\" \\ ${A[@]}"}
    data["run"] = HOSTILE + "\n\tindented with a tab\n    \n</code></pre>\n```\n~~~\n" + "--8<-- '/etc/passwd'\n"
    project.add("llama-3.1-70b/h100/hostile", data)
    return data


@pytest.mark.site
def test_hostile_text_in_every_field_is_shown_as_text(project: Project) -> None:
    project.add_synthetic("llama-3.1-70b/h100/plain")
    data = _hostile_recipe(project)
    result = project.build()
    assert result.ok, result.errors()
    plain = result.html("recipes/llama-3.1-70b/h100/plain/")
    html = result.html("recipes/llama-3.1-70b/h100/hostile/")
    page = parse(html)

    # No markup from the recipe: the same scripts as a plain recipe page, no handlers, no javascript: links.
    assert html.count("<script") == plain.count("<script")
    assert not [(tag, a) for tag, a in page.elements if any(name.startswith("on") for name in a)]
    assert not [a for tag, a in page.elements if tag == "img"]
    assert not [a for tag, a in page.elements if (a.get("href") or "").lower().startswith("javascript")]
    assert not [a for tag, a in page.elements if "x" in (a.get("class") or "").split()]

    # The text itself is there, as written, once per field that shows it.
    text = "".join(page.text)
    assert text.count(HOSTILE) >= len(FREE_TEXT) - 1  # the rules are shown once

    # Pipes did not split table cells: the stack table keeps two columns and its exact values.
    stack = re.search(r'<h2 id="software-stack".*?</table>', html, re.S).group(0)
    cells = parse(stack, capture_when=lambda tag, attrs: tag in ("th", "td")).captured
    assert cells[:2] == ["Framework", HOSTILE]

    # Scripts and environment are byte-exact even with tabs, blank-looking lines and fences.
    env = "".join(f"export {name}={value}\n" for name, value in data["env"].items())
    assert data["run"] in code_blocks(html)
    assert env in code_blocks(html)


@pytest.mark.site
def test_markdown_fields_render_markdown_but_show_raw_html_as_text(project: Project) -> None:
    _hostile_recipe(project)
    result = project.build()
    assert result.ok, result.errors()
    html = result.html("recipes/llama-3.1-70b/h100/hostile/")
    notes = re.search(r'<h2[^>]* id="notes".*?</div>', html, re.S).group(0)
    text = "".join(parse(notes).text)
    assert "<script>alert(1)</script>" in text
    assert "<em>em</em>" in notes  # Markdown still works
    assert "<a>link</a>" in notes  # the javascript: URL is dropped, the text kept


@pytest.mark.site
def test_labels_that_reach_titles_cannot_hold_markup(project: Project) -> None:
    # Material prints page titles unescaped, so the fields that make a title are restricted.
    data = project.add_synthetic("llama-3.1-70b/h100/label")
    data["layout"]["label"] = "TP8 <b>PP2</b>"
    project.add("llama-3.1-70b/h100/label", data)
    result = project.build()
    assert not result.ok
    assert result.errors()[0] == (
        "recipes/llama-3.1-70b/h100/label.yaml:43:10: $.layout.label: 'TP8 <b>PP2</b>' does not have the expected "
        "form. Use letters, digits, spaces and . , : ; + / ( ) × = % _ - only."
    )


@pytest.mark.site
def test_hostile_text_survives_json_csv_and_the_feed_exactly(project: Project) -> None:
    data = _hostile_recipe(project)
    result = project.build()
    assert result.ok, result.errors()
    (record,) = json.loads((result.site / "api/recipes.json").read_text(encoding="utf-8"))["recipes"]
    assert record["fields"]["layout"]["summary"] == HOSTILE
    assert record["fields"]["env"] == data["env"]
    assert record["fields"]["run"] == data["run"]
    (row,) = csv.DictReader(io.StringIO((result.site / "api/recipes.csv").read_text(encoding="utf-8")))
    assert row["framework"] == HOSTILE
    feed = ElementTree.fromstring((result.site / "feed.xml").read_bytes())
    atom = "{http://www.w3.org/2005/Atom}"
    entry = feed.find(f"{atom}entry")
    assert entry.find(f"{atom}author").findtext(f"{atom}name") == HOSTILE
    assert entry.findtext(f"{atom}summary").endswith(HOSTILE)
    assert "]]>" in HOSTILE  # a CDATA end inside the text did not break the XML
