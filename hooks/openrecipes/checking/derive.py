"""Figures recomputed from a recipe and the reference data, and every rule run against them (`analyse`).

The rules are in `rules.py`, registered when it is imported; what they compare is in `figures.py`."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable, Collection, Iterator

from .. import flops
from ..describe import layout_label
from ..problems import Problem, json_path
from ..reading.dryruns import DryRunRecord
from ..reading.records import Recipe
from ..reading.reference import PEAK_COLUMN, GpuSpec, InstanceSpec, ModelSpec, Reference, closest
from ..reading.yamlsource import SourceMap
from . import (
    pricebasis,
    publisher,
    rules,  # noqa: F401  (imported for its effect: every @rule registers itself in RULES)
    scriptcheck,
)
from .dryrunstate import dry_run_outcome
from .figures import (
    PUBLISHER_TOLERANCE,
    RULES,
    Check,
    Context,
    Derived,
    FieldPath,
    Price,
    PublisherFigure,
    RecipeFields,
    cp_degree,
    lookup,
)
from .launchinputs import UNDESCRIBED, documented_inputs, launch_scripts, undescribed_in_steps, unread_inputs
from .readiness import readiness
from .scriptinputs import script_inputs


def analyse(
    recipe: Recipe,
    locations: SourceMap,
    reference: Reference,
    today: dt.date,
    recipe_ids: Collection[str] = (),
    refused: Collection[str] = (),
    complete: bool = True,
    dry_run: DryRunRecord | None = None,
) -> tuple[Derived, list[Problem]]:
    """Recompute what can be recomputed; problems for unknown references and failed checks.

    `recipe` may be partial (a file with schema problems, its wrong values left out): every check
    whose inputs are there still runs, so one round reports every problem of a file. Its launch
    scripts are made and checked only when it is `complete` (no schema problem at all).
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
    found = list(_input_notices(recipe, f, derived, locations, refused))
    problems += [notice for notice in found if not notice.warning]
    # Scripts are made of a whole record only: a partial one has lost the values they are made of.
    scripts = scriptcheck.checked_scripts(f) if complete else ()
    problems += scriptcheck.script_problems(recipe.path, f, locations, scripts)
    outcome = dry_run_outcome(f, dry_run) if complete else None
    derived = Derived(
        **{
            **derived.__dict__,
            "notices": tuple(notice for notice in found if notice.warning),
            "scripts": scripts,
            "dry_run": outcome,
            "readiness": readiness(f, derived.inputs, outcome) if complete else None,
        }
    )
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


_MAY_DISAGREE = ("published", "publisher-verified", "deprecated")
"""Statuses whose figures are someone else's, as they published them: a failing check is explained, not fixed."""


