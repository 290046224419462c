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

from openrecipes.markup import markdown_html, markdown_inline_html

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
    # A link to a javascript: URL is no link: its Markdown is shown as written.
    assert "[link](javascript:alert(3))" in text
    assert not [a for tag, a in parse(notes).elements if tag == "a" and "javascript" in (a.get("href") or "")]


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


# --- The Markdown renderer itself (markup.py): what each construct may become -------------------

ALLOWED_ATTRIBUTES = {
    ("div", "class"),  # the renderer's own wrapper, or-prose
    ("a", "href"),
    ("a", "title"),
    ("a", "rel"),
    ("code", "class"),
    ("th", "style"),
    ("td", "style"),
    ("ol", "start"),
}


def _elements(markdown: str) -> list[tuple[str, dict[str, str | None]]]:
    html = markdown_html(markdown)
    elements = parse(html).elements
    assert elements[0] == ("div", {"class": "or-prose"})
    unexpected = [(tag, name) for tag, attrs in elements for name in attrs if (tag, name) not in ALLOWED_ATTRIBUTES]
    assert unexpected == [], html
    return elements


@pytest.mark.parametrize(
    "link",
    [
        "[x](javascript:alert(1))",
        "[x](JavaScript:alert(1))",
        "[x]( javascript:alert(1) )",
        "[x](jav&#x61;script:alert(1))",
        "[x](java%73cript:alert(1))",
        "[x](vbscript:msgbox(1))",
        "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
        "[x](file:///etc/passwd)",
        "[x](//evil.example/x)",
        "[x](relative/page.html)",
        "[x](#anchor)",
        "<javascript:alert(1)>",
        "[x][r]\n\n[r]: javascript:alert(1)",
        "![x](javascript:alert(1))",
        "![x](data:image/png;base64,iVBORw0KGgo=)",
        "[![x](https://e.example/i.png)](javascript:alert(1))",
    ],
)
def test_only_http_and_mailto_addresses_become_links(link: str) -> None:
    hrefs = [attrs.get("href") or "" for tag, attrs in _elements(link) if tag == "a"]
    assert all(href.startswith(("https://", "http://", "mailto:")) for href in hrefs), hrefs


def test_links_keep_their_text_title_and_get_rel() -> None:
    elements = _elements('[read](https://e.example/a?b=1&c=2 "The title") <https://e.example/auto> <me@e.example>')
    links = [attrs for tag, attrs in elements if tag == "a"]
    assert links == [
        {"href": "https://e.example/a?b=1&c=2", "title": "The title", "rel": "nofollow noopener"},
        {"href": "https://e.example/auto", "rel": "nofollow noopener"},
        {"href": "mailto:me@e.example", "rel": "nofollow noopener"},
    ]


def test_images_become_links_to_their_address_reading_their_text() -> None:
    html = markdown_html("![a *chart*](https://e.example/c.png) ![](https://e.example/d.png) ![x](rel.png)")
    assert "<img" not in html
    assert '<a href="https://e.example/c.png" rel="nofollow noopener">a chart</a>' in html
    assert '<a href="https://e.example/d.png" rel="nofollow noopener">https://e.example/d.png</a>' in html
    assert "![x](rel.png)" in html  # not http(s): no image and no link, the Markdown shown as written


def test_headings_sit_three_levels_below_the_page() -> None:
    tags = [tag for tag, _ in _elements("# one\n\n## two\n\n### three\n\n###### six\n\nSetext\n===\n")]
    assert tags == ["div", "h4", "h5", "h6", "h6", "h4"]


@pytest.mark.parametrize(
    ("fence", "language"),
    [
        ("```python\nx\n```", "language-python"),
        ("```c++ more words\nx\n```", "language-c++"),
        ('```{.or-chart data-chart="home-cost" onclick="alert(3)"}\nx\n```', None),
        ('```python" onclick="alert(1)\nx\n```', None),
        ("~~~ \nx\n~~~", None),
    ],
)
def test_a_fenced_block_keeps_only_a_plain_language_class(fence: str, language: str | None) -> None:
    classes = [attrs.get("class") for tag, attrs in _elements(fence) if tag == "code"]
    assert classes == [language]


def test_tables_keep_their_alignment_and_lists_their_start() -> None:
    elements = _elements("| a | b | c |\n|:--|:-:|--:|\n| 1 | 2 | 3 |\n\n7. seven\n8. eight\n")
    styles = [attrs.get("style") for tag, attrs in elements if tag in ("th", "td")]
    assert styles == ["text-align:left", "text-align:center", "text-align:right"] * 2
    assert ("ol", {"start": "7"}) in elements


def test_raw_html_entities_and_task_lists_are_text() -> None:
    html = markdown_html('<b onclick="x">bold</b> &lt;i&gt;\n\n<div>\nblock\n</div>\n\n- [ ] task\n- [x] done\n')
    assert "&lt;b onclick=&quot;x&quot;&gt;bold&lt;/b&gt; &lt;i&gt;" in html
    assert "&lt;div&gt;" in html
    assert "<input" not in html and "[ ] task" in html


def test_the_inline_form_is_one_paragraph_without_its_p() -> None:
    assert markdown_inline_html("A *short* `text`") == "A <em>short</em> <code>text</code>"
    assert markdown_inline_html("Two\n\nparagraphs").count("<p>") == 2
