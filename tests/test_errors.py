"""Bad recipes: each mistake gives one located, explained line; all of them in one run; no traceback.

The cases are data (tests/corpus/cases.yaml, described in tests/corpus/README.md): each is an
edit of the seed recipe, or a whole file where the point is not a field, with the problems it
must give.
"""

from __future__ import annotations

import contextlib
import copy
import html
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import REPO, SEED, SEED_ID, Project, fixture_path
from mkdocs.config import load_config

from openrecipes import loader
from openrecipes.loader import load_catalogue
from openrecipes.problems import Problem
from openrecipes.reading.refs import resolve
from openrecipes.reading.schema import Schema
from openrecipes.reading.yamlsource import MAX_NUMBER, MIN_NUMBER
from openrecipes.site.outputs import HOME_PAGE
from openrecipes.site.plan import plan_site
from openrecipes_tools.synthetic import yaml_text

FILE = f"recipes/{SEED_ID}.yaml"
CORPUS = Path(__file__).parent / "corpus"
TAG_MARK = "openrecipes-tag-ran"
"""The file the python-tag case's command would create if YAML ever ran it."""
SECONDS = 120
"""A hang guard, not a timing: a case that blocks (a FIFO read, an alias bomb) fails after this
instead of blocking the run. Loading every case takes about a second."""


@dataclass(frozen=True)
class Expected:
    file: str
    where: str
    message: str | None
    contains: str | None
    line: int | None
    column: int | None

    def matches(self, problem: Problem) -> bool:
        return (
            problem.path == self.file
            and problem.where == self.where
            and (self.message is None or problem.message == self.message)
            and (self.contains is None or self.contains in problem.message)
            and (self.line is None or problem.line == self.line)
            and (self.column is None or problem.column == self.column)
        )


@dataclass(frozen=True)
class Case:
    name: str
    why: str
    raw: dict[str, Any]
    problems: tuple[Expected, ...] = field(default=())

    @property
    def file(self) -> str:
        return self.raw.get("file", FILE)

    @property
    def single_file(self) -> bool:
        """Only the recipe file is involved, so the case can be filed under any name beside others."""
        return not {"file", "files"} & self.raw.keys()

    @property
    def breaks_the_reference(self) -> bool:
        """With broken reference data no recipe is checked, so such cases are run apart."""
        return any(extra["path"].startswith("reference/") for extra in self.raw.get("files", []))

    def primary_bytes(self) -> bytes:
        return _content(self.raw, SEED)

    def place(self, root: Path, primary: str | None = None) -> None:
        """Write the case into the project at `root` (its recipe file at `primary` if given)."""
        _write(root / (primary or self.file), self.primary_bytes())
        for extra in self.raw.get("files", []):
            path = root / extra["path"]
            path.parent.mkdir(parents=True, exist_ok=True)
            if extra.get("remove"):
                path.unlink()
            elif extra.get("fifo"):
                os.mkfifo(path)
            elif "symlink" in extra:
                path.symlink_to(extra["symlink"])
            else:
                base = fixture_path(extra["from"]).read_text(encoding="utf-8") if "from" in extra else SEED
                _write(path, _content(extra, base))


def _content(spec: dict[str, Any], base: str) -> bytes:
    """The file a case describes: `content` as written, or `base` with each [old, new] edit applied;
    in the new text, each token of `repeat` is its text that many times (400 blanks, 300 blank lines).

    Text is encoded with surrogateescape, so a byte that is not UTF-8 is written as \\udcXX.
    """
    if "content" in spec:
        return spec["content"].encode("utf-8", "surrogateescape")
    text = base
    for old, new in spec.get("edit", []):
        count = text.count(old)
        assert count == 1, f"the edit's old text {old!r} occurs {count} times; make it unique"
        for token, (repeated, times) in spec.get("repeat", {}).items():
            new = new.replace(token, repeated * times)
        text = text.replace(old, new)
    return text.encode("utf-8", "surrogateescape")


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def _load_cases() -> list[Case]:
    cases = []
    for raw in yaml.safe_load((CORPUS / "cases.yaml").read_text(encoding="utf-8")):
        file = raw.get("file", FILE)
        expected = tuple(
            Expected(
                file=item.get("file", file),
                where=item.get("where", ""),
                message=item.get("message"),
                contains=item.get("contains"),
                line=item.get("line"),
                column=item.get("column"),
            )
            for item in raw["problems"]
        )
        cases.append(Case(raw["name"], raw["why"], raw, expected))
    return cases