def _explain(
    checks: list[Check], f: RecipeFields, problem: Callable[[FieldPath, str], None], refused: bool
) -> list[Check]:
    """Checks with the recipe's `disagreements` attached; an explanation that explains nothing, or in a
    recipe whose figures are its own, is a problem."""
    disagreements = lookup(f, "disagreements") or ()
    if disagreements and lookup(f, "status") not in _MAY_DISAGREE:
        problem(
            ("disagreements",),
            "only a published, publisher-verified (or deprecated) recipe may explain failing checks: a recipe of your "
            "own fixes its "
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
    name = lookup(f, "gpu", "type")
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
    name = lookup(f, "gpu", "instance")
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
    name = lookup(f, "model")
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
    precision = lookup(f, "workload", "precision")
    tokens = lookup(f, "result", "tokens_per_s_per_gpu")
    peak = gpu.peak_tflops(precision) if gpu and precision else None
    bf16_peak = gpu.peak_tflops("bf16") if gpu else None
    stated_params = lookup(f, "result", "active_params", "count")
    # One N per model, whatever a recipe states: the reference data's count without the input
    # embedding when the architecture gives it, so every recipe of a model is on one scale; else
    # the recipe's own count, else the publisher's headline count. A stated MFU is checked with
    # the N the recipe states (`mfu_as_stated`): its author's arithmetic, in its author's N.
    exact = model is not None and model.architecture is not None
    params = (
        flops.flops_params(model.active_params, model.architecture)
        if exact
        else stated_params or (model.active_params if model else None)
    )
    method = lookup(f, "workload", "method", "kind")
    per_token = flops.training_flops_per_token(params, method) if params else None
    mfu = per_token * tokens / (peak * 1e12) if per_token and tokens and peak else None
    mfu_bf16 = per_token * tokens / (bf16_peak * 1e12) if per_token and tokens and bf16_peak else None
    as_stated = flops.training_flops_per_token(stated_params, method) if stated_params else per_token
    mfu_as_stated = as_stated * tokens / (peak * 1e12) if as_stated and tokens and peak else None

    basis_spec = pricebasis.basis_instance(reference, gpu.key) if gpu is not None else None
    basis = Price(basis_spec, basis=True) if basis_spec else None
    price = Price(instance, basis=False) if instance is not None else basis
    usd = pricebasis.usd_per_million_tokens(basis.usd_per_gpu_hour, tokens) if basis and tokens else None
    own_usd = pricebasis.usd_per_million_tokens(instance.usd_per_gpu_hour, tokens) if instance and tokens else None
    gpu_hours = lookup(f, "result", "gpu_hours")
    measured = lookup(f, "result", "measured")

    figure_inputs = _figure_inputs(f, model, gpu, params, method)
    dp, dp_derived = lookup(f, "layout", "dp"), False
    count, tp, pp, cp = (lookup(f, "gpu", "count"), lookup(f, "layout", "tp"), lookup(f, "layout", "pp"), cp_degree(f))
    if dp is None and count and tp and pp and cp and count % (tp * pp * cp) == 0:
        dp, dp_derived = count // (tp * pp * cp), True

    return Derived(
        gpu=gpu,
        instance=instance,
        model=model,
        peak_tflops=peak,
        params=params,
        params_from_recipe=stated_params is not None and not exact,
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
        publisher_figures=tuple(_publisher_figures(f, model, figure_inputs)),
        inputs=_inputs(f),
        checks=(),
        method=method,
        flops_per_token=per_token,
        peak_column=PEAK_COLUMN[precision] if peak else None,
        bf16_peak_tflops=bf16_peak,
        mfu_bf16=mfu_bf16,
        stated_params=stated_params,
        mfu_as_stated=mfu_as_stated,
        tokens_from=publisher.derived_throughput(lookup(f, "result", "publisher_figures") or (), figure_inputs),
    )


def _inputs(f: RecipeFields) -> tuple[tuple[str, str | None], ...]:
    """The script's inputs, described or not, in the order the script reads them; then those the
    recipe describes that the script does not appear to read (set by a file it sources, say)."""
    run = lookup(f, "run")
    # In a partial record a refused name is None: it describes nothing.
    described = {item.name: item.description for item in lookup(f, "inputs") or () if item.name is not None}
    environment = [name for name, _ in lookup(f, "env") or ()]
    read = [item.written for item in script_inputs(run, environment)] if run else []
    listed = [(written, described.get(written.removeprefix("$"))) for written in read]
    listed += [(_written(name), text) for name, text in described.items() if _written(name) not in read]
    return tuple(listed)


def _written(name: str) -> str:
    return name if name.startswith("<") else f"${name}"


def launch_inputs(f: RecipeFields) -> tuple[tuple[str, str | None], ...]:
    """A documented launch's inputs, as `_inputs` gives the script's: what its checkout and command
    read (its `env` set) and the variables its placeholders stand for (launchinputs.py), described
    or not, then those `launch.inputs` describes that the command does not read."""
    launch = lookup(f, "launch")
    if lookup(launch, "command") is None:
        return ()
    variables, _ = documented_inputs(launch)
    listed = [
        (item.written if item.written == item.name else f"{item.written} (as ${item.name})", None)
        if item.description == UNDESCRIBED
        else (item.written, item.description)
        for item in variables
    ]
    environment = [name for name, _ in lookup(launch, "env") or ()]
    named = {item.name for item in variables}
    for script in launch_scripts(launch):
        for read in script_inputs(script, environment):
            if read.kind == "variable" and read.name not in named:
                listed.append((read.written, None))
                named.add(read.name)
    return tuple(listed)


def _input_notices(
    recipe: Recipe, f: RecipeFields, derived: Derived, locations: SourceMap, refused: Collection[str] = ()
) -> Iterator[Problem]:
    """A documented launch's undescribed inputs (a problem: its script could not ask for them) and an
    as-run script's (a warning: the script is the author's, as run). Not where the command or an
    input was refused already (a `FILL IN`, a name a recipe may not set): that problem says it."""
    said = any(where.startswith(("$.launch.command", "$.launch.inputs", "$.launch.checkout")) for where in refused)
    undescribed_launch = [] if said else [written for written, text in launch_inputs(f) if text is None]
    if undescribed_launch:
        position = locations.value_at(("launch", "command"))
        yield Problem(
            recipe.path,
            position.line,
            position.column,
            "$.launch.command",
            f"the documented command reads {', '.join(undescribed_launch)}, which neither `launch.env` sets nor "
            "`launch.inputs` describes: describe each in `launch.inputs` (a <placeholder> as written, with what to "
            "put there), so that the launch script can ask for it",
        )
    yield from _preparation_notices(recipe, f, locations, refused)
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


def _preparation_notices(
    recipe: Recipe, f: RecipeFields, locations: SourceMap, refused: Collection[str]
) -> Iterator[Problem]:
    """A preparation step whose commands read what its inputs do not describe, and an input written as
    a placeholder that nothing writes (stale, or misspelt): each refused at its line, but where the
    schema or the launch rules refused that part already."""
    launch = lookup(f, "launch")
    if launch is None or lookup(launch, "kind") != "documented":
        return
    for number, missing in undescribed_in_steps(launch):
        where = ("launch", "preparation", number, "commands")
        if _said(where, refused):
            continue
        position = locations.value_at(where)
        yield Problem(
            recipe.path,
            position.line,
            position.column,
            json_path(where),
            f"the commands of preparation step {number + 1} read {', '.join(missing)}, which no earlier step sets "
            "and the step's `inputs` do not describe: describe each there (a <placeholder> as written, with what "
            "to put there), so that prepare.sh can ask for it",
        )
    for where, readers, name in unread_inputs(launch):
        if _said(where[:-1], refused) or _said(("launch", "command"), refused):
            continue
        position = locations.value_at(where)
        yield Problem(
            recipe.path,
            position.line,
            position.column,
            json_path(where),
            f"{name} is described as an input, but {readers} write it: a placeholder the publisher writes is "
            "described as written, and a prerequisite is said in words (`<Slurm cluster>`); remove it or fix "
            "its spelling",
        )


def _said(where: tuple[str | int, ...], refused: Collection[str]) -> bool:
    path = json_path(where)
    return any(other == path or other.startswith((path + ".", path + "[")) for other in refused)


def _figure_inputs(
    f: RecipeFields, model: ModelSpec | None, gpu: GpuSpec | None, params: int | None, method: str | None
) -> publisher.Inputs:
    """What recomputing a publisher's figure of any kind reads (publisher.py)."""
    seq = lookup(f, "workload", "row_tokens")
    why_not = _not_recomputed(f, "megatron", model, seq)

    def megatron(release: str | None) -> float:
        assert model is not None and model.architecture is not None and seq is not None  # why_not is None
        return flops.model_flops_per_token(
            model.architecture,
            seq,
            mtp_layers=_mtp_layers(f, model),
            tensor_parallel=lookup(f, "layout", "tp") or 1,
            release=release,
        )

    return publisher.Inputs(f, model, gpu, params, method, seq, megatron, why_not)


def _publisher_figures(f: RecipeFields, model: ModelSpec | None, inputs: publisher.Inputs) -> Iterator[PublisherFigure]:
    tokens = lookup(f, "result", "tokens_per_s_per_gpu")
    seq = lookup(f, "workload", "row_tokens")
    raw_figures = lookup(f, "result", "publisher_figures") or ()
    derived_from = lookup(f, "result", "tokens_per_s_per_gpu_from", "figure")
    for index, figure in enumerate(raw_figures):
        if figure.unit != publisher.THROUGHPUT or figure.convention != "megatron" or figure.name == derived_from:
            # Every kind but Megatron-Bridge's TFLOP/s, and a figure the throughput is derived from.
            yield publisher.figure(index, figure, tokens, inputs, derived_from, raw_figures)
            continue
        recomputed = None
        why_not = _not_recomputed(f, figure.convention, model, seq)
        if why_not is None and tokens and model and model.architecture and seq:  # (None narrows the types)
            per_token = flops.model_flops_per_token(
                model.architecture,
                seq,
                mtp_layers=_mtp_layers(f, model),
                tensor_parallel=lookup(f, "layout", "tp") or 1,
                release=figure.release,
            )
            recomputed = per_token * tokens / 1e12
        tolerance = flops.published_tolerance(figure.release) if figure.release else PUBLISHER_TOLERANCE
        yield PublisherFigure(figure.name, figure.value, recomputed, figure.convention, figure.note, tolerance, why_not)


def _not_recomputed(f: RecipeFields, convention: str, model: ModelSpec | None, seq: int | None) -> str | None:
    """Why a publisher's figure cannot be recomputed, naming what is missing, or None when it can.
    Each cause has its own words: a reader told "no published architecture" about a model whose
    maker publishes one (a hybrid that `architecture` cannot hold) is told something false."""
    if convention != "megatron":
        return "not recomputed: in a convention of the publisher's own, which flops.py has no formula for"
    if model is None:
        return f"not recomputed: {f.model} is not in the reference data (reference/models.yaml)"
    if model.architecture is None:
        if model.counts == "headline":
            return (
                f"not recomputed: the reference data holds {model.key}'s headline parameter counts only, "
                "as its architecture is not of a shape flops.py costs (GQA or MLA attention, dense or MoE MLPs)"
            )
        return f"not recomputed: the reference data holds no architecture for {model.key}"
    if seq is None:
        return "not recomputed: the recipe publishes no sequence length"
    return None


def _mtp_layers(f: RecipeFields, model: ModelSpec) -> int:
    """The recipe's multi-token-prediction layers, else the model's (DeepSeek-V3 trains one)."""
    stated = lookup(f, "layout", "mtp_layers")
    return stated if stated is not None else int((model.architecture or {}).get("mtp_layers", 0))


# -- the rules ------------------------------------------------------------------------------------
