"""Finding, reading and validating every recipe file: files -> records, with all problems collected."""

from __future__ import annotations

import contextlib
import datetime as dt
import gc
import os
import re
import stat
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from .builddate import VARIABLE as BUILD_DATE_VARIABLE
from .builddate import BuildDateError, build_date
from .checks import Derived, analyse
from .placeholders import placeholder_problems
from .problems import Problem, internal_error, json_path, sorted_problems
from .records import Recipe
from .reference import REFERENCE_DIR, Reference, load_reference
from .schema import SCHEMA_RELATIVE_PATH, Schema
from .yamlsource import SourceMap, file_kind, read_document, read_file

RECIPES_DIR = "recipes"
RECIPE_SUFFIX = ".yaml"
LAYOUT = "recipes/<model>/<gpu>/<name>.yaml"
_ONLY_RECIPES = "recipes/ holds <model>/<gpu>/<name>.yaml files only"
_SEGMENT = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")  # with fullmatch: `$` would let a final newline through
# Names the site cannot give a page and files of their own: MkDocs makes index and README pages
# the page of their folder, and `x.yaml` would put a page folder where the file of recipe `x` is.
_RESERVED_NAMES = ("index", "readme")
_RESERVED_SUFFIXES = (".yaml", ".yml")


@dataclass(frozen=True)
class Entry:
    """A valid recipe with the figures recomputed from it."""

    recipe: Recipe
    derived: Derived


@dataclass(frozen=True)
class Catalogue:
    """All valid recipes in table order, and every problem found on the way."""

    entries: tuple[Entry, ...]
    problems: tuple[Problem, ...]
    files_read: int
    reference: Reference | None
    warnings: tuple[Problem, ...] = ()
    """What valid recipes could say better (`Problem.warning`): reported, never a failure."""

    @property
    def ok(self) -> bool:
        return not self.problems


def slug(name: str) -> str:
    """The folder name a model or GPU type is filed under: `Llama 3.1 70B` -> `llama-3.1-70b`."""
    return re.sub(r"[^a-z0-9._]+", "-", name.lower()).strip("-")


def recipe_id_for(relative_path: str) -> str:
    """`recipes/m/g/n.yaml` -> `m/g/n`."""
    return relative_path.removeprefix(RECIPES_DIR + "/").removesuffix(RECIPE_SUFFIX)


def discover(root: Path, only: Iterable[Path] | None = None) -> tuple[list[Path], list[Problem]]:
    """Recipe files under `root/recipes` (or just `only`), and problems with the tree itself."""
    recipes_dir = root / RECIPES_DIR
    problems: list[Problem] = []
    candidates = sorted({Path(path).absolute() for path in only} if only is not None else _walk(recipes_dir))
    files = []
    for path in candidates:
        display = _display_path(path, root)
        message = _file_problem(path, recipes_dir)
        if message:
            problems.append(Problem(display, 0, 0, "", message))
        else:
            files.append(path)
    return files, problems


def _walk(recipes_dir: Path) -> Iterator[Path]:
    """Everything in recipes/ but real folders: hidden files, backups and pipes are reported, not skipped."""
    if not recipes_dir.is_dir():
        return
    for directory, subdirectories, filenames in os.walk(recipes_dir, followlinks=False):
        for name in subdirectories:
            if (Path(directory) / name).is_symlink():
                yield Path(directory) / name
        yield from (Path(directory) / name for name in filenames)


def _display_path(path: Path, root: Path) -> str:
    """The path as messages show it: relative to the project, with a newline or an invisible
    character in a file name written as an escape, so a problem stays one readable line."""
    try:
        shown = path.relative_to(root).as_posix()
    except ValueError:
        shown = path.as_posix()
    if shown.isprintable():
        return shown
    return "".join(char if char.isprintable() else char.encode("unicode_escape").decode("ascii") for char in shown)


