"""What a reader sees (issue 22, item 7): each wrong or misleading thing seen on the built site,
pinned by a test on recipes of the tests' own. How it looks in Chromium (widths, sorting by a
header, the figures' boxes) is tested in tests/browser/test_reader_view.py."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
import yaml
from conftest import FIXTURES, BuildResult, Project, code_blocks, parse

from openrecipes import fmt, markup
from openrecipes.cli.main import main
from openrecipes.loader import load_catalogue
from openrecipes.site import facts

NANO = "nemotron-3-nano-30b-a3b/gb200/mb-26.06.01-mxfp8-8gpu"  # a hybrid model: headline counts only
DEEPSEEK = "deepseek-v3/gb200/mb-26.08-mxfp8-256gpu"  # an architecture the reference data holds


def fixture_data(recipe_id: str) -> dict[str, Any]:
    return yaml.safe_load((FIXTURES / "recipes" / f"{recipe_id}.yaml").read_text(encoding="utf-8"))


def cells(html: str, table_class: str) -> list[list[str]]:
    """The text of each body row's cells of the first table with `table_class`."""
    table = html[html.index(f'<table class="{table_class}"') :]
    table = table[: table.index("</table>")]
    body = table[table.index("<tbody>") :]
    return [
        [" ".join(" ".join(parse(cell).text).split()) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)
    ]


# -- "not recomputed": the reason it is not, never a reason that is false ---------------------------


def test_a_figure_not_recomputed_for_a_hybrid_model_says_why(fixture_site: BuildResult) -> None:
    """Nemotron 3 Nano's maker publishes its layer sizes; what the reference data lacks is a shape
    flops.py costs. The page said "no published architecture", which is false."""
    html = fixture_site.html(f"recipes/{NANO}/")
    row = cells(html, "or-publisher")[0]
    assert row[2] == (
        "not recomputed: the reference data holds Nemotron 3 Nano 30B-A3B's headline parameter counts only, "
        "as its architecture is not of a shape flops.py costs (GQA or MLA attention, dense or MoE MLPs)"
    )
    assert "no published architecture" not in html


def test_a_figure_is_recomputed_where_the_architecture_is_known(fixture_site: BuildResult) -> None:
    row = cells(fixture_site.html(f"recipes/{DEEPSEEK}/"), "or-publisher")[0]
    assert re.fullmatch(r"[\d,]+\.\d", row[2]), row


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (
            lambda data: data["result"]["publisher_figures"][0].update(convention="other"),
            "not recomputed: in a convention of the publisher's own, which flops.py has no formula for",
        ),
        (lambda data: None, None),
    ],
    ids=["another convention", "recomputed"],
)
def test_each_cause_of_a_figure_not_recomputed_has_its_own_words(
    project: Project, edit: Any, expected: str | None
) -> None:
    data = fixture_data(DEEPSEEK)
    edit(data)
    project.add(DEEPSEEK, data)
    catalogue = load_catalogue(project.root)
    assert catalogue.problems == ()
    (figures,) = [entry.derived.publisher_figures for entry in catalogue.entries if entry.recipe.id == DEEPSEEK]
    assert figures[0].not_recomputed == expected
    assert (figures[0].recomputed is None) == (expected is not None)


# -- whole numbers are written without a decimal point -------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"), [(4912, "4,912"), (4912.0, "4,912"), (1194.3, "1,194.3"), (1e-07, "0.0000001")]
)
def test_a_whole_number_is_written_without_a_decimal_point(value: float, expected: str) -> None:
    """Python's 4912.0 is JavaScript's 4912: both sides write it "4,912" (core.js asWritten)."""
    assert fmt.as_written(value) == expected


def test_a_published_whole_throughput_reads_as_published(fixture_site: BuildResult) -> None:
    """Megatron-Bridge publishes 4912 tokens/s per GPU; the page said "4,912.0" in the headline
    figures, the checks, the table of other recipes and the feed."""
    stated = fixture_data(DEEPSEEK)["result"]["tokens_per_s_per_gpu"]
    assert isinstance(stated, int)
    html = fixture_site.html(f"recipes/{DEEPSEEK}/")
    text = " ".join(parse(html).text)
    assert f"Tokens/s per GPU {fmt.as_written(stated)} " in " ".join(text.split()) + " "
    assert f"{fmt.as_written(stated)} tokens/s per GPU" in html  # the MFU check's stated figure
    for page in (f"recipes/{DEEPSEEK}/", f"recipes/{NANO}/", "", "feed.xml"):
        written = (fixture_site.site / page / ("" if page.endswith(".xml") else "index.html")).read_text("utf-8")
        assert re.findall(r"\d\.0 tokens/s|>[\d,]+\.0<", written) == [], page


