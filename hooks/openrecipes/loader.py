"""Finding, reading and validating every recipe file: files -> records, with all problems collected."""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import gc
import hashlib
import os
import pickle
import re
import stat
import threading
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .builddate import VARIABLE as BUILD_DATE_VARIABLE
from .builddate import BuildDateError, build_date
from .checking import shellcheck
from .checking.derive import analyse
from .checking.figures import Derived
from .problems import Problem, internal_error, json_path, sorted_problems
from .reading.dryruns import DryRunRecord
from .reading.dryruns import load as load_dry_runs
from .reading.launchsafety import launch_problems
from .reading.placeholders import placeholder_problems
from .reading.records import Recipe
from .reading.reference import REFERENCE_DIR, Reference, load_reference
from .reading.schema import SCHEMA_RELATIVE_PATH, Schema
from .reading.yamlsource import SourceMap, file_kind, read_document, read_file

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
    digest: str = ""
    """SHA-256 of the recipe's path and bytes: what the record was made from. Under the same schema,
    reference data and date, equal digests make equal records and figures (`mkdocs serve` keys
    the pages made from recipes by them)."""
    listing: str = ""
    """The same digest without the fields only the recipe's own page and records show
    (`PAGE_ONLY`): what the tables, charts and other pages that list recipes are made from."""

    @property
    def gpu_key(self) -> str:
        """The GPU type the recipe ran on, as the reference data names it (its key; the recipe may
        write an alias), else as the recipe writes it: what the site groups and charts recipes by."""
        return self.derived.gpu.key if self.derived.gpu else self.recipe.fields.gpu.type


PAGE_ONLY: tuple[tuple[str, ...], ...] = (
    ("notes",),
    ("run",),
    # A launch's kind is listed; all else of it shows on its page alone, but for the readiness label
    # made of it (the tables' Readiness column), which the listing holds itself (`_listing`).
    ("launch", "reason"),
    ("launch", "source"),
    ("launch", "checkout"),
    ("launch", "container"),
    ("launch", "command"),
    ("launch", "env"),
    ("launch", "conditional"),
    ("launch", "withheld"),
    ("launch", "sets"),
    ("launch", "inputs"),
    ("launch", "notes"),
    ("env",),
    ("patches",),
    ("layout", "notes"),
    ("layout", "highlights"),
    ("stack", "source"),
    ("source", "excerpt"),
    ("result", "throughput_note"),
    ("result", "mfu_note"),
    ("result", "gpu_hours_note"),
    ("correctness", "reference"),
    ("correctness", "rules"),
    ("correctness", "component_tests"),
    ("correctness", "convergence", "note"),
)
"""Fields shown on the recipe's own page and in its records (api/, launch.sh, env.sh), and nowhere
that lists recipes: an edit of one of them under `mkdocs serve` remakes that page alone.
tests/test_serve.py edits every one of them and compares every page with a full build."""


MARKDOWN_FIELDS: tuple[tuple[str, ...], ...] = (
    ("notes",),
    ("layout", "notes"),
    ("correctness", "reference"),
    ("patches", "*", "description"),
)
"""The fields a recipe page renders as Markdown (`| markdown` in recipe.md.j2; `*` is every item of
a list): each is checked when the recipe is read (`markdown_problems`), so validation refuses
exactly the text the renderer would. tests/test_bounded.py holds this list to the template."""


