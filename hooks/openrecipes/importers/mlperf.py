"""MLCommons' `training_results_vX.Y` repositories, read at a commit: every closed-division result of
an LLM benchmark as a typed `Result` (its system description, its result logs, its scaling file),
and the configuration files a submission's launch sources.

The layout every round keeps: `<submitter>/results/<system>/<benchmark>/result_*.txt` (one MLLOG
log per run), `<submitter>/systems/<system>.json` (the system description), and
`<submitter>/benchmarks/<benchmark>/implementations/<implementation>/` (the code, its README and
the `config_*.sh` files a launch sources). The logs are read with `measuring.mllog`, the one
MLLOG reader; nothing here decides what a recipe says (`mlperf_recipes` does).

Everything read is a stranger's: a log line that is not an MLLOG event, a system description that
is not JSON or is missing, is a located problem carried by the result, never an exception.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from ..measuring import mllog
from ..problems import Problem
from ..reading import shellenv
from ..reading.gitrev import GitError
from .gitsource import FileAtCommit, GitSource

REPOSITORY = "mlcommons/training_results_v{round}"


class ParseError(ValueError):
    """The repository is not in the shape this importer reads (no round can be found, say)."""


@dataclass(frozen=True)
class Benchmark:
    name: str
    """As MLCommons names it in paths and in `submission_benchmark` (`llama2_70b_lora`)."""
    model: str
    """reference/models.yaml key."""
    title: str
    """As MLCommons' results tables print it."""
    sequence_length: int | None
    """Tokens per sample where the benchmark fixes it and the log does not say (the LoRA data set is
    packed into 8,192-token sequences); None where the log's max_sequence_length is read."""
    sequence_source: str = ""
    method: str | None = None
    """`lora` for the fine-tuning benchmark; None for pre-training."""


LORA_DATA = (
    "https://github.com/mlcommons/training_results_v4.0/blob/62f111b7690f163b269f32e4f93dcaaa13717c9c/"
    "NVIDIA/benchmarks/llama2_70b_lora/implementations/nemo/README.md#L6"
)
BENCHMARKS: Mapping[str, Benchmark] = MappingProxyType(
    {
        "llama2_70b_lora": Benchmark(
            "llama2_70b_lora",
            "Llama 2 70B",
            "Llama 2 70B LoRA",
            8192,
            '"Dataset hosted on the MLPerf drive is already tokenized and packed so that each sequence '
            f'has length 8192" ({LORA_DATA})',
            "lora",
        ),
        "llama31_405b": Benchmark("llama31_405b", "Llama 3.1 405B", "Llama 3.1 405B", None),
        "llama31_8b": Benchmark("llama31_8b", "Llama 3.1 8B", "Llama 3.1 8B", None),
        "gpt3": Benchmark("gpt3", "GPT-3 175B", "GPT-3", None),
    }
)

_ROUND = re.compile(r"MLPerf\W{0,3} Training v(\d+\.\d+)")
_RESULT_LOG = re.compile(r"result_[A-Za-z0-9_.-]*\.txt")


@dataclass(frozen=True)
class RunLog:
    file: FileAtCommit
    log: mllog.MlperfLog | None
    problems: tuple[Problem, ...]


@dataclass(frozen=True)
class SystemDescription:
    file: FileAtCommit
    values: Mapping[str, str]
    """Every key of the JSON object whose value is text or a number, as text."""
    lines: Mapping[str, int]
    """The line each key is on (the file is one key a line in every round)."""

    def get(self, key: str) -> str:
        return self.values.get(key, "").strip()


@dataclass(frozen=True)
class Result:
    round: str
    submitter: str
    system: str
    benchmark: Benchmark
    folder: str
    """`<submitter>/results/<system>/<benchmark>`."""
    runs: tuple[RunLog, ...]
    description: SystemDescription | None
    problems: tuple[Problem, ...] = ()
    """What keeps the result from being read: a missing or malformed system description."""
    scaling: tuple[float, FileAtCommit] | None = None
    """MLCommons' score scaling factor (scaling.json), where the result has one."""

    @property
    def where(self) -> str:
        return self.folder


