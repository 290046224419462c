"""MLPerf Training results as `published` recipes (schema version 2), one per closed-division LLM
result of every submitter.

What each recipe says, and where it comes from:
- the system description JSON (`<submitter>/systems/<system>.json`): the accelerator and its
  count, nodes, host, interconnect and software, the division and the availability category;
- the result logs (`result_*.txt`, read with `measuring.mllog`): each run's time to train
  (run_start to run_stop), whether it reached the benchmark's quality target, the global batch
  and LoRA settings, and the throughput derived from them;
- MLPerf Training's rules (`mllog.RULES`): the quality target and the scoring rule, the mean of the
  runs without the fastest and the slowest; MLCommons' scaling factor where the result publishes
  one (`scaling.json`);
- the submission's `config_*.sh` that the result ran (named by the system's README, or by the log),
  with the files it sources: the parallel layout and precision, and the documented launch.

A result that cannot say one of the figures a recipe needs (no known accelerator, no configuration
to read the layout from, a log that does not parse) makes no recipe and is reported as skipped,
with the file and line and why.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .. import fmt
from ..checking import launchvalues
from ..checking.scriptinputs import script_inputs
from ..measuring import compute, mllog, score
from ..problems import Problem
from ..reading import shellenv
from ..reading.envnames import is_dangerous_name
from . import mlperf as mp
from . import mlperf_effective, mlperf_launch, mlperf_missing
from . import mlperf_preparation as preparation
from .common import Cited, Import, Planned, Skipped, github_permalink, name_part, recipe_id, withhold
from .gitsource import FileAtCommit, GitSource
from .mlperf import lines as _lines
from .mlperf_inputs import described

IMPORTER = "mlperf"
SCORING_RULE = f"{mllog.RULES}#L509"
SCALING_RULE = f"{mllog.RULES}#L528-L530"

MODELS_WITHOUT_REFERENCE = frozenset({"GPT-3 175B"})
"""Benchmarks' models reference/models.yaml has no sourced entry for: their results are skipped with
why (as an accelerator without a reference entry is), until the model is added with its sources."""

# The accelerator as the system description names it (accelerator_model_name): reference/gpus.yaml key.
# Searched in order; the first pattern found in the name decides.
# Only keys reference/gpus.yaml has: an accelerator without a sourced entry (MI350X, L40S, TPUs,
# Gaudi) is skipped with why, never filed under a type the site cannot price or peak.
ACCELERATORS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.I), key)
    for pattern, key in (
        (r"\bGB300\b", "GB300"),
        (r"\bGB200\b", "GB200"),
        (r"\bB300\b", "B300"),
        (r"\bB200\b", "B200"),
        (r"\bH200-NVL\b", "H200-NVL"),
        (r"\bH200-SXM", "H200"),
        (r"\bH100-SXM", "H100"),
        (r"\bA100-SXM4?-80GB\b", "A100"),
        (r"\bMI355X\b", "MI355X"),
        (r"\bMI325X\b", "MI325X"),
        (r"\bMI300X\b", "MI300X"),
    )
)

AVAILABILITY = (
    # the system description's status, lower-cased, starts with: the category
    ("available", "available"),
    ("onprem", "available"),
    ("cloud", "available"),
    ("preview", "preview"),
    ("rdi", "research"),
    ("research", "research"),
)

_COMMAND_LINE = re.compile(r"\b(source|sbatch|docker|bash|srun|CONT=|run_with_docker|podman|salloc)\b")
_CONFIG_NAME = re.compile(r"config_[A-Za-z0-9_.+-]+?\.sh")
_COMMON = re.compile(r"config_(common\w*|mounts\w*|.*_common)\.sh")


def build(source: GitSource, round_name: str | None = None) -> Import:
    repository = mp.read(source, round_name)
    planned: list[Planned] = []
    skipped: list[Skipped] = []
    for result in repository.results:
        made = _recipe(repository, result)
        (skipped if isinstance(made, Skipped) else planned).append(made)
    seen: dict[str, str] = {}
    for recipe in planned:
        if recipe.id in seen:
            raise mp.ParseError(f"two results make the recipe {recipe.id}: {seen[recipe.id]}")
        seen[recipe.id] = recipe.id
    prefix = f"mlperf-{repository.round}-"
    return Import(IMPORTER, tuple(planned), tuple(skipped), lambda recipe: recipe.rsplit("/", 1)[-1].startswith(prefix))


# --- a result ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    log: mllog.MlperfLog
    file: FileAtCommit
    time: mllog.TimeToTrain
    verdict: mllog.Verdict


def _located(problems: Sequence[Problem]) -> str:
    return "; ".join(f"{p.path}:{p.line}{f':{p.column}' if p.column else ''}: {p.message}" for p in problems[:5])


def _recipe(repository: mp.Repository, result: mp.Result) -> Planned | Skipped:
    where = result.folder
    if result.problems:
        return Skipped(where, _located(result.problems))
    description = result.description
    assert description is not None
    if description.get("division").lower() != "closed":
        return Skipped(where, f"division {description.get('division')!r}: only the closed division is imported")
    problems = [problem for run in result.runs for problem in run.problems]
    if problems:
        return Skipped(where, f"a result log does not read as MLLOG: {_located(problems)}")
    accelerator = description.get("accelerator_model_name")
    gpu = next((key for pattern, key in ACCELERATORS if pattern.search(accelerator)), None)
    if gpu is None:
        return Skipped(
            where,
            f"accelerator {accelerator!r} is not a GPU of reference/gpus.yaml (ACCELERATORS in mlperf_recipes.py)",
        )
    if result.benchmark.model in MODELS_WITHOUT_REFERENCE:
        return Skipped(
            where,
            f"{result.benchmark.model} is not a model of reference/models.yaml: with no sourced size its MFU could "
            "not be recomputed (MODELS_WITHOUT_REFERENCE in mlperf_recipes.py)",
        )
    nodes, per_node = _count(description.get("number_of_nodes")), _count(description.get("accelerators_per_node"))
    if nodes is None or per_node is None:
        return Skipped(
            f"{description.file.path}:{description.lines.get('number_of_nodes', 0)}",
            "number_of_nodes and accelerators_per_node are not whole numbers",
        )
    runs, problem = _runs(result)
    if problem:
        return Skipped(where, problem)
    first = runs[0]
    batch = first.log.global_batch_size
    if batch is None:
        return Skipped(f"{first.file.path}", "no global_batch_size is logged")
    benchmark = result.benchmark
    sequence = first.log.sequence_length
    row_tokens = sequence.value if sequence is not None else benchmark.sequence_length
    if not isinstance(row_tokens, int):
        return Skipped(f"{first.file.path}", "no max_sequence_length is logged, and the benchmark fixes none")
    config, evidence = _configuration(repository.source, result, first)
    if config is None:
        return Skipped(where, f"the layout is not published: {evidence}")
    layout, layout_problem = _layout(config)
    if layout is None:
        return Skipped(where, f"{config.path}: {layout_problem}")
    precision = _precision(config)
    if precision is None:
        return Skipped(
            where,
            f"{config.path}: the configuration sets neither FP8 nor FP4 nor a precision, so the "
            "precision is not published",
        )
    count = nodes * per_node
    throughput, throughput_note = _throughput(runs, row_tokens, count, sequence, benchmark)
    if throughput is None:
        return Skipped(where, throughput_note)
    time_to_train, scoring_note = _time_to_train(repository, runs, result)
    data: dict[str, Any] = {
        "schema_version": 2,
        "model": benchmark.model,
        "gpu": _gpu(gpu, description, count, per_node),
        "author": {
            "name": description.get("submitter") or result.submitter,
            "url": _link(repository, description.file),
        },
        "status": "published",
        "benchmark": _benchmark(repository, result, description),
        "source": _source(repository, result, description, first, sequence),
        "stack": _stack(repository, description),
        "workload": _workload(benchmark, first.log, row_tokens, batch.value, precision),
        "layout": layout,
        "result": {
            "tokens_per_s_per_gpu": throughput,
            "throughput_note": throughput_note,
            "measured": dt.datetime.fromtimestamp(first.time.start.time_ms / 1000, dt.UTC).date(),
            "runs": len(runs),
            "time_to_train": time_to_train,
        },
        "correctness": _correctness(runs, time_to_train),
    }
    data["launch"] = _launch(repository, result, config, evidence)
    disagreements = _launch_disagreement(data, config)
    if disagreements:
        data["disagreements"] = disagreements
    data["notes"] = "\n".join(f"- {note}" for note in (*scoring_note, *_notes(result, config, evidence))) + "\n"
    name = name_part(f"mlperf-{repository.round}-{result.submitter}-{result.system}".lower())
    return Planned(recipe_id(benchmark.model, gpu, name), data)


def _count(text: str) -> int | None:
    return int(text) if text.isdigit() and int(text) > 0 else None


def _runs(result: mp.Result) -> tuple[list[Run], str]:
    runs: list[Run] = []
    for item in result.runs:
        assert item.log is not None
        time = mllog.time_to_train(item.log)
        if isinstance(time, Problem):
            return [], _located([time])
        runs.append(Run(item.log, item.file, time, mllog.verdict(item.log)))
    if len(runs) < 3:
        return [], f"{len(runs)} result log(s): the scoring rule drops the fastest and the slowest of at least 3"
    failed = [run for run in runs if not run.verdict.reached]
    if len(failed) > 1:
        return [], (
            f"{len(failed)} runs did not reach the target ({failed[0].file.path}: {failed[0].verdict.reason}); "
            f"MLPerf's rules make a result with more than one such run invalid ({SCORING_RULE})"
        )
    return runs, ""


def _counted(runs: Sequence[Run]) -> tuple[list[Run], Run, Run]:
    """The runs the score counts, the one dropped as the fastest and the one as the slowest
    (measuring.score, the rule `openrecipes measure` scores by; `_runs` keeps three or more with at
    most one that missed the target)."""
    scored = score.mlperf_score([run.time.minutes for run in runs], [run.verdict.reached for run in runs])
    assert isinstance(scored, score.Score) and scored.fastest is not None and scored.slowest is not None, scored
    return [runs[index] for index in scored.counted], runs[scored.fastest], runs[scored.slowest]


def _time_to_train(
    repository: mp.Repository, runs: Sequence[Run], result: mp.Result
) -> tuple[dict[str, Any], list[str]]:
    counted, fastest, slowest = _counted(runs)
    minutes = sum(run.time.minutes for run in counted) / len(counted)
    target = mllog.TARGETS.get(result.benchmark.name)
    value: dict[str, Any] = {
        "minutes": round(minutes, 3),
        "quality_target": str(target) if target else "the benchmark's",
        "scoring": (
            f"mean of the {fmt.plural(len(counted), 'run')} left of {len(runs)} "
            "when the fastest and the slowest are dropped, "
            "each from run_start to run_stop; computed here from the logs"
        ),
        "runs_counted": len(counted),
    }
    if result.scaling is not None:
        value["scaling_factor"] = result.scaling[0]
    times = ", ".join(f"{run.time.minutes:.3f}" for run in runs)
    note = [
        f"Time to train: the {len(runs)} runs' run_start-to-run_stop times, in minutes, are {times} "
        f"({runs[0].file.path.rsplit('/', 1)[-1]} to {runs[-1].file.path.rsplit('/', 1)[-1]}); without the fastest "
        f"({fastest.time.minutes:.3f}, {_file(fastest)}) and the slowest ({slowest.time.minutes:.3f}, "
        f"{_file(slowest)}) "
        f"their mean is {minutes:.3f}. MLPerf Training scores a result this way ({SCORING_RULE})."
    ]
    if result.scaling is not None:
        factor, file = result.scaling
        note.append(
            f"MLCommons scales this score by {factor:g} ({_link(repository, file)}; the rule: {SCALING_RULE}), to "
            f"{minutes * factor:.3f} minutes: the score its results table shows. The time to train here "
            "is the unscaled mean."
        )
    else:
        note.append("No scaling.json is published for this result: MLCommons' score is the unscaled mean.")
    return value, note


def _file(run: Run) -> str:
    return run.file.path.rsplit("/", 1)[-1]


def _correctness(runs: Sequence[Run], time_to_train: dict[str, Any]) -> dict[str, Any]:
    counted, _, slowest = _counted(runs)
    lines = []
    for run in runs:
        state = "counted" if run in counted else "dropped"
        lines.append(f"- {_file(run)} ({state}): {run.verdict.reason}.")
    reached = all(run.verdict.reached for run in counted)
    failed = [run for run in runs if not run.verdict.reached]
    summary = (
        f"every counted run ({len(counted)} of {len(runs)}) reached {time_to_train['quality_target']}"
        if reached
        else "a counted run did not reach the target"
    )
    if failed:
        summary += f"; {_file(slowest)} did not and is dropped as the slowest"
    return {
        "result": "pass" if reached else "fail",
        "summary": summary,
        "reference": (
            f"MLPerf Training's quality target for this benchmark ({time_to_train['quality_target']}), checked in each "
            "run's log: the last eval_accuracy before run_stop meets it and run_stop's status is 'success'.\n\n"
            + "\n".join(lines)
        ),
    }


def _throughput(
    runs: Sequence[Run], row_tokens: int, gpus: int, sequence: mllog.Event | None, benchmark: mp.Benchmark
) -> tuple[float | None, str]:
    """Tokens/s per GPU over the counted runs, each measured as `openrecipes measure` measures a log
    by default (measuring.compute.training_rate)."""
    counted, _, _ = _counted(runs)
    rates = []
    for run in counted:
        rate = compute.training_rate(run.log)
        if isinstance(rate, str):
            return None, f"{run.file.path}: {rate}, so no throughput can be derived"
        rates.append(rate)
    samples = sum(rate.samples for rate in rates)
    seconds = sum(rate.seconds for rate in rates)
    value = samples * row_tokens / seconds / gpus
    where = (
        f"max_sequence_length {row_tokens:,} ({sequence.at})"
        if sequence
        else f"{row_tokens:,} ({benchmark.sequence_source})"
    )
    blocks = sum(rate.blocks for rate in rates)
    whole = [rate for rate in rates if not rate.blocks]
    how = []
    if blocks:
        how.append(
            f"the logs' own tracked_stats throughput (samples/s of the whole system) of each run's training blocks "
            f"but the first, which holds warm-up and compilation ({blocks} blocks), weighted by their samples"
        )
    if whole:
        evaluations = (
            " less the evaluations (eval_start to eval_stop)"
            if all(rate.evaluations_excluded for rate in whole)
            else " (evaluations included where the logs do not time them)"
        )
        how.append(
            f"for {fmt.plural(len(whole), 'run')} whose log has no tracked_stats, the samples trained to run_stop "
            f"(its samples_count) over the time from run_start to run_stop{evaluations}"
        )
    note = (
        f"Derived, not printed: over the {fmt.plural(len(counted), 'counted run')}, {'; and '.join(how)} "
        f"({samples:,} samples in all, {seconds:,.1f} s) × tokens per sample, {where}, ÷ {gpus} GPUs: as openrecipes "
        "measure measures a log by default. It counts every token of a packed sample, padding included."
    )
    return round(value, 1), note


# --- what the system description says ------------------------------------------------------------


def _gpu(gpu: str, description: mp.SystemDescription, count: int, per_node: int) -> dict[str, Any]:
    data: dict[str, Any] = {"type": gpu}
    memory = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*GB\s*", description.get("accelerator_memory_capacity"))
    if memory:
        data["memory_gb"] = (
            int(float(memory.group(1))) if float(memory.group(1)).is_integer() else float(memory.group(1))
        )
    data["count"] = count
    data["per_node"] = per_node
    system = description.get("system_name")
    if system:
        data["system"] = system[:120]
    host = _host(description)
    if host:
        data["host"] = host
    return data


def _host(description: mp.SystemDescription) -> str:
    processor = description.get("host_processor_model_name")
    count = description.get("host_processors_per_node")
    memory = description.get("host_memory_capacity")
    parts = []
    if processor:
        parts.append(f"{count} × {processor}" if count else processor)
    if memory:
        parts.append(f"{memory} memory")
    return ", ".join(parts)[:200]


def _availability(status: str) -> str | None:
    lowered = status.lower().replace(" ", "").replace("-", "")
    return next((category for start, category in AVAILABILITY if lowered.startswith(start)), None)


def _benchmark(repository: mp.Repository, result: mp.Result, description: mp.SystemDescription) -> dict[str, Any]:
    data: dict[str, Any] = {
        "suite": "MLPerf Training",
        "round": repository.round,
        "name": result.benchmark.name,
        "division": description.get("division").lower(),
    }
    category = _availability(description.get("status"))
    if category:
        data["availability"] = category
    if description.get("status"):
        data["status"] = description.get("status")
    data["submitter"] = result.submitter
    data["system"] = result.system
    return data


def _stack(repository: mp.Repository, description: mp.SystemDescription) -> dict[str, Any]:
    data: dict[str, Any] = {}
    if description.get("framework"):
        data["framework"] = description.get("framework")
    network = "; ".join(
        f"{label}: {description.get(key)}"
        for key, label in (
            ("accelerator_interconnect", "between accelerators"),
            ("host_networking", "between nodes"),
            ("host_networking_topology", "topology"),
        )
        if description.get(key) and description.get(key).lower() not in {"n/a", "na", "none"}
    )
    if network:
        data["network"] = network
    said = [
        f"{key} {description.get(key)!r}"
        for key in ("framework", "other_software_stack", "operating_system", "sw_notes")
        if description.get(key)
    ]
    data["source"] = (
        f"The system description {_link(repository, description.file)}: "
        + ("; ".join(said) or "no software named")
        + "."
    )
    return data


def _workload(
    benchmark: mp.Benchmark, log: mllog.MlperfLog, row_tokens: int, batch: int, precision: tuple[str, str | None]
) -> dict[str, Any]:
    data: dict[str, Any] = {"row_tokens": row_tokens, "global_batch": batch, "precision": precision[0]}
    if precision[1]:
        data["fp8_scaling"] = precision[1]
    if benchmark.method == "lora":
        method: dict[str, Any] = {"kind": "lora"}
        rank, alpha = log.first("lora_rank"), log.first("lora_alpha")
        if rank is not None and isinstance(rank.value, int) and rank.value > 0:
            method["rank"] = rank.value
        if alpha is not None and isinstance(alpha.value, int | float) and alpha.value > 0:
            method["alpha"] = alpha.value
        data["method"] = method
        data["dataset"] = {"name": "GovReport (SCROLLS), MLPerf's tokenized and packed copy"}
    else:
        data["method"] = {"kind": "pre-training"}
    return data


def _source(
    repository: mp.Repository,
    result: mp.Result,
    description: mp.SystemDescription,
    run: Run,
    sequence: mllog.Event | None,
) -> dict[str, Any]:
    keys = (
        "submission_platform",
        "submission_division",
        "submission_status",
        "global_batch_size",
        "lora_rank",
        "lora_alpha",
    )
    events = [run.log.first(key) for key in keys]
    events += [sequence, run.time.start, run.verdict.last_evaluation, run.time.stop]
    chosen = sorted({event.at.line: event for event in events if event is not None}.values(), key=lambda e: e.at.line)
    text = _lines(run.file.text)
    excerpt = "\n".join(text[event.at.line - 1].strip() for event in chosen)
    while len(excerpt) > 5000 and len(chosen) > 2:
        chosen.pop(0)
        excerpt = "\n".join(text[event.at.line - 1].strip() for event in chosen)
    lines = ", ".join(str(event.at.line) for event in chosen)
    return {
        "url": _link(repository, run.file, run.time.stop.at.line),
        "where": (
            f"MLPerf Training v{repository.round} results, closed division, {result.submitter}, system "
            f"{result.system}, "
            f"benchmark {result.benchmark.name}: the MLLOG log {run.file.path}, lines {lines} quoted (line "
            f"{run.time.stop.at.line}: run_stop); the time to train is from the {len(result.runs)} logs"
        )[:500],
        "publisher": f"MLCommons (submitted by {description.get('submitter') or result.submitter})",
        "published": dt.date.fromisoformat(run.file.date),
        "excerpt": excerpt,
        "importer": IMPORTER,
    }


# --- the configuration the result ran ------------------------------------------------------------


def _implementations(source: GitSource, result: mp.Result) -> list[str]:
    return source.tree(f"{result.submitter}/benchmarks/{result.benchmark.name}/implementations")


def _configuration(source: GitSource, result: mp.Result, run: Run) -> tuple[mp.ShellConfig | None, str]:
    """The config_*.sh this result ran, and what says so (or why none can be named)."""
    files = _implementations(source, result)
    configs = [path for path in files if _CONFIG_NAME.fullmatch(path.rsplit("/", 1)[-1])]
    if not configs:
        return (
            None,
            "the submission holds no config_*.sh under "
            f"{result.submitter}/benchmarks/{result.benchmark.name}/implementations",
        )
    own = [path for path in configs if path.split("/")[-2] == result.system]

    def pick(name: str) -> str | None:
        named = [path for path in configs if path.rsplit("/", 1)[-1] == name]
        mine = [path for path in named if path in own]
        return (mine or named)[0] if len(mine) == 1 or len(named) == 1 else None

    # 1. The system's own README names it.
    for path in files:
        base = path.rsplit("/", 1)[-1]
        if base in (f"README-{result.system}.md", f"README_{result.system}.md"):
            text = source.show(path)
            for number, line in enumerate(_lines(text), start=1):
                explicit = re.search(r"(benchmarks/\S+?/implementations/\S+?/config_[A-Za-z0-9_.+-]+?\.sh)", line)
                if explicit and f"{result.submitter}/{explicit.group(1)}" in configs:
                    chosen = f"{result.submitter}/{explicit.group(1)}"
                    return mp.read_config(source, chosen), f"{path}:{number}"
                found = _CONFIG_NAME.search(line)
                if found and not _COMMON.fullmatch(found.group(0)):
                    chosen = pick(found.group(0))
                    if chosen:
                        return mp.read_config(source, chosen), f"{path}:{number}"
    # 2. The log names it: the launcher's `Config shell script:` line, or NVIDIA's DLPAL line (DGXSYSTEM last).
    for number, line in enumerate(_lines(run.file.text), start=1):
        if ":::MLLOG" in line:
            continue
        named = None
        if line.startswith(":::DLPAL"):
            named = f"config_{line.split()[-1].strip(chr(39))}.sh"
        elif "Config shell script:" in line or re.search(r"\bsource\s+\S*config_", line):
            found = _CONFIG_NAME.search(line)
            named = found.group(0) if found else None
        if named:
            chosen = pick(named)
            if chosen:
                return mp.read_config(source, chosen), f"{run.file.path}:{number}"
    # 3. The system's own implementation holds one configuration for this platform.
    candidates = [path for path in own if not _COMMON.fullmatch(path.rsplit("/", 1)[-1])]
    if len(candidates) == 1:
        return mp.read_config(source, candidates[0]), f"the only configuration in {candidates[0].rsplit('/', 1)[0]}"
    platform = run.log.submission.get("platform")
    if platform is not None and isinstance(platform.value, str) and candidates:
        wanted = re.sub(r"^\d+x", "", platform.value)
        matching = []
        for path in candidates:
            config = mp.read_config(source, path)
            exported = config.get("MLPERF_SUBMISSION_PLATFORM")
            if exported is not None and exported.value == wanted:
                matching.append((config, exported))
        if len(matching) == 1:
            config, exported = matching[0]
            return config, (
                f"{run.file.path}:{platform.at.line} (submission_platform {platform.value!r}) and "
                f"{exported.path}:{exported.line} (MLPERF_SUBMISSION_PLATFORM={exported.value})"
            )
    return None, (
        f"neither the system's README nor the log names which of the submission's {len(configs)} configuration file(s) "
        "this result ran"
    )


def _int(config: mp.ShellConfig, *names: str) -> tuple[int | None, mp.Assignment | None]:
    found = config.get(*names)
    if found is None or not found.value.isdigit():
        return None, found
    return int(found.value), found


def _layout(config: mp.ShellConfig) -> tuple[dict[str, Any] | None, str]:
    tp, _ = _int(config, "TP", "TENSOR_MODEL_PARALLEL")
    pp, _ = _int(config, "PP", "PIPELINE_MODEL_PARALLEL")
    if tp is None or pp is None or tp < 1 or pp < 1:
        return None, "the configuration sets no whole TP and PP (TP/TENSOR_MODEL_PARALLEL, PP/PIPELINE_MODEL_PARALLEL)"
    layout: dict[str, Any] = {"tp": tp, "pp": pp}
    cp, _ = _int(config, "CP", "CONTEXT_PARALLEL")
    if cp:
        layout["cp"] = cp
    sp = config.get("SP", "SEQ_PARALLEL", "SEQUENCE_PARALLEL")
    if sp is not None and sp.value.lower() in {"1", "true", "0", "false"}:
        layout["sequence_parallel"] = sp.value.lower() in {"1", "true"}
    mbs, _ = _int(config, "MBS", "MICRO_BATCH_SIZE")
    if mbs:
        layout["rows_per_microbatch"] = mbs
    return layout, ""


def _precision(config: mp.ShellConfig) -> tuple[str, str | None] | None:
    def on(*names: str) -> bool:
        found = config.get(*names)
        return found is not None and found.value.strip().lower() in {"1", "true"}

    if on("FP4"):
        recipe = config.get("FP4_RECIPE")
        kind = recipe.value.lower() if recipe else ""
        return (kind, None) if kind in {"nvfp4", "mxfp4"} else None
    if on("FP8"):
        recipe = config.get("FP8_RECIPE")
        if recipe is not None:
            value = recipe.value.lower()
            if value in {"mxfp8"}:
                return ("mxfp8", None)
            if value in {"tensorwise", "delayed", "blockwise"}:
                return ("fp8", value)
            return ("fp8", None)
        if config.get("FP8_AMAX_HISTORY", "FP8_AMAX_ALGO") is not None:
            return ("fp8", "delayed")
        return ("fp8", None)
    found = config.get("FP8")
    if found is not None and found.value.strip().lower() in {"0", "false"}:
        return ("bf16", None)
    return None


# --- the documented launch -----------------------------------------------------------------------


def _launch(repository: mp.Repository, result: mp.Result, config: mp.ShellConfig, evidence: str) -> dict[str, Any]:
    source = repository.source
    found = mlperf_launch.find(source, result, config, evidence)
    if isinstance(found, mlperf_launch.Undocumented):
        return {"kind": "not-published", "reason": found.reason}
    notes = [
        f"The launch {result.submitter}'s submission documents for this configuration, at the results' commit: "
        "how the publisher launches it, not a log of the runs.",
        *found.notes,
    ]
    command = found.command
    values = config.values
    # A name a recipe may not set is withheld whatever its value: the page warns of it, no script exports it.
    env, withheld = withhold(
        {name: item.value for name, item in values.items()},
        {name: (item.path, item.line) for name, item in values.items()},
    )
    expressions = [name for name in env if values[name].expression]
    env = {name: value for name, value in env.items() if name not in expressions}
    conditional = []
    for item in config.conditional:
        if not is_dangerous_name(item.name):
            entry = {"name": item.name, "value": item.value, "condition": item.condition}
            conditional.append({key: value for key, value in entry.items() if value is not None})
            conditional[-1] |= {"file": item.path, "line": item.line}
        elif item.value is not None and all(entry["name"] != item.name for entry in withheld):
            withheld += withhold({item.name: item.value}, {item.name: (item.path, item.line)})[1]
    effective = mlperf_effective.read(source, found.workdir, config, found.code)
    steps = preparation.steps(source, found, _image(command) if found.container is None else None)
    missing = [
        *mlperf_missing.sourced(config),
        *effective.missing,
        *mlperf_missing.image(
            source,
            found.code,
            command,
            found.container,
            [step.data.get("commands", "") for step in steps],
            found.cited[0].path,
        ),
        *mlperf_missing.entry_scripts(source, found.code),
    ]
    step_files = [step.cited for step in steps]
    cited = [*(item.path for item in found.cited), *(file.path for file in config.files), *(c.path for c in step_files)]
    commit = _last_commit(source, [*cited, *(item.path for item in effective.cited), *(item.file for item in missing)])
    files = [item.launch_file(repository.name, commit) for item in found.cited]
    for index, file in enumerate(config.files):
        total = max(1, len(_lines(file.text)))
        files.append(
            {
                "path": file.path,
                "lines": [1, total],
                "what": "the configuration this result ran (exported variables)"
                if index == 0
                else "a file the configuration sources",
                "url": _permalink(repository, commit, file.path, 1, total),
            }
        )
    files += [item.launch_file(repository.name, commit) for item in step_files]
    launch: dict[str, Any] = {
        "kind": "documented",
        "source": {"repository": repository.name, "commit": commit, "files": files},
        "checkout": (
            f"git clone https://github.com/{repository.name}.git\n"
            f"cd training_results_v{repository.round}\n"
            f"git switch --detach {commit}  # the results as published\n"
            f"cd {found.workdir}\n"
        ),
    }
    if found.container:
        launch["container"] = found.container
    launch["command"] = command + "\n"
    if env:
        launch["env"] = env
    if conditional:
        launch["conditional"] = conditional
    if withheld:
        launch["withheld"] = withheld
    for item in effective.cited:
        entry = item.launch_file(repository.name, commit)
        if all((known["path"], known.get("lines")) != (entry["path"], entry.get("lines")) for known in files):
            files.append(entry)
    for item in missing:  # the file that needs one, cited where nothing else cites it
        if all(known["path"] != item.file for known in files):
            needs = Cited(item.file, item.line, item.line, f"needs {item.path}, which is not at this commit")
            files.append(needs.launch_file(repository.name, commit))
    sets: dict[str, Any] = {}
    if "gpus" in effective.values:
        sets["gpus"] = effective.values["gpus"]
    for key, names in (
        ("tp", ("TP", "TENSOR_MODEL_PARALLEL")),
        ("pp", ("PP", "PIPELINE_MODEL_PARALLEL")),
        ("cp", ("CP", "CONTEXT_PARALLEL")),
    ):
        value, _ = _int(config, *names)
        if value:
            sets[key] = value
    for key in ("gbs",):
        if key in effective.values:
            sets[key] = effective.values[key]
    value, _ = _int(config, "MBS", "MICRO_BATCH_SIZE")
    if value:
        sets["mbs"] = value
    if "seq_length" in effective.values:
        sets["seq_length"] = effective.values["seq_length"]
    precision = _precision(config)
    if precision is not None:
        sets["precision"] = precision[0]
    if sets:
        launch["sets"] = sets
    launch["inputs"] = _inputs(command, env, found.container)
    if missing:
        launch["missing"] = [item.data for item in dict.fromkeys(missing)]
    if steps:
        launch["preparation"] = [step.data for step in steps]
    if withheld:
        notes.append(
            "Set by the configuration, and withheld from env as names a recipe may not set (the page warns of "
            "each): " + ", ".join(item["name"] for item in withheld) + "."
        )
    if expressions:
        notes.append(
            "Set by the configuration as shell expressions, evaluated when it is sourced and so left out of env: "
            + ", ".join(expressions)
            + "."
        )
    if conditional:
        notes.append(
            "Set, overridden or unset by the configuration only under a condition, and so never exported by "
            "env.sh or launch.sh (launch.conditional gives each with its test, file and line): "
            + ", ".join(dict.fromkeys(item["name"] for item in conditional))
            + "."
        )
    for missing in config.missing:
        under = f" under {missing.condition}" if missing.condition else ""
        notes.append(
            f"{missing.path} line {missing.line} sources {missing.sourced}{under}, which is not beside it at this "
            "commit: its variables are not in env."
        )
    for file, line, what in config.unread:
        notes.append(f"{file} line {line}: {what}; what it sets is not read.")
    notes += effective.notes
    if precision is not None:
        notes.append(
            "sets.precision is the configuration's, read as the recipe's precision is (FP8, FP4 and their recipes)."
        )
    launch["notes"] = " ".join(notes)[:5000]
    return launch


def _launch_disagreement(data: dict[str, Any], config: mp.ShellConfig) -> list[dict[str, str]]:
    """Where the launch's configuration runs other values than the result (the Launch values check),
    say which and that both are the submitter's: an MLPerf launch has no option that sets them."""
    launch = data["launch"]
    if launch.get("kind") != "documented":
        return []
    layout, workload = data["layout"], data["workload"]
    row = {
        "gpus": data["gpu"]["count"],
        "tp": layout.get("tp"),
        "pp": layout.get("pp"),
        "cp": layout.get("cp"),
        "mbs": layout.get("rows_per_microbatch"),
        "gbs": workload.get("global_batch"),
        "seq_length": workload.get("row_tokens"),
        "precision": workload.get("precision"),
    }
    gaps = launchvalues.compare(row, launch.get("sets", {}))
    if not gaps.differing:
        return []
    by_key = {item.key: item for item in gaps.comparisons}
    whose = {
        "gpus": "the system description",
        "gbs": "the logs' global_batch_size",
        "seq_length": "the logs' max_sequence_length",
    }
    said = [
        f"{item.label} {launchvalues.show(item.launch)} ({whose.get(key, 'the result')}: {launchvalues.show(item.row)})"
        for key, item in ((key, by_key[key]) for key in gaps.differing)
    ]
    return [
        {
            "check": "Launch values",
            "note": f"The documented launch, with {config.name} sourced, runs "
            + ", ".join(said)
            + ". Both are the submitter's files, as published; the launch has no option that sets them otherwise.",
        }
    ]


