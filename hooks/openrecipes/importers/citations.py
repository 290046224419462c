"""Every line range an import cites exists in the file at the commit it names: checked once, for every
importer, before anything is written (`openrecipes import`, `--check` too).

A recipe's launch cites the publisher's files by path, lines and a permalink at `launch.source.commit`
(preparation steps, conditional and withheld values cite some of them again). A citation of a file
that commit does not have, or of lines past its end, is an importer's mistake a reader would find by
following the link: the import stops with each one located, and writes nothing.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .common import Import


@dataclass(frozen=True)
class BadCitation:
    recipe_id: str
    field: str
    """Where in the recipe (`launch.source.files[3]`)."""
    message: str

    def __str__(self) -> str:
        return f"recipes/{self.recipe_id}.yaml: {self.field}: {self.message}"


def bad_citations(imported: Import, repo: Path) -> list[BadCitation]:
    """The citations of the import's recipes that the clone `repo` does not bear out."""
    wanted = sorted({(commit, path) for planned in imported.recipes for commit, path, *_ in _citations(planned.data)})
    lines = _line_counts(repo, wanted)
    found = []
    for planned in imported.recipes:
        for commit, path, first, last, field in _citations(planned.data):
            count = lines.get((commit, path))
            if count is None:
                found.append(BadCitation(planned.id, field, f"{path} is not a file at {commit[:12]}"))
            elif last is not None and not 1 <= (first or 1) <= last <= count:
                found.append(
                    BadCitation(planned.id, field, f"lines {first}-{last} of {path} at {commit[:12]}: it has {count}")
                )
    return found


def _citations(data: dict[str, Any]) -> Iterator[tuple[str, str, int | None, int | None, str]]:
    launch = data.get("launch") or {}
    source = launch.get("source") or {}
    commit = source.get("commit")
    if not commit:
        return
    for index, item in enumerate(source.get("files") or ()):
        first, last = item.get("lines") or (None, None)
        yield commit, item["path"], first, last, f"launch.source.files[{index}]"
    for key in ("preparation", "conditional", "withheld", "missing"):
        for index, item in enumerate(launch.get(key) or ()):
            # A missing file is, by its nature, not there: only the file that needs it is checked.
            first, last = item.get("lines") or (item.get("line"), item.get("line"))
            yield commit, item["file"], first, last, f"launch.{key}[{index}].file"


def _line_counts(repo: Path, wanted: list[tuple[str, str]]) -> dict[tuple[str, str], int]:
    """Each (commit, path)'s number of lines, read in one `git cat-file --batch` (thousands of files
    in a second); a path the commit does not have is left out."""
    if not wanted:
        return {}
    request = "".join(f"{commit}:{path}\n" for commit, path in wanted).encode()
    done = subprocess.run(
        ["git", "-C", str(repo), "cat-file", "--batch"], input=request, capture_output=True, check=False
    )
    out, at, counts = done.stdout, 0, {}
    for key in wanted:
        end = out.index(b"\n", at)
        header = out[at:end].split()
        at = end + 1
        if len(header) != 3 or header[1] != b"blob":
            continue  # `<object> missing`: no such file at that commit
        size = int(header[2])
        body = out[at : at + size]
        at += size + 1
        counts[key] = body.count(b"\n") + (0 if body.endswith(b"\n") or not body else 1)
    return counts