@dataclass(frozen=True)
class Repository:
    source: GitSource
    round: str
    results: tuple[Result, ...]
    skipped: tuple[tuple[str, str], ...] = field(default=())
    """(folder, why) for results of other benchmarks' divisions that are not read at all."""

    @property
    def name(self) -> str:
        return REPOSITORY.format(round=self.round)


def round_of(source: GitSource, given: str | None) -> str:
    """The round: as given, else as the repository's README names it."""
    if given:
        if not re.fullmatch(r"\d+\.\d+", given):
            raise ParseError(f"--round {given!r}: a round is written like 5.0")
        return given
    if source.exists("README.md"):
        found = _ROUND.search(source.show("README.md"))
        if found:
            return found.group(1)
    raise ParseError(
        f'the README.md at {source.commit[:12]} does not name the round ("MLPerf Training vX.Y"): pass --round'
    )


def read(source: GitSource, round_name: str | None = None) -> Repository:
    round_ = round_of(source, round_name)
    results: list[Result] = []
    for submitter in (path.lstrip("/") for path in source.list("")):
        folder = f"{submitter}/results"
        for path in source.tree(folder):
            parts = path.split("/")
            if len(parts) != 5 or parts[3] not in BENCHMARKS or not _RESULT_LOG.fullmatch(parts[4]):
                continue
            key = "/".join(parts[:4])
            if results and results[-1].folder == key:
                continue
            results.append(_result(source, round_, submitter, parts[2], BENCHMARKS[parts[3]], key))
    return Repository(source, round_, tuple(results))


def _result(source: GitSource, round_: str, submitter: str, system: str, benchmark: Benchmark, folder: str) -> Result:
    files = [path for path in source.list(folder) if _RESULT_LOG.fullmatch(path.rsplit("/", 1)[-1])]
    runs = []
    unread: list[Problem] = []
    for path in sorted(files, key=_natural):
        try:
            file = source.read(path)
        except GitError as error:  # listed but not stored (a large file left out of a snapshot, say)
            unread.append(Problem(path, 0, 0, "", f"the log cannot be read at this commit: {error}"))
            continue
        log, problems = mllog.parse_mllog(file.text, path)
        runs.append(RunLog(file, log, problems))
    description, problems = _description(source, f"{submitter}/systems/{system}.json")
    scaling = _scaling(source, f"{folder}/scaling.json")
    return Result(round_, submitter, system, benchmark, folder, tuple(runs), description, (*unread, *problems), scaling)


def _natural(path: str) -> tuple[object, ...]:
    """result_2.txt before result_10.txt."""
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", path))


def _description(source: GitSource, path: str) -> tuple[SystemDescription | None, tuple[Problem, ...]]:
    if not source.exists(path):
        return None, (Problem(path, 0, 0, "", "the system description is missing: every result names one"),)
    file = source.read(path)
    try:
        data = json.loads(file.text)
    except json.JSONDecodeError as error:
        return None, (Problem(path, error.lineno, error.colno, "", f"the system description is not JSON: {error.msg}"),)
    if not isinstance(data, dict):
        return None, (Problem(path, 1, 1, "", "the system description is not a JSON object"),)
    values = {
        key: str(value)
        for key, value in data.items()
        if isinstance(key, str) and isinstance(value, str | int | float) and not isinstance(value, bool)
    }
    lines: dict[str, int] = {}
    for number, line in enumerate(_lines(file.text), start=1):
        found = re.match(r'\s*"([^"]+)"\s*:', line)
        if found and found.group(1) in values:
            lines.setdefault(found.group(1), number)
    return SystemDescription(file, MappingProxyType(values), MappingProxyType(lines)), ()


def _scaling(source: GitSource, path: str) -> tuple[float, FileAtCommit] | None:
    if not source.exists(path):
        return None
    file = source.read(path)
    try:
        value = json.loads(file.text).get("scaling_factor")
    except (json.JSONDecodeError, AttributeError):
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < 100:
        return None
    return float(value), file


