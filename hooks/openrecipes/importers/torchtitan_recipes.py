"""torchtitan's benchmark rows as `published` recipes (schema version 2).

A row becomes a recipe only when its sequence length and its throughput per GPU are published:
in the row or caption, or, for sequence length, batch and degrees, in the config file the
report's own command names, read at the torchtitan commit the report says it ran (cited in the
recipe). The global batch size, when not printed, is the local batch size times the
data-parallel degree, as torchtitan itself computes it at that commit (the line is cited); a
row whose commit cannot be read here is skipped rather than guessed.

Where the report publishes its command, it is the recipe's documented `launch`: check out the
torchtitan commit the report ran, run the command as first published (when the report's command
was edited after publication, torchtitan having renamed flags, the notes say so), with the config
file it names linked at that commit and the values the config and the command set. A report that
publishes no command gets torchtitan's own documented launcher at the commit it ran, with the row's
stated settings as its options (`torchtitan_launch`), or a launch of kind `not-published` saying
which setting could not be mapped.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import re
import textwrap
import tomllib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..checking.scriptinputs import script_inputs
from ..reading.gitrev import GitError
from . import firstseen, torchtitan_launch
from . import torchtitan as tt
from . import torchtitan_inputs as needs
from .common import Import, Planned, Skipped, github_permalink, name_part, recipe_id
from .gitsource import FileAtCommit, GitSource

IMPORTER = "torchtitan"
PUBLISHER = "PyTorch team (pytorch/torchtitan)"

MODELS = {
    # model as printed: reference/models.yaml key
    "Llama 3.1 8B": "Llama 3.1 8B",
    "Llama 3.1 70B": "Llama 3.1 70B",
    "Llama 3.1 405B": "Llama 3.1 405B",
    # The async-TP report's headings; its Models section says "Llama 3.1 8B, 70B".
    "Llama3 8b": "Llama 3.1 8B",
    "Llama3 70b": "Llama 3.1 70B",
}

GPUS = {
    # "<GPU as printed> <memory>GB", or the GPU alone where the report states no memory: reference/gpus.yaml key
    "H100 96GB": "H100-96GB",  # Grand Teton's H100: "96GB HBM2e", between SXM and NVL
    "H200": "H200",
}

# What torchrun's variables mean is torchrun's, not the report's: said here once for every command.
LAUNCH_INPUTS = {
    "MASTER_ADDR": "Host name or IP address of the first node; torchrun on every node meets there (port 29500).",
}
LAUNCH_ORIGINS = {
    "MASTER_ADDR": "your cluster (under Slurm, the first host of `scontrol show hostnames $SLURM_JOB_NODELIST`)",
}
_TRAIN_SCRIPTS = torchtitan_launch.TRAIN_SCRIPTS
_REPORT_TAG = re.compile(r"_(\d{6}|\d{4}-\d{2})_(.+)$")


@dataclass(frozen=True)
class Config:
    """What the config file a report's command names sets, with the command's overrides applied."""

    path: str
    commit: str
    values: dict[str, Any]
    """`training.seq_len` -> 8192, ..."""
    lines: dict[str, int]
    """Where each key is set in the file."""

    def get(self, key: str) -> Any:
        return self.values.get(key)


def permalink(path: str, commit: str, line: int | None = None) -> str:
    return github_permalink(tt.REPOSITORY, commit, path, line)


def build(source: GitSource) -> Import:
    planned: list[Planned] = []
    skipped: list[Skipped] = []
    for path in source.list(tt.FOLDER):
        if not path.endswith(".md") or path.rsplit("/", 1)[-1] in tt.NOT_REPORTS:
            continue
        file = source.read(path)
        report = tt.parse_report(path, file.text)
        skipped += [Skipped(f"{path}:{line}", f"table not read: {reason}") for line, reason in report.unread]
        history = firstseen.walk(source, (path,), _history_rows, (tt.ParseError,))
        for row in report.rows:
            made = _recipe(row, report, file, source, history)
            (skipped if isinstance(made, Skipped) else planned).append(made)
    counts = Counter(recipe.id for recipe in planned)
    clashes = [recipe for recipe, count in counts.items() if count > 1]
    if clashes:
        raise tt.ParseError(f"two rows make the recipe {clashes[0]}")
    return Import(IMPORTER, tuple(planned), tuple(skipped), lambda recipe: True)


def row_key(row: tt.Row) -> tuple[Any, ...]:
    """What makes a row of a past version of a report the same row (firstseen): its table's caption
    and every value read from it."""
    return (row.caption, row.values)


def _history_rows(path: str, text: str) -> Iterator[tuple[tuple[Any, ...], int]]:
    for row in tt.parse_report(path, text).rows:
        yield row_key(row), row.line


def _first_published(row: tt.Row, history: firstseen.History) -> tuple[dict[str, Any] | None, list[str]]:
    return firstseen.first_published(history, row_key(row), lambda seen: permalink(seen.path, seen.commit, seen.line))


def _recipe(
    row: tt.Row, report: tt.Report, file: FileAtCommit, source: GitSource, history: firstseen.History
) -> Planned | Skipped:
    values = row.values
    where = f"{row.path}:{row.line} ({_where(row)})"
    if values.tokens_per_gpu is None:
        columns = ", ".join(repr(column) for column in values.not_per_gpu) or "none"
        return Skipped(where, f"no throughput per GPU: the throughput columns ({columns}) do not say per GPU")
    command, command_notes = _published_command(report, file, source)
    torchtitan = report.versions.get("torchtitan")
    config = _config(command, torchtitan, source) if command else None
    if command and command.config_file and config is None:
        return Skipped(where, f"the config file {command.config_file} cannot be read at the report's torchtitan commit")
    used: list[str] = []  # config keys a value came from, cited in one note
    seq_len = values.seq_len
    if seq_len is None and config is not None and isinstance(config.get("training.seq_len"), int):
        seq_len = config.get("training.seq_len")
        used.append("training.seq_len")
    if seq_len is None:
        return Skipped(where, "the sequence length is not published (not in the table, and the report names no config)")
    float8 = values.float8 or bool(command and "float8" in command.options.get("model.converters", ""))
    precision = values.precision or ("fp8" if float8 else None)
    if precision is None:
        return Skipped(where, "the precision is not published")
    model = MODELS.get(values.model or "")
    if model is None:
        return Skipped(where, f"model {values.model!r} is not in MODELS of torchtitan_recipes.py")
    gpu_name = f"{report.gpu} {report.gpu_memory_gb}GB" if report.gpu_memory_gb else report.gpu
    gpu = GPUS.get(gpu_name or "")
    if gpu is None or report.per_node is None:
        return Skipped(
            where, f"GPU {gpu_name!r} is not in GPUS of torchtitan_recipes.py, or its GPUs per host are not stated"
        )
    gpus = values.gpus or (values.num_nodes * report.per_node if values.num_nodes else None)
    if gpus is None:
        return Skipped(where, "the GPU count is not published")
    layout, layout_notes = _layout(values, config, gpus, used)
    if layout is None:
        return Skipped(where, "the tensor- and pipeline-parallel degrees are not published")
    batch, batch_note = _global_batch(values, config, command, layout, gpus, torchtitan, source, used)
    if batch is None:
        return Skipped(where, f"the global batch size is not published ({batch_note})")

    gpu_data: dict[str, Any] = {"type": gpu}
    if report.gpu_memory_gb:
        gpu_data["memory_gb"] = report.gpu_memory_gb
    gpu_data.update({"count": gpus, "per_node": report.per_node})
    if report.system:
        gpu_data["system"] = report.system
    result: dict[str, Any] = {"tokens_per_s_per_gpu": values.tokens_per_gpu}
    if report.metric:
        result["throughput_note"] = report.metric.text
    notes = [_config_note(config, used)] if config and used else []
    notes += layout_notes
    if batch_note:
        notes.append(batch_note)
    memory = _memory(values, report)
    if memory is not None:
        result["memory_gib"] = memory
    elif values.memory_gib is not None:
        notes.append(
            f"The Memory(GiB) figure ({values.memory_gib} GiB) is not recorded as peak memory: the report does "
            "not say it is the peak, or the largest over the GPUs."
        )
    first, first_notes = _first_published(row, history)
    notes += first_notes
    data: dict[str, Any] = {
        "schema_version": 2,
        "model": model,
        "gpu": gpu_data,
        "author": {"name": report.author or PUBLISHER, "url": permalink(file.path, file.commit)},
        "status": "published",
        "source": {
            "url": permalink(file.path, file.commit, row.line),
            "where": _where(row),
            "publisher": PUBLISHER,
            "published": dt.date.fromisoformat(file.date),
            **({"first_published": first} if first else {}),
            "excerpt": row.excerpt,
            "importer": IMPORTER,
        },
        "stack": _stack(report, file),
        "workload": {
            "row_tokens": seq_len,
            "global_batch": batch,
            "precision": precision,
            **({"fp8_scaling": values.fp8_scaling} if values.fp8_scaling else {}),
        },
        "layout": layout,
        "result": result,
    }
    if command is not None:
        notes += command_notes
        launch = _launch(command, values, config, torchtitan, report, file, source)
        if launch is not None:
            data["launch"] = launch
    elif torchtitan is not None and torchtitan.commit is not None:
        # No command in the report: torchtitan's documented launcher at the commit the report ran.
        data["launch"] = torchtitan_launch.documented(
            torchtitan_launch.Row(
                values=values,
                layout=layout,
                gpus=gpus,
                per_node=report.per_node,
                flavor=model.rsplit(" ", 1)[-1],
                version=torchtitan,
                report_url=permalink(file.path, file.commit, torchtitan.line),
                versions=", ".join(
                    f"{version.repo} {version.commit or version.shown} ({version.date})"
                    for name, version in report.versions.items()
                    if name != "torchtitan"
                ),
            ),
            source,
        )
    else:
        data["launch"] = {
            "kind": "not-published",
            "reason": (
                f"The report ({row.path}) publishes no command, names no config file for its tables and names no "
                "torchtitan commit it ran, so no documented launch of torchtitan can be pinned to it."
            ),
        }
    if float8 and not values.fp8_scaling:
        notes.append("Float8: the scaling recipe is not stated.")
    notes.append("Not published: the data set and the training method (pre-training or fine-tuning).")
    data["notes"] = "\n".join(f"- {note}" for note in notes) + "\n"
    # The GPU count already tells rows that differ only in their node count apart.
    label = "" if values.num_nodes is not None else name_part(values.label.lower().replace(" ", ""))
    tag = _precision_token(precision, values.fp8_scaling)
    name = "-".join(part for part in ("tt", _report_tag(row.path), tag, f"{gpus}gpu", label) if part)
    return Planned(recipe_id(model, gpu, name), data)


def _launch(
    command: tt.Command,
    values: tt.Values,
    config: Config | None,
    torchtitan: tt.Version | None,
    report: tt.Report,
    file: FileAtCommit,
    source: GitSource,
) -> dict[str, Any] | None:
    """The report's command as the documented launch, at the torchtitan commit the report ran."""
    commit = source.resolve(torchtitan.commit) if torchtitan is not None and torchtitan.commit else None
    if commit is None:
        return None
    env = {"NUM_NODES": str(values.num_nodes)} if values.num_nodes is not None and "$NUM_NODES" in command.text else {}
    inputs = [
        {
            "name": item.name,
            "description": LAUNCH_INPUTS[item.name],
            "origin": LAUNCH_ORIGINS[item.name],
            "kind": "cluster",
        }
        for item in script_inputs(command.text, env)
        if item.name in LAUNCH_INPUTS
    ]
    nodes = f"{values.num_nodes} nodes" if values.num_nodes is not None else "the nodes"
    inputs.insert(
        0,
        {
            "name": "<every node>",
            "description": (
                f"The command is run once on each of {nodes} ({report.per_node or 'its'} GPUs each), in a "
                "checkout of that commit with the torch and torchao versions the report names."
            ),
            "origin": "torchrun's multi-node launch; the report's Hardware and Versions and Dates sections",
            "kind": "cluster",
        },
    )
    wandb = needs.wandb_input(command.text)
    if wandb is not None:
        inputs.append(wandb)
    tokenizer = needs.tokenizer_step(source, commit)
    files: list[dict[str, Any]] = []
    if config is not None and config.commit == commit:
        files.append(
            {"path": config.path, "what": "the config file the command names", "url": permalink(config.path, commit)}
        )
    script = next(
        (
            path
            for path in _TRAIN_SCRIPTS
            if re.search(rf"(?<![\w./]){re.escape(path)}(?!\w)", command.text) and source.at(commit).exists(path)
        ),
        None,
    )
    if script is not None:
        files.append({"path": script, "what": "the training script the command runs", "url": permalink(script, commit)})
    if not files:
        return None
    if tokenizer is not None:
        files.append(tokenizer[1].launch_file(tt.REPOSITORY, commit))
    sets: dict[str, Any] = {}
    nproc = re.search(r"--nproc_per_node[ =](\d+)", command.text)
    if values.num_nodes is not None and nproc:
        sets["gpus"] = values.num_nodes * int(nproc.group(1))
    if config is not None:
        for key, config_key in (
            ("tp", "parallelism.tensor_parallel_degree"),
            ("pp", "parallelism.pipeline_parallel_degree"),
            ("cp", "parallelism.context_parallel_degree"),
            ("mbs", "training.local_batch_size"),
            ("seq_length", "training.seq_len"),
        ):
            if isinstance(config.get(config_key), int) and config.get(config_key) > 0:
                sets[key] = config.get(config_key)
        if sets.get("pp") != 1:
            sets.pop("mbs", None)  # with pipeline stages, the local batch is split into microbatches
    batch_note = ""
    if config is not None and "gpus" in sets:
        layout = {"tp": sets.get("tp", 1), "pp": sets.get("pp", 1), "cp": sets.get("cp", 1)}
        # What the command runs: the config file with its options, never the caption's values.
        unprinted = dataclasses.replace(values, global_batch=None, local_batch=None)
        batch, batch_note = _global_batch(unprinted, config, command, layout, sets["gpus"], torchtitan, source, [])
        if batch is not None:
            sets["gbs"] = batch
        else:
            batch_note = f"Not in sets: the global batch ({batch_note})."
    precision = _launch_precision(config, command)
    if precision is not None:
        sets["precision"] = precision
    ordered = [key for key in ("gpus", "tp", "pp", "cp", "gbs", "mbs", "seq_length", "precision") if key in sets]
    version = commit[:7] + (f", {torchtitan.date}" if torchtitan and torchtitan.date else "")
    return {
        "kind": "documented",
        "source": {"repository": tt.REPOSITORY, "commit": commit, "files": files},
        "checkout": (
            f"git clone https://github.com/{tt.REPOSITORY}.git\ncd torchtitan\n"
            f"git switch --detach {commit}  # the torchtitan the report ran ({version})\n"
        ),
        "command": command.text,
        **({"env": env} if env else {}),
        **({"sets": {key: sets[key] for key in ordered}} if sets else {}),
        "inputs": inputs,
        **({"preparation": [tokenizer[0]]} if tokenizer is not None else {}),
        "notes": (
            "The command the report publishes (the notes say where, and any edit since), run at the torchtitan "
            "commit its Versions and Dates table names; sets holds what the config file sets with the command's "
            "options applied"
            + (
                ", and the GPUs NUM_NODES × --nproc_per_node start; env is the row's NUM_NODES, which the command "
                "reads."
                if env
                else "."
            )
            + (f" {batch_note}" if batch_note else "")
            + (
                " sets.precision is fp8: the command's --model.converters (over the config's) lists float8."
                if precision == "fp8"
                else ""
            )
        ),
    }


