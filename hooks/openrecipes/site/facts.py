"""Every fact the site shows about a recipe, declared once.

A `Fact` says what a reader sees: its label, where its value comes from, how the value is
written, what is shown when the recipe does not publish it, and everywhere it appears: the
headline figures of the recipe page (and `openrecipes show`), a row of a section of the recipe
page, a column of the catalogue tables, a filter of those tables, a column of `api/recipes.csv`,
a column of `openrecipes list`, a row of the compare page's headline figures, a column of a
recipe page's table of other recipes for its model. The templates, the exports, the terminal, the
table script's filters and the compare page's figures (both through the generated
`assets/facets.js`) are all made from `FACTS`, so a fact is declared here and nowhere else.
HACKING.md says how to add one.

A value a recipe does not publish is absent and shown as "not published", never as a default;
an explicit `null` in a recipe is a statement ("no recompute", "even split") and is shown as the
fact's `null` text, on the page, in the CSV and in the filters alike.

Nothing is ever written as a Python `repr`: a value that is not a string, a number or a date is
written by the fact's `show`, and a fact that reads an object, a list or a yes/no without one is
refused (`check_schema`, when the site is planned; `Fact.text` and the others at the latest).
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import re
import typing
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .. import describe, flops, fmt
from ..checking import pricebasis, readiness
from ..loader import PAGE_ONLY, Entry, slug
from ..reading import records
from ..reading.reference import ModelSpec
from ..reading.refs import resolve

NOT_PUBLISHED = "not published"
NO_PRICE = "no public price"

Cell = Literal["text", "link", "badge", "price", "cost", "code"]
"""How a value is drawn: plain text, a link to the recipe's page, a status badge, a $ / 1M tokens
that the page scripts recompute at the reader's price basis (price.js), a run cost that they
recompute there when the recipe names no instance of its own, or code (hashes, revisions)."""

Section = Literal["figures", "fleet", "layout", "moe", "stack", "workload", "dataset", "build", "correctness"]
"""The parts of a recipe page that list facts, in the order the page shows them (see
recipe.md.j2): the headline figures (figures.md.j2), then tables (facts_table.md.j2)."""

SECTION_TITLES: Mapping[Section, str] = {
    "figures": "Headline figures",
    "fleet": "Fleet",
    "layout": "Layout",
    "moe": "Mixture of experts",
    "stack": "Software stack",
    "workload": "Workload",
    "dataset": "Dataset",
    "build": "Dataset build",
    "correctness": "Correctness",
}
"""Each section's title in `openrecipes show` (the page's headings are in recipe.md.j2)."""

OPTIONAL_SECTIONS: tuple[Section, ...] = ("moe", "build")
"""Sections shown only when the recipe publishes something of them (a dense model has no MoE)."""


class _Absent:
    """A fact the recipe does not publish (a property left out of the file)."""

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT = _Absent()

Reader = Callable[[Entry], Any]


def at(dotted: str) -> Reader:
    """Reads `recipe.fields.<dotted>`: ABSENT when the file left it (or a parent) out, None for `null`.

    The reader knows its path (`check_schema` finds it in the schema, with its type) and where the
    value is in a recipe's JSON record (`fields.<dotted>`, for the compare page)."""
    names = dotted.split(".")

    def read(entry: Entry) -> Any:
        record = entry.recipe.fields
        for name in names:
            if record is None or not records.given(record, name):
                return ABSENT
            record = getattr(record, name)
        return record

    read.__name__ = f"at_{dotted.replace('.', '_')}"
    read.path = tuple(names)  # type: ignore[attr-defined]
    read.record = f"fields.{dotted}"  # type: ignore[attr-defined]
    return read


_PLAIN = (str, int, float, dt.date)


def _is_plain(value: Any) -> bool:
    """A string, a number or a date: what is written as it is. Never a yes/no (`True` is no word)."""
    return isinstance(value, _PLAIN) and not isinstance(value, bool)


@dataclass(frozen=True)
class Format:
    """A number written the same way by Python (`fmt`) and by the page scripts (core.js:
    `OpenRecipes.number`, `.usd`, `.percent`, `.asWritten`, held to the same digits by
    tests/vectors). A fact the compare page shows takes one as its `show`, and the script writes
    its values with the same function (`figure_config`)."""

    name: Literal["number", "usd", "percent", "as_written"]
    places: int | None = None
    """Decimals: `number` 0, `percent` 1 and `usd` its price rule (fmt.price_places) when None."""
    suffix: str = ""
    """Written after the number ("%" for a figure already in percent)."""

    def __call__(self, value: float | int) -> str:
        if self.name == "number":
            text = fmt.number(value, self.places or 0)
        elif self.name == "usd":
            text = fmt.usd(value, self.places)
        elif self.name == "percent":
            text = fmt.percent(value, 1 if self.places is None else self.places)
        else:
            text = fmt.as_written(value)
        return text + self.suffix

    def config(self) -> dict[str, Any]:
        return {"name": self.name, "places": self.places, "suffix": self.suffix}


@dataclass(frozen=True)
class Change:
    """How a difference from a baseline is written: on the compare page (docs/assets/compare.js)
    and in a recipe page's table of other recipes for its model (`short`)."""

    kind: Literal["relative", "usd", "points"]
    """`relative`: +12.3%; `usd`: +$0.34 (+28.6%) on the compare page, +28.6% in the table;
    `points`: the difference × `scale` in percentage points, to `places` decimals (+1.2 pp)."""
    better: Literal[-1, 0, 1] = 0
    """1: higher is better, -1: lower is better (the compare page colours the difference), 0: neither."""
    scale: float = 1.0
    places: int = 1

    def short(self, value: float, base: float) -> str:
        """The difference of `value` from `base`, as the table of other recipes writes it."""
        if self.kind == "points":
            return describe.point_change(value, base, scale=self.scale, places=self.places)
        return describe.relative_change(value, base)

    def config(self) -> dict[str, Any]:
        return {"kind": self.kind, "better": self.better, "scale": self.scale, "places": self.places}


Attributes = tuple[tuple[str, Any], ...]
"""HTML attributes a page script finds an element by: (name, value), value None for a bare name."""


@dataclass(frozen=True)
class Span:
    """Text a page script rewrites (a run cost at the reader's price basis), with its attributes."""

    text: str
    attributes: Attributes = ()


@dataclass(frozen=True)
class Note:
    """A line under a headline figure on the recipe page; after it, in brackets, in `openrecipes show`."""

    parts: tuple[str | Span, ...]
    attributes: Attributes = ()

    @property
    def text(self) -> str:
        return "".join(part if isinstance(part, str) else part.text for part in self.parts)


@dataclass(frozen=True)
class PricedHours:
    """The GPU-hours a cost prices: a run's, or a time to train's (its minutes × its GPUs)."""

    record: str
    """Where they are in a recipe's JSON record (the compare page reads them there)."""
    source: str
    """What they come from, said when a recipe has none: "not published (no GPU-hours)"."""
    read: Callable[[Entry], float | None]


