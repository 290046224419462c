"""Recipes added, changed and removed between two versions of the project, with their headline figures.

A recipe is "changed" when its file's bytes changed. Both versions are loaded with the same
`load_catalogue` as the site; a recipe with problems in a version has no figures there, and its
problems are reported instead.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import describe, fmt
from ..loader import RECIPES_DIR, Catalogue, load_catalogue, recipe_id_for
from ..problems import Problem
from ..site.facts import NO_PRICE, NOT_PUBLISHED
from .terminal import page_url


@dataclass(frozen=True)
class Figures:
    """The headline figures a recipe states (the checks hold them to the recomputed ones)."""

    tokens_per_s_per_gpu: float
    usd_per_million_tokens: float | None
    mfu: float | None
    mfu_peak: str | None = None
    """The dense peak `mfu` is against (`bf16`, `fp8`, `fp4`): two MFUs against different peaks get
    no difference."""
    derived: bool = False
    """The throughput is derived from a publisher's figure (`result.tokens_per_s_per_gpu_from`): marked,
    and given no difference from a measured one."""
    method: str | None = None
    """The training method as the pages write it (`LoRA`, `not stated`): a list of recipes of several
    methods says each one's, and figures of two methods are not compared."""


FIGURE_NAMES = ("tokens_per_s_per_gpu", "usd_per_million_tokens", "mfu")


@dataclass(frozen=True)
class RecipeChange:
    id: str
    path: str
    change: str
    """'added', 'changed' or 'removed'."""
    before: Figures | None
    after: Figures | None
    problems: tuple[Problem, ...] = ()
    """Problems of the recipe in the newer version (in the older one for a removed recipe)."""

    def delta(self) -> dict[str, float | None] | None:
        if self.before is None or self.after is None:
            return None
        result: dict[str, float | None] = {}
        # A derived throughput and a measured one (and the figures made from them) have no difference.
        footing = self.before.derived == self.after.derived
        for name in FIGURE_NAMES:
            old, new = getattr(self.before, name), getattr(self.after, name)
            # Rounded so that 1250.0 - 1194.3 reads 55.7, not 55.700000000000045.
            result[name] = None if old is None or new is None or not footing else round(new - old, 9)
        return result


@dataclass(frozen=True)
class Changes:
    base: str
    head: str
    recipes: tuple[RecipeChange, ...]
    base_problems: tuple[Problem, ...] = field(default=())
    head_problems: tuple[Problem, ...] = field(default=())

    def ids(self, change: str) -> list[str]:
        return [recipe.id for recipe in self.recipes if recipe.change == change]


def recipe_files(root: Path) -> dict[str, bytes]:
    """Every YAML file under root/recipes, by path relative to root, with its bytes."""
    files = {}
    for directory, subdirectories, names in os.walk(root / RECIPES_DIR):
        subdirectories.sort()
        for name in names:
            path = Path(directory) / name
            if name.lower().endswith((".yaml", ".yml")) and not path.is_symlink():
                files[path.relative_to(root).as_posix()] = path.read_bytes()
    return files


def _figures(catalogue: Catalogue) -> dict[str, Figures]:
    return {
        entry.recipe.path: Figures(
            entry.recipe.fields.result.tokens_per_s_per_gpu,
            entry.derived.usd_per_million_tokens,
            entry.derived.mfu,
            entry.derived.peak_column,
            entry.derived.tokens_from is not None,
            describe.method_name(entry.derived.method),
        )
        for entry in catalogue.entries
    }


def compare(base_root: Path, head_root: Path, *, base: str, head: str, today: dt.date | None = None) -> Changes:
    """What changed in recipes/ from the project at `base_root` to the one at `head_root`."""
    old_catalogue = load_catalogue(base_root, today=today)
    new_catalogue = load_catalogue(head_root, today=today)
    old_files, new_files = recipe_files(base_root), recipe_files(head_root)
    old_figures, new_figures = _figures(old_catalogue), _figures(new_catalogue)
    recipes = []
    for path in sorted(old_files.keys() | new_files.keys()):
        old, new = old_files.get(path), new_files.get(path)
        if old == new:
            continue
        change = "added" if old is None else "removed" if new is None else "changed"
        problems = (old_catalogue if change == "removed" else new_catalogue).problems
        recipes.append(
            RecipeChange(
                id=recipe_id_for(path),
                path=path,
                change=change,
                before=old_figures.get(path),
                after=new_figures.get(path),
                problems=tuple(problem for problem in problems if problem.path == path),
            )
        )
    order = {"added": 0, "changed": 1, "removed": 2}
    recipes.sort(key=lambda recipe: (order[recipe.change], recipe.id))
    return Changes(base, head, tuple(recipes), old_catalogue.problems, new_catalogue.problems)


def changes_json(changes: Changes) -> dict[str, Any]:
    """For programs (the pull-request preview reads `added` and `changed`)."""
    return {
        "base": changes.base,
        "head": changes.head,
        "added": changes.ids("added"),
        "changed": changes.ids("changed"),
        "removed": changes.ids("removed"),
        "recipes": [
            {
                "id": recipe.id,
                "change": recipe.change,
                "path": recipe.path,
                "url": page_url(recipe.id) if recipe.change != "removed" else None,
                "before": None if recipe.before is None else vars(recipe.before).copy(),
                "after": None if recipe.after is None else vars(recipe.after).copy(),
                "delta": recipe.delta(),
                "problems": [str(problem) for problem in recipe.problems],
            }
            for recipe in changes.recipes
        ],
        "problems": {
            "base": [str(problem) for problem in changes.base_problems],
            "head": [str(problem) for problem in changes.head_problems],
        },
    }


