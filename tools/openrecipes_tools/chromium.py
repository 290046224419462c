"""Headless Chromium for the browser tests and `./dev bench`, and a built site to open in it.

Chromium is Debian's (`apt-get install chromium`), driven by Playwright's Python package through
`executable_path`: Playwright's own browser download needs the internet.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

CHROMIUM = os.environ.get("OPENRECIPES_CHROMIUM") or (
    "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else shutil.which("chromium") or "/usr/bin/chromium"
)
ARGS = [
    "--no-sandbox",  # CI runs as root
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-dev-shm-usage",  # containers' small /dev/shm
]


def unavailable() -> str | None:
    """Why Chromium cannot be driven here, or None."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright's Python package is not installed (pip install -e '.[test]')"
    if not Path(CHROMIUM).exists():
        return f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)"
    return None


class _QuietHandler(SimpleHTTPRequestHandler):
    # Chromium opens connections ahead of need; an idle one must not keep its thread (and socket)
    # alive after the pages are done with.
    timeout = 30

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextlib.contextmanager
def serving(site: Path) -> Iterator[str]:
    """`site` served on 127.0.0.1 while the block runs; yields its address."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
