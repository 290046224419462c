"""torchtitan's benchmark reports (`benchmarks/*.md` of pytorch/torchtitan) as typed rows.

Each report is its own document, written by whoever ran it, in a loose common shape:

    The following performance benchmarks were done by the `torchtitan` team ...   (who)
    ### Models        Llama 3.1 8B, 70B, 405B
    ### Hardware      "Each host has 8 NVIDIA H100 GPUs ...", "... equipped with 96GB HBM2e ..."
    ### Configuration a launch command in a code block (some reports)
    ### Results       a sentence saying how throughput was read, then tables, each under a
                      caption (`**Table 2** FSDP + CP + torch.compile + Float8. Llama 3.1 8B model.
                      8 GPUs. Local batch size 1. Full activation checkpointing.` or a `####` line)
    ### Versions and Dates   | repo | commit | date |

A table's caption carries what its rows share (model, GPUs, degrees, batch, precision,
activation checkpointing); a row adds its own (`FSDP 4, CP 2`, a sequence length, a schedule,
a node count). Columns are read by name; a table with a column this module does not know is
reported, not guessed at. This module only reads: `torchtitan_recipes` decides which rows can
be recipes.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

from . import tables
from .tables import Statement

REPOSITORY = "pytorch/torchtitan"
FOLDER = "benchmarks"
NOT_REPORTS = ("README.md",)

_HEADING = re.compile(r"^(#{2,4})\s+(.*?)\s*$")
_AUTHOR = re.compile(r"(?:done|performed) by (?:the )?`?([^`]+?)`? team", re.IGNORECASE)
_GPUS_PER_HOST = re.compile(r"(\d+)\s+NVIDIA\s+([A-Z]\w*)\s+GPUs")
_MEMORY = re.compile(r"equipped with (\d+)\s*GB\b")
_SYSTEM = re.compile(r"on the \[([^\]]+?) platform\]")
_FOOTNOTE = re.compile(r"^\[\^([^\]]+)\]:\s*(.*?)\s*$")
_LINK = re.compile(r"^\[([^\]]+)\]\(([^)]+)\)$")
_COMMIT_URL = re.compile(r"/commit/([0-9a-f]{40})$")

# Caption and cell phrases.
_MODEL = re.compile(r"\b(Llama ?3(?:\.1)? \d+[bB])\b")
_GPU_COUNT = re.compile(r"\b(\d+) (?:GPUs|H100s|H200s)\b")
_LOCAL_BATCH = re.compile(r"local batch size (\d+)", re.IGNORECASE)
_GLOBAL_BATCH = re.compile(r"global batch size (\d+)", re.IGNORECASE)
_DEGREE = {name: re.compile(rf"\b{name}\s*=?\s*(\d+)\b") for name in ("FSDP", "TP", "PP", "CP")}
_FULL_AC = re.compile(r"full activation checkpointing|full AC\b", re.IGNORECASE)
_SELECTIVE_AC = re.compile(r"selective activation checkpointing|\bSAC\b", re.IGNORECASE)
_SCHEDULE = re.compile(r"\b(Interleaved 1F1B|1F1B)\b")
_COMPILE = re.compile(r"\btorch\.compile\b")
_ASYNC_TP = re.compile(r"\bAsync ?TP\b")

COLUMNS = {
    "Techniques": "techniques",
    "Parallelism": "parallelism",
    "Schedule": "schedule",
    "Quantization": "quantization",
    "Sequence Length": "seq_len",
    "NUM_NODES": "num_nodes",
    "TPS/GPU": "tokens_per_gpu",
    "Memory(GiB)": "memory_gib",
    "Vanilla TP tokens/sec": "not_per_gpu",
    "Async TP tokens/sec": "not_per_gpu",
    "Async TP speedup": "speedup",
}
"""Column headers as published and what they hold; `not_per_gpu`: a throughput not stated per GPU."""

QUANTIZATION = {
    "None (bfloat16)": ("bf16", None),
    "float8 tensorwise": ("fp8", "tensorwise"),
    "float8 rowwise": ("fp8", "rowwise"),
}


class ParseError(ValueError):
    """The report is not in a shape this module knows; the message names the file and line."""


@dataclass(frozen=True)
class Version:
    repo: str
    shown: str
    """As printed (`9dec370`, `2.8.0a0+5228986c39`)."""
    commit: str | None
    """The full commit, when the link is to one."""
    date: str
    line: int


@dataclass(frozen=True)
class Values:
    """What a row and its caption publish; None where they do not say."""

    model: str | None
    gpus: int | None
    num_nodes: int | None
    local_batch: int | None
    global_batch: int | None
    seq_len: int | None
    tokens_per_gpu: int | float | None
    not_per_gpu: tuple[str, ...]
    """Throughput columns of the row that are not stated per GPU."""
    memory_gib: int | float | None
    fsdp: int | None
    tp: int | None
    pp: int | None
    cp: int | None
    float8: bool
    precision: str | None
    fp8_scaling: str | None
    activation_checkpointing: str | None
    schedule: str | None
    compile: bool
    """Whether the caption or the row lists torch.compile among its techniques."""
    async_tp: bool
    """Whether the caption or the row lists AsyncTP (asynchronous tensor parallelism)."""
    label: str
    """The row's first cell: what it varies (`FSDP 4, CP 2`, `FSDP + torch.compile`); a number with its
    column's name (`NUM_NODES 4`)."""