CASES = _load_cases()


@contextlib.contextmanager
def _time_limit(seconds: int) -> Iterator[None]:
    def give_up(signum: int, frame: Any) -> None:
        raise TimeoutError(f"still running after {seconds} s: it hangs")

    previous = signal.signal(signal.SIGALRM, give_up)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _assert_problems(problems: tuple[Problem, ...] | list[Problem], expected: tuple[Expected, ...]) -> None:
    """Each expected problem is found exactly once, and there is no other."""
    left = list(problems)
    for wanted in expected:
        found = [problem for problem in left if wanted.matches(problem)]
        assert found, f"no problem matches {wanted}; found:\n" + "\n".join(map(str, left))
        left.remove(found[0])
    assert not left, "unexpected problems:\n" + "\n".join(map(str, left))
    for problem in problems:
        # Located: a problem with a field has a line; none is printed on more than one line.
        assert problem.line >= 1 or not problem.where, problem
        assert "\n" not in str(problem), problem


# One case at least per class of failure; the corpus may hold more.
REQUIRED = {
    "syntax-error", "duplicate-key", "not-utf-8", "empty-file", "two-documents", "list-at-the-top", "python-tag",
    "alias-bomb", "merge-key", "unknown-key", "wrong-type", "missing-required-key", "zero-count", "negative-batch",
    "mfu-as-a-percent", "nan", "infinity",
    # Input that validated and then crashed or hung the build (issue 9, item 3).
    "name-ending-in-yaml", "index-and-readme", "integer-of-401-digits", "gpu-hours-of-1e30", "step-time-cv-of-1e300",
    "tokens-per-second-of-5e-324", "broken-reference-data", "model-with-a-final-newline", "newline-in-a-file-name",
    "hidden-file", "editor-backup", "trailing-space-in-a-file-name", "named-pipe", "zero-width-space", "word-joiner",
    "arabic-letter-mark", "byte-order-mark-inside-text", "line-separator", "tag-character", "noncharacter-escaped",
    "noncharacter-written-raw", "count-with-a-decimal-point",
    # Mistakes real contributors make (issue 11, section 3).
    "throughput-per-node", "moe-total-parameters", "unknown-model", "gpu-hours-as-hours",
    "precision-the-gpu-cannot-run", "schema-and-check-problems-in-one-round", "misspelt-instance",
    "verified-without-evidence", "unpinned-source", "publisher-figure-in-their-convention",
    # Launches that would run hidden code (issue 28, item 6).
    "bash-env-in-env", "prompt-command-in-launch-env", "git-config-count-in-launch-env", "ld-preload-in-inputs",
    "placeholder-that-becomes-bash-env", "checkout-of-a-look-alike-repository", "checkout-of-another-commit",
    "link-to-another-repository", "command-after-400-blanks", "command-after-300-blank-lines",
    "right-to-left-override-in-a-command", "zero-width-space-in-a-command-word", "cyrillic-letter-in-a-command-word",
}  # fmt: skip


def test_the_corpus_is_well_formed() -> None:
    names = [case.name for case in CASES]
    assert len(names) == len(set(names)), "case names are unique"
    assert set(names) >= REQUIRED, f"no case for {sorted(REQUIRED - set(names))}"
    for case in CASES:
        assert case.why.strip(), case.name
        assert case.problems, case.name
        assert not {"edit", "content"} <= case.raw.keys(), f"{case.name}: an edit or a whole content, not both"


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_each_case_gives_its_problems_and_nothing_runs(
    project: Project, case: Case, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)  # where a YAML tag's command would leave its mark if it ran
    case.place(project.root)
    with _time_limit(SECONDS):
        catalogue = load_catalogue(project.root)
        _assert_problems(catalogue.problems, case.problems)
        # What `mkdocs serve` does: the site is planned anyway and the home page lists every problem.
        plan = plan_site(project.root, keep_going=True)
    assert plan.problems == catalogue.problems
    (home,) = [output for output in plan.outputs if output.src_uri == HOME_PAGE]
    shown = html.unescape(home.text())
    for problem in catalogue.problems:
        assert str(problem) in shown
    assert not (tmp_path / TAG_MARK).exists()