@dataclass(frozen=True)
class Fact:
    key: str
    """Stable name: the CSV column, the table's `data-key` and filter name, the address's `sort=`."""
    label: str
    read: Reader
    """The value (ABSENT when not published; None for an explicit `null`)."""
    show: Callable[[Any], str] | None = None
    """The value as people read it (never given ABSENT or None). None: a string, number or date
    written as it is; anything else must be given a `show` (never a repr)."""
    missing: str | Callable[[Entry], str] = NOT_PUBLISHED
    """What stands in for a value the recipe does not publish (or a function of the recipe)."""
    null: str | None = None
    """What an explicit `null` means here ("none"), on the page, in the CSV and in the filters;
    None: the fact cannot be null."""
    numeric: bool = False
    """Sorts as a number (`sort_value`), aligned right."""
    sort: Callable[[Any], Any] | None = None
    """The value sorted by, when it is not the value itself (a GPU count for "8 × H200")."""
    section: Section | None = None
    """The recipe page's part that lists it: "figures" for the headline figures, else a table."""
    omit_missing: bool = False
    """In its section, leave the row out rather than say "not published" (a pin that does not
    apply: ROCm on NVIDIA GPUs)."""
    notes: Callable[[Entry], Sequence[Note]] | None = None
    """Headline figures: the lines under the figure (where its price comes from, how many runs)."""
    column: Cell | None = None
    """A column of the catalogue tables, drawn as this kind of cell."""
    column_after: str | None = None
    """The column it stands right of (a fact's key); None: in the order the facts are declared."""
    width: float | None = None
    """A column's share of the catalogue table's width budget (`TABLE_BUDGET_EM`): the narrowest it
    can be, in em of the table's text and padding included, with its label and its widest value
    whole (a figure never breaks; words wrap). Every column declares one; the browser tests
    measure each column against it (tests/browser/conftest.py, assert_within_width_budget)."""
    facet: str | None = None
    """A filter of the catalogue tables: the label of its "any" choice ("All GPUs")."""
    facet_value: Callable[[Any], str] | None = None
    """The value filtered by, when it is not the text shown (the framework's name)."""
    facet_unit: str | None = None
    """Written after each choice of the filter: "8 GPUs"."""
    facet_hidden: tuple[str, ...] = ()
    """Values the filter leaves out until the reader asks for them ("deprecated" recipes): the
    "any" choice means any other value, and another choice shows them too."""
    detail: str | None = None
    """Another fact's key whose value its catalogue-table cell also shows, when published
    (correctness beside the status: one column for the evidence)."""
    csv: str | None = None
    """Its column in api/recipes.csv, holding the raw value (an object: its `show` text)."""
    terminal: str | None = None
    """Its column header in `openrecipes list`."""
    compare: Change | None = None
    """A row of the compare page's headline figures, with how a difference is written. Its `show`
    is a `Format` (the script writes the value the same way) and its value is in the recipe's JSON
    record at `record`."""
    alternative: bool = False
    """A column of a recipe page's table of other recipes for its model; with `compare`, the
    difference from the recipe is written beside each value."""
    record: str | None = None
    """Where the value is in a recipe's JSON record (api/recipes/<id>.json): `at` and the derived
    figures say so themselves."""
    cell: Cell = "text"
    """How the value is drawn in its section (a price, a hash) and in the table of other recipes."""
    priced_hours: PricedHours | None = None
    """For a cost (`cell="cost"`): the GPU-hours it prices, which the page scripts price again at
    the reader's basis (the recipe page, the catalogue tables, the compare page)."""
    qualifier: Callable[[Entry], str | None] | None = None
    """What the value is measured against, written after it wherever it is written as text and
    after the label of a headline figure ("vs FP8 peak"); two values with different qualifiers are
    never compared. Its record path (`qualifier_record`) gives the compare page the same words."""
    qualifier_record: str | None = None
    omit_when: Callable[[Entry], bool] | None = None
    """In its section, leave the row out when this is true of the recipe (a figure that would repeat
    another: MFU vs BF16 peak of a BF16 run)."""
    ranked: Callable[[Entry], bool] | None = None
    """Whether the recipe's value ranks among the others: a figure made from a throughput derived
    from a publisher's figure does not, and sorts after every ranked one in either direction (its
    sort value is left empty, as a missing one's)."""

    def __post_init__(self) -> None:
        if self.record is None and getattr(self.read, "record", None):
            object.__setattr__(self, "record", self.read.record)  # type: ignore[attr-defined]
        if self.compare is not None:
            if not isinstance(self.show, Format):
                raise ValueError(f"fact {self.key!r} is compared: its show= must be a Format the page script knows")
            if self.record is None and self.cell not in ("price", "cost"):
                raise ValueError(f"fact {self.key!r} is compared: say where its value is in the record (record=)")

    @property
    def path(self) -> tuple[str, ...] | None:
        """The recipe field it reads (`at`), None for a value made from several."""
        return getattr(self.read, "path", None)

    def value(self, entry: Entry) -> Any:
        """The raw value, None when there is none to show (not published, or null)."""
        value = self.read(entry)
        return None if value is ABSENT else value

    def published(self, entry: Entry) -> bool:
        return self.read(entry) is not ABSENT

    def missing_text(self, entry: Entry) -> str:
        return self.missing(entry) if callable(self.missing) else self.missing

    def _shown(self, value: Any) -> str:
        if self.show is not None:
            return self.show(value)
        if not _is_plain(value):
            raise TypeError(
                f"fact {self.key!r}: a {type(value).__name__} is not written as it is; declare show= to write it"
            )
        return value.isoformat() if isinstance(value, dt.date) else str(value)

    def text(self, entry: Entry) -> str:
        """The value as people read it (with its qualifier), or what stands in for it."""
        value = self.read(entry)
        if value is ABSENT:
            return self.missing_text(entry)
        if value is None:
            return self.null if self.null is not None else self.missing_text(entry)
        qualifier = self.qualifier_of(entry)
        return self._shown(value) + (f" {qualifier}" if qualifier else "")

    def bare_text(self, entry: Entry) -> str:
        """The value as `text` writes it, without its qualifier (a headline figure's, whose label has it)."""
        value = self.value(entry)
        return self.text(entry) if value is None else self._shown(value)

    def qualifier_of(self, entry: Entry) -> str | None:
        return self.qualifier(entry) if self.qualifier and self.value(entry) is not None else None

    def label_for(self, entry: Entry) -> str:
        """The label of a headline figure: with the qualifier of the recipe's value ("MFU vs FP8 peak")."""
        qualifier = self.qualifier_of(entry)
        return f"{self.label} {qualifier}" if qualifier else self.label

    def comparable(self, entry: Entry, other: Entry) -> bool:
        """Whether two recipes' values are on one scale (the same qualifier): only then is a difference written."""
        return self.qualifier_of(entry) == self.qualifier_of(other)

    def sort_value(self, entry: Entry) -> Any:
        """What the table sorts by: a number for numeric facts; None last in either direction (a value
        not published, and one that does not rank: `ranked`)."""
        value = self.value(entry)
        if value is None or (self.ranked is not None and not self.ranked(entry)):
            return None
        if self.sort:
            return self.sort(value)
        return value if _is_plain(value) else self._shown(value)

    def facet_text(self, entry: Entry) -> str:
        """The value a filter chooses by: "" when not published, the `null` text for a `null`."""
        value = self.read(entry)
        if value is ABSENT:
            return ""
        if value is None:
            return self.null or ""
        if self.facet_value:
            return self.facet_value(value)
        return str(value) if _is_plain(value) and not isinstance(value, dt.date) else self._shown(value)

    def csv_value(self, entry: Entry) -> Any:
        """The value in api/recipes.csv: raw (dates in ISO, yes/no as true/false), "" when not
        published, the `null` text for a `null`, an object as its `show` text."""
        value = self.read(entry)
        if value is ABSENT:
            return ""
        if value is None:
            return self.null or ""
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, dt.date):
            return value.isoformat()
        return value if _is_plain(value) else self._shown(value)

    def attributes(self, entry: Entry) -> Attributes:
        """What a page script finds its cell by (a price it recomputes at the reader's basis)."""
        if self.cell == "price":
            return (("data-usd-per-mtok", None), ("data-gpu", _gpu_key(entry)), ("data-tokens-per-s", _tokens(entry)))
        if self.cell == "cost":
            hours = self.priced_hours.read(entry) if self.priced_hours else None
            return () if hours is None else _cost_attributes(entry, hours)
        return ()

    def basis_hours(self, entry: Entry) -> float | None:
        """The GPU-hours of a cost the page prices at the reader's basis; None for one at the
        recipe's own instance (what it cost there) or without hours."""
        if self.cell != "cost" or self.priced_hours is None or entry.derived.instance is not None:
            return None
        return self.priced_hours.read(entry)

    def change_attributes(self, entry: Entry, base: Entry) -> Attributes:
        """What price.js finds a price's difference from `base`'s by, to write it at the reader's basis."""
        if self.cell != "price":
            return ()
        return (
            ("data-usd-delta", None),
            ("data-gpu", _gpu_key(entry)),
            ("data-tokens-per-s", _tokens(entry)),
            ("data-base-gpu", _gpu_key(base)),
            ("data-base-tokens-per-s", _tokens(base)),
        )

    def notes_of(self, entry: Entry) -> tuple[Note, ...]:
        return tuple(self.notes(entry)) if self.notes else ()