@dataclass(frozen=True)
class Row:
    path: str
    line: int
    header_line: int
    caption: str
    number: int
    rows_in_table: int
    values: Values
    excerpt: str
    """The caption, header line, separator and row, verbatim, one per line."""


@dataclass(frozen=True)
class Report:
    path: str
    author: str | None
    models: tuple[str, ...]
    gpu: str | None
    gpu_memory_gb: int | None
    per_node: int | None
    system: str | None
    hardware: tuple[Statement, ...]
    metric: Statement | None
    footnotes: dict[str, Statement]
    versions: dict[str, Version]
    command: Statement | None
    """The code block of the report's Configuration section, and the line it starts at."""
    rows: tuple[Row, ...]
    unread: tuple[tuple[int, str], ...]
    """Tables not read, with why: (line of their header, reason)."""


def parse_values(caption: str, header: tuple[str, ...], line: str, report_models: tuple[str, ...] = ()) -> Values:
    """What one row publishes, read from its caption, the table's header and the row."""
    fields = [COLUMNS.get(" ".join(column.split())) for column in header]
    unknown = [column for column, field in zip(header, fields, strict=True) if field is None]
    if unknown:
        raise ParseError(f"unknown column {unknown[0]!r} (known: {', '.join(COLUMNS)})")
    row = tables.cells(line)
    if len(row) != len(header):
        raise ParseError(f"{len(row)} cells under {len(header)} columns")
    cells: dict[str, str] = {}
    not_per_gpu = []
    for column, field, cell in zip(header, fields, row, strict=True):
        assert field is not None
        if field == "not_per_gpu":
            not_per_gpu.append(column)
        else:
            cells[field] = cell
    model_match = _MODEL.search(caption)
    model = model_match.group(1) if model_match else (report_models[0] if len(report_models) == 1 else None)
    gpu_count = _GPU_COUNT.search(caption)
    degrees = {name: _degree(name, caption, cells.get("parallelism", "")) for name in _DEGREE}
    techniques = " ".join(cells.get(key, "") for key in ("techniques", "schedule"))
    float8 = "float8" in f"{caption} {techniques}".lower()
    precision, scaling = QUANTIZATION.get(cells.get("quantization", ""), ("fp8" if float8 else None, None))
    schedule = _SCHEDULE.search(cells.get("schedule") or caption)
    ac = "full" if _FULL_AC.search(caption) else "selective" if _SELECTIVE_AC.search(caption) else None
    return Values(
        model=model,
        gpus=int(gpu_count.group(1)) if gpu_count else None,
        num_nodes=_whole(cells.get("num_nodes")),
        local_batch=_caption_number(_LOCAL_BATCH, caption),
        global_batch=_caption_number(_GLOBAL_BATCH, caption),
        seq_len=_whole(cells.get("seq_len")),
        tokens_per_gpu=tables.number(cells["tokens_per_gpu"]) if "tokens_per_gpu" in cells else None,
        not_per_gpu=tuple(not_per_gpu),
        memory_gib=tables.number(cells["memory_gib"]) if "memory_gib" in cells else None,
        fsdp=degrees["FSDP"],
        tp=degrees["TP"],
        pp=degrees["PP"],
        cp=degrees["CP"],
        float8=float8,
        precision=precision,
        fp8_scaling=scaling,
        activation_checkpointing=ac,
        schedule=schedule.group(1) if schedule else None,
        compile=bool(_COMPILE.search(f"{caption} {techniques}")),
        async_tp=bool(_ASYNC_TP.search(f"{caption} {techniques}")),
        label=row[0] if tables.number(row[0]) is None else f"{header[0]} {row[0]}",
    )