def _file_problem(path: Path, recipes_dir: Path) -> str | None:
    """What is wrong with `path` as a recipe file, looked at without opening or following it."""
    try:
        mode = os.lstat(path).st_mode
    except OSError as error:
        return f"cannot be read: {error.strerror or error}"
    if stat.S_ISLNK(mode):
        if path.is_dir():
            return "is a symbolic link to a folder; recipes/ holds real files only"
        target = Path(os.path.realpath(path))
        where = "inside" if target.is_relative_to(recipes_dir.resolve()) else "outside"
        return f"is a symbolic link to a file {where} recipes/; commit the recipe itself"
    if not stat.S_ISREG(mode):
        return f"is {file_kind(mode)}, not a recipe file: {_ONLY_RECIPES}; remove it"
    return _segments_problem(path, recipes_dir)


def _segments_problem(path: Path, recipes_dir: Path) -> str | None:
    """What is wrong with where `path` is and what it is called, for a recipe file."""
    try:
        parts = path.relative_to(recipes_dir).parts
    except ValueError:
        return f"is not under recipes/; recipe files live at {LAYOUT}"
    if not path.name.endswith(RECIPE_SUFFIX):
        return f"{path.name!r} is not a recipe file: {_ONLY_RECIPES}; rename or remove it"
    if len(parts) != 3:
        return f"is not at {LAYOUT} ({len(parts) - 1} folders deep instead of 2)"
    for segment in (*parts[:2], parts[2].removesuffix(RECIPE_SUFFIX)):
        problem = segment_problem(segment)
        if problem:
            return problem
    return None


def segment_problem(segment: str) -> str | None:
    """Why `segment` cannot be a model folder, GPU folder or recipe name, or None."""
    if not _SEGMENT.fullmatch(segment):
        return (
            f"{segment!r} cannot be part of a recipe id: use letters, digits, '.', '_' and '-', "
            "starting with a letter or digit"
        )
    folded = segment.casefold()
    if folded in _RESERVED_NAMES:
        return (
            f"{segment!r} cannot be part of a recipe id: the site makes index and README pages the page of "
            "their folder, so it would take another page's address; choose another name"
        )
    if folded.endswith(_RESERVED_SUFFIXES):
        suffix = segment[segment.rindex(".") :]
        return (
            f"{segment!r} cannot be part of a recipe id: its page's folder would take the address of the file "
            f"the site copies for {segment[: -len(suffix)]!r}; drop the {suffix!r}"
        )
    return None


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Reading a catalogue allocates millions of small objects that form no cycles; the cyclic
    garbage collector, triggered by the allocations, rescanned everything loaded so far and took
    two thirds of the time. Reference counting still frees them."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def load_catalogue(root: Path, *, only: Iterable[Path] | None = None, today: dt.date | None = None) -> Catalogue:
    """Read, validate and check every recipe under `root` (or only the given files).

    `today` is the date of the build (`builddate.build_date()` unless given).
    """
    schema = Schema.load(root / SCHEMA_RELATIVE_PATH)
    try:
        reference, problems = load_reference(root)
    except Exception as error:  # a bug of ours: reported like any problem, and the recipes still read
        reference, problems = None, [internal_error(REFERENCE_DIR + "/", error)]
    if today is None:
        try:
            today = build_date()
        except BuildDateError as error:
            problems.append(Problem(BUILD_DATE_VARIABLE, 0, 0, "", str(error)))
            today = dt.datetime.now(dt.UTC).date()
    files, tree_problems = discover(root, only)
    problems += tree_problems
    recipe_ids = frozenset(recipe_id_for(_display_path(path, root)) for path in discover(root)[0])
    entries = []
    with _collector_paused():
        for path in files:
            try:
                entry, file_problems = _check_file(path, root, schema, reference, today, recipe_ids)
            except Exception as error:  # a bug of ours: one file's problem, never the end of the run
                entry, file_problems = None, [internal_error(_display_path(path, root), error)]
            problems += file_problems
            if entry is not None:
                entries.append(entry)
    problems += id_collisions(entry.recipe for entry in entries)
    # Only recipes without a problem of their own: a problem found across files (ids that differ
    # only in letter case) takes its recipes out too.
    broken = {problem.path for problem in problems}
    entries = sorted((entry for entry in entries if entry.recipe.path not in broken), key=table_order_key)
    warnings = sorted_problems(notice for entry in entries for notice in entry.derived.notices)
    return Catalogue(tuple(entries), sorted_problems(problems), len(files), reference, warnings)


