"""Every figure a recipe states that can be recomputed is recomputed here, and compared.

A check is a value, not an exception: it carries the stated and recomputed values, the formula,
the tolerance and the outcome, so the page can show a passing check as plainly as the build
reports a failing one. Each rule is declared once with `@rule`, which also puts its one-line
statement on the Methodology page; a rule whose inputs a recipe does not publish does not run
(a check is never made against an invented value).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field
from typing import Any

from .. import flops, fmt
from ..describe import layout_label
from ..problems import Problem, json_path
from ..reading.records import Recipe
from ..reading.reference import PEAK_COLUMN, GpuSpec, InstanceSpec, ModelSpec, Reference, closest
from ..reading.yamlsource import SourceMap
from . import pricebasis
from .scriptinputs import script_inputs

MFU_TOLERANCE = 0.001
"""±0.1 percentage points."""
PRICE_RELATIVE_TOLERANCE = 0.01
PRICE_ABSOLUTE_TOLERANCE = 0.005
"""$/1M tokens: within 1% or half a cent, whichever is larger."""
MFU_CEILING = 0.75
"""No training run reaches 75% MFU in the 6·N convention; the best published ones are near 60%."""
PARAMS_TOLERANCE = 0.01
"""A stated parameter count within 1% of the reference data's."""
PUBLISHER_TOLERANCE = 0.01
"""A publisher's own FLOP/s figure within 1% of ours in their convention, unless the figure names
a release whose printed precision is known (flops.published_tolerance)."""
GPU_HOURS_SLACK = 0.99
_EPSILON = 1e-9  # floating-point slack, so a value exactly at the tolerance passes

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


@dataclass(frozen=True)
class Derived:
    """Figures recomputed from the recipe and the reference data, and the checks against them."""

    gpu: GpuSpec | None
    instance: InstanceSpec | None
    """The recipe's own instance, when it names one."""
    model: ModelSpec | None
    peak_tflops: float | None
    params: int | None
    """N, the active parameters per token MFU counts: the recipe's, else the reference data's."""
    params_from_recipe: bool
    mfu: float | None
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


def _get(record: Any, *names: str) -> Any:
    """`record.a.b.c`, or None where a step is left out."""
    for name in names:
        if record is None:
            return None
        record = getattr(record, name, None)
    return record


def analyse(
    recipe: Recipe,
    locations: SourceMap,
    reference: Reference,
    today: dt.date,
    recipe_ids: Collection[str] = (),
    refused: Collection[str] = (),
) -> tuple[Derived, list[Problem]]:
    """Recompute what can be recomputed; problems for unknown references and failed checks.

    `recipe` may be partial (a file with schema problems, its wrong values left out): every check
    whose inputs are there still runs, so one round reports every problem of a file.
    """
    f = recipe.fields
    problems: list[Problem] = []

    def problem(where: FieldPath, message: str) -> None:
        position = locations.value_at(where)
        problems.append(Problem(recipe.path, position.line, position.column, json_path(where), message))

    gpu = _resolve_gpu(f, reference, problem)
    instance = _resolve_instance(f, reference, gpu, problem)
    model = _resolve_model(f, reference, problem)
    derived = _derive(f, gpu, instance, model, reference)
    derived = Derived(**{**derived.__dict__, "notices": tuple(_input_notices(recipe, f, derived, locations))})
    context = Context(f, derived, today, recipe_ids, refused)
    checks = _explain(
        [check for each in RULES for check in each.run(context)], f, problem, refused=bool(context.refused)
    )
    for check in checks:
        if not check.passed and not check.explained:
            hint = f" {check.hint}" if check.hint else ""
            problem(
                check.field,
                f"{check.name} check failed: stated {check.stated}, recomputed {check.recomputed} "
                f"({check.formula}); tolerance {check.tolerance}.{hint}",
            )
    return _with_checks(derived, tuple(checks)), problems


_MAY_DISAGREE = ("published", "deprecated")


def _explain(
    checks: list[Check], f: RecipeFields, problem: Callable[[FieldPath, str], None], refused: bool
) -> list[Check]:
    """Checks with the recipe's `disagreements` attached; an explanation that explains nothing, or in a
    recipe whose figures are its own, is a problem."""
    disagreements = _get(f, "disagreements") or ()
    if disagreements and _get(f, "status") not in _MAY_DISAGREE:
        problem(
            ("disagreements",),
            "only a published (or deprecated) recipe may explain failing checks: a recipe of your own fixes its "
            "figures instead",
        )
        return checks
    explained = list(checks)
    for index, disagreement in enumerate(disagreements):
        failing = [i for i, check in enumerate(explained) if check.name == disagreement.check and not check.passed]
        if failing:
            for i in failing:
                explained[i] = dataclasses.replace(explained[i], explained=disagreement.note)
        elif not refused:  # with values refused by the schema, the check may not have been made
            names = sorted({check.name for check in checks if not check.passed})
            problem(
                ("disagreements", index, "check"),
                f"explains the {disagreement.check!r} check, which "
                + ("passes" if any(c.name == disagreement.check for c in checks) else "is not made for this recipe")
                + "; remove it"
                + (f" (failing: {', '.join(names)})" if names else ""),
            )
    return explained


