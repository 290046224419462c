"""Recipe facts in words, for page text, tables and titles (plain strings; escaping happens later)."""

from __future__ import annotations

from typing import Any

from .fmt import number, percent
from .records import Recipe

Layout = Offload = Recompute = Any  # records of the schema (records.py)


def title(recipe: Recipe) -> str:
    fields = recipe.fields
    return f"{fields.model} on {fields.gpu.count} × {fields.gpu.type} · {fields.layout.label}"


def fleet(recipe: Recipe) -> str:
    """`8 × H200 141 GB (AWS p5en.48xlarge, 8 per node)`."""
    gpu = recipe.fields.gpu
    nodes = gpu.count // gpu.per_node if gpu.count % gpu.per_node == 0 else None
    where = gpu.instance or "no public price"
    per_node = f"{gpu.per_node} per node" + (f", {nodes} node{'s' if nodes != 1 else ''}" if nodes else "")
    return f"{gpu.count} × {gpu.type} {number(gpu.memory_gb, _places(gpu.memory_gb))} GB ({where}, {per_node})"


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


def env_script(recipe: Recipe) -> str:
    """`export NAME=value` lines, values exactly as written in the recipe."""
    return "".join(f"export {name}={value}\n" for name, value in recipe.fields.env or ())


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


def point_change(value: float, base: float) -> str:
    """Difference of two fractions in percentage points: `+1.2 pp`."""
    points = (value - base) * 100
    if abs(points) < 0.05:  # rounds to 0.0 pp
        return "same"
    return ("+" if points > 0 else "−") + number(abs(points), 1) + " pp"