def _signed(value: float, text: str) -> str:
    return ("+" if value > 0 else "−" if value < 0 else "±") + text


def _summary(figures: Figures) -> str:
    return (
        (f"{_method(figures.method)} · " if figures.method else "")
        + f"{fmt.as_written(figures.tokens_per_s_per_gpu)} tokens/s/GPU{' (derived)' if figures.derived else ''} · "
        f"{NO_PRICE if figures.usd_per_million_tokens is None else fmt.usd(figures.usd_per_million_tokens)} per 1M · "
        f"MFU {_percent(figures.mfu, figures.mfu_peak)}"
    )


def _figure_lines(before: Figures, after: Figures) -> Iterator[tuple[str, str, str]]:
    """(label, before → after, delta) for each headline figure."""
    if before.method != after.method:
        # Another training method: its figures are not those of the same run (4 × N for LoRA).
        yield "method", f"{_method(before.method)} → {_method(after.method)}", "(another method)"
    old, new = before.tokens_per_s_per_gpu, after.tokens_per_s_per_gpu
    if before.derived != after.derived:
        # A throughput derived from a publisher's figure is not measured: each marked, no difference.
        changed = "(now derived)" if after.derived else "(now measured)"
        yield "tokens/s/GPU", f"{_tokens(before)} → {_tokens(after)}", changed
    else:
        relative = f" ({_signed(new - old, fmt.percent(abs(new - old) / old))})" if old else ""
        places = max(fmt.decimals(old), fmt.decimals(new))  # the difference to the decimals stated
        yield (
            "tokens/s/GPU (derived)" if after.derived else "tokens/s/GPU",
            f"{fmt.as_written(old)} → {fmt.as_written(new)}",
            _signed(new - old, fmt.number(abs(new - old), places)) + relative,
        )
    old_usd, new_usd = before.usd_per_million_tokens, after.usd_per_million_tokens
    if old_usd is None or new_usd is None:
        usd_delta = "" if old_usd == new_usd else "(price added)" if old_usd is None else "(price removed)"
        yield "$/1M tokens", f"{_price(old_usd)} → {_price(new_usd)}", usd_delta
    else:
        relative = f" ({_signed(new_usd - old_usd, fmt.percent(abs(new_usd - old_usd) / old_usd))})"
        yield (
            "$/1M tokens",
            f"{fmt.usd(old_usd)} → {fmt.usd(new_usd)}",
            _signed(new_usd - old_usd, fmt.usd(abs(new_usd - old_usd))) + relative,
        )
    if before.mfu is None or after.mfu is None or before.mfu_peak != after.mfu_peak:
        if (before.mfu, before.mfu_peak) != (after.mfu, after.mfu_peak):
            # Against different peaks (the precision changed): each named, no difference.
            changed = "(another peak)" if before.mfu is not None and after.mfu is not None else ""
            yield "MFU", f"{_percent(before.mfu, before.mfu_peak)} → {_percent(after.mfu, after.mfu_peak)}", changed
        return
    points = (after.mfu - before.mfu) * 100
    yield (
        f"MFU {describe.peak_name(after.mfu_peak)}" if after.mfu_peak else "MFU",
        f"{fmt.percent(before.mfu)} → {fmt.percent(after.mfu)}",
        _signed(points, f"{fmt.number(abs(points), 1)} pp"),
    )


def _tokens(figures: Figures) -> str:
    """Tokens/s per GPU as stated, "(derived)" after a throughput derived from a publisher's figure."""
    return fmt.as_written(figures.tokens_per_s_per_gpu) + (" (derived)" if figures.derived else "")


def _method(name: str | None) -> str:
    return f"method {name}" if name in (None, describe.METHOD_NOT_STATED) else name


def _percent(value: float | None, peak: str | None = None) -> str:
    """`40.1% vs BF16 peak`: an MFU with the peak it is against."""
    if value is None:
        return NOT_PUBLISHED
    return fmt.percent(value) + (f" {describe.peak_name(peak)}" if peak else "")


def _price(value: float | None) -> str:
    return NO_PRICE if value is None else fmt.usd(value)


def changes_text(changes: Changes) -> str:
    added, changed, removed = (len(changes.ids(kind)) for kind in ("added", "changed", "removed"))
    lines = [f"Recipes from {changes.base} to {changes.head}: {added} added, {changed} changed, {removed} removed"]
    for recipe in changes.recipes:
        lines.append(f"  {recipe.change:<8} {recipe.id}" + _detail(recipe))
        before, after = recipe.before, recipe.after
        if recipe.change == "changed" and before is not None and after is not None and before != after:
            rows = list(_figure_lines(before, after))
            widths = [max(len(row[index]) for row in rows) for index in range(2)]
            for label, values, delta in rows:
                lines.append(f"             {label.ljust(widths[0])}  {values.ljust(widths[1])}  {delta}".rstrip())
    for label, problems in ((changes.head, changes.head_problems), (changes.base, changes.base_problems)):
        if problems:
            lines += ["", f"Problems at {label}:", *(f"  {problem}" for problem in problems)]
    return "\n".join(lines) + "\n"


def _detail(recipe: RecipeChange) -> str:
    """What follows the id on a recipe's line: its figures, or why there are none."""
    if recipe.problems:
        count = len(recipe.problems)
        return f"  {count} problem{'s' if count != 1 else ''} (listed below)"
    figures = recipe.before if recipe.change == "removed" else recipe.after
    if figures is None:
        return ""
    if recipe.change != "changed":
        return f"  {_summary(figures)}"
    if recipe.before is None:
        return f"  now {_summary(figures)} (it had problems before)"
    return f"  figures unchanged: {_summary(figures)}" if recipe.before == figures else ""