def _with_checks(derived: Derived, checks: tuple[Check, ...]) -> Derived:
    return Derived(**{**derived.__dict__, "checks": checks})


def _resolve_gpu(f: RecipeFields, reference: Reference, problem: Callable[[FieldPath, str], None]) -> GpuSpec | None:
    name = _get(f, "gpu", "type")
    if name is None:
        return None
    gpu = reference.gpu(name)
    if gpu is None:
        suggestion = closest(name, [alias for spec in reference.gpus.values() for alias in (spec.key, *spec.aliases)])
        hint = f"; did you mean {suggestion!r}?" if suggestion else ""
        problem(
            ("gpu", "type"),
            f"unknown GPU {name!r}{hint} Add it with its peaks and a source to reference/gpus.yaml. "
            f"Known GPUs: {', '.join(sorted(reference.gpus))}",
        )
    return gpu


def _resolve_instance(
    f: RecipeFields, reference: Reference, gpu: GpuSpec | None, problem: Callable[[FieldPath, str], None]
) -> InstanceSpec | None:
    name = _get(f, "gpu", "instance")
    if name is None:
        return None
    instance = reference.instance(name)
    if instance is None:
        # A misspelling is most likely one of the instances of the recipe's own GPU.
        own = [key for key, spec in reference.instances.items() if gpu is not None and spec.gpu == gpu.key]
        suggestion = closest(name, own) or closest(name, list(reference.instances))
        hint = f"; did you mean {suggestion!r}?" if suggestion else ""
        shown = own or sorted(reference.instances)
        problem(
            ("gpu", "instance"),
            f"unknown instance {name!r}{hint} Add it with its price and source to reference/instances.yaml, "
            f"or leave gpu.instance out when the run used no rented instance. Known"
            f"{f' for {gpu.key}' if own else ''}: " + ", ".join(shown),
        )
    return instance


def _resolve_model(
    f: RecipeFields, reference: Reference, problem: Callable[[FieldPath, str], None]
) -> ModelSpec | None:
    name = _get(f, "model")
    if name is None:
        return None
    model = reference.model(name)
    if model is None:
        names = [alias for spec in reference.models.values() for alias in (spec.key, *spec.aliases)]
        suggestion = closest(name, names)
        hint = f"; did you mean {suggestion!r}?" if suggestion else ""
        problem(
            ("model",),
            f"unknown model {name!r}{hint} Add it to reference/models.yaml with its total and active "
            "parameters and a source (its published configuration, at a commit), so its MFU can be "
            f"recomputed. Known models: {', '.join(sorted(reference.models))}",
        )
    return model


def _derive(
    f: RecipeFields, gpu: GpuSpec | None, instance: InstanceSpec | None, model: ModelSpec | None, reference: Reference
) -> Derived:
    precision = _get(f, "workload", "precision")
    tokens = _get(f, "result", "tokens_per_s_per_gpu")
    peak = gpu.peak_tflops(precision) if gpu and precision else None
    stated_params = _get(f, "result", "active_params", "count")
    params = stated_params or (model.active_params if model else None)
    mfu = 6 * params * tokens / (peak * 1e12) if params and tokens and peak else None

    basis_spec = pricebasis.basis_instance(reference, gpu.key) if gpu is not None else None
    basis = Price(basis_spec, basis=True) if basis_spec else None
    price = Price(instance, basis=False) if instance is not None else basis
    usd = pricebasis.usd_per_million_tokens(basis.usd_per_gpu_hour, tokens) if basis and tokens else None
    own_usd = pricebasis.usd_per_million_tokens(instance.usd_per_gpu_hour, tokens) if instance and tokens else None
    gpu_hours = _get(f, "result", "gpu_hours")
    measured = _get(f, "result", "measured")

    dp, dp_derived = _get(f, "layout", "dp"), False
    count, tp, pp, cp = (_get(f, "gpu", "count"), _get(f, "layout", "tp"), _get(f, "layout", "pp"), _cp(f))
    if dp is None and count and tp and pp and cp and count % (tp * pp * cp) == 0:
        dp, dp_derived = count // (tp * pp * cp), True

    return Derived(
        gpu=gpu,
        instance=instance,
        model=model,
        peak_tflops=peak,
        params=params,
        params_from_recipe=stated_params is not None,
        mfu=mfu,
        basis=basis,
        price=price,
        usd_per_million_tokens=usd,
        instance_usd_per_million_tokens=own_usd,
        tokens_per_gpu_hour=tokens * 3600 if tokens else None,
        run_cost_usd=gpu_hours * price.usd_per_gpu_hour if gpu_hours and price else None,
        price_age_days=(measured - price.instance.sourced.as_of).days if measured and price else None,
        dp=dp,
        dp_derived=dp_derived,
        label=layout_label(f),
        publisher_figures=tuple(_publisher_figures(f, model)),
        inputs=_inputs(f),
        checks=(),
    )


