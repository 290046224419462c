"""The `openrecipes` command: validate, create, list, show and compare recipes without building the site.

Exit status: 0 success, 1 invalid recipes (or an unexpected failure), 2 a wrong command line (bad
option, missing path, unknown id or revision). Every error is one line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from .. import __version__
from ..loader import RECIPES_DIR, load_catalogue, validate_catalogue
from ..problems import Problem, sorted_problems
from ..project import UsageError, project_root, recipe_paths
from ..reading.schema import SCHEMA_RELATIVE_PATH, Schema

# Each command imports what only it needs: `openrecipes validate` runs on every commit (pre-commit,
# CI), and the renderers, exporters and git helpers would double its start-up.

PROG = "openrecipes"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # argparse prints the whole usage before the error; one line with a pointer to --help is clearer.
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def cmd_validate(args: argparse.Namespace) -> int:
    root = project_root(args.root, args.paths)
    only = recipe_paths(args.paths, root) if args.paths else None
    if only == []:
        print("no recipe files in the given paths", file=sys.stderr)
        return 0
    found = validate_catalogue(root, only=only)
    annotate = os.environ.get("GITHUB_ACTIONS") == "true"
    for problem in (*found.problems, *found.warnings):
        print(problem)
        if annotate:
            print(problem.github_annotation())
    if not found.problems:
        warned = len(found.warnings)
        also = f", {warned} warning{_s(warned)}" if warned else ""
        print(f"{found.files_read} recipe{_s(found.files_read)} valid{also}", file=sys.stderr)
        return 0
    files = len({problem.path for problem in found.problems})
    count = len(found.problems)
    print(f"{count} problem{_s(count)} in {files} file{_s(files)}", file=sys.stderr)
    return 1


def cmd_new(args: argparse.Namespace) -> int:
    from .newrecipe import NewRecipe, create

    root = project_root(args.root)
    request = NewRecipe(args.model, args.gpu, args.count, args.name, args.per_node, args.instance, args.status)
    try:
        path, notes = create(root, request)
    except ValueError as error:
        raise UsageError(str(error)) from None
    shown = os.path.relpath(path, Path.cwd()) if path.is_relative_to(Path.cwd()) else str(path)
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    print(f"Created {shown}")
    print(
        f"Next: replace every 'FILL IN' value (`{PROG} validate {shown}` lists each one and what belongs there), "
        "preview the page with ./dev serve, then open a pull request."
    )
    return 0


def _valid_entries(root: Path) -> tuple[list[Any], int]:
    catalogue = load_catalogue(root)
    return list(catalogue.entries), len({problem.path for problem in catalogue.problems})


def cmd_list(args: argparse.Namespace) -> int:
    from ..site import export
    from . import terminal

    entries, broken = _valid_entries(project_root(args.root))
    if args.json:
        records = [export.recipe_json(entry, terminal.page_url(entry.recipe.id)) for entry in entries]
        _print_json({"version": export.API_VERSION, "count": len(records), "recipes": records})
    elif entries:
        sys.stdout.write(terminal.catalogue_table(entries))
    else:
        print("no valid recipes", file=sys.stderr)
    if broken:
        print(f"{broken} file{_s(broken)} with problems not listed: run `{PROG} validate`", file=sys.stderr)
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from ..site import export
    from . import terminal

    root = project_root(args.root)
    wanted = args.id.strip().removeprefix("./").removeprefix(f"{RECIPES_DIR}/").removesuffix(".yaml").strip("/")
    entries, _ = _valid_entries(root)
    entry = next((entry for entry in entries if entry.recipe.id == wanted), None)
    if entry is None:
        if (root / RECIPES_DIR / f"{wanted}.yaml").is_file():
            print(f"{PROG}: error: recipe {wanted!r} has problems: run `{PROG} validate`", file=sys.stderr)
            return 1
        ids = sorted(
            path.relative_to(root / RECIPES_DIR).with_suffix("").as_posix()
            for path in (root / RECIPES_DIR).rglob("*.yaml")
        )
        close = terminal.closest_ids(wanted, ids)
        hint = f"; did you mean {', '.join(close)}?" if close else f"; `{PROG} list` shows every id"
        raise UsageError(f"unknown recipe id {wanted!r}{hint}")
    if args.json:
        _print_json(export.recipe_json(entry, terminal.page_url(entry.recipe.id)))
    else:
        sys.stdout.write(terminal.recipe_text(entry))
    return 0


def cmd_diff(args: argparse.Namespace) -> int:
    from ..reading.gitrev import GitError, Repository
    from .changes import changes_json, changes_text, compare

    root = project_root(args.root)
    try:
        repository = Repository.at(root)
        base_commit = repository.commit(args.base)
        head_commit = repository.commit(args.head) if args.head else None
        with tempfile.TemporaryDirectory(prefix="openrecipes-diff-") as temporary:
            base_root = Path(temporary) / "base"
            base_unread = repository.export(base_commit, base_root)
            head_root = root
            head_unread: tuple[Problem, ...] = ()
            if head_commit is not None:
                head_root = Path(temporary) / "head"
                head_unread = repository.export(head_commit, head_root)
            base_label = f"{args.base} ({base_commit[:12]})"
            head_label = f"{args.head} ({head_commit[:12]})" if head_commit else "the working tree"
            changes = compare(_loadable(base_root, base_label), head_root, base=base_label, head=head_label)
        # Files of a revision that were not read (links, export-ignore) are problems of that revision.
        changes = dataclasses.replace(
            changes,
            base_problems=sorted_problems([*changes.base_problems, *base_unread]),
            head_problems=sorted_problems([*changes.head_problems, *head_unread]),
        )
    except GitError as error:
        raise UsageError(str(error)) from None
    if args.json:
        data = changes_json(changes)
        data["base"] = {"revision": args.base, "commit": base_commit}
        data["head"] = {"revision": args.head, "commit": head_commit}  # both null: the working tree
        _print_json(data)
    else:
        sys.stdout.write(changes_text(changes))
    return 0


def _loadable(root: Path, label: str) -> Path:
    if not (root / SCHEMA_RELATIVE_PATH).is_file():
        raise UsageError(f"{label} has no {SCHEMA_RELATIVE_PATH}: it predates the catalogue or is another project")
    return root


def cmd_import(args: argparse.Namespace) -> int:
    from ..importers import IMPORTERS, ParseError, sync
    from ..importers.citations import bad_citations
    from ..importers.gitsource import GitSource
    from ..reading.envnames import is_dangerous_name
    from ..reading.gitrev import GitError

    root = project_root(args.root)
    try:
        source = GitSource.open(Path(args.repo), args.commit)
        imported = IMPORTERS[args.importer](source, getattr(args, "release", getattr(args, "round", None)))
    except GitError as error:
        raise UsageError(str(error)) from None
    except ParseError as error:  # the publisher's file is in a shape the importer does not know
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 1
    except ValueError as error:  # a release the files do not print
        raise UsageError(str(error)) from None
    cited = bad_citations(imported, Path(args.repo))
    for bad in cited:
        print(bad)
    if cited:
        print(f"{len(cited)} citation(s) the clone does not bear out: nothing written", file=sys.stderr)
        return 1
    changes = sync.plan(root, imported, Schema.load(root / SCHEMA_RELATIVE_PATH))
    for skipped in imported.skipped:
        print(f"skipped {skipped.where}: {skipped.reason}", file=sys.stderr)
    for skipped in imported.releases_skipped:
        print(f"not imported: {skipped.where}: {skipped.reason}", file=sys.stderr)
    for recipe_id in changes.kept:
        print(f"kept {RECIPES_DIR}/{recipe_id}.yaml: a recipe the import did not write is there", file=sys.stderr)
    for planned in imported.recipes:
        for item in (planned.data.get("launch") or {}).get("withheld", ()):
            print(
                f"withheld in {RECIPES_DIR}/{planned.id}.yaml: {item['name']}, set by {item['file']} line "
                f"{item['line']}, is not in launch.env: {is_dangerous_name(item['name'])}",
                file=sys.stderr,
            )
    for problem in changes.problems:
        print(problem)
    if changes.problems:
        print(f"{len(changes.problems)} schema problem(s): nothing written", file=sys.stderr)
        return 1
    verbs = ("would add", "would change", "would remove") if args.check else ("added", "changed", "removed")
    for verb, ids in zip(verbs, (changes.added, changes.changed, changes.removed), strict=True):
        for recipe_id in ids:
            print(f"{verb} {RECIPES_DIR}/{recipe_id}.yaml")
    summary = (
        f"{len(changes.added)} added, {len(changes.changed)} changed, {len(changes.removed)} removed, "
        f"{len(changes.unchanged)} unchanged, {len(imported.skipped)} row{_s(len(imported.skipped))} skipped"
        + (
            f", {len(imported.releases_skipped)} release{_s(len(imported.releases_skipped))} not imported"
            if imported.releases_skipped
            else ""
        )
        + " "
        f"({args.importer} at {source.commit[:12]})"
    )
    if args.check:
        print(
            f"{summary}: {'the recipes differ from the import' if changes.differs else 'up to date'}", file=sys.stderr
        )
        return 1 if changes.differs else 0
    sync.apply(root, changes)
    print(summary, file=sys.stderr)
    if args.dry_run:
        from .launchcheck import dry_run_written

        return dry_run_written(root, [*changes.added, *changes.changed, *changes.unchanged], Path(args.repo))
    return 0


def _print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def _s(count: int) -> str:
    return "" if count == 1 else "s"


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--root",
        default=argparse.SUPPRESS,
        metavar="DIR",
        help="the project folder (default: the nearest folder "
        "at or above the current one that holds mkdocs.yml and recipes/)",
    )
    parser = _Parser(
        prog=PROG,
        description="Validate, create, list, show and compare OpenRecipes training recipes.",
        epilog="Exit status: 0 success, 1 invalid recipes, 2 a wrong command line. `openrecipes COMMAND --help` "
        "describes each command.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    parser.add_argument("--root", metavar="DIR", help="the project folder (default: found from the current folder)")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    def command(name: str, summary: str, description: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=summary, description=description, parents=[common])
        return sub

    validate = command(
        "validate",
        "check recipes as the site build does, without building it",
        "Load, validate and check recipes exactly as the site build does. Problems go to stdout, one per line "
        "(file:line:col: $.field: message); the summary goes to stderr. With GITHUB_ACTIONS=true each problem is "
        "also printed as an ::error workflow command, so it shows on the pull request's diff. Exit status 0 when "
        "every recipe is valid, 1 otherwise.",
    )
    validate.add_argument("paths", nargs="*", metavar="PATH", help="recipe files or folders (default: every recipe)")
    validate.set_defaults(run=cmd_validate)

    new = command(
        "new",
        "write a new recipe with every field, ready to fill in",
        "Write recipes/<model>/<gpu>/<name>.yaml with every field of the schema: the values given here filled "
        "in, every other value a 'FILL IN' placeholder that `openrecipes validate` reports with what belongs "
        "there. Never overwrites a file.",
    )
    new.add_argument("--model", required=True, help="the model as its publisher names it (Llama 3.1 70B)")
    new.add_argument("--gpu", required=True, help="the GPU type as reference/gpus.yaml names it (H100)")
    new.add_argument("--count", required=True, type=_positive, help="total number of GPUs")
    new.add_argument("--name", required=True, help="the file name: letters, digits, '.', '_' and '-' (tp8-pp2)")
    new.add_argument("--per-node", type=_positive, metavar="K", help="GPUs per node (default: from the instance)")
    new.add_argument("--instance", metavar="I", help="cloud instance, '<Provider> <name>'; 'none' for no public price")
    new.add_argument(
        "--status",
        choices=("verified", "unverified", "published"),
        default="verified",
        help="the level of evidence: 'published' writes only the core every public report has (the figures and "
        "their source); the others write every field, to fill in or delete (default: verified)",
    )
    new.set_defaults(run=cmd_new)

    listing = command(
        "list",
        "the catalogue as a table",
        "Every valid recipe, in the site's order: cheapest "
        "$ per million tokens first, ties by higher MFU; recipes without a price last.",
    )
    listing.add_argument("--json", action="store_true", help="the records of the site's api/recipes.json")
    listing.set_defaults(run=cmd_list)

    show = command(
        "show",
        "one recipe: figures, layout, stack and checks",
        "One recipe's headline figures, layout, stack, and every check with the stated and the recomputed value.",
    )
    show.add_argument("id", metavar="ID", help="the recipe id, <model>/<gpu>/<name> (its path is accepted too)")
    show.add_argument("--json", action="store_true", help="the recipe's record of the site's api/recipes.json")
    show.set_defaults(run=cmd_show)

    diff = command(
        "diff",
        "recipes added, changed and removed between two git revisions",
        "Recipes added, changed (file bytes differ) and removed between two git revisions, with their headline "
        "figures before and after. HEAD defaults to the working tree. Recipes with problems are reported, not "
        "fatal (`openrecipes validate` decides); the exit status is 0 unless a revision cannot be read.",
    )
    diff.add_argument("base", metavar="BASE", help="the older revision (origin/main, a tag, a commit)")
    diff.add_argument("head", metavar="HEAD", nargs="?", help="the newer revision (default: the working tree)")
    diff.add_argument(
        "--json",
        action="store_true",
        help="machine-readable: added, changed and removed ids, each recipe's figures and problems",
    )
    diff.set_defaults(run=cmd_diff)

    importing = command(
        "import",
        "write recipes from a publisher's benchmark tables",
        "Read a publisher's benchmark tables from a local git clone at a commit (git show: no checkout, no "
        "network) and write one `published` recipe per row that states what a recipe needs. Only files this "
        "importer wrote (source.importer) are added, changed or removed; a hand-written recipe is never "
        "overwritten. Prints what it added, changed and removed, and every row it skipped, with why.",
    )
    sources = importing.add_subparsers(dest="importer", metavar="SOURCE", required=True, parser_class=_Parser)

    def source_command(name: str, summary: str) -> argparse.ArgumentParser:
        sub = sources.add_parser(name, help=summary, description=summary, parents=[common])
        sub.add_argument("--repo", required=True, metavar="PATH", help="a local clone (bare or not) of the repository")
        sub.add_argument("--commit", metavar="SHA", help="the commit to read (default: the clone's HEAD)")
        sub.add_argument(
            "--check",
            action="store_true",
            help="write nothing; exit 1 when the recipes on disk differ from what the import would write",
        )
        sub.add_argument(
            "--dry-run",
            action="store_true",
            help="then dry-run the launch of each recipe the import wrote or found up to date over this clone, and "
            "record it in "
            "checks/dry-runs.yaml (openrecipes launch check); exit 1 when one fails",
        )
        sub.set_defaults(run=cmd_import)
        return sub

    megatron = source_command(
        "megatron-bridge",
        "NVIDIA-NeMo/Megatron-Bridge docs/performance-summary*.md: every row of the chosen releases; an older "
        "release's row that a newer chosen release publishes again is written deprecated",
    )
    megatron.add_argument(
        "--release",
        action="extend",
        nargs="+",
        metavar="X",
        help="the releases to import (26.08 26.06.01 ...; default: every release the pages print); rows of "
        "other releases are left as they are",
    )
    source_command(
        "megatron-bridge-cards",
        "NVIDIA-NeMo/Megatron-Bridge examples/model_verification_cards/*/card.yaml: every verified performance run "
        "(pretrain_performance, each point of pretrain_weak_scaling) as a publisher-verified recipe whose launch is "
        "the card's command at the commit it ran at",
    )
    source_command(
        "torchtitan", "pytorch/torchtitan benchmarks/*.md: the rows that publish sequence length and tokens/s per GPU"
    )
    dgxc = source_command(
        "dgxc-benchmarking",
        "NVIDIA/dgxc-benchmarking: the performance tables every release tag's workload READMEs print (v24.11.1 to "
        "v25.05.05), one recipe per model, precision, GPU type and count with its figures; an older tag's figures "
        "for a configuration a newer tag prints again are written deprecated",
    )
    dgxc.add_argument(
        "--release",
        action="extend",
        nargs="+",
        metavar="TAG",
        help="the release tags to read (v25.05.05 ...; default: every release tag of the clone)",
    )
    from .measure import cmd_measure, window  # the measure command's own types, imported when parsing

    measuring = command(
        "measure",
        "the result block a training log supports: throughput, step-time variation, GPU-hours, time to train",
        "Read training logs (MLPerf result_N.txt with :::MLLOG lines, Megatron-LM/Megatron-Bridge iteration lines, "
        "torchtitan step lines) and print the recipe `result` they support, as YAML, each figure with the log lines "
        "it came from: tokens/s per GPU over a window that leaves out warm-up (by default the first fifth of the "
        "logged intervals), the step-time coefficient of variation, GPU-hours, and for MLPerf the time to train "
        "(run_start to run_stop; several runs scored by MLPerf's rule) and whether the quality target was reached. "
        "A bad log gets file:line: message and exit status 1, and nothing is printed or written.",
    )
    measuring.add_argument(
        "logs", nargs="+", metavar="LOG", help="one step log, or the result logs of one MLPerf result"
    )
    measuring.add_argument("--gpus", type=_positive, metavar="N", help="GPUs the run used (logs do not say)")
    measuring.add_argument(
        "--seq-length", type=_positive, metavar="N", help="tokens per sequence, where the log does not print it"
    )
    measuring.add_argument(
        "--window",
        type=window,
        metavar="A:B",
        help="first and last step measured, inclusive (default: leave out warm-up)",
    )
    measuring.add_argument(
        "--write",
        metavar="RECIPE",
        help="set these keys of the recipe's result in place (comments kept), if it validates",
    )
    measuring.set_defaults(run=cmd_measure)
    mlperf = source_command(
        "mlperf",
        "mlcommons/training_results_vX.Y: every closed-division LLM result (Llama 2 70B LoRA, Llama 3.1 405B and 8B, "
        "GPT-3) of every submitter, with its system description, time to train, target and launch",
    )
    mlperf.add_argument(
        "--round", metavar="X.Y", help="the round (5.0), where the repository's README.md does not name it"
    )
    from .launchcheck import add_parser as add_launch

    add_launch(commands, common, _Parser)

    return parser


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    # Output holds ×, –, → and ≥; a terminal that cannot show them gets escapes, not a crash.
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # --help, --version and usage errors: argparse has printed them
        return exit_.code if isinstance(exit_.code, int) else 2
    if getattr(args, "run", None) is None:
        parser.print_help()
        return 0
    try:
        return args.run(args)
    except UsageError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`openrecipes list | head`); nothing more to say to it.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as error:  # a bug or a broken environment: one line, never a traceback
        lines = str(error).strip().splitlines()
        print(
            f"{PROG}: error: unexpected {type(error).__name__}: {lines[0] if lines else 'no details'}", file=sys.stderr
        )
        return 1


if __name__ == "__main__":
    sys.exit(main())
