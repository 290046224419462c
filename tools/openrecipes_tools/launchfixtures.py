"""The files the tests' dry runs need beside the copies of the cited files: for every current
documented launch whose publisher's clone is given, the launch is dry-run over the clone and the
files of the folders it works in (the cited files' folders, each folder a program ran in, each
handed file's folder) are listed, path and mode only, in `<fixture folder>/<commit>.paths`.

No publisher file is copied: a listed file is laid out empty by the tests (checking/dryrun.py
`from_copies`), since a launch only hands it on or checks that it is there. A file whose content a
launch reads (a configuration it sources) must be one it cites, copied with the importer fixtures.

    python -m openrecipes_tools.launchfixtures --repo OWNER/NAME=CLONE [--repo ...]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path, PurePosixPath

from openrecipes.checking import dryrun
from openrecipes.loader import load_catalogue

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests/importer_fixtures"
FIXTURE_FOLDERS = {
    "NVIDIA-NeMo/Megatron-Bridge": FIXTURES / "megatron-bridge-releases",
    "pytorch/torchtitan": FIXTURES / "torchtitan-releases",
    **{f"mlcommons/training_results_v{round_}": FIXTURES / f"mlperf-training-v{round_}" for round_ in
       ("4.0", "4.1", "5.0", "5.1")},
}  # fmt: skip
"""Where the tests keep each repository's copies, `<folder>/<commit>/<path>`."""


def folders_of(found: dryrun.DryRun, cited: list[str]) -> set[str]:
    """The repository's folders a launch worked in, as paths inside it."""
    folders = {str(PurePosixPath(path).parent) for path in cited}
    for call in found.calls:
        inside = PurePosixPath(call.cwd).parts[1:]  # the first part is the folder the clone made
        folders.add("/".join(inside) or ".")
        for handed in dryrun.handed_files(call):
            folders.add(str(PurePosixPath(*inside, handed).parent))
    return folders


def listing(clone: Path, commit: str, folders: set[str]) -> list[str]:
    """`<mode> <path>` of each file directly in these folders at the commit."""
    lines = []
    for folder in sorted(folders):
        spec = "" if folder == "." else f"{folder}/"
        listed = subprocess.run(
            ["git", "-C", str(clone), "ls-tree", "-z", commit, "--", spec or "."],
            capture_output=True,
            check=False,
        )
        for record in listed.stdout.split(b"\0"):
            if not record:
                continue
            meta, path = record.split(b"\t", 1)
            mode, kind, _ = meta.decode().split()
            if kind == "blob" and mode in ("100644", "100755"):
                lines.append(f"{mode} {path.decode('utf-8', 'surrogateescape')}")
    return sorted(set(lines))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m openrecipes_tools.launchfixtures", description=__doc__)
    parser.add_argument("--repo", action="append", required=True, metavar="OWNER/NAME=CLONE")
    args = parser.parse_args(argv)
    clones = {name: Path(path) for name, _, path in (item.partition("=") for item in args.repo)}
    wanted: dict[tuple[str, str], set[str]] = defaultdict(set)
    with tempfile.TemporaryDirectory() as cache:
        materialize = dryrun.from_clone(clones, Path(cache))
        for entry in load_catalogue(REPO).entries:
            repository = dryrun.repository_of(entry.recipe.fields)
            if repository not in clones or repository not in FIXTURE_FOLDERS:
                continue
            found = dryrun.dry_run(entry.recipe.id, entry.recipe.fields, materialize)
            if found is None:
                continue
            cited = [item.path for item in entry.recipe.fields.launch.source.files or ()]
            wanted[(repository, found.commit)] |= folders_of(found, cited)
    for (repository, commit), folders in sorted(wanted.items()):
        base = FIXTURE_FOLDERS[repository]
        lines = [line for line in listing(clones[repository], commit, folders) if not _copied(base, commit, line)]
        (base / f"{commit}{dryrun.PATHS_SUFFIX}").write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
        print(f"{repository}@{commit[:12]}: {len(lines)} files listed", file=sys.stderr)
    return 0


def _copied(base: Path, commit: str, line: str) -> bool:
    return (base / commit / line.split(" ", 1)[1]).exists()


if __name__ == "__main__":
    sys.exit(main())
