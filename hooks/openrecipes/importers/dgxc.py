"""NVIDIA's DGX Cloud Benchmarking recipes (NVIDIA/dgxc-benchmarking): the performance tables each
release tag's workload READMEs print, as typed rows. This module only reads (git show, through
`GitSource`); it never runs or imports the publisher's scripts. `dgxc_recipes` decides which rows
can be recipes.

From v24.11.1 to v25.05.05 every workload README (`llama3.1/README_70b.md`, later
`llama3.1/README.md`, `deepseek_v3/pretraining/README.md`…) prints its figures in tables turned on
their side: one table per model and precision, one column per GPU count, one row per figure. From
v25.07 the tables are gone (the READMEs keep only the formulas). The shapes met, and how each is read:

    | Llama 3.1 70b 24.09 BF16 (TP=4, PP=4, CP=2, VP=5, MBS=1, GA=64) | Throughput on 64x H100 GPUs (GBS=128) | …
    |---|:---:| …
    | Training step time (seconds per step) | 14.72 | …
    | Throughput in tokens per second       | 71235 | …
    | Model flops utilization               | 54.10% | …
    | Time to train 1T tokens in days       | 162.48 | …

- The caption (the first header cell) names the model as printed, the container release (24.09,
  until v25.01), the precision, sometimes the GPU type and `Strong Scaling`, a fine-tuning scheme
  (`Llama3 70b Finetuning LORA BF16`) and, in parentheses, settings (`TP=4, PP=4…`, `FSDP+DP MBS=2`,
  `SEQ=2048`).
- A column header names the GPU count and type (`Throughput on 64x H100 GPUs`, `128x GB200 GPUs`,
  `Throughput on 256 H100 GPUs`), with the column's own settings in parentheses (`GBS=128`,
  `FSDP=64 GBS=128`) and `Strong Scaling` where it is.
- Rows: step time, total tokens/s, MFU (in percent), days to train 1T tokens (`Time to train 1T
  tokens in days`, `…tokens(days)`), `TFLOPS_per_GPU` (DeepSeek V3, v25.05.01 on), `Training
  samples per second` (the Hugging Face fine-tuning tables, which print nothing else), and, in the
  Llama 3.1 405B tables of v24.11.1–v25.03, a column's own `Layers`, `GBS`, `PP` and `VP`.
- Rows may leave out the leading pipe (`Training step time (seconds per step)|2.746|`, v25.05).
- Configuration tables (`| Size | Precision | GPUs | SeqLen | Layers | TP | PP | … | GBS | GA |`,
  from v25.04; the Grok1 one from v24.11.1) give each GPU count its layout; the GPU type is the
  heading or bold line above them (`# GB200 specifications`, `**H100**:`). A cell takes the one row
  of the same README whose size, precision, GPU type and count (and global batch, where the column
  states it) are its own; with none or several, it takes none, and says why.
- Sentences give the convention of the figures: the peak each GPU type's MFU divides by (`The peak
  theoretical throughput for H100 FP8 is 1979 TFLOPS…`, or a `Data Type | GB200 | H100` table), the
  model FLOPs per sequence (`The model flops for Llama 3.1 70b for GBS=1 is 3.94E+15`), the MFU and
  throughput formulas, and how the step time was taken (the last step, or the mean of steps 11–44).

A table, row or cell this module cannot read is a located problem (`Unread`: file, line, why),
never an exception: the rest of the README is still read.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from . import tables
from .gitsource import GitSource
from .tables import Statement

REPOSITORY = "NVIDIA/dgxc-benchmarking"
RELEASE_TAG = re.compile(r"^v(\d{2})\.(\d{2})(?:\.(\d+))?(?![\s\S])")
"""A release tag (`v24.11.1`, `v25.05.05`); other tags are not releases."""

GPU_NAME = re.compile(r"(?<![A-Za-z0-9])(GB200|GB300|B200|B300|H100|H200)(?![0-9])")

FIGURES = {
    "training step time (seconds per step)": "step_time",
    "throughput in tokens per second": "tokens_per_s",
    "model flops utilization": "mfu",
    "time to train 1t tokens in days": "days_1t",
    "time to train 1t tokens(days)": "days_1t",
    "tflops_per_gpu": "tflops_per_gpu",
    "training samples per second": "samples_per_s",
    # A column's own settings, printed as rows (Llama 3.1 405B, v24.11.1 to v25.03).
    "layers": "layers",
    "gbs": "gbs",
    "pp": "pp",
    "vp": "vp",
}
"""Row labels of a performance table, lower-cased with single spaces, and what each row holds."""

SETTING_ROWS = ("layers", "gbs", "pp", "vp")

CONFIG_COLUMNS = {
    "size": "size",
    "model size": "size",
    "precision": "precision",
    "gpus": "gpus",
    "seqlen": "seq_len",
    "layers": "layers",
    "fsdp": "fsdp",
    "tp": "tp",
    "pp": "pp",
    "cp": "cp",
    "ep": "ep",
    "etp": "etp",
    "dp": "dp",
    "vp": "vp",
    "mbs": "mbs",
    "gbs": "gbs",
    "ga": "ga",
    # MaxText's mesh (v25.04): degrees across nodes (dcn) and within one (ici), and the batch per GPU.
    "dcn_tp": "dcn_tp",
    "dcn_fsdp": "dcn_fsdp",
    "dcn_dp": "dcn_dp",
    "ici_tp": "ici_tp",
    "ici_fsdp": "ici_fsdp",
    "ici_dp": "ici_dp",
    "per_device_batch_size": "per_device_batch",
}
"""Columns of a configuration table, lower-cased, and what each holds."""

NOT_PRINTED = frozenset({"", "na", "n/a", "none", "null", "-"})
"""Cells that say a value is not there (`NA`, `n/a`, an empty cell)."""

_COLUMN = re.compile(
    r"^(?:Throughput on |Train samples per second on )?(?P<gpus>\d+)x?\s*(?P<gpu>[A-Z]+\d+)\s+GPUs"
    r"\s*(?:\((?P<settings>[^)]*)\))?\s*(?P<strong>Strong Scaling)?\s*(?![\s\S])"
)
_LOOKS_LIKE_COLUMN = re.compile(r"\d+x?\s*[A-Z]+\d+\s+GPUs")
_PRECISION = re.compile(r"(?<![A-Za-z0-9])(BF16|FP8|FP16)(?![A-Za-z0-9])")
_CONTAINER = re.compile(r"\s+(\d{2}\.\d{2}(?:\.\d+)?)\s*(?![\s\S])")
_SCHEME = re.compile(r"\s+Finetuning\s+(SFT|LORA|LoRA)(?![A-Za-z])")
_SCHEME_HEADING = re.compile(r"(?<![A-Za-z])(SFT|LORA|LoRA)(?![A-Za-z])")
_TRAILING_SETTINGS = re.compile(r"\(([^)]*)\)\s*(?![\s\S])")
_SETTING = re.compile(r"([A-Za-z]+)\s*=\s*([A-Za-z0-9.]+)")
_SIZE = re.compile(r"(?<![A-Za-z0-9.])(\d+(?:\.\d+)?)\s*[bB](?![A-Za-z0-9])")
_HEADING = re.compile(r"^\s*#{1,6}\s+\S")
_BOLD_LINE = re.compile(r"^\s*\*\*[^*]+\*\*:?\s*(?![\s\S])")
_PEAK_PART = re.compile(
    r"(?P<gpu>(?<![A-Za-z0-9])(?:GB200|GB300|B200|B300|H100|H200)(?![0-9]))"
    r"|(?P<precision>BF16|FP8)\s+is\s+\**(?P<value>\d+(?:\.\d+)?)\**\s*(?P<unit>TFLOPS|PFLOPS)"
)
_MODEL_FLOPS = re.compile(r"[Mm]odel flops for (?P<what>.+?)(?: is|:)?\s+(?P<value>\d+(?:\.\d+)?[eE][+-]?\d+)(?![0-9])")
_FLOAT_E = re.compile(r"\d+(?:\.\d+)?[eE][+-]?\d+")


class ParseError(ValueError):
    """A tag that is not a release tag, or two cells that would make one recipe."""


@dataclass(frozen=True)
class Unread:
    """What could not be read, where, and why."""

    path: str
    line: int
    reason: str


@dataclass(frozen=True)
class Figure:
    """A value as the README prints it, and its line."""

    value: int | float
    text: str
    """As printed (`54.10%`, `2,248,957`)."""
    line: int


@dataclass(frozen=True)
class Caption:
    """What a performance table's first header cell says about every column under it."""

    text: str
    model: str
    """As printed, without the container release, the precision and what follows it (`Llama 3.1 70b`,
    `Grok 1 314b Dev`, `Maxtext Llama3 70b`, `Llama3 70b`)."""
    precision: str
    """`BF16`, `FP8` (upper case, as printed)."""
    container: str | None = None
    """The container release printed in the caption (`24.09`), until v25.01."""
    gpu: str | None = None
    scheme: str | None = None
    """`SFT` or `LORA` in `Llama3 70b Finetuning LORA BF16`; None for pre-training tables."""
    strong_scaling: bool = False
    settings: tuple[tuple[str, int | None], ...] = ()
    """`(TP=4, PP=4, CP=2, VP=5, MBS=1, GA=64)` → (('TP', 4), …); `VP=None` → ('VP', None)."""
    fsdp_dp: bool = False
    """The caption says `FSDP+DP` (MaxText and PAXML: sharded data parallelism)."""

    def setting(self, name: str) -> int | None:
        return dict(self.settings).get(name)

    def states(self, name: str) -> bool:
        return name in dict(self.settings)


