"""The generated pages: each recipe's page, the home page and the other index pages, the model and
GPU pages with their charts, and what they show while the reference data is broken."""

from __future__ import annotations

import functools
import posixpath
import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import jinja2
from markupsafe import Markup

from .. import describe, flops
from ..checking import launchscript as launch
from ..checking import pricebasis, readiness
from ..checking.figures import MFU_TOLERANCE, PRICE_ABSOLUTE_TOLERANCE, PRICE_RELATIVE_TOLERANCE
from ..checking.launchscript import Launch
from ..checking.launchvalues import configuration_gaps
from ..checking.preparation import KIND_LABELS, preparation_steps
from ..checking.rules import check_statements
from ..loader import RECIPE_SUFFIX, Entry, slug, table_order_key
from ..problems import Problem
from ..reading.envnames import is_dangerous_name
from ..reading.reference import REFERENCE_DIR, Reference
from ..reading.schema import SCHEMA_RELATIVE_PATH, Schema
from . import architecture, charts, export, facts
from .outputs import (
    COMPARE_PAGE,
    DATA_PAGE,
    GENERATED_NAV_PAGES,
    GPUS_PAGE,
    HOME_PAGE,
    METHODOLOGY_PAGE,
    MODELS_PAGE,
    SCHEMA_PAGE,
    SHARED_TARGETS,
    Output,
    fixed,
    recipe_page_src,
)
from .pieces import Pieces
from .render import environment, render, shared_environment
from .schemadoc import schema_sections
from .urls import page_url, relative_url

RECENT = 5
HOME_ROWS = 50
"""Rows of the home page's table written into its HTML: more than a screen, so the first screen
needs no script; table.js adds the others from CATALOGUE_ROWS_JSON (the page stays small at
thousands of recipes)."""
GROUP_ROWS = 50
"""Rows of a model's or GPU type's table written into its HTML when it has more recipes than this:
the first current ones, as on the home page; table.js adds the page's others from the same data."""


class Pages:
    """What every page builder needs: the templates, the URL rules, the catalogue."""

    def __init__(
        self,
        root: Path,
        entries: Sequence[Entry],
        reference: Reference,
        use_directory_urls: bool,
        pieces: Pieces | None = None,
    ) -> None:
        self.root = root
        self.pieces = pieces if pieces is not None else Pieces()
        """What is made from one recipe alone, shared by the pages of a build and kept by `mkdocs serve`."""
        self.entries = entries
        self.ids = frozenset(entry.recipe.id for entry in entries)
        self.reference = reference
        self.env: jinja2.Environment = shared_environment()
        self.use_directory_urls = use_directory_urls
        self._root_urls: dict[str, str] = {}

    def url(self, src_uri: str) -> str:
        return page_url(src_uri, self.use_directory_urls)

    def link(self, from_src: str, to_src: str) -> Markup:
        """A relative URL for raw HTML (MkDocs does not rewrite links inside raw HTML)."""
        return Markup(relative_url(self.url(from_src), self.url(to_src)))

    def recipe_url_from(self, from_src: str) -> Callable[[Entry], str]:
        return lambda entry: str(self.link(from_src, recipe_page_src(entry.recipe.id)))

    def recipe_url_from_root(self, entry: Entry) -> str:
        # Asked for every recipe by every export and chart: worked out once each.
        url = self._root_urls.get(entry.recipe.id)
        if url is None:
            url = self._root_urls[entry.recipe.id] = self.url(recipe_page_src(entry.recipe.id))
        return url

    def rows(self, from_src: str, entries: Sequence[Entry]) -> list[dict[str, Any]]:
        url_of = self.recipe_url_from(from_src)
        return [{"entry": entry, "url": url_of(entry)} for entry in entries]

    def page(self, src: str, template: str, **context: Any) -> Callable[[], str]:
        """The page at `src` from `template`; context values that are callables are called when it renders."""

        def rendered() -> str:
            values = {name: value() if callable(value) else value for name, value in context.items()}
            links = self._site_links(posixpath.dirname(self.url(src)))
            return render(self.env, template, links=links, basis_text=self.basis_text, **values)

        return rendered

    @functools.cached_property
    def basis_text(self) -> str:
        """What the default price basis is, for the pages that show prices."""
        return pricebasis.DEFAULT.describe(self.reference)

    @functools.cache  # noqa: B019 - one Pages per build; the links depend only on the page's folder
    def _site_links(self, folder: str) -> dict[str, Markup]:
        """Links from a page in `folder` to the site's shared pages and files."""
        here = f"{folder}/" if folder else ""
        return {name: Markup(relative_url(here, self.url(target))) for name, target in SHARED_TARGETS.items()}


