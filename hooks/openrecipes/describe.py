"""Recipe facts in words, for page text, tables and titles (plain strings; escaping happens later)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .fmt import number, percent
from .reading import records
from .reading.records import Recipe

Layout = Offload = Recompute = Any  # records of the schema (records.py)


def layout_label(fields: Any) -> str:
    """The layout's label as written, or made from its degrees: `TP8 PP4 CP2 EP8 VPP5 FSDP`."""
    layout = getattr(fields, "layout", None)
    if layout is None:
        return "layout not published"
    if layout.label:
        return layout.label
    parts = [f"TP{layout.tp}", f"PP{layout.pp}"] if layout.tp and layout.pp else []
    for name, value in (("CP", layout.cp), ("EP", layout.ep), ("ETP", layout.etp), ("VPP", layout.vpp)):
        if value is not None and value > 1:
            parts.append(f"{name}{value}")
    sharding = layout.sharding.kind if layout.sharding else None
    if sharding in ("fsdp", "hsdp", "zero-3"):
        parts.append(sharding.upper())
    return " ".join(parts)


def title(recipe: Recipe) -> str:
    fields = recipe.fields
    return f"{fields.model} on {fields.gpu.count} × {fields.gpu.type} · {layout_label(fields)}"


def fleet(recipe: Recipe) -> str:
    """`8 × H200 141 GB (AWS p5en.48xlarge, 8 per node, 1 node)`; what is not published is left out."""
    gpu = recipe.fields.gpu
    nodes = gpu.count // gpu.per_node if gpu.count % gpu.per_node == 0 else None
    memory = f" {number(gpu.memory_gb, _places(gpu.memory_gb))} GB" if gpu.memory_gb else ""
    on_premises = records.given(gpu, "instance") and gpu.instance is None  # written null: no public price
    where = [part for part in (gpu.instance, "no public price" if on_premises else None) if part]
    where.append(f"{gpu.per_node} per node" + (f", {nodes} node{'s' if nodes != 1 else ''}" if nodes else ""))
    return f"{gpu.count} × {gpu.type}{memory} ({', '.join(where)})"


def recompute(value: Recompute | None) -> str:
    if value is None:
        return "none"
    parts = [value.granularity]
    if value.method:
        parts.append(value.method)
    if value.num_layers:
        parts.append(f"{value.num_layers} layer{'s' if value.num_layers != 1 else ''}")
    if value.modules:
        parts.append("modules: " + ", ".join(value.modules))
    return ", ".join(parts)


def offload(value: Offload | None) -> str:
    if value is None:
        return "none"
    parts = []
    if value.optimizer_fraction is not None:
        parts.append(f"optimizer state {percent(value.optimizer_fraction, 0)} on the CPU")
    if value.activations:
        parts.append("activations on the CPU")
    if value.overlap_d2h_h2d:
        parts.append("copies overlapped with compute")
    return ", ".join(parts) or "on"


def _places(value: float) -> int:
    return 0 if float(value).is_integer() else len(repr(value).split(".")[1])


def relative_change(value: float, base: float) -> str:
    """`+12.3%` / `−4.0%` / `same`: how `value` compares with `base`."""
    if base == 0:
        return "n/a"
    change = (value - base) / base
    if abs(change) < 0.0005:  # rounds to 0.0%
        return "same"
    return ("+" if change > 0 else "−") + percent(abs(change))


def point_change(value: float, base: float, *, scale: float = 100, places: int = 1) -> str:
    """Difference of two fractions in percentage points: `+1.2 pp`; of two figures already in
    percent with `scale=1` (a step-time CV), to `places` decimals."""
    points = (value - base) * scale
    shown = number(abs(points), places)
    if shown == number(0, places):  # what rounds to 0.0 pp, as written (compare.js decides alike)
        return "same"
    return ("+" if points > 0 else "−") + shown + " pp"


METHOD_NAMES = {
    "pre-training": "pre-training",
    "continued-pre-training": "continued pre-training",
    "full-fine-tune": "full fine-tune",
    "lora": "LoRA",
    "qlora": "QLoRA",
}
"""How a training method (`workload.method.kind`) is written, in the order lists offer them."""

METHOD_NOT_STATED = "not stated"
"""A recipe that does not say how it trained: ranked with no other method."""


def method_name(kind: str | None) -> str:
    """`LoRA`, `pre-training`, or `not stated` for a recipe that does not say."""
    return METHOD_NAMES.get(kind, kind) if kind else METHOD_NOT_STATED


def method_order(name: str) -> int:
    """Where a method (as `method_name` writes it) stands in lists: pre-training first, not stated last."""
    names = list(METHOD_NAMES.values())
    return names.index(name) if name in names else len(names)


def capitalised(text: str) -> str:
    """`Pre-training`, `LoRA`: the first letter upper-case, the rest as written."""
    return text[:1].upper() + text[1:]


PEAK_NAMES = {"bf16": "BF16", "fp8": "FP8", "fp4": "FP4"}


def peak_name(column: str) -> str:
    """`vs FP8 peak`: which dense peak an MFU is measured against (reference.PEAK_COLUMN)."""
    return f"vs {PEAK_NAMES.get(column, column.upper())} peak"


def method(value: Any) -> str:
    """`LoRA, rank 16, alpha 32`."""
    parts = [method_name(value.kind)]
    if value.rank is not None:
        parts.append(f"rank {value.rank}")
    if value.alpha is not None:
        parts.append(f"alpha {value.alpha:g}")
    if value.note:
        parts.append(value.note)
    return ", ".join(parts)


def time_to_train(value: Any) -> str:
    """`12.3 minutes to eval loss 0.925 (mean of 8 runs...)`."""
    text = f"{value.minutes:g} minutes to {value.quality_target}"
    return f"{text} ({value.scoring})" if value.scoring else text


def dated(fields: Any) -> Any:
    """The day a recipe's figures are from: the run's date, else the day the source first published
    them (an imported row's first appearance), else the source's publication date."""
    measured = fields.result.measured if fields.result else None
    if measured or not fields.source:
        return measured
    first = fields.source.first_published
    return first.date if first else fields.source.published


def newest_first(entries: Sequence[Any]) -> list[Any]:
    """Recipes with a date (describe.dated), newest first; undated ones are left out."""
    with_date = [entry for entry in entries if dated(entry.recipe.fields)]
    return sorted(with_date, key=lambda e: (dated(e.recipe.fields), e.recipe.id), reverse=True)
