"""Issue 29, item 1 (shared by every importer): every line range an import cites exists in the file at
the commit it names, or the import stops with each citation located and writes nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from test_importers import commit, new_repo

from openrecipes.importers.citations import bad_citations
from openrecipes.importers.common import Import, Planned


def _import(launch: dict[str, Any]) -> Import:
    return Import("mlperf", (Planned("m/g/one", {"launch": launch}),), (), lambda _: True)


def test_citations_the_clone_bears_out_pass_and_others_are_located(tmp_path: Path) -> None:
    repo = new_repo(tmp_path, "results")
    at = commit(repo, {"a/README.md": "one\ntwo\nthree\n", "a/run.sh": "echo\n"}, "results", "2099-01-02T03:04:05Z")
    good = {
        "source": {
            "commit": at,
            "files": [{"path": "a/README.md", "lines": [2, 3]}, {"path": "a/run.sh"}],
        },
        "preparation": [{"file": "a/README.md", "lines": [1, 1]}],
        "conditional": [{"file": "a/run.sh", "line": 1}],
        "missing": [{"path": "a/gone.sh", "file": "a/run.sh", "line": 1}],
    }
    assert bad_citations(_import(good), repo) == []
    bad = {
        "source": {
            "commit": at,
            "files": [{"path": "a/README.md", "lines": [2, 4]}, {"path": "a/other.md", "lines": [1, 1]}],
        },
        "withheld": [{"file": "a/run.sh", "line": 2}],
    }
    assert [str(item) for item in bad_citations(_import(bad), repo)] == [
        f"recipes/m/g/one.yaml: launch.source.files[0]: lines 2-4 of a/README.md at {at[:12]}: it has 3",
        f"recipes/m/g/one.yaml: launch.source.files[1]: a/other.md is not a file at {at[:12]}",
        f"recipes/m/g/one.yaml: launch.withheld[0].file: lines 2-2 of a/run.sh at {at[:12]}: it has 1",
    ]