_TITLES = {
    MODELS_PAGE: "Models",
    GPUS_PAGE: "GPUs",
    COMPARE_PAGE: "Compare recipes",
    METHODOLOGY_PAGE: "Methodology",
    SCHEMA_PAGE: "Recipe schema",
}


def unavailable_pages(problems: Sequence[Problem]) -> tuple[Output, ...]:
    """Every page the navigation names, each saying why the catalogue is not there.

    With broken reference data no figure can be recomputed, so there are no recipe pages; but a
    navigation entry without its page is a warning, and `mkdocs serve` must keep answering.
    """
    files = sorted({problem.path for problem in problems if problem.path.startswith(REFERENCE_DIR + "/")})
    env = environment()
    pages = []
    for src in GENERATED_NAV_PAGES:
        page = render(env, "unavailable.md.j2", title=_TITLES.get(src, "OpenRecipes"), files=files, problems=problems)
        pages.append(Output(src, render=fixed(page)))
    return tuple(pages)


def recipe_outputs(site: Pages) -> list[Output]:
    # A recipe's alternatives are of its model and its training method: a LoRA run is no
    # pre-training run's cheaper alternative.
    by_model: dict[tuple[str, str], list[Entry]] = defaultdict(list)
    for entry in site.entries:
        by_model[(slug(entry.recipe.fields.model), facts.method_of(entry))].append(entry)
    # Each GPU type's two fastest current recipes, per model: a recipe's cheapest alternative on a
    # GPU type is the fastest there, or the second when it is the fastest itself.
    leaders = {model: _fastest_per_gpu(members, 2) for model, members in by_model.items()}
    outputs = []
    for entry in site.entries:
        recipe = entry.recipe
        # Each GPU type's cheapest: whatever the reader's price basis, the cheapest other recipe is
        # one of them, and a page listing every alternative would grow with the catalogue.
        model = (slug(recipe.fields.model), facts.method_of(entry))
        others = ([other for other in fastest if other is not entry][:1] for fastest in leaders[model].values())
        shown = tuple(sorted((other for found in others for other in found), key=table_order_key))
        more = len(by_model[model]) - 1 - len(shown)
        replaced = _replacement_listed(site, recipe)
        # The page shows its recipe, a row of each of the cheapest others of its model, how many
        # more there are, and a link to its replacement when that is in the catalogue.
        page_inputs = (entry.digest, *(other.listing for other in shown), f"more {more}", f"replaced {replaced}")
        # Made again only when what the page shows changed: `mkdocs serve` plans every page on each
        # rebuild, and the outputs of 3,000 recipes took a tenth of one.
        made = functools.partial(_outputs_of_recipe, site, entry, shown, more, replaced, page_inputs)
        outputs += site.pieces.get("outputs", entry, (page_inputs, site.use_directory_urls, site.root), made)
    return outputs


def _outputs_of_recipe(
    site: Pages, entry: Entry, shown: tuple[Entry, ...], more: int, replaced: bool, page_inputs: tuple[str, ...]
) -> list[Output]:
    """A recipe's page, its YAML file and its launch scripts."""
    recipe = entry.recipe
    src = recipe_page_src(recipe.id)
    recipe_launches = launch.launches(recipe.fields)
    model_page = f"{posixpath.dirname(MODELS_PAGE)}/{slug(recipe.fields.model)}.md"
    page = site.page(
        src,
        "recipe.md.j2",
        entry=entry,
        recipe=recipe,
        f=recipe.fields,
        derived=entry.derived,
        title=describe.title(recipe),
        launches=recipe_launches,
        launch_values=configuration_gaps(recipe.fields),
        preparation=preparation_steps(recipe.fields),
        kind_labels=KIND_LABELS,
        withheld=withheld_environment(recipe.fields),
        conditional=conditional_environment(recipe.fields),
        # Links are made when the page is rendered: `mkdocs serve` plans every page on each
        # rebuild but renders only those an edit changes.
        files=functools.partial(_recipe_files, site, src, recipe.id),
        launch_links=functools.partial(_launch_links, site, src, recipe.id, recipe_launches),
        alternatives=functools.partial(site.rows, src, shown),
        more_alternatives=more,
        model_page=functools.partial(site.link, src, model_page),
        compare_url=functools.partial(_compare_url, site, src, recipe.id),
        superseded_url=functools.partial(_superseded_url, site, src, recipe) if replaced else None,
    )
    own = (entry.digest,)
    outputs = [
        Output(src, render=page, edit_path=recipe.path, origin=recipe.path, inputs=page_inputs),
        Output(f"recipes/{recipe.id}{RECIPE_SUFFIX}", copy_of=site.root / recipe.path, origin=recipe.path, inputs=own),
    ]
    for script in (script for one in recipe_launches for script in one.scripts):
        outputs.append(
            Output(f"recipes/{recipe.id}/{script.name}", render=fixed(script.text), origin=recipe.path, inputs=own)
        )
    return outputs


