"""The generated part of the site: which files exist, what they hold, and what went wrong.

`plan_site` is the whole pipeline short of MkDocs: load -> validate -> check -> render. The MkDocs
hook turns each `Output` into a generated file; tests and the CLI call it directly.
"""

from __future__ import annotations

import functools
import json
import posixpath
from collections import defaultdict
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
import plotly
from markupsafe import Markup

from . import charts, describe, export, facts
from .catalogue import RECIPE_SUFFIX, Catalogue, Entry, load_catalogue, slug
from .checks import MFU_TOLERANCE, PRICE_ABSOLUTE_TOLERANCE, PRICE_RELATIVE_TOLERANCE, check_statements
from .feed import atom_feed
from .problems import Problem, sorted_problems
from .reference import REFERENCE_DIR, Reference
from .render import RenderedPage, environment, render
from .schema import SCHEMA_RELATIVE_PATH, Schema
from .schemadoc import schema_sections
from .urls import destination, page_url, relative_url

HOME_PAGE = "index.md"
METHODOLOGY_PAGE = "methodology.md"
MODELS_PAGE = "models/index.md"
GPUS_PAGE = "gpus/index.md"
COMPARE_PAGE = "compare.md"
SCHEMA_PAGE = "schema.md"
API_JSON = "api/recipes.json"
API_CSV = "api/recipes.csv"
SCHEMA_JSON = "schema/recipe.schema.json"
FEED = "feed.xml"
PLOTLY_JS = "assets/javascripts/plotly.min.js"
FACETS_JS = "assets/facets.js"
"""The catalogue table's filters, made from the facts registry; mkdocs.yml loads it before table.js."""
GENERATED_NAV_PAGES = (HOME_PAGE, MODELS_PAGE, GPUS_PAGE, COMPARE_PAGE, METHODOLOGY_PAGE, SCHEMA_PAGE)
SHARED_TARGETS = {
    "home": HOME_PAGE,
    "methodology": METHODOLOGY_PAGE,
    "compare": COMPARE_PAGE,
    "models": MODELS_PAGE,
    "gpus": GPUS_PAGE,
    "api_json": API_JSON,
    "api_csv": API_CSV,
    "schema_json": SCHEMA_JSON,
    "feed": FEED,
    "plotly": PLOTLY_JS,
}
RECENT = 5
ALTERNATIVES = 10


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

    def text(self) -> str:
        """What the output holds as one text: a page as a Markdown file with its fragments in place
        (what a hand-written page would be; for tests and the benchmark's plain site)."""
        rendered = self.render() if self.render is not None else ""
        return rendered.inline_markdown() if isinstance(rendered, RenderedPage) else rendered


def _fixed(value: RenderedPage | str) -> Callable[[], RenderedPage | str]:
    return functools.partial(_same, value)


def _same(value: RenderedPage | str) -> RenderedPage | str:
    return value


@dataclass(frozen=True)
class SitePlan:
    catalogue: Catalogue
    outputs: tuple[Output, ...]
    problems: tuple[Problem, ...]


def recipe_page_src(entry: Entry) -> str:
    return f"recipes/{entry.recipe.id}.md"


