"""`mkdocs serve`: edits to recipes rebuild the site; a broken recipe prints its problems and the
server keeps serving the last good site until the file is fixed."""

from __future__ import annotations

import copy
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import yaml
from conftest import REPO, SEED, SEED_ID, Project, copy_project
from mkdocs.commands.build import build
from mkdocs.config import load_config

from openrecipes.loader import PAGE_ONLY
from openrecipes.reading.placeholders import SchemaWalker, schema_types
from openrecipes.reading.reference import Reference
from openrecipes.reading.schema import SCHEMA_RELATIVE_PATH, Schema

# One worker runs them all, so each mode's server is started once (see served_project).
pytestmark = [pytest.mark.build, pytest.mark.xdist_group("serve")]

TIMEOUT = 60


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    def __init__(self, project: Project, *options: str) -> None:
        self.port = _free_port()
        self.lines: list[str] = []
        env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "mkdocs", "serve", *options, "-a", f"127.0.0.1:{self.port}"],
            cwd=project.buildable(),
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/openrecipes/"

    def get(self, path: str = "") -> str:
        return self.get_bytes(path).decode("utf-8")

    def get_bytes(self, path: str) -> bytes:
        with urllib.request.urlopen(self.url + urllib.parse.quote(path), timeout=30) as response:
            return response.read()

    def wait_for(self, condition: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            try:
                if condition():
                    return
            except OSError:
                pass
            assert self.process.poll() is None, "\n".join(self.lines)
            time.sleep(0.1)
        pytest.fail(f"timed out waiting for {what}:\n" + "\n".join(self.lines))

    def builds(self) -> int:
        return sum("Building documentation" in line for line in self.lines)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)
        self.reader.join(timeout=10)
        assert self.process.stdout is not None
        self.process.stdout.close()


@pytest.fixture(scope="module", params=[(), ("--dirty",)], ids=["serve", "serve-dirty"])
def served_project(
    tmp_path_factory: pytest.TempPathFactory, reference: Reference, request: pytest.FixtureRequest
) -> Iterator[tuple[Project, Server]]:
    """The seed served, in each mode, to the tests below in turn: each leaves the project as sound as
    it found it (a server started costs seconds)."""
    project = Project(copy_project(tmp_path_factory.mktemp("served") / "project"), reference)
    project.add_seed()
    running = Server(project, *request.param)
    yield project, running
    running.stop()


@pytest.fixture
def project_and_server(served_project: tuple[Project, Server]) -> tuple[Project, Server]:
    project, server = served_project
    server.wait_for(lambda: "data-recipe=" in server.get(), "a sound catalogue")
    return project, server


def test_broken_edit_is_reported_and_the_server_recovers(project_and_server: tuple[Project, Server]) -> None:
    project, server = project_and_server
    recipe = project.root / "recipes/qwen3.8-27b/h200/attune-tp4-pp2.yaml"

    recipe.write_text(SEED.replace("  tp: 4\n", "  tp: four\n"), encoding="utf-8")
    error = "recipes/qwen3.8-27b/h200/attune-tp4-pp2.yaml:58:7: $.layout.tp: 'four' is not of type 'integer'"
    server.wait_for(lambda: any(error in line for line in server.lines), "the problem to be printed")
    server.wait_for(lambda: "1 problem in the recipes" in server.get(), "the problem shown on the home page")
    home = server.get()
    assert "$.layout.tp: &#x27;four&#x27; is not of type &#x27;integer&#x27;" in home
    assert "data-recipe=" not in home, "the broken recipe is left out"
    assert "Methodology" in home, "the rest of the site is still served"
    assert not any("Traceback" in line for line in server.lines)

    recipe.write_text(
        SEED.replace("1194.3", "1200.0").replace("usd_per_million_tokens: 1.84", "usd_per_million_tokens: 1.83")
    )
    server.wait_for(lambda: ">1,200</td>" in server.get(), "the fixed recipe to be served")  # 1200.0: a whole number

    # A build that set off another would show within one polling interval of MkDocs' watcher (0.5 s).
    settled = server.builds()
    time.sleep(1.5)
    assert server.builds() == settled, "no rebuild loop"