# -- expert parallelism does not apply to a dense model ------------------------------------------

TRAINY = "llama-3.1-8b/h200/tt-202506-trainy-whitefiber-fp8-32gpu"  # dense, publishes no EP or ETP


def test_a_dense_model_says_expert_parallelism_does_not_apply(fixture_site: BuildResult) -> None:
    html = fixture_site.html(f"recipes/{TRAINY}/")
    layout = html[html.index('id="layout"') :]
    layout = layout[: layout.index("</table>") + 300]
    text = " ".join(" ".join(parse(layout).text).split())
    for label in ("Expert parallel (EP)", "Expert tensor parallel (ETP)"):
        assert f"{label} does not apply (dense model)" in text
    unpublished = re.search(r"Not published: ([^.]*)\.", text)
    assert unpublished is not None and "Expert" not in unpublished.group(1)
    assert '<td class="or-missing">does not apply (dense model)</td>' in layout


def test_a_mixture_of_experts_that_leaves_out_a_degree_has_not_published_it(fixture_entries: dict[str, Any]) -> None:
    """DeepSeek-V3 publishes EP 64 and no ETP: for a model with experts, that is not published."""
    entry = fixture_entries[DEEPSEEK]
    assert facts.BY_KEY["ep"].text(entry) == "64"
    assert facts.BY_KEY["etp"].text(entry) == facts.NOT_PUBLISHED
    assert facts.BY_KEY["etp"].text(fixture_entries[TRAINY]) == facts.DENSE


# -- `openrecipes new` writes no default ----------------------------------------------------------


def test_new_leaves_the_gpu_memory_to_the_author(capsys: pytest.CaptureFixture[str], project: Project) -> None:
    """`--gpu H100` wrote `memory_gb: 80`, a default the author never gave (an H100 of another
    variant has 94 or 96 GB): it is a placeholder saying what the reference data lists."""
    arguments = ["--model", "Llama 3.1 70B", "--gpu", "H100", "--count", "16", "--name", "mine"]
    assert main(["--root", str(project.root), "new", *arguments]) == 0
    path = project.root / "recipes/llama-3.1-70b/h100/mine.yaml"
    memory = yaml.safe_load(path.read_text(encoding="utf-8"))["gpu"]["memory_gb"]
    assert memory == (
        "FILL IN: Memory of one GPU in the vendor's GB, as your GPUs have it (reference/gpus.yaml lists 80 GB for H100)"
    )
    capsys.readouterr()
    assert main(["--root", str(project.root), "validate", str(path)]) == 1
    problems = [line for line in capsys.readouterr().out.splitlines() if "$.gpu.memory_gb:" in line]
    assert problems == [
        f"recipes/llama-3.1-70b/h100/mine.yaml:{_line_of(path, 'memory_gb:')}:14: $.gpu.memory_gb: placeholder not "
        "filled in: Memory of one GPU in the vendor's GB (141 for H200, 80 for H100 SXM); it tells variants of one "
        "GPU apart. Write a number > 0 and ≤ 4,096, or delete the line: the field is optional"
    ]


def _line_of(path: Any, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in line)


# -- the Data page's example is the export's own ---------------------------------------------------


def test_the_data_pages_example_is_the_first_record_of_the_export(fixture_site: BuildResult) -> None:
    """The page showed `"usd_per_million_tokens": 1.8402` (the seed at its own instance) where the
    export had moved to the price basis: the example is now made by the export's code."""
    exported = json.loads((fixture_site.site / "api/recipes.json").read_text(encoding="utf-8"))
    html = fixture_site.html("data/")
    (example,) = [block for block in code_blocks(html) if '"recipes"' in block]
    shown = json.loads(example)
    assert (shown["version"], shown["count"]) == (exported["version"], exported["count"])
    first, record = exported["recipes"][0], shown["recipes"][0]
    for key in ("id", "url", "path", "title"):
        assert record[key] == first[key]
    for key, value in record["derived"].items():
        assert key == "..." or value == first["derived"][key], key
    assert "usd_per_million_tokens" in record["derived"]
    assert {key: value for key, value in record["checks"][0].items() if key != "..."}.items() <= first["checks"][
        0
    ].items()
    assert record["fields"]["model"] == first["fields"]["model"]