def _gpu_key(entry: Entry) -> str:
    return entry.derived.gpu.key if entry.derived.gpu else entry.recipe.fields.gpu.type


def _tokens(entry: Entry) -> float:
    return entry.recipe.fields.result.tokens_per_s_per_gpu


def _cost_attributes(entry: Entry, hours: float) -> Attributes:
    """A cost: price.js prices `hours` again at the reader's basis unless the recipe names its instance."""
    own = entry.derived.instance is not None
    return (("data-run-cost", None), ("data-gpu-hours", hours), *(() if own else (("data-gpu", _gpu_key(entry)),)))


def _derived_or_absent(name: str) -> Reader:
    """A figure recomputed by the checks (the site's own convention), ABSENT when it cannot be."""

    def read(entry: Entry) -> Any:
        value = getattr(entry.derived, name)
        return ABSENT if value is None else value

    read.record = f"derived.{name}"  # type: ignore[attr-defined]
    return read


def _data_parallel(entry: Entry) -> Any:
    if entry.derived.dp is None:
        return ABSENT
    return (entry.derived.dp, entry.derived.dp_derived)


def _derived_degree(value: tuple[int, bool]) -> str:
    degree, derived = value
    return f"{degree} (derived: GPUs ÷ (TP × PP × CP))" if derived else str(degree)


def _basis(read: Callable[[Any], Any]) -> Reader:
    """`read` of the price basis of the recipe's GPU type, ABSENT when no price is sourced for it."""
    return lambda entry: ABSENT if entry.derived.basis is None else read(entry.derived.basis)


def _provider(entry: Entry) -> Any:
    """Where the GPUs were: the provider of the instance the recipe rented, else the system it names."""
    gpu = entry.recipe.fields.gpu
    if entry.derived.instance is not None:
        return entry.derived.instance.provider
    return gpu.system if gpu.system else ABSENT


DENSE = "does not apply (dense model)"
"""What an expert-parallel degree a dense model's recipe leaves out is: not unpublished, but no degree
at all, as a dense model has no experts."""


def is_dense(model: ModelSpec | None) -> bool | None:
    """Whether every parameter is active for every token (no experts), by the reference data's
    counts; None for a model the reference data does not hold."""
    return None if model is None else model.active_params == model.total_params


def _experts_missing(entry: Entry) -> str:
    """An expert-parallel degree left out: it does not apply to a dense model, and is not published
    for any other (the compare page says the same: compare.js, `derived.dense_model`)."""
    return DENSE if is_dense(entry.derived.model) else NOT_PUBLISHED


def _count_times_gpu(entry: Entry) -> tuple[int, str]:
    return (entry.recipe.fields.gpu.count, entry.recipe.fields.gpu.type)


def _yes_no(value: bool) -> str:
    return "yes" if value else "no"


def _with_tokens_per_step(entry: Entry) -> Any:
    workload = entry.recipe.fields.workload
    if workload.global_batch is None:
        return ABSENT
    if workload.row_tokens is None:
        return (workload.global_batch, None)
    return (workload.global_batch, workload.global_batch * workload.row_tokens)


def _global_batch(value: tuple[int, int | None]) -> str:
    rows, tokens = value
    text = f"{fmt.number(rows)} rows"
    return text if tokens is None else f"{text} ({fmt.number(tokens)} tokens per step)"


def _convergence(entry: Entry) -> Any:
    convergence = at("correctness.convergence")(entry)
    if convergence is ABSENT or convergence is None:
        return convergence
    return f"{convergence.result} over {convergence.steps} steps"


# The headline figures' notes: what the page says under each figure.


DERIVED = "(derived)"
"""Written after a throughput derived from a publisher's figure, and after its label."""


def _derived_mark(entry: Entry, qualifier: str | None) -> str | None:
    """A figure's qualifier, with "(derived)" after it when it is made from a derived throughput."""
    if entry.derived.tokens_from is None:
        return qualifier
    return f"{qualifier} {DERIVED}" if qualifier else DERIVED


def measured_throughput(entry: Entry) -> bool:
    """Whether the recipe's tokens/s per GPU is measured or published as such, not derived from a
    publisher's TFLOP/s, MFU or HFU: only those rank (the best, the cheapest, a table's order)."""
    return entry.derived.tokens_from is None