@dataclass(frozen=True)
class Withheld:
    """A variable the publisher's files set that a recipe may not (`launch.withheld`), as its page warns of it."""

    name: str
    value: str
    file: str
    line: int
    url: str
    """The cited file's permalink at the line that sets it."""
    why: str

    @property
    def file_name(self) -> str:
        """The file's name, as the warning writes it (its link goes to the whole path)."""
        return self.file.rsplit("/", 1)[-1]


def withheld_environment(fields: Any) -> tuple[Withheld, ...]:
    """Each `launch.withheld` of a documented launch, linked at its line, with why it is not exported."""
    launch = fields.launch
    if launch is None or launch.kind != "documented" or not launch.withheld:
        return ()
    links = {item.path: item.url.split("#", 1)[0] for item in launch.source.files}
    return tuple(
        Withheld(
            item.name,
            item.value,
            item.file,
            item.line,
            f"{links[item.file]}#L{item.line}",
            is_dangerous_name(item.name) or "",
        )
        for item in launch.withheld
    )


@dataclass(frozen=True)
class ConditionalValue:
    """A value the publisher's files set only under a condition (`launch.conditional`), as its page lists it."""

    name: str
    value: str | None
    """None: the condition unsets it."""
    condition: str
    file: str
    line: int
    url: str
    """The cited file's permalink at the line that sets it."""

    @property
    def file_name(self) -> str:
        return self.file.rsplit("/", 1)[-1]


def conditional_environment(fields: Any) -> tuple[ConditionalValue, ...]:
    """Each `launch.conditional` of a documented launch, linked at its line."""
    launch = fields.launch
    if launch is None or launch.kind != "documented" or not launch.conditional:
        return ()
    links = {item.path: item.url.split("#", 1)[0] for item in launch.source.files}
    return tuple(
        ConditionalValue(
            item.name, item.value, item.condition, item.file, item.line, f"{links[item.file]}#L{item.line}"
        )
        for item in launch.conditional
    )


def _recipe_files(site: Pages, src: str, recipe_id: str) -> dict[str, Markup]:
    return {
        "yaml": site.link(src, f"recipes/{recipe_id}{RECIPE_SUFFIX}"),
        # A Markdown link, so MkDocs checks it: a path of our own, to a page of our own.
        "methodology": Markup(posixpath.relpath(METHODOLOGY_PAGE, posixpath.dirname(src))),
        "methodology_html": site.link(src, METHODOLOGY_PAGE),
    }


def _launch_links(site: Pages, src: str, recipe_id: str, launches: tuple[Launch, ...]) -> dict[str, str]:
    names = (script.name for one in launches for script in one.scripts)
    return {name: site.link(src, f"recipes/{recipe_id}/{name}") for name in names}


def _compare_url(site: Pages, src: str, recipe_id: str) -> str:
    return f"{site.link(src, COMPARE_PAGE)}?a={recipe_id}"


def _replacement_listed(site: Pages, recipe: Any) -> bool:
    """Whether a deprecated recipe's replacement is in the catalogue (its page then links to it)."""
    replacement = recipe.fields.deprecation.superseded_by if recipe.fields.deprecation else None
    return replacement is not None and replacement in site.ids


def _superseded_url(site: Pages, src: str, recipe: Any) -> str:
    """A link to the recipe that replaces a deprecated one (`_replacement_listed`)."""
    return str(site.link(src, f"recipes/{recipe.fields.deprecation.superseded_by}.md"))