@dataclass(frozen=True)
class Column:
    """A GPU column of a performance table, as its header cell says."""

    text: str
    gpus: int
    gpu: str
    settings: tuple[tuple[str, int | None], ...] = ()
    """`(GBS=128)` → (('GBS', 128),); `(FSDP=64 GBS=128)` → (('FSDP', 64), ('GBS', 128))."""
    strong_scaling: bool = False


@dataclass(frozen=True)
class Setup:
    """A row of a configuration table: the layout of one GPU count (and precision and size)."""

    path: str
    line: int
    gpu: str | None
    """The GPU type of the heading or bold line above the table; None where none names one."""
    scheme: str | None
    """`SFT` or `LORA` where the heading above the table names a fine-tuning scheme (`### LORA`)."""
    size: str | None
    """As printed (`70b`, `405b-Proxy`, `671B`); None where the table has no Size column."""
    precisions: tuple[str, ...]
    """`BF16/FP8` → ('BF16', 'FP8'); empty where the table has no Precision column."""
    gpus: int
    values: tuple[tuple[str, int | None], ...]
    """Each numeric column the table has (`seq_len`, `layers`, `tp`…, `gbs`, `ga`): its value, None for `NA`."""
    excerpt: str
    """The table's header, separator and this row, verbatim."""

    def value(self, name: str) -> int | None:
        return dict(self.values).get(name)

    def states(self, name: str) -> bool:
        return name in dict(self.values)


