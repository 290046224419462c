"""The forked page renderer hands out exactly what rendering in-process would, in any order, and
reports a failure in the worker as the failure it was."""

from __future__ import annotations

import functools
import os

import pytest

from openrecipes.serving.pagerender import ForkedRenderer, Renderer, renderer

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the forked renderer needs os.fork")


def _page(index: int) -> str:
    return f"page {index}\n" + "x" * (index * 997 % 50_000)


RENDERS = [functools.partial(_page, index) for index in range(300)]


@pytest.mark.parametrize("order", ["forward", "backward", "interleaved"])
def test_forked_rendering_matches_in_process_rendering_in_any_order(order: str) -> None:
    indexes = list(range(len(RENDERS)))
    if order == "backward":
        indexes.reverse()
    elif order == "interleaved":
        indexes = indexes[1::2] + indexes[::2]
    # A small lookahead makes requests arrive both ahead of and behind what was submitted.
    forked = ForkedRenderer(RENDERS, lookahead=8, background=20)
    try:
        got = [forked.get(index) for index in indexes]
    finally:
        forked.close()
    assert got == [Renderer(RENDERS).get(index) for index in indexes]


def test_a_failure_in_the_worker_is_raised_as_itself() -> None:
    def broken() -> str:
        raise ValueError("a template bug")

    forked = ForkedRenderer([RENDERS[0], broken, RENDERS[2]], lookahead=2)
    try:
        assert forked.get(0) == _page(0)
        with pytest.raises(ValueError, match="a template bug"):
            forked.get(1)
        assert forked.get(2) == _page(2)  # the worker goes on after one output fails
    finally:
        forked.close()


def test_closing_early_stops_the_worker_and_closing_twice_is_harmless() -> None:
    forked = ForkedRenderer(RENDERS)
    forked.close()
    forked.close()
    with pytest.raises(RuntimeError):
        forked.get(0)


def test_without_parallelism_it_renders_in_process() -> None:
    assert type(renderer(RENDERS, parallel=False)) is Renderer
    assert renderer(RENDERS, parallel=False).get(5) == _page(5)