def _inputs(f: RecipeFields) -> tuple[tuple[str, str | None], ...]:
    """The script's inputs, described or not, in the order the script reads them; then those the
    recipe describes that the script does not appear to read (set by a file it sources, say)."""
    run = _get(f, "run")
    # In a partial record a refused name is None: it describes nothing.
    described = {item.name: item.description for item in _get(f, "inputs") or () if item.name is not None}
    environment = [name for name, _ in _get(f, "env") or ()]
    read = [item.written for item in script_inputs(run, environment)] if run else []
    listed = [(written, described.get(written.removeprefix("$"))) for written in read]
    listed += [(_written(name), text) for name, text in described.items() if _written(name) not in read]
    return tuple(listed)


def _written(name: str) -> str:
    return name if name.startswith("<") else f"${name}"


def _input_notices(recipe: Recipe, f: RecipeFields, derived: Derived, locations: SourceMap) -> Iterator[Problem]:
    undescribed = [written for written, text in derived.inputs if text is None]
    if not undescribed:
        return
    position = locations.value_at(("run",))
    yield Problem(
        recipe.path,
        position.line,
        position.column,
        "$.run",
        f"the launch script reads {', '.join(undescribed)}, which it does not set and `inputs` "
        "does not describe; say what to provide, so a reader can run it",
        warning=True,
    )


def _cp(f: RecipeFields) -> int | None:
    """The context-parallel degree; a recipe of schema version 1 always states it."""
    return _get(f, "layout", "cp")


def _publisher_figures(f: RecipeFields, model: ModelSpec | None) -> Iterator[PublisherFigure]:
    tokens = _get(f, "result", "tokens_per_s_per_gpu")
    seq = _get(f, "workload", "row_tokens")
    for figure in _get(f, "result", "publisher_figures") or ():
        recomputed = None
        if figure.convention == "megatron" and model and model.architecture and tokens and seq:
            per_token = flops.model_flops_per_token(
                model.architecture,
                seq,
                mtp_layers=_mtp_layers(f, model),
                tensor_parallel=_get(f, "layout", "tp") or 1,
                release=figure.release,
            )
            recomputed = per_token * tokens / 1e12
        tolerance = flops.published_tolerance(figure.release) if figure.release else PUBLISHER_TOLERANCE
        yield PublisherFigure(figure.name, figure.value, recomputed, figure.convention, figure.note, tolerance)


def _mtp_layers(f: RecipeFields, model: ModelSpec) -> int:
    """The recipe's multi-token-prediction layers, else the model's (DeepSeek-V3 trains one)."""
    stated = _get(f, "layout", "mtp_layers")
    return stated if stated is not None else int((model.architecture or {}).get("mtp_layers", 0))


# -- the rules ------------------------------------------------------------------------------------


@rule("MFU", "A stated MFU is within ±0.1 percentage points of 6 × N × tokens/s per GPU ÷ the GPU's dense peak.")
def _mfu(ctx: Context) -> Iterator[Check]:
    stated = _get(ctx.f, "result", "mfu")
    if stated is None or ctx.mfu is None:
        return
    yield Check(
        name="MFU",
        field=("result", "mfu"),
        stated=fmt.percent(stated, 2),
        recomputed=fmt.percent(ctx.mfu, 3),
        tolerance="±0.1 percentage points",
        formula=_mfu_formula(ctx),
        passed=abs(stated - ctx.mfu) <= MFU_TOLERANCE + _EPSILON,
    )


def _mfu_formula(ctx: Context) -> str:
    precision = _get(ctx.f, "workload", "precision")
    return (
        f"6 × {fmt.number(ctx.params)} active parameters × {fmt.as_written(ctx.f.result.tokens_per_s_per_gpu)} "
        f"tokens/s ÷ {fmt.as_written(ctx.peak_tflops)} TFLOP/s ({ctx.gpu.key} dense "
        f"{PEAK_COLUMN[precision].upper()} peak)"
    )