def parse_excerpt(excerpt: str, report_models: tuple[str, ...] = ()) -> Values:
    """The values of the row a recipe's `source.excerpt` quotes (caption, header, separator, row)."""
    lines = excerpt.splitlines()
    if len(lines) != 4 or not tables.is_separator(lines[2]):
        raise ParseError("not a caption, header, separator and row")
    return parse_values(_caption_text(lines[0]), tables.cells(lines[1]), lines[3], report_models)


def _whole(text: str | None) -> int | None:
    value = tables.number(text) if text is not None else None
    return value if isinstance(value, int) else None


def _caption_number(pattern: re.Pattern[str], caption: str) -> int | None:
    match = pattern.search(caption)
    return int(match.group(1)) if match else None


def _degree(name: str, caption: str, parallelism: str) -> int | None:
    """A degree from the row's Parallelism cell, else from the caption (`(FSDP 32, TP 8)`, `FSDP=8`, `PP8`)."""
    for text in (parallelism, caption):
        match = _DEGREE[name].search(text)
        if match:
            return int(match.group(1))
    return None


def _caption_text(line: str) -> str:
    return line.lstrip("#").strip()


def parse_report(path: str, text: str) -> Report:
    lines = text.splitlines()
    found_tables = tables.tables(lines)
    section = ""
    hardware: list[Statement] = []
    models: tuple[str, ...] = ()
    metric: Statement | None = None
    footnotes: dict[str, Statement] = {}
    versions: dict[str, Version] = {}
    command: Statement | None = None
    rows: list[Row] = []
    unread: list[tuple[int, str]] = []
    first = next((line for line in lines if line.strip()), "")
    author = _AUTHOR.search(first)
    index = 0
    while index < len(lines):
        line = lines[index]
        number = index + 1
        if (heading := _HEADING.match(line)) and heading.group(1) == "###":
            section = heading.group(2).lower()
        elif match := _FOOTNOTE.match(line):
            footnotes[match.group(1)] = Statement(match.group(2), number)
        elif line.startswith("```") and section == "configuration" and command is None:
            end = next((i for i in range(index + 1, len(lines)) if lines[i].startswith("```")), len(lines))
            command = Statement("\n".join(lines[index + 1 : end]), number + 1)
            index = end + 1
            continue
        elif index in found_tables:
            table = found_tables[index]
            if section.startswith("versions"):
                versions.update(_versions(table))
            else:
                caption_line = next((i for i in range(index - 1, -1, -1) if lines[i].strip()), None)
                caption = lines[caption_line] if caption_line is not None else ""
                try:
                    rows.extend(_rows(path, table, caption, models))
                except ParseError as error:
                    unread.append((table.header_line, str(error)))
            index = table.header_line + 1 + len(table.rows)
            continue
        elif section == "models" and line.strip() and not models:
            models = _models(line)  # the section's first line; a paragraph may follow
        elif section == "hardware" and line.lstrip().startswith("- "):
            hardware.append(Statement(line.strip()[2:], number))
        elif section == "results" and metric is None and re.search(r"\bTPS\b", line) and not line.startswith("|"):
            metric = Statement(_sentences_on_tps(line), number)
        index += 1
    hardware_text = " ".join([*(s.text for s in hardware), text])
    per_host = _GPUS_PER_HOST.search(hardware_text)
    memory = _MEMORY.search(hardware_text)
    system = _SYSTEM.search(text)
    return Report(
        path=path,
        author=f"{author.group(1)} team" if author else None,
        models=models,
        gpu=per_host.group(2) if per_host else None,
        gpu_memory_gb=int(memory.group(1)) if memory else None,
        per_node=int(per_host.group(1)) if per_host else None,
        system=system.group(1) if system else None,
        hardware=tuple(hardware),
        metric=metric,
        footnotes=footnotes,
        versions=versions,
        command=command,
        rows=tuple(rows),
        unread=tuple(unread),
    )


