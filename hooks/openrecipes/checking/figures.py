"""What a recipe's checks are made of: the recomputed figures (`Derived`), each comparison
(`Check`), what every rule reads (`Context`), the rule registry (`@rule`) and the tolerances."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..problems import Problem, json_path
from ..reading.reference import GpuSpec, InstanceSpec, ModelSpec

MFU_TOLERANCE = 0.001
"""±0.1 percentage points."""
PRICE_RELATIVE_TOLERANCE = 0.01
PRICE_ABSOLUTE_TOLERANCE = 0.005
"""$/1M tokens: within 1% or half a cent, whichever is larger."""
MFU_CEILING = 0.75
"""No training run reaches 75% MFU in the site's convention (6·N, or 4·N for LoRA, against the
precision's peak); the best published ones are near 60%."""
PARAMS_TOLERANCE = 0.01
"""A stated parameter count within 1% of the reference data's."""
PUBLISHER_TOLERANCE = 0.01
"""A publisher's own FLOP/s figure within 1% of ours in their convention, unless the figure names
a release whose printed precision is known (flops.published_tolerance)."""
GPU_HOURS_SLACK = 0.99
EPSILON = 1e-9  # floating-point slack, so a value exactly at the tolerance passes

FieldPath = tuple[str | int, ...]
RecipeFields = Any  # the schema's record class (records.py)


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    field: FieldPath
    """Where the stated value is written, for error locations."""
    stated: str
    recomputed: str
    tolerance: str
    formula: str
    passed: bool
    hint: str = ""
    """What to look at when it fails (added to the error message)."""
    explained: str | None = None
    """For a published recipe, why the figures as published fail it (`disagreements`)."""

    @property
    def outcome(self) -> str:
        """`pass`, `fail`, or `disagrees` (fails, and the recipe says why the publisher's figures do)."""
        if self.passed:
            return "pass"
        return "disagrees" if self.explained else "fail"


@dataclass(frozen=True, slots=True)
class Price:
    """A $/GPU-hour, and the instance it is the price of."""

    instance: InstanceSpec
    basis: bool
    """True when it is the site's price basis for the GPU type (pricebasis.DEFAULT: the cheapest
    sourced on-demand price), not an instance the recipe names; labelled as such wherever shown."""

    @property
    def usd_per_gpu_hour(self) -> float:
        return self.instance.usd_per_gpu_hour


CONVENTION_NAMES = {
    "megatron": "Megatron-Bridge's model FLOPs",
    "6n": "6 × N",
    "6n-attention": "6 × N + attention without a causal mask",
    "other": "the publisher's own (see the note)",
}
"""What each convention of `result.publisher_figures` counts, as the pages name it (the schema says more)."""


@dataclass(frozen=True, slots=True)
class PublisherFigure:
    """A figure the publisher states in their own convention, beside ours in that convention."""

    name: str
    stated: float
    recomputed: float | None
    convention: str
    note: str | None
    tolerance: float
    """Relative: the publisher's printed precision (some releases round their throughput)."""
    not_recomputed: str | None = None
    """Why `recomputed` is None, in words for the page: each input it lacks, as it is lacking."""
    unit: str = "TFLOP/s per GPU"
    """`TFLOP/s per GPU`, or a utilisation, `MFU %` or `HFU %`, whose `tolerance` is in percentage points."""
    formula: str = ""
    """How `recomputed` was counted, in words and numbers (empty: Megatron-Bridge's TFLOP/s, flops.py)."""
    peak: str | None = None
    """For a utilisation, the peak it divides by, in words (as published, or the reference data's)."""

    @property
    def utilisation(self) -> bool:
        return self.unit != "TFLOP/s per GPU"

    @property
    def kind(self) -> str:
        """`TFLOP/s per GPU`, `MFU` or `HFU`."""
        return self.unit.removesuffix(" %")

    @property
    def described(self) -> str:
        """What the figure counts, as the pages write it: its kind, its FLOPs and, for a utilisation, its peak."""
        text = f"{self.kind}; FLOPs: {CONVENTION_NAMES.get(self.convention, self.convention)}"
        return f"{text}; peak: {self.peak}" if self.peak else text