@dataclass(frozen=True)
class Catalogue:
    """All valid recipes in table order, and every problem found on the way."""

    entries: tuple[Entry, ...]
    problems: tuple[Problem, ...]
    files_read: int
    reference: Reference | None
    warnings: tuple[Problem, ...] = ()
    """What valid recipes could say better (`Problem.warning`): reported, never a failure."""
    today: dt.date | None = None
    """The date the checks were made for (the build's date)."""

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
    recipes_dir = (root / RECIPES_DIR).absolute()
    problems: list[Problem] = []
    files = []
    if only is not None:
        for path in sorted({Path(path).absolute() for path in only}):
            message = _file_problem(path, recipes_dir)
            if message:
                problems.append(Problem(_display_path(path, root), 0, 0, "", message))
            else:
                files.append(path)
        return files, problems
    for parts, entry in sorted(_scan(recipes_dir), key=lambda found: found[0]):
        # A regular file, as the folder listing says without another system call, needs only its
        # name checked; anything else (a link, a pipe) is looked at closely.
        if entry.is_file(follow_symlinks=False):
            message = _name_problem(parts)
        else:
            message = _file_problem(Path(entry.path), recipes_dir)
        if message:
            problems.append(Problem(_display_path(Path(entry.path), root), 0, 0, "", message))
        else:
            files.append(Path(entry.path))
    return files, problems


def recipe_ids(root: Path) -> frozenset[str]:
    """The id of every recipe file, from the names in recipes/ alone (no file is read): what a
    recipe may name as its replacement."""
    return frozenset(
        "/".join(parts).removesuffix(RECIPE_SUFFIX)
        for parts, entry in _scan((root / RECIPES_DIR).absolute())
        if entry.is_file(follow_symlinks=False) and _name_problem(parts) is None
    )


def _scan(recipes_dir: Path) -> Iterator[tuple[tuple[str, ...], os.DirEntry[str]]]:
    """Everything in recipes/ but real folders, as (its parts under recipes/, its folder entry):
    hidden files, backups, links and pipes are reported, not skipped. A folder that cannot be
    listed is passed over, as `os.walk` does. Folder entries carry each file's type, so a
    catalogue of thousands of files is listed without a system call per file."""
    pending: list[tuple[tuple[str, ...], str]] = [((), str(recipes_dir))]
    while pending:
        parts, folder = pending.pop()
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    if entry.is_dir(follow_symlinks=False):
                        pending.append(((*parts, entry.name), entry.path))
                    else:
                        yield (*parts, entry.name), entry
        except OSError:
            continue


def _display_path(path: Path, root: Path) -> str:
    """The path as messages show it: relative to the project, with a newline or an invisible
    character in a file name written as an escape, so a problem stays one readable line."""
    try:
        shown = path.relative_to(root).as_posix()
    except ValueError:
        try:
            shown = path.relative_to(root.absolute()).as_posix()
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
    try:
        parts = path.relative_to(recipes_dir).parts
    except ValueError:
        return f"is not under recipes/; recipe files live at {LAYOUT}"
    return _name_problem(parts)


def _name_problem(parts: tuple[str, ...]) -> str | None:
    """What is wrong with where a recipe file is under recipes/ (`parts`) and what it is called."""
    name = parts[-1]
    if not name.endswith(RECIPE_SUFFIX):
        return f"{name!r} is not a recipe file: {_ONLY_RECIPES}; rename or remove it"
    if len(parts) != 3:
        return f"is not at {LAYOUT} ({len(parts) - 1} folders deep instead of 2)"
    for segment in (*parts[:2], name.removesuffix(RECIPE_SUFFIX)):
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
def collector_paused() -> Iterator[None]:
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


@dataclass(frozen=True)
class _Job:
    """What checking any recipe file needs, worked out once per load."""

    root: Path
    schema: Schema
    reference: Reference | None
    today: dt.date
    ids: frozenset[str]
    """Every recipe id, from the file names: what a recipe may name as its replacement."""
    files: list[Path]
    problems: list[Problem]
    """Problems found before any recipe is read: the reference data, the build date, the tree."""
    dry_runs: Mapping[str, DryRunRecord]
    """The recorded dry runs of documented launches, by recipe id (checks/dry-runs.yaml)."""


