"""checks/dry-runs.yaml: the recorded outcome of each documented launch's dry run
(`openrecipes launch check --record`), read as untrusted data like the reference files."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from ..problems import Problem
from .schema import Schema
from .yamlsource import read_document, read_file
from .yamlwrite import dump

DRY_RUNS_FILE = "checks/dry-runs.yaml"
DRY_RUNS_SCHEMA = "schema/dry-runs.schema.yaml"
_HEADER = (
    "# Written by `openrecipes launch check --record`: each documented launch's dry run over the\n"
    "# publisher's files at its commit (README: Launches that run). Do not edit by hand.\n"
)


@dataclass(frozen=True)
class DryRunRecord:
    recipe_id: str
    launch_sh_sha256: str
    repository: str
    commit: str
    passed: bool
    problems: tuple[str, ...] = ()
    launcher: str | None = None
    files: str | None = None

    def is_for(self, launch_sh: str) -> bool:
        """Whether it ran this very script (a record of an earlier launch.sh is stale)."""
        return self.launch_sh_sha256 == script_sha256(launch_sh)


def script_sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def load(root: Path) -> tuple[dict[str, DryRunRecord], list[Problem]]:
    """The records by recipe id; none, with the problems, when the file is broken. No file is no record."""
    path = root / DRY_RUNS_FILE
    if not path.exists():
        return {}, []
    raw, problem = read_file(path, DRY_RUNS_FILE)
    if raw is None:
        return {}, [problem] if problem else []
    records, problems = _parsed(raw, (root / DRY_RUNS_SCHEMA).read_text(encoding="utf-8"))
    return dict(records), list(problems)


@functools.lru_cache(maxsize=4)
def _parsed(raw: bytes, schema_text: str) -> tuple[tuple[tuple[str, DryRunRecord], ...], tuple[Problem, ...]]:
    """The records read from the file's bytes: the same bytes are not parsed again (`mkdocs serve`
    loads the catalogue on every rebuild, as load_reference does the reference data)."""
    document, problems = read_document(raw, DRY_RUNS_FILE)
    if document is None or problems:
        return (), tuple(problems)
    problems = Schema.from_text(schema_text).problems(document.data or {}, document.source_map, DRY_RUNS_FILE)
    if problems:
        return (), tuple(problems)
    return tuple(
        (
            recipe_id,
            DryRunRecord(
                recipe_id,
                entry["launch_sh_sha256"],
                entry["repository"],
                entry["commit"],
                entry["passed"],
                tuple(entry.get("problems") or ()),
                entry.get("launcher"),
                entry.get("files"),
            ),
        )
        for recipe_id, entry in (document.data or {}).items()
    ), ()


def write(root: Path, records: Iterable[DryRunRecord]) -> Path:
    """Add or replace these records, keeping the others; ids in order, so that a run gives the same bytes."""
    known, _ = load(root)
    known.update({record.recipe_id: record for record in records})
    path = root / DRY_RUNS_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dump({key: _entry(known[key]) for key in sorted(known)}, _HEADER), encoding="utf-8")
    return path


def _entry(record: DryRunRecord) -> Mapping[str, object]:
    entry: dict[str, object] = {
        "launch_sh_sha256": record.launch_sh_sha256,
        "repository": record.repository,
        "commit": record.commit,
    }
    if record.files is not None:
        entry["files"] = record.files
    entry["passed"] = record.passed
    if record.launcher is not None:
        entry["launcher"] = record.launcher
    if record.problems:
        entry["problems"] = list(record.problems)
    return entry