@dataclass(frozen=True)
class Cell:
    """One column of one performance table: a model × precision × GPU type × GPU count, with its figures."""

    path: str
    header_line: int
    column: int
    """The column's place among the GPU columns, from 1."""
    caption: Caption
    header: Column
    figures: tuple[tuple[str, Figure], ...]
    """Each figure row the column has a value in (`step_time`, `tokens_per_s`, `mfu`, `days_1t`,
    `tflops_per_gpu`, `samples_per_s`, and `layers`, `gbs`, `pp`, `vp` where printed as rows)."""
    excerpt: str
    """The table's header, separator and rows, verbatim."""
    setup: Setup | None = None
    setup_note: str = ""
    """Why no configuration row is the cell's (none, or several), where it has none and a table was there."""
    proxy: str = ""
    """Why the column is a cut-down model, where the README says so (a `405b-Proxy` size, or fewer layers
    than the same table or configuration tables print for the model); empty for the model itself."""

    @property
    def gpus(self) -> int:
        return self.header.gpus

    @property
    def gpu(self) -> str:
        return self.header.gpu

    def figure(self, name: str) -> Figure | None:
        return dict(self.figures).get(name)

    @property
    def global_batch(self) -> tuple[int, str] | None:
        """The column's global batch and where it is printed: its header's `GBS=`, or its `GBS` row."""
        stated = dict(self.header.settings).get("GBS")
        if stated is not None:
            return stated, f"line {self.header_line}, the column header `{self.header.text}`"
        row = self.figure("gbs")
        if row is not None and isinstance(row.value, int):
            return row.value, f"line {row.line}, the GBS row"
        return None


