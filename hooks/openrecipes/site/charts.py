"""Chart files built at build time, under `charts/`, drawn by docs/assets/charts.js with Plotly.

What the charts show, and why:

- **Cost against throughput, per model.** $ per 1M tokens against tokens/s per GPU only compares
  recipes of one model (an 8B model's recipes are 50× cheaper than a 405B model's, which would push
  every other point into a corner). A model page has its model's chart; a page with several models
  (the home page) has one chart per model and a picker, the model with the most priced recipes
  first. A chart compares GPU types: a model needs recipes on two of them (a GPU page has none).
- **MFU**, which is comparable across models: one row per model (per GPU type on a model page),
  one dot per recipe, so a hundred recipes stay readable where bars with rotated labels did not.
  Charted against the GPU's BF16 dense peak whatever the precision (MFU vs BF16 peak), the one
  scale on which FP8 and FP4 runs compare with BF16 ones; the hover gives the MFU against the
  precision's own peak too.
- **One training method per series.** A model's LoRA, fine-tuning or method-not-stated recipes
  are a panel and a row of their own ("Llama 3 70B · LoRA"): a method is never on one frontier,
  or ranked, with another.
- **A chart needs three points** (`MIN_POINTS`): with fewer, the page's table says it all and the
  page gets no chart. Deprecated recipes are never charted (a later recipe replaces each).
- **One colour per GPU type on every page**, from Okabe and Ito's colour-blind-safe `PALETTE`: the
  part's `colour` in reference/gpus.yaml, or for a part without one a palette colour chosen from
  its key (`palette_colour`), so adding a GPU is a data-only change whose charts build; **one
  marker per precision** (`PRECISION_SYMBOLS`), and
  a legend of both, always. charts.js outlines markers in the theme's text colour, which keeps
  every fill (yellow on white, blue on slate) visible in both palettes.
- **Log axes** where the values on an axis span more than `LOG_SPAN` (10×); percentages stay linear.
- **The Pareto frontier** (the recipes no other recipe beats on both throughput and price) is
  drawn when it has two points or more: one point is not a line.
- **At most `MAX_POINTS` of a GPU type** in a cost panel or an MFU row, evenly spread over its
  throughput or its MFU with both ends kept, and a note says how many are drawn: ten thousand
  recipes of one model on one GPU would make a chart file of megabytes that draws one smear. A GPU
  type's recipes all lie on one curve of a cost chart, whose cheapest at any price is the fastest,
  so the frontier is the same at every basis.

A cost chart follows the reader's price basis: each point's `customdata` is `[page URL relative to
the site root, GPU key, tokens/s per GPU, $/GPU-hour at build or null, hover text without the
price]`, and charts.js re-prices every point from `OpenRecipes.priceBasis` ($/1M = $/GPU-hour ÷
(tokens/s × 3,600) × 10⁶, the formula of checking/derive.py), recomputes the frontier (`pareto_front`, the
same in both languages) and the axes, and leaves out points whose GPU has no price, saying so. The
figures written here are what it draws at the build's prices.

A chart file is `{"version", "kind", "label", "panels": [{"name", "figure", "notes"}], "selected"}`.
Figures carry no theme: the page's script applies the light or dark colours when it draws. Plotly
reads hover text and legend names as HTML, so every text from a recipe is escaped here.
"""

from __future__ import annotations

import collections
import functools
import hashlib
import html
import json
import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .. import describe, fmt
from ..checking.pricebasis import usd_per_million_tokens
from ..loader import Entry
from ..reading.reference import GpuSpec
from .pieces import Pieces

UrlOf = Callable[[Entry], str]
CHARTS_DIR = "charts"
FILE_VERSION = 2
MIN_POINTS = 3
"""Fewer points than this make no chart: the table beside it shows them better."""
LOG_SPAN = 10.0
MAX_POINTS = 200
"""The most points of one GPU type a cost panel or an MFU row draws (see the module's docstring)."""
"""An axis whose largest value is more than this many times its smallest is logarithmic."""

# Okabe & Ito's palette ("Color Universal Design", 2008) without its black, which vanishes on the
# dark palette: told apart with every common colour-vision deficiency.
BLUE, SKY_BLUE, BLUISH_GREEN = "#0072B2", "#56B4E9", "#009E73"
VERMILLION, REDDISH_PURPLE, ORANGE, YELLOW = "#D55E00", "#CC79A7", "#E69F00", "#F0E442"

