"""The files the catalogue adds to the site: their places (routes), what each holds, and the rule
that no two of them, nor a generated and a hand-written one, share a place."""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path

from ..problems import Problem
from .render import RenderedPage
from .urls import destination

HOME_PAGE = "index.md"
METHODOLOGY_PAGE = "methodology.md"
MODELS_PAGE = "models/index.md"
GPUS_PAGE = "gpus/index.md"
COMPARE_PAGE = "compare.md"
SCHEMA_PAGE = "schema.md"
DATA_PAGE = "data.md"
"""What the exports hold, with an example made by the export's own code from the catalogue."""
API_JSON = "api/recipes.json"
API_CSV = "api/recipes.csv"
API_INDEX = "api/index.json"
"""Every recipe's id, title and model, for the compare page's picker."""
API_RECIPES_DIR = "api/recipes"
"""Each recipe's record on its own, `api/recipes/<id>.json`: what the compare page loads."""
SCHEMA_JSON = "schema/recipe.schema.json"
FEED = "feed.xml"
PLOTLY_JS = "assets/javascripts/plotly.min.js"
FACETS_JS = "assets/facets.js"
"""The catalogue table's filters, made from the facts registry; mkdocs.yml loads it before table.js."""
PRICES_JSON = "assets/prices.json"
"""The price-basis presets, made from reference/instances.yaml; price.js loads it."""
CATALOGUE_ROWS_JSON = "assets/catalogue-rows.json"
"""Every row of the home page's table as columns of values: the page holds only the first rows."""
GENERATED_NAV_PAGES = (HOME_PAGE, MODELS_PAGE, GPUS_PAGE, COMPARE_PAGE, METHODOLOGY_PAGE, SCHEMA_PAGE, DATA_PAGE)
SHARED_TARGETS = {
    "home": HOME_PAGE,
    "methodology": METHODOLOGY_PAGE,
    "compare": COMPARE_PAGE,
    "models": MODELS_PAGE,
    "gpus": GPUS_PAGE,
    "api_json": API_JSON,
    "api_csv": API_CSV,
    "api_index": API_INDEX,
    "schema_json": SCHEMA_JSON,
    "feed": FEED,
    "plotly": PLOTLY_JS,
}


@dataclass(frozen=True)
class Output:
    """One generated file in the docs tree: made by `render` when asked, or a file to copy.

    A page (`.md`) renders to a `RenderedPage`, any other file to its text. Rendering is deferred
    so that the MkDocs hook can render pages in a second process while MkDocs converts the ones
    already done.
    """

    src_uri: str
    render: Callable[[], RenderedPage | str] | None = None
    copy_of: Path | None = None
    """Copy this file byte for byte instead of rendering."""
    edit_path: str | None = None
    """The repository file a reader should edit to change this page."""
    origin: str | None = None
    """The recipe file this output comes from, for error messages."""
    inputs: tuple[str, ...] | None = None
    """What the output is made from besides what every output may read (the templates, schema,
    reference data and date): the digests of the recipes it shows (`Entry.digest`, or
    `Entry.listing` where it shows what lists of recipes show) and anything else it reads (counts,
    links), or None for every recipe's listing and the problems. `mkdocs serve` makes an output
    again only when these change (incremental.py)."""

    def text(self) -> str:
        """What the output holds as one text: a page as a Markdown file with its fragments in place
        (what a hand-written page would be; for tests and the benchmark's plain site)."""
        rendered = self.render() if self.render is not None else ""
        return rendered.inline_markdown() if isinstance(rendered, RenderedPage) else rendered


def fixed(value: RenderedPage | str) -> Callable[[], RenderedPage | str]:
    """A render that returns `value`, made already."""
    return functools.partial(_same, value)


def _same(value: RenderedPage | str) -> RenderedPage | str:
    return value


def recipe_page_src(recipe_id: str) -> str:
    return f"recipes/{recipe_id}.md"


def collisions(outputs: Collection[Output], hand_written: Collection[str], use_directory_urls: bool) -> list[Problem]:
    """No two files of the built site may have one address, not even two differing in letter case
    (on some systems they are one file), and no file may stand where another needs a folder
    (`x.yaml` beside `x.yaml/index.html`). Each clash is reported against the files involved; a
    generated file never replaces a hand-written one."""
    where = functools.partial(destination, use_directory_urls=use_directory_urls)
    written = [_Written(src, f"docs/{src}", True, where(src)) for src in hand_written]
    written += [_Written(out.src_uri, out.origin or out.src_uri, False, where(out.src_uri)) for out in outputs]
    by_path: dict[str, _Written] = {}
    clashes: list[tuple[_Written, _Written, str]] = []
    for item in written:
        first = by_path.setdefault(item.path.casefold(), item)
        if first is not item:
            clashes.append((first, item, f"would both be written to {item.path!r}"))
    folders: dict[str, _Written] = {}
    for item in by_path.values():
        parts = item.path.split("/")
        for depth in range(1, len(parts)):
            folders.setdefault("/".join(parts[:depth]).casefold(), item)
    for folded, item in by_path.items():
        inside = folders.get(folded)
        if inside is not None:
            clashes.append((item, inside, f"would be written to {item.path!r} and inside it ({inside.path!r})"))
    problems = set()
    for a, b, clash in clashes:
        if a.hand_written != b.hand_written and a.path.casefold() == b.path.casefold():
            page, theirs = (b, a) if a.hand_written else (a, b)
            message = f"its page {page.src_uri!r} would replace the hand-written {theirs.origin}; rename one of them"
            problems.add(Problem(page.origin, 0, 0, "", message))
            continue
        message = f"{a.src_uri!r} (from {a.origin}) and {b.src_uri!r} (from {b.origin}) {clash}; rename one of them"
        problems.update(Problem(item.origin, 0, 0, "", message) for item in (a, b) if not item.hand_written)
    return sorted(problems)


@dataclass(frozen=True)
class _Written:
    """A file of the built site, for the collision check."""

    src_uri: str
    origin: str
    """The file to blame: the recipe it comes from, the hand-written docs file, or itself."""
    hand_written: bool
    path: str
    """Where it is written in the site."""