def index_outputs(site: Pages, problems: Sequence[Problem]) -> list[Output]:
    home_charts, chart_outputs = _charts(site, "home", site.entries)
    shown_first = [entry for entry in site.entries if not facts.hidden_by_default(entry)][:HOME_ROWS]
    home = site.page(
        HOME_PAGE,
        "home.md.j2",
        rows=functools.partial(site.rows, HOME_PAGE, shown_first),
        total=len(site.entries),
        matrices=functools.partial(method_matrices, site, HOME_PAGE),
        recent=functools.partial(site.rows, HOME_PAGE, describe.newest_first(site.entries)[:RECENT]),
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
        basis_presets=pricebasis.price_data(site.reference)["presets"],
        basis_gpus=list(site.reference.gpus),
        flops_params=lambda: flops.flops_params,  # a callable context value is called: this gives the function
        readiness_labels=readiness.LABELS,
        readiness_meanings=readiness.MEANINGS,
    )
    compare = site.page(COMPARE_PAGE, "compare.md.j2", count=len(site.entries))
    first = site.entries[0] if site.entries else None  # api/recipes.json's first record
    data = site.page(
        DATA_PAGE,
        "data.md.j2",
        example=(lambda: export.example_api(first, site.recipe_url_from_root(first), len(site.entries)))
        if first
        else None,
        csv_columns=export.csv_columns(),
        readiness_labels=readiness.LABELS,
    )
    schema = Schema.load(site.root / SCHEMA_RELATIVE_PATH)
    schema_page = site.page(SCHEMA_PAGE, "schema.md.j2", sections=functools.partial(schema_sections, schema.document))
    return [
        Output(HOME_PAGE, render=home),
        Output(METHODOLOGY_PAGE, render=methodology, edit_path="reference/gpus.yaml", inputs=()),
        Output(COMPARE_PAGE, render=compare, inputs=(f"count {len(site.entries)}",)),
        Output(SCHEMA_PAGE, render=schema_page, edit_path=SCHEMA_RELATIVE_PATH, inputs=()),
        # The example is the first record whole (its page-only fields too); the count, every recipe.
        Output(
            DATA_PAGE,
            render=data,
            edit_path="hooks/openrecipes/templates/data.md.j2",
            inputs=(*(entry.listing for entry in site.entries), *((first.digest,) if first else ())),
        ),
        *chart_outputs,
    ]


def _charts(
    site: Pages, stem: str, entries: Sequence[Entry], inputs: tuple[str, ...] | None = None
) -> tuple[dict[str, Markup], list[Output]]:
    """The charts of one page: their names for the template, and their figure files (made from
    `inputs`, as Output.inputs)."""
    names: dict[str, Markup] = {}
    outputs = []
    url_of = site.recipe_url_from_root
    for kind, build in charts.charts_for(entries, url_of, site.pieces).items():
        name = f"{stem}-{kind}"
        names[kind] = Markup(name)
        outputs.append(Output(f"{charts.CHARTS_DIR}/{name}.json", render=build, inputs=inputs))
    return names, outputs


def group_outputs(site: Pages) -> list[Output]:
    """A page per model and per GPU type with its recipes, and an index page of each."""
    outputs = []
    for kind, index_src in (("model", MODELS_PAGE), ("gpu", GPUS_PAGE)):
        key_of = facts.BY_KEY[kind].facet_text  # as facts.group_slug, which table.js keeps a page's rows by
        groups: dict[str, list[Entry]] = defaultdict(list)
        names: dict[str, str] = {}
        for entry in site.entries:
            names.setdefault(slug(key_of(entry)), key_of(entry))
            groups[slug(key_of(entry))].append(entry)
        folder = posixpath.dirname(index_src)
        kin = architecture.kin_by_model(site.reference, site.entries) if kind == "model" else {}
        summaries = []
        for group_slug in sorted(groups):
            src = f"{folder}/{group_slug}.md"
            members = groups[group_slug]
            gpu = site.reference.gpus.get(names[group_slug]) if kind == "gpu" else None
            same = kin.get(group_slug, ())
            # The page names each model of its architecture with its count of current recipes.
            members_inputs = (
                *(entry.listing for entry in members),
                *(f"same architecture {other.slug} {other.current}" for other in same),
            )
            group_charts, chart_outputs = _charts(site, f"{kind}-{group_slug}", members, members_inputs)
            page = site.page(
                src,
                "group.md.j2",
                kind=kind,
                name=names[group_slug],
                gpu=gpu,
                model=site.reference.model(names[group_slug]) if kind == "model" else None,
                same_architecture=[
                    {"name": other.name, "url": site.link(src, _group_src("model", other.name)), "count": other.current}
                    for other in same
                ],
                rows=functools.partial(site.rows, src, _first_rows(members, GROUP_ROWS)),
                total=len(members),
                group={"kind": kind, "slug": group_slug},
                charts=group_charts,
            )
            # The page shows its first rows, chosen from every member's listing, and their count.
            outputs += [Output(src, render=page, inputs=members_inputs), *chart_outputs]
            current = [entry for entry in members if not facts.hidden_by_default(entry)]
            summaries.append(
                {
                    "name": names[group_slug],
                    "url": site.link(index_src, src),
                    "entries": members,
                    "current": current,
                    # The best figures are per training method: LoRA is no pre-training run's best.
                    "methods": _per_method(current),
                }
            )
        outputs.append(Output(index_src, render=site.page(index_src, "groups.md.j2", kind=kind, groups=summaries)))
    return outputs