PALETTE = (BLUE, SKY_BLUE, BLUISH_GREEN, VERMILLION, REDDISH_PURPLE, ORANGE, YELLOW)
"""The colours a GPU type may have. reference/gpus.yaml gives the parts charted most their own
(`colour`); a part without one gets `palette_colour(key)`."""
UNKNOWN_GPU_COLOUR = "#999999"
"""A GPU type the reference data does not know (its recipe has a problem, and is reported)."""

# A filled shape per precision in schema/recipe.schema.yaml (a test checks every one has a shape).
PRECISION_SYMBOLS: dict[str, str] = {
    "bf16": "circle",
    "fp16": "square",
    "fp8": "diamond",
    "mxfp8": "triangle-up",
    "nvfp4": "star",
    "mxfp4": "pentagon",
}
UNKNOWN_PRECISION_SYMBOL = "x"

# customdata[4] is the hover text without the price (escaped); `text` the price line, if any.
HOVER = "%{customdata[4]}<extra></extra>"
HOVER_WITH_PRICE = "%{customdata[4]}%{text}<extra></extra>"
MARKER_SIZE = 11
MFU_ROW_PX = 46  # a row of the MFU chart: its label above, its dots below
AXIS_FONT = 12


def charts_for(entries: Sequence[Entry], url_of: UrlOf, pieces: Pieces | None = None) -> dict[str, Callable[[], str]]:
    """The charts a page of `entries` has, by kind, each a function that writes its chart file.
    `pieces` keeps each recipe's point (every recipe is on the home page's charts and its model's
    and GPU type's) between the builds of `mkdocs serve` (pieces.py)."""
    kept = pieces if pieces is not None else Pieces()
    made = (kept.get("point", entry, url_of(entry), functools.partial(_point, entry, url_of)) for entry in entries)
    points = [point for point in made if point is not None]
    available: dict[str, Callable[[], str]] = {}
    if _cost_groups(points):
        available["cost"] = functools.partial(cost_chart, points)
    if len([p for p in points if p.mfu is not None]) >= MIN_POINTS:
        available["mfu"] = functools.partial(mfu_chart, points)
    return available


@dataclass(frozen=True)
class Point:
    """One charted recipe."""

    entry: Entry
    url: str
    model: str
    """The model's name, with the training method after it unless it is pre-training: what a cost
    panel and an MFU row group by."""
    gpu: str
    precision: str | None
    tokens: float
    usd_per_gpu_hour: float | None
    mfu: float | None
    head: str
    """Hover text without the price, escaped for Plotly."""
    colour: str = UNKNOWN_GPU_COLOUR
    """Its GPU type's colour (`gpu_colour`)."""
    derived: bool = False
    """Its throughput is derived from a publisher's figure: drawn, marked, never on the frontier."""


def _point(entry: Entry, url_of: UrlOf) -> Point | None:
    f = entry.recipe.fields
    tokens = f.result.tokens_per_s_per_gpu
    if f.status == "deprecated" or not tokens or tokens <= 0:
        return None
    gpu = entry.gpu_key
    precision = f.workload.precision if f.workload else None
    # Charted against the BF16 peak, the one scale for every precision; the hover names both.
    mfu = entry.derived.mfu_bf16
    own = entry.derived.mfu
    peak = describe.peak_name(entry.derived.peak_column) if entry.derived.peak_column else ""
    # A model's recipes of another training method are their own series (panel, row): never ranked
    # against pre-training, nor on one frontier with it.
    method = describe.method_name(entry.derived.method)
    series = (
        f.model
        if method == "pre-training"
        else f"{f.model} · {'method ' if entry.derived.method is None else ''}{method}"
    )
    # Short lines: a tooltip wider than a phone is cut off.
    derived = entry.derived.tokens_from is not None
    lines = [
        describe.title(entry.recipe),
        f"{fmt.as_written(tokens)} tokens/s per GPU{' (derived)' if derived else ''} · "
        + (f"MFU {fmt.percent(own)} {peak}" if own is not None else "no MFU"),
        f"{precision or 'precision not published'} · {method} · {f.status}",
    ]
    head = "<br>".join(escape(line) for line in lines)
    basis = entry.derived.basis  # every $ / 1M is at the price basis, as the table ranks them
    usd = basis.usd_per_gpu_hour if basis else None
    colour = gpu_colour(entry.derived.gpu)
    return Point(entry, url_of(entry), series, gpu, precision, tokens, usd, mfu, head, colour, derived)


