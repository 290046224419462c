"""A test catalogue built once, served on 127.0.0.1, and one headless Chromium for the session.

Chromium is Debian's (`apt-get install chromium`), driven by Playwright's Python package through
`executable_path`: Playwright's own browser download needs the internet. Without it the tests
skip, except in CI (`CI` set), where they fail.

Every page a test opens records its console errors, uncaught exceptions and every request; a
request to any host but the local server is aborted. The `page` fixture fails the test if any of
these happened.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from conftest import SEED_ID, Project, copy_project

from openrecipes.reading.reference import Reference
from openrecipes_tools import chromium

IN_CI = os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")
VIEWPORT = {"width": 1280, "height": 900}

# The test catalogue: several models, GPUs, counts and prices, one recipe without a price.
# $/1M = $/GPU-hour ÷ (tokens/s × 3600) × 1e6 at the price basis of the GPU type: by default the
# cheapest sourced price, Nebius's $3.85 per H100-hour and $4.50 per H200-hour (the recipes' own
# instances, AWS p5 at $6.88 and p5en at $7.912, are what their stated figures are checked at).
RECIPES: dict[str, dict[str, Any]] = {
    "llama-3.1-8b/h100/cheap": {"model": "Llama 3.1 8B", "tokens_per_s": 9000.0, "tp": 1, "pp": 1, "count": 8},
    "llama-3.1-70b/h100/mid": {"tokens_per_s": 900.0},
    "llama-3.1-70b/h100/big": {"tokens_per_s": 700.0, "count": 128, "pp": 8},
    "llama-3.1-70b/h100/pricey": {"tokens_per_s": 600.0, "status": "unverified"},
    "llama-3.1-70b/h200/tenfold": {"gpu": "H200", "instance": "AWS p5en.48xlarge", "tokens_per_s": 90.0},
    # No sourced MI325X price: the one recipe the catalogue cannot price.
    "llama-3.1-70b/mi325x/onprem": {"gpu": "MI325X", "instance": None, "tokens_per_s": 2000.0},
}
# The home table's default order: $/1M ascending (then MFU, then id), the unpriced recipe last.
DEFAULT_ORDER = [
    "llama-3.1-8b/h100/cheap",  # $0.1188
    SEED_ID,  # $1.05
    "llama-3.1-70b/h100/mid",  # $1.19
    "llama-3.1-70b/h100/big",  # $1.53
    "llama-3.1-70b/h100/pricey",  # $1.78
    "llama-3.1-70b/h200/tenfold",  # $13.89
    "llama-3.1-70b/mi325x/onprem",  # no public price
]


@pytest.fixture(scope="session")
def chromium_available() -> None:
    problem = chromium.unavailable()
    if problem:
        if IN_CI:
            pytest.fail(f"CI must run the browser tests, but {problem}", pytrace=False)
        pytest.skip(problem)


@dataclass
class Site:
    root: Path
    url: str
    recipes: dict[str, dict[str, Any]]

    def page_url(self, path: str = "") -> str:
        return self.url + path


def project_served_at(project: Project, url_of_site: str) -> None:
    """Point the project's site_url at the local server (instant navigation needs it)."""
    config = project.root / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    assert "\nsite_url: " in text
    config.write_text(
        "\n".join(f"site_url: {url_of_site}" if line.startswith("site_url: ") else line for line in text.split("\n")),
        encoding="utf-8",
    )


@pytest.fixture(scope="session")
def site(chromium_available: None, tmp_path_factory: pytest.TempPathFactory, reference: Reference) -> Iterator[Site]:
    """The test catalogue, built with site_url on the local server (instant navigation needs it)."""
    base = tmp_path_factory.mktemp("browser")
    site_dir = base / "site"
    site_dir.mkdir()
    with chromium.serving(site_dir) as url:
        project = Project(copy_project(base / "project"), reference)
        project_served_at(project, url)
        recipes: dict[str, dict[str, Any]] = {}
        project.add_seed()
        for recipe_id, parameters in RECIPES.items():
            recipes[recipe_id] = project.add_synthetic(recipe_id, **parameters)
        result = project.build()
        assert result.ok, result.log
        shutil.rmtree(site_dir)
        shutil.move(result.site, site_dir)
        yield Site(site_dir, url, recipes)


