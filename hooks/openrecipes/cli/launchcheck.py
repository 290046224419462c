"""`openrecipes launch check`: the dry run of documented launches, over a clone or copies of the
publishers' files (checking/dryrun.py), one line per recipe and every problem under it."""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from ..checking import dryrun
from ..loader import RECIPES_DIR, load_catalogue
from ..project import UsageError, project_root


def _pairs(values: list[str] | None, option: str) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for value in values or ():
        name, sep, path = value.partition("=")
        if not sep or name.count("/") != 1 or not path:
            raise UsageError(f"{option} {value!r}: expected OWNER/NAME=PATH")
        folder = Path(path).expanduser()
        if not folder.is_dir():
            raise UsageError(f"{option} {value!r}: {folder} is not a folder")
        found[name] = folder
    return found


def cmd_launch_check(args: argparse.Namespace) -> int:
    from ..reading import dryruns

    root = project_root(args.root)
    clones = _pairs(args.repo, "--repo")
    copies = _pairs(args.copies, "--copies")
    if not clones and not copies:
        raise UsageError("give the publishers' files: --repo OWNER/NAME=CLONE or --copies OWNER/NAME=DIR")
    wanted = {item.strip().removeprefix(f"{RECIPES_DIR}/").removesuffix(".yaml").strip("/") for item in args.ids}
    catalogue = load_catalogue(root)
    entries = [entry for entry in catalogue.entries if not wanted or entry.recipe.id in wanted]
    unknown = wanted - {entry.recipe.id for entry in entries}
    if unknown:
        raise UsageError(f"unknown or invalid recipe id {sorted(unknown)[0]!r}; `openrecipes validate` says why")
    with tempfile.TemporaryDirectory(prefix="openrecipes-files-") as cache:
        materialize = dryrun.from_sources(clones, copies, Path(cache))
        if not wanted:  # every launch whose files are given
            entries = [entry for entry in entries if dryrun.repository_of(entry.recipe.fields) in {*clones, *copies}]
        results = []
        for found in _dry_runs(entries, materialize):
            results.append(found)
            print(f"{'passed' if found.passed else 'FAILED'}  {found.recipe_id}")
            for problem in found.problems:
                print(f"    {problem}")
            if args.verbose:
                for call in found.calls:
                    print(f"    ran: {dryrun.shown(call)}")
        passed = sum(result.passed for result in results)
        count = len(results)
        print(f"{passed} of {count} documented {_launches(count)} passed", file=sys.stderr)
        if args.record:
            written = dryruns.write(root, [_record(result, clones) for result in results])
            shown = written.relative_to(root)
            print(f"recorded {count} dry run{'s' if count != 1 else ''} in {shown}", file=sys.stderr)
    return 0 if passed == count else 1


def dry_run_written(root: Path, recipe_ids: list[str], clone: Path) -> int:
    """After an import: the dry run of each written recipe's launch over the clone it was read from, recorded."""
    from ..reading import dryruns

    paths = [root / RECIPES_DIR / f"{recipe_id}.yaml" for recipe_id in recipe_ids]
    entries = load_catalogue(root, only=paths).entries if paths else ()
    results = []
    with tempfile.TemporaryDirectory(prefix="openrecipes-files-") as cache:
        clones = {repository: clone for entry in entries if (repository := dryrun.repository_of(entry.recipe.fields))}
        materialize = dryrun.from_clone(clones, Path(cache))
        for found in _dry_runs(entries, materialize):
            results.append(found)
            for problem in found.problems:
                print(f"dry run failed {RECIPES_DIR}/{found.recipe_id}.yaml: {problem}", file=sys.stderr)
    passed = sum(result.passed for result in results)
    print(f"dry run: {passed} of {len(results)} {_launches(len(results))} passed", file=sys.stderr)
    if results:
        dryruns.write(root, [_record(result, clones) for result in results])
    return 0 if passed == len(results) else 1


def _dry_runs(entries: Iterable[Any], materialize: dryrun.Materialize) -> Iterator[dryrun.DryRun]:
    """The dry run of each entry's documented launch, in order; those without one left out."""
    for entry in entries:
        found = dryrun.dry_run(entry.recipe.id, entry.recipe.fields, materialize)
        if found is not None:
            yield found


def _launches(count: int) -> str:
    return "launch" if count == 1 else "launches"


def _record(result: dryrun.DryRun, clones: dict[str, Path]) -> Any:
    from ..reading.dryruns import DryRunRecord, script_sha256

    launcher = result.launcher
    return DryRunRecord(
        result.recipe_id,
        script_sha256(result.launch_sh),
        result.repository,
        result.commit,
        result.passed,
        tuple(result.problems),
        dryrun.shown(launcher) if launcher is not None else None,
        "clone" if result.repository in clones else "copies",
    )


def add_parser(command: argparse._SubParsersAction, common: argparse.ArgumentParser, parser_class: type) -> None:
    launch = command.add_parser(
        "launch",
        help="check documented launches by running them",
        description="Commands about recipes' launches.",
        parents=[common],
    )
    actions = launch.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=parser_class)
    check = actions.add_parser(
        "check",
        help="dry-run documented launches over the publishers' files",
        description="Run each documented launch's launch.sh with bash in a sandbox over the publisher's files at "
        "the pinned commit, every launcher (sbatch, srun, torchrun, python, uv, docker, pip, ...) and git replaced "
        "by a stand-in that records its arguments: the checkout must clone the cited repository and switch to "
        "its commit, every sourced file must exist, a launcher must be reached and handed files that exist, and "
        "with no input set the script must stop on its first input before anything runs. Nothing reaches the "
        "network. Exit status 0 when every launch checked passed.",
        parents=[common],
    )
    check.add_argument("ids", nargs="*", metavar="ID", help="recipe ids (default: every launch whose files are given)")
    check.add_argument(
        "--repo",
        action="append",
        metavar="OWNER/NAME=CLONE",
        help="a local git clone of a publisher's repository (read with git, never checked out); repeatable",
    )
    check.add_argument(
        "--copies",
        action="append",
        metavar="OWNER/NAME=DIR",
        help="copies of a repository's files, DIR/<commit>/<path>, with DIR/<commit>.paths listing the other "
        "files of the folders a launch works in (the tests' tests/importer_fixtures); repeatable",
    )
    check.add_argument("--verbose", "-v", action="store_true", help="print every call the stand-ins recorded")
    check.add_argument(
        "--record",
        action="store_true",
        help=f"write each outcome to {'checks/dry-runs.yaml'}, which the site's readiness label reads",
    )
    check.set_defaults(run=cmd_launch_check)