def _where(row: tt.Row) -> str:
    caption = row.caption.strip()
    table = re.match(r"\*\*(Table \d+)\*\*", caption)
    if table:
        what = table.group(1)
    elif caption.startswith("#"):
        what = f'the table "{caption.lstrip("#").strip()}"'
    else:
        what = f"the table at line {row.header_line}"
    return f"{row.path}, {what}, row {row.number} of {row.rows_in_table} ({row.values.label})"


def _report_tag(path: str) -> str:
    """`benchmarks/llama3_h100_202412_torchtitan.md` -> `202412-torchtitan`."""
    stem = path.rsplit("/", 1)[-1].removesuffix(".md")
    match = _REPORT_TAG.search(stem)
    return name_part(f"{match.group(1)}-{match.group(2)}" if match else stem).lower()


def _launch_precision(config: Config | None, command: tt.Command) -> str | None:
    """The precision a command runs: fp8 where model.converters (its option, else the config's)
    lists float8, else the mixed-precision parameter type; None where neither is written."""
    if config is None:
        return None
    converters = command.options.get("model.converters", config.get("model.converters"))
    if "float8" in str(converters or ""):
        return "fp8"
    param = command.options.get("training.mixed_precision_param", config.get("training.mixed_precision_param"))
    return torchtitan_launch.PARAM_PRECISIONS.get(str(param))


