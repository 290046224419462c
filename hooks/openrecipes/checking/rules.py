"""Every check a recipe's figures must pass: one `@rule` each, with its name (shown on recipe pages)
and its statement (the Methodology page). A check whose inputs are absent yields nothing."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator

from .. import flops, fmt
from ..reading.reference import PEAK_COLUMN
from . import launchvalues, pricebasis, publisher
from .figures import (
    EPSILON,
    GPU_HOURS_SLACK,
    MFU_CEILING,
    MFU_TOLERANCE,
    PARAMS_TOLERANCE,
    PRICE_ABSOLUTE_TOLERANCE,
    PRICE_RELATIVE_TOLERANCE,
    RULES,
    Check,
    Context,
    cp_degree,
    lookup,
    rule,
)


@rule(
    "MFU",
    "A stated MFU is within ±0.1 percentage points of the training FLOPs per token (6 × N, or 4 × N for LoRA "
    "and QLoRA, with the N the recipe states) × tokens/s per GPU ÷ the GPU's dense peak at the training precision.",
)
def _mfu(ctx: Context) -> Iterator[Check]:
    stated = lookup(ctx.f, "result", "mfu")
    if stated is None or ctx.mfu_as_stated is None:
        return
    yield Check(
        name="MFU",
        field=("result", "mfu"),
        stated=fmt.percent(stated, 2),
        recomputed=fmt.percent(ctx.mfu_as_stated, 3),
        tolerance="±0.1 percentage points",
        formula=_mfu_formula(ctx, ctx.stated_params or ctx.params),
        passed=abs(stated - ctx.mfu_as_stated) <= MFU_TOLERANCE + EPSILON,
    )


def _mfu_formula(ctx: Context, params: int | None = None) -> str:
    precision = lookup(ctx.f, "workload", "precision")
    factor = flops.flops_formula(ctx.method).split(" ")[0]
    return (
        f"{factor} × {fmt.number(params or ctx.params)} active parameters × "
        f"{fmt.as_written(ctx.f.result.tokens_per_s_per_gpu)} tokens/s ÷ {fmt.as_written(ctx.peak_tflops)} TFLOP/s "
        f"({ctx.gpu.key} dense {PEAK_COLUMN[precision].upper()} peak)"
    )


@rule(
    "Plausible MFU",
    f"MFU (ours, or the stated one) is at most {MFU_CEILING:.0%}: no training run comes near it, and a "
    "throughput per node or per step written as per GPU is the usual cause.",
)
def _plausible_mfu(ctx: Context) -> Iterator[Check]:
    mfu = ctx.mfu if ctx.mfu is not None else lookup(ctx.f, "result", "mfu")
    tokens = lookup(ctx.f, "result", "tokens_per_s_per_gpu")
    if mfu is None or tokens is None:
        return
    count = lookup(ctx.f, "gpu", "count")
    per_node = lookup(ctx.f, "gpu", "per_node")
    hint = "A throughput per node, per step or for the whole fleet written as per GPU is the usual cause"
    if per_node and per_node > 1:
        hint += f" (per GPU of a node of {per_node}: {fmt.number(tokens / per_node, 1)} tokens/s)"
    elif count and count > 1:
        hint += f" (per GPU of {count}: {fmt.number(tokens / count, 1)} tokens/s)"
    yield Check(
        name="Plausible MFU",
        field=("result", "tokens_per_s_per_gpu"),
        stated=f"{fmt.as_written(tokens)} tokens/s per GPU",
        recomputed=f"MFU {fmt.percent(mfu, 1)}",
        tolerance=f"MFU at most {fmt.percent(MFU_CEILING, 0)}",
        formula=_mfu_formula(ctx) if ctx.mfu is not None else "the stated MFU",
        passed=mfu <= MFU_CEILING + EPSILON,
        hint=hint + ".",
    )


@rule(
    "Parameter count",
    f"The N a recipe states is within {PARAMS_TOLERANCE:.0%} of the model's active parameters in the reference "
    "data, or the recipe says why it is not.",
)
def _parameter_count(ctx: Context) -> Iterator[Check]:
    stated = lookup(ctx.f, "result", "active_params", "count")
    model = ctx.model
    if stated is None or model is None:
        return
    close = abs(stated - model.active_params) <= PARAMS_TOLERANCE * model.active_params
    explained = lookup(ctx.f, "result", "active_params", "note") is not None
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
    precision = lookup(ctx.f, "workload", "precision")
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
    scaling = lookup(ctx.f, "workload", "fp8_scaling")
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
    given_instance = lookup(f, "gpu", "instance")
    stated = lookup(f, "result", "usd_per_million_tokens")
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
    tokens = lookup(f, "result", "tokens_per_s_per_gpu")
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
        passed=stated is not None and abs(stated - usd) <= tolerance + EPSILON,
    )


@rule(
    "GPU count",
    "TP × PP × CP × DP equals the GPU count; without a published DP, the count is a multiple of TP × PP × CP.",
)
def _gpu_count(ctx: Context) -> Iterator[Check]:
    layout = ctx.f.layout
    count, tp, pp, cp = lookup(ctx.f, "gpu", "count"), lookup(layout, "tp"), lookup(layout, "pp"), cp_degree(ctx.f)
    if None in (count, tp, pp, cp):
        return
    dp = lookup(layout, "dp")
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
    count, per_node = lookup(ctx.f, "gpu", "count"), lookup(ctx.f, "gpu", "per_node")
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
    memory = lookup(ctx.f, "gpu", "memory_gb")
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
    instance, gpu, count = ctx.instance, ctx.gpu, lookup(ctx.f, "gpu", "count")
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
    ep, etp, tp, cp, dp = (
        lookup(layout, "ep"),
        lookup(layout, "etp") or 1,
        lookup(layout, "tp"),
        cp_degree(ctx.f),
        ctx.dp,
    )
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
    gbs = lookup(ctx.f, "workload", "global_batch")
    mbs, ga, dp = (
        lookup(ctx.f, "layout", "rows_per_microbatch"),
        lookup(ctx.f, "layout", "gradient_accumulation"),
        ctx.dp,
    )
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
    split, pp = lookup(ctx.f, "layout", "layer_split"), lookup(ctx.f, "layout", "pp")
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
    window, steps = lookup(result, "window"), lookup(result, "steps_per_run")
    gbs, seq = lookup(workload, "global_batch"), lookup(workload, "row_tokens")
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
        stated_tokens = lookup(result, "window_tokens")
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
    build = lookup(workload, "dataset", "build")
    built_rows = lookup(build, "rows")
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
    built_length = lookup(build, "row_tokens")
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
    hours, steps = lookup(result, "gpu_hours"), lookup(result, "steps_per_run")
    gbs, seq = lookup(workload, "global_batch"), lookup(workload, "row_tokens")
    tokens = lookup(result, "tokens_per_s_per_gpu")
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
    status = lookup(f, "status")
    correctness = lookup(f, "correctness")
    verdicts = (("correctness", "result"), ("correctness", "convergence", "result"))
    if status == "verified" and not any(ctx.was_refused(path) for path in verdicts):
        missing = [name for name, path in _EVIDENCE if lookup(f, *path) is None and not ctx.was_refused(path)]
        verdict = lookup(correctness, "result")
        convergence = lookup(correctness, "convergence", "result")
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
    convergence = lookup(correctness, "convergence")
    verdict = lookup(correctness, "result")
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
    measured = lookup(f, "result", "measured")
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
    url = lookup(ctx.f, "source", "url")
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


_GITHUB_REPOSITORY = re.compile(r"^https://github\.com/([^/]+/[^/]+)/blob/")


@rule(
    "First published",
    "When a source says when its row first appeared (`source.first_published`), that is no later than the date "
    "of the commit the source is pinned at, and it is linked at the commit it names, in the source's repository.",
)
def _first_published(ctx: Context) -> Iterator[Check]:
    first = lookup(ctx.f, "source", "first_published")
    if first is None or not isinstance(first.date, dt.date) or not (isinstance(first.commit, str) and first.url):
        return  # a part left out or of the wrong type is the schema's to report
    published = lookup(ctx.f, "source", "published")
    if not isinstance(published, dt.date):
        published = None
    repository = _GITHUB_REPOSITORY.match(lookup(ctx.f, "source", "url") or "")
    wrong: list[tuple[str, str]] = []
    if published is not None and first.date > published:
        wrong.append(("date", f"{first.date.isoformat()} is after source.published, {published.isoformat()}"))
    if not _at_commit(first.url, first.commit):
        wrong.append(("url", f"the link is not at {first.commit[:12]}"))
    elif repository and not first.url.startswith(f"https://github.com/{repository.group(1)}/blob/"):
        wrong.append(("url", f"the link is not to {repository.group(1)}, the source's repository"))
    yield Check(
        name="First published",
        field=("source", "first_published", wrong[0][0] if wrong else "date"),
        stated=f"{first.date.isoformat()}, commit {first.commit[:12]}",
        recomputed="; ".join(text for _, text in wrong)
        or "linked at its commit" + (f", no later than {published.isoformat()}" if published is not None else ""),
        tolerance="no later than the pinned commit's date, linked at its own commit",
        formula="source.first_published.date ≤ source.published; url at first_published.commit, in source.url's "
        "repository",
        passed=not wrong,
        hint="first_published is the first commit of the publisher's history whose file holds the row (git log of "
        "the file, oldest first), linked at that commit; an import writes it.",
    )


@rule(
    "Publisher's figures",
    "A figure the publisher states in their own convention (Megatron's model TFLOP/s, which counts attention; an "
    "MFU or HFU over the peak it names) agrees with ours in that convention to the precision the publisher prints "
    "(TFLOP/s: 0.5%; 2.5% for releases that round their throughput; 1% when no release is named; a utilisation: "
    "half a unit of its last printed digit, 41% ± 0.5 points, and what a unit of the throughput's last digit moves "
    "it by); an MFU the recipe's throughput cannot give is "
    "checked against the publisher's TFLOP/s in the same convention over the same peak; a published recipe may "
    "explain a difference in `disagreements`.",
)
def _publisher(ctx: Context) -> Iterator[Check]:
    for index, figure in enumerate(ctx.publisher_figures):
        if figure.recomputed is None:
            continue
        if figure.utilisation:
            difference = figure.stated - figure.recomputed
            sign = "+" if difference >= 0 else "−"
            places = fmt.decimals(figure.stated) + 1
            points = fmt.number(abs(difference), places)
            recomputed = f"{fmt.number(figure.recomputed, places)}% ({sign}{points} points)"
            tolerance = f"±{fmt.as_written(round(figure.tolerance, places + 1))} points"
            passed = abs(difference) <= figure.tolerance + EPSILON
            stated = f"{figure.name} {fmt.as_written(figure.stated)}%"
        else:
            difference = figure.stated / figure.recomputed - 1
            sign = "+" if difference >= 0 else "−"
            recomputed = f"{fmt.number(figure.recomputed, 1)} ({sign}{fmt.percent(abs(difference), 2)})"
            tolerance = f"±{fmt.percent(figure.tolerance, 1)}"
            passed = abs(difference) <= figure.tolerance + EPSILON
            stated = f"{figure.name} {fmt.as_written(figure.stated)}"
        yield Check(
            name="Publisher's figures",
            field=("result", "publisher_figures", index, "value"),
            stated=stated,
            recomputed=recomputed,
            tolerance=tolerance,
            formula=figure.formula or f"{figure.convention} model FLOPs per token × tokens/s per GPU (flops.py)",
            passed=passed,
            hint="If the publisher counts differently (a formula of their own for this method), say why in "
            "`disagreements`, or record the figure with convention `other` and say what it counts in its note.",
        )


@rule(
    "Derived throughput",
    "A tokens/s per GPU derived from a publisher's figure (`result.tokens_per_s_per_gpu_from`) is within "
    f"{publisher.DERIVED_TOLERANCE:.1%} of that figure's FLOP/s per GPU (a TFLOP/s, or an MFU or HFU × the peak it "
    "names) ÷ the FLOPs per token of its convention (or those the recipe states); a derivation that cannot be "
    "recomputed fails.",
)
def _derived_throughput(ctx: Context) -> Iterator[Check]:
    derived = ctx.tokens_from
    if derived is None:
        return
    stated = f"{fmt.as_written(derived.stated)} tokens/s per GPU"
    if derived.recomputed is None:
        yield Check(
            name="Derived throughput",
            field=("result", "tokens_per_s_per_gpu_from", "figure" if derived.index is None else "flops_per_token"),
            stated=f"{stated} from {derived.figure}",
            recomputed="none",
            tolerance=f"±{fmt.percent(publisher.DERIVED_TOLERANCE, 1)}",
            formula=derived.formula,
            passed=False,
            hint="Name a figure of result.publisher_figures, and give the FLOPs per token where its convention has "
            "no formula here.",
        )
        return
    difference = derived.stated / derived.recomputed - 1
    sign = "+" if difference >= 0 else "−"
    yield Check(
        name="Derived throughput",
        field=("result", "tokens_per_s_per_gpu"),
        stated=f"{stated} from {derived.label}",
        recomputed=f"{fmt.number(derived.recomputed, 1)} ({sign}{fmt.percent(abs(difference), 2)})",
        tolerance=f"±{fmt.percent(publisher.DERIVED_TOLERANCE, 1)}",
        formula=derived.formula,
        passed=abs(difference) <= publisher.DERIVED_TOLERANCE + EPSILON,
        hint="The throughput must be what the figure it is derived from gives; correct whichever is wrong.",
    )


@rule(
    "Launch values",
    "The GPU count, layout, batch sizes, sequence length and precision a documented launch's configuration runs "
    "(`launch.sets`) are the recipe's own; a dimension the recipe states that `sets` does not is named as not "
    "stated (the launch is then not known to run the recipe), and a published recipe may explain a difference in "
    "`disagreements`.",
)
def _launch_values(ctx: Context) -> Iterator[Check]:
    gaps = launchvalues.configuration_gaps(ctx.f)
    if gaps is None or not gaps.comparisons:
        return
    compared = [item for item in gaps.comparisons if item.stated]
    recomputed = ", ".join(f"{item.label} {launchvalues.show(item.launch)}" for item in compared) or "nothing"
    if gaps.unstated:
        recomputed += "; not stated: " + gaps.labels(gaps.unstated)
    yield Check(
        name="Launch values",
        field=("launch", "sets", gaps.differing[0]) if gaps.differing else ("launch", "sets"),
        stated=", ".join(f"{item.label} {launchvalues.show(item.row)}" for item in gaps.comparisons),
        recomputed=recomputed,
        tolerance="exact",
        formula="launch.sets against gpu.count, layout and workload (a null VP is 1, a null ETP is TP)",
        passed=not gaps.differing,
        hint="The launch's configuration runs other values than the recipe states: correct whichever is wrong, "
        "or, for a published recipe, say why the publisher's two disagree in `disagreements`.",
    )


@rule(
    "Launch source",
    "Every file a documented launch cites is linked at the launch's own commit, with a link that cannot change.",
)
def _launch_source(ctx: Context) -> Iterator[Check]:
    commit = lookup(ctx.f, "launch", "source", "commit")
    files = lookup(ctx.f, "launch", "source", "files")
    if commit is None or not files:
        return
    # A link the loader refuses (another repository, commit or file: reading/launchsafety.py) is said
    # there, where no `disagreements` can explain it away; this check is of the others.
    wrong = [
        index
        for index, item in enumerate(files)
        if item.url is not None
        and not _at_commit(item.url, commit)
        and not ctx.was_refused(("launch", "source", "files", index, "url"))
    ]
    yield Check(
        name="Launch source",
        field=("launch", "source", "files", wrong[0], "url") if wrong else ("launch", "source", "commit"),
        stated=f"{fmt.plural(len(files), 'file')} cited",
        recomputed=f"{fmt.plural(len(wrong), 'link')} not at {commit[:12]}" if wrong else f"all at {commit[:12]}",
        tolerance="every link pinned at launch.source.commit",
        formula="github.com/<owner>/<repo>/blob/<launch.source.commit>/<path>",
        passed=not wrong,
        hint="Link each file at the commit the launch checks out (on GitHub, press y on the file's page).",
    )


def _at_commit(url: str, commit: str) -> bool:
    return pinned(url) and f"/{commit}/" in url


@rule("Superseded by", "A deprecated recipe's replacement is a recipe of the catalogue.")
def _superseded_by(ctx: Context) -> Iterator[Check]:
    replacement = lookup(ctx.f, "deprecation", "superseded_by")
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