def test_the_data_page_lists_the_csv_columns_in_order(fixture_site: BuildResult) -> None:
    header = (fixture_site.site / "api/recipes.csv").read_text(encoding="utf-8").splitlines()[0].split(",")
    text = " ".join(re.sub(r"<[^>]+>", "", fixture_site.html("data/")).split())
    assert f"Columns, in order: {', '.join(header)}." in text


# -- addresses in notes are links ---------------------------------------------------------------------

README_L99 = (
    "https://github.com/NVIDIA-NeMo/Megatron-Bridge/blob/f18b7db63eec50e21c9aea69ee3c1a45998bdbd2/"
    "scripts/performance/README.md#L99"
)
VERSIONS_L7 = "https://github.com/NVIDIA-NeMo/Megatron-Bridge/blob/51885cf132b2814188b6855c25a8588254274c2a/docs/versions1.json#L7"


def link(url: str) -> str:
    return f'<a href="{url}" rel="nofollow noopener">{url}</a>'


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("see https://example.org/a.", f"see {link('https://example.org/a')}."),
        (f"({README_L99});", f"({link(README_L99)});"),
        ("https://en.wikipedia.org/wiki/Foo_(bar), ok", f"{link('https://en.wikipedia.org/wiki/Foo_(bar)')}, ok"),
        ("[https://example.org/x]", f"[{link('https://example.org/x')}]"),
        ("two: http://a.example, https://b.example!", f"two: {link('http://a.example')}, {link('https://b.example')}!"),
        # Only http(s) with a host; everything else stays text, escaped.
        ("javascript:alert(1) ftp://x.example mailto:a@b.example https:// http://.", None),
        ("data:text/html,<script>alert(1)</script>", None),
        # A quote or an angle bracket ends an address: nothing of the text becomes an attribute or a tag.
        (
            'https://evil.example/"onmouseover="alert(1)',
            f"{link('https://evil.example/')}&quot;onmouseover=&quot;alert(1)",
        ),
        (
            "https://evil.example/<img src=x onerror=alert(2)>",
            f"{link('https://evil.example/')}&lt;img src=x onerror=alert(2)&gt;",
        ),
        (
            "https://a.example/?q=1&r=<2>",
            '<a href="https://a.example/?q=1&amp;r=" rel="nofollow noopener">https://a.example/?q=1&amp;r=</a>&lt;2&gt;',
        ),
    ],
)
def test_addresses_in_plain_notes_become_links_through_one_escaping_path(text: str, expected: str | None) -> None:
    assert markup.linked_text(text) == (markup.html_text(text) if expected is None else expected)


def test_finding_addresses_takes_time_linear_in_the_text() -> None:
    """Brackets and punctuation the address ends with are counted once each, not once per character."""
    for text in ("https://a.example/" + ")" * 200_000, "https://a.example/" + "(" * 200_000 + ".", " http://" * 50_000):
        spans = markup.url_spans(text)
        assert len(spans) <= 1


def test_addresses_in_markdown_notes_become_links_but_not_in_code_or_links() -> None:
    html = markup.markdown_html(
        f"Notes ({README_L99}); [a link https://x.example](https://y.example) `https://c.example` and "
        "<https://d.example>, https://e.example/a_b_c."
    )
    assert html == (
        f'<div class="or-prose">\n<p>Notes ({link(README_L99)}); '
        '<a href="https://y.example" rel="nofollow noopener">a link https://x.example</a> '
        f"<code>https://c.example</code> and {link('https://d.example')}, {link('https://e.example/a_b_c')}.</p>\n</div>"
    )


def test_a_recipe_page_links_the_addresses_of_its_notes(fixture_site: BuildResult) -> None:
    """The frozen DeepSeek-V3 recipe writes addresses in its stack's source (plain text), its
    launch's notes (plain text) and its notes (Markdown): each is a link."""
    html = fixture_site.html(f"recipes/{DEEPSEEK}/")
    source = html[html.index("Source of the pins:") :]
    assert link(README_L99) in source[: source.index("</p>")]
    about = html[html.index("About this launch:") :]
    assert link(VERSIONS_L7) in about[: about.index("</p>")]
    notes = html[html.index('id="notes"') :]
    assert 'rel="nofollow noopener">https://github.com/NVIDIA-NeMo/Megatron-Bridge/blob/' in notes
    assert "nofollow noopener" in notes[: notes.index("</ul>")]


@pytest.mark.parametrize("text", ["http://[x", "https://[::1", "[[a](http://b)](http://c)", "http://a]b)c(["])
def test_an_address_that_does_not_parse_is_text(text: str) -> None:
    assert markup.linked_text(text).startswith(("[", "http", '<a href="http'))
    markup.markdown_html(text)  # no exception
