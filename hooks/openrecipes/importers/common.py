"""What an importer produces: the recipes a publisher's tables make, and the rows that make none."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..loader import slug

_ID_PART = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass(frozen=True)
class Planned:
    """One recipe an import would write."""

    id: str
    """`<model slug>/<gpu slug>/<name>`, the file recipes/<id>.yaml."""
    data: dict[str, Any]
    configuration: tuple[Any, ...] | None = None
    """What makes two rows of different releases the same configuration; None: never superseded."""
    release: tuple[int, ...] = ()
    """Orders releases, newest last; a newer release's recipe supersedes an older one's."""
    release_name: str = ""


@dataclass(frozen=True)
class Skipped:
    """A published row that makes no recipe, and why."""

    where: str
    reason: str


@dataclass(frozen=True)
class Import:
    importer: str
    """The `source.importer` value of every recipe written: how the sync knows its own files."""
    recipes: tuple[Planned, ...]
    skipped: tuple[Skipped, ...]
    owns: Callable[[str], bool]
    """Whether a recipe id this importer wrote before is one this import answers for (it may
    remove it); `openrecipes import megatron-bridge --release 26.08` leaves other releases alone."""


def recipe_id(model: str, gpu: str, name: str) -> str:
    return f"{slug(model)}/{slug(gpu)}/{name_part(name)}"


def name_part(text: str) -> str:
    """Text made fit for a recipe id segment: letters, digits, `.`, `_` and `-`."""
    return _ID_PART.sub("-", text).strip("-.")