@dataclass(frozen=True)
class Peak:
    """The peak a README's MFU divides by, for a GPU type and precision, in TFLOP/s."""

    gpu: str
    precision: str
    tflops: float
    text: str
    line: int


@dataclass(frozen=True)
class ModelFlops:
    """`The model flops for Llama 3.1 70b for GBS=1 is 3.94E+15`: the FLOPs of one sequence (a
    global batch of one), as the README counts them for its MFU."""

    what: str
    """The words naming the model (`Llama 3.1 70b`, `Grok 1 for GBS=1 per GPU for 2048 GPUs`)."""
    value: float
    statement: Statement


@dataclass(frozen=True)
class Readme:
    path: str
    cells: tuple[Cell, ...]
    setups: tuple[Setup, ...]
    peaks: tuple[Peak, ...] = ()
    model_flops: tuple[ModelFlops, ...] = ()
    mfu_formula: Statement | None = None
    throughput_formula: Statement | None = None
    timing: Statement | None = None
    """How the step time was taken (`…we are using the last training step timing…`)."""
    problems: tuple[Unread, ...] = ()

    def peak(self, gpu: str, precision: str) -> Peak | None:
        return next((p for p in self.peaks if p.gpu == gpu and p.precision == precision), None)

    def flops_for(self, cell: Cell) -> ModelFlops | None:
        """The model FLOPs statement of the cell's model: the one naming its size, else the only one."""
        size = model_size(cell.caption.model)
        named = [item for item in self.model_flops if size is not None and model_size(item.what) == size]
        if len(named) == 1:
            return named[0]
        # A statement naming no size (`The model flops for Grok 1 …`) is the README's one model's.
        unsized = [item for item in self.model_flops if model_size(item.what) is None]
        return unsized[0] if not named and len(self.model_flops) == 1 and unsized else None


@dataclass(frozen=True)
class Release:
    tag: str
    commit: str
    readmes: tuple[Readme, ...]

    @property
    def cells(self) -> tuple[Cell, ...]:
        return tuple(cell for readme in self.readmes for cell in readme.cells)

    @property
    def problems(self) -> tuple[Unread, ...]:
        return tuple(problem for readme in self.readmes for problem in readme.problems)


def release_key(tag: str) -> tuple[int, ...]:
    """`v25.05.05` → (25, 5, 5), `v25.07` → (25, 7, 0): release order."""
    match = RELEASE_TAG.match(tag)
    if match is None:
        raise ParseError(f"{tag!r} is not a release tag (vYY.MM or vYY.MM.N)")
    return tuple(int(part or 0) for part in match.groups())


def model_size(text: str) -> str | None:
    """`Llama 3.1 70b` → `70b`, `405b-Proxy` → `405b`, `671B` → `671b`; None where no size is printed."""
    match = _SIZE.search(text)
    return f"{match.group(1)}b" if match else None


