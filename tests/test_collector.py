"""serving/collector.py: a rebuild under `mkdocs serve --dirty` runs without the cyclic collector,
and its garbage is collected once the server is idle."""

from __future__ import annotations

import gc
import time
from collections.abc import Iterator

import pytest

from openrecipes.serving.collector import IdleCollector


@pytest.fixture
def collector() -> Iterator[IdleCollector]:
    made = IdleCollector(idle_seconds=0.05)
    try:
        yield made
    finally:
        made.close()
        gc.enable()


def _cycle() -> None:
    """Garbage only the cyclic collector frees."""
    first: dict[str, object] = {}
    first["self"] = first


def _wait_for(collector: IdleCollector, count: int) -> None:
    deadline = time.monotonic() + 10
    while collector.collections < count and time.monotonic() < deadline:
        time.sleep(0.01)


def test_a_rebuild_runs_without_the_collector_and_its_garbage_is_collected_when_idle(collector: IdleCollector) -> None:
    assert gc.isenabled()
    collector.rebuild_started()
    assert not gc.isenabled()
    _cycle()
    collector.rebuild_finished()
    _wait_for(collector, 1)
    assert collector.collections == 1
    assert gc.collect() == 0  # nothing left for a collection to find
    assert not gc.isenabled()  # still off until the server stops
    collector.close()
    assert gc.isenabled()


def test_a_rebuild_that_starts_before_the_server_is_idle_calls_the_collection_off() -> None:
    collector = IdleCollector(idle_seconds=0.5)
    try:
        collector.rebuild_started()
        collector.rebuild_finished()
        collector.rebuild_started()  # within the idle time: the collection does not run in it
        time.sleep(0.7)
        assert collector.collections == 0
        collector.rebuild_finished()
        _wait_for(collector, 1)
        assert collector.collections == 1
    finally:
        collector.close()
        gc.enable()


def test_closing_leaves_the_collector_off_when_it_was_off(collector: IdleCollector) -> None:
    gc.disable()
    collector.rebuild_started()
    collector.rebuild_finished()
    collector.close()
    assert not gc.isenabled()