def _prepare(root: Path, only: Iterable[Path] | None, today: dt.date | None) -> _Job:
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
    dry_runs, dry_run_problems = load_dry_runs(root)
    problems += dry_run_problems
    # A recipe may name another as its replacement: checking that needs every id, which the
    # file names give, not every recipe loaded (`openrecipes validate PATH` reads PATH alone).
    ids = recipe_ids(root) if only is not None else frozenset(recipe_id_for(_display_path(p, root)) for p in files)
    return _Job(root, schema, reference, today, ids, files, problems, dry_runs)


def load_catalogue(
    root: Path, *, only: Iterable[Path] | None = None, today: dt.date | None = None, memo: LoadMemo | None = None
) -> Catalogue:
    """Read, validate and check every recipe under `root` (or only the given files).

    `today` is the date of the build (`builddate.build_date()` unless given). With a `memo` (kept
    by `mkdocs serve` between rebuilds), a file whose bytes are unchanged is not read again.
    """
    job = _prepare(root, only, today)
    problems = list(job.problems)
    if memo is not None:
        memo.begin(job)
    entries = []
    with collector_paused():
        for path in job.files:
            entry, file_problems = memo.check(path, job) if memo is not None else _checked(path, job)
            problems += file_problems
            if entry is not None:
                entries.append(entry)
    problems += id_collisions((entry.recipe.id, entry.recipe.path) for entry in entries)
    # Only recipes without a problem of their own: a problem found across files (ids that differ
    # only in letter case) takes its recipes out too.
    broken = {problem.path for problem in problems}
    entries = sorted((entry for entry in entries if entry.recipe.path not in broken), key=table_order_key)
    warnings = sorted_problems([*(notice for entry in entries for notice in entry.derived.notices), *_unchecked()])
    return Catalogue(
        tuple(entries), sorted_problems(problems), len(job.files), job.reference, warnings=warnings, today=job.today
    )


def validate_catalogue(root: Path, *, only: Iterable[Path] | None = None, today: dt.date | None = None) -> Validation:
    """What `load_catalogue` finds wrong or would warn about, and how many files it read, without
    keeping any recipe: the files are shared with a second process when the machine has a second
    core to run it."""
    job = _prepare(root, only, today)
    half = len(job.files) // 2
    other = _in_second_process(job, job.files[half:]) if len(job.files) >= _PARALLEL_FROM else None
    mine = job.files[:half] if other is not None else job.files
    problems, warnings, named = list(job.problems), [], []
    with collector_paused():
        for found in (*map(functools.partial(_problems_of, job=job), mine), *(other() if other else ())):
            problems += found.problems
            warnings += found.warnings
            if found.name is not None:
                named.append(found.name)
    problems += id_collisions(named)
    broken = {problem.path for problem in problems}
    return Validation(
        sorted_problems(problems),
        sorted_problems([*(warning for warning in warnings if warning.path not in broken), *_unchecked()]),
        len(job.files),
    )


def _unchecked() -> list[Problem]:
    """A warning when the launch scripts cannot be checked here (no bash or ShellCheck)."""
    missing = shellcheck.unavailable()
    return [Problem("launch scripts", 0, 0, "", f"not checked: {missing}", warning=True)] if missing else []


@dataclass(frozen=True)
class Validation:
    """What `validate_catalogue` found: the same problems and warnings `load_catalogue` would."""

    problems: tuple[Problem, ...]
    warnings: tuple[Problem, ...]
    files_read: int


@dataclass(frozen=True)
class _FileFound:
    """One file's part of a validation (small enough to pickle from the second process)."""

    problems: list[Problem]
    warnings: list[Problem]
    name: tuple[str, str] | None


_PARALLEL_FROM = 64
"""Below this many files, starting a second process costs more than it saves."""


def _problems_of(path: Path, job: _Job) -> _FileFound:
    entry, problems = _checked(path, job)
    if entry is None:
        return _FileFound(problems, [], None)
    return _FileFound(problems, list(entry.derived.notices), (entry.recipe.id, entry.recipe.path))