@dataclass
class Watch:
    """What went wrong on the pages of one test."""

    errors: list[str] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    expected: tuple[str, ...] = ()
    """Console errors a test expects (by a part of their text), not counted as errors."""

    def console(self, text: str) -> None:
        if not any(part in text for part in self.expected):
            self.errors.append(f"console: {text}")


@pytest.fixture(scope="session")
def playwright(chromium_available: None) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as started:
        yield started


@pytest.fixture(scope="session")
def browser_context(playwright: Any, site: Site, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    origin = site.url.rstrip("/")
    context = playwright.chromium.launch_persistent_context(
        str(tmp_path_factory.mktemp("chromium-profile")),
        executable_path=chromium.CHROMIUM,
        headless=True,
        args=chromium.ARGS,
        viewport=VIEWPORT,
        color_scheme="light",
        service_workers="block",
    )
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=origin)
    context.set_default_timeout(15_000)
    try:
        yield context
    finally:
        context.close()


DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
"""Debian's fonts-dejavu-core: the only fonts a machine with `chromium --no-install-recommends` has."""
FONT_SETUPS = ("default-fonts", "dejavu-only")
"""The machine's fonts as they are, and DejaVu alone: the site draws its text in its own fonts, so a
page must be laid out the same in both (with DejaVu Sans as the body font, tables overflowed)."""


def dejavu_only_fontconfig(folder: Path) -> Path:
    """A fontconfig configuration that finds no font but DejaVu's, with its cache in `folder`."""
    if not (DEJAVU / "DejaVuSans.ttf").is_file():
        problem = f"DejaVu fonts are not installed in {DEJAVU} (apt-get install fonts-dejavu-core)"
        if IN_CI:
            pytest.fail(f"CI must test the layout with DejaVu only, but {problem}", pytrace=False)
        pytest.skip(problem)
    conf = folder / "fonts.conf"
    conf.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">\n<fontconfig>\n'
        f"  <dir>{DEJAVU}</dir>\n  <cachedir>{folder / 'cache'}</cachedir>\n"
        # The system's rules (sans-serif is DejaVu Sans, hinting) but none of its font folders.
        '  <include ignore_missing="yes">/etc/fonts/conf.d</include>\n</fontconfig>\n',
        encoding="utf-8",
    )
    return conf


@pytest.fixture(scope="session")
def dejavu_only_context(playwright: Any, site: Site, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A browser like `browser_context`'s that has only DejaVu fonts, started for the tests that ask."""
    conf = dejavu_only_fontconfig(tmp_path_factory.mktemp("fontconfig"))
    browser = playwright.chromium.launch(
        executable_path=chromium.CHROMIUM,
        headless=True,
        args=chromium.ARGS,
        env={**os.environ, "FONTCONFIG_FILE": str(conf)},
    )
    context = browser.new_context(viewport=VIEWPORT, color_scheme="light", service_workers="block")
    context.set_default_timeout(15_000)
    try:
        yield context
    finally:
        context.close()
        browser.close()


@pytest.fixture(params=FONT_SETUPS)
def fonts_context(request: pytest.FixtureRequest) -> Any:
    """The browser of each font setup in turn (`FONT_SETUPS`)."""
    return request.getfixturevalue("browser_context" if request.param == "default-fonts" else "dejavu_only_context")


@pytest.fixture
def fonts_page(fonts_context: Any, site: Site, watch: Watch) -> Iterator[Any]:
    """`page`, once in each font setup."""
    with watched_tab(fonts_context, site.url, watch) as tab:
        yield tab
        forget_the_price_basis(tab)


# The catalogue table's narrowest layout: each column at its narrowest (the table's width set to
# 0 for the measure), in em of the table's text, and the article's width in the same em.
NARROWEST_COLUMNS = """() => {
  const table = document.querySelector('.or-catalogue table');
  const em = parseFloat(getComputedStyle(table).fontSize);
  table.style.width = '0';
  const columns = Object.fromEntries([...table.querySelectorAll('thead th')]
    .map(th => [th.dataset.key, th.getBoundingClientRect().width / em]));
  const total = table.getBoundingClientRect().width / em;
  table.style.width = '';
  return {columns, total, article: document.querySelector('article').clientWidth / em};
}"""


def assert_within_width_budget(tab: Any) -> None:
    """The catalogue table on `tab` fits its width budget: no column is wider at its narrowest
    than its declared `width` (facts.py), and the columns fit the article with the budget's margin."""
    from openrecipes.site import facts

    measured = tab.evaluate(NARROWEST_COLUMNS)
    declared = {fact.key: fact.width for fact in facts.COLUMNS}
    assert measured["columns"].keys() == declared.keys()
    wider = {key: round(width, 2) for key, width in measured["columns"].items() if width > declared[key] + 0.05}
    assert wider == {}, f"columns wider than their declared width= (em): {wider}"
    assert measured["total"] <= facts.TABLE_BUDGET_EM
    assert measured["article"] >= facts.TABLE_EM_AT_1440 - 0.05


def fonts_loaded(tab: Any) -> None:
    """Wait until the page's web fonts have loaded: a layout measured before would be a fallback's."""
    tab.evaluate("() => document.fonts.ready.then(() => document.fonts.status)")


@pytest.fixture(scope="session")
def touch_context(playwright: Any) -> Iterator[Any]:
    """A phone: a touch screen as the only pointer (`pointer: coarse`), 390 × 844. A browser of its
    own, started only for the tests that ask for it (a persistent context cannot make others)."""
    browser = playwright.chromium.launch(executable_path=chromium.CHROMIUM, headless=True, args=chromium.ARGS)
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, service_workers="block"
    )
    context.set_default_timeout(15_000)
    try:
        yield context
    finally:
        context.close()
        browser.close()