def _every_case_at_once(project: Project, reference: bool) -> list[Expected]:
    """Every case in one project, beside the valid seed (single-file ones each under its own
    name); the problems they must give together. `reference`: the cases that break reference/."""
    project.add_seed()
    expected = []
    for case in CASES:
        if case.breaks_the_reference != reference:
            continue
        if not case.single_file:
            case.place(project.root)
            expected += case.problems
            continue
        file = f"recipes/qwen3.8-27b/h200/{case.name}.yaml"
        case.place(project.root, primary=file)
        expected += [Expected(file, e.where, e.message, e.contains, e.line, e.column) for e in case.problems]
    return expected


@pytest.mark.parametrize("breaking_reference", [False, True], ids=["recipes", "reference"])
def test_every_problem_in_every_file_is_reported_in_one_run(project: Project, breaking_reference: bool) -> None:
    expected = _every_case_at_once(project, breaking_reference)
    with _time_limit(SECONDS):
        catalogue = load_catalogue(project.root)
    _assert_problems(catalogue.problems, tuple(expected))


@pytest.mark.parametrize("breaking_reference", [False, True], ids=["recipes", "reference"])
@pytest.mark.site
def test_the_build_stops_on_every_case_at_once_without_a_traceback(project: Project, breaking_reference: bool) -> None:
    expected = _every_case_at_once(project, breaking_reference)
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(project.site)],
        cwd=project.root,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert not (project.site / "index.html").exists()
    errors = [line.split("-  ", 1)[1] for line in done.stderr.splitlines() if line.startswith("ERROR")]
    files = len({e.file for e in expected})
    assert errors[-1] == f"{len(expected)} problems in {files} files; the site was not built"
    assert len(errors) == len(expected) + 1


def test_oversized_file(project: Project) -> None:
    project.add(SEED_ID, SEED + "\n# " + "x" * 300_000 + "\n")
    assert [str(p) for p in load_catalogue(project.root).problems] == [
        f"{FILE}: file is 306,348 bytes; a recipe may be at most 262,144 bytes"
    ]


def test_folder_must_match_the_model_and_gpu(project: Project) -> None:
    project.add_seed("qwen3.8-27b/h100/attune-tp4-pp2")
    assert [str(p) for p in load_catalogue(project.root).problems] == [
        "recipes/qwen3.8-27b/h100/attune-tp4-pp2.yaml:6:9: $.gpu.type: 'H200' is filed under the folder 'h100'; "
        "move the file to recipes/qwen3.8-27b/h200/attune-tp4-pp2.yaml or correct the value"
    ]


@pytest.mark.site
def test_a_generated_page_never_replaces_a_hand_written_one(project: Project) -> None:
    project.add_seed()
    page = project.root / "docs/recipes/qwen3.8-27b/h200/attune-tp4-pp2.md"
    page.parent.mkdir(parents=True)
    page.write_text("# Mine\n")
    result = project.build()
    assert not result.ok
    assert result.errors() == [
        "recipes/qwen3.8-27b/h200/attune-tp4-pp2.yaml: its page 'recipes/qwen3.8-27b/h200/attune-tp4-pp2.md' would "
        "replace the hand-written docs/recipes/qwen3.8-27b/h200/attune-tp4-pp2.md; rename one of them",
        "1 problem in 1 file; the site was not built",
    ]


@pytest.mark.site
def test_mkdocs_build_prints_the_problems_without_a_traceback_with_and_without_strict(project: Project) -> None:
    # Strictness is the build command's (./dev build, CI); `mkdocs serve` must never be strict.
    assert load_config(config_file=str(project.root / "mkdocs.yml")).strict is False
    project.add(SEED_ID, SEED.replace("  tp: 4\n", "  tp: four\n"))
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    mkdocs = [sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(project.site)]
    for strictness in (["--strict"], []):
        done = subprocess.run([*mkdocs, *strictness], cwd=project.root, capture_output=True, text=True, env=env)
        assert done.returncode == 1
        assert f"{FILE}:58:7: $.layout.tp: 'four' is not of type 'integer'" in done.stderr
        assert "Traceback" not in done.stderr
        assert not (project.site / "index.html").exists()


