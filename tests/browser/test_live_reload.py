"""`./dev serve` in Chromium: an edit of a recipe reloads the page that shows it.

MkDocs' server reloads pages with an inline script, which the site's Content-Security-Policy
refuses; the site's own script (hooks/openrecipes/assets/livereload.js) does it instead.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import SEED_ID, Project
from test_serve import Server

from .conftest import Watch, watched_tab

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser"), pytest.mark.site]

# What Chromium says of MkDocs' own inline script, which the policy refuses (the point of the file).
REFUSED = "Executing inline script violates the following Content Security Policy directive"
EDIT = "Reloaded by the test."


def test_an_edit_reloads_the_page_under_the_content_security_policy(
    browser_context: Any, project: Project, watch: Watch
) -> None:
    # MkDocs' own script is refused on every page the server sends, including late reloads.
    watch.expected = (REFUSED,)
    recipe = project.add_seed()
    server = Server(project, "--dirty")
    try:
        server.wait_for(lambda: "data-recipe=" in server.get(), "the first build")
        with watched_tab(browser_context, server.url, watch) as tab:
            tab.goto(server.url + f"recipes/{SEED_ID}/")
            tab.evaluate("window.__notReloaded = true")
            tab.wait_for_timeout(500)  # the script has started polling the server
            text = recipe.read_text(encoding="utf-8")
            recipe.write_text(text.replace("\nnotes: |\n", f"\nnotes: |\n  {EDIT}\n", 1), encoding="utf-8")
            tab.wait_for_function(f"() => document.body?.innerText.includes('{EDIT}')", timeout=60_000)
            assert tab.evaluate("window.__notReloaded") is None
    finally:
        server.stop()