@pytest.fixture
def watch() -> Watch:
    return Watch()


@contextlib.contextmanager
def watched_tab(browser_context: Any, site_url: str, watch: Watch) -> Iterator[Any]:
    """A fresh tab that records console errors, page errors, dialogs and every request, and aborts
    any request to a host other than `site_url`'s; it fails the test on any of them when closed."""
    local = urlsplit(site_url).netloc

    def route(route: Any) -> None:
        url = route.request.url
        if urlsplit(url).netloc == local:
            route.continue_()
        else:
            watch.foreign.append(url)
            route.abort()

    def dialog(dialog: Any) -> None:
        watch.errors.append(f"dialog: {dialog.type} {dialog.message!r}")
        dialog.dismiss()

    def failed(request: Any) -> None:
        # net::ERR_ABORTED is the page cancelling its own request (a navigation, or the tab closing
        # while Material still fetches sitemap.xml), not the server failing it; a missing file is
        # a console error, a refused or broken connection another failure.
        if urlsplit(request.url).netloc == local and request.failure != "net::ERR_ABORTED":
            watch.errors.append(f"request failed: {request.url} {request.failure}")

    tab = browser_context.new_page()
    tab.route("**/*", route)
    tab.on("console", lambda message: message.type == "error" and watch.console(message.text))
    tab.on("pageerror", lambda error: watch.errors.append(f"page error: {error}"))
    tab.on("dialog", dialog)
    tab.on("request", lambda request: watch.requests.append(request.url))
    tab.on("requestfailed", failed)
    yield tab
    # Let late errors (a chart drawing after the test's last step) surface before judging.
    tab.wait_for_timeout(100)
    tab.close()
    assert watch.foreign == [], f"requests left the test server: {watch.foreign}"
    assert watch.errors == [], "\n".join(watch.errors)


@pytest.fixture
def page(browser_context: Any, site: Site, watch: Watch) -> Iterator[Any]:
    """A fresh tab on the test catalogue; the test fails on any console error, page error, dialog or
    request that leaves the test server."""
    with watched_tab(browser_context, site.url, watch) as tab:
        yield tab
        forget_the_price_basis(tab)


def forget_the_price_basis(tab: Any) -> None:
    """The price basis a test chose is kept in the browser's storage for the site's origin: the next
    test starts from the default."""
    tab.evaluate("() => { try { localStorage.clear(); } catch (error) { /* not on the site */ } }")
