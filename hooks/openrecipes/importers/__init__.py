"""`openrecipes import`: publishers' benchmark tables as `published` recipes, re-runnable on their next commit.

Each source has a parser that only reads (`megatron_bridge`, `torchtitan`, `mlperf`, `dgxc`: the
publisher's files into typed rows) and a module that turns rows into recipe data (`*_recipes`); `sync`
writes them, touching only the files the importer wrote itself. Nothing here imports MkDocs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from . import (
    dgxc,
    dgxc_recipes,
    megatron_bridge,
    megatron_bridge_cards,
    megatron_bridge_cards_recipes,
    megatron_bridge_recipes,
    mlperf,
    mlperf_recipes,
    sync,
    torchtitan,
    torchtitan_recipes,
)
from .common import Import
from .gitsource import GitSource

ParseError = (
    megatron_bridge.ParseError,
    torchtitan.ParseError,
    mlperf.ParseError,
    dgxc.ParseError,
    megatron_bridge_cards.CardError,
)
"""What a publisher's file in an unknown shape raises (each is a ValueError)."""

IMPORTERS: dict[str, Callable[[GitSource, Sequence[str] | None], Import]] = {
    megatron_bridge_recipes.IMPORTER: megatron_bridge_recipes.build,
    # The model verification cards: their own files, ids (mb-card-…) and evidence, so an importer of their own
    # (a card's run is not a row of a release: --release means nothing to it).
    megatron_bridge_cards_recipes.IMPORTER: lambda source, _releases: megatron_bridge_cards_recipes.build(source),
    torchtitan_recipes.IMPORTER: lambda source, _releases: torchtitan_recipes.build(source),
    # MLPerf's option is the round (`--round 5.0`), for a clone whose README does not name it.
    mlperf_recipes.IMPORTER: lambda source, round_name: mlperf_recipes.build(source, round_name),  # type: ignore[arg-type]
    # DGX Cloud Benchmarking's option is the release tags to read (`--release v25.05.05`; default: every tag).
    dgxc_recipes.IMPORTER: dgxc_recipes.build,
}

__all__ = ["IMPORTERS", "Import", "ParseError", "sync"]
