"""The forked page renderer hands out exactly what rendering in-process would, in any order."""

from __future__ import annotations

import functools

import pytest

from openrecipes.prefetch import ForkedRenderer, Renderer, renderer


def _page(index: int) -> str:
    return f"page {index}\n" + "x" * (index * 997 % 50_000)


RENDERS = [functools.partial(_page, index) for index in range(300)]


@pytest.mark.parametrize("order", ["forward", "backward", "interleaved"])
def test_forked_rendering_matches_in_process_rendering(order: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # A small lookahead forces the reader to stop and resume, and requests to arrive out of order.
    monkeypatch.setattr(ForkedRenderer, "LOOKAHEAD_CHARACTERS", 100_000)
    indexes = list(range(len(RENDERS)))
    if order == "backward":
        indexes.reverse()
    elif order == "interleaved":
        indexes = indexes[1::2] + indexes[::2]
    forked = ForkedRenderer(RENDERS)
    try:
        assert [forked.get(index) for index in indexes] == [Renderer(RENDERS).get(index) for index in indexes]
    finally:
        forked.close()


def test_a_failure_in_the_worker_is_raised_with_its_traceback() -> None:
    def broken() -> str:
        raise ValueError("a template bug")

    forked = ForkedRenderer([RENDERS[0], broken, RENDERS[2]])
    try:
        assert forked.get(0) == _page(0)
        with pytest.raises(RuntimeError, match=r"(?s)failed in the worker.*ValueError: a template bug"):
            forked.get(1)
    finally:
        forked.close()


def test_closing_early_stops_the_worker() -> None:
    forked = ForkedRenderer(RENDERS)
    forked.close()
    forked.close()  # twice is fine


def test_no_fork_when_not_parallel() -> None:
    assert type(renderer(RENDERS, parallel=False)) is Renderer