def _throughput_notes(entry: Entry) -> tuple[Note, ...]:
    notes = []
    source = entry.derived.tokens_from
    if source is not None:
        notes.append(Note((f"derived from the publisher's {source.label}, not measured: {source.how}",)))
    note = entry.recipe.fields.result.throughput_note
    return (*notes, Note((note,))) if note else tuple(notes)


def _price_notes(entry: Entry) -> tuple[Note, ...]:
    derived, gpu = entry.derived, _gpu_key(entry)
    if derived.basis is None:
        source = f"no sourced price for {gpu}"
    else:
        per_hour = fmt.usd(derived.basis.usd_per_gpu_hour)
        source = f"price basis: {derived.basis.instance.key}, {per_hour} per GPU-hour, the cheapest sourced {gpu}"
    notes = [Note((source,), (("data-price-source", None), ("data-gpu", gpu)))]
    if derived.instance is not None and derived.instance_usd_per_million_tokens is not None:
        own = fmt.usd(derived.instance_usd_per_million_tokens)
        notes.append(Note((f"at its own instance, {derived.instance.key}: {own}",), (("data-own-instance", None),)))
    return tuple(notes)


def _mfu_missing(entry: Entry) -> str:
    return "no sourced peak" if entry.derived.params else NOT_PUBLISHED


def _mfu_notes(entry: Entry) -> tuple[Note, ...]:
    derived = entry.derived
    if not derived.params:
        return ()
    if derived.params_from_recipe:
        source = " (the recipe's)"
    elif derived.model is not None and derived.model.architecture is None:
        source = " (headline count: whether it holds the input embedding is not published)"
    else:
        source = " without the input embedding"
        if derived.stated_params and derived.stated_params != derived.params:
            source += f" (the recipe states {fmt.number(derived.stated_params)}: its own MFU is checked with that)"
    formula = flops.flops_formula(derived.method)
    why = "LoRA: frozen weights have no weight gradient" if derived.method in flops.ADAPTER_TRAINING else ""
    why = why or ("method not stated: every weight counted as trained" if derived.method is None else "")
    return (
        Note((f"{formula} FLOPs per token{f' ({why})' if why else ''}",)),
        Note((f"N = {fmt.number(derived.params)} active parameters per token{source}",)),
    )


def method_of(entry: Entry) -> str:
    """The recipe's training method as lists write it (`describe.method_name`): what every ranking
    is made within (pre-training, LoRA, ... and "not stated")."""
    return describe.method_name(entry.derived.method)


def _mfu_peak(entry: Entry) -> str | None:
    column = entry.derived.peak_column
    return describe.peak_name(column) if column else None


def _mfu_bf16_missing(entry: Entry) -> str:
    return "no sourced BF16 peak" if entry.derived.params else NOT_PUBLISHED


def _step_time_notes(entry: Entry) -> tuple[Note, ...]:
    return (Note(("over the window",)),) if entry.recipe.fields.result.step_time_cv_percent is not None else ()


def _gpu_hours_notes(entry: Entry) -> tuple[Note, ...]:
    if entry.recipe.fields.result.gpu_hours is None:
        return ()
    cost = BY_KEY["run_cost"]
    return (Note(("run cost ", Span(cost.text(entry), cost.attributes(entry)))),)


def _benchmark(value: Any) -> str:
    """`MLPerf Training v5.0, llama2_70b_lora, closed division, available (Available on-premise)`."""
    parts = [f"{value.suite} v{value.round}", value.name, f"{value.division} division"]
    if value.availability:
        parts.append(f"{value.availability} ({value.status})" if value.status else value.availability)
    return ", ".join(parts)


def _run_gpu_hours(entry: Entry) -> float | None:
    return entry.recipe.fields.result.gpu_hours


def train_gpu_hours(entry: Entry) -> float | None:
    """The GPU-hours of a result's time to train: its minutes × its GPUs (MLPerf's score, say)."""
    fields = entry.recipe.fields
    trained = fields.result.time_to_train if fields.result else None
    if trained is None or not fields.gpu.count:
        return None
    return trained.minutes / 60 * fields.gpu.count


def train_cost(entry: Entry) -> float | None:
    """What the time to train costs at the price, None without a time to train or a price."""
    value = _train_cost(entry)
    return None if value is ABSENT else value


def _train_cost(entry: Entry) -> Any:
    """What the time to train costs at the price (the basis, or the recipe's own instance); None
    for a GPU type without a public price, ABSENT without a time to train."""
    hours = train_gpu_hours(entry)
    if hours is None:
        return ABSENT
    price = entry.derived.price
    return hours * price.usd_per_gpu_hour if price is not None else None


def _train_cost_notes(entry: Entry) -> tuple[Note, ...]:
    hours = train_gpu_hours(entry)
    if hours is None:
        return ()
    fields = entry.recipe.fields
    minutes = fields.result.time_to_train.minutes
    where = "its instance" if entry.derived.instance is not None else "the price basis"
    return (
        Note(
            (
                f"{fmt.number(fields.gpu.count)} GPUs × {fmt.as_written(minutes)} minutes = "
                f"{fmt.number(hours, 1)} GPU-hours, at {where}",
            )
        ),
    )


def _run_cost_missing(entry: Entry) -> str:
    return "unpriced" if entry.recipe.fields.result.gpu_hours is not None else f"{NOT_PUBLISHED} (no GPU-hours)"


def _runs_notes(entry: Entry) -> tuple[Note, ...]:
    result = entry.recipe.fields.result
    if not result.runs:
        return ()
    return (Note((f"{result.runs} run{'s' if result.runs != 1 else ''}{', profiler on' if result.profiler else ''}",)),)


def _window(entry: Entry) -> Any:
    window = at("result.window")(entry)
    if window is ABSENT or window is None:
        return window
    return (window, entry.recipe.fields.result.steps_per_run)


def _steps(value: tuple[tuple[int, int], int | None]) -> str:
    (first, last), per_run = value
    return f"steps {first}–{last}" + (f" of {per_run}" if per_run else "")


def _window_notes(entry: Entry) -> tuple[Note, ...]:
    tokens = entry.recipe.fields.result.window_tokens
    return (Note((f"{fmt.number(tokens)} tokens",)),) if tokens else ()


