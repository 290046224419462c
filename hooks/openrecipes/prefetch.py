"""Rendering generated pages in a second process while MkDocs converts the ones already rendered.

A build spends most of its time in MkDocs (Markdown, templates, search index), one page after
another on one core. The catalogue's own rendering can run beside it on the other core: a forked
worker renders the outputs in order and streams them back; MkDocs asks for each when it gets to
it and almost never waits. The text is the same as rendering in-process, byte for byte.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import traceback
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection

Render = Callable[[], str]


class Renderer:
    """Hands out `renders[i]()` by index. This base class renders in-process, when asked."""

    def __init__(self, renders: Sequence[Render]) -> None:
        self._renders = renders

    def get(self, index: int) -> str:
        return self._renders[index]()

    def close(self) -> None:
        """Release what rendering holds; safe to call more than once."""


class ForkedRenderer(Renderer):
    """Renders every output in a forked worker, in order, ahead of the requests."""

    def __init__(self, renders: Sequence[Render]) -> None:
        super().__init__(renders)
        context = multiprocessing.get_context("fork")
        self._receive, send = context.Pipe(duplex=False)
        self._process = context.Process(target=_work, args=(renders, send), daemon=True)
        self._process.start()
        send.close()
        self._ready: dict[int, str] = {}

    def get(self, index: int) -> str:
        while index not in self._ready:
            try:
                received, payload = self._receive.recv()
            except EOFError:
                raise RuntimeError("the page-rendering worker stopped before rendering every page") from None
            if received < 0:
                raise RuntimeError(f"rendering a generated page failed in the worker:\n{payload}")
            self._ready[received] = payload
        return self._ready.pop(index)

    def close(self) -> None:
        self._receive.close()
        if self._process.is_alive():
            self._process.terminate()
        self._process.join()


def _work(renders: Sequence[Render], send: Connection) -> None:
    try:
        for index, render in enumerate(renders):
            send.send((index, render()))
    except Exception:  # a bug of ours: report it to the parent, which raises it
        send.send((-1, traceback.format_exc()))
    finally:
        send.close()


def renderer(renders: Sequence[Render], *, parallel: bool) -> Renderer:
    """A forked renderer when it is safe and useful, else in-process.

    Forking is only safe in a process without other threads (`mkdocs serve` runs a file watcher
    and a web server), and needs `os.fork` (not on Windows).
    """
    usable = parallel and hasattr(os, "fork") and threading.active_count() == 1 and (os.cpu_count() or 1) > 1
    return ForkedRenderer(renders) if usable else Renderer(renders)
