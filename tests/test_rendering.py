"""Rendering bugs that were seen on the built site, each pinned by a test (issue 12, section 8).

How they look in a browser (a table that fits, a formula that wraps, a field name on one line) is
measured in tests/browser/test_layout.py; here, the HTML the build writes.
"""

from __future__ import annotations

import re
from pathlib import Path

import markdown
import pytest
from conftest import REPO, SEED_ID, BuildResult, parse

from openrecipes.site import facts

SEED_URL = f"recipes/{SEED_ID}/"
TEMPLATES = REPO / "hooks" / "openrecipes" / "templates"
# A list marker Markdown accepts that this site never writes on purpose: its lists use "- ".
STRAY_MARKER = re.compile(r"^\s*[+*] ")


def visible_text(html: str) -> str:
    return " ".join(" ".join(parse(html).text).split())


def article(html: str) -> str:
    return html[html.index("<article") : html.index("</article>")]


def prose_lines(path: Path) -> list[tuple[int, str]]:
    """The lines of a page source that Markdown reads as text: not code blocks, not Jinja tags."""
    lines, fenced = [], False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced and not line.lstrip().startswith(("{%", "{#")):
            lines.append((number, line))
    return lines


def test_a_wrapped_line_starting_with_a_plus_would_become_a_list_item() -> None:
    """The hazard itself: inside a list item, a continuation line that starts with "+ " opens a
    list of its own (the Methodology page once split PaLM's 6N + 12·L·H·Q·T in two this way)."""
    html = markdown.markdown("- lower than under PaLM's 6N\n  + 12·L·H·Q·T. More.\n")
    assert html.count("<li>") == 2


@pytest.mark.parametrize(
    "source",
    sorted(TEMPLATES.glob("*.md.j2")) + sorted((REPO / "docs").glob("*.md")),
    ids=lambda path: path.name,
)
def test_no_page_source_starts_a_line_with_a_stray_list_marker(source: Path) -> None:
    stray = [f"{source.name}:{number}: {line}" for number, line in prose_lines(source) if STRAY_MARKER.match(line)]
    assert stray == [], "a line starting with '+ ' or '* ' is read as a list item:\n" + "\n".join(stray)


def test_methodology_keeps_the_palm_formula_in_one_sentence(seed_site: BuildResult) -> None:
    page = article(seed_site.html("methodology/"))
    items = parse(page, capture_when=lambda tag, attrs: tag == "li").captured
    assert not [item for item in items if item.lstrip().startswith(("+", "*", "×", "÷"))]
    assert "under PaLM's 6N + 12·L·H·Q·T. Recomputed activations" in visible_text(page)


def test_methodology_formulas_are_blocks_that_wrap(seed_site: BuildResult) -> None:
    """Formulas were indented code blocks that scrolled out of sight; they are `or-formula` blocks,
    which the stylesheet wraps (measured in the browser tests)."""
    # A formula may take several lines (MFU's, one per training method).
    formulas = re.findall(r'<pre class="or-formula"><code>(.*?)</code></pre>', seed_site.html("methodology/"), re.S)
    assert [formula.split(" = ")[0] for formula in formulas] == ["MFU", "$/1M tokens", "cost to train"]
    css = (REPO / "docs" / "assets" / "openrecipes-theme.css").read_text(encoding="utf-8")
    assert re.search(r"pre\.or-formula > code \{\s*white-space: pre-wrap;", css)


def test_schema_page_shows_code_not_character_references(seed_site: BuildResult) -> None:
    html = seed_site.html("schema/")
    assert "&#96;" not in visible_text(html)
    assert "&amp;#96;" not in html and "&amp;#x60;" not in html
    # Backticks in a description are code, and field names are code, each a cell of its own.
    assert re.search(r"<td>The level of evidence\. <code>verified</code>", html)
    assert "<td><code>schema_version</code></td>" in html


@pytest.mark.parametrize(
    "heading", ["Fleet", "Layout", "Software stack", "Workload and dataset", "Dataset", "Dataset build", "Correctness"]
)
def test_fact_tables_have_no_empty_header_row(fixture_site: BuildResult, heading: str) -> None:
    """Label-and-value tables were Markdown tables, whose header row had nothing to say and was
    drawn empty; they are tables of rows, each a label (th) and its value (td)."""
    page = article(fixture_site.html(SEED_URL))
    section = re.search(rf">{re.escape(heading)}<.*?(<table class=\"or-facts\">.*?</table>)", page, re.S)
    assert section, f"no facts table under {heading}"
    table = section.group(1)
    assert "<thead" not in table
    rows = re.findall(r"<tr>(.*?)</tr>", table, re.S)
    assert rows
    for row in rows:
        cells = re.findall(r'<(th scope="row"|td)(?: class="[^"]*")?>(.*?)</(?:th|td)>', row, re.S)
        assert [kind for kind, _ in cells] == ['th scope="row"', "td"], row
        assert all(visible_text(text) for _, text in cells), row


def test_no_recipe_page_has_an_empty_header_cell(seed_site: BuildResult) -> None:
    for page in sorted(seed_site.site.glob("recipes/*/*/*/index.html"))[:40]:
        html = article(page.read_text(encoding="utf-8"))
        headers = parse(html, capture_when=lambda tag, attrs: tag == "th").captured
        assert all(header.strip() for header in headers), page


def test_the_scripts_spell_a_missing_value_as_the_pages_do() -> None:
    # The page scripts redraw figures at the reader's price basis; what they write where there is
    # no value must read as what the build wrote there.
    core = (REPO / "docs" / "assets" / "core.js").read_text(encoding="utf-8")
    assert f'OR.NOT_PUBLISHED = "{facts.NOT_PUBLISHED}";' in core
    assert f'OR.NO_PRICE = "{facts.NO_PRICE}";' in core
    assert f'OR.DENSE = "{facts.DENSE}";' in core
    for script in ("compare.js", "price.js", "charts.js", "table.js"):
        text = (REPO / "docs" / "assets" / script).read_text(encoding="utf-8")
        assert f'"{facts.NOT_PUBLISHED}"' not in text and f'"{facts.NO_PRICE}"' not in text, script