FACTS: tuple[Fact, ...] = (
    # What the catalogue tables show and filter by.
    Fact("model", "Model", at("model"), column="link", width=6, facet="All models", csv="model"),
    Fact(
        "method",
        "Method",
        method_of,
        sort=describe.method_order,
        column="text",
        width=6,
        column_after="model",
        facet="Any method",
        csv="method",
        terminal="method",
    ),
    Fact(
        "gpus",
        "GPUs",
        _count_times_gpu,
        show=lambda value: f"{value[0]} × {value[1]}",
        numeric=True,
        sort=lambda value: value[0],
        column="text",
        width=6,
        terminal="GPUs",
        alternative=True,
    ),
    Fact("gpu", "GPU", lambda entry: entry.gpu_key, facet="All GPUs", csv="gpu_type"),
    Fact("provider", "Provider / system", _provider, column="text", width=6, facet="Any provider", csv="provider"),
    Fact("count", "GPU count", at("gpu.count"), numeric=True, facet="Any count", facet_unit="GPUs", csv="gpu_count"),
    Fact(
        "layout", "Layout", lambda entry: entry.derived.label, column="link", width=5.5, csv="layout", terminal="layout"
    ),
    Fact(
        "tokens",
        "Tokens/s per GPU",
        at("result.tokens_per_s_per_gpu"),
        show=Format("as_written"),  # as stated: a publisher's 4912 is "4,912", never "4,912.0"
        numeric=True,
        section="figures",
        notes=_throughput_notes,
        column="text",
        width=6.5,
        csv="tokens_per_s_per_gpu",
        terminal="tokens/s/GPU",
        compare=Change("relative", better=1),
        alternative=True,
        # Derived from a publisher's figure: "(derived)" wherever it is written, never compared with
        # or ranked among measured throughputs (Methodology).
        qualifier=lambda entry: DERIVED if entry.derived.tokens_from is not None else None,
        qualifier_record="derived.tokens_per_s_per_gpu_qualifier",
        ranked=measured_throughput,
    ),
    # The figure a derived throughput comes from, in the CSV beside it.
    Fact(
        "tokens_from",
        "Tokens/s derived from",
        lambda entry: ABSENT if entry.derived.tokens_from is None else entry.derived.tokens_from.label,
        csv="tokens_per_s_per_gpu_derived_from",
        record="derived.tokens_per_s_per_gpu_from.figure",
    ),
    Fact(
        "usd",
        "$ / 1M tokens",
        _derived_or_absent("usd_per_million_tokens"),
        show=Format("usd"),
        missing=NO_PRICE,
        numeric=True,
        section="figures",
        notes=_price_notes,
        column="price",
        width=7,
        csv="usd_per_million_tokens",
        terminal="$/1M",
        compare=Change("usd", better=-1),
        alternative=True,
        cell="price",
    ),
    Fact(
        "mfu",
        "MFU",
        _derived_or_absent("mfu"),
        show=Format("percent"),
        missing=_mfu_missing,
        numeric=True,
        section="figures",
        notes=_mfu_notes,
        column="text",
        width=5,
        csv="mfu",
        terminal="MFU",
        compare=Change("points", better=1, scale=100, places=1),
        alternative=True,
        qualifier=lambda entry: _derived_mark(entry, _mfu_peak(entry)),
        qualifier_record="derived.mfu_against",
        ranked=measured_throughput,  # from a derived throughput: shown, never ranked
    ),
    # The dense peak the MFU above is against, in the CSV beside it (the tables write it in the cell).
    Fact("mfu_peak", "MFU peak", _derived_or_absent("peak_column"), csv="mfu_peak"),
    Fact(
        "mfu_bf16",
        "MFU vs BF16 peak",
        _derived_or_absent("mfu_bf16"),
        show=Format("percent"),
        missing=_mfu_bf16_missing,
        numeric=True,
        section="figures",
        column="text",
        width=5,
        column_after="mfu",
        csv="mfu_vs_bf16_peak",
        # Left out where it would repeat the MFU above: against the BF16 peak already, or none at all.
        omit_when=lambda entry: (
            entry.derived.peak_column == "bf16" or (entry.derived.mfu is None and entry.derived.mfu_bf16 is None)
        ),
        ranked=measured_throughput,
        qualifier=lambda entry: _derived_mark(entry, None),  # from a derived throughput, derived too
        qualifier_record="derived.tokens_per_s_per_gpu_qualifier",
        terminal="MFU/BF16",
        compare=Change("points", better=1, scale=100, places=1),
        alternative=True,
    ),
    Fact(
        "step_time_cv",
        "Step-time CV",
        at("result.step_time_cv_percent"),
        show=Format("as_written", suffix="%"),
        section="figures",
        notes=_step_time_notes,
        compare=Change("points", better=-1, places=2),
    ),
    Fact(
        "gpu_hours",
        "GPU-hours",
        at("result.gpu_hours"),
        show=Format("as_written"),
        section="figures",
        notes=_gpu_hours_notes,
        compare=Change("relative"),
    ),
    Fact(
        "run_cost",
        "Run cost",
        _derived_or_absent("run_cost_usd"),
        show=Format("usd"),
        missing=_run_cost_missing,
        compare=Change("usd"),
        cell="cost",
        priced_hours=PricedHours("fields.result.gpu_hours", "GPU-hours", _run_gpu_hours),
    ),
    # A result trained to a quality target (MLPerf): how long it took, and what that costs.
    Fact(
        "time_to_train_min",
        "Time to train (min)",
        at("result.time_to_train.minutes"),
        show=Format("number", 2),
        numeric=True,
        # No column since the Readiness column (issue 28): the fifteenth did not fit the width
        # budget, and the cost to train beside it is this time priced, which the tables rank by.
        csv="time_to_train_minutes",
        terminal="train min",
        compare=Change("relative", better=-1),
    ),
    Fact(
        "train_cost",
        "Cost to train",
        _train_cost,
        show=Format("usd"),
        null=NO_PRICE,
        numeric=True,
        section="figures",
        omit_missing=True,
        notes=_train_cost_notes,
        csv="cost_to_train_usd",
        column="cost",
        width=7.5,
        cell="cost",
        compare=Change("usd"),
        record="derived.train_cost_usd",
        priced_hours=PricedHours("derived.train_gpu_hours", "time to train", train_gpu_hours),
    ),
    Fact(
        "status",
        "Status",
        at("status"),
        column="badge",
        width=8,
        detail="correctness",
        facet="Any status",
        facet_hidden=("deprecated",),
        csv="status",
        terminal="status",
        alternative=True,
    ),
    Fact("correctness", "Correctness", at("correctness.result"), facet="Any correctness", csv="correctness"),
    Fact(
        "readiness",  # whether a reader can run it as it stands (checking/readiness.py)
        "Readiness",
        lambda entry: entry.derived.readiness.key,
        show=readiness.LABELS.__getitem__,
        column="badge",
        width=7,
        column_after="status",
        facet="Any readiness",
        facet_value=readiness.LABELS.__getitem__,
        csv="readiness",
        terminal="readiness",
        alternative=True,
    ),
    Fact(
        "measured",
        "Measured",
        at("result.measured"),
        show=lambda value: value.isoformat(),
        section="figures",
        notes=_runs_notes,
        csv="measured",
    ),
    Fact(
        "first_published",  # when an imported row first appeared in the publisher's history (git)
        "First published",
        at("source.first_published.date"),
        show=lambda value: value.isoformat(),
        csv="first_published",
    ),
    Fact(
        "first_published_commit",
        "First published in commit",
        at("source.first_published.commit"),
        csv="first_published_commit",
    ),
    Fact("window", "Window", _window, show=_steps, section="figures", notes=_window_notes),
    Fact(
        "framework",
        "Framework",
        at("stack.framework"),
        facet="All frameworks",
        facet_value=lambda value: value.replace(":", " ").split()[0],
        csv="framework",
    ),
    # Which price each $ / 1M is at: the basis of the GPU type, and the recipe's own instance.
    Fact(
        "price_basis",
        "Price basis",
        _basis(lambda basis: pricebasis.DEFAULT.key),
        csv="price_basis",
    ),
    Fact("basis_instance", "Basis instance", _basis(lambda basis: basis.instance.key), csv="basis_instance"),
    Fact(
        "basis_usd_per_gpu_hour",
        "Basis $ per GPU-hour",
        _basis(lambda basis: basis.usd_per_gpu_hour),
        show=Format("usd"),
        csv="basis_usd_per_gpu_hour",
    ),
    Fact("instance", "Instance", at("gpu.instance"), null="none (no public price)", csv="instance"),
    Fact(
        "instance_usd",
        "$ / 1M tokens at its own instance",
        _derived_or_absent("instance_usd_per_million_tokens"),
        show=Format("usd"),
        csv="instance_usd_per_million_tokens",
    ),
    # The recipe page's tables.
    Fact("fleet", "GPUs", lambda entry: describe.fleet(entry.recipe), section="fleet"),
    Fact("system", "System", at("gpu.system"), section="fleet", omit_missing=True),
    Fact("host", "Host", at("gpu.host"), section="fleet", omit_missing=True),
    Fact("interconnect", "Interconnect", at("stack.network"), section="fleet"),
    Fact("tp", "Tensor parallel (TP)", at("layout.tp"), section="layout"),
    Fact("pp", "Pipeline parallel (PP)", at("layout.pp"), section="layout"),
    Fact("vpp", "Virtual pipeline stages (VPP)", at("layout.vpp"), section="layout"),
    Fact("cp", "Context parallel (CP)", at("layout.cp"), section="layout"),
    Fact("ep", "Expert parallel (EP)", at("layout.ep"), missing=_experts_missing, section="layout"),
    Fact(
        "etp",
        "Expert tensor parallel (ETP)",
        at("layout.etp"),
        missing=_experts_missing,
        section="layout",
    ),
    Fact("dp", "Data parallel (DP)", _data_parallel, show=_derived_degree, section="layout"),
    Fact(
        "sharding",
        "Sharding",
        at("layout.sharding"),
        show=lambda value: value.kind + (f", groups of {value.group_size} GPUs" if value.group_size else ""),
        section="layout",
    ),
    Fact("pipeline_schedule", "Pipeline schedule", at("layout.pipeline_schedule"), section="layout"),
    Fact("gradient_accumulation", "Gradient accumulation (GA)", at("layout.gradient_accumulation"), section="layout"),
    Fact("mtp_layers", "Multi-token-prediction layers", at("layout.mtp_layers"), section="layout", omit_missing=True),
    Fact("sequence_parallel", "Sequence parallel", at("layout.sequence_parallel"), show=_yes_no, section="layout"),
    Fact(
        "layer_split",
        "Layers per pipeline stage",
        at("layout.layer_split"),
        show=lambda value: " / ".join(map(str, value)),
        null="even split",
        section="layout",
    ),
    Fact("recompute", "Recompute", at("layout.recompute"), show=describe.recompute, null="none", section="layout"),
    Fact("offload", "Offload", at("layout.offload"), show=describe.offload, null="none", section="layout"),
    Fact(
        "max_tokens_per_gpu",
        "Max tokens per GPU",
        at("layout.max_tokens_per_gpu"),
        show=fmt.number,
        null="no dynamic batching",
        section="layout",
    ),
    Fact("rows_per_microbatch", "Rows per microbatch (MBS)", at("layout.rows_per_microbatch"), section="layout"),
    Fact(
        "dispatcher",
        "MoE token dispatcher",
        at("layout.dispatcher"),
        null="none (dense model)",
        section="layout",
        omit_missing=True,
    ),
    *(
        Fact(f"stack_{name}", label, at(f"stack.{name}"), section="stack", omit_missing=True)
        for name, label in (
            ("framework", "Framework"),
            ("megatron_lm", "Megatron-LM"),
            ("transformer_engine", "Transformer Engine"),
            ("pytorch", "PyTorch"),
            ("cuda", "CUDA"),
            ("rocm", "ROCm"),
            ("nccl", "NCCL"),
            ("rccl", "RCCL"),
            ("deepep", "DeepEP"),
            ("flash_attention", "FlashAttention"),
            ("driver", "GPU driver"),
            ("python", "Python"),
            ("container_image", "Container image"),
        )
    ),
    Fact("routing", "Routing", at("moe.routing"), section="moe"),
    Fact("token_dropping", "Token dropping", at("moe.token_dropping"), section="moe"),
    Fact(
        "capacity_factor",
        "Capacity factor",
        at("moe.capacity_factor"),
        show=fmt.as_written,
        section="moe",
        omit_missing=True,
    ),
    Fact(
        "training",
        "Training",
        at("workload.method"),
        show=describe.method,
        missing=describe.METHOD_NOT_STATED,
        section="workload",
    ),
    Fact("rows", "Rows", at("workload.rows"), section="workload"),
    Fact(
        "row_tokens",
        "Sequence",
        at("workload.row_tokens"),
        show=fmt.number,
        numeric=True,
        section="workload",
        column="text",
        width=7,
        column_after="precision",
        csv="sequence_length",
    ),
    Fact("global_batch", "Global batch", _with_tokens_per_step, show=_global_batch, section="workload"),
    Fact(
        "precision",
        "Precision",
        at("workload.precision"),
        section="workload",
        column="text",
        width=6.5,
        column_after="layout",
        facet="Any precision",
        csv="precision",
    ),
    Fact("fp8_scaling", "FP8 scaling", at("workload.fp8_scaling"), section="workload", omit_missing=True),
    Fact(
        "memory_gib",
        "Peak memory per GPU",
        at("result.memory_gib"),
        show=lambda value: f"{fmt.as_written(value)} GiB",
        section="workload",
        omit_missing=True,
    ),
    Fact(
        "benchmark",
        "Benchmark",
        at("benchmark"),
        show=_benchmark,
        section="workload",
        omit_missing=True,
        csv="benchmark",
    ),
    Fact(
        "time_to_train",
        "Time to train",
        at("result.time_to_train"),
        show=describe.time_to_train,
        section="workload",
        omit_missing=True,
    ),
    Fact("dataset", "Dataset", at("workload.dataset.name"), section="dataset"),
    Fact("dataset_source", "Source", at("workload.dataset.source"), section="dataset"),
    Fact("dataset_revision", "Revision", at("workload.dataset.revision"), section="dataset", cell="code"),
    Fact("dataset_license", "License", at("workload.dataset.license"), section="dataset"),
    Fact("rows_sha256", "Rows SHA-256", at("workload.dataset.rows_sha256"), section="dataset", cell="code"),
    Fact("build_name", "Name", at("workload.dataset.build.name"), section="build"),
    Fact("tokenizer", "Tokenizer", at("workload.dataset.build.tokenizer"), section="build"),
    Fact("loss_mask", "Loss mask", at("workload.dataset.build.loss_mask"), section="build"),
    Fact("build_rows", "Rows", at("workload.dataset.build.rows"), show=fmt.number, section="build"),
    Fact(
        "build_row_tokens", "Tokens per row", at("workload.dataset.build.row_tokens"), show=fmt.number, section="build"
    ),
    Fact(
        "padding_tokens",
        "Padding tokens",
        at("workload.dataset.build.padding_tokens"),
        show=fmt.number,
        section="build",
    ),
    Fact("seed", "Seed", at("workload.dataset.build.seed"), section="build"),
    Fact("packing", "Packing", at("workload.dataset.build.packing"), section="build"),
    Fact(
        "supervised_tokens",
        "Supervised tokens",
        at("workload.dataset.build.supervised_token_ratio"),
        show=fmt.percent,
        section="build",
    ),
    Fact(
        "parquet_sha256", "Parquet SHA-256", at("workload.dataset.build.parquet_sha256"), section="build", cell="code"
    ),
    Fact(
        "parquet_bytes",
        "Parquet size",
        at("workload.dataset.build.parquet_bytes"),
        show=lambda value: f"{fmt.number(value)} bytes",
        section="build",
    ),
    Fact("builder", "Builder", at("workload.dataset.build.builder"), section="build"),
    # The loss a publisher reports for its own run (a model verification card's): only such a run has one.
    Fact(
        "initial_loss",
        "Initial loss",
        at("correctness.loss.initial"),
        show=fmt.as_written,
        section="correctness",
        omit_missing=True,
        csv="initial_loss",
    ),
    Fact(
        "final_loss",
        "Final loss",
        at("correctness.loss.final"),
        show=fmt.as_written,
        section="correctness",
        omit_missing=True,
        csv="final_loss",
    ),
    Fact("convergence", "Convergence check", _convergence, section="correctness"),
    Fact(
        "correlation",
        "Loss correlation",
        at("correctness.convergence.correlation"),
        show=fmt.as_written,
        null="not measured",
        section="correctness",
    ),
    Fact(
        "final_loss_difference",
        "Final loss difference",
        at("correctness.convergence.final_loss_difference"),
        show=fmt.as_written,
        null="not measured",
        section="correctness",
    ),
    Fact(
        "pointwise_failures",
        "Pointwise failures",
        at("correctness.convergence.pointwise_failures"),
        null="not measured",
        section="correctness",
    ),
    Fact(
        "configuration_check",
        "Configuration check",
        at("correctness.configuration"),
        section="correctness",
        omit_missing=True,
    ),
)


