"""What an importer produces: the recipes a publisher's tables make, and the rows that make none."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..loader import slug
from ..reading.envnames import is_dangerous_name

if TYPE_CHECKING:
    from .supersede import Configuration

_ID_PART = re.compile(r"[^A-Za-z0-9._-]+")


def github_permalink(repository: str, commit: str, path: str, first: int | None = None, last: int | None = None) -> str:
    """A link to `path` (and its lines `first` to `last`) at `commit` of `repository` on GitHub."""
    anchor = "" if not first else f"#L{first}" if last in (None, first) else f"#L{first}-L{last}"
    return f"https://github.com/{repository}/blob/{commit}/{path}{anchor}"


@dataclass(frozen=True)
class Cited:
    """Lines of a publisher's file that a launch rests on (the whole file when `first` is None)."""

    path: str
    first: int | None
    last: int | None
    what: str

    def launch_file(self, repository: str, commit: str) -> dict[str, Any]:
        """The entry of `launch.source.files` that cites it, linked at `commit`."""
        lines = {"lines": [self.first, self.last or self.first]} if self.first is not None else {}
        return {
            "path": self.path,
            **lines,
            "what": self.what,
            "url": github_permalink(repository, commit, self.path, self.first, self.last),
        }


@dataclass(frozen=True)
class MissingFile:
    """A file a launch needs that is not in the repository at its commit (`launch.missing`)."""

    path: str
    file: str
    """The publisher's file that needs it."""
    line: int | None
    what: str
    """How the launch needs it (`sourced by the configuration`)."""

    @property
    def data(self) -> dict[str, Any]:
        line = {"line": self.line} if self.line else {}
        return {"path": self.path, "file": self.file, **line, "what": self.what}


@dataclass(frozen=True)
class Planned:
    """One recipe an import would write."""

    id: str
    """`<model slug>/<gpu slug>/<name>`, the file recipes/<id>.yaml."""
    data: dict[str, Any]
    configuration: Configuration | None = None
    """What makes two rows of different releases the same configuration (supersede.py's rule);
    None: never superseded."""
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
    releases_skipped: tuple[Skipped, ...] = ()
    """Releases the source prints of which no row makes a recipe, each with why (Megatron-Bridge's
    25.09, whose tables have no Precision column): said apart from their rows, in the output."""


def recipe_id(model: str, gpu: str, name: str) -> str:
    return f"{slug(model)}/{slug(gpu)}/{name_part(name)}"


def name_part(text: str) -> str:
    """Text made fit for a recipe id segment: letters, digits, `.`, `_` and `-`."""
    return _ID_PART.sub("-", text).strip("-.")


def withhold(
    env: Mapping[str, str], where: Mapping[str, tuple[str, int]]
) -> tuple[dict[str, str], list[dict[str, Any]]]:
    """A publisher's environment split into what `launch.env` may hold and `launch.withheld`: each name
    a recipe may not set (`envnames.py`), with its value and the file and line that set it (`where`,
    by name), which the page shows as a warning and no script exports."""
    kept: dict[str, str] = {}
    withheld: list[dict[str, Any]] = []
    for name, value in env.items():
        if is_dangerous_name(name) is None:
            kept[name] = value
            continue
        if name not in where:
            raise ValueError(f"{name} is set, and withheld, but the importer does not know which line sets it")
        file, line = where[name]
        withheld.append({"name": name, "value": value, "file": file, "line": line})
    return kept, withheld
