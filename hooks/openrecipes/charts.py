"""Plotly figures built at build time, embedded in pages as JSON and drawn by docs/assets/charts.js.

Figures carry no theme: the page's script applies the light or dark colours when it draws, so
the charts follow Material's palette toggle. Each figure is a file of its own under `charts/`,
which a page names in `data-chart`: the script draws only figures the build wrote, from the site
itself, whatever an element in the page says. A point's `customdata` is its page URL relative to
the site root; the script turns a click into navigation.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Sequence

import plotly.graph_objects as go
from plotly.utils import PlotlyJSONEncoder

from . import describe, facts, fmt
from .loader import Entry

UrlOf = Callable[[Entry], str]
CHARTS_DIR = "charts"


def charts_for(entries: Sequence[Entry], url_of: UrlOf) -> dict[str, Callable[[], str]]:
    """The charts a page of `entries` has, by kind, each a function that builds its figure JSON."""
    available: dict[str, Callable[[], str]] = {}
    if any(e.derived.usd_per_million_tokens is not None for e in entries):
        available["cost"] = functools.partial(cost_throughput, entries, url_of)
    if any(e.derived.mfu is not None for e in entries):
        available["mfu"] = functools.partial(mfu_by_model, entries, url_of)
    return available


def figure_json(figure: go.Figure) -> str:
    data = figure.to_plotly_json()
    data["layout"].pop("template", None)
    return json.dumps(data, cls=PlotlyJSONEncoder, separators=(",", ":"), sort_keys=True)


def _gpu_name(entry: Entry) -> str:
    return entry.derived.gpu.key if entry.derived.gpu else entry.recipe.fields.gpu.type


def _hover(entry: Entry) -> str:
    f = entry.recipe.fields
    # Plotly renders hover text as HTML: `describe.title` only holds schema-restricted characters,
    # and the figures are ours.
    return (
        f"{describe.title(entry.recipe)}<br>{fmt.number(f.result.tokens_per_s_per_gpu, 1)} tokens/s per GPU"
        f" · {facts.BY_KEY['usd'].text(entry)} / 1M tokens · MFU {facts.BY_KEY['mfu'].text(entry)}"
    )


def pareto_front(points: Sequence[tuple[float, float]]) -> list[int]:
    """Indexes of the points no other point beats on both axes (more tokens/s, lower price)."""
    order = sorted(range(len(points)), key=lambda i: (-points[i][0], points[i][1]))
    front, cheapest = [], float("inf")
    for index in order:
        if points[index][1] < cheapest:
            front.append(index)
            cheapest = points[index][1]
    return sorted(front, key=lambda i: points[i][0])


def cost_throughput(entries: Sequence[Entry], url_of: UrlOf) -> str:
    """$/1M tokens against tokens/s per GPU, one point per priced recipe, with the Pareto frontier."""
    priced = [e for e in entries if e.derived.usd_per_million_tokens is not None]
    figure = go.Figure()
    for gpu in sorted({_gpu_name(e) for e in priced}):
        group = [e for e in priced if _gpu_name(e) == gpu]
        figure.add_trace(
            go.Scatter(
                name=gpu,
                mode="markers",
                x=[e.recipe.fields.result.tokens_per_s_per_gpu for e in group],
                y=[e.derived.usd_per_million_tokens for e in group],
                customdata=[url_of(e) for e in group],
                hovertext=[_hover(e) for e in group],
                hovertemplate="%{hovertext}<extra></extra>",
                marker={"size": 11},
            )
        )
    points = [(e.recipe.fields.result.tokens_per_s_per_gpu, e.derived.usd_per_million_tokens) for e in priced]
    front = pareto_front(points)
    figure.add_trace(
        go.Scatter(
            name="Pareto frontier",
            mode="lines",
            x=[points[i][0] for i in front],
            y=[points[i][1] for i in front],
            line={"dash": "dot", "shape": "hv"},
            hoverinfo="skip",
        )
    )
    figure.update_layout(
        xaxis={"title": {"text": "tokens/s per GPU"}, "rangemode": "tozero"},
        yaxis={"title": {"text": "$ per 1M tokens"}, "rangemode": "tozero", "tickprefix": "$"},
        legend={"title": {"text": "GPU"}},
        margin={"l": 60, "r": 20, "t": 20, "b": 50},
        hovermode="closest",
    )
    return figure_json(figure)


def mfu_by_model(entries: Sequence[Entry], url_of: UrlOf) -> str:
    """One bar per recipe, grouped by model: MFU as a percent."""
    figure = go.Figure()
    measured = [e for e in entries if e.derived.mfu is not None]
    for model in sorted({e.recipe.fields.model for e in measured}):
        group = sorted((e for e in measured if e.recipe.fields.model == model), key=lambda e: -e.derived.mfu)
        labels = [f"{e.recipe.fields.gpu.count}×{_gpu_name(e)} {e.derived.label}" for e in group]
        # Bars with the same category would be drawn as one: tell repeated layouts apart by file name.
        labels = [
            f"{label} · {e.recipe.id.rsplit('/', 1)[1]}" if labels.count(label) > 1 else label
            for label, e in zip(labels, group, strict=True)
        ]
        figure.add_trace(
            go.Bar(
                name=model,
                x=[[model] * len(group), labels],
                y=[round(e.derived.mfu * 100, 2) for e in group],
                customdata=[url_of(e) for e in group],
                hovertext=[_hover(e) for e in group],
                hovertemplate="%{hovertext}<extra></extra>",
            )
        )
    figure.update_layout(
        yaxis={"title": {"text": "MFU (%)"}, "rangemode": "tozero", "ticksuffix": "%"},
        xaxis={"type": "multicategory"},
        showlegend=False,
        margin={"l": 60, "r": 20, "t": 20, "b": 90},
        bargap=0.3,
    )
    return figure_json(figure)
