"""Every fact the site shows about a recipe, declared once.

A `Fact` says what a reader sees: its label, where its value comes from, how the value is
written, what is shown when the recipe does not publish it, and everywhere it appears: a row of a
section of the recipe page, a column of the catalogue tables, a filter of those tables, a column
of `api/recipes.csv`, a column of `openrecipes list`. The templates, the exports, the terminal
and the table script's filters are all made from `FACTS`, so a fact is declared here and nowhere
else. HACKING.md says how to add one.

A value a recipe does not publish is absent and shown as "not published", never as a default;
an explicit `null` in a recipe is a statement ("no recompute", "even split") and is shown as the
fact's `null` text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .. import describe, fmt
from ..checking import pricebasis
from ..loader import Entry, slug
from ..reading import records

NOT_PUBLISHED = "not published"
NO_PRICE = "no public price"

Cell = Literal["text", "link", "badge", "price", "code"]
"""How a value is drawn: plain text, a link to the recipe's page, a status badge, a $ / 1M tokens
that the page scripts recompute at the reader's price basis (price.js), or code (hashes, revisions)."""

Section = Literal["fleet", "layout", "moe", "stack", "workload", "dataset", "build", "correctness"]
"""The tables of a recipe page, in the order the page shows them (see recipe.md.j2)."""


class _Absent:
    """A fact the recipe does not publish (a property left out of the file)."""

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT = _Absent()


def at(dotted: str) -> Callable[[Entry], Any]:
    """Reads `recipe.fields.<dotted>`: ABSENT when the file left it (or a parent) out, None for `null`."""
    names = dotted.split(".")

    def read(entry: Entry) -> Any:
        record = entry.recipe.fields
        for name in names:
            if record is None or not records.given(record, name):
                return ABSENT
            record = getattr(record, name)
        return record

    read.__name__ = f"at_{dotted.replace('.', '_')}"
    return read


@dataclass(frozen=True)
class Fact:
    key: str
    """Stable name: the CSV column, the table's `data-key` and filter name, the address's `sort=`."""
    label: str
    read: Callable[[Entry], Any]
    """The value (ABSENT when not published; None for an explicit `null`)."""
    show: Callable[[Any], str] = str
    """The value as people read it (never given ABSENT or None)."""
    missing: str = NOT_PUBLISHED
    null: str | None = None
    """What an explicit `null` means here ("none"); None: the fact cannot be null."""
    numeric: bool = False
    """Sorts as a number (`sort_value`), aligned right."""
    sort: Callable[[Any], Any] | None = None
    """The value sorted by, when it is not the value itself (a GPU count for "8 × H200")."""
    section: Section | None = None
    """The recipe page's table that lists it."""
    omit_missing: bool = False
    """In its section, leave the row out rather than say "not published" (a pin that does not
    apply: ROCm on NVIDIA GPUs)."""
    column: Cell | None = None
    """A column of the catalogue tables, drawn as this kind of cell."""
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
    """Its column in api/recipes.csv, holding the raw value."""
    terminal: str | None = None
    """Its column header in `openrecipes list`."""
    cell: Cell = "text"
    """How the value is drawn in its section's table."""

    def value(self, entry: Entry) -> Any:
        """The raw value, None when there is none to show (not published, or null)."""
        value = self.read(entry)
        return None if value is ABSENT else value

    def published(self, entry: Entry) -> bool:
        return self.read(entry) is not ABSENT

    def text(self, entry: Entry) -> str:
        """The value as people read it, or what stands in for it."""
        value = self.read(entry)
        if value is ABSENT:
            return self.missing
        if value is None:
            return self.null if self.null is not None else self.missing
        return self.show(value)

    def sort_value(self, entry: Entry) -> Any:
        """What the table sorts by: a number for numeric facts; None last in either direction."""
        value = self.value(entry)
        if value is None:
            return None
        return self.sort(value) if self.sort else value

    def facet_text(self, entry: Entry) -> str:
        value = self.value(entry)
        if value is None:
            return ""
        return self.facet_value(value) if self.facet_value else str(value)

    def csv_value(self, entry: Entry) -> Any:
        value = self.value(entry)
        if value is None:
            return ""
        if hasattr(value, "isoformat"):
            return value.isoformat()
        if isinstance(value, bool):
            return "true" if value else "false"
        return value