def _check_file(
    path: Path, root: Path, schema: Schema, reference: Reference | None, today: dt.date, recipe_ids: frozenset[str]
) -> tuple[Entry | None, list[Problem]]:
    recipe, locations, problems = load_recipe(path, root, schema)
    if recipe is None or reference is None:
        return None, problems
    refused = [problem.where for problem in problems if problem.where]
    derived, check_problems = analyse(recipe, locations, reference, today, recipe_ids, refused)
    if problems:  # a partial record: its checks are reported with its other problems, in one round
        return None, problems + check_problems
    return Entry(recipe, derived), check_problems


def load_recipe(path: Path, root: Path, schema: Schema) -> tuple[Recipe | None, SourceMap, list[Problem]]:
    """One recipe file: the record (None if it cannot be read as a mapping; with problems, only the
    values that passed the schema), where its fields are written, its problems.

    The positions are handed out beside the record, not inside it: only loading needs them, and a
    catalogue of records should not carry a few hundred of them per recipe through the build.
    """
    display = _display_path(path, root)
    nowhere = SourceMap()
    raw, problem = read_file(path, display)
    if raw is None:
        return None, nowhere, [problem] if problem else []
    document, problems = read_document(raw, display)
    if document is None:
        return None, nowhere, problems
    if not isinstance(document.data, dict):
        kind = "a list" if isinstance(document.data, list) else "a single value"
        problems.append(
            Problem(display, 1, 1, "$", f"the file holds {kind}; a recipe is a mapping of fields (key: value)")
        )
        return None, document.source_map, problems
    # `openrecipes new` writes placeholders; text ones would pass the schema, so they are refused here.
    problems += placeholder_problems(document.data, document.source_map, display, schema.document)
    problems += schema.problems(document.data, document.source_map, display, refused=problems)
    # With problems, the record holds only the values that passed the schema, so that every check
    # whose inputs are there runs in the same round; the caller keeps it out of the catalogue.
    data = schema.valid_part(document.data) if problems else document.data
    recipe = Recipe(id=recipe_id_for(display), path=display, fields=schema.record(data))
    return recipe, document.source_map, problems + _placement_problems(recipe, document.source_map)


def _placement_problems(recipe: Recipe, locations: SourceMap) -> list[Problem]:
    """The folders a recipe is filed under must say what the file says."""
    model_folder, gpu_folder, _ = recipe.id.split("/")
    problems = []
    for folder, value, field in (
        (model_folder, recipe.fields.model, ("model",)),
        (gpu_folder, recipe.fields.gpu.type if recipe.fields.gpu else None, ("gpu", "type")),
    ):
        if value is not None and folder.lower() != slug(value):
            position = locations.value_at(field)
            right = recipe.path.split("/")
            right[len(field)] = slug(value)
            problems.append(
                Problem(
                    recipe.path,
                    position.line,
                    position.column,
                    json_path(field),
                    f"{value!r} is filed under the folder {folder!r}; move the file to {'/'.join(right)} "
                    "or correct the value",
                )
            )
    return problems


def id_collisions(recipes: Iterable[Recipe]) -> list[Problem]:
    """Ids must differ in more than letter case: pages would overwrite each other on some systems."""
    by_folded: dict[str, list[Recipe]] = defaultdict(list)
    for recipe in recipes:
        by_folded[recipe.id.casefold()].append(recipe)
    problems = []
    for group in by_folded.values():
        if len(group) > 1:
            for recipe in group:
                others = ", ".join(other.path for other in group if other is not recipe)
                problems.append(
                    Problem(recipe.path, 0, 0, "", f"its id {recipe.id!r} differs only in letter case from {others}")
                )
    return problems


def table_order_key(entry: Entry) -> tuple:
    """Cheapest first at the price basis of each recipe's GPU type (never at the instance its author
    rented: what a row costs the reader, not what it cost them); ties by higher MFU, then id.
    Recipes that cannot be priced come last, as do those without an MFU. docs/assets/table.js
    orders rows the same way at the reader's own basis."""
    price, mfu = entry.derived.usd_per_million_tokens, entry.derived.mfu
    return (price is None, price or 0.0, mfu is None, -(mfu or 0.0), entry.recipe.id)
