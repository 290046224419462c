"""Rendering the generated outputs on the second core while MkDocs converts the ones already rendered.

A build spends most of its time in MkDocs (Markdown, templates, search index), one page after
another on one core. The catalogue's own rendering can run beside it: a forked worker process
renders the outputs in the order MkDocs will ask for them, a bounded number ahead, and MkDocs
almost never waits. The result is the same as rendering in-process, byte for byte.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

Render = Callable[[], Any]

_renders: Sequence[Render] = ()  # the worker's copy, inherited when it is forked


def _install(renders: Sequence[Render]) -> None:
    global _renders
    _renders = renders


def _render(index: int) -> Any:
    return _renders[index]()


class Renderer:
    """Hands out `renders[i]()` by index. This base class renders in-process, when asked."""

    def __init__(self, renders: Sequence[Render]) -> None:
        self._renders = renders

    def get(self, index: int) -> Any:
        return self._renders[index]()

    def close(self) -> None:
        """Release what rendering holds; safe to call more than once."""


class ForkedRenderer(Renderer):
    """Renders in one forked worker, at most `lookahead` outputs ahead of the last one asked for.

    The bound keeps memory flat at any catalogue size; outputs asked for out of order are
    submitted on demand. The last `background` outputs (the exports, which MkDocs asks for only
    after every page) are submitted right after the first pages, so they are ready when asked for.
    """

    def __init__(self, renders: Sequence[Render], lookahead: int = 64, background: int = 0) -> None:
        super().__init__(renders)
        self._count = len(renders) - background
        self._lookahead = lookahead
        self._futures: dict[int, Future[Any]] = {}
        self._next = 0  # the next index not yet submitted in order
        self._executor = ProcessPoolExecutor(
            max_workers=1,
            mp_context=multiprocessing.get_context("fork"),
            initializer=_install,
            initargs=(renders,),
        )
        self._submit_up_to(lookahead)
        for index in range(self._count, len(renders)):
            self._futures[index] = self._executor.submit(_render, index)
        # The worker has its own copy of everything the renders need; dropping ours lets this
        # process free the catalogue, which the garbage collector would otherwise keep rescanning.
        self._renders = ()

    def _submit_up_to(self, end: int) -> None:
        while self._next < min(end, self._count):
            if self._next not in self._futures:
                self._futures[self._next] = self._executor.submit(_render, self._next)
            self._next += 1

    def get(self, index: int) -> Any:
        future = self._futures.pop(index, None)
        if future is None:
            future = self._executor.submit(_render, index)
        self._submit_up_to(max(self._next, index + 1 + self._lookahead))
        return future.result()

    def close(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)
        self._futures.clear()


def renderer(renders: Sequence[Render], *, parallel: bool, background: int = 0) -> Renderer:
    """A forked renderer when it is safe and useful, else in-process (`background`: see ForkedRenderer).

    Forking is only safe in a process without other threads (`mkdocs serve` runs a file watcher
    and a web server), and needs `os.fork` (not on Windows) and a second core.
    """
    usable = parallel and hasattr(os, "fork") and threading.active_count() == 1 and (os.cpu_count() or 1) > 1
    return ForkedRenderer(renders, background=background) if usable else Renderer(renders)