def _sentences_on_tps(line: str) -> str:
    """The sentences of `line` that say how TPS was read, verbatim but for a final colon."""
    sentences = re.split(r"(?<=[.:])\s+(?=[A-Z`])", line.strip())
    return " ".join(sentence for sentence in sentences if re.search(r"\bTPS\b", sentence)).rstrip(":")


def _models(line: str) -> tuple[str, ...]:
    """`Llama 3.1 8B, 70B, 405B` -> ('Llama 3.1 8B', 'Llama 3.1 70B', 'Llama 3.1 405B')."""
    first, *rest = (part.strip() for part in line.split(","))
    family = first.rsplit(" ", 1)[0] if " " in first else ""
    return (first, *(f"{family} {size}" if family else size for size in rest))


def _rows(path: str, table: tables.Table, caption: str, models: tuple[str, ...]) -> list[Row]:
    found = []
    for position, (number, line) in enumerate(table.rows, start=1):
        try:
            values = parse_values(_caption_text(caption), table.header, line, models)
        except ParseError as error:
            raise ParseError(f"{path}:{number}: {error}") from None
        excerpt = "\n".join([caption, table.header_text, table.separator_text, line])
        found.append(Row(path, number, table.header_line, caption, position, len(table.rows), values, excerpt))
    return found


def _versions(table: tables.Table) -> dict[str, Version]:
    found = {}
    for number, line in table.rows:
        cells = tables.cells(line)
        if len(cells) < 3:
            continue
        repo, commit, date = cells[:3]
        link = _LINK.match(commit)
        shown, url = (link.group(1), link.group(2)) if link else (commit, "")
        full = _COMMIT_URL.search(url)
        found[repo] = Version(repo, shown, full.group(1) if full else None, date, number)
    return found


@dataclass(frozen=True)
class Command:
    """A published launch command, and the options it gives the training script."""

    text: str
    line: int
    options: dict[str, str]
    """`--training.local_batch_size=2` -> {'training.local_batch_size': '2'}; a flag alone -> ''."""

    @property
    def config_file(self) -> str | None:
        return self.options.get("job.config-file") or self.options.get("job.config_file")


def parse_command(statement: Statement) -> Command:
    """The options after the training script (`torchtitan/train.py` or `train.py`) of a command."""
    # Backslash-newlines join lines; a line that lacks one is still read as part of the command.
    words = shlex.split(statement.text.replace("\\\n", " "), posix=True)
    script = next((i for i, word in enumerate(words) if word.endswith("train.py")), None)
    options: dict[str, str] = {}
    if script is not None:
        rest = words[script + 1 :]
        index = 0
        while index < len(rest):
            word = rest[index]
            if word.startswith("--"):
                name, equals, value = word[2:].partition("=")
                if not equals and index + 1 < len(rest) and not rest[index + 1].startswith("--"):
                    value = rest[index + 1]
                    index += 1
                options[name] = value
            index += 1
    return Command(statement.text, statement.line, options)


def toml_lines(text: str) -> dict[str, tuple[int, str]]:
    """Each `section.key` a TOML train config writes: its line and the line as written, without a
    trailing comment (the values torchtitan's configs quote hold no " #")."""
    found: dict[str, tuple[int, str]] = {}
    section = ""
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith("[") and stripped.endswith("]"):
            section = stripped.strip("[]")
        elif "=" in stripped and not stripped.startswith("#"):
            key = f"{section}.{stripped.split('=', 1)[0].strip()}"
            found.setdefault(key, (number, re.sub(r"\s+#.*$", "", stripped)))
    return found