def readme_paths(source: GitSource) -> list[str]:
    """Every README of the tree (`README.md`, `README_70b.md`, `README.MD`), sorted."""
    return [
        path
        for path in source.tree(".")
        if path.rsplit("/", 1)[-1].lower().startswith("readme") and path.lower().endswith(".md")
    ]


def read_release(source: GitSource, tag: str) -> Release:
    """Every README of the release's tag, read."""
    commit = source.resolve(tag)
    if commit is None:
        raise ParseError(f"the clone has no tag {tag}")
    at = source.at(commit)
    return Release(tag, commit, tuple(parse_readme(path, at.show(path)) for path in readme_paths(at)))


def releases(source: GitSource, names: Sequence[str] | None = None) -> list[Release]:
    """The releases asked for (default: every release tag of the clone), oldest first."""
    tags = sorted((tag for tag in source.tags() if RELEASE_TAG.match(tag)), key=release_key)
    for name in names or ():
        if name not in tags:  # a wrong command line, not a file in an unknown shape
            raise ValueError(f"the clone has no release tag {name} (it has {', '.join(tags) or 'none'})")
    return [read_release(source, tag) for tag in tags if not names or tag in names]


# --- one README ------------------------------------------------------------------------------------


def parse_readme(path: str, text: str) -> Readme:
    lines = text.splitlines()
    problems: list[Unread] = []
    cells: list[Cell] = []
    setups: list[Setup] = []
    peaks: list[Peak] = []
    setup_problems: list[Unread] = []
    context = _context(lines)
    for index, table in tables.tables(lines, bare_rows=True).items():
        header = [" ".join(cell.split()) for cell in table.header]
        names = {cell.lower() for cell in header}
        if any(_LOOKS_LIKE_COLUMN.search(cell) for cell in header[1:]):
            cells += _performance_table(path, table, problems)
        elif "gpus" in names and names & {"tp", "ici_tp"}:
            setups += _configuration_table(path, table, *context[index], setup_problems)
        elif header and header[0].lower() == "data type":
            peaks += _peak_table(path, table, lines, index)
    if cells:
        # A configuration table matters where figures are printed beside it (from v25.07 they are not).
        problems += setup_problems
    peaks += _peak_sentences(lines)
    gpus = {cell.gpu for cell in cells}
    if len(gpus) == 1:
        # A README whose tables name one GPU type (H100 only, up to v25.04) says it of its configurations too.
        only = next(iter(gpus))
        setups = [setup if setup.gpu else _with_gpu(setup, only) for setup in setups]
    cells = [_proxied(_matched(cell, setups), cells, setups) for cell in cells]
    return Readme(
        path=path,
        cells=tuple(cells),
        setups=tuple(setups),
        peaks=tuple(_unique_peaks(peaks)),
        model_flops=tuple(_model_flops(lines)),
        mfu_formula=_first(lines, lambda line: line.lstrip().startswith("MFU = (")),
        throughput_formula=_first(lines, lambda line: "= (throughput in tokens per second)" in line),
        timing=_first(lines, lambda line: "last training step timing" in line or "to analyze iterations" in line),
        problems=tuple(problems),
    )


def _context(lines: list[str]) -> list[tuple[str | None, str | None]]:
    """For each line, the GPU type and fine-tuning scheme the last heading or bold line above it names
    (None after one that names none): what a configuration table under `# GB200 specifications` or
    `### LORA` is for."""
    found: list[tuple[str | None, str | None]] = []
    current: tuple[str | None, str | None] = (None, None)
    for line in lines:
        if _HEADING.match(line) or _BOLD_LINE.match(line):
            gpus = set(GPU_NAME.findall(line))
            schemes = {name.upper() for name in _SCHEME_HEADING.findall(line)}
            current = (gpus.pop() if len(gpus) == 1 else None, schemes.pop() if len(schemes) == 1 else None)
        found.append(current)
    return found


def _with_gpu(setup: Setup, gpu: str) -> Setup:
    return dataclasses.replace(setup, gpu=gpu)


