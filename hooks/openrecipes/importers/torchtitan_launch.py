"""torchtitan's documented launch of a report's row, when the report publishes no command.

A report such as `benchmarks/llama3_h100_202412_torchtitan.md` prints no command and names no
config file, but its Versions and Dates table names the torchtitan commit it ran, and at that
commit torchtitan documents how a run is launched: the README's `CONFIG_FILE=… ./run_llama_train.sh`
(its options after it override the config: `torchtitan/config_manager.py`), `multinode_trainer.slurm`
for several nodes, a `train_configs/*.toml` per model. This module reads those files at that commit
and writes the launch with the row's stated settings as those documented options, each option
cited at its definition in `config_manager.py`.

Nothing is guessed. The train config is the one config of the row's model flavour (none, or two,
and there is no launch); a setting the commit has no option for (a scaling recipe, an interleaved
schedule's stages per rank), or a technique the config turns on that the row does not list, makes
the launch `not-published` with that reason. What the row leaves unsaid and the launch leaves at
the config's value (which Float8 options "Float8" meant, the data set, the step count) is said in
the launch's notes. It is how torchtitan documents launching the configuration, not a log of the
command that produced the figures, and the notes say so.
"""

from __future__ import annotations

import ast
import re
import tomllib
from dataclasses import dataclass
from typing import Any

from ..reading.gitrev import GitError
from . import torchtitan as tt
from . import torchtitan_inputs as needs
from .common import Cited, github_permalink
from .gitsource import GitSource

README = "README.md"
LAUNCHER = "run_llama_train.sh"
MULTINODE = "multinode_trainer.slurm"
OPTIONS = "torchtitan/config_manager.py"
CONFIGS = "train_configs"
FLOAT8_DOC = "docs/float8.md"

_README_LAUNCH = re.compile(r'^CONFIG_FILE="?\./train_configs/[^"\s]+\.toml"?\s+\./run_llama_train\.sh\s*$')
_SCHEDULES = {"1F1B": "1F1B"}
"""A row's schedule as printed -> `--experimental.pipeline_parallel_schedule`. An interleaved schedule
also needs its stages per rank (split points), which no row states, so it has no entry."""


class NotMappedError(ValueError):
    """The row cannot be launched from the commit's documented options without guessing; why."""


@dataclass(frozen=True)
class Option:
    """One `self.parser.add_argument("--section.name", …)` of config_manager.py."""

    name: str
    first: int
    last: int
    flag: bool
    """`action="store_true"`: given alone."""


@dataclass(frozen=True)
class Setting:
    option: Option
    value: str | None
    """None for a flag."""
    why: str
    """The row's setting it carries (`the row's sequence length 32768`)."""

    @property
    def word(self) -> str:
        return f"--{self.option.name}" + ("" if self.value is None else f" {self.value}")