class _Site:
    """What every page builder needs: the templates, the URL rules, the catalogue."""

    def __init__(self, root: Path, entries: Sequence[Entry], reference: Reference, use_directory_urls: bool) -> None:
        self.root = root
        self.entries = entries
        self.ids = frozenset(entry.recipe.id for entry in entries)
        self.reference = reference
        self.env: jinja2.Environment = environment()
        self.use_directory_urls = use_directory_urls

    def url(self, src_uri: str) -> str:
        return page_url(src_uri, self.use_directory_urls)

    def link(self, from_src: str, to_src: str) -> Markup:
        """A relative URL for raw HTML (MkDocs does not rewrite links inside raw HTML)."""
        return Markup(relative_url(self.url(from_src), self.url(to_src)))

    def recipe_url_from(self, from_src: str) -> Callable[[Entry], str]:
        return lambda entry: str(self.link(from_src, recipe_page_src(entry)))

    def recipe_url_from_root(self, entry: Entry) -> str:
        return self.url(recipe_page_src(entry))

    def rows(self, from_src: str, entries: Sequence[Entry]) -> list[dict[str, Any]]:
        url_of = self.recipe_url_from(from_src)
        return [{"entry": entry, "url": url_of(entry)} for entry in entries]

    def page(self, src: str, template: str, **context: Any) -> Callable[[], str]:
        """The page at `src` from `template`; context values that are callables are called when it renders."""

        def rendered() -> str:
            values = {name: value() if callable(value) else value for name, value in context.items()}
            links = self._site_links(posixpath.dirname(self.url(src)))
            return render(self.env, template, links=links, price_options=self.price_options, **values)

        return rendered

    @functools.cache  # noqa: B019 - one _Site per build; the links depend only on the page's folder
    def _site_links(self, folder: str) -> dict[str, Markup]:
        """Links from a page in `folder` to the site's shared pages and files."""
        here = f"{folder}/" if folder else ""
        return {name: Markup(relative_url(here, self.url(target))) for name, target in SHARED_TARGETS.items()}

    @functools.cached_property
    def price_options(self) -> Markup:
        """Listed instance prices for the price calculator, as JSON for a data attribute."""
        options = [
            {
                "name": spec.key,
                "gpu": spec.gpu,
                "usd_per_gpu_hour": round(spec.usd_per_gpu_hour, 6),
                "as_of": spec.sourced.as_of.isoformat(),
            }
            for spec in self.reference.instances.values()
        ]
        return Markup(json.dumps(options, separators=(",", ":"), sort_keys=True))