@dataclass(frozen=True)
class Derived:
    """Figures recomputed from the recipe and the reference data, and the checks against them."""

    gpu: GpuSpec | None
    instance: InstanceSpec | None
    """The recipe's own instance, when it names one."""
    model: ModelSpec | None
    peak_tflops: float | None
    params: int | None
    """N, the active parameters per token MFU counts: the reference data's without the input
    embedding (flops.flops_params) when the model's architecture is known, else the recipe's, else
    the publisher's headline count."""
    params_from_recipe: bool
    """N is the recipe's own count (no architecture in the reference data to count it from)."""
    mfu: float | None
    """Against the dense peak of the training precision (`peak_column`)."""
    basis: Price | None
    """The price basis of the GPU type (pricebasis.DEFAULT), None when no price is sourced for it:
    every $ / 1M the site shows and ranks by is at this price, whatever instance the recipe names."""
    price: Price | None
    """The price of the run itself: the recipe's own instance, else the basis. Its run cost is at
    this price, and a stated $ / 1M is checked against the instance's."""
    usd_per_million_tokens: float | None
    """At the basis price (`basis`)."""
    instance_usd_per_million_tokens: float | None
    """At the recipe's own instance, when it names one."""
    tokens_per_gpu_hour: float | None
    run_cost_usd: float | None
    price_age_days: int | None
    dp: int | None
    dp_derived: bool
    """The data-parallel degree was not published: it is the GPU count ÷ (TP × PP × CP)."""
    label: str
    publisher_figures: tuple[PublisherFigure, ...]
    inputs: tuple[tuple[str, str | None], ...]
    """What the launch script needs: (as written, the recipe's description or None when undescribed)."""
    checks: tuple[Check, ...]
    notices: tuple[Problem, ...] = ()
    """Warnings: worth the author's attention, never a reason to stop the build."""
    scripts: tuple[Any, ...] = ()
    """Each script the recipe's launches download, with what bash and ShellCheck find in it
    (scriptcheck.CheckedScript): the page shows them beside the script."""
    dry_run: Any = None
    """The documented launch's dry run (dryrunstate.DryRunOutcome), None without a documented launch."""
    readiness: Any = None
    """Whether a reader can run the recipe as it stands (readiness.Readiness): the one label every
    page, export and command shows. None only for a partial record (with schema problems)."""
    method: str | None = None
    """The training method (`workload.method.kind`), None when the recipe does not state it: the
    FLOPs convention (flops.training_flops_per_token) and every ranking go by it."""
    flops_per_token: float | None = None
    """Training FLOPs per token in the site's convention for the method (6 × N, or 4 × N for LoRA)."""
    peak_column: str | None = None
    """Which dense peak `mfu` is against: `bf16`, `fp8` or `fp4` (reference.PEAK_COLUMN)."""
    bf16_peak_tflops: float | None = None
    mfu_bf16: float | None = None
    """MFU against the GPU's BF16 dense peak whatever the precision: one scale for every precision."""
    stated_params: int | None = None
    """The N the recipe states (`result.active_params.count`), which its stated MFU assumes."""
    mfu_as_stated: float | None = None
    """MFU recomputed with the recipe's own N (else `params`): what a stated MFU is checked against."""
    tokens_from: Any = None
    """A throughput derived from a publisher's figure (`publisher.DerivedThroughput`), None when it
    is measured or published as such: marked derived wherever shown, never ranked as measured."""

    @property
    def passed(self) -> bool:
        return all(check.passed for check in self.checks)


@dataclass(frozen=True)
class Context:
    """What every rule reads: the recipe's fields, the figures recomputed from them, the date."""

    f: RecipeFields
    derived: Derived
    today: dt.date
    recipe_ids: Collection[str]
    """Every recipe of the catalogue, for references between recipes."""
    refused: Collection[str] = ()
    """JSON paths whose values the schema refused (left out of a partial record): not missing."""

    def was_refused(self, path: FieldPath) -> bool:
        where = json_path(path)
        return any(_related(where, refused) for refused in self.refused)

    def __getattr__(self, name: str) -> Any:  # the derived figures by name: ctx.gpu, ctx.peak_tflops
        return getattr(self.derived, name)


@dataclass(frozen=True)
class Rule:
    name: str
    statement: str
    """One sentence for the Methodology page: what is compared and how."""
    run: Callable[[Context], Iterator[Check]] = field(repr=False)


RULES: list[Rule] = []


def rule(name: str, statement: str) -> Callable[[Callable[[Context], Iterator[Check]]], Callable[..., Any]]:
    """Declares a check: its name (shown on recipe pages) and its statement (the Methodology page)."""

    def register(run: Callable[[Context], Iterator[Check]]) -> Callable[[Context], Iterator[Check]]:
        RULES.append(Rule(name, statement, run))
        return run

    return register


def _related(path: str, other: str) -> bool:
    """One JSON path is the other, or holds it."""
    return any(a == b or a.startswith((b + ".", b + "[")) for a, b in ((path, other), (other, path)))


def lookup(record: Any, *names: str) -> Any:
    """`record.a.b.c`, or None where a step is left out."""
    for name in names:
        if record is None:
            return None
        record = getattr(record, name, None)
    return record


def cp_degree(f: RecipeFields) -> int | None:
    """The context-parallel degree; a recipe of schema version 1 always states it."""
    return lookup(f, "layout", "cp")