# What each place shows, in its order: made from FACTS by `_install` (and by `extended`).
BY_KEY: dict[str, Fact] = {}
COLUMNS: tuple[Fact, ...] = ()
"""The catalogue tables' columns, left to right, in the order the facts are declared, except
where a fact says which column it stands right of (`column_after`)."""
FACETS: tuple[Fact, ...] = ()
CSV: tuple[Fact, ...] = ()
TERMINAL: tuple[Fact, ...] = ()
COMPARED: tuple[Fact, ...] = ()
"""The compare page's headline figures (assets/facets.js, `figure_config`)."""
ALTERNATIVES: tuple[Fact, ...] = ()
"""The columns of a recipe page's table of other recipes for its model, after the recipe's link."""


def section(name: Section) -> tuple[Fact, ...]:
    return tuple(fact for fact in FACTS if fact.section == name)


def rows(name: Section, entry: Entry) -> Iterator[tuple[Fact, str]]:
    """The rows of a recipe page's section: (fact, text), leaving out what the fact says to omit."""
    for fact in section(name):
        if fact.omit_missing and fact.read(entry) is ABSENT:
            continue
        if fact.omit_when is not None and fact.omit_when(entry):
            continue
        yield fact, fact.text(entry)


def publishes(name: Section, entry: Entry) -> bool:
    """Whether the recipe publishes anything of a page section."""
    return any(fact.published(entry) for fact in section(name))