def _precision_token(precision: str, scaling: str | None) -> str:
    return f"{precision}-{scaling}" if scaling else precision


def _config(command: tt.Command, torchtitan: tt.Version | None, source: GitSource) -> Config | None:
    """The command's config file at the report's torchtitan commit, its options applied over it."""
    if command.config_file is None or torchtitan is None or torchtitan.commit is None:
        return None
    commit = source.resolve(torchtitan.commit)
    if commit is None:
        return None
    try:
        text = source.show(command.config_file, commit)
        table = tomllib.loads(text)
    except (GitError, ValueError):  # no such file at that commit, or not TOML
        return None
    values: dict[str, Any] = {}
    lines = {key: number for key, (number, _) in tt.toml_lines(text).items()}
    for section_name, entries in table.items():
        if isinstance(entries, dict):
            for key, value in entries.items():
                values[f"{section_name}.{key}"] = value
    for key, value in command.options.items():
        if key in values and isinstance(values[key], int) and re.fullmatch(r"-?\d+", value):
            values[key] = int(value)
            lines.pop(key, None)  # set on the command line, not in the file
    return Config(command.config_file, commit, values, lines)


def _config_note(config: Config, keys: list[str]) -> str:
    shown = ", ".join(
        f"`{key.split('.', 1)[1]} = {json.dumps(config.get(key))}`"
        + (f" ({permalink(config.path, config.commit, config.lines[key])})" if key in config.lines else "")
        for key in keys
        if config.get(key) is not None
    )
    return (
        f"From the config file the report's command names, {config.path} at the torchtitan commit the report "
        f"ran ({config.commit[:7]}): {shown}."
    )


