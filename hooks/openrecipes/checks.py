"""Every figure a recipe states that can be recomputed is recomputed here, and compared.

A check is a value, not an exception: it carries the stated and recomputed values, the formula,
the tolerance and the outcome, so the page can show a passing check as plainly as the build
reports a failing one.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from math import prod
from typing import Any

from . import fmt
from .problems import Problem, json_path
from .records import Recipe
from .reference import PEAK_COLUMN, GpuSpec, InstanceSpec, ModelSpec, Reference, closest
from .yamlsource import SourceMap

RecipeFields = Any  # the schema's record class (records.py)

MFU_TOLERANCE = 0.001
"""±0.1 percentage points."""
PRICE_RELATIVE_TOLERANCE = 0.01
PRICE_ABSOLUTE_TOLERANCE = 0.005
"""$/1M tokens: within 1% or half a cent, whichever is larger."""
_EPSILON = 1e-9  # floating-point slack, so a value exactly at the tolerance passes

FieldPath = tuple[str | int, ...]


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


@dataclass(frozen=True)
class Derived:
    """Figures recomputed from the recipe and the reference data, and the checks against them."""

    gpu: GpuSpec | None
    instance: InstanceSpec | None
    model: ModelSpec | None
    peak_tflops: float | None
    mfu: float | None
    usd_per_million_tokens: float | None
    tokens_per_gpu_hour: float
    run_cost_usd: float | None
    price_age_days: int | None
    checks: tuple[Check, ...]

    @property
    def usd_per_gpu_hour(self) -> float | None:
        return self.instance.usd_per_gpu_hour if self.instance else None

    @property
    def passed(self) -> bool:
        return all(check.passed for check in self.checks)


def analyse(
    recipe: Recipe, locations: SourceMap, reference: Reference, today: dt.date
) -> tuple[Derived, list[Problem]]:
    """Recompute what can be recomputed; problems for unknown references and failed checks."""
    f = recipe.fields
    problems: list[Problem] = []

    def problem(field: FieldPath, message: str) -> None:
        position = locations.value_at(field)
        problems.append(Problem(recipe.path, position.line, position.column, json_path(field), message))

    gpu = reference.gpu(f.gpu.type)
    if gpu is None:
        known = sorted(reference.gpus)
        suggestion = closest(
            f.gpu.type, [name for spec in reference.gpus.values() for name in (spec.key, *spec.aliases)]
        )
        hint = f"; did you mean {suggestion!r}?" if suggestion else ""
        problem(("gpu", "type"), f"unknown GPU {f.gpu.type!r}{hint} Known GPUs: {', '.join(known)}")
    instance = None
    if f.gpu.instance is not None:
        instance = reference.instance(f.gpu.instance)
        if instance is None:
            suggestion = closest(f.gpu.instance, list(reference.instances))
            hint = f"; did you mean {suggestion!r}?" if suggestion else ""
            problem(
                ("gpu", "instance"),
                f"unknown instance {f.gpu.instance!r}{hint} Add it with its price and source to "
                "reference/instances.yaml, or write null for GPUs without a public price. Known: "
                + ", ".join(sorted(reference.instances)),
            )

    peak = gpu.peak_tflops(f.workload.precision) if gpu else None
    if gpu and peak is None:
        problem(
            ("workload", "precision"),
            f"{gpu.key} has no {PEAK_COLUMN[f.workload.precision].upper()} tensor cores, "
            f"so a {f.workload.precision} run on it cannot be right",
        )
    mfu = 6 * f.result.active_params.count * f.result.tokens_per_s_per_gpu / (peak * 1e12) if peak else None
    usd = instance.usd_per_gpu_hour / (f.result.tokens_per_s_per_gpu * 3600) * 1e6 if instance else None

    checks = [
        check
        for make in _CHECKS
        for check in make(f, gpu=gpu, instance=instance, peak=peak, mfu=mfu, usd=usd, today=today)
    ]
    for check in checks:
        if not check.passed:
            problem(
                check.field,
                f"{check.name} check failed: stated {check.stated}, recomputed {check.recomputed} "
                f"({check.formula}); tolerance {check.tolerance}",
            )
    derived = Derived(
        gpu=gpu,
        instance=instance,
        model=reference.model(f.model),
        peak_tflops=peak,
        mfu=mfu,
        usd_per_million_tokens=usd,
        tokens_per_gpu_hour=f.result.tokens_per_s_per_gpu * 3600,
        run_cost_usd=f.result.gpu_hours * instance.usd_per_gpu_hour if instance else None,
        price_age_days=(f.result.measured - instance.sourced.as_of).days if instance else None,
        checks=tuple(checks),
    )
    return derived, problems


def _mfu(
    f: RecipeFields, *, gpu: GpuSpec | None, peak: float | None, mfu: float | None, **_: object
) -> Iterator[Check]:
    if gpu is None or peak is None or mfu is None:
        return
    stated = f.result.mfu
    yield Check(
        name="MFU",
        field=("result", "mfu"),
        stated=fmt.percent(stated, 2),
        recomputed=fmt.percent(mfu, 3),
        tolerance="±0.1 percentage points",
        formula=(
            f"6 × {fmt.number(f.result.active_params.count)} active parameters × "
            f"{fmt.as_written(f.result.tokens_per_s_per_gpu)} tokens/s ÷ {fmt.as_written(peak)} TFLOP/s "
            f"({gpu.key} dense {PEAK_COLUMN[f.workload.precision].upper()} peak)"
        ),
        passed=abs(stated - mfu) <= MFU_TOLERANCE + _EPSILON,
    )


def _price(f: RecipeFields, *, instance: InstanceSpec | None, usd: float | None, **_: object) -> Iterator[Check]:
    stated = f.result.usd_per_million_tokens
    field = ("result", "usd_per_million_tokens")
    if f.gpu.instance is None:
        yield Check(
            name="$/1M tokens",
            field=field,
            stated="null" if stated is None else fmt.usd(stated, 4),
            recomputed="null",
            tolerance="null exactly when gpu.instance is null",
            formula="no instance, so no public price",
            passed=stated is None,
        )
        return
    if instance is None or usd is None:
        return
    tolerance = max(PRICE_RELATIVE_TOLERANCE * usd, PRICE_ABSOLUTE_TOLERANCE)
    yield Check(
        name="$/1M tokens",
        field=field,
        stated="null" if stated is None else fmt.usd(stated, 4),
        recomputed=fmt.usd(usd, 4),
        tolerance=f"±{fmt.usd(tolerance, 4)} (1% or half a cent, whichever is larger)",
        formula=(
            f"${fmt.as_written(instance.usd_per_hour)}/h ÷ {instance.gpus} GPUs ÷ "
            f"({fmt.as_written(f.result.tokens_per_s_per_gpu)} tokens/s × 3,600) × 1,000,000"
        ),
        passed=stated is not None and abs(stated - usd) <= tolerance + _EPSILON,
    )


def _fleet(f: RecipeFields, *, gpu: GpuSpec | None, instance: InstanceSpec | None, **_: object) -> Iterator[Check]:
    layout, fleet = f.layout, f.gpu
    degrees = (layout.tp, layout.pp, layout.cp, layout.dp)
    product = prod(degrees)
    yield Check(
        name="GPU count",
        field=("gpu", "count"),
        stated=f"{fleet.count} GPUs",
        recomputed=f"{product} GPUs",
        tolerance="exact",
        formula=f"TP × PP × CP × DP = {' × '.join(map(str, degrees))}",
        passed=product == fleet.count,
    )
    yield Check(
        name="Whole nodes",
        field=("gpu", "per_node"),
        stated=f"{fleet.count} GPUs, {fleet.per_node} per node",
        recomputed=fmt.plural(fleet.count / fleet.per_node, "node"),
        tolerance="a whole number of nodes",
        formula="gpu.count ÷ gpu.per_node",
        passed=fleet.count % fleet.per_node == 0,
    )
    if gpu is not None:
        yield Check(
            name="GPU memory",
            field=("gpu", "memory_gb"),
            stated=f"{fmt.as_written(fleet.memory_gb)} GB",
            recomputed=" or ".join(f"{fmt.as_written(option)} GB" for option in gpu.memory_options),
            tolerance="exact",
            formula=f"memory of the {gpu.name} in reference/gpus.yaml",
            passed=fleet.memory_gb in gpu.memory_options,
        )
    if instance is not None and gpu is not None:
        yield Check(
            name="Instance GPU",
            field=("gpu", "type"),
            stated=gpu.key,
            recomputed=instance.gpu,
            tolerance="the same GPU",
            formula=f"the GPU of {instance.key} in reference/instances.yaml",
            passed=instance.gpu == gpu.key,
        )
    if instance is not None:
        yield Check(
            name="Whole instances",
            field=("gpu", "count"),
            stated=f"{fleet.count} GPUs",
            recomputed=f"{fmt.plural(fleet.count / instance.gpus, 'instance')} of {fmt.plural(instance.gpus, 'GPU')}",
            tolerance="a whole number of instances (they are billed whole)",
            formula=f"gpu.count ÷ GPUs per {instance.key}",
            passed=fleet.count % instance.gpus == 0,
        )
    expert = layout.ep * layout.etp
    non_pipeline = layout.tp * layout.cp * layout.dp
    yield Check(
        name="Expert layout",
        field=("layout", "ep"),
        stated=f"EP × ETP = {layout.ep} × {layout.etp} = {expert}",
        recomputed=f"TP × CP × DP = {layout.tp} × {layout.cp} × {layout.dp} = {non_pipeline}",
        tolerance="EP × ETP divides TP × CP × DP",
        formula="experts are spread over the GPUs of one pipeline stage",
        passed=non_pipeline % expert == 0,
    )
    per_step = layout.rows_per_microbatch * layout.dp
    yield Check(
        name="Global batch",
        field=("workload", "global_batch"),
        stated=f"{f.workload.global_batch} rows",
        recomputed=f"a multiple of {fmt.plural(per_step, 'row')}",
        tolerance="a whole number of microbatches per DP rank",
        formula=f"rows per microbatch × DP = {layout.rows_per_microbatch} × {layout.dp}",
        passed=f.workload.global_batch % per_step == 0,
    )
    if layout.layer_split is not None:
        yield Check(
            name="Layer split",
            field=("layout", "layer_split"),
            stated=f"{len(layout.layer_split)} stages",
            recomputed=f"PP = {layout.pp} stages",
            tolerance="one layer count per pipeline stage",
            formula="len(layout.layer_split) = layout.pp",
            passed=len(layout.layer_split) == layout.pp,
        )


def _measurement(f: RecipeFields, **_: object) -> Iterator[Check]:
    result, workload = f.result, f.workload
    first, last = result.window
    yield Check(
        name="Measurement window",
        field=("result", "window"),
        stated=f"steps {first}–{last}",
        recomputed=f"within steps 1–{result.steps_per_run}",
        tolerance="1 ≤ first ≤ last ≤ steps_per_run",
        formula="the window lies inside the measured run",
        passed=1 <= first <= last <= result.steps_per_run,
    )
    tokens = (last - first + 1) * workload.global_batch * workload.row_tokens
    yield Check(
        name="Window tokens",
        field=("result", "window_tokens"),
        stated=fmt.number(result.window_tokens),
        recomputed=fmt.number(tokens),
        tolerance="exact",
        formula=(
            f"(last − first + 1) × global_batch × row_tokens = ({last} − {first} + 1) × "
            f"{workload.global_batch} × {fmt.number(workload.row_tokens)}"
        ),
        passed=tokens == result.window_tokens,
    )
    build = workload.dataset.build
    consumed = result.steps_per_run * workload.global_batch
    yield Check(
        name="Dataset rows",
        field=("workload", "dataset", "build", "rows"),
        stated=f"{fmt.number(build.rows)} rows built",
        recomputed=f"{fmt.number(consumed)} rows consumed",
        tolerance="built ≥ consumed",
        formula=f"steps_per_run × global_batch = {result.steps_per_run} × {workload.global_batch}",
        passed=build.rows >= consumed,
    )
    yield Check(
        name="Row length",
        field=("workload", "dataset", "build", "row_tokens"),
        stated=f"{fmt.number(build.row_tokens)} tokens per built row",
        recomputed=f"{fmt.number(workload.row_tokens)} tokens per training row",
        tolerance="exact",
        formula="the build's rows are the rows trained on",
        passed=build.row_tokens == workload.row_tokens,
    )


def _claims(f: RecipeFields, *, today: dt.date, **_: object) -> Iterator[Check]:
    correctness = f.correctness
    yield Check(
        name="Verified status",
        field=("status",),
        stated=f"status {f.status}",
        recomputed=f"correctness {correctness.result}",
        tolerance="verified requires correctness pass",
        formula="a recipe is verified only on passing evidence",
        passed=f.status != "verified" or correctness.result == "pass",
    )
    yield Check(
        name="Correctness evidence",
        field=("correctness", "result"),
        stated=f"correctness {correctness.result}",
        recomputed=f"convergence {correctness.convergence.result}",
        tolerance="pass requires the convergence check to pass",
        formula="the verdict rests on the loss-curve comparison",
        passed=correctness.result != "pass" or correctness.convergence.result == "pass",
    )
    convergence = correctness.convergence
    figures = (convergence.correlation, convergence.final_loss_difference, convergence.pointwise_failures)
    if convergence.result != "not-run":
        yield Check(
            name="Convergence figures",
            field=("correctness", "convergence"),
            stated=f"convergence {convergence.result}",
            recomputed="figures " + ("stated" if None not in figures else "missing"),
            tolerance="a comparison that ran states its correlation, final loss difference and failures",
            formula="correlation, final_loss_difference and pointwise_failures are not null",
            passed=None not in figures,
        )
    passed = f.result.measured <= today
    yield Check(
        name="Measured date",
        field=("result", "measured"),
        stated=f.result.measured.isoformat(),
        # Pages and exports show passing checks: with the date in them, two builds of one commit
        # on different days would differ. Only the failure, which stops the build, names it.
        recomputed="on or before the date of the build"
        if passed
        else f"on or before {today.isoformat()}, the date of the build in UTC",
        tolerance="not in the future",
        formula="a run cannot be measured after the site is built",
        passed=passed,
    )


_CHECKS: tuple[Callable[..., Iterator[Check]], ...] = (_mfu, _price, _fleet, _measurement, _claims)