def _per_method(entries: Sequence[Entry]) -> list[dict[str, Any]]:
    """`entries` by training method, pre-training first: each method's recipes, each GPU type's
    cheapest of them (`_cheapest_per_gpu`) and the highest MFU against the BF16 peak, the one scale
    for every precision."""
    by_method: dict[str, list[Entry]] = defaultdict(list)
    for entry in entries:
        by_method[facts.method_of(entry)].append(entry)
    summaries = []
    for method in sorted(by_method, key=describe.method_order):
        members = by_method[method]
        # A figure from a derived throughput is the best only where no measured one is (Methodology).
        ranked = [entry for entry in members if facts.measured_throughput(entry)] or members
        mfus = [entry.derived.mfu_bf16 for entry in ranked if entry.derived.mfu_bf16 is not None]
        summaries.append(
            {
                "method": method,
                "entries": members,
                "fastest": _cheapest_per_gpu(members),
                "mfu_bf16": max(mfus) if mfus else None,
            }
        )
    return summaries


def _first_rows(entries: Sequence[Entry], cap: int) -> Sequence[Entry]:
    """The rows of a group page's table written into its HTML: every one of `entries` when they are
    no more than `cap`, else the first `cap` current ones (table.js loads the others)."""
    if len(entries) <= cap:
        return entries
    return [entry for entry in entries if not facts.hidden_by_default(entry)][:cap]


def fastest_first(entry: Entry) -> tuple:
    """Within one GPU type every recipe is priced at the same $ per GPU-hour, whatever the basis, so
    the cheapest is the one with the most tokens/s per GPU; ties by higher MFU, then id. A throughput
    derived from a publisher's figure comes after every measured one: it never ranks as measured."""
    mfu = entry.derived.mfu
    derived = not facts.measured_throughput(entry)
    return (derived, -entry.recipe.fields.result.tokens_per_s_per_gpu, mfu is None, -(mfu or 0.0), entry.recipe.id)


def _cheapest_per_gpu(entries: Sequence[Entry]) -> list[Entry]:
    """Each GPU type's cheapest recipe at any basis, cheapest first at the default basis: the lowest
    $ / 1M of `entries` at any basis is one of them. Recipes whose throughput is derived from a
    publisher's figure take part only when none is measured: they are never the cheapest beside one."""
    by_gpu: dict[str, list[Entry]] = defaultdict(list)
    for entry in [entry for entry in entries if facts.measured_throughput(entry)] or entries:
        by_gpu[entry.gpu_key].append(entry)
    return sorted((min(group, key=fastest_first) for group in by_gpu.values()), key=table_order_key)


def _fastest_per_gpu(entries: Sequence[Entry], count: int) -> dict[str, list[Entry]]:
    """The `count` fastest current (not deprecated) recipes of each GPU type in `entries`."""
    by_gpu: dict[str, list[Entry]] = defaultdict(list)
    for entry in entries:
        if not facts.hidden_by_default(entry):
            by_gpu[entry.gpu_key].append(entry)
    return {gpu: sorted(group, key=fastest_first)[:count] for gpu, group in by_gpu.items()}