def _usd(value: float) -> str:
    return fmt.usd(value)


def _derived_or_absent(name: str) -> Callable[[Entry], Any]:
    """A figure recomputed by the checks (the site's own convention), ABSENT when it cannot be."""

    def read(entry: Entry) -> Any:
        value = getattr(entry.derived, name)
        return ABSENT if value is None else value

    return read


def _data_parallel(entry: Entry) -> Any:
    if entry.derived.dp is None:
        return ABSENT
    return (entry.derived.dp, entry.derived.dp_derived)


def _derived_degree(value: tuple[int, bool]) -> str:
    degree, derived = value
    return f"{degree} (derived: GPUs ÷ (TP × PP × CP))" if derived else str(degree)


def _basis(read: Callable[[Any], Any]) -> Callable[[Entry], Any]:
    """`read` of the price basis of the recipe's GPU type, ABSENT when no price is sourced for it."""
    return lambda entry: ABSENT if entry.derived.basis is None else read(entry.derived.basis)


def _provider(entry: Entry) -> Any:
    """Where the GPUs were: the provider of the instance the recipe rented, else the system it names."""
    gpu = entry.recipe.fields.gpu
    if entry.derived.instance is not None:
        return entry.derived.instance.provider
    return gpu.system if gpu.system else ABSENT


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