def _in_second_process(job: _Job, paths: list[Path]) -> Callable[[], list[_FileFound]] | None:
    """Check `paths` in a forked process while this one checks the rest; None where a fork is
    unsafe or useless (no `os.fork`, other threads running, one core). Records made there would
    not survive pickling (their classes are made from the schema at run time): only problems and
    names come back, which is all validation needs. A bare fork and a pipe: a process pool takes
    a tenth of a second to start, a tenth of what validating a thousand recipes may take."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    if not hasattr(os, "fork") or threading.active_count() > 1 or cores < 2:
        return None
    readable, writable = os.pipe()
    pid = os.fork()
    if pid == 0:  # the second process: its half, pickled down the pipe, and nothing else
        status = 0
        try:
            os.close(readable)
            with collector_paused():
                found: Any = [_problems_of(path, job) for path in paths]
        except BaseException as error:  # handed to the first process, which raises it
            found, status = error, 1
        try:
            with os.fdopen(writable, "wb") as pipe:
                pickle.dump(found, pipe)
        finally:
            os._exit(status)
    os.close(writable)

    def result() -> list[_FileFound]:
        with os.fdopen(readable, "rb") as pipe:
            found = pickle.load(pipe)
        os.waitpid(pid, 0)
        if isinstance(found, BaseException):
            raise found
        return found

    return result


def _checked(path: Path, job: _Job) -> tuple[Entry | None, list[Problem]]:
    display = _display_path(path, job.root)
    try:
        raw, problem = read_file(path, display)
        if raw is None:
            return None, [problem] if problem else []
        return _check_bytes(raw, display, job)
    except Exception as error:  # a bug of ours: one file's problem, never the end of the run
        return None, [internal_error(display, error)]


def _check_bytes(raw: bytes, display: str, job: _Job) -> tuple[Entry | None, list[Problem]]:
    recipe, locations, problems, data = _recipe_from_bytes(raw, display, job.schema)
    if recipe is None or job.reference is None:
        return None, problems
    refused = [problem.where for problem in problems if problem.where]
    dry_run = job.dry_runs.get(recipe.id)
    derived, check_problems = analyse(
        recipe, locations, job.reference, job.today, job.ids, refused, complete=not problems, dry_run=dry_run
    )
    if problems:  # a partial record: its checks are reported with its other problems, in one round
        return None, problems + check_problems
    # The recorded dry run is shown wherever the launch is: a new record makes new pages.
    listing = _listing(display, data, dry_run, derived.readiness.key if derived.readiness else None)
    return Entry(recipe, derived, _digest(display, raw, dry_run), listing), check_problems


def _digest(display: str, raw: bytes, dry_run: DryRunRecord | None = None) -> str:
    return hashlib.sha256(display.encode("utf-8") + b"\0" + raw + repr(dry_run).encode()).hexdigest()


def _listing(
    display: str, data: dict[str, Any], dry_run: DryRunRecord | None = None, readiness: str | None = None
) -> str:
    """`Entry.listing`: the data as read, without the `PAGE_ONLY` fields (repr is exact for the
    plain values YAML gives, and a few times faster than any serialisation), with the readiness
    label the lists show: it is made of page-only fields (`run`, `launch.sets`, the launch.sh a dry
    run is recorded for), so an edit of one of them that changes the label remakes the lists."""
    shown = dict(data)
    for path in PAGE_ONLY:
        _drop(shown, path)
    return hashlib.sha256(f"{display}\0{shown!r}\0{readiness}\0{dry_run!r}".encode()).hexdigest()


def _drop(data: dict[str, Any], path: tuple[str, ...]) -> None:
    """Take `path` out of `data`, copying (not changing) the mappings on the way to it."""
    head, *rest = path
    if head not in data:
        return
    if not rest:
        del data[head]
    elif isinstance(data[head], dict):
        data[head] = dict(data[head])
        _drop(data[head], tuple(rest))


class LoadMemo:
    """The recipes of the last load, for `mkdocs serve`: a rebuild after an edit reads every file
    but checks again only those whose bytes changed, as long as the schema, the reference data
    and the date are what they were. A recipe naming a replacement is checked again when that
    replacement appears or disappears."""

    def __init__(self) -> None:
        self._context: tuple[object, ...] | None = None
        self._results: dict[str, tuple[str, Entry | None, list[Problem], str | None, bool]] = {}
        self._signatures: dict[str, tuple[int, ...]] = {}
        """Each file's identity, size and times when it was last read: a file whose are the same
        is not read again (a rebuild after one edit of 3,000 recipes read 3,000 files)."""

    def begin(self, job: _Job) -> None:
        """Start a load; everything is forgotten when what every check depends on has changed."""
        context = (job.schema, job.reference, job.today, tuple(job.dry_runs.items()))
        if context != self._context:
            self._context = context
            self._results.clear()
            self._signatures.clear()

    def check(self, path: Path, job: _Job) -> tuple[Entry | None, list[Problem]]:
        display = _display_path(path, job.root)
        known = self._results.get(display)
        signature = _signature(path)
        if known is not None and signature is not None and self._signatures.get(display) == signature:
            _, entry, problems, replacement, present = known
            if replacement is None or (replacement in job.ids) == present:
                return entry, problems
        raw, problem = read_file(path, display)
        if raw is None:
            self._results.pop(display, None)
            self._signatures.pop(display, None)
            return None, [problem] if problem else []
        if signature is not None:
            self._signatures[display] = signature
        digest = _digest(display, raw, job.dry_runs.get(recipe_id_for(display)))
        if known is not None:
            old_digest, entry, problems, replacement, present = known
            if old_digest == digest and (replacement is None or (replacement in job.ids) == present):
                return entry, problems
        try:
            entry, problems = _check_bytes(raw, display, job)
        except Exception as error:  # a bug of ours: one file's problem, never the end of the run
            entry, problems = None, [internal_error(display, error)]
        replacement = _replacement(entry)
        self._results[display] = (digest, entry, problems, replacement, replacement in job.ids)
        return entry, problems


def _signature(path: Path) -> tuple[int, ...] | None:
    """What changes whenever a file's bytes do (its inode, size, and the times of its last write and
    its last change of any kind, in nanoseconds), as `make` and git tell a changed file; None for
    anything but a regular file, which is read to say what is wrong with it."""
    try:
        info = path.lstat()
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode):
        return None
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


def _replacement(entry: Entry | None) -> str | None:
    deprecation = entry.recipe.fields.deprecation if entry is not None else None
    return deprecation.superseded_by if deprecation is not None else None


def load_recipe(path: Path, root: Path, schema: Schema) -> tuple[Recipe | None, SourceMap, list[Problem]]:
    """One recipe file: the record (None if it cannot be read as a mapping; with problems, only the
    values that passed the schema), where its fields are written, its problems.

    The positions are handed out beside the record, not inside it: only loading needs them, and a
    catalogue of records should not carry a few hundred of them per recipe through the build.
    """
    display = _display_path(path, root)
    raw, problem = read_file(path, display)
    if raw is None:
        return None, SourceMap(), [problem] if problem else []
    return _recipe_from_bytes(raw, display, schema)[:3]


def _recipe_from_bytes(
    raw: bytes, display: str, schema: Schema
) -> tuple[Recipe | None, SourceMap, list[Problem], dict[str, Any]]:
    """`load_recipe` of a file's bytes, and the data as read."""
    document, problems = read_document(raw, display)
    if document is None:
        return None, SourceMap(), problems, {}
    if not isinstance(document.data, dict):
        kind = "a list" if isinstance(document.data, list) else "a single value"
        problems.append(
            Problem(display, 1, 1, "$", f"the file holds {kind}; a recipe is a mapping of fields (key: value)")
        )
        return None, document.source_map, problems, {}
    # `openrecipes new` writes placeholders; text ones would pass the schema, so they are refused here.
    problems += placeholder_problems(document.data, document.source_map, display, schema.document)
    problems += schema.problems(document.data, document.source_map, display, refused=problems)
    problems += markdown_problems(document.data, document.source_map, display)
    # Launch text the page could not show as it runs, and a checkout of anything but what it cites.
    problems += launch_problems(document.data, document.source_map, display, lambda: _text_of(raw), refused=problems)
    # With problems, the record holds only the values that passed the schema, so that every check
    # whose inputs are there runs in the same round; the caller keeps it out of the catalogue.
    data = schema.valid_part(document.data) if problems else document.data
    recipe = Recipe(id=recipe_id_for(display), path=display, fields=schema.record(data))
    return recipe, document.source_map, problems + _placement_problems(recipe, document.source_map), data