def escape(text: str) -> str:
    """Text for Plotly, which reads hover text, names and annotations as HTML (and decodes entities)."""
    return html.escape(text, quote=True)


def price_text(usd_per_gpu_hour: float, tokens_per_s: float) -> str:
    """The hover line charts.js writes again when the price changes (`priceText` there)."""
    usd = usd_per_million_tokens(usd_per_gpu_hour, tokens_per_s)
    return escape(f"{fmt.usd(usd)} per 1M tokens at {fmt.usd(usd_per_gpu_hour)}/GPU-hour")


def gpu_colour(spec: GpuSpec | None) -> str:
    """A GPU type's colour on every chart: its reference colour, else one of PALETTE chosen from its key."""
    if spec is None:
        return UNKNOWN_GPU_COLOUR
    return spec.colour or palette_colour(spec.key)


def palette_colour(key: str) -> str:
    """A colour of PALETTE from the key alone (a digest, not Python's salted `hash`): the same on
    every build and machine, and unchanged when other parts are added."""
    digest = hashlib.sha256(key.encode("utf-8")).digest()
    return PALETTE[int.from_bytes(digest[:4], "big") % len(PALETTE)]


def precision_symbol(precision: str | None) -> str:
    return PRECISION_SYMBOLS.get(precision or "", UNKNOWN_PRECISION_SYMBOL)


def axis_type(values: Sequence[float]) -> str:
    """ "log" when the positive `values` span more than LOG_SPAN, else "linear" (`axisType` in charts.js)."""
    positive = [v for v in values if v > 0]
    if len(positive) < 2:
        return "linear"
    return "log" if max(positive) / min(positive) > LOG_SPAN else "linear"


def pareto_front(points: Sequence[tuple[float, float]]) -> list[int]:
    """Indexes of the points no other point beats on both axes (more tokens/s, lower price), by
    throughput. charts.js's `paretoFront` is the same algorithm, tested to agree."""
    order = sorted(range(len(points)), key=lambda i: (-points[i][0], points[i][1]))
    front, cheapest = [], float("inf")
    for index in order:
        if points[index][1] < cheapest:
            front.append(index)
            cheapest = points[index][1]
    return sorted(front, key=lambda i: points[i][0])


# -- the legend -----------------------------------------------------------------------------------


def _precision_order(precision: str | None) -> tuple[int, str]:
    order = list(PRECISION_SYMBOLS)
    return (order.index(precision) if precision in order else len(order), precision or "")


def _key_traces(points: Sequence[Point], shown: Sequence[Point]) -> list[dict[str, Any]]:
    """Legend entries, as traces with no data: a colour per GPU type and a shape per precision of
    `points`, listed when one of the `shown` points has it (charts.js lists them again when a price
    draws more points).

    The points' own traces stay out of the legend: a trace's legend icon takes its first point's
    shape, which would say nothing true about the others."""
    traces = []
    shown_gpus, shown_precisions = {p.gpu for p in shown}, {p.precision for p in shown}
    colours = {p.gpu: p.colour for p in points}
    for gpu in sorted(colours):
        traces.append(
            {
                "type": "scatter",
                "mode": "markers",
                "x": [None],
                "y": [None],
                "name": escape(gpu),
                "legendgroup": "gpu",
                "legendgrouptitle": {"text": "GPU"},
                "legendrank": 1,
                "showlegend": gpu in shown_gpus,
                "marker": {"symbol": "square", "size": MARKER_SIZE, "color": colours[gpu]},
                "hoverinfo": "skip",
                "meta": {"role": "key-gpu", "gpu": gpu},
            }
        )
    for precision in sorted({p.precision for p in points}, key=_precision_order):
        traces.append(
            {
                "type": "scatter",
                "mode": "markers",
                "x": [None],
                "y": [None],
                "name": escape(precision or "not published"),
                "legendgroup": "precision",
                "legendgrouptitle": {"text": "Precision"},
                "legendrank": 2,
                "showlegend": precision in shown_precisions,
                "marker": {"symbol": precision_symbol(precision), "size": MARKER_SIZE},
                "hoverinfo": "skip",
                "meta": {"role": "key-precision", "precision": precision},
            }
        )
    return traces