def test_an_unexpected_error_in_one_file_is_that_files_problem_and_the_others_are_checked(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    project.add_seed()
    project.add_seed("qwen3.8-27b/h200/second")
    project.add("qwen3.8-27b/h200/broken", SEED.replace("  tp: 4\n", "  tp: four\n"))
    checked = loader.analyse

    def bug_on_second(recipe: Any, *args: Any, **options: Any) -> Any:
        if recipe.id.endswith("/second"):
            raise OverflowError("int too large to convert to float")
        return checked(recipe, *args, **options)

    monkeypatch.setattr(loader, "analyse", bug_on_second)
    loaded = load_catalogue(project.root)
    assert [str(problem) for problem in loaded.problems] == [
        "recipes/qwen3.8-27b/h200/broken.yaml:58:7: $.layout.tp: 'four' is not of type 'integer'",
        "recipes/qwen3.8-27b/h200/second.yaml: internal error while checking this file (OverflowError: int too "
        "large to convert to float); please report it",
    ]
    assert [entry.recipe.id for entry in loaded.entries] == [SEED_ID]

    def bug_in_reference(root: Path) -> Any:
        raise KeyError("gpus")

    monkeypatch.setattr(loader, "load_reference", bug_in_reference)
    assert [str(problem) for problem in load_catalogue(project.root).problems][-1] == (
        "reference/: internal error while checking this file (KeyError: 'gpus'); please report it"
    )


def _numbers(node: dict[str, Any], path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], dict[str, Any]]]:
    node = resolve(node, SCHEMA.document)
    for name, child in node.get("properties", {}).items():
        child = resolve(child, SCHEMA.document)
        types = child.get("type", [])
        if {"number", "integer"} & set(types if isinstance(types, list) else [types]):
            yield (*path, name), child
        yield from _numbers(child, (*path, name))


SCHEMA = Schema.load(REPO / "schema/recipe.schema.yaml")
_CHECK_FAILED = re.compile(r".+ check failed: ")


def _is_check(problem: Problem) -> bool:
    return bool(_CHECK_FAILED.match(problem.message))


_SLIME = "a897e1f1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7"
_LAUNCH = {  # a documented launch, as the corpus's launch cases write it
    "kind": "documented",
    "source": {
        "repository": "THUDM/slime",
        "commit": _SLIME,
        "files": [
            {
                "path": "scripts/run-qwen3.8-27b.sh",
                "lines": [1, 40],
                "url": f"https://github.com/THUDM/slime/blob/{_SLIME}/scripts/run-qwen3.8-27b.sh#L1-L40",
            }
        ],
    },
    "checkout": f"git clone https://github.com/THUDM/slime.git && git -C slime switch --detach {_SLIME}",
    "command": "bash scripts/run-qwen3.8-27b.sh",
    "inputs": [],
    "sets": {"gpus": 8, "tp": 4, "pp": 2},
}


def _seed_with_every_object() -> dict[str, Any]:
    """The seed with the objects it leaves out (or writes null), each with the keys it requires,
    so that every number of the schema can be set."""
    data = yaml.safe_load(SEED)
    data["layout"]["recompute"] = {"granularity": "full", "method": "uniform"}  # null in the seed
    data["workload"]["method"] = {"kind": "lora"}
    data["result"]["mfu"] = round(data["result"]["mfu"] * 4 / 6, 4)  # LoRA counts 4 × N, not 6 × N
    data["layout"]["sharding"] = {"kind": "fsdp"}
    data["result"]["time_to_train"] = {"quality_target": "eval loss 0.925", "minutes": 90.5}
    data["correctness"]["loss"] = {"initial": 12.5, "final": 3.25}
    data["launch"] = copy.deepcopy(_LAUNCH)
    # A throughput derived from a publisher's figure in a convention of their own, with the FLOPs
    # per token it divides by stated: 119.43 TFLOP/s ÷ 10^11 FLOPs per token is the seed's 1,194.3.
    data["result"]["publisher_figures"] = [
        {"name": "Model TFLOP/s", "value": 119.43, "unit": "TFLOP/s per GPU", "convention": "other"}
    ]
    data["result"]["tokens_per_s_per_gpu_from"] = {
        "figure": "Model TFLOP/s",
        "how": "119.43 TFLOP/s ÷ 10^11 FLOPs per token.",
        "flops_per_token": 1.0e11,
    }
    return data


