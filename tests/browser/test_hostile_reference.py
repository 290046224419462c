"""Reference names and the site's own downloads in a real browser: nothing in them runs.

The reference data refuses a key that is not an identifier, so to test the layer behind that
rule, this project's schema has the key rule taken out: a GPU key then carries a closing
`</title>`, a script naming the recipe's own `launch.sh` (whose `run` is JavaScript) and a
`<meta http-equiv="refresh">` to another host. It reaches the GPU page's title, header, meta
description and the search index. Every page that shows it is opened in Chromium, and the search
box is used on the home page: no dialog, no navigation, no request off the test server.

Then the other half: even if markup named one of the site's own files as a script (a download, a
recipe file, data), the policy allows scripts by hash only, so the browser refuses it, though the
server (as a careless host would) sends it as JavaScript.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from typing import Any
from urllib.parse import urljoin

import pytest
from conftest import Project, copy_project

from openrecipes.reading.reference import Reference
from openrecipes_tools import chromium

from .conftest import Watch, project_served_at, watched_tab

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

RECIPE = "llama-3.1-70b/x9/run"
RUN = 'alert("the launch script ran");\n'
HOSTILE_KEY = (
    'X9</title><script src="../../recipes/llama-3.1-70b/x9/run/launch.sh"></script>'
    '<meta http-equiv="refresh" content="0;url=https://evil.example/"><title>'
)


@pytest.fixture(scope="module")
def hostile_reference_site(
    chromium_available: None, tmp_path_factory: pytest.TempPathFactory, reference: Reference
) -> Iterator[str]:
    base = tmp_path_factory.mktemp("hostile-reference")
    site_dir = base / "site"
    site_dir.mkdir()
    with chromium.serving(site_dir) as url:
        project = Project(copy_project(base / "project"), reference)
        project_served_at(project, url)
        schema = project.root / "schema/reference.schema.yaml"
        text = schema.read_text(encoding="utf-8").replace("    propertyNames: {$ref: '#/$defs/key'}\n", "")
        schema.write_text(text.replace("items: {$ref: '#/$defs/key'}", "items: {type: string}"), encoding="utf-8")
        gpus = project.root / "reference/gpus.yaml"
        text = gpus.read_text(encoding="utf-8").replace("H100-PCIe:\n", json.dumps(HOSTILE_KEY) + ":\n", 1)
        gpus.write_text(text.replace("  aliases: [H100 PCIe]\n", "  aliases: [X9]\n", 1), encoding="utf-8")
        data = project.add_synthetic(RECIPE, gpu="H100-PCIe", instance=None)  # the figures of X9's part
        data["gpu"]["type"] = "X9"
        data["run"] = RUN
        project.add(RECIPE, data)
        project.add_seed()
        result = project.build()
        assert result.ok, result.log
        shutil.rmtree(site_dir)
        shutil.move(result.site, site_dir)
        yield url


@pytest.fixture
def tab(browser_context: Any, hostile_reference_site: str, watch: Watch) -> Iterator[Any]:
    with watched_tab(browser_context, hostile_reference_site, watch) as opened:
        yield opened


@pytest.mark.parametrize("path", ["", f"recipes/{RECIPE}/", "gpus/", "models/llama-3.1-70b/", "methodology/"])
def test_a_hostile_reference_name_is_text_on_every_page(tab: Any, hostile_reference_site: str, path: str) -> None:
    tab.goto(hostile_reference_site + path)
    tab.wait_for_load_state("networkidle")
    assert tab.url == hostile_reference_site + path  # no refresh took the reader elsewhere
    assert tab.locator("meta[http-equiv='refresh']").count() == 0
    assert tab.evaluate("() => typeof window.alert") == "function"


def test_the_gpu_pages_title_header_and_description_show_the_name_as_text(
    tab: Any, hostile_reference_site: str
) -> None:
    tab.goto(hostile_reference_site + "gpus/")
    links = tab.eval_on_selector_all("article a[href]", "links => links.map(a => a.getAttribute('href'))")
    (gpu_page,) = [link for link in links if "x9" in link.lower()]
    tab.goto(urljoin(tab.url, gpu_page))
    tab.wait_for_load_state("networkidle")
    assert HOSTILE_KEY in tab.title()
    assert tab.locator("head title").count() == 1 and tab.locator("body title").count() == 0
    assert HOSTILE_KEY in tab.text_content("[data-md-component='header-topic']")
    assert HOSTILE_KEY in tab.get_attribute("meta[name='description']", "content")
    assert tab.locator("script[src*='launch.sh']").count() == 0
    assert tab.url.startswith(hostile_reference_site)


def test_searching_shows_the_name_as_text(tab: Any, hostile_reference_site: str) -> None:
    tab.goto(hostile_reference_site)
    tab.wait_for_load_state("networkidle")
    tab.keyboard.press("/")  # Material's shortcut to the search box, whatever the width
    tab.keyboard.type("X9", delay=50)  # as a reader types: Material searches on key events
    tab.wait_for_selector(".md-search-result__item")
    tab.wait_for_timeout(300)
    results = tab.locator(".md-search-result")
    assert results.locator("script, meta, iframe, img").count() == 0
    assert "X9</title>" in results.inner_text()
    tab.keyboard.press("Enter")
    tab.wait_for_load_state("networkidle")
    assert tab.url.startswith(hostile_reference_site)


@pytest.mark.parametrize(
    "download",
    [f"recipes/{RECIPE}/launch.sh", f"recipes/{RECIPE}.yaml", "api/recipes.json", "assets/prices.json"],
)
def test_the_sites_own_files_never_run_as_scripts(
    browser_context: Any, hostile_reference_site: str, download: str
) -> None:
    """The worst case: markup names one of the site's files as a script, and the host sends it as
    JavaScript. The policy lists scripts by hash, so the browser refuses it."""
    watch = Watch(expected=("Content Security Policy",))
    with watched_tab(browser_context, hostile_reference_site, watch) as opened:
        violations: list[str] = []
        opened.on("console", lambda m: "Content Security Policy" in m.text and violations.append(m.text))
        opened.route(
            hostile_reference_site + download,
            lambda route: route.fulfill(status=200, content_type="text/javascript", body=RUN),
        )
        page_url = hostile_reference_site + f"recipes/{RECIPE}/"

        def inject(route: Any) -> None:
            response = route.fetch()
            body = response.text().replace("</article>", f'<script src="/{download}"></script></article>')
            body = body.replace("</article>", f'<script src="{hostile_reference_site}{download}"></script></article>')
            route.fulfill(response=response, body=body)

        opened.route(page_url, inject)
        opened.goto(page_url)
        opened.wait_for_load_state("networkidle")
        assert opened.locator(f"script[src$='{download}']").count() == 2
        # Chromium refuses both before asking the server: a failed request, reason "csp".
        refused = [error for error in watch.errors if error.startswith("request failed") and error.endswith(" csp")]
        for error in refused:
            watch.errors.remove(error)
    assert len(refused) == 2, refused
    assert violations
