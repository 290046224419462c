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
    """Renders every output in a forked worker, in order, ahead of the requests.

    A thread here keeps reading what the worker sends, up to `LOOKAHEAD_CHARACTERS` of text
    ahead of the requests: without it the pipe fills after a page or two and the worker stalls,
    so a slow output (the home page, the JSON export) would only start rendering when MkDocs asks
    for it. With it the worker runs hundreds of pages ahead, and memory stays bounded.
    """

    LOOKAHEAD_CHARACTERS = 32_000_000

    def __init__(self, renders: Sequence[Render]) -> None:
        super().__init__(renders)
        context = multiprocessing.get_context("fork")
        self._receive, send = context.Pipe(duplex=False)
        self._process = context.Process(target=_work, args=(renders, send), daemon=True)
        self._process.start()
        send.close()
        # The worker has its own copy of everything the renders need; dropping ours frees the
        # catalogue in this process, which the garbage collector would otherwise keep rescanning.
        self._renders = ()
        self._ready: dict[int, str] = {}
        self._failure: str | None = None
        self._finished = False
        self._waiting = 0
        self._buffered = 0
        self._changed = threading.Condition()
        self._reader = threading.Thread(target=self._read, name="openrecipes-pages", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            with self._changed:
                self._changed.wait_for(self._may_read)
                if self._finished:
                    return
            try:
                received, payload = self._receive.recv()
            except (EOFError, OSError):
                received, payload = -1, "the page-rendering worker stopped before rendering every page"
            with self._changed:
                if received < 0:
                    self._failure = payload
                    self._finished = True
                else:
                    self._ready[received] = payload
                    self._buffered += len(payload)
                self._changed.notify_all()
            if received < 0:
                return

    def _may_read(self) -> bool:
        # Past the lookahead only when a request is waiting: outputs asked for out of order
        # must never leave the reader and the request waiting for each other.
        return self._finished or self._buffered < self.LOOKAHEAD_CHARACTERS or self._waiting > 0

    def get(self, index: int) -> str:
        with self._changed:
            self._waiting += 1
            self._changed.notify_all()
            self._changed.wait_for(lambda: index in self._ready or self._failure is not None)
            self._waiting -= 1
            if index not in self._ready:
                raise RuntimeError(f"rendering a generated page failed in the worker:\n{self._failure}")
            text = self._ready.pop(index)
            self._buffered -= len(text)
            self._changed.notify_all()
            return text

    def close(self) -> None:
        with self._changed:
            self._finished = True
            self._changed.notify_all()
        if self._process.is_alive():
            self._process.terminate()
        self._process.join()
        self._reader.join()
        self._receive.close()


def _work(renders: Sequence[Render], send: Connection) -> None:
    try:
        for index, render in enumerate(renders):
            send.send((index, render()))
        send.send((-1, "the worker rendered every page"))  # read only if asked for more
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