SECTIONS: tuple[Section, ...] = typing.get_args(Section)


DEFAULT_ORDER = (("usd", "asc"), ("mfu", "desc"))
"""The catalogue tables' order before a reader sorts them, as loader.table_order_key: $ / 1M at the
price basis, then MFU, then id; missing values last. table.js applies it at the reader's basis."""


def hidden_by_default(entry: Entry) -> bool:
    """Whether the catalogue tables leave the recipe out until the reader asks (a deprecated one)."""
    return any(fact.facet_text(entry) in fact.facet_hidden for fact in FACETS if fact.facet_hidden)


GROUPED_BY = ("model", "gpu")
"""The facts with a page per value (`models/<slug>/`, `gpus/<slug>/`: pages.group_outputs). Each row
of the tables' data carries its group slugs (export.catalogue_rows), which table.js compares with
the page's own to keep that page's rows."""


def group_slug(key: str, entry: Entry) -> str:
    """The slug of the group page of fact `key` (one of GROUPED_BY) that lists the recipe."""
    return slug(BY_KEY[key].facet_text(entry))


def facet_config(facets: Sequence[Fact] | None = None) -> list[dict[str, Any]]:
    """The table script's filters (docs/assets/table.js), in the order they are shown."""
    return [
        {
            "name": fact.key,
            "label": fact.label,
            "any": fact.facet,
            "numeric": fact.numeric,
            "unit": fact.facet_unit,
            "hidden": list(fact.facet_hidden),
        }
        for fact in (FACETS if facets is None else facets)
    ]


def figure_config() -> list[dict[str, Any]]:
    """The compare page's headline figures (docs/assets/compare.js), in the order they are shown:
    where each value is in a recipe's record, how it is written and how a difference is. `kind`
    "price" and "cost" are recomputed by the page at the reader's price basis."""
    return [
        {
            "key": fact.key,
            "label": fact.label,
            "path": fact.record,
            "kind": fact.cell if fact.cell in ("price", "cost") else "value",
            "format": fact.show.config(),  # a Format: Fact.__post_init__
            "change": fact.compare.config(),
            # What the value is against, written after it; no difference between different ones.
            "qualifier": fact.qualifier_record,
            "hours": fact.priced_hours.record if fact.priced_hours else None,
            "no_hours": f"{NOT_PUBLISHED} (no {fact.priced_hours.source})" if fact.priced_hours else None,
        }
        for fact in COMPARED
        if fact.compare is not None and isinstance(fact.show, Format)
    ]


_KEY = re.compile(r"[a-z][a-z0-9_]*")