LEGEND = {
    # Below the plot, across: the plot keeps the full width on a phone.
    "orientation": "h",
    # At the foot of the whole figure, which Plotly makes room for under the axis title, whatever
    # the figure's height (a position relative to the plot would leave a gap that grows with it).
    "x": 0,
    "xanchor": "left",
    "y": 0,
    "yref": "container",
    "yanchor": "bottom",
    "traceorder": "grouped",
    "tracegroupgap": 16,
    # A key, not a control: a tap on it must not hide points on a phone.
    "itemclick": False,
    "itemdoubleclick": False,
}


# -- cost against throughput ----------------------------------------------------------------------


def _cost_groups(points: Sequence[Point]) -> dict[str, list[Point]]:
    """The points of each model that makes a chart, by model name: enough points, on two GPU types
    or more. Priced per GPU type, one type's recipes all lie on the curve price ÷ throughput, which
    says no more than the table's throughput column (so a GPU page has no cost chart)."""
    by_model: dict[str, list[Point]] = {}
    for point in points:
        by_model.setdefault(point.model, []).append(point)
    return {
        model: group
        for model, group in sorted(by_model.items())
        if len(group) >= MIN_POINTS and len({p.gpu for p in group}) >= 2
    }


def cost_chart(points: Sequence[Point]) -> str:
    """One panel per model: $/1M tokens against tokens/s per GPU."""
    groups = _cost_groups(points)
    panels = []
    for model, group in groups.items():
        drawn = _thin(group, by=lambda p: p.gpu, along=lambda p: p.tokens)
        panel = cost_panel(model, drawn)
        if len(drawn) < len(group):
            panel["notes"].append(_thinned(len(drawn), len(group), "throughput, the fastest among them"))
        panels.append(panel)
    priced = [sum(p.usd_per_gpu_hour is not None for p in group) for group in groups.values()]
    sizes = [len(group) for group in groups.values()]
    pretraining = [all(p.entry.derived.method == "pre-training" for p in group) for group in groups.values()]
    # Shown first: pre-training, as the home page's matrix, then the model with the most priced
    # recipes (the picker lists models by name).
    selected = max(range(len(panels)), key=lambda i: (pretraining[i], priced[i], sizes[i], -i))
    return chart_file("cost", "$ per million tokens against tokens per second per GPU", panels, selected)


def _gpu_traces(
    points: Sequence[Point],
    *,
    x: Callable[[Point], Any],
    y: Callable[[Point], Any],
    hovertemplate: str,
    size: float,
    text: Callable[[Point], str] | None = None,
) -> list[dict[str, Any]]:
    """One trace of points per GPU type, in its colour, a marker per precision; the legend is drawn
    apart (_key_traces), and charts.js finds the points by their `meta`."""
    traces: list[dict[str, Any]] = []
    for gpu in sorted({p.gpu for p in points}):
        group = [p for p in points if p.gpu == gpu]
        trace: dict[str, Any] = {
            "type": "scatter",
            "mode": "markers",
            "name": escape(gpu),
            "x": [x(p) for p in group],
            "y": [y(p) for p in group],
            # A sixth value, "derived", marks a point charts.js leaves off the frontier.
            "customdata": [
                [p.url, p.gpu, p.tokens, p.usd_per_gpu_hour, p.head, *(("derived",) if p.derived else ())]
                for p in group
            ],
        }
        if text is not None:
            trace["text"] = [text(p) for p in group]
        trace |= {
            "hovertemplate": hovertemplate,
            "marker": {
                "size": size,
                "color": group[0].colour,
                "symbol": [precision_symbol(p.precision) for p in group],
            },
            "showlegend": False,
            "meta": {"role": "points", "gpu": gpu},
        }
        traces.append(trace)
    return traces