@rule(
    "Plausible MFU",
    f"MFU (ours, or the stated one) is at most {MFU_CEILING:.0%}: no training run comes near it, and a "
    "throughput per node or per step written as per GPU is the usual cause.",
)
def _plausible_mfu(ctx: Context) -> Iterator[Check]:
    mfu = ctx.mfu if ctx.mfu is not None else _get(ctx.f, "result", "mfu")
    tokens = _get(ctx.f, "result", "tokens_per_s_per_gpu")
    if mfu is None or tokens is None:
        return
    count = _get(ctx.f, "gpu", "count")
    per_node = _get(ctx.f, "gpu", "per_node")
    hint = "A throughput per node, per step or for the whole fleet written as per GPU is the usual cause"
    if per_node and per_node > 1:
        hint += f" (per GPU of a node of {per_node}: {fmt.number(tokens / per_node, 1)} tokens/s)"
    elif count and count > 1:
        hint += f" (per GPU of {count}: {fmt.number(tokens / count, 1)} tokens/s)"
    yield Check(
        name="Plausible MFU",
        field=("result", "tokens_per_s_per_gpu"),
        stated=f"{fmt.number(tokens, 1)} tokens/s per GPU",
        recomputed=f"MFU {fmt.percent(mfu, 1)}",
        tolerance=f"MFU at most {fmt.percent(MFU_CEILING, 0)}",
        formula=_mfu_formula(ctx) if ctx.mfu is not None else "the stated MFU",
        passed=mfu <= MFU_CEILING + _EPSILON,
        hint=hint + ".",
    )


@rule(
    "Parameter count",
    f"The N a recipe states is within {PARAMS_TOLERANCE:.0%} of the model's active parameters in the reference "
    "data, or the recipe says why it is not.",
)
def _parameter_count(ctx: Context) -> Iterator[Check]:
    stated = _get(ctx.f, "result", "active_params", "count")
    model = ctx.model
    if stated is None or model is None:
        return
    close = abs(stated - model.active_params) <= PARAMS_TOLERANCE * model.active_params
    explained = _get(ctx.f, "result", "active_params", "note") is not None
    hint = ""
    if model.total_params != model.active_params and abs(stated - model.total_params) <= (
        PARAMS_TOLERANCE * model.total_params
    ):
        hint = (
            f"{fmt.number(stated)} is {model.key}'s total parameter count; a mixture of experts trains "
            f"{fmt.number(model.active_params)} active parameters per token, which is what MFU counts."
        )
    yield Check(
        name="Parameter count",
        field=("result", "active_params", "count"),
        stated=fmt.number(stated),
        recomputed=f"{fmt.number(model.active_params)} active ({fmt.number(model.total_params)} in all)",
        tolerance="within 1%, or a note that says why",
        formula=f"{model.key} in reference/models.yaml",
        passed=close or explained,
        hint=hint,
    )


@rule("Precision", "The GPU's tensor cores run the recipe's precision (reference/gpus.yaml lists the formats).")
def _precision(ctx: Context) -> Iterator[Check]:
    precision = _get(ctx.f, "workload", "precision")
    if precision is None or ctx.gpu is None:
        return
    yield Check(
        name="Precision",
        field=("workload", "precision"),
        stated=precision,
        recomputed=f"{ctx.gpu.key} runs {', '.join(ctx.gpu.precisions)}",
        tolerance="one of the GPU's formats",
        formula=f"precisions of the {ctx.gpu.name} in reference/gpus.yaml",
        passed=ctx.gpu.runs(precision),
        hint=f"A {precision} run on {ctx.gpu.key} cannot be right: check the GPU type and the precision.",
    )
    scaling = _get(ctx.f, "workload", "fp8_scaling")
    if scaling is not None:
        yield Check(
            name="FP8 scaling",
            field=("workload", "fp8_scaling"),
            stated=f"fp8_scaling {scaling}",
            recomputed=f"precision {precision}",
            tolerance="fp8_scaling only with precision fp8",
            formula="scaling recipes belong to FP8 (MXFP8 and NVFP4 carry their block scales)",
            passed=precision == "fp8",
        )


