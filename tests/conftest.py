"""Shared fixtures: throwaway copies of the project, filled with recipes and built in-process."""

from __future__ import annotations

import fcntl
import json
import logging
import os
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
import yaml
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.exceptions import Abort

from openrecipes.loader import Entry, load_catalogue
from openrecipes.reading.reference import Reference, load_reference
from openrecipes_tools import bench
from openrecipes_tools.synthetic import recipe_data, yaml_text

REPO = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
"""Recipes of the tests' own: frozen copies of committed recipes (`fixtures/recipes/<id>.yaml`, as
they were when copied), so that editing the catalogue in recipes/ changes no test. Tests that need
a real recipe take it from here; tests of the committed catalogue assert only what holds for any
valid catalogue."""
SEED_ID = "qwen3.8-27b/h200/attune-tp4-pp2"
SEED_PATH = FIXTURES / "recipes" / f"{SEED_ID}.yaml"
"""The seed as shared with the team, frozen: every edit in tests/corpus is an edit of this file."""
SEED = SEED_PATH.read_text(encoding="utf-8")
SEED_DATA: dict[str, Any] = yaml.safe_load(SEED)
"""The frozen seed's values: expected figures are computed from these, never written out."""


_UNGROUPED = pytest.StashKey[str]()

TIER_OF_FIXTURE = {"seed_site": "build", "fixture_site": "build", "sandbox": "workflow"}
"""Fixtures that put a test in a slow tier: the sites built once for the run (a test that reads one
is in the `build` tier, though another test may have paid for the build), and test_workflows.py's
git sandbox, in which the workflows' scripts run."""
SLOW_TIERS = ("browser", "build", "workflow", "launches")
"""What `./dev test --fast` leaves out (`-m "not browser and not build and not workflow and not launches"`)."""


def pytest_itemcollected(item: pytest.Item) -> None:
    """The tier marks a test's fixtures imply, added before `-m` chooses: a test whose `project`
    holds a whole site (`site`) is in the `build` tier, as is one that reads a shared built site,
    and one that runs the workflows' scripts is in `workflow`. `build_site` refuses a build in a
    test that carries no slow tier (`_assert_in_a_slow_tier`)."""
    tiers = {TIER_OF_FIXTURE[name] for name in getattr(item, "fixturenames", ()) if name in TIER_OF_FIXTURE}
    if item.get_closest_marker("site"):
        tiers.add("build")
    for tier in sorted(tiers):
        item.add_marker(tier)


_running: list[pytest.Item] = []


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Any:
    _running.append(item)
    try:
        return (yield)
    finally:
        _running.pop()


def _assert_in_a_slow_tier(what: str) -> None:
    """`./dev test --fast` runs no whole-site build: a test that builds one (in its body or in a
    fixture it sets up) must carry a mark of a slow tier, or it would slow the fast tier silently."""
    if _running and not any(_running[-1].get_closest_marker(tier) for tier in SLOW_TIERS):
        pytest.fail(
            f"{_running[-1].nodeid} {what} but is not marked: mark it `build` (or `site`), so that "
            "`./dev test --fast` leaves it out",
            pytrace=False,
        )


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked `xdist_group` share a server or a browser in one worker; a pytest-xdist that
    cannot give pytest a test's group (a suffix of its id) spreads them over every worker instead,
    silently. Each such test then fails, saying so, rather than test something else."""
    if not getattr(config.option, "loadgroup", False):  # set in xdist's workers under --dist loadgroup
        return
    for item in items:
        marks = item.iter_markers("xdist_group")
        groups = sorted({str(mark.args[0] if mark.args else mark.kwargs.get("name")) for mark in marks})
        if groups and not item.nodeid.endswith("@" + "_".join(groups)):
            item.stash[_UNGROUPED] = (
                f"pytest-xdist did not put this test in its group {groups} (pytest {pytest.__version__}): "
                "install the versions in constraints.txt"
            )


def pytest_runtest_setup(item: pytest.Item) -> None:
    if _UNGROUPED in item.stash:
        pytest.fail(item.stash[_UNGROUPED], pytrace=False)


@dataclass
class BuildResult:
    ok: bool
    site: Path
    log: list[str]

    def errors(self) -> list[str]:
        return [line.split(" ", 1)[1] for line in self.log if line.startswith("ERROR ")]

    def html(self, url_path: str) -> str:
        """The built page at `url_path` ('' for home, 'recipes/a/b/c/')."""
        target = self.site / url_path
        if url_path == "" or url_path.endswith("/"):
            target = target / "index.html"
        return target.read_text(encoding="utf-8")


@dataclass
class Project:
    root: Path
    reference: Reference
    site: Path = field(init=False)

    def __post_init__(self) -> None:
        self.site = self.root.parent / f"{self.root.name}-site"

    def add(self, recipe_id: str, content: str | bytes | dict[str, Any]) -> Path:
        path = self.root / "recipes" / f"{recipe_id}.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, dict):
            content = yaml_text(content, recipe_id)
        if isinstance(content, str):
            content = content.encode("utf-8")
        path.write_bytes(content)
        return path

    def add_synthetic(self, recipe_id: str, **parameters: Any) -> dict[str, Any]:
        data = recipe_data(self.reference, name=recipe_id.rsplit("/", 1)[1], **parameters)
        self.add(recipe_id, data)
        return data

    def add_seed(self, recipe_id: str = SEED_ID) -> Path:
        return self.add(recipe_id, SEED_PATH.read_bytes())

    def add_fixture(self, recipe_id: str) -> Path:
        """One of the frozen recipes in tests/fixtures, under its own id."""
        return self.add(recipe_id, fixture_path(f"recipes/{recipe_id}.yaml").read_bytes())

    def buildable(self) -> Path:
        """The project's root, once it is known to hold everything a build needs."""
        assert (self.root / "mkdocs.yml").is_file(), "this project holds its data alone: mark the test `site`"
        return self.root

    def build(self) -> BuildResult:
        return build_site(self.buildable(), self.site)


