"""`openrecipes bench`: how build time, memory and page weight grow with the number of recipes.

For each size N it generates N valid synthetic recipes into a temporary copy of the project,
builds the catalogue, and builds a plain MkDocs Material site made of the very same generated
Markdown written as ordinary files, so the difference is what the catalogue itself costs. Each
build runs in a fresh Python process that reports its own time and peak memory.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import fmt, tablebench
from .loader import slug
from .reference import Reference, load_reference
from .site import plan_site
from .synthetic import recipe_data, yaml_text

DEFAULT_SIZES = (10, 100, 1000, 3000)
TABLE_FROM = 1000
"""The home page's table is timed in Chromium from this size up: below it, the timing says little."""
PROJECT_PARTS = ("mkdocs.yml", "docs", "overrides", "schema", "reference", "hooks")

# Runs in a fresh process: build once, report seconds and peak resident memory.
_BUILD = """
import json, resource, sys, time
from mkdocs.commands.build import build
from mkdocs.config import load_config
config = load_config(config_file=sys.argv[1], site_dir=sys.argv[2], strict=sys.argv[3] == 'strict')
start = time.perf_counter()
build(config)
seconds = time.perf_counter() - start
# The hook may render pages in a forked worker: its peak is reported too.
self_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
worker_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"seconds": seconds, "peak_kib": self_kib, "worker_kib": worker_kib}))
"""

# The plain site's configuration: the same theme and Markdown, no hook; the generated pages
# that the hook keeps out of the navigation are kept out the same way.
_PLAIN_OVERRIDES = {
    r"(?m)^hooks:\n(  - .*\n)+": "",
    r"(?m)^validation:$": "not_in_nav: |\n  /recipes/**\n  /models/*.md\n  /gpus/*.md\nvalidation:",
}


@dataclass(frozen=True)
class Measurement:
    size: int
    build_seconds: float
    build_peak_mib: float
    worker_peak_mib: float
    plain_seconds: float
    plain_peak_mib: float
    validate_seconds: float
    home_bytes: int
    recipe_page_bytes: int
    recipe_page_loads_bytes: int
    recipe_page_loads_plotly: bool
    home_table_ms: dict[str, Any] | None = None
    """The home page's table in Chromium: a sort, a filter, a search and a price-basis change over
    every row, each {first, median} in ms (tablebench.py); None without Chromium."""

    def table_timings(self) -> dict[str, dict[str, float]]:
        return {key: value for key, value in (self.home_table_ms or {}).items() if isinstance(value, dict)}

    @property
    def table_ms(self) -> float | None:
        """The slowest operation's median: what a reader waits, once the page has warmed up."""
        return max((value["median"] for value in self.table_timings().values()), default=None)

    @property
    def ms_per_recipe(self) -> float:
        return self.build_seconds / self.size * 1000

    @property
    def ratio(self) -> float:
        return self.build_seconds / self.plain_seconds


def synthetic_recipes(reference: Reference, count: int) -> Iterator[tuple[str, str]]:
    """`count` valid recipes (id, YAML) spread over the reference models, GPUs and instances."""
    offers = [(spec.gpu, key) for key, spec in reference.instances.items() if spec.gpus == 8]
    offers += [("MI300X", None), ("GB200", None)]
    models = list(reference.models.values())
    combinations = itertools.cycle(itertools.product(models, offers))
    for index, (model, (gpu, instance)) in zip(range(count), combinations, strict=False):
        peak = reference.gpus[gpu].bf16_tflops * 1e12
        mfu = 0.25 + (index % 23) / 100  # 25% to 47%
        name = f"bench-{index:05d}"
        data = recipe_data(
            reference,
            name=name,
            model=model.key,
            gpu=gpu,
            instance=instance,
            count=16,
            tp=8,
            pp=2,
            tokens_per_s=round(mfu * peak / (6 * model.active_params), 1),
            status=("verified", "unverified")[index % 2],
        )
        recipe_id = f"{slug(model.key)}/{slug(gpu)}/{name}"
        yield recipe_id, yaml_text(data, recipe_id)