@rule(
    "$/1M tokens",
    "A stated $ per million tokens is within 1% (or half a cent) of the instance's price ÷ throughput.",
)
def _price(ctx: Context) -> Iterator[Check]:
    f = ctx.f
    field = ("result", "usd_per_million_tokens")
    given_instance = _get(f, "gpu", "instance")
    stated = _get(f, "result", "usd_per_million_tokens")
    if f.schema_version == 1 and given_instance is None:
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
    instance = ctx.instance
    tokens = _get(f, "result", "tokens_per_s_per_gpu")
    if instance is None or tokens is None or (stated is None and f.schema_version != 1):
        return
    usd = pricebasis.usd_per_million_tokens(instance.usd_per_gpu_hour, tokens)
    tolerance = max(PRICE_RELATIVE_TOLERANCE * usd, PRICE_ABSOLUTE_TOLERANCE)
    yield Check(
        name="$/1M tokens",
        field=field,
        stated="null" if stated is None else fmt.usd(stated, 4),
        recomputed=fmt.usd(usd, 4),
        tolerance=f"±{fmt.usd(tolerance, 4)} (1% or half a cent, whichever is larger)",
        formula=(
            f"${fmt.as_written(instance.usd_per_hour)}/h ÷ {instance.gpus} GPUs ÷ "
            f"({fmt.as_written(tokens)} tokens/s × 3,600) × 1,000,000"
        ),
        passed=stated is not None and abs(stated - usd) <= tolerance + _EPSILON,
    )


@rule(
    "GPU count",
    "TP × PP × CP × DP equals the GPU count; without a published DP, the count is a multiple of TP × PP × CP.",
)
def _gpu_count(ctx: Context) -> Iterator[Check]:
    layout = ctx.f.layout
    count, tp, pp, cp = _get(ctx.f, "gpu", "count"), _get(layout, "tp"), _get(layout, "pp"), _cp(ctx.f)
    if None in (count, tp, pp, cp):
        return
    dp = _get(layout, "dp")
    if dp is not None:
        product = tp * pp * cp * dp
        yield Check(
            name="GPU count",
            field=("gpu", "count"),
            stated=f"{count} GPUs",
            recomputed=f"{product} GPUs",
            tolerance="exact",
            formula=f"TP × PP × CP × DP = {tp} × {pp} × {cp} × {dp}",
            passed=product == count,
        )
        return
    yield Check(
        name="GPU count",
        field=("gpu", "count"),
        stated=f"{count} GPUs",
        recomputed=f"a multiple of {tp * pp * cp} GPUs",
        tolerance="a whole data-parallel degree",
        formula=f"TP × PP × CP = {tp} × {pp} × {cp}; DP = GPU count ÷ that",
        passed=count % (tp * pp * cp) == 0,
    )


@rule("Whole nodes", "The GPU count is a whole number of nodes.")
def _whole_nodes(ctx: Context) -> Iterator[Check]:
    count, per_node = _get(ctx.f, "gpu", "count"), _get(ctx.f, "gpu", "per_node")
    if count is None or per_node is None:
        return
    yield Check(
        name="Whole nodes",
        field=("gpu", "per_node"),
        stated=f"{count} GPUs, {per_node} per node",
        recomputed=fmt.plural(count / per_node, "node"),
        tolerance="a whole number of nodes",
        formula="gpu.count ÷ gpu.per_node",
        passed=count % per_node == 0,
    )


@rule("GPU memory", "A stated memory per GPU is one the GPU is sold with.")
def _gpu_memory(ctx: Context) -> Iterator[Check]:
    memory = _get(ctx.f, "gpu", "memory_gb")
    if memory is None or ctx.gpu is None:
        return
    yield Check(
        name="GPU memory",
        field=("gpu", "memory_gb"),
        stated=f"{fmt.as_written(memory)} GB",
        recomputed=" or ".join(f"{fmt.as_written(option)} GB" for option in ctx.gpu.memory_options),
        tolerance="exact",
        formula=f"memory of the {ctx.gpu.name} in reference/gpus.yaml",
        passed=memory in ctx.gpu.memory_options,
    )


@rule("Instance", "The instance carries the recipe's GPU, and the GPU count is a whole number of instances.")
def _instance(ctx: Context) -> Iterator[Check]:
    instance, gpu, count = ctx.instance, ctx.gpu, _get(ctx.f, "gpu", "count")
    if instance is None:
        return
    if gpu is not None:
        yield Check(
            name="Instance GPU",
            field=("gpu", "type"),
            stated=gpu.key,
            recomputed=instance.gpu,
            tolerance="the same GPU",
            formula=f"the GPU of {instance.key} in reference/instances.yaml",
            passed=instance.gpu == gpu.key,
        )
    if count is not None:
        yield Check(
            name="Whole instances",
            field=("gpu", "count"),
            stated=f"{count} GPUs",
            recomputed=f"{fmt.plural(count / instance.gpus, 'instance')} of {fmt.plural(instance.gpus, 'GPU')}",
            tolerance="a whole number of instances (they are billed whole)",
            formula=f"gpu.count ÷ GPUs per {instance.key}",
            passed=count % instance.gpus == 0,
        )