def _inputs(command: str, env: dict[str, str], container: str | None) -> list[dict[str, str]]:
    inputs = [
        {
            "name": "<Slurm cluster>" if "sbatch" in command else "<the nodes>",
            "description": "Nodes of the system this result ran on, with the container runtime the README assumes.",
            "origin": "your cluster; the submission's README",
            "kind": "cluster",
        }
    ]
    reads_image = any(
        f"<{name}>" in command for name in ("docker/registry:benchmark-tag", "docker/registry", "container/name")
    )
    if any(
        re.match(r"\$\{?CONT\b", value)
        for simple in shellenv.commands(command)[0]
        for word in simple.assignments
        for name, value in [shellenv.assigned(word) or ("", "")]
        if name == "CONT"
    ):
        # `export CONT=$CONT` (NVIDIA's newer READMEs) keeps the value the reader set before: an input.
        inputs.append(
            {
                "name": "CONT",
                "description": (
                    "The benchmark's container image, set before the command runs (the command keeps it: "
                    "export CONT=$CONT): built from the implementation's Dockerfile, where the cluster can pull it."
                ),
                "origin": "the implementation's README and Dockerfile",
                "kind": "container-image",
            }
        )
    if container is None and not reads_image and not re.search(r"\$\{?(CONT|IMAGE_NAME)\b", command):
        inputs.append(
            {
                "name": "<container image>",
                "description": (
                    "The benchmark's container image, which the quoted lines do not name as an image to pull: "
                    "built from the implementation's Dockerfile (or the image its README names elsewhere)."
                ),
                "origin": "the implementation's Dockerfile and README",
                "kind": "container-image",
            }
        )
    for item in script_inputs(command, env):
        if item.kind == "variable" and is_dangerous_name(item.name):
            continue  # the system's own (LD_LIBRARY_PATH), never one a reader is asked to set
        written = item.written if item.kind == "placeholder" else item.name
        # `</path/to/dataset>` is `<path/to/dataset>` written from the root.
        description, origin, kind = described(written)
        inputs.append(
            {
                "name": written,
                "description": description
                or f"Read by the documented command (line {item.line}); the submission's README says what to provide.",
                "origin": origin or "the submission's README",
                **({"kind": kind} if kind else {}),
            }
        )
    return inputs