def copy_project(source: Path, destination: Path, *, with_recipes: bool = False) -> Path:
    """What a build needs from the project, with its recipes or with an empty recipes/ folder."""
    destination.mkdir(parents=True, exist_ok=True)
    for part in PROJECT_PARTS:
        path = source / part
        if path.is_dir():
            shutil.copytree(path, destination / part, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        else:
            shutil.copy2(path, destination / part)
    if with_recipes:
        shutil.copytree(source / "recipes", destination / "recipes")
    else:
        (destination / "recipes").mkdir()
    return destination


def _build(project: Path, site: Path, *, strict: bool) -> dict[str, float]:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    command = [sys.executable, "-c", _BUILD, str(project / "mkdocs.yml"), str(site), "strict" if strict else ""]
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"the build of {project} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _plain_copy(project: Path, plain: Path) -> None:
    """The same site as ordinary Markdown files: every generated output written into docs/."""
    copy_project(project, plain)
    shutil.rmtree(plain / "hooks")
    config = (project / "mkdocs.yml").read_text(encoding="utf-8")
    for pattern, replacement in _PLAIN_OVERRIDES.items():
        config = re.sub(pattern, replacement, config)
    (plain / "mkdocs.yml").write_text(config, encoding="utf-8")
    plan = plan_site(project)
    if plan.problems:
        raise RuntimeError("the generated recipes are not valid: " + str(plan.problems[0]))
    for output in plan.outputs:
        target = plain / "docs" / output.src_uri
        target.parent.mkdir(parents=True, exist_ok=True)
        if output.copy_of is not None:
            shutil.copyfile(output.copy_of, target)
        else:
            target.write_text(output.text(), encoding="utf-8")


def _validate_seconds(project: Path) -> float:
    """Wall time of `openrecipes validate` as a user runs it, interpreter start included."""
    start = time.perf_counter()
    command = [sys.executable, "-m", "openrecipes.cli", "validate", "--root", str(project)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"openrecipes validate failed:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return seconds


def _page_weight(site: Path, page: Path) -> tuple[int, bool]:
    """Bytes of what a page loads (its stylesheets and scripts), and whether Plotly is among them."""
    html = page.read_text(encoding="utf-8")
    total, plotly = 0, False
    for url in re.findall(r'<(?:script[^>]*\ssrc|link[^>]*rel="stylesheet"[^>]*\shref)="([^"]+)"', html):
        if "://" in url:
            continue
        target = (page.parent / url.split("?")[0]).resolve()
        if target.is_file() and site.resolve() in target.parents:
            total += target.stat().st_size
            plotly = plotly or "plotly" in target.name
    return total, plotly


def measure(repo: Path, size: int, workdir: Path) -> Measurement:
    reference, problems = load_reference(repo)
    if reference is None:
        raise RuntimeError("the reference data is broken: " + str(problems[0]))
    project = workdir / f"catalogue-{size}"
    copy_project(repo, project)
    first_id = None
    for recipe_id, text in synthetic_recipes(reference, size):
        path = project / "recipes" / f"{recipe_id}.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        first_id = first_id or recipe_id
    site = workdir / f"catalogue-{size}-site"
    built = _build(project, site, strict=True)  # as CI builds it
    plain = workdir / f"plain-{size}"
    _plain_copy(project, plain)
    plain_built = _build(plain, workdir / f"plain-{size}-site", strict=False)
    recipe_page = site / "recipes" / str(first_id) / "index.html"
    loads, plotly = _page_weight(site, recipe_page)
    return Measurement(
        size=size,
        build_seconds=built["seconds"],
        build_peak_mib=built["peak_kib"] / 1024,
        worker_peak_mib=built["worker_kib"] / 1024,
        plain_seconds=plain_built["seconds"],
        plain_peak_mib=plain_built["peak_kib"] / 1024,
        validate_seconds=_validate_seconds(project),
        home_bytes=(site / "index.html").stat().st_size,
        recipe_page_bytes=recipe_page.stat().st_size,
        recipe_page_loads_bytes=loads,
        recipe_page_loads_plotly=plotly,
        home_table_ms=tablebench.home_table_ms(site) if size >= TABLE_FROM else None,
    )


HEADER = (
    "N",
    "build s",
    "ms/recipe",
    "peak MiB",
    "worker MiB",
    "plain s",
    "plain ms/recipe",
    "plain MiB",
    "ratio",
    "validate s",
    "home KB",
    "recipe KB",
    "recipe loads KB",
    "table ms",
)


def row(m: Measurement) -> tuple[str, ...]:
    return (
        fmt.number(m.size),
        fmt.number(m.build_seconds, 2),
        fmt.number(m.ms_per_recipe, 1),
        fmt.number(m.build_peak_mib, 0),
        fmt.number(m.worker_peak_mib, 0),
        fmt.number(m.plain_seconds, 2),
        fmt.number(m.plain_seconds / m.size * 1000, 1),
        fmt.number(m.plain_peak_mib, 0),
        fmt.number(m.ratio, 3) + "×",
        fmt.number(m.validate_seconds, 2),
        fmt.number(m.home_bytes / 1000, 0),
        fmt.number(m.recipe_page_bytes / 1000, 0),
        fmt.number(m.recipe_page_loads_bytes / 1000, 0) + (" (Plotly!)" if m.recipe_page_loads_plotly else ""),
        "n/a" if m.table_ms is None else fmt.number(m.table_ms, 1),
    )


def targets(results: Sequence[Measurement]) -> list[tuple[str, bool]]:
    """The project's targets, each with whether the measured figures meet it."""
    by_size = {m.size: m for m in results}
    checks = []
    if 1000 in by_size:
        m = by_size[1000]
        checks += [
            (f"build at 1,000 within 1.10× of the plain site: {m.ratio:.3f}×", m.ratio <= 1.10),
            (f"validate 1,000 recipes under 2 s: {m.validate_seconds:.2f} s", m.validate_seconds < 2),
            (f"home page HTML with 1,000 recipes under 1.5 MB: {m.home_bytes / 1e6:.2f} MB", m.home_bytes < 1.5e6),
        ]
    if 3000 in by_size:
        m = by_size[3000]
        home_kb = m.home_bytes / 1000
        checks.append((f"home page HTML with 3,000 recipes at most 600 KB: {home_kb:,.0f} KB", home_kb <= 600))
        if m.table_ms is not None:
            timings = ", ".join(
                f"{key} {times['median']:.1f} ms (first {times['first']:.1f})"
                for key, times in m.table_timings().items()
            )
            checks.append(
                (f"home table over 3,000 rows in Chromium under 100 ms (medians): {timings}", m.table_ms < 100)
            )
        # Counted as both processes' peaks added up, though the worker shares most of its pages.
        total = m.build_peak_mib + m.worker_peak_mib
        checks.append((f"peak memory at 3,000 under 1 GiB (build + worker): {total:,.0f} MiB", total < 1024))
        base = by_size.get(300) or by_size.get(1000)
        if base:
            growth = m.ms_per_recipe / base.ms_per_recipe
            checks.append((f"ms/recipe at 3,000 within 1.2× of {base.size:,}: {growth:.2f}×", growth <= 1.2))
    checks.append(("recipe pages load no Plotly", not any(m.recipe_page_loads_plotly for m in results)))
    return checks


def table(lines: Sequence[Sequence[str]]) -> str:
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    return "\n".join("  ".join(cell.rjust(width) for cell, width in zip(line, widths, strict=True)) for line in lines)


def run(repo: Path, sizes: Sequence[int], *, keep: Path | None = None, say: Callable[[str], None] = print) -> int:
    """Measure every size, print the table and the targets; 0 if every target is met."""
    workdir = keep or Path(tempfile.mkdtemp(prefix="openrecipes-bench-"))
    results = []
    try:
        for size in sizes:
            say(f"measuring N = {size:,} ...")
            results.append(measure(repo, size, workdir))
    finally:
        if keep is None:
            shutil.rmtree(workdir, ignore_errors=True)
    say("")
    say(table([HEADER, *(row(m) for m in results)]))
    if any(m.home_table_ms is None for m in results):
        why = tablebench.unavailable() or f"timed from {TABLE_FROM:,} recipes up"
        say(f"table ms: the home page's table in Chromium, not measured where n/a ({why})")
    say("")
    met = True
    for text, ok in targets(results):
        say(f"{'ok  ' if ok else 'MISS'}  {text}")
        met = met and ok
    return 0 if met else 1