def lines(text: str) -> list[str]:
    """A file's lines as git and GitHub number them: split at newlines only (str.splitlines would also
    split at form feeds and other separators a log can hold, and every later line number would be off)."""
    return text.removesuffix("\n").split("\n")


_lines = lines


# --- configuration files --------------------------------------------------------------------------

# How a configuration names a file beside it: `$(dirname ${BASH_SOURCE[0]})/`, `${DIR}/`, `./`.
_HERE = re.compile(
    r"^[\"']?(?:\$\(\s*dirname\s+[\"']?\$\{?BASH_SOURCE(?:\[0\])?\}?[\"']?\s*\)|\$\{?[A-Za-z_]*DIR\}?|\.)/"
)


@dataclass(frozen=True)
class Assignment:
    name: str
    value: str
    """Quotes removed as bash removes them; where it expands something when the file is sourced
    (`expression`), that part as written."""
    path: str
    line: int
    expression: bool = False
    condition: str = ""
    """The tests it is set under, as written (`if [[ "${NO_CKPT:-0}" -eq 1 ]]`); '' for none."""


@dataclass(frozen=True)
class Conditional:
    """An exported value the configuration sets, overrides or removes only under a condition."""

    name: str
    value: str | None
    """None where the condition unsets it (or takes it out of the environment)."""
    path: str
    line: int
    condition: str


@dataclass(frozen=True)
class Missing:
    path: str
    line: int
    sourced: str
    """The path as written."""
    condition: str
    target: str | None = None
    """The file looked for, where the path names one beside the sourcing file plainly: that file is
    then not at the commit. None for a path known only when the configuration runs."""


@dataclass(frozen=True)
class ShellConfig:
    """A `config_*.sh` with the files it sources, read as bash reads them (`reading/shellenv.py`),
    never run."""

    path: str
    files: tuple[FileAtCommit, ...]
    """The configuration first, then each file it sources (existing ones), in the order bash runs them."""
    values: Mapping[str, Assignment]
    """What the launch's programs inherit whatever the configuration's tests find: every variable it
    exports and sets unconditionally, with its last value, in the order bash sets them."""
    conditional: tuple[Conditional, ...] = ()
    """Exported values only a condition sets, overrides or removes: never taken for `values`."""
    missing: tuple[Missing, ...] = ()
    """Each `source` of a file that is not there (or whose path cannot be known without running)."""
    unread: tuple[tuple[str, int, str], ...] = ()
    """(file, line, what) for each command whose effect the reading cannot know (`eval`)."""

    @property
    def name(self) -> str:
        return self.path.rsplit("/", 1)[-1]

    def get(self, *names: str) -> Assignment | None:
        return next((self.values[name] for name in names if name in self.values), None)


def _beside(written: str, sourcing: str) -> str | None:
    """The file a `source` names beside the file sourcing it, named plainly; None for any other path,
    which is known only when it runs."""
    name = _HERE.sub("", written).strip("\"'")
    if "$" in name or "/" in name or not name:
        return None
    return f"{sourcing.rsplit('/', 1)[0]}/{name}"


def read_config(source: GitSource, path: str) -> ShellConfig:
    read: dict[str, FileAtCommit] = {}

    def follow(written: str, sourcing: str) -> tuple[str, str] | None:
        target = _beside(written, sourcing)
        if target is None or not source.exists(target):
            return None
        read.setdefault(target, source.read(target))
        return target, read[target].text

    read[path] = source.read(path)
    sourced = shellenv.read(path, read[path].text, follow)
    environment = shellenv.environment(sourced.settings)

    def assignment(setting: shellenv.Setting) -> Assignment:
        return Assignment(
            setting.name, setting.value, setting.path, setting.line, setting.expression, setting.condition
        )

    return ShellConfig(
        path,
        tuple(read[item] for item in sourced.paths),
        MappingProxyType({name: assignment(setting) for name, setting in environment.exported.items()}),
        tuple(
            Conditional(item.name, item.value, item.setting.path, item.setting.line, item.setting.condition)
            for item in environment.conditional
        ),
        tuple(
            Missing(item.path, item.line, item.written, item.condition, _beside(item.written, item.path))
            for item in sourced.missing
        ),
        sourced.unread,
    )