@rule("Expert layout", "EP × ETP divides TP × CP × DP: experts are spread over the GPUs of one pipeline stage.")
def _expert_layout(ctx: Context) -> Iterator[Check]:
    layout = ctx.f.layout
    ep, etp, tp, cp, dp = _get(layout, "ep"), _get(layout, "etp") or 1, _get(layout, "tp"), _cp(ctx.f), ctx.dp
    if None in (ep, tp, cp, dp):
        return
    expert, non_pipeline = ep * etp, tp * cp * dp
    yield Check(
        name="Expert layout",
        field=("layout", "ep"),
        stated=f"EP × ETP = {ep} × {etp} = {expert}",
        recomputed=f"TP × CP × DP = {tp} × {cp} × {dp} = {non_pipeline}",
        tolerance="EP × ETP divides TP × CP × DP",
        formula="experts are spread over the GPUs of one pipeline stage",
        passed=non_pipeline % expert == 0,
    )


@rule(
    "Global batch",
    "The global batch is a whole number of microbatches per data-parallel rank; with a published "
    "gradient accumulation, exactly MBS × DP × GA.",
)
def _global_batch(ctx: Context) -> Iterator[Check]:
    gbs = _get(ctx.f, "workload", "global_batch")
    mbs, ga, dp = _get(ctx.f, "layout", "rows_per_microbatch"), _get(ctx.f, "layout", "gradient_accumulation"), ctx.dp
    if gbs is None or mbs is None or dp is None:
        return
    dp_text = f"{dp} (derived)" if ctx.dp_derived else str(dp)
    if ga is not None:
        yield Check(
            name="Global batch",
            field=("workload", "global_batch"),
            stated=f"{fmt.number(gbs)} rows",
            recomputed=f"{fmt.number(mbs * dp * ga)} rows",
            tolerance="exact",
            formula=f"MBS × DP × GA = {mbs} × {dp_text} × {ga}",
            passed=gbs == mbs * dp * ga,
        )
        return
    yield Check(
        name="Global batch",
        field=("workload", "global_batch"),
        stated=f"{fmt.number(gbs)} rows",
        recomputed=f"a multiple of {fmt.plural(mbs * dp, 'row')}",
        tolerance="a whole number of microbatches per DP rank",
        formula=f"rows per microbatch × DP = {mbs} × {dp_text}",
        passed=gbs % (mbs * dp) == 0,
    )


@rule("Layer split", "An uneven layer split names one layer count per pipeline stage.")
def _layer_split(ctx: Context) -> Iterator[Check]:
    split, pp = _get(ctx.f, "layout", "layer_split"), _get(ctx.f, "layout", "pp")
    if split is None or pp is None:
        return
    yield Check(
        name="Layer split",
        field=("layout", "layer_split"),
        stated=f"{len(split)} stages",
        recomputed=f"PP = {pp} stages",
        tolerance="one layer count per pipeline stage",
        formula="len(layout.layer_split) = layout.pp",
        passed=len(split) == pp,
    )


@rule(
    "Measurement",
    "The measurement window lies within the run; its tokens are (last − first + 1) × global batch × "
    "row length; the dataset build holds the rows the run consumed, of the length trained on.",
)
def _measurement(ctx: Context) -> Iterator[Check]:
    result, workload = ctx.f.result, ctx.f.workload
    window, steps = _get(result, "window"), _get(result, "steps_per_run")
    gbs, seq = _get(workload, "global_batch"), _get(workload, "row_tokens")
    if window is not None and len(window) == 2 and steps is not None:
        first, last = window
        yield Check(
            name="Measurement window",
            field=("result", "window"),
            stated=f"steps {first}–{last}",
            recomputed=f"within steps 1–{steps}",
            tolerance="1 ≤ first ≤ last ≤ steps_per_run",
            formula="the window lies inside the measured run",
            passed=1 <= first <= last <= steps,
        )
        stated_tokens = _get(result, "window_tokens")
        if stated_tokens is not None and gbs is not None and seq is not None:
            tokens = (last - first + 1) * gbs * seq
            yield Check(
                name="Window tokens",
                field=("result", "window_tokens"),
                stated=fmt.number(stated_tokens),
                recomputed=fmt.number(tokens),
                tolerance="exact",
                formula=(
                    f"(last − first + 1) × global_batch × row_tokens = ({last} − {first} + 1) × "
                    f"{gbs} × {fmt.number(seq)}"
                ),
                passed=tokens == stated_tokens,
            )
    build = _get(workload, "dataset", "build")
    built_rows = _get(build, "rows")
    if built_rows is not None and steps is not None and gbs is not None:
        consumed = steps * gbs
        yield Check(
            name="Dataset rows",
            field=("workload", "dataset", "build", "rows"),
            stated=f"{fmt.number(built_rows)} rows built",
            recomputed=f"{fmt.number(consumed)} rows consumed",
            tolerance="built ≥ consumed",
            formula=f"steps_per_run × global_batch = {steps} × {gbs}",
            passed=built_rows >= consumed,
        )
    built_length = _get(build, "row_tokens")
    if built_length is not None and seq is not None:
        yield Check(
            name="Row length",
            field=("workload", "dataset", "build", "row_tokens"),
            stated=f"{fmt.number(built_length)} tokens per built row",
            recomputed=f"{fmt.number(seq)} tokens per training row",
            tolerance="exact",
            formula="the build's rows are the rows trained on",
            passed=built_length == seq,
        )