def _layout(
    values: tt.Values, config: Config | None, gpus: int, used: list[str]
) -> tuple[dict[str, Any] | None, list[str]]:
    notes = []
    degrees = {"tp": values.tp, "pp": values.pp, "cp": values.cp}
    for key, name in (("tp", "tensor"), ("pp", "pipeline"), ("cp", "context")):
        config_key = f"parallelism.{name}_parallel_degree"
        if degrees[key] is None and config is not None and isinstance(config.get(config_key), int):
            degrees[key] = config.get(config_key)
            used.append(config_key)
    tp, pp, cp, dp = degrees["tp"], degrees["pp"], degrees["cp"], values.fsdp
    if tp is None and pp is None and dp is not None and gpus == dp * (cp or 1):
        # `8 GPUs`, `FSDP 4, CP 2`: every GPU is in the FSDP x CP mesh, so no TP or PP.
        tp = pp = 1
        notes.append(f"TP and PP are not printed: {gpus} GPUs = FSDP {dp} × CP {cp or 1}, so both are 1.")
    if tp is None or pp is None:
        return None, []
    layout: dict[str, Any] = {"tp": tp, "pp": pp}
    if cp is not None:
        layout["cp"] = cp
    if dp is not None:
        layout["dp"] = dp
    shard = config.get("parallelism.data_parallel_shard_degree") if config is not None else None
    if values.fsdp is not None or (isinstance(shard, int) and shard != 1):
        layout["sharding"] = {"kind": "fsdp"}
        if values.fsdp is None:
            used.append("parallelism.data_parallel_shard_degree")
    if values.schedule and pp > 1:
        layout["pipeline_schedule"] = {"1F1B": "1f1b", "Interleaved 1F1B": "interleaved-1f1b"}[values.schedule]
    if pp == 1:
        # Without pipeline stages torchtitan runs the local batch as one microbatch.
        local = values.local_batch or (config.get("training.local_batch_size") if config else None)
        if isinstance(local, int):
            layout["rows_per_microbatch"] = local
    ac = values.activation_checkpointing
    if ac is None and config is not None and config.get("activation_checkpoint.mode") in ("full", "selective"):
        ac = config.get("activation_checkpoint.mode")
        used.append("activation_checkpoint.mode")
    if ac:
        layout["recompute"] = {"granularity": ac}
    return layout, notes