def _settings(text: str) -> tuple[tuple[tuple[str, int | None], ...], bool]:
    """`TP=4, PP=4, VP=None` → ((('TP', 4), ('PP', 4), ('VP', None)), False);
    `FSDP+DP MBS=2` → ((('MBS', 2),), True)."""
    found: list[tuple[str, int | None]] = []
    for name, value in _SETTING.findall(text):
        found.append((name.upper(), int(value) if value.isdigit() else None))
    return tuple(found), "FSDP+DP" in text.upper().replace(" ", "")


def parse_caption(text: str) -> Caption | None:
    """A performance table's first header cell; None where it names no precision."""
    text = " ".join(text.split())
    settings: tuple[tuple[str, int | None], ...] = ()
    fsdp_dp = False
    rest = text
    trailing = _TRAILING_SETTINGS.search(text)
    if trailing:
        settings, fsdp_dp = _settings(trailing.group(1))
        rest = text[: trailing.start()].strip()
    precision = _PRECISION.search(rest)
    if precision is None:
        return None
    model, after = rest[: precision.start()].strip(), rest[precision.end() :].strip()
    container = _CONTAINER.search(" " + model)
    if container:
        model = (" " + model)[: container.start()].strip()
    scheme = _SCHEME.search(" " + model)
    if scheme:
        model = (" " + model)[: scheme.start()].strip()
    gpus = GPU_NAME.findall(after)
    return Caption(
        text=text,
        model=model,
        precision=precision.group(1).upper(),
        container=container.group(1) if container else None,
        gpu=gpus[0] if gpus else None,
        scheme=scheme.group(1).upper() if scheme else None,
        strong_scaling="strong scaling" in after.lower(),
        settings=settings,
        fsdp_dp=fsdp_dp,
    )


def parse_column(text: str) -> Column | None:
    match = _COLUMN.match(" ".join(text.split()))
    if match is None:
        return None
    settings, _ = _settings(match.group("settings") or "")
    return Column(
        text=text.strip(),
        gpus=int(match.group("gpus")),
        gpu=match.group("gpu"),
        settings=settings,
        strong_scaling=bool(match.group("strong")),
    )


def parse_figure(text: str, line: int) -> Figure | str | None:
    """A printed value: a Figure; None where the cell says none is printed (`NA`, empty); else the
    reason it is not a number, for the problem."""
    stripped = text.strip()
    if stripped.lower() in NOT_PRINTED:
        return None
    number = tables.number(stripped.removesuffix("%").strip())
    if number is None:
        return f"{stripped!r} is not a number"
    return Figure(number, stripped, line)


def _performance_table(path: str, table: tables.Table, problems: list[Unread]) -> list[Cell]:
    caption = parse_caption(table.header[0])
    if caption is None:
        problems.append(Unread(path, table.header_line, f"the caption {table.header[0].strip()!r} names no precision"))
        return []
    columns: list[tuple[int, Column]] = []
    for position, text in enumerate(table.header[1:], start=1):
        column = parse_column(text)
        if column is not None:
            columns.append((position, column))
        elif text.strip():
            problems.append(Unread(path, table.header_line, f"column {position} ({text.strip()!r}) names no GPU count"))
    figures: dict[int, list[tuple[str, Figure]]] = {position: [] for position, _ in columns}
    for number, line in table.rows:
        cells = tables.cells(line)
        label = " ".join(cells[0].lower().split())
        kind = FIGURES.get(label)
        if kind is None:
            problems.append(Unread(path, number, f"row {cells[0].strip()!r} is not a figure this reader knows"))
            continue
        values = cells[1:]
        extra = [value for value in values[len(table.header) - 1 :] if value.strip()]
        if extra:
            problems.append(
                Unread(
                    path,
                    number,
                    f"{len(table.header) - 1 + len(extra)} values under {len(table.header) - 1} columns: "
                    f"{', '.join(repr(value) for value in extra)} not read",
                )
            )
        for position, column in columns:
            if position > len(values):
                continue
            value = parse_figure(values[position - 1], number)
            if isinstance(value, str):
                problems.append(Unread(path, number, f"{cells[0].strip()}, {column.text}: {value}"))
            elif value is not None:
                figures[position].append((kind, value))
    excerpt = "\n".join([table.header_text, table.separator_text, *(line for _, line in table.rows)])
    return [
        Cell(path, table.header_line, index, caption, column, tuple(figures[position]), excerpt)
        for index, (position, column) in enumerate(columns, start=1)
        if figures[position]
    ]