def _column_order(facts: Sequence[Fact]) -> tuple[Fact, ...]:
    """The columns in declaration order, each with `column_after` moved right of that column
    (after any placed there before it)."""
    order = [fact for fact in facts if fact.column and not fact.column_after]
    pending = [fact for fact in facts if fact.column and fact.column_after]
    while pending:
        placed = False
        for fact in list(pending):
            keys = [other.key for other in order]
            if fact.column_after not in keys:
                continue
            position = keys.index(fact.column_after) + 1
            while position < len(order) and order[position].column_after == fact.column_after:
                position += 1
            order.insert(position, fact)
            pending.remove(fact)
            placed = True
        if not placed:
            names = ", ".join(f"{fact.key!r} after {fact.column_after!r}" for fact in pending)
            raise ValueError(f"column_after names no column: {names}")
    return tuple(order)


TABLE_EM_AT_1440 = 100.0
"""The article's width at a 1,440 px screen (1,400 px) in em of the catalogue table's text (0.7rem
of Material's 20 px root: 14 px): docs/assets/openrecipes.css."""
TABLE_BUDGET_EM = 95.0
"""What the catalogue table's columns may take of it (the sum of their `width`): 5% left over, so
a value a little wider than its column's declared width widens no page."""


def _check_width_budget(facts: Sequence[Fact]) -> None:
    """Every column declares its width, and the columns fit the budget. Past it, the error names
    the column declared last (the one just added, as a rule) and lists every column's width."""
    columns = [fact for fact in facts if fact.column]
    undeclared = [fact.key for fact in columns if fact.width is None or fact.width <= 0]
    if undeclared:
        raise ValueError(
            f"column {undeclared[0]!r} declares no width=: the narrowest it can be in em of the table's "
            "text (HACKING.md, Adding a field)"
        )
    total = sum(fact.width or 0.0 for fact in columns)
    if total <= TABLE_BUDGET_EM:
        return
    last = columns[-1]
    widths = ", ".join(f"{fact.key} {fact.width:g}" for fact in _column_order(facts))
    raise ValueError(
        f"column {last.key!r} ({last.width:g} em, the column declared last) does not fit the catalogue "
        f"table: its columns take {total:g} em of the {TABLE_BUDGET_EM:g} em a 1,440 px screen leaves them "
        f"(facts.TABLE_BUDGET_EM; in em, left to right: {widths}). Make room: narrow a column's width= "
        "(and its values), or take column= off a fact the tables need less (it stays on the recipe "
        "page, in the filters and the CSV)"
    )


_LISTED = ("column", "facet", "csv", "terminal", "compare", "alternative")
"""The places that list many recipes (or their records): none may show a field only a recipe's
own page shows (loader.PAGE_ONLY), or `mkdocs serve` would leave them stale after an edit."""


def check_registry(facts: Sequence[Fact]) -> None:
    """Keys are unique and plain (they become attribute names, CSV headers and address
    parameters); every key named is a fact's; lists show no page-only field."""
    keys = [fact.key for fact in facts]
    for fact in facts:
        if not _KEY.fullmatch(fact.key):
            raise ValueError(f"fact key {fact.key!r} is not a plain lower-case name")
        if keys.count(fact.key) > 1:
            raise ValueError(f"fact key {fact.key!r} is declared twice")
        if fact.detail is not None and fact.detail not in keys:
            raise ValueError(f"fact {fact.key!r} shows {fact.detail!r}, which is not a fact")
        if fact.column_after is not None and not fact.column:
            raise ValueError(f"fact {fact.key!r} has column_after but is no column")
        listed = [place for place in _LISTED if getattr(fact, place)]
        path = fact.path
        if listed and path and any(path[: len(only)] == only for only in PAGE_ONLY):
            raise ValueError(
                f"fact {fact.key!r} reads {'.'.join(path)}, which only its recipe's page shows "
                f"(loader.PAGE_ONLY), and is listed ({', '.join(listed)}): take it out of PAGE_ONLY"
            )
    csv = [fact.csv for fact in facts if fact.csv]
    if len(set(csv)) != len(csv):
        raise ValueError(f"two facts have one CSV column: {sorted(name for name in csv if csv.count(name) > 1)}")
    _column_order(facts)
    _check_width_budget(facts)


def check_schema(document: Mapping[str, Any], facts: Sequence[Fact] | None = None) -> None:
    """Every fact that reads a recipe field (`at`) reads one the schema `document` has; one whose
    value is an object, a list or a yes/no says how to write it (`show`), and one whose field may
    be `null` says what a null means (`null`). Run when the site is planned (plan.plan_site)."""
    for fact in FACTS if facts is None else facts:
        if fact.path is None:
            continue
        node: Mapping[str, Any] = document
        for depth, name in enumerate(fact.path):
            node = resolve(node, document)
            properties = node.get("properties", {})
            if name not in properties:
                where = ".".join(fact.path[: depth + 1])
                raise ValueError(f"fact {fact.key!r} reads {where}, which the recipe schema does not have")
            node = properties[name]
        node = resolve(node, document)
        kinds = node.get("type", [])
        kinds = set(kinds if isinstance(kinds, list) else [kinds])
        dotted = ".".join(fact.path)
        if kinds & {"object", "array", "boolean"} and fact.show is None:
            raise ValueError(
                f"fact {fact.key!r} reads {dotted}, {' or '.join(sorted(kinds - {'null'}))}: declare show= to write it"
            )
        if "null" in kinds and fact.null is None:
            raise ValueError(f"fact {fact.key!r} reads {dotted}, which may be null: declare null= to say what it means")


def _install(facts: Sequence[Fact]) -> None:
    """Make every place's list from `facts` (the registry in force)."""
    global FACTS, BY_KEY, COLUMNS, FACETS, CSV, TERMINAL, COMPARED, ALTERNATIVES
    check_registry(facts)
    FACTS = tuple(facts)
    BY_KEY = {fact.key: fact for fact in FACTS}
    COLUMNS = _column_order(FACTS)
    FACETS = tuple(fact for fact in FACTS if fact.facet)
    CSV = tuple(fact for fact in FACTS if fact.csv)
    TERMINAL = tuple(fact for fact in FACTS if fact.terminal)
    COMPARED = tuple(fact for fact in FACTS if fact.compare)
    ALTERNATIVES = tuple(fact for fact in FACTS if fact.alternative)


@contextlib.contextmanager
def extended(*more: Fact, changed: Mapping[str, Mapping[str, Any]] | None = None) -> Iterator[None]:
    """The registry with `more` declared after FACTS while the block runs: what a test (or a
    script building a variant of the site) uses to declare facts without editing this file.
    `changed` edits declarations of FACTS as a maintainer would in this file (`{"provider":
    {"column": None}}`: Provider given up as a column to make room for another). Everything made
    in the block (pages, exports, `openrecipes list`) shows them."""
    declared = FACTS
    edits = changed or {}
    unknown = sorted(set(edits) - {fact.key for fact in declared})
    if unknown:
        raise ValueError(f"changed names no fact: {', '.join(unknown)}")
    edited = [dataclasses.replace(fact, **edits[fact.key]) if fact.key in edits else fact for fact in declared]
    _install((*edited, *more))
    try:
        yield
    finally:
        _install(declared)


_install(FACTS)
