"""What is made from one recipe alone (its JSON record, CSV row, feed entry, table row, chart
point), made once and reused.

Within a build, `api/recipes.json` and each recipe's own `api/recipes/<id>.json` share the record.
Across `mkdocs serve` rebuilds, the load memo (`loader.LoadMemo`) hands out the very same `Entry`
for a file whose bytes are unchanged, so only an edited recipe's pieces are made again and the
exports of a large catalogue are put together from the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any

from ..loader import Entry

PLANNED = frozenset({"point", "outputs"})
"""Kinds of piece made while the site is planned, in the process that plans it: a chart's point
and a recipe's outputs hold its record, which cannot be pickled (records are made from the schema)."""


class Pieces:
    """Pieces by (kind, entry), valid while the entry is the same object and `extra` (what else the
    piece depends on, such as its page's URL) is equal. Entries are told apart by identity: an
    Entry compares by value, which would hash every field of the recipe."""

    def __init__(self) -> None:
        # The entry is kept beside its piece so that its id() cannot be reused while the piece lives.
        self._made: dict[tuple[str, int], tuple[Entry, Hashable, Any]] = {}
        self._latest: dict[str, tuple[Hashable, Any]] = {}

    def latest(self, kind: str, key: Hashable, make: Callable[[], Any]) -> Any:
        """What is made from the whole catalogue (`key`: all it is made from), kept while `key` is
        equal: for `mkdocs serve`, whose edits mostly leave it so."""
        found = self._latest.get(kind)
        if found is not None and found[0] == key:
            return found[1]
        made = make()
        self._latest[kind] = (key, made)
        return made

    def forget(self, kind: str) -> None:
        """Make the next `latest` of `kind` again, whatever its key."""
        self._latest.pop(kind, None)

    def get(self, kind: str, entry: Entry, extra: Hashable, make: Callable[[], Any]) -> Any:
        key = (kind, id(entry))
        found = self._made.get(key)
        if found is not None and found[0] is entry and found[1] == extra:
            return found[2]
        piece = make()
        self._made[key] = (entry, extra, piece)
        return piece

    def export(self) -> dict[tuple[str, int], tuple[Hashable, Any]]:
        """The pieces made, without their entries: to hand over from a forked worker, whose entries
        are the very objects (at the same addresses) of the process that forked it. Pieces that hold
        their entry (PLANNED) are made while the site is planned, before the fork, and stay."""
        return {key: (extra, piece) for key, (_, extra, piece) in self._made.items() if key[0] not in PLANNED}

    def adopt(self, exported: dict[tuple[str, int], tuple[Hashable, Any]], entries: Iterable[Entry]) -> None:
        """Take the pieces a forked worker made for `entries` (see `export`)."""
        by_id = {id(entry): entry for entry in entries}
        for (kind, identity), (extra, piece) in exported.items():
            if identity in by_id:
                self._made[(kind, identity)] = (by_id[identity], extra, piece)

    def keep_only(self, entries: Iterable[Entry]) -> None:
        """Forget the pieces of every entry not in `entries` (the current catalogue)."""
        current = {id(entry) for entry in entries}
        for key in [key for key, (entry, _, _) in self._made.items() if id(entry) not in current]:
            del self._made[key]
