"""The generated part of the site: which files exist, what they hold, and what went wrong.

`plan_site` is the whole pipeline short of MkDocs: load -> validate -> check -> render. The MkDocs
hook turns each `Output` into a generated file; tests and the CLI call it directly.
"""

from __future__ import annotations

import functools
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

import plotly

from ..loader import Catalogue, LoadMemo, load_catalogue
from ..problems import Problem, sorted_problems
from ..reading.schema import SCHEMA_RELATIVE_PATH, Schema
from . import export, facts
from .outputs import PLOTLY_JS, Output, collisions
from .pages import Pages, group_outputs, index_outputs, recipe_outputs, unavailable_pages
from .pieces import Pieces


@dataclass(frozen=True)
class SitePlan:
    catalogue: Catalogue
    outputs: tuple[Output, ...]
    problems: tuple[Problem, ...]


def plan_site(
    root: Path,
    *,
    hand_written: Collection[str] = (),
    use_directory_urls: bool = True,
    keep_going: bool = False,
    site_url: str | None = None,
    memo: LoadMemo | None = None,
    pieces: Pieces | None = None,
) -> SitePlan:
    """Everything the catalogue adds to the site, or the problems that stop it.

    `hand_written` are the docs files already in the site (their paths in the docs tree); a
    generated file may not take the place of one. With `keep_going` (for `mkdocs serve`), a site
    is planned even when there are problems: without the recipes that have them, and with the
    problems listed on the home page. `memo` and `pieces` keep recipes and what is made from each
    between the builds of `mkdocs serve` (loader.LoadMemo, pieces.Pieces).
    """
    # A fact that reads a field the schema does not have, or cannot write its value, stops here.
    facts.check_schema(Schema.load(root / SCHEMA_RELATIVE_PATH).document)
    catalogue = load_catalogue(root, memo=memo)
    if not catalogue.ok and not keep_going:
        return SitePlan(catalogue, (), catalogue.problems)
    if catalogue.reference is None:  # broken reference data: nothing can be checked or shown
        return SitePlan(catalogue, unavailable_pages(catalogue.problems), catalogue.problems)
    problems = list(catalogue.problems)
    broken: set[str] = set()  # recipes whose generated files clash (catalogue.entries are otherwise valid)
    while True:
        entries = [entry for entry in catalogue.entries if entry.recipe.path not in broken]
        site = Pages(root, entries, catalogue.reference, use_directory_urls, pieces)
        outputs = [
            *recipe_outputs(site),
            *index_outputs(site, sorted_problems(problems)),
            *group_outputs(site),
            *export.data_outputs(
                site.root, site.entries, site.recipe_url_from_root, site_url, site.reference, site.pieces
            ),
            Output(PLOTLY_JS, copy_of=Path(plotly.__file__).parent / "package_data" / "plotly.min.js", inputs=()),
        ]
        # Under `mkdocs serve` an edit mostly leaves the files what they were (in another order,
        # when a figure moves a recipe in the table's): files that did not clash still do not.
        written = (frozenset(hand_written), use_directory_urls, frozenset((o.src_uri, o.origin) for o in outputs))
        clashes = site.pieces.latest(
            "no collisions", written, functools.partial(collisions, outputs, hand_written, use_directory_urls)
        )
        if clashes:
            site.pieces.forget("no collisions")
        problems += clashes
        clashing = {problem.path for problem in clashes} & {entry.recipe.path for entry in entries}
        if not (keep_going and clashing):
            break
        # Under `mkdocs serve`, the recipes whose files clash are left out like any other with a
        # problem: written anyway, one would overwrite the other or stand where it needs a folder.
        broken |= clashing
    return SitePlan(catalogue, tuple(outputs), sorted_problems(problems))
