"""The cyclic garbage collector under `mkdocs serve --dirty`: off while a rebuild runs, run once
the server has been idle a moment.

A rebuild of a large catalogue allocates a few hundred thousand objects (MkDocs' files and pages,
the plan's outputs) beside the millions the server keeps from one build to the next (every
recipe's record, its pieces). The allocations trigger the collector, which rescans what is kept:
at 3,000 recipes that was a fifth of a rebuild, between an edit and its page being served. So a
rebuild runs with the collector off, and the garbage it left is collected `IDLE_SECONDS` after it
ended, while the reader looks at the page, unless another rebuild has started by then. A plain
build keeps the collector as it is (the loader pauses it while it reads: loader.collector_paused).
"""

from __future__ import annotations

import gc
import threading

IDLE_SECONDS = 1.0


class IdleCollector:
    def __init__(self, idle_seconds: float = IDLE_SECONDS) -> None:
        self._idle_seconds = idle_seconds
        self._lock = threading.Lock()
        self._pending: threading.Timer | None = None
        self._was_enabled: bool | None = None
        self.collections = 0
        """Collections run so far (for tests)."""

    def rebuild_started(self) -> None:
        """The collector off until the rebuild ends, and any collection not yet begun called off."""
        with self._lock:
            self._cancel()
            if self._was_enabled is None:
                self._was_enabled = gc.isenabled()
            gc.disable()

    def rebuild_finished(self) -> None:
        """A collection once the server has been idle `idle_seconds`."""
        with self._lock:
            self._cancel()
            self._pending = threading.Timer(self._idle_seconds, self._collect)
            self._pending.daemon = True
            self._pending.start()

    def close(self) -> None:
        """The collector as it was before the first rebuild."""
        with self._lock:
            self._cancel()
            if self._was_enabled:
                gc.enable()
            self._was_enabled = None

    def _collect(self) -> None:
        with self._lock:
            if self._pending is None or self._pending is not threading.current_thread():
                return  # called off, or another one is due
            self._pending = None
            gc.collect()
            self.collections += 1

    def _cancel(self) -> None:
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