def test_broken_reference_data_is_shown_on_every_page_of_the_navigation(
    project_and_server: tuple[Project, Server],
) -> None:
    project, server = project_and_server
    gpus = project.root / "reference/gpus.yaml"
    sound = gpus.read_text(encoding="utf-8")
    gpus.write_text(sound.replace("  memory_gb: 141\n", "  memory: 141\n"), encoding="utf-8")
    server.wait_for(lambda: "The catalogue is unavailable" in server.get(), "the problem shown on the home page")
    # Every page the navigation names still answers (strict mode and missing nav pages hung them).
    for page in ("", "models/", "gpus/", "compare/", "methodology/", "schema/"):
        text = server.get(page)
        assert "reference/gpus.yaml:" in text and "unknown key &#x27;memory&#x27;" in text, page
    assert "Contribute" in server.get("contributing/")
    assert not any("Traceback" in line for line in server.lines)

    gpus.write_text(sound, encoding="utf-8")
    server.wait_for(lambda: "data-recipe=" in server.get(), "the catalogue back once the data is fixed")


# -- mkdocs serve --dirty (./dev serve): rebuilds only what an edit changes, and serves exactly what a full build makes


PUBLISHED = "deepseek-v3/gb200/mb-26.08-mxfp8-256gpu"
OTHERS = ("qwen3.8-27b/h200/cheaper", "qwen3.8-27b/h200/dearer")
# Served pages carry MkDocs' live-reload script, added as each page is sent; the files are as built.
LIVE_RELOAD = re.compile(rb"<script>\s*var livereload = function.*?</script>", re.DOTALL)


def _full_build(project: Project, site: Path, url: str) -> None:
    """A full build as `mkdocs serve` makes one (its command, its address), without a server."""
    config = load_config(config_file=str(project.root / "mkdocs.yml"), site_dir=str(site))
    config.plugins.on_startup(command="serve", dirty=False)
    try:
        config.site_url = url
        build(config, serve_url=url)
    finally:
        config.plugins.on_shutdown()


@pytest.fixture
def dirty_server(project: Project) -> Iterator[Server]:
    project.add_seed()
    project.add_fixture(PUBLISHED)
    for recipe_id, tokens in zip(OTHERS, (1500.0, 900.0), strict=True):
        project.add_synthetic(
            recipe_id, model="Qwen3.8-27B", gpu="H200", instance="AWS p5en.48xlarge", tokens_per_s=tokens
        )
    running = Server(project, "--dirty")
    yield running
    running.stop()


def _assert_served_as_built(project: Project, server: Server, gone: tuple[str, ...] = ()) -> None:
    """Every file of a fresh full build is served byte for byte, and no file it lacks is served."""
    site = project.root.parent / "full-build"
    shutil.rmtree(site, ignore_errors=True)
    _full_build(project, site, server.url)
    built = sorted(path for path in site.rglob("*") if path.is_file())
    assert len(built) > 50  # a whole site, not an empty folder
    differ = []
    for path in built:
        relative = path.relative_to(site).as_posix()
        served = server.get_bytes(relative)
        if relative.endswith(".html"):
            served = LIVE_RELOAD.sub(b"", served)
        if served != path.read_bytes():
            differ.append(relative)
    assert differ == [], "served otherwise than a full build makes them"
    for relative in gone:
        assert not (site / relative).exists()
        with pytest.raises(urllib.error.HTTPError, match="404"):
            server.get_bytes(relative)


def _open_mapping(node: dict) -> bool:
    """Whether a mapping takes keys of the reader's (an environment), not only those it names."""
    return bool(node.get("patternProperties")) or node.get("additionalProperties") is not False