def _at_bound(data: dict[str, Any], path: tuple[str, ...], node: dict[str, Any], bound: str) -> None:
    limit = node.get(bound, node.get("exclusiveMinimum" if bound == "minimum" else "exclusiveMaximum"))
    if limit is None:
        limit = (-1 if bound == "minimum" else 1) * (MAX_NUMBER - 1)  # the loader's own bound
    elif bound not in node:
        limit = limit * (1.5 if bound == "minimum" else 0.5) if limit else MIN_NUMBER
    parent = data
    for key in path[:-1]:
        parent = parent.setdefault(key, {})
    parent[path[-1]] = limit if "integer" in str(node.get("type")) else float(limit)


@pytest.mark.parametrize("bound", ["minimum", "maximum"])
def test_every_figure_at_its_bounds_is_valid_and_renders(project: Project, bound: str) -> None:
    """Every number of the schema at its bound is valid, and renders with all the others at theirs,
    except the figures a check compares: at a bound those fail the check, as they should. Which
    they are is found by loading the seed with each number alone at its bound, so that the checks
    run, never listed here: a new check or a new field changes nothing in this test. (A number
    with listed values, `schema_version`, has no bounds.)"""
    numbers = [(path, node) for path, node in _numbers(SCHEMA.document) if not {"enum", "const"} & set(node)]
    project.add(SEED_ID, yaml_text(_seed_with_every_object()))
    assert load_catalogue(project.root).problems == ()
    checked = set()
    for path, node in numbers:
        data = _seed_with_every_object()
        _at_bound(data, path, node, bound)
        project.add(SEED_ID, yaml_text(data))
        problems = load_catalogue(project.root).problems
        # Alone at its bound, a number is refused only by a check that compares it with another.
        assert all(map(_is_check, problems)), (path, problems)
        if problems:
            checked.add(path)
    assert ("result", "mfu") in checked  # the checks ran
    data = _seed_with_every_object()
    for path, node in numbers:
        if path not in checked:
            _at_bound(data, path, node, bound)
    project.add(SEED_ID, yaml_text(data))
    plan = plan_site(project.root)
    assert plan.problems == ()
    for output in plan.outputs:
        output.text()  # every page and export of the recipe renders


@pytest.mark.parametrize("use_directory_urls", [True, False])
def test_two_outputs_at_one_address_are_caught_even_without_the_name_rules(
    project: Project, monkeypatch: pytest.MonkeyPatch, use_directory_urls: bool
) -> None:
    # The names that make these shapes are refused while loading; the check over every output of
    # the site is the net under that rule, for shapes nobody has thought of yet.
    monkeypatch.setattr(loader, "segment_problem", lambda segment: None)
    folder = "recipes/qwen3.8-27b/h200"
    for name in ("attune-tp4-pp2", "attune-tp4-pp2.yaml", "index", "README"):
        project.add_seed(f"qwen3.8-27b/h200/{name}")
    assert load_catalogue(project.root).problems == ()
    plan = plan_site(project.root, use_directory_urls=use_directory_urls)
    messages: dict[str, list[str]] = {}
    for problem in plan.problems:
        messages.setdefault(problem.path, []).append(problem.message)
    assert sorted(messages) == [
        f"{folder}/{name}.yaml" for name in ("README", "attune-tp4-pp2", "attune-tp4-pp2.yaml", "index")
    ]
    (folder_clash,) = messages[f"{folder}/attune-tp4-pp2.yaml"]
    assert messages[f"{folder}/attune-tp4-pp2.yaml.yaml"] == [folder_clash]
    assert f"would be written to '{folder}/attune-tp4-pp2.yaml' and inside it" in folder_clash
    (same_page,) = messages[f"{folder}/index.yaml"]  # MkDocs makes README.md index.html
    assert messages[f"{folder}/README.yaml"] == [same_page]
    assert f"would both be written to '{folder}/index.html'" in same_page
    # Under `mkdocs serve` the site is planned without the recipes whose files clash.
    served = plan_site(project.root, use_directory_urls=use_directory_urls, keep_going=True)
    assert served.problems == plan.problems
    assert [output.src_uri for output in served.outputs if output.origin] == []
    (home,) = [output for output in served.outputs if output.src_uri == HOME_PAGE]
    assert folder_clash in html.unescape(home.text())