def _configuration_table(
    path: str, table: tables.Table, gpu: str | None, scheme: str | None, problems: list[Unread]
) -> list[Setup]:
    names = [CONFIG_COLUMNS.get(" ".join(cell.lower().split())) for cell in table.header]
    unknown = [cell for cell, name in zip(table.header, names, strict=True) if name is None]
    if unknown:
        problems.append(Unread(path, table.header_line, f"configuration table: unknown column {unknown[0].strip()!r}"))
        return []
    found = []
    for number, line in table.rows:
        cells = tables.cells(line)
        if len(cells) < len(names):
            problems.append(Unread(path, number, f"{len(cells)} cells under {len(names)} columns"))
            continue
        row = dict(zip(names, cells, strict=False))
        values: list[tuple[str, int | None]] = []
        bad = ""
        for name in names:
            assert name is not None
            if name in ("size", "precision"):
                continue
            text = row[name].strip()
            value = tables.number(text)
            if text.lower() in NOT_PRINTED:
                values.append((name, None))
            elif isinstance(value, int):
                values.append((name, value))
            else:
                bad = f"{name}: {text!r} is not a whole number"
        gpus = dict(values).get("gpus")
        if bad or gpus is None:
            problems.append(Unread(path, number, bad or "no GPU count"))
            continue
        precision = row.get("precision", "").strip()
        found.append(
            Setup(
                path=path,
                line=number,
                gpu=gpu,
                scheme=scheme,
                size=row["size"].strip() if "size" in row else None,
                precisions=tuple(part.strip().upper() for part in precision.split("/") if part.strip()),
                gpus=gpus,
                values=tuple((name, value) for name, value in values if name != "gpus"),
                excerpt="\n".join([table.header_text, table.separator_text, line]),
            )
        )
    return found


def _matched(cell: Cell, setups: Sequence[Setup]) -> Cell:
    """The cell with its configuration row: the one of the README whose size, precision, GPU type and
    count, and global batch where the column states it, are the cell's own."""
    if not setups:
        return cell
    size = model_size(cell.caption.model)
    batch = cell.global_batch
    candidates = [
        setup
        for setup in setups
        if setup.gpus == cell.gpus
        and setup.gpu == cell.gpu
        and (setup.scheme is None or setup.scheme == cell.caption.scheme)
        and (not setup.precisions or cell.caption.precision in setup.precisions)
        and (setup.size is None or size is None or model_size(setup.size) == size)
        and (batch is None or not setup.states("gbs") or setup.value("gbs") == batch[0])
    ]
    if len(candidates) == 1:
        return _replace(cell, setup=candidates[0])
    where = f"{cell.caption.model} {cell.caption.precision} on {cell.gpus} {cell.gpu}"
    if not candidates:
        return _replace(cell, setup_note=f"no row of the README's configuration tables is for {where}")
    lines = ", ".join(str(setup.line) for setup in candidates)
    return _replace(
        cell, setup_note=f"the configuration tables have {len(candidates)} rows for {where} (lines {lines})"
    )