def _global_batch(
    values: tt.Values,
    config: Config | None,
    command: tt.Command | None,
    layout: dict[str, Any],
    gpus: int,
    torchtitan: tt.Version | None,
    source: GitSource,
    used: list[str],
) -> tuple[int | None, str]:
    if values.global_batch is not None:
        return values.global_batch, ""
    configured = config.get("training.global_batch_size") if config is not None else None
    if isinstance(configured, int) and configured > 0:
        used.append("training.global_batch_size")
        return configured, ""
    local = values.local_batch or (config.get("training.local_batch_size") if config else None)
    if not isinstance(local, int):
        return None, "no local batch size either"
    rule = _rule(torchtitan, source)
    if rule is None:
        return None, "torchtitan's rule for it cannot be read at the report's commit"
    path, line, text, commit = rule
    dp = layout.get("dp")
    if dp is None and config is not None:
        shard = config.get("parallelism.data_parallel_shard_degree")
        replicate = config.get("parallelism.data_parallel_replicate_degree") or 1
        others = layout["tp"] * layout["pp"] * layout.get("cp", 1) * replicate
        dp = (gpus // others if shard == -1 else shard) * replicate if isinstance(shard, int) else None
    if not isinstance(dp, int):
        return None, "the data-parallel degree is not published"
    stated = "the command's" if command and "training.local_batch_size" in command.options else "the caption's"
    return local * dp, (
        f"Global batch size not printed: {stated} local batch size {local} × data-parallel degree {dp} = "
        f"{local * dp} sequences, as torchtitan computes it at {commit[:7]} ({permalink(path, commit, line)}: "
        f"`{text}`)."
    )


def _rule(torchtitan: tt.Version | None, source: GitSource) -> tuple[str, int, str, str] | None:
    """The line of torchtitan's training script that makes the global batch local batch × DP."""
    if torchtitan is None or torchtitan.commit is None:
        return None
    commit = source.resolve(torchtitan.commit)
    if commit is None:
        return None
    found = torchtitan_launch.global_batch_rule(source, commit)
    return (*found, commit) if found is not None else None


def _memory(values: tt.Values, report: tt.Report) -> int | float | None:
    """Memory(GiB) as peak memory only where the report says it is the maximum over the GPUs."""
    said = any("maximum across all GPUs" in footnote.text for footnote in report.footnotes.values())
    return values.memory_gib if said else None


def _stack(report: tt.Report, file: FileAtCommit) -> dict[str, Any]:
    stack: dict[str, Any] = {}
    titan = report.versions.get("torchtitan")
    torch = report.versions.get("torch")
    if titan:
        stack["framework"] = f"torchtitan {titan.shown} ({titan.date})"
    if torch:
        stack["pytorch"] = f"{torch.shown} ({torch.date})"
    network = [statement.text for statement in report.hardware if re.search(r"NVLink|RDMA|Gb/s", statement.text)]
    if network:
        stack["network"] = " ".join(network)
    if report.versions:
        line = min(version.line for version in report.versions.values())
        listed = ", ".join(
            f"{version.repo} {version.commit or version.shown} ({version.date})" for version in report.versions.values()
        )
        stack["source"] = (
            f"The report's Versions and Dates table ({permalink(file.path, file.commit, line)}): {listed}."
        )
    return stack


def _published_command(report: tt.Report, file: FileAtCommit, source: GitSource) -> tuple[tt.Command | None, list[str]]:
    """The report's command as first published, and notes on any later edit and on lines a shell would split."""
    if report.command is None:
        return None, []
    notes = []
    published = report.command
    first = source.first_version(file.path)
    if first is not None and first.commit != file.commit:
        original = tt.parse_report(first.path, first.text).command
        if original is not None and original.text != published.text:
            notes.append(
                "The launch command is the one first published with the report "
                f"({permalink(file.path, first.commit, original.line)}, {first.date}); the report at "
                f"{file.commit[:7]} shows it edited since ({permalink(file.path, file.commit, published.line)}), "
                "with torchtitan's later flag names."
            )
            published = original
    # Indentation is the code block's, not the command's.
    text = textwrap.dedent(published.text).strip("\n") + "\n"
    lines = text.splitlines()
    for number, line in enumerate(lines[:-1], start=1):
        if line.strip() and not line.rstrip().endswith("\\") and lines[number].lstrip().startswith("--"):
            # The options after it are the command's (parse_command reads them so, and the row's
            # figures were measured with them): the launch runs them as the report meant.
            notes.append(
                f"As published, line {number} of the command (`{line.strip()}`) does not end with `\\`, so a "
                f"shell would run `{lines[number].strip()}` as a separate command; the launch adds the `\\`."
            )
            lines[number - 1] = line.rstrip() + " \\"
    text = "\n".join(lines) + "\n"
    return tt.parse_command(tt.Statement(text, published.line)), notes
