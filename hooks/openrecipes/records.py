"""Typed, immutable recipe records, built from data that has already passed the schema.

The field names mirror schema/recipe.schema.yaml one to one (a test holds them together); the
schema says what each field means.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

Outcome = Literal["pass", "fail", "not-run"]
Status = Literal["verified", "unverified", "deprecated"]


@dataclass(frozen=True, slots=True)
class Gpu:
    type: str
    memory_gb: float
    count: int
    per_node: int
    instance: str | None


@dataclass(frozen=True, slots=True)
class Author:
    name: str
    url: str


@dataclass(frozen=True, slots=True)
class Stack:
    framework: str
    pytorch: str
    python: str
    source: str
    megatron_lm: str | None = None
    transformer_engine: str | None = None
    cuda: str | None = None
    rocm: str | None = None
    nccl: str | None = None
    rccl: str | None = None
    deepep: str | None = None
    flash_attention: str | None = None
    driver: str | None = None
    container_image: str | None = None
    network: str | None = None


@dataclass(frozen=True, slots=True)
class DatasetBuild:
    name: str
    tokenizer: str
    rows: int
    row_tokens: int
    seed: int
    packing: str
    builder: str
    loss_mask: str | None = None
    padding_tokens: int | None = None
    supervised_token_ratio: float | None = None
    parquet_sha256: str | None = None
    parquet_bytes: int | None = None


@dataclass(frozen=True, slots=True)
class Dataset:
    name: str
    source: str
    revision: str
    license: str
    rows_sha256: str
    build: DatasetBuild


@dataclass(frozen=True, slots=True)
class Workload:
    row_tokens: int
    rows: str
    global_batch: int
    precision: str
    dataset: Dataset


@dataclass(frozen=True, slots=True)
class Recompute:
    granularity: str
    method: str | None = None
    num_layers: int | None = None
    modules: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Offload:
    optimizer_fraction: float | None = None
    overlap_d2h_h2d: bool | None = None
    activations: bool | None = None


@dataclass(frozen=True, slots=True)
class Layout:
    label: str
    summary: str
    tp: int
    pp: int
    vpp: int
    cp: int
    ep: int
    etp: int
    dp: int
    sequence_parallel: bool
    rows_per_microbatch: int
    recompute: Recompute | None
    offload: Offload | None
    highlights: str | None = None
    layer_split: tuple[int, ...] | None = None
    max_tokens_per_gpu: int | None = None
    dispatcher: str | None = None
    notes: str | None = None


@dataclass(frozen=True, slots=True)
class ActiveParams:
    count: int
    source: str
    revision: str | None = None


@dataclass(frozen=True, slots=True)
class Result:
    tokens_per_s_per_gpu: float
    usd_per_million_tokens: float | None
    step_time_cv_percent: float
    mfu: float
    active_params: ActiveParams
    measured: dt.date
    steps_per_run: int
    window: tuple[int, ...]
    window_tokens: int
    runs: int
    gpu_hours: float
    mfu_note: str | None = None
    profiler: bool | None = None
    gpu_hours_note: str | None = None


@dataclass(frozen=True, slots=True)
class ComponentTest:
    name: str
    result: Outcome
    note: str | None = None


@dataclass(frozen=True, slots=True)
class Convergence:
    steps: int
    result: Outcome
    correlation: float | None
    final_loss_difference: float | None
    pointwise_failures: int | None
    note: str | None = None


@dataclass(frozen=True, slots=True)
class Correctness:
    result: Outcome
    summary: str
    reference: str
    convergence: Convergence
    configuration: Outcome | None = None
    component_tests: tuple[ComponentTest, ...] = ()
    rules: str | None = None


@dataclass(frozen=True, slots=True)
class Patch:
    name: str
    description: str
    url: str | None = None
    sha256: str | None = None


@dataclass(frozen=True, slots=True)
class RecipeFields:
    """Everything the recipe file says, field for field."""

    schema_version: int
    model: str
    gpu: Gpu
    author: Author
    status: Status
    stack: Stack
    workload: Workload
    layout: Layout
    result: Result
    correctness: Correctness
    env: tuple[tuple[str, str], ...]
    patches: tuple[Patch, ...]
    run: str
    notes: str | None = None


@dataclass(frozen=True, slots=True)
class Recipe:
    """One recipe: where it lives and what it says."""

    id: str
    """`<model>/<gpu>/<name>`: the file's path under recipes/ without `.yaml`."""
    path: str
    """The file's path relative to the project root, e.g. `recipes/<id>.yaml`."""
    fields: RecipeFields


T = TypeVar("T")


def build_record(cls: type[T], data: Any) -> T:
    """Build dataclass `cls` from schema-valid `data`: nested records, tuples for lists, dates."""
    return _converter(cls)(data)


Converter = Callable[[Any], Any]


def _identity(value: Any) -> Any:
    return value


@functools.cache
def _converter(annotation: Any) -> Converter:
    """A function turning schema-valid data into `annotation`, worked out once per type.

    Inspecting type hints on every value was a quarter of the time spent reading a catalogue.
    """
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        inner = _converter(next(arg for arg in typing.get_args(annotation) if arg is not type(None)))
        return lambda value: None if value is None else inner(value)
    if origin is tuple:
        item_type = typing.get_args(annotation)[0]
        if typing.get_origin(item_type) is tuple:  # env: mapping as ordered (name, value) pairs
            return lambda value: tuple((str(key), str(item)) for key, item in value.items())
        item = _converter(item_type)
        return lambda value: tuple(item(element) for element in value)
    if dataclasses.is_dataclass(annotation):
        fields = {name: _converter(hint) for name, hint in typing.get_type_hints(annotation).items()}
        return lambda value: annotation(**{name: fields[name](item) for name, item in value.items()})
    if annotation is dt.date:
        return lambda value: dt.date.fromisoformat(value) if isinstance(value, str) else value
    return _identity