@rule(
    "GPU-hours",
    "Stated GPU-hours are at least what the run's steps, global batch and row length take at its throughput.",
)
def _gpu_hours(ctx: Context) -> Iterator[Check]:
    result, workload = ctx.f.result, ctx.f.workload
    hours, steps = _get(result, "gpu_hours"), _get(result, "steps_per_run")
    gbs, seq = _get(workload, "global_batch"), _get(workload, "row_tokens")
    tokens = _get(result, "tokens_per_s_per_gpu")
    if None in (hours, steps, gbs, seq, tokens):
        return
    needed = steps * gbs * seq / tokens / 3600
    yield Check(
        name="GPU-hours",
        field=("result", "gpu_hours"),
        stated=f"{fmt.as_written(hours)} GPU-hours",
        recomputed=f"at least {fmt.number(needed, 2)} GPU-hours",
        tolerance="stated ≥ needed (1% slack)",
        formula=(
            f"steps × global batch × row length ÷ tokens/s per GPU ÷ 3,600 = {fmt.number(steps)} × "
            f"{fmt.number(gbs)} × {fmt.number(seq)} ÷ {fmt.as_written(tokens)} ÷ 3,600"
        ),
        passed=hours >= needed * GPU_HOURS_SLACK,
        hint="GPU-hours count every GPU: GPUs × hours, not hours alone.",
    )


_EVIDENCE: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("stack.framework", ("stack", "framework")),
    ("stack.pytorch", ("stack", "pytorch")),
    ("stack.python", ("stack", "python")),
    ("stack.source", ("stack", "source")),
    ("workload.dataset.revision", ("workload", "dataset", "revision")),
    ("workload.dataset.rows_sha256", ("workload", "dataset", "rows_sha256")),
    ("result.window", ("result", "window")),
    ("result.step_time_cv_percent", ("result", "step_time_cv_percent")),
    ("result.gpu_hours", ("result", "gpu_hours")),
    ("correctness.convergence", ("correctness", "convergence")),
)


@rule(
    "Evidence",
    "A verified recipe carries the full evidence (stack pins, dataset provenance, measurement window, step-time "
    "variation, GPU-hours and a convergence check) and passes it; a correctness pass rests on a passing "
    "convergence check whose figures are stated; nothing was measured after the build.",
)
def _evidence(ctx: Context) -> Iterator[Check]:
    f = ctx.f
    status = _get(f, "status")
    correctness = _get(f, "correctness")
    verdicts = (("correctness", "result"), ("correctness", "convergence", "result"))
    if status == "verified" and not any(ctx.was_refused(path) for path in verdicts):
        missing = [name for name, path in _EVIDENCE if _get(f, *path) is None and not ctx.was_refused(path)]
        verdict = _get(correctness, "result")
        convergence = _get(correctness, "convergence", "result")
        passing = verdict == "pass" and convergence == "pass"
        yield Check(
            name="Verified status",
            field=("status",),
            stated="status verified",
            recomputed=("missing " + ", ".join(missing) if missing else "evidence complete")
            + f"; correctness {verdict or 'not stated'}, convergence {convergence or 'not stated'}",
            tolerance="verified requires the full evidence and a correctness pass",
            formula="a recipe is verified only on complete, passing evidence",
            passed=not missing and passing,
            hint="Without it, the recipe is `published` (figures from a public report) or `unverified`.",
        )
    convergence = _get(correctness, "convergence")
    verdict = _get(correctness, "result")
    if verdict is not None and convergence is not None and convergence.result is not None:
        yield Check(
            name="Correctness evidence",
            field=("correctness", "result"),
            stated=f"correctness {verdict}",
            recomputed=f"convergence {convergence.result}",
            tolerance="pass requires the convergence check to pass",
            formula="the verdict rests on the loss-curve comparison",
            passed=verdict != "pass" or convergence.result == "pass",
        )
    if convergence is not None and convergence.result not in (None, "not-run"):
        figures = (convergence.correlation, convergence.final_loss_difference, convergence.pointwise_failures)
        yield Check(
            name="Convergence figures",
            field=("correctness", "convergence"),
            stated=f"convergence {convergence.result}",
            recomputed="figures " + ("stated" if None not in figures else "missing"),
            tolerance="a comparison that ran states its correlation, final loss difference and failures",
            formula="correlation, final_loss_difference and pointwise_failures are not null",
            passed=None not in figures,
        )
    measured = _get(f, "result", "measured")
    if measured is not None:
        passed = measured <= ctx.today
        yield Check(
            name="Measured date",
            field=("result", "measured"),
            stated=measured.isoformat(),
            # Pages and exports show passing checks: with the date in them, two builds of one commit
            # on different days would differ. Only the failure, which stops the build, names it.
            recomputed="on or before the date of the build"
            if passed
            else f"on or before {ctx.today.isoformat()}, the date of the build in UTC",
            tolerance="not in the future",
            formula="a run cannot be measured after the site is built",
            passed=passed,
        )