def options(text: str) -> dict[str, Option]:
    """Every option config_manager.py defines, read with `ast` (never imported), with its lines."""
    found: dict[str, Option] = {}
    for node in ast.walk(ast.parse(text)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr != "add_argument" or not node.args or not isinstance(node.args[0], ast.Constant):
            continue
        name = node.args[0].value
        if not isinstance(name, str) or not name.startswith("--"):
            continue
        action = next((k.value for k in node.keywords if k.arg == "action"), None)
        flag = isinstance(action, ast.Constant) and action.value == "store_true"
        found[name[2:]] = Option(name[2:], node.lineno, node.end_lineno or node.lineno, flag)
    return found


def permalink(path: str, commit: str, first: int | None = None, last: int | None = None) -> str:
    return github_permalink(tt.REPOSITORY, commit, path, first, last)


def _show(source: GitSource, path: str, commit: str) -> list[str]:
    try:
        return source.show(path, commit).splitlines()
    except GitError:
        raise NotMappedError(f"torchtitan at {commit[:7]} has no {path}") from None


def _line(lines: list[str], pattern: re.Pattern[str] | str, path: str, after: int = 0) -> int:
    """The 1-based number of the first line from `after` that matches."""
    regex = re.compile(pattern) if isinstance(pattern, str) else pattern
    for number, line in enumerate(lines[after:], start=after + 1):
        if regex.search(line):
            return number
    raise NotMappedError(f"{path} does not hold {regex.pattern!r}")


def _headings(lines: list[str]) -> dict[int, int]:
    """Line number -> level of every Markdown heading outside code blocks (a `# comment` in one is none)."""
    found: dict[int, int] = {}
    fenced = False
    for number, line in enumerate(lines, start=1):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (match := re.match(r"^(#{1,6}) ", line)):
            found[number] = len(match.group(1))
    return found


def _section(lines: list[str], heading: int) -> int:
    """The last line of the section a heading opens (before the next heading of its level or higher)."""
    headings = _headings(lines)
    level = headings[heading]
    end = next((n - 1 for n, lv in headings.items() if n > heading and lv <= level), len(lines))
    while end > heading and not lines[end - 1].strip():
        end -= 1
    return end


def _heading_above(lines: list[str], number: int) -> int:
    headings = _headings(lines)
    return next(n for n in range(number, 0, -1) if n in headings)


@dataclass(frozen=True)
class TrainConfig:
    path: str
    values: dict[str, Any]
    lines: dict[str, int]
    text: dict[str, str]
    """Each key's line as written, without its comment (`lr = 3e-4`)."""


def train_config(source: GitSource, commit: str, flavor: str) -> TrainConfig:
    """The one train config of the commit whose `[model] flavor` is the row's model's."""
    try:
        paths = [p for p in source.at(commit).tree(CONFIGS) if p.endswith(".toml")]
    except GitError:
        paths = []
    found = []
    for path in paths:
        text = source.show(path, commit)
        try:
            table = tomllib.loads(text)
        except ValueError:
            continue
        model = table.get("model", {})
        if model.get("name") == "llama3" and str(model.get("flavor")) == flavor:
            found.append((path, text, table))
    if len(found) != 1:
        named = ", ".join(path for path, _, _ in found) or "none"
        raise NotMappedError(
            f"torchtitan at {commit[:7]} has {len(found)} train configs of the llama3 {flavor} flavour in "
            f"{CONFIGS}/ ({named}), so which one the report started from is not known"
        )
    path, text, table = found[0]
    values = {f"{section}.{key}": value for section, entries in table.items() for key, value in entries.items()}
    found_lines = tt.toml_lines(text)
    lines = {key: number for key, (number, _) in found_lines.items()}
    written = {key: line for key, (_, line) in found_lines.items()}
    return TrainConfig(path, values, lines, written)


def _settings(
    values: tt.Values, layout: dict[str, Any], config: TrainConfig, defined: dict[str, Option], float8: list[str]
) -> tuple[list[Setting], list[str]]:
    """The options that carry the row's settings, and notes on what the row leaves to the config."""
    wanted: list[tuple[str, str | None, str]] = []
    notes: list[str] = []
    derived = " (derived, not printed)" if values.tp is None else ""
    if values.local_batch is not None:
        wanted.append(("training.batch_size", str(values.local_batch), f"local batch size {values.local_batch}"))
    if values.seq_len is not None:
        wanted.append(("training.seq_len", str(values.seq_len), f"sequence length {values.seq_len}"))
    if values.fsdp is not None:
        wanted.append(("training.data_parallel_shard_degree", str(values.fsdp), f"FSDP {values.fsdp}"))
    wanted.append(("training.tensor_parallel_degree", str(layout["tp"]), f"TP {layout['tp']}{derived}"))
    wanted.append(("experimental.pipeline_parallel_degree", str(layout["pp"]), f"PP {layout['pp']}{derived}"))
    if "cp" in layout:
        wanted.append(("experimental.context_parallel_degree", str(layout["cp"]), f"CP {layout['cp']}"))
    if layout["pp"] > 1:
        schedule = values.schedule
        if schedule is None:
            raise NotMappedError("the row runs pipeline stages but names no schedule")
        if schedule not in _SCHEDULES:
            raise NotMappedError(
                f"the {schedule} schedule needs its stages per rank (--experimental.pipeline_parallel_split_points), "
                "which the report does not state"
            )
        wanted.append(("experimental.pipeline_parallel_schedule", _SCHEDULES[schedule], f"{schedule} schedule"))
    if values.activation_checkpointing is not None:
        mode = values.activation_checkpointing
        wanted.append(("activation_checkpoint.mode", mode, f"{mode} activation checkpointing"))
        if mode == "selective":
            kept = config.values.get("activation_checkpoint.selective_ac_option")
            notes.append(
                "The report says selective activation checkpointing without which (per layer or per op): the "
                f"launch keeps {config.path}'s selective_ac_option"
                + (f" ({kept!r})." if kept is not None else " (torchtitan's default).")
            )
    if values.fp8_scaling is not None:
        raise NotMappedError(f"torchtitan at this commit has no option for float8 {values.fp8_scaling} scaling")
    techniques = (
        ("torch.compile", values.compile, ["training.compile"]),
        ("AsyncTP", values.async_tp, ["experimental.enable_async_tensor_parallel"]),
        ("Float8", values.float8, float8),
    )
    for label, listed, names in techniques:
        if listed:
            wanted += [(name, None, label) for name in names]
        else:
            on = [name for name in names if config.values.get(name) is True]
            if on:
                raise NotMappedError(
                    f"the row does not list {label}, which {config.path} turns on ({on[0]}, line "
                    f"{config.lines.get(on[0])}), and the report does not say it was off"
                )
    settings = []
    for name, value, why in wanted:
        option = defined.get(name)
        if option is None:
            raise NotMappedError(f"torchtitan at this commit has no --{name} option for the row's {why}")
        if (value is None) != option.flag:
            raise NotMappedError(f"--{name} at this commit is {'a flag' if option.flag else 'not a flag'}")
        settings.append(Setting(option, value, why))
    return settings, notes


@dataclass(frozen=True)
class Float8Doc:
    """docs/float8.md's documented Float8 launch: its float8 options, and the lines it rests on."""

    flags: list[str]
    line: int
    """The command's line."""
    scaling: int
    """The line saying which scaling torchtitan supports."""
    cited: Cited


def _float8_doc(source: GitSource, commit: str) -> Float8Doc:
    lines = _show(source, FLOAT8_DOC, commit)
    number = _line(lines, r"run_llama_train\.sh.*--float8\.", FLOAT8_DOC)
    flags = re.findall(r"--(float8\.\w+)", lines[number - 1])
    scaling = _line(lines, r"^For scaling strategy", FLOAT8_DOC)
    cited = Cited(
        FLOAT8_DOC, _heading_above(lines, number), max(number, scaling), "Float8 training, as torchtitan launches it"
    )
    return Float8Doc(flags, number, scaling, cited)


@dataclass(frozen=True)
class Row:
    """What the import knows of a row when it derives its launch."""

    values: tt.Values
    layout: dict[str, Any]
    gpus: int
    per_node: int
    flavor: str
    """The model's torchtitan flavour (`8B`)."""
    version: tt.Version
    """The report's torchtitan row of its Versions and Dates table."""
    report_url: str
    """A permalink to the report's Versions and Dates table."""
    versions: str
    """The report's versions of torch and torchao, as it lists them."""


def documented(row: Row, source: GitSource) -> dict[str, Any]:
    """The launch of the row: torchtitan's documented launcher at the commit the report ran, or why not."""
    commit = source.resolve(row.version.commit) if row.version.commit else None
    if commit is None:
        return _not_published(f"the report's torchtitan commit ({row.version.shown}) cannot be read")
    try:
        return _documented(row, source, commit)
    except NotMappedError as reason:
        return _not_published(str(reason))


def _not_published(why: str) -> dict[str, Any]:
    return {
        "kind": "not-published",
        "reason": (
            "The report publishes no command and names no config file, and torchtitan's documented launcher at "
            f"the commit it ran cannot carry this row's settings without guessing: {why}."
        ),
    }


def _documented(row: Row, source: GitSource, commit: str) -> dict[str, Any]:
    readme = _show(source, README, commit)
    launch_line = _line(readme, _README_LAUNCH, README)
    launch_heading = _heading_above(readme, launch_line)
    tokenizer = needs.tokenizer_step(source, commit)
    if tokenizer is None:
        raise NotMappedError(f"{README} documents no tokenizer download at {commit[:7]}")
    launcher = _show(source, LAUNCHER, commit)
    ngpu_line = _line(launcher, r"^NGPU=\$\{NGPU:-", LAUNCHER)
    passes = _line(launcher, r"train\.py --job\.config_file \$\{CONFIG_FILE\} \$overrides", LAUNCHER)
    manager = _show(source, OPTIONS, commit)
    defined = options("\n".join(manager))
    precedence = _line(manager, r"precedence order: cmdline > toml > argparse default", OPTIONS)
    docstring = _heading_docstring(manager, precedence)
    config = train_config(source, commit, row.flavor)
    flavor_line = config.lines["model.flavor"]
    doc = _float8_doc(source, commit) if row.values.float8 else None
    cited = [
        Cited(README, launch_heading, _section(readme, launch_heading), "the launch of a training run"),
        tokenizer[1],
        Cited(config.path, None, None, f"the train config of the {row.flavor} flavour (line {flavor_line})"),
        Cited(OPTIONS, docstring, precedence, "options on the command line override the train config"),
    ]
    if doc is not None:
        cited.append(doc.cited)
    settings, notes = _settings(row.values, row.layout, config, defined, doc.flags if doc else [])
    cited += [Cited(OPTIONS, s.option.first, s.option.last, f"--{s.option.name}: the row's {s.why}") for s in settings]
    if row.gpus % row.per_node and row.gpus > row.per_node:
        raise NotMappedError(f"{row.gpus} GPUs are not whole hosts of {row.per_node}")
    config_arg = f'CONFIG_FILE="./{config.path}"'
    inputs = [
        {
            "name": "<torch and torchao>",
            "description": (
                f"A Python environment with the checkout's requirements.txt, and the torch and torchao the report "
                f"ran ({row.versions}); torchtitan's README installs a nightly torch instead"
            ),
            "origin": f"the report's Versions and Dates table ({row.report_url}); torchtitan's README Installation",
            "kind": "python-environment",
        },
    ]
    if row.gpus <= row.per_node:
        command = (
            f"NGPU={row.gpus} {config_arg} ./{LAUNCHER} \\\n" + " \\\n".join(f"  {s.word}" for s in settings) + "\n"
        )
        inputs.insert(
            0,
            {
                "name": "<GPU host>",
                "description": (
                    f"One host with {row.gpus} GPUs of the report's kind, network access to Hugging Face (torchtitan "
                    f"streams the train config's data set from there), and the checkout as the working directory"
                ),
                "origin": "the report's Hardware section; run_llama_train.sh runs torchrun on the local host",
                "kind": "cluster",
            },
        )
        cited.insert(1, Cited(LAUNCHER, ngpu_line, passes, "NGPU, and the options after it passed to train.py"))
        launcher_note = f"NGPU={row.gpus} is the row's GPU count ({LAUNCHER} line {ngpu_line})"
    else:
        command, slurm_cited, slurm_notes, partition_line = _multinode(row, source, commit, settings, config_arg)
        cited += slurm_cited
        notes += slurm_notes
        nodes = row.gpus // row.per_node
        inputs.insert(
            0,
            {
                "name": "<Slurm cluster>",
                "description": (
                    f"A Slurm cluster with {nodes} nodes of {row.per_node} GPUs of the report's kind, the checkout on "
                    "a file system every node sees (the job runs ./train.py from the directory it is submitted "
                    "from), network access to Hugging Face (torchtitan streams the train config's data set from "
                    "there) and DCGM's dcgmi (the script pauses its profiling)"
                ),
                "origin": "torchtitan's README, Multi-Node Training; the report's Hardware section",
                "kind": "cluster",
            },
        )
        inputs.append(
            {
                "name": "SLURM_PARTITION",
                "description": (
                    f"The Slurm partition of the GPU nodes; it replaces the script's #SBATCH --partition "
                    f"(line {partition_line}), which names the publisher's"
                ),
                "origin": "your cluster's administrator (`sinfo` lists the partitions)",
                "kind": "cluster",
            },
        )
        launcher_note = f"the GPUs are {nodes} nodes of {row.per_node}, launched with {MULTINODE} as the README says"
    left = [
        f"`{config.text[key]}` (line {config.lines[key]})"
        for key in ("training.dataset", "training.steps", "optimizer.lr", "profiling.enable_profiling")
        if key in config.text
    ]
    if doc is not None:
        notes.append(
            f"The report says Float8 without its options: the launch passes the {len(doc.flags)} that {FLOAT8_DOC} "
            f"launches Float8 training with (line {doc.line}), of which that page calls FSDP float8 all-gather and "
            "the precomputed scales optional; the report does not say whether they were on. The scaling is "
            f"torchtitan's default, dynamic tensor-wise, the one {FLOAT8_DOC} says is supported (line "
            f"{doc.scaling}); the report does not state it."
        )
    if row.layout["pp"] > 1:
        microbatches = defined.get("experimental.pipeline_parallel_microbatches")
        notes.append(
            "Pipeline microbatches are not stated: torchtitan's default, one per pipeline stage"
            + (f" ({OPTIONS} lines {microbatches.first}-{microbatches.last})." if microbatches else ".")
        )
    launch_notes = " ".join(
        [
            "The report publishes no command and names no config file. This is torchtitan's documented launcher at "
            f"{commit[:7]}, the commit the report's Versions and Dates table says it ran, with the row's stated "
            "settings as its documented options (each cited at its definition): how torchtitan documents launching "
            "this configuration, not a log of the command that produced the figures.",
            f"It starts from {config.path}, torchtitan's one train config of the {row.flavor} flavour at that commit; "
            f"options on the command line override it ({OPTIONS} line {precedence}); {launcher_note}.",
            *notes,
            "Not stated by the report and left at the train config's values: " + "; ".join(left) + "." if left else "",
        ]
    ).strip()
    sets: dict[str, Any] = {"gpus": row.gpus, "tp": row.layout["tp"], "pp": row.layout["pp"]}
    if "cp" in row.layout:
        sets["cp"] = row.layout["cp"]
    batch, batch_cited, batch_notes = _launch_values(row, config, source, commit, doc is not None)
    if "gbs" in batch:
        sets["gbs"] = batch["gbs"]
    if row.layout["pp"] == 1 and row.values.local_batch is not None:
        sets["mbs"] = row.values.local_batch  # no pipeline stages: the local batch is one microbatch
    if row.values.seq_len is not None:
        sets["seq_length"] = row.values.seq_len
    if "precision" in batch:
        sets["precision"] = batch["precision"]
    cited += batch_cited
    launch_notes += " " + " ".join(batch_notes)
    version = commit[:7] + (f", {row.version.date}" if row.version.date else "")
    return {
        "kind": "documented",
        "source": {
            "repository": tt.REPOSITORY,
            "commit": commit,
            "files": [item.launch_file(tt.REPOSITORY, commit) for item in cited],
        },
        "checkout": (
            f"git clone https://github.com/{tt.REPOSITORY}.git\ncd torchtitan\n"
            f"git switch --detach {commit}  # the torchtitan the report ran ({version})\n"
        ),
        "command": command,
        "sets": sets,
        "inputs": inputs,
        "preparation": [tokenizer[0]],
        "notes": launch_notes,
    }


TRAIN_SCRIPTS = ("train.py", "torchtitan/train.py")
_GLOBAL_BATCH_RULE = re.compile(r"global.batch.size.*batch_size \* dp_degree")
PARAM_PRECISIONS = {"bfloat16": "bf16", "float16": "fp16"}
"""torchtitan's mixed-precision parameter type -> `workload.precision`'s word."""


def global_batch_rule(source: GitSource, commit: str) -> tuple[str, int, str] | None:
    """(path, line, text) of the training script's line that makes the global batch local batch × DP."""
    for path in TRAIN_SCRIPTS:
        try:
            text = source.show(path, commit)
        except GitError:  # the script moved between versions: try the next place
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            if _GLOBAL_BATCH_RULE.search(line):
                return path, number, line.strip()
    return None


def _launch_values(
    row: Row, config: TrainConfig, source: GitSource, commit: str, float8: bool
) -> tuple[dict[str, Any], list[Cited], list[str]]:
    """The global batch and the precision the command runs, with the line the batch rests on and notes."""
    found: dict[str, Any] = {}
    cited: list[Cited] = []
    notes: list[str] = []
    local = row.values.local_batch if row.values.local_batch is not None else config.values.get("training.batch_size")
    shard = row.values.fsdp if row.values.fsdp is not None else config.values.get("training.data_parallel_shard_degree")
    replicate = config.values.get("training.data_parallel_replicate_degree", 1)
    rule = global_batch_rule(source, commit)
    others = row.layout["tp"] * row.layout["pp"] * row.layout.get("cp", 1)
    if isinstance(local, int) and isinstance(shard, int) and isinstance(replicate, int) and rule is not None:
        dp = (row.gpus // (others * replicate) if shard == -1 else shard) * replicate
        found["gbs"] = local * dp
        path, line, text = rule
        cited.append(Cited(path, line, line, "the global batch: local batch × data-parallel degree"))
        notes.append(
            f"sets.gbs is the local batch {local} × the data-parallel degree {dp} the command runs, as {path} "
            f"computes it (line {line}: `{text}`)."
        )
    else:
        notes.append(
            "Not in sets: the global batch, since the local batch, the FSDP degree or torchtitan's rule for it "
            "cannot be read from the command and its train config."
        )
    if float8:
        found["precision"] = "fp8"
    elif str(config.values.get("training.mixed_precision_param")) in PARAM_PRECISIONS:
        found["precision"] = PARAM_PRECISIONS[str(config.values["training.mixed_precision_param"])]
    return found, cited, notes


def _heading_docstring(lines: list[str], line: int) -> int:
    """The first line of the docstring that holds `line`."""
    return next(n for n in range(line, 0, -1) if lines[n - 1].strip() == '"""')


def _multinode(
    row: Row, source: GitSource, commit: str, settings: list[Setting], config_arg: str
) -> tuple[str, list[Cited], list[str], int]:
    """multinode_trainer.slurm adjusted as the README says (node count), the row's options after its train.py."""
    readme = _show(source, README, commit)
    heading = _line(readme, r"^#+ Multi-Node Training", README)
    script = _show(source, MULTINODE, commit)
    nodes = row.gpus // row.per_node
    edits: list[str] = []
    for pattern, unit in (
        (r"^#SBATCH --ntasks=(\d+)$", nodes),
        (r"^#SBATCH --nodes=(\d+)$", nodes),
        (r"^#SBATCH --gpus-per-task=(\d+)$", row.per_node),
    ):
        number = _line(script, pattern, MULTINODE)
        written = int(re.match(pattern, script[number - 1]).group(1))  # type: ignore[union-attr]
        if written != unit:
            old = script[number - 1]
            edits.append(f"s/^{old}$/{old.replace(str(written), str(unit))}/")
    run = _line(
        script, r"^srun torchrun --nnodes \d+ --nproc_per_node \d+ .*--job\.config_file \$\{CONFIG_FILE\}$", MULTINODE
    )
    text = script[run - 1]
    written_nodes = re.search(r"--nnodes (\d+) ", text).group(1)  # type: ignore[union-attr]
    written_gpus = re.search(r"--nproc_per_node (\d+) ", text).group(1)  # type: ignore[union-attr]
    if int(written_nodes) != nodes:
        edits.append(f"s/--nnodes {written_nodes} /--nnodes {nodes} /")
    if int(written_gpus) != row.per_node:
        edits.append(f"s/--nproc_per_node {written_gpus} /--nproc_per_node {row.per_node} /")
    words = " ".join(s.word for s in settings)
    if "|" in words or "&" in words or "\\" in words:
        raise NotMappedError("an option's value holds a character sed would read")
    edits.append(f"s|--job.config_file ${{CONFIG_FILE}}$|--job.config_file ${{CONFIG_FILE}} {words}|")
    partition = _line(script, r"^#SBATCH --partition=", MULTINODE)
    command = (
        f"# {MULTINODE} adjusted as torchtitan's README says: {nodes} nodes, and the row's options after train.py\n"
        "sed -i \\\n" + "".join(f"  -e '{edit}' \\\n" for edit in edits) + f"  {MULTINODE}\n"
        f'{config_arg} sbatch --partition "$SLURM_PARTITION" {MULTINODE}\n'
    )
    first_sbatch = _line(script, r"^#SBATCH ", MULTINODE)
    cited = [
        Cited(README, heading, _section(readme, heading), "multi-node training: adjust the node and GPU counts"),
        Cited(MULTINODE, first_sbatch, run + 1 if run < len(script) else run, "the multi-node launcher"),
    ]
    notes = []
    efa = [
        n for n, line in enumerate(script, start=1) if re.match(r'^export (FI_PROVIDER="efa"|NCCL_IB_DISABLE=1)$', line)
    ]
    aws = [n for n, line in enumerate(script, start=1) if "optimized for AWS with EFA" in line]
    if efa:
        notes.append(
            f"{MULTINODE} is written for AWS with EFA"
            + (f" (line {aws[0]})" if aws else "")
            + ": it exports "
            + " and ".join(f"{script[n - 1].removeprefix('export ')} (line {n})" for n in efa)
            + ". The report's hosts are on an RDMA network, where NCCL_IB_DISABLE=1 turns off NCCL's RDMA transport: "
            "set these for your cluster. The report does not say which environment its runs had."
        )
    return command, cited, notes, partition