def _group_src(kind: str, name: str) -> str:
    folder = posixpath.dirname(MODELS_PAGE if kind == "model" else GPUS_PAGE)
    return f"{folder}/{slug(name)}.md"


def method_matrices(site: Pages, src: str) -> list[dict[str, Any]]:
    """The home page's matrices, one per training method of the current recipes, pre-training first
    (the one shown until the reader picks another): a LoRA run is never ranked beside pre-training."""
    current = [entry for entry in site.entries if not facts.hidden_by_default(entry)]
    counts: dict[str, int] = defaultdict(int)
    for entry in current:
        counts[facts.method_of(entry)] += 1
    return [
        {"method": method, "id": f"or-method-{slug(method)}", "count": counts[method]}
        | {"matrix": model_gpu_matrix(site, src, method)}
        for method in sorted(counts, key=describe.method_order)
    ]


def model_gpu_matrix(site: Pages, src: str, method: str | None = None) -> dict[str, Any]:
    """The home page's matrix: a row per model, a column per GPU type, each cell the cheapest
    current (not deprecated) recipe for the pair at any price basis, with how many there are and its
    readiness, and, when it does not run as documented, the cheapest of the pair that does (`runs`);
    of one training `method` (as facts.method_of writes it) when given."""
    current = [
        entry
        for entry in site.entries
        if not facts.hidden_by_default(entry) and (method is None or facts.method_of(entry) == method)
    ]
    cells: dict[tuple[str, str], list[Entry]] = defaultdict(list)
    names: dict[str, str] = {}  # as the model pages group them: by slug, named as first written
    for entry in current:
        model = names.setdefault(slug(entry.recipe.fields.model), entry.recipe.fields.model)
        cells[(model, entry.gpu_key)].append(entry)
    models = sorted(names.values(), key=_natural_key)
    gpus = sorted({gpu for _, gpu in cells}, key=_natural_key)
    url_of = site.recipe_url_from(src)
    # Models of the same architecture, counted among the recipes of this matrix's method.
    kin = architecture.kin_by_model(site.reference, current)
    rows = []
    for model in models:
        same = kin.get(slug(model), ())
        row = []
        for gpu in gpus:
            members = cells.get((model, gpu), [])
            if not members:
                # An empty cell points to the models of the same architecture that have recipes there.
                there = [_kin_link(site, src, other, method, gpu) for other in same if gpu in other.by_gpu]
                row.append({"gpu": gpu, "entry": None, "same": there} if there else None)
                continue
            best = min(members, key=fastest_first)
            # Where the cheapest does not run as documented, the cheapest that does, if one does.
            running = [entry for entry in members if entry.derived.readiness.runs]
            runs = min(running, key=fastest_first) if running and not best.derived.readiness.runs else None
            row.append(
                {
                    "gpu": gpu,
                    "entry": best,
                    "url": url_of(best),
                    "runs": None if runs is None else {"entry": runs, "url": url_of(runs)},
                    "count": len(members),
                    # The model's page filtered to the GPU type and the method (table.js reads `?gpu=`).
                    "group_url": f"{site.link(src, _group_src('model', model))}?gpu={quote(gpu, safe='')}"
                    + (f"&method={quote(method, safe='')}" if method else ""),
                }
            )
        rows.append(
            {
                "model": model,
                "url": site.link(src, _group_src("model", model)),
                "cells": row,
                "same": [_kin_link(site, src, other, method) for other in same],
            }
        )
    columns = [{"gpu": gpu, "url": site.link(src, _group_src("gpu", gpu))} for gpu in gpus]
    return {"columns": columns, "rows": rows}


def _kin_link(
    site: Pages, src: str, other: architecture.Kin, method: str | None, gpu: str | None = None
) -> dict[str, Any]:
    """A model of the same architecture, linked: its page, filtered to the matrix's `method` and to
    `gpu` when given, and its count of current recipes there."""
    filters = {"gpu": gpu, "method": method}
    query = "&".join(f"{name}={quote(value, safe='')}" for name, value in filters.items() if value)
    url = f"{site.link(src, _group_src('model', other.name))}{'?' + query if query else ''}"
    return {"name": other.name, "url": url, "count": other.current if gpu is None else other.by_gpu[gpu]}


def _natural_key(name: str) -> tuple:
    """Names in reading order: `Llama 3.1 8B` before `Llama 3.1 70B`, `H100` before `H200`."""
    return tuple(
        (0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", name.casefold()) if part
    )