def cost_panel(model: str, points: Sequence[Point]) -> dict[str, Any]:
    """The figure of one model's recipes at the build's prices (what charts.js draws without a price basis)."""
    priced = [p for p in points if p.usd_per_gpu_hour is not None]
    # Unpriced points stay in their trace (y null, not drawn): a price for their GPU draws them.
    data = _gpu_traces(
        points,
        x=lambda p: p.tokens,
        y=lambda p: usd_per_million_tokens(p.usd_per_gpu_hour, p.tokens) if p.usd_per_gpu_hour is not None else None,
        # The price line apart, so that charts.js rewrites only it.
        text=lambda p: f"<br>{price_text(p.usd_per_gpu_hour, p.tokens)}" if p.usd_per_gpu_hour is not None else "",
        hovertemplate=HOVER_WITH_PRICE,
        size=MARKER_SIZE,
    )
    drawn_points = [p for p in priced if p.usd_per_gpu_hour]
    xy = [(p.tokens, usd_per_million_tokens(p.usd_per_gpu_hour, p.tokens)) for p in drawn_points]
    # A throughput derived from a publisher's figure never ranks as measured: not on the frontier.
    ranked = [point for point, p in zip(xy, drawn_points, strict=True) if not p.derived]
    front = [ranked[i] for i in pareto_front(ranked)]
    drawn = len(front) >= 2
    data.append(
        {
            "type": "scatter",
            "mode": "lines",
            "name": "Pareto frontier",
            "x": [x for x, _ in front] if drawn else [],
            "y": [y for _, y in front] if drawn else [],
            "line": {"dash": "dot", "shape": "hv", "width": 1.5},
            "hoverinfo": "skip",
            "showlegend": drawn,
            "legendgroup": "frontier",
            "legendrank": 3,  # after the key, though drawn under the points
            "meta": {"role": "pareto"},
        }
    )
    data += _key_traces(points, priced)
    x_type, y_type = axis_type([x for x, _ in xy]), axis_type([y for _, y in xy])
    layout = {
        "xaxis": _axis("tokens/s per GPU", x_type),
        "yaxis": _axis("$ per 1M tokens", y_type) | {"tickprefix": "$"},
        "legend": LEGEND,
        "margin": {"l": 64, "r": 16, "t": 16, "b": 56},
        "height": 460,
        "hovermode": "closest",
        "showlegend": True,
    }
    # The name is shown by the picker as text, never by Plotly: not escaped.
    return {"name": model, "figure": {"data": data, "layout": layout}, "notes": []}


def _axis(title: str, kind: str) -> dict[str, Any]:
    axis: dict[str, Any] = {"title": {"text": title}, "type": kind, "automargin": True}
    if kind == "linear":
        axis["rangemode"] = "tozero"
    return axis


# -- MFU ------------------------------------------------------------------------------------------


def mfu_chart(points: Sequence[Point]) -> str:
    """MFU of every recipe: a row per model, or per GPU type when the page has one model."""
    every = [p for p in points if p.mfu is not None]
    by_model = len({p.model for p in every}) > 1
    row_of: Callable[[Point], str] = (lambda p: p.model) if by_model else (lambda p: p.gpu)
    measured = _thin(every, by=lambda p: (row_of(p), p.gpu), along=lambda p: p.mfu)
    rows = sorted({row_of(p) for p in measured})
    notes = []
    missing = Counter(p.gpu for p in points if p.mfu is None)
    if missing:
        parts = [f"{fmt.plural(count, 'recipe')} on {gpu}" for gpu, count in sorted(missing.items())]
        notes.append(f"Not charted, for want of a published peak or model size: {', '.join(parts)}.")
    if len(measured) < len(every):
        notes.append(_thinned(len(measured), len(every), "MFU in each row"))
    figure = mfu_figure(measured, rows, row_of, "Model" if by_model else "GPU")
    label = "MFU of each recipe, a row per model" if by_model else "MFU of each recipe, a row per GPU type"
    return chart_file("mfu", label, [{"name": None, "figure": figure, "notes": notes}], 0)