def _proxied(cell: Cell, cells: Sequence[Cell], setups: Sequence[Setup]) -> Cell:
    """The cell with why it is a proxy of the model: a `-Proxy` size, or fewer layers than the most the
    README prints for the same model (its table's Layers row, or its configuration rows of that size)."""
    setup = cell.setup
    if setup is not None and setup.size and "proxy" in setup.size.lower():
        return _replace(cell, proxy=f"size {setup.size} ({setup.value('layers')} layers, line {setup.line})")
    own = cell.figure("layers")
    if own is not None:
        table = [
            other.figure("layers")
            for other in cells
            if other.header_line == cell.header_line and other.figure("layers") is not None
        ]
        most = max(int(figure.value) for figure in table if figure is not None)
        if own.value < most:
            return _replace(cell, proxy=f"{own.text} layers (line {own.line}) where the table prints {most}")
    if setup is not None and setup.value("layers") is not None:
        same = [
            other.value("layers")
            for other in setups
            if (other.size or "").lower() == (setup.size or "").lower() and other.value("layers") is not None
        ]
        most = max(value for value in same if value is not None)
        layers = setup.value("layers")
        if layers is not None and layers < most:
            return _replace(
                cell, proxy=f"{layers} layers (line {setup.line}) where the configuration tables print {most}"
            )
    return cell


def _replace(cell: Cell, **changes: object) -> Cell:
    return dataclasses.replace(cell, **changes)  # type: ignore[arg-type]


# --- sentences -------------------------------------------------------------------------------------


def _peak_sentences(lines: list[str]) -> list[Peak]:
    """`The peak theoretical throughput for H100 FP8 is **1979** TFLOPS and for H100 BF16 is **989** TFLOPS.`,
    `For GB200 GPUs, peak theoretical throughput for FP8 is 4.9 PFLOPS and for BF16 is 2.45 PFLOPS.`"""
    found = []
    for number, line in enumerate(lines, start=1):
        if "peak theoretical throughput" not in line.lower():
            continue
        gpu: str | None = None
        for part in _PEAK_PART.finditer(line):
            if part.group("gpu"):
                gpu = part.group("gpu")
            elif gpu is not None:
                value = float(part.group("value")) * (1000 if part.group("unit") == "PFLOPS" else 1)
                found.append(Peak(gpu, part.group("precision"), _whole(value), line.strip(), number))
    return found


def _peak_table(path: str, table: tables.Table, lines: list[str], index: int) -> list[Peak]:
    """`| Data Type | GB200 | H100 |` under a line saying `(in TFLOPS)`: a peak per GPU type and precision."""
    above = next((lines[i] for i in range(index - 1, -1, -1) if lines[i].strip()), "")
    if "in TFLOPS" not in above:
        return []
    gpus = [GPU_NAME.fullmatch(cell.strip()) for cell in table.header[1:]]
    found = []
    for number, line in table.rows:
        cells = tables.cells(line)
        precision = cells[0].strip().upper()
        for match, text in zip(gpus, cells[1:], strict=False):
            value = tables.number(text)
            if match and value is not None and precision in ("BF16", "FP8"):
                found.append(Peak(match.group(1), precision, float(value), line.strip(), number))
    return found


def _whole(value: float) -> float:
    """4.9 PFLOPS → 4900.0, not 4900.000000000001."""
    return round(value, 6)


def _unique_peaks(peaks: Iterable[Peak]) -> list[Peak]:
    """The first statement of each GPU type and precision (READMEs repeat them above each table)."""
    seen: dict[tuple[str, str], Peak] = {}
    for peak in peaks:
        seen.setdefault((peak.gpu, peak.precision), peak)
    return list(seen.values())


def _model_flops(lines: list[str]) -> list[ModelFlops]:
    found = []
    for number, line in enumerate(lines, start=1):
        match = _MODEL_FLOPS.search(line)
        if match and not line.lstrip().startswith(("MFU", "model flops =")):
            what = re.sub(r"\s+for GBS=1.*$|\s+finetuning$", "", match.group("what").strip(), flags=re.IGNORECASE)
            found.append(ModelFlops(what, float(match.group("value")), Statement(line.strip(), number)))
    return found


def _first(lines: list[str], test: Callable[[str], bool]) -> Statement | None:
    for number, line in enumerate(lines, start=1):
        if test(line):
            return Statement(line.strip(), number)
    return None