def _text_of(raw: bytes) -> str:
    """A recipe's text as the YAML reader reads it (the positions it gives are in this)."""
    return raw.decode("utf-8").removeprefix("\ufeff")


def markdown_problems(data: dict[str, Any], locations: SourceMap, display: str) -> list[Problem]:
    """Markdown the renderer refuses (`markup.markdown_problem`), in every field rendered as
    Markdown: refused here, when the recipe is read, so `validate` and the build refuse the same."""
    values = [(path, value) for path, value in _values_at(data, MARKDOWN_FIELDS) if isinstance(value, str)]
    if not values:
        return []
    from .markup import markdown_problem  # markdown-it-py, read only by a recipe with Markdown

    problems = []
    for path, value in values:
        message = markdown_problem(value)
        if message is not None:
            position = locations.value_at(path)
            problems.append(Problem(display, position.line, position.column, json_path(path), message))
    return problems


def _values_at(data: Any, paths: Iterable[tuple[str, ...]]) -> Iterator[tuple[tuple[str | int, ...], Any]]:
    """The values at `paths` in `data`, with where each is (`*` stands for every item of a list)."""
    for path in paths:
        found: list[tuple[tuple[str | int, ...], Any]] = [((), data)]
        for key in path:
            if key == "*":
                found = [
                    ((*at, i), item) for at, value in found if isinstance(value, list) for i, item in enumerate(value)
                ]
            else:
                found = [((*at, key), value[key]) for at, value in found if isinstance(value, dict) and key in value]
        yield from found


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