FACTS: tuple[Fact, ...] = (
    # What the catalogue tables show and filter by.
    Fact("model", "Model", at("model"), column="link", facet="All models", csv="model"),
    Fact("gpu", "GPU", lambda entry: entry.gpu_key, facet="All GPUs", csv="gpu_type"),
    Fact("provider", "Provider / system", _provider, column="text", facet="Any provider", csv="provider"),
    Fact("count", "GPU count", at("gpu.count"), numeric=True, facet="Any count", facet_unit="GPUs", csv="gpu_count"),
    Fact(
        "gpus",
        "GPUs",
        _count_times_gpu,
        show=lambda value: f"{value[0]} × {value[1]}",
        numeric=True,
        sort=lambda value: value[0],
        column="text",
        terminal="GPUs",
    ),
    Fact("layout", "Layout", lambda entry: entry.derived.label, column="link", csv="layout", terminal="layout"),
    Fact(
        "tokens",
        "Tokens/s per GPU",
        at("result.tokens_per_s_per_gpu"),
        show=lambda value: fmt.number(value, 1),
        numeric=True,
        column="text",
        csv="tokens_per_s_per_gpu",
        terminal="tokens/s/GPU",
    ),
    Fact(
        "usd",
        "$ / 1M tokens",
        _derived_or_absent("usd_per_million_tokens"),
        show=_usd,
        missing=NO_PRICE,
        numeric=True,
        column="price",
        csv="usd_per_million_tokens",
        terminal="$/1M",
    ),
    Fact(
        "mfu",
        "MFU",
        _derived_or_absent("mfu"),
        show=fmt.percent,
        numeric=True,
        column="text",
        csv="mfu",
        terminal="MFU",
    ),
    Fact(
        "status",
        "Status",
        at("status"),
        column="badge",
        detail="correctness",
        facet="Any status",
        facet_hidden=("deprecated",),
        csv="status",
        terminal="status",
    ),
    Fact("correctness", "Correctness", at("correctness.result"), facet="Any correctness", csv="correctness"),
    Fact("measured", "Measured", at("result.measured"), show=lambda value: value.isoformat(), csv="measured"),
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
        show=_usd,
        csv="basis_usd_per_gpu_hour",
    ),
    Fact("instance", "Instance", at("gpu.instance"), null="none (no public price)", csv="instance"),
    Fact(
        "instance_usd",
        "$ / 1M tokens at its own instance",
        _derived_or_absent("instance_usd_per_million_tokens"),
        show=_usd,
        csv="instance_usd_per_million_tokens",
    ),
    # The recipe page's tables.
    Fact("fleet", "GPUs", lambda entry: describe.fleet(entry.recipe), section="fleet"),
    Fact("system", "System", at("gpu.system"), section="fleet", omit_missing=True),
    Fact("interconnect", "Interconnect", at("stack.network"), section="fleet"),
    Fact("tp", "Tensor parallel (TP)", at("layout.tp"), section="layout"),
    Fact("pp", "Pipeline parallel (PP)", at("layout.pp"), section="layout"),
    Fact("vpp", "Virtual pipeline stages (VPP)", at("layout.vpp"), section="layout"),
    Fact("cp", "Context parallel (CP)", at("layout.cp"), section="layout"),
    Fact("ep", "Expert parallel (EP)", at("layout.ep"), section="layout"),
    Fact("etp", "Expert tensor parallel (ETP)", at("layout.etp"), section="layout"),
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
    Fact("method", "Training", at("workload.method"), show=describe.method, section="workload"),
    Fact("rows", "Rows", at("workload.rows"), section="workload"),
    Fact(
        "row_tokens",
        "Sequence",
        at("workload.row_tokens"),
        show=fmt.number,
        numeric=True,
        section="workload",
        column="text",
        csv="sequence_length",
    ),
    Fact("global_batch", "Global batch", _with_tokens_per_step, show=_global_batch, section="workload"),
    Fact(
        "precision",
        "Precision",
        at("workload.precision"),
        section="workload",
        column="text",
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

BY_KEY = {fact.key: fact for fact in FACTS}
COLUMN_ORDER = ("model", "gpus", "provider", "layout", "precision", "row_tokens", "tokens", "usd", "mfu", "status")
"""The catalogue tables' columns, left to right: what a reader chooses a recipe by, model first;
every fact declared with a `column` is here once (check_registry)."""
COLUMNS = tuple(BY_KEY[key] for key in COLUMN_ORDER)
FACETS = tuple(fact for fact in FACTS if fact.facet)
CSV = tuple(fact for fact in FACTS if fact.csv)
TERMINAL = tuple(fact for fact in FACTS if fact.terminal)


def section(name: Section) -> tuple[Fact, ...]:
    return tuple(fact for fact in FACTS if fact.section == name)


def rows(name: Section, entry: Entry) -> Iterator[tuple[Fact, str]]:
    """The rows of a recipe page's table: (fact, text), leaving out what the fact says to omit."""
    for fact in section(name):
        if fact.omit_missing and fact.read(entry) is ABSENT:
            continue
        yield fact, fact.text(entry)


def publishes(name: Section, entry: Entry) -> bool:
    """Whether the recipe publishes anything of a page section."""
    return any(fact.published(entry) for fact in section(name))


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


def facet_config(facets: Sequence[Fact] = FACETS) -> list[dict[str, Any]]:
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
        for fact in facets
    ]


def check_registry(facts: Sequence[Fact] = FACTS) -> None:
    """Keys are unique and plain (they become attribute names, CSV headers and address parameters)."""
    seen: set[str] = set()
    for fact in facts:
        if not fact.key.replace("_", "").isalnum() or not fact.key[0].isalpha() or fact.key != fact.key.lower():
            raise ValueError(f"fact key {fact.key!r} is not a plain lower-case name")
        if fact.key in seen:
            raise ValueError(f"fact key {fact.key!r} is declared twice")
        seen.add(fact.key)
        if fact.detail is not None and fact.detail not in {other.key for other in facts}:
            raise ValueError(f"fact {fact.key!r} shows {fact.detail!r}, which is not a fact")
    columns = [fact.key for fact in facts if fact.column]
    if facts is FACTS and sorted(columns) != sorted(COLUMN_ORDER):
        raise ValueError(f"COLUMN_ORDER {COLUMN_ORDER} does not list every column {columns} once")


check_registry()
