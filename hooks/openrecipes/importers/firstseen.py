"""When each row first appeared in the publisher's history, read from git.

A recipe's `source.url` is pinned at the commit that last changed the file (so a re-import at a
later commit changes nothing unless the file did), and `source.published` is that commit's date:
the date of the file, not of the row. Rows stay on a page for months while the page around them
changes (Megatron-Bridge's 25.11 rows were first printed in December 2025, moved to an archive page
in April 2026, and last touched with it in August). This module walks the history of the files,
oldest commit first, reads every version with the importer's own parser, and keeps, for each row,
the first commit whose files hold it with the same values: `source.first_published`.

"The same row" is the importer's to say (`Walk.key`): for Megatron-Bridge the release, workload,
variant and every value the recipe is read from (not the table it sits in, which a release
reorders, nor its footnote marks); a row whose values were later corrected first appeared with
the correction. A version the parser cannot read at all is named in `unread`, and a row first
found after one says so, since it may have been there earlier.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Any

from ..reading.gitrev import GitError
from .gitsource import GitSource


@dataclass(frozen=True)
class FirstSeen:
    commit: str
    date: str
    """The commit's committer date, an ISO date in its own time zone (as `source.published`)."""
    path: str
    line: int
    """The row's line in `path` at `commit`."""


@dataclass(frozen=True)
class Unread:
    commit: str
    date: str
    path: str
    reason: str


@dataclass(frozen=True)
class History:
    first: dict[Hashable, FirstSeen]
    unread: tuple[Unread, ...]
    order: dict[str, int]
    """Each walked commit's position, oldest 0."""

    def unread_before(self, seen: FirstSeen) -> tuple[Unread, ...]:
        """Versions not read that come before the row's first one: it may have been in them."""
        return tuple(item for item in self.unread if self.order[item.commit] < self.order[seen.commit])


Rows = Callable[[str, str], Iterable[tuple[Hashable, int]]]
"""(path, text) -> (the row's key, its line) for each row of one version of a file."""


def walk(source: GitSource, paths: tuple[str, ...], rows: Rows, errors: tuple[type[Exception], ...]) -> History:
    """Every row of `paths` across their history up to the source's commit, by first appearance.

    `errors` are what `rows` raises on a version it cannot read: that version is recorded as
    unread, and the walk goes on. A shallow clone is refused (GitError): its history is cut.
    """
    if source.is_shallow():
        # The oldest commit of a shallow clone would pass for every row's first publication.
        raise GitError(
            f"{source.repo}: a shallow clone; first-published dates need the whole history of "
            f"{', '.join(paths)} (fetch it with `git fetch --unshallow`)"
        )
    first: dict[Hashable, FirstSeen] = {}
    unread: list[Unread] = []
    order: dict[str, int] = {}
    for position, (commit, date) in enumerate(source.history(paths)):
        order[commit] = position
        at = source.at(commit)
        for path in paths:
            if not at.exists(path):
                continue
            try:
                found = list(rows(path, source.show(path, commit)))
            except errors as error:
                unread.append(Unread(commit, date, path, str(error)))
                continue
            for key, line in found:
                if key not in first:
                    first[key] = FirstSeen(commit, date, path, line)
    return History(first, tuple(unread), order)


def unread_notes(history: History, seen: FirstSeen) -> list[str]:
    """A recipe note when versions before the row's first one could not be read, else none."""
    unread = history.unread_before(seen)
    if not unread:
        return []
    versions = "; ".join(f"{item.path} at {item.commit[:12]}, {item.date}: {item.reason}" for item in unread)
    return [
        f"First published: versions of the file before the first one found to hold this row could not be read "
        f"({versions}); the row may have been printed earlier."
    ]


def first_published(
    history: History, key: Hashable, link: Callable[[FirstSeen], str]
) -> tuple[dict[str, Any] | None, list[str]]:
    """`source.first_published` of the row known by `key` (its date, commit and `link` to its line
    there), and a note when versions before it could not be read; None when it was never seen."""
    seen = history.first.get(key)
    if seen is None:
        return None, []
    data = {"date": dt.date.fromisoformat(seen.date), "commit": seen.commit, "url": link(seen)}
    return data, unread_notes(history, seen)