def id_collisions(recipes: Iterable[tuple[str, str]]) -> list[Problem]:
    """Ids must differ in more than letter case: pages would overwrite each other on some systems.
    `recipes` are (id, path) pairs."""
    by_folded: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for recipe_id, path in recipes:
        by_folded[recipe_id.casefold()].append((recipe_id, path))
    problems = []
    for group in by_folded.values():
        if len(group) > 1:
            for recipe_id, path in group:
                others = ", ".join(other for _, other in group if other != path)
                problems.append(
                    Problem(path, 0, 0, "", f"its id {recipe_id!r} differs only in letter case from {others}")
                )
    return problems


def table_order_key(entry: Entry) -> tuple:
    """Cheapest first at the price basis of each recipe's GPU type (never at the instance its author
    rented: what a row costs the reader, not what it cost them); ties by higher MFU, then id.
    Recipes that cannot be priced come last, as do those without an MFU; so does a recipe whose
    throughput is derived from a publisher's figure (`Derived.tokens_from`), by its id: it never ranks
    as measured. docs/assets/table.js orders rows the same way at the reader's own basis."""
    price, mfu = entry.derived.usd_per_million_tokens, entry.derived.mfu
    derived = getattr(entry.derived, "tokens_from", None) is not None
    unranked = price is None or derived
    return (
        unranked,
        0.0 if unranked else price,
        mfu is None or derived,
        0.0 if derived else -(mfu or 0.0),
        entry.recipe.id,
    )