def plan_site(
    root: Path,
    *,
    hand_written: Collection[str] = (),
    use_directory_urls: bool = True,
    keep_going: bool = False,
    site_url: str | None = None,
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
    if catalogue.reference is None:  # broken reference data: nothing can be checked or shown
        return SitePlan(catalogue, _unavailable_pages(catalogue.problems), catalogue.problems)
    problems = list(catalogue.problems)
    broken = {problem.path for problem in problems}
    while True:
        entries = [entry for entry in catalogue.entries if entry.recipe.path not in broken]
        site = _Site(root, entries, catalogue.reference, use_directory_urls)
        outputs = [
            *_recipe_outputs(site),
            *_index_outputs(site, sorted_problems(problems)),
            *_group_outputs(site),
            *_data_outputs(site, site_url),
            Output(PLOTLY_JS, copy_of=Path(plotly.__file__).parent / "package_data" / "plotly.min.js"),
        ]
        clashes = collisions(outputs, hand_written, use_directory_urls)
        problems += clashes
        clashing = {problem.path for problem in clashes} & {entry.recipe.path for entry in entries}
        if not (keep_going and clashing):
            break
        # Under `mkdocs serve`, the recipes whose files clash are left out like any other with a
        # problem: written anyway, one would overwrite the other or stand where it needs a folder.
        broken |= clashing
    return SitePlan(catalogue, tuple(outputs), sorted_problems(problems))


_TITLES = {
    MODELS_PAGE: "Models",
    GPUS_PAGE: "GPUs",
    COMPARE_PAGE: "Compare recipes",
    METHODOLOGY_PAGE: "Methodology",
    SCHEMA_PAGE: "Recipe schema",
}


def _unavailable_pages(problems: Sequence[Problem]) -> tuple[Output, ...]:
    """Every page the navigation names, each saying why the catalogue is not there.

    With broken reference data no figure can be recomputed, so there are no recipe pages; but a
    navigation entry without its page is a warning, and `mkdocs serve` must keep answering.
    """
    files = sorted({problem.path for problem in problems if problem.path.startswith(REFERENCE_DIR + "/")})
    env = environment()
    pages = []
    for src in GENERATED_NAV_PAGES:
        page = render(env, "unavailable.md.j2", title=_TITLES.get(src, "OpenRecipes"), files=files, problems=problems)
        pages.append(Output(src, render=_fixed(page)))
    return tuple(pages)


def _recipe_outputs(site: _Site) -> list[Output]:
    by_model: dict[str, list[Entry]] = defaultdict(list)
    for entry in site.entries:
        by_model[slug(entry.recipe.fields.model)].append(entry)
    outputs = []
    for entry in site.entries:
        recipe = entry.recipe
        src = recipe_page_src(entry)
        env_script = describe.env_script(recipe)
        alternatives = [other for other in by_model[slug(recipe.fields.model)] if other is not entry]
        model_page = f"{posixpath.dirname(MODELS_PAGE)}/{slug(recipe.fields.model)}.md"
        page = site.page(
            src,
            "recipe.md.j2",
            entry=entry,
            recipe=recipe,
            f=recipe.fields,
            derived=entry.derived,
            title=describe.title(recipe),
            env_script=env_script,
            files={
                "yaml": site.link(src, f"recipes/{recipe.id}{RECIPE_SUFFIX}"),
                "launch": site.link(src, f"recipes/{recipe.id}/launch.sh"),
                "env": site.link(src, f"recipes/{recipe.id}/env.sh"),
                # A Markdown link, so MkDocs checks it: a path of our own, to a page of our own.
                "methodology": Markup(posixpath.relpath(METHODOLOGY_PAGE, posixpath.dirname(src))),
                "methodology_html": site.link(src, METHODOLOGY_PAGE),
            },
            # The cheapest few: a page listing every alternative would grow with the catalogue.
            alternatives=functools.partial(site.rows, src, alternatives[:ALTERNATIVES]),
            more_alternatives=max(0, len(alternatives) - ALTERNATIVES),
            model_page=site.link(src, model_page),
            compare_url=f"{site.link(src, COMPARE_PAGE)}?a={recipe.id}",
            superseded_url=_superseded_url(site, src, recipe),
        )
        outputs += [
            Output(src, render=page, edit_path=recipe.path, origin=recipe.path),
            Output(f"recipes/{recipe.id}{RECIPE_SUFFIX}", copy_of=site.root / recipe.path, origin=recipe.path),
        ]
        if recipe.fields.run:
            outputs.append(
                Output(f"recipes/{recipe.id}/launch.sh", render=_fixed(recipe.fields.run), origin=recipe.path)
            )
        if recipe.fields.env:
            outputs.append(Output(f"recipes/{recipe.id}/env.sh", render=_fixed(env_script), origin=recipe.path))
    return outputs


def _superseded_url(site: _Site, src: str, recipe: Any) -> str | None:
    """A link to the recipe that replaces a deprecated one, when it is in the catalogue."""
    replacement = recipe.fields.deprecation.superseded_by if recipe.fields.deprecation else None
    if replacement is None or replacement not in site.ids:
        return None
    return str(site.link(src, f"recipes/{replacement}.md"))


def _newest_first(entries: Sequence[Entry]) -> list[Entry]:
    """Recipes with a date (describe.dated), newest first; undated ones are left out."""
    dated = [entry for entry in entries if describe.dated(entry.recipe.fields)]
    return sorted(dated, key=lambda e: (describe.dated(e.recipe.fields), e.recipe.id), reverse=True)


def _index_outputs(site: _Site, problems: Sequence[Problem]) -> list[Output]:
    home_charts, chart_outputs = _charts(site, "home", site.entries)
    home = site.page(
        HOME_PAGE,
        "home.md.j2",
        rows=functools.partial(site.rows, HOME_PAGE, site.entries),
        recent=functools.partial(site.rows, HOME_PAGE, _newest_first(site.entries)[:RECENT]),
        problems=problems,
        charts=home_charts,
    )
    methodology = site.page(
        METHODOLOGY_PAGE,
        "methodology.md.j2",
        reference=site.reference,
        mfu_tolerance=MFU_TOLERANCE,
        price_relative_tolerance=PRICE_RELATIVE_TOLERANCE,
        price_absolute_tolerance=PRICE_ABSOLUTE_TOLERANCE,
        checks=check_statements(),
    )
    compare = site.page(COMPARE_PAGE, "compare.md.j2", count=len(site.entries))
    schema = Schema.load(site.root / SCHEMA_RELATIVE_PATH)
    schema_page = site.page(SCHEMA_PAGE, "schema.md.j2", sections=functools.partial(schema_sections, schema.document))
    return [
        Output(HOME_PAGE, render=home),
        Output(METHODOLOGY_PAGE, render=methodology, edit_path="reference/gpus.yaml"),
        Output(COMPARE_PAGE, render=compare),
        Output(SCHEMA_PAGE, render=schema_page, edit_path=SCHEMA_RELATIVE_PATH),
        *chart_outputs,
    ]


def _charts(site: _Site, stem: str, entries: Sequence[Entry]) -> tuple[dict[str, Markup], list[Output]]:
    """The charts of one page: their names for the template, and their figure files."""
    names: dict[str, Markup] = {}
    outputs = []
    url_of = site.recipe_url_from_root
    for kind, build in charts.charts_for(entries, url_of).items():
        name = f"{stem}-{kind}"
        names[kind] = Markup(name)
        outputs.append(Output(f"{charts.CHARTS_DIR}/{name}.json", render=build))
    return names, outputs


def _group_outputs(site: _Site) -> list[Output]:
    """A page per model and per GPU type with its recipes, and an index page of each."""
    outputs = []
    for kind, index_src, key_of in (
        ("model", MODELS_PAGE, lambda e: e.recipe.fields.model),
        ("gpu", GPUS_PAGE, lambda e: e.derived.gpu.key if e.derived.gpu else e.recipe.fields.gpu.type),
    ):
        groups: dict[str, list[Entry]] = defaultdict(list)
        names: dict[str, str] = {}
        for entry in site.entries:
            names.setdefault(slug(key_of(entry)), key_of(entry))
            groups[slug(key_of(entry))].append(entry)
        folder = posixpath.dirname(index_src)
        summaries = []
        for group_slug in sorted(groups):
            src = f"{folder}/{group_slug}.md"
            members = groups[group_slug]
            gpu = site.reference.gpus.get(names[group_slug]) if kind == "gpu" else None
            group_charts, chart_outputs = _charts(site, f"{kind}-{group_slug}", members)
            page = site.page(
                src,
                "group.md.j2",
                kind=kind,
                name=names[group_slug],
                gpu=gpu,
                model=site.reference.model(names[group_slug]) if kind == "model" else None,
                rows=functools.partial(site.rows, src, members),
                charts=group_charts,
            )
            outputs += [Output(src, render=page), *chart_outputs]
            summaries.append({"name": names[group_slug], "url": site.link(index_src, src), "entries": members})
        outputs.append(Output(index_src, render=site.page(index_src, "groups.md.j2", kind=kind, groups=summaries)))
    return outputs


def _data_outputs(site: _Site, site_url: str | None) -> list[Output]:
    def url(entry: Entry) -> str:
        return site.url(recipe_page_src(entry))

    def api() -> str:
        records = [export.recipe_json(entry, url(entry)) for entry in site.entries]
        data = {"version": export.API_VERSION, "count": len(records), "recipes": records}
        # Compact: with an indent, json falls back to its pure-Python encoder, 5× slower at 1,000 recipes.
        return json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"

    def table() -> str:
        return export.catalogue_csv([export.csv_row(entry, url(entry)) for entry in site.entries])

    def schema() -> str:
        document = Schema.load(site.root / SCHEMA_RELATIVE_PATH).document
        return json.dumps(document, indent=2, ensure_ascii=False) + "\n"

    def feed() -> str:
        return atom_feed([(entry, url(entry)) for entry in _newest_first(site.entries)], site_url)

    def facets_script() -> str:
        config = json.dumps(facts.facet_config(), ensure_ascii=False, indent=2)
        return (
            "// Generated from hooks/openrecipes/facts.py when the site is built: the catalogue table's filters.\n"
            "window.OpenRecipes = window.OpenRecipes || {};\n"
            f"window.OpenRecipes.facets = {config};\n"
        )

    return [
        Output(FACETS_JS, render=facets_script),
        Output(API_JSON, render=api),
        Output(API_CSV, render=table),
        Output(SCHEMA_JSON, render=schema),
        Output(FEED, render=feed),
    ]


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