class _LogLines(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(f"{record.levelname} {record.getMessage()}")


def build_site(root: Path, site: Path) -> BuildResult:
    """Build like `mkdocs build --strict` and keep what it logged."""
    _assert_in_a_slow_tier("builds a whole site")
    handler = _LogLines()
    logger = logging.getLogger("mkdocs")
    logger.addHandler(handler)
    try:
        config = load_config(config_file=str(root / "mkdocs.yml"), site_dir=str(site), strict=True)
        try:
            build(config)
            ok = True
        except Abort:
            ok = False
    finally:
        logger.removeHandler(handler)
    return BuildResult(ok, site, handler.lines)


SAMPLE = (
    f"recipes/{SEED_ID}.yaml",
    "recipes/deepseek-v3/gb200/mb-26.08-mxfp8-256gpu.yaml",  # published: MoE, MTP, the publisher's figures
    "recipes/nemotron-3-nano-30b-a3b/gb200/mb-26.06-mxfp8-8gpu.yaml",  # deprecated, superseded by the next one
    "recipes/nemotron-3-nano-30b-a3b/gb200/mb-26.06.01-mxfp8-8gpu.yaml",
    "recipes/llama-3.1-8b/h200/tt-202506-trainy-whitefiber-fp8-32gpu.yaml",  # published with its launch script
)
"""A few real recipes of every kind (frozen copies, in tests/fixtures), for tests that need real ones."""

FIXTURE_RECIPES = tuple(
    path.relative_to(FIXTURES).as_posix() for path in sorted((FIXTURES / "recipes").rglob("*.yaml"))
)
"""Every frozen recipe: SAMPLE, an MLPerf result, a recipe published long ago."""


def fixture_path(relative: str) -> Path:
    """A project file as the tests know it: a recipe from the frozen copies, anything else
    (reference data, the schema) from the project."""
    return (FIXTURES if relative.startswith("recipes/") else REPO) / relative


def copy_project(destination: Path, *, with_recipes: bool | Sequence[str] = False) -> Path:
    """A copy of the project: without recipes, with all of the catalogue's (`True`), or with the
    frozen copies named (paths under tests/fixtures, such as SAMPLE)."""
    # The hook without the package: every process the tests start imports the one installed here.
    if isinstance(with_recipes, bool):
        return bench.copy_project(REPO, destination, with_recipes=with_recipes, package=False)
    root = bench.copy_project(REPO, destination, package=False)
    for relative in with_recipes:
        target = root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes((FIXTURES / relative).read_bytes())
    return root


@pytest.fixture(scope="session")
def reference() -> Reference:
    loaded, problems = load_reference(REPO)
    assert loaded is not None, problems
    return loaded


DATA_PARTS = ("schema", "reference")
"""What loading and planning a catalogue read besides recipes/."""


@pytest.fixture
def project(tmp_path: Path, reference: Reference, request: pytest.FixtureRequest) -> Project:
    """A copy of the project's data (its schemas, its reference data, an empty recipes/ folder), which
    is what loading, validating and planning a catalogue read; for a test marked `site`, of everything
    a build needs. Most tests need the data only, and a file costs about a millisecond of kernel time
    on the machines these tests run on: the whole project is ten times the files."""
    root = tmp_path / "project"
    if request.node.get_closest_marker("site"):
        return Project(copy_project(root), reference)
    return Project(bench.copy_project(REPO, root, parts=DATA_PARTS), reference)


class TextAndTags(HTMLParser):
    """Collects an HTML page's visible text, its elements, and the text of chosen elements."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self._capture: list[list[str]] = []
        self._depth: list[int] = []
        self.captured: list[str] = []
        self.capture_when: Any = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        self.elements.append((tag, attributes))
        if self._depth:
            self._depth[-1] += 1
        elif self.capture_when and self.capture_when(tag, attributes):
            self._capture.append([])
            self._depth.append(1)

    def handle_endtag(self, tag: str) -> None:
        if self._depth:
            self._depth[-1] -= 1
            if self._depth[-1] == 0:
                self._depth.pop()
                self.captured.append("".join(self._capture.pop()))

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self._capture:
            self._capture[-1].append(data)


def parse(html: str, capture_when: Any = None) -> TextAndTags:
    parser = TextAndTags()
    parser.capture_when = capture_when
    parser.feed(html)
    parser.close()
    return parser


def code_blocks(html: str) -> list[str]:
    """The exact text of every code block (`<pre>`), as a reader selects and copies it."""
    return parse(html, capture_when=lambda tag, attrs: tag == "pre").captured


def built_once(tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], Path]) -> BuildResult:
    """A site built once per test run, whichever xdist worker asks for it first; the others wait
    for that build and read it. `make(folder)` writes the project into `folder` and returns its
    root. Only for sites the tests read and never change."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    folder = shared / f"built-once-{name}"
    with (shared / f"built-once-{name}.lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
        record = folder / "build.json"
        if not record.exists():
            shutil.rmtree(folder, ignore_errors=True)  # a build that was cut short
            result = build_site(make(folder), folder / "site")
            record.write_text(json.dumps({"ok": result.ok, "log": result.log}), encoding="utf-8")
        built = json.loads(record.read_text(encoding="utf-8"))
    return BuildResult(built["ok"], folder / "site", built["log"])


@pytest.fixture(scope="session")
def seed_site(tmp_path_factory: pytest.TempPathFactory) -> BuildResult:
    """The project's own catalogue (the seed and every committed recipe), built once and only read.
    Its recipes are data anyone may edit: a test of it asserts what holds for any valid catalogue
    (structure, policy, counts from the recipes it loads), never a figure or a text of one recipe;
    those are tested on `fixture_site`."""
    result = built_once(tmp_path_factory, "seed", lambda folder: copy_project(folder / "project", with_recipes=True))
    assert result.ok, result.log
    return result


@pytest.fixture(scope="session")
def fixture_site(tmp_path_factory: pytest.TempPathFactory) -> BuildResult:
    """The frozen recipes (FIXTURE_RECIPES: the seed, SAMPLE and a few more), built once and only read."""
    result = built_once(
        tmp_path_factory, "fixtures", lambda folder: copy_project(folder / "project", with_recipes=FIXTURE_RECIPES)
    )
    assert result.ok, result.log
    return result


@pytest.fixture(scope="session")
def fixture_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project's data (schema, reference data) with the frozen recipes, to load, never to change."""
    root = tmp_path_factory.mktemp("fixtures") / "project"
    bench.copy_project(REPO, root, parts=DATA_PARTS)
    for relative in FIXTURE_RECIPES:
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_bytes((FIXTURES / relative).read_bytes())
    return root


@pytest.fixture(scope="session")
def fixture_entries(fixture_root: Path) -> dict[str, Entry]:
    """The frozen recipes as the catalogue reads and checks them, by id: what their pages show is
    computed from these."""
    catalogue = load_catalogue(fixture_root)
    assert catalogue.problems == (), catalogue.problems
    return {entry.recipe.id: entry for entry in catalogue.entries}