def _edit_texts(items: list) -> None:
    """Each item's free texts, changed."""
    for item in items:
        for key in ("description", "note", "what"):
            if isinstance(item, dict) and key in item:
                item[key] += " Edited."


EDITED = "Edited where only its page shows it."


def _edited_page_only_fields(data: dict) -> dict:
    """`data` with every field loader.PAGE_ONLY names changed (a text added where the recipe has none)."""
    data = copy.deepcopy(data)
    walker = SchemaWalker(Schema.load(REPO / SCHEMA_RELATIVE_PATH).document)
    for path in PAGE_ONLY:
        *parents, name = path
        holder, node = data, walker.document
        for parent in parents:
            holder = holder.setdefault(parent, {}) if holder.get(parent) is not None else {}
            node = walker.child(node, parent) or {}
        value = holder.get(name)
        text = "string" in schema_types(walker.child(node, name) or {})
        # An absent text is written only where no condition of the schema ties it to other values
        # (a launch's reason is for a launch of kind not-published alone).
        conditional = bool(parents) and any(key in walker.resolve(node) for key in ("allOf", "if", "oneOf"))
        if (value is None and text and not conditional) or isinstance(value, str):
            # A checkout is steps of git and cd alone (reading/launchsafety.py): its edit is a comment.
            edit = f"# {EDITED}" if path == ("launch", "checkout") else EDITED
            holder[name] = (value or "") + "\n" + edit
        elif value is None:
            continue
        elif isinstance(value, dict) and _open_mapping(walker.child(node, name) or {}):
            holder[name] = {**value, "EDITED_BY_THE_TEST": "1"}
        elif isinstance(value, dict):  # a closed mapping (a launch's source): its lists' texts
            holder[name] = copy.deepcopy(value)
            for items in holder[name].values():
                _edit_texts(items if isinstance(items, list) else [])
        else:
            _edit_texts(value)
    return data


@pytest.mark.site
def test_dirty_serve_rebuilds_edits_and_serves_what_a_full_build_makes(project: Project, dirty_server: Server) -> None:
    server = dirty_server
    seed_page = f"recipes/{SEED_ID}/"
    server.wait_for(lambda: "data-recipe=" in server.get(), "the first build")
    _assert_served_as_built(project, server)

    # Every field only a recipe's own page shows, in two recipes (between them they hold each one):
    # the pages that list recipes are not made again, and the site is still what a full build makes.
    for recipe_id in (SEED_ID, PUBLISHED):
        path = project.root / "recipes" / f"{recipe_id}.yaml"
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.SafeLoader)
        path.write_text(yaml.safe_dump(_edited_page_only_fields(data), sort_keys=False), encoding="utf-8")
    server.wait_for(lambda: "Edited where only its page shows it." in server.get(f"recipes/{PUBLISHED}/"), "edits")
    assert "Edited where only its page shows it." in server.get(seed_page)
    _assert_served_as_built(project, server)

    # A figure every list shows: the home page, the model's and GPU's pages, the charts, the exports.
    project.add_synthetic(OTHERS[0], model="Qwen3.8-27B", gpu="H200", instance="AWS p5en.48xlarge", tokens_per_s=1700.0)
    server.wait_for(lambda: ">1,700<" in server.get(f"recipes/{OTHERS[0]}/"), "the new throughput")
    _assert_served_as_built(project, server)

    # A recipe removed: its page and files go, as a full build would not write them.
    (project.root / "recipes" / f"{OTHERS[1]}.yaml").unlink()
    gone = (f"recipes/{OTHERS[1]}/index.html", f"recipes/{OTHERS[1]}.yaml", f"api/recipes/{OTHERS[1]}.json")
    server.wait_for(lambda: OTHERS[1] not in server.get(), "the removal")
    _assert_served_as_built(project, server, gone)
    assert not any("Traceback" in line for line in server.lines)
