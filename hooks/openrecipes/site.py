"""The generated part of the site: which files exist, what they hold, and what went wrong.

`plan_site` is the whole pipeline short of MkDocs: load -> validate -> render. The MkDocs hook
turns each `Output` into a generated file; tests and the CLI call it directly.
"""

from __future__ import annotations

import posixpath
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup

from . import describe
from .catalogue import RECIPE_SUFFIX, Catalogue, load_catalogue
from .checks import MFU_TOLERANCE, PRICE_ABSOLUTE_TOLERANCE, PRICE_RELATIVE_TOLERANCE
from .problems import Problem, sorted_problems
from .records import Recipe
from .render import environment, render
from .urls import page_url, relative_url

HOME_PAGE = "index.md"
METHODOLOGY_PAGE = "methodology.md"
GENERATED_NAV_PAGES = (HOME_PAGE, METHODOLOGY_PAGE)


@dataclass(frozen=True)
class Output:
    """One generated file in the docs tree."""

    src_uri: str
    content: str | None = None
    copy_of: Path | None = None
    """Copy this file byte for byte instead of `content`."""
    edit_path: str | None = None
    """The repository file a reader should edit to change this page."""
    origin: str | None = None
    """The recipe file this output comes from, for error messages."""


@dataclass(frozen=True)
class SitePlan:
    catalogue: Catalogue
    outputs: tuple[Output, ...]
    problems: tuple[Problem, ...]


@dataclass(frozen=True)
class RecipeLinks:
    """Where a recipe's files are: source paths for Markdown links, URLs for raw HTML."""

    page_src: str
    yaml_src: str
    launch_src: str
    env_src: str

    @classmethod
    def of(cls, recipe: Recipe) -> RecipeLinks:
        base = f"recipes/{recipe.id}"
        return cls(f"{base}.md", f"{base}{RECIPE_SUFFIX}", f"{base}/launch.sh", f"{base}/env.sh")


def plan_site(
    root: Path, *, hand_written: Collection[str] = (), use_directory_urls: bool = True, keep_going: bool = False
) -> SitePlan:
    """Everything the catalogue adds to the site, or the problems that stop it.

    `hand_written` are the docs files already in the site (their paths in the docs tree); a
    generated file may not take the place of one. With `keep_going` (for `mkdocs serve`), a site
    is planned even when there are problems: without the recipes that have them, and with the
    problems listed on the home page.
    """
    catalogue = load_catalogue(root)
    if not catalogue.ok and not keep_going:
        return SitePlan(catalogue, (), catalogue.problems)
    broken = {problem.path for problem in catalogue.problems}
    entries = [entry for entry in catalogue.entries if entry.recipe.path not in broken]
    env = environment()
    home_url = page_url(HOME_PAGE, use_directory_urls)
    outputs: list[Output] = []
    rows = []
    for entry in entries:
        recipe = entry.recipe
        links = RecipeLinks.of(recipe)
        name = recipe.id.rsplit("/", 1)[1]
        env_script = describe.env_script(recipe)
        page = render(
            env,
            "recipe.md.j2",
            recipe=recipe,
            f=recipe.fields,
            derived=entry.derived,
            title=describe.title(recipe),
            env_script=env_script,
            links={
                "yaml": Markup(f"{name}{RECIPE_SUFFIX}"),
                "launch": Markup(f"{name}/launch.sh"),
                "env": Markup(f"{name}/env.sh"),
                "methodology": Markup(posixpath.relpath(METHODOLOGY_PAGE, posixpath.dirname(links.page_src))),
            },
        )
        outputs += [
            Output(links.page_src, content=page, edit_path=recipe.path, origin=recipe.path),
            Output(links.yaml_src, copy_of=root / recipe.path, origin=recipe.path),
            Output(links.launch_src, content=recipe.fields.run, origin=recipe.path),
        ]
        if recipe.fields.env:
            outputs.append(Output(links.env_src, content=env_script, origin=recipe.path))
        rows.append({"entry": entry, "url": relative_url(home_url, page_url(links.page_src, use_directory_urls))})
    outputs.append(Output(HOME_PAGE, content=render(env, "home.md.j2", rows=rows, problems=catalogue.problems)))
    if catalogue.reference is None:  # broken reference data: its problems are on the home page
        return SitePlan(catalogue, tuple(outputs), catalogue.problems)
    outputs.append(
        Output(
            METHODOLOGY_PAGE,
            content=render(
                env,
                "methodology.md.j2",
                reference=catalogue.reference,
                mfu_tolerance=MFU_TOLERANCE,
                price_relative_tolerance=PRICE_RELATIVE_TOLERANCE,
                price_absolute_tolerance=PRICE_ABSOLUTE_TOLERANCE,
            ),
            edit_path="reference/gpus.yaml",
        )
    )
    problems = [*catalogue.problems, *collisions(outputs, hand_written, use_directory_urls)]
    return SitePlan(catalogue, tuple(outputs), sorted_problems(problems))


def collisions(outputs: Collection[Output], hand_written: Collection[str], use_directory_urls: bool) -> list[Problem]:
    """A generated file may not replace a hand-written one, not even one differing in letter case."""
    taken = {page_url(src, use_directory_urls).casefold(): src for src in hand_written}
    problems = []
    for output in outputs:
        existing = taken.get(page_url(output.src_uri, use_directory_urls).casefold())
        if existing is not None:
            problems.append(
                Problem(
                    output.origin or f"docs/{existing}",
                    0,
                    0,
                    "",
                    f"its page {output.src_uri!r} would replace the hand-written docs/{existing}; rename one of them",
                )
            )
    return problems