_PINNED = (
    re.compile(r"^https://(github\.com|gitlab\.com)/[^/]+/[^/]+/(-/)?(blob|tree|raw|commit)/[0-9a-f]{40}(/|#|$)"),
    re.compile(r"^https://raw\.githubusercontent\.com/[^/]+/[^/]+/[0-9a-f]{40}/"),
    re.compile(r"^https?://arxiv\.org/(abs|pdf)/\d{4}\.\d{4,5}v\d+"),
    re.compile(r"^https://(dx\.)?doi\.org/10\.\d{4,9}/"),
    re.compile(r"^https?://web\.archive\.org/web/\d{14}/"),
)


def pinned(url: str) -> bool:
    """A link whose text cannot change: a repository file at a full commit, a versioned arXiv
    paper, a DOI, or an archived page."""
    return any(pattern.match(url) for pattern in _PINNED)


@rule(
    "Pinned source",
    "A cited source is pinned: a repository link at a full 40-character commit, a versioned arXiv paper, a "
    "DOI or an archived page, so the cited text cannot change under the recipe.",
)
def _pinned_source(ctx: Context) -> Iterator[Check]:
    url = _get(ctx.f, "source", "url")
    if url is None:
        return
    yield Check(
        name="Pinned source",
        field=("source", "url"),
        stated=url,
        recomputed="pinned" if pinned(url) else "not pinned",
        tolerance="a link that cannot change",
        formula="github.com/<owner>/<repo>/blob/<40-hex commit>/..., arXiv vN, doi.org, web.archive.org",
        passed=pinned(url),
        hint="Link the file at the commit you read it at (on GitHub, press y on the file's page).",
    )


@rule(
    "Publisher's figures",
    "A figure the publisher states in their own convention (Megatron's model TFLOP/s, which counts attention) "
    "agrees with ours in that convention to the precision the publisher prints (0.5%; 2.5% for releases that "
    "round their throughput; 1% when no release is named); a published recipe may explain a difference in "
    "`disagreements`.",
)
def _publisher(ctx: Context) -> Iterator[Check]:
    for index, figure in enumerate(ctx.publisher_figures):
        if figure.recomputed is None:
            continue
        difference = figure.stated / figure.recomputed - 1
        sign = "+" if difference >= 0 else "−"
        yield Check(
            name="Publisher's figures",
            field=("result", "publisher_figures", index, "value"),
            stated=f"{figure.name} {fmt.as_written(figure.stated)}",
            recomputed=f"{fmt.number(figure.recomputed, 1)} ({sign}{fmt.percent(abs(difference), 2)})",
            tolerance=f"±{fmt.percent(figure.tolerance, 1)}",
            formula=f"{figure.convention} model FLOPs per token × tokens/s per GPU (flops.py)",
            passed=abs(difference) <= figure.tolerance + _EPSILON,
            hint="If the publisher counts differently (a formula of their own for this method), say why in "
            "`disagreements`.",
        )


@rule("Superseded by", "A deprecated recipe's replacement is a recipe of the catalogue.")
def _superseded_by(ctx: Context) -> Iterator[Check]:
    replacement = _get(ctx.f, "deprecation", "superseded_by")
    if replacement is None:
        return
    yield Check(
        name="Superseded by",
        field=("deprecation", "superseded_by"),
        stated=replacement,
        recomputed="a recipe of the catalogue" if replacement in ctx.recipe_ids else "no such recipe",
        tolerance="an existing recipe id",
        formula="recipes/<id>.yaml exists",
        passed=replacement in ctx.recipe_ids,
        hint=f"{replacement!r} is not a recipe of the catalogue: name the id of the recipe that replaces this one.",
    )


def check_statements() -> list[tuple[str, str]]:
    """(name, statement) of every rule, for the Methodology page."""
    return [(each.name, each.statement) for each in RULES]