def mfu_figure(
    points: Sequence[Point], rows: Sequence[str], row_of: Callable[[Point], str], what: str
) -> dict[str, Any]:
    # Rows from the top, row i centred at y = len(rows) - 1 - i; its label above its dots.
    level = {row: len(rows) - 1 - i for i, row in enumerate(rows)}
    top = max(p.mfu for p in points) * 100
    x_max = max(10.0, math.ceil(top / 10) * 10)
    offsets = _spread(points, row_of, x_max)
    data = _gpu_traces(
        points,
        x=lambda p: round(p.mfu * 100, 2),
        y=lambda p: level[row_of(p)] - 0.15 + offsets[id(p)],
        hovertemplate=HOVER,
        size=MARKER_SIZE - 1,
    )
    data += _key_traces(points, points)
    annotations = [
        {
            "text": escape(row),
            "x": 0,
            "xref": "paper",
            "xanchor": "left",
            "y": level[row] + 0.5,
            "yref": "y",
            "yanchor": "top",
            "showarrow": False,
            "font": {"size": AXIS_FONT},
        }
        for row in rows
    ]
    layout = {
        "xaxis": {
            "title": {"text": "MFU vs BF16 peak (one scale for every precision)"},
            "range": [0, x_max],
            "ticksuffix": "%",
            "automargin": True,
            "fixedrange": True,
        },
        "yaxis": {
            # The grid lines fall between rows; the rows' names are the annotations.
            "range": [-0.5, len(rows) - 0.5],
            "tickvals": [i + 0.5 for i in range(len(rows) - 1)],
            "showticklabels": False,
            "zeroline": False,
            "fixedrange": True,
            "title": {"text": ""},
        },
        "annotations": annotations,
        "legend": LEGEND,
        "margin": {"l": 16, "r": 16, "t": 8, "b": 56},
        "height": len(rows) * MFU_ROW_PX + 150,
        "hovermode": "closest",
        "showlegend": True,
        "meta": {"rows": what},
    }
    return {"data": data, "layout": layout}


def _spread(points: Sequence[Point], row_of: Callable[[Point], str], x_max: float) -> dict[int, float]:
    """Vertical offsets within a row, so that recipes of nearly the same MFU do not hide each other:
    each point, by MFU, takes the offset nearest the row's line that no close neighbour holds."""
    near = x_max / 80  # about a marker's width on a desktop chart
    lanes = (0.0, -0.13, 0.1, -0.26)  # the label takes the top of the row
    offsets: dict[int, float] = {}
    rows: dict[str, list[Point]] = {}
    for point in points:
        rows.setdefault(row_of(point), []).append(point)
    for members in rows.values():
        close: collections.deque[tuple[float, float]] = collections.deque()  # the placed within `near`
        for placed, point in enumerate(sorted(members, key=lambda p: (p.mfu, p.entry.recipe.id))):
            x = point.mfu * 100
            while close and not abs(close[0][0] - x) < near:  # by MFU: the rest are nearer
                close.popleft()
            taken = {lane for _, lane in close}
            lane = next((lane for lane in lanes if lane not in taken), lanes[placed % len(lanes)])
            close.append((x, lane))
            offsets[id(point)] = lane
    return offsets


# -- many points ----------------------------------------------------------------------------------


def _thin(points: Sequence[Point], *, by: Callable[[Point], Any], along: Callable[[Point], Any]) -> list[Point]:
    """`points`, or when a group of them (`by`: a GPU type, in a panel or a row) holds more than
    MAX_POINTS, that many of the group evenly spread in the order of `along`, both ends kept."""
    groups: dict[Any, list[Point]] = {}
    for point in points:
        groups.setdefault(by(point), []).append(point)
    kept: set[int] = set()
    for group in groups.values():
        if len(group) > MAX_POINTS:
            group = sorted(group, key=lambda p: (along(p), p.entry.recipe.id))
            last = len(group) - 1
            group = [group[round(i * last / (MAX_POINTS - 1))] for i in range(MAX_POINTS)]
        kept.update(id(point) for point in group)
    return [point for point in points if id(point) in kept]


def _thinned(drawn: int, total: int, spread: str) -> str:
    return (
        f"Drawn: {fmt.number(drawn)} of these {fmt.number(total)} recipes, at most {MAX_POINTS} of a GPU type,"
        f" evenly spread over their {spread}. The table lists every one."
    )


# -- the file -------------------------------------------------------------------------------------


def chart_file(kind: str, label: str, panels: Sequence[dict[str, Any]], selected: int) -> str:
    data = {"version": FILE_VERSION, "kind": kind, "label": label, "panels": list(panels), "selected": selected}
    return json.dumps(data, separators=(",", ":"), sort_keys=True, allow_nan=False)