def _image(command: str) -> str | None:
    """The image the reader builds for the command, as it writes it: the placeholder it gives CONT or
    IMAGE_NAME, `"$CONT"` where it keeps the reader's, or `<container image>` where it names none; None
    where it names an image or file of the publisher's own (Oracle's .sqsh)."""
    for simple in shellenv.commands(command)[0]:
        for word in simple.assignments:
            name, _ = shellenv.assigned(word) or ("", "")
            if name in ("CONT", "IMAGE_NAME"):
                value = word.text.split("=", 1)[1]
                if re.fullmatch(r"\$\{?CONT\}?", value.strip('"')):
                    return '"$CONT"'
                return value if "<" in value else None
    return "<container image>"


def _last_commit(source: GitSource, paths: Sequence[str]) -> str:
    from ..reading.gitrev import run_git

    return (
        run_git(source.repo, "log", "-1", "--format=%H", source.commit, "--", *paths).decode().strip() or source.commit
    )


def _permalink(
    repository: mp.Repository, commit: str, path: str, first: int | None = None, last: int | None = None
) -> str:
    return github_permalink(repository.name, commit, path, first, last)


def _link(repository: mp.Repository, file: FileAtCommit, line: int | None = None) -> str:
    """A permalink at the commit that last changed the file, so a later import cites the same text."""
    return _permalink(repository, file.commit, file.path, line)


def _notes(result: mp.Result, config: mp.ShellConfig, evidence: str) -> list[str]:
    values = config.values
    said = ", ".join(
        f"`{name}={values[name].value}` ({values[name].path.rsplit('/', 1)[-1]} line {values[name].line})"
        for name in (
            "TP",
            "TENSOR_MODEL_PARALLEL",
            "PP",
            "PIPELINE_MODEL_PARALLEL",
            "CP",
            "CONTEXT_PARALLEL",
            "MBS",
            "MICRO_BATCH_SIZE",
            "FP8",
            "FP4",
            "FP4_RECIPE",
            "FP8_RECIPE",
        )
        if name in values
    )
    return [
        f"Layout and precision from {config.path}, the configuration this result ran ({evidence}): {said}.",
        "Not published: the peak memory, the GPU-hours and the image digest (the image is built from the "
        "implementation's Dockerfile). Throughput per GPU is derived "
        "from the logs (result.throughput_note).",
    ]
