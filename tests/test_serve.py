"""`mkdocs serve`: edits to recipes rebuild the site; a broken recipe prints its problems and the
server keeps serving the last good site until the file is fixed."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator

import pytest
from conftest import SEED, Project

TIMEOUT = 60


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    def __init__(self, project: Project) -> None:
        self.port = _free_port()
        self.lines: list[str] = []
        env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{self.port}"],
            cwd=project.root,
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

    def get(self, path: str = "") -> str:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/openrecipes/{path}", timeout=5) as response:
            return response.read().decode("utf-8")

    def wait_for(self, condition: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            try:
                if condition():
                    return
            except OSError:
                pass
            assert self.process.poll() is None, "\n".join(self.lines)
            time.sleep(0.2)
        pytest.fail(f"timed out waiting for {what}:\n" + "\n".join(self.lines))

    def builds(self) -> int:
        return sum("Building documentation" in line for line in self.lines)


@pytest.fixture
def server(project: Project) -> Iterator[Server]:
    project.add_seed()
    running = Server(project)
    yield running
    running.process.terminate()
    running.process.wait(timeout=10)
    running.reader.join(timeout=10)
    assert running.process.stdout is not None
    running.process.stdout.close()


def test_broken_edit_is_reported_and_the_server_recovers(project: Project, server: Server) -> None:
    server.wait_for(lambda: "data-recipe=" in server.get(), "the first build")
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
    server.wait_for(lambda: "1,200.0" in server.get(), "the fixed recipe to be served")

    settled = server.builds()
    time.sleep(3)
    assert server.builds() == settled, "no rebuild loop"


def test_broken_reference_data_is_shown_on_every_page_of_the_navigation(project: Project, server: Server) -> None:
    server.wait_for(lambda: "data-recipe=" in server.get(), "the first build")
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
