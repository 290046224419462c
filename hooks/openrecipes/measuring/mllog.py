"""MLPerf Training result logs (`result_N.txt`): every `:::MLLOG {json}` line as a located event.

MLCommons' `mlperf_logging` package prints one JSON object per event after the marker
`:::MLLOG `; submitters' launchers often put something before it (`0: ` for the rank under
Slurm, a timestamp) and interleave their own output, which is not MLPerf's and is skipped. The
reader keeps each event with its file and line, so every figure computed from a log can say
which lines it came from. Problems are values (`Problem`, with file, line and column), every one
of them reported in one pass; nothing here raises on a stranger's log.

What a result log says and this module reads (the keys are `mlperf_logging`'s constants):
- `run_start` / `run_stop`: the timed interval. MLPerf scores a run by the time between them;
  `run_stop`'s `metadata.status` is the benchmark's own verdict, `success` when the quality
  target was reached before the run gave up.
- `eval_accuracy`: each evaluation (for the LLM benchmarks a loss or log perplexity, lower is
  better), with `samples_count` or `epoch_num` in its metadata.
- `submission_*`: benchmark, organisation, division, status (availability) and platform.
- `global_batch_size`, `max_sequence_length` (where logged: the LoRA benchmark does not),
  `train_samples`/`trained_samples`, `tracked_stats` (NVIDIA's `throughput` in samples/s
  over the block since the previous evaluation, with the `step` in its metadata).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from ..problems import Problem

MARKER = ":::MLLOG "
EVENT_TYPES = frozenset({"POINT_IN_TIME", "INTERVAL_START", "INTERVAL_END"})
MAX_LINE = 1_000_000
"""Characters of one line read at most: an MLLOG event is a few hundred; a longer line is refused
rather than handed to the JSON parser whole."""

RULES = (
    "https://github.com/mlcommons/training_policies/blob/d73e20f179151ce1b40dc300374f576a391f91ea/training_rules.adoc"
)


def located(path: str, line: int, message: str) -> Problem:
    """A problem with a whole line (column 1), or with the whole file when `line` is 0."""
    return Problem(path, line, 1 if line else 0, "", message)


@dataclass(frozen=True, slots=True)
class Where:
    """A line of a log: `path` as the user named it, `line` 1-based."""

    path: str
    line: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass(frozen=True, slots=True)
class Event:
    """One `:::MLLOG` event as logged: `value` is any JSON value, `metadata` a read-only mapping."""

    at: Where
    key: str
    value: object
    time_ms: float
    event_type: str
    metadata: Mapping[str, object]


@dataclass(frozen=True, slots=True)
class QualityTarget:
    """A benchmark's closed-division quality target as MLCommons' rules state it. Every LLM
    benchmark's metric is a loss or log perplexity: the target is reached at or below it."""

    benchmark: str
    metric: str
    threshold: float
    source: str

    def __str__(self) -> str:
        return f"{self.metric} {self.threshold:g}"

    def met_by(self, value: float) -> bool:
        return value <= self.threshold


TARGETS: Mapping[str, QualityTarget] = MappingProxyType(
    {
        target.benchmark: target
        for target in (
            QualityTarget("llama2_70b_lora", "eval loss", 0.925, f"{RULES}#L149"),
            QualityTarget("llama31_405b", "log perplexity", 5.6, f"{RULES}#L148"),
            QualityTarget("llama31_8b", "log perplexity", 3.3, f"{RULES}#L147"),
            QualityTarget("gpt3", "log perplexity", 2.69, f"{RULES}#L778"),
        )
    }
)
"""Keyed by the benchmark's name as `submission_benchmark` logs it. A benchmark not listed still
has its run_stop status; only the comparison with the number is left out."""


@dataclass(frozen=True, slots=True)
class MlperfLog:
    """A result log's events in file order, and what MLPerf's keys say."""

    path: str
    events: tuple[Event, ...]

    def all(self, key: str) -> tuple[Event, ...]:
        return tuple(event for event in self.events if event.key == key)

    def first(self, key: str) -> Event | None:
        return next((event for event in self.events if event.key == key), None)

    @property
    def run_start(self) -> Event | None:
        return self.first("run_start")

    @property
    def run_stop(self) -> Event | None:
        return self.first("run_stop")

    @property
    def status(self) -> str | None:
        """`run_stop`'s `metadata.status` (`success`, `aborted`), None without one."""
        stop = self.run_stop
        status = stop.metadata.get("status") if stop else None
        return status if isinstance(status, str) else None

    @property
    def benchmark(self) -> str | None:
        event = self.first("submission_benchmark")
        return event.value if event and isinstance(event.value, str) else None

    @property
    def submission(self) -> Mapping[str, Event]:
        """`org`, `division`, `status`, `platform`, `benchmark`, … as logged (`submission_` taken off)."""
        found: dict[str, Event] = {}
        for event in self.events:
            if event.key.startswith("submission_"):
                found.setdefault(event.key.removeprefix("submission_"), event)
        return MappingProxyType(found)

    @property
    def global_batch_size(self) -> Event | None:
        return _whole(self.first("global_batch_size"))

    @property
    def sequence_length(self) -> Event | None:
        """`max_sequence_length` where the benchmark logs it (GPT-3, Llama 3.1), else None."""
        return _whole(self.first("max_sequence_length"))

    @property
    def evaluations(self) -> tuple[Event, ...]:
        """`eval_accuracy` events with a finite number as value."""
        return tuple(event for event in self.all("eval_accuracy") if _number(event.value) is not None)

    @property
    def throughput(self) -> tuple[Event, ...]:
        """`tracked_stats` events that carry a `throughput` number (samples/s, as the submitter computes it)."""
        return tuple(
            event
            for event in self.all("tracked_stats")
            if isinstance(event.value, Mapping) and _number(event.value.get("throughput")) is not None
        )

    @property
    def samples(self) -> Event | None:
        """Samples trained to the end (`trained_samples`, else `train_samples` after run_start)."""
        trained = _whole(self.first("trained_samples"))
        if trained:
            return trained
        start = self.run_start
        after = [e for e in self.all("train_samples") if start is None or e.at.line > start.at.line]
        return _whole(after[-1]) if after else None


@dataclass(frozen=True, slots=True)
class TimeToTrain:
    """One run's time to train: `run_stop`'s time less `run_start`'s, in milliseconds as logged."""

    start: Event
    stop: Event

    @property
    def milliseconds(self) -> float:
        return self.stop.time_ms - self.start.time_ms

    @property
    def minutes(self) -> float:
        return self.milliseconds / 60_000

    @property
    def lines(self) -> tuple[Where, ...]:
        return (self.start.at, self.stop.at)


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether a run reached its quality target, and why we say so.

    `reached` is true only when `run_stop` says `success` and, where the benchmark's target is
    known, the last evaluation before `run_stop` meets it; `reason` says which lines decided.
    """

    reached: bool
    reason: str
    target: QualityTarget | None
    status: Event | None
    last_evaluation: Event | None

    @property
    def lines(self) -> tuple[Where, ...]:
        return tuple(event.at for event in (self.last_evaluation, self.status) if event is not None)


def read_mllog_file(path: Path, shown: str | None = None) -> tuple[MlperfLog | None, tuple[Problem, ...]]:
    """Read a result log from disk (`shown` is the name used in messages, default the path)."""
    name = shown if shown is not None else str(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        return None, (located(name, 0, f"cannot read the log: {error.strerror or error}"),)
    return parse_mllog(data, name)


def parse_mllog(data: bytes | str, path: str) -> tuple[MlperfLog | None, tuple[Problem, ...]]:
    """Every `:::MLLOG` event of a log, and every problem with one; None when nothing usable is left.

    Lines without the marker are the launcher's and are skipped; a line with it must hold one
    JSON object with `key`, `time_ms` and `event_type` (and `metadata`, when present, an object).
    """
    events: list[Event] = []
    problems: list[Problem] = []
    for number, line in _lines(data):
        if isinstance(line, Problem):
            problems.append(located(path, number, line.message))
            continue
        column = line.find(MARKER)
        if column < 0:
            continue
        event = _event(line, column + len(MARKER), Where(path, number))
        if isinstance(event, Problem):
            problems.append(event)
        else:
            events.append(event)
    if not events and not problems:
        problems.append(located(path, 0, f"no '{MARKER.strip()}' lines: this is not an MLPerf result log"))
    problems += _structure(events)
    if not events:
        return None, tuple(problems)
    return MlperfLog(path, tuple(events)), tuple(problems)


def time_to_train(log: MlperfLog) -> TimeToTrain | Problem:
    """run_start to run_stop, or a located problem saying which is missing or out of order."""
    start, stop = log.run_start, log.run_stop
    if start is None:
        return located(log.path, 0, "no run_start: the timed run never began in this log")
    if stop is None:
        return located(log.path, start.at.line, "no run_stop after this run_start: the run did not finish in this log")
    if stop.time_ms < start.time_ms:
        return located(log.path, stop.at.line, f"run_stop is earlier than run_start (line {start.at.line})")
    return TimeToTrain(start, stop)


def verdict(log: MlperfLog, target: QualityTarget | None = None) -> Verdict:
    """Whether the run reached its quality target (`target`, default the benchmark's in TARGETS)."""
    target = target if target is not None else TARGETS.get(log.benchmark or "")
    stop = log.run_stop
    before = [e for e in log.evaluations if stop is None or e.at.line <= stop.at.line]
    last = before[-1] if before else None
    if stop is None:
        return Verdict(False, "no run_stop: the run did not finish", target, None, last)
    status = log.status
    if status != "success":
        said = f"'{status}'" if status else "no status"
        return Verdict(False, f"run_stop ({stop.at}) says {said}, not 'success'", target, stop, last)
    if target is None:
        return Verdict(True, f"run_stop ({stop.at}) says 'success'", None, stop, last)
    if last is None:
        return Verdict(
            False, f"run_stop ({stop.at}) says 'success' but no eval_accuracy precedes it", target, stop, None
        )
    value = _number(last.value)
    assert value is not None  # evaluations holds numbers only
    if not target.met_by(value):
        return Verdict(
            False,
            f"run_stop ({stop.at}) says 'success' but the last eval_accuracy, {value:g} ({last.at}),"
            f" is above the target {target}",
            target,
            stop,
            last,
        )
    return Verdict(
        True,
        f"eval_accuracy {value:g} ({last.at}) meets the target {target}, and run_stop ({stop.at}) says 'success'",
        target,
        stop,
        last,
    )


def _lines(data: bytes | str) -> Iterable[tuple[int, str | Problem]]:
    raw = data.split("\n") if isinstance(data, str) else data.split(b"\n")
    for index, line in enumerate(raw, start=1):
        if isinstance(line, bytes):
            if MARKER.encode() not in line:
                continue  # the launcher's own output, in whatever encoding it had
            try:
                line = line.decode("utf-8")
            except UnicodeDecodeError as error:
                yield index, located("", 0, f"an MLLOG line that is not UTF-8 (byte {error.start + 1})")
                continue
        if len(line) > MAX_LINE:
            if MARKER in line:
                yield index, located("", 0, f"an MLLOG line longer than {MAX_LINE:,} characters")
            continue
        yield index, line.rstrip("\r")


def _refuse_constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def _event(line: str, offset: int, at: Where) -> Event | Problem:
    def problem(message: str, column: int = offset + 1) -> Problem:
        return Problem(at.path, at.line, column, "", message)

    text = line[offset:]
    try:
        data = json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        return problem(f"the MLLOG event is not JSON: {error.msg}", offset + error.pos + 1)
    except (ValueError, RecursionError) as error:
        return problem(f"the MLLOG event is not JSON: {str(error)[:100] or 'nested too deeply'}")
    if not isinstance(data, dict):
        return problem("the MLLOG event is not a JSON object")
    key, time_ms, event_type = data.get("key"), data.get("time_ms"), data.get("event_type")
    metadata = data.get("metadata", {})
    if not isinstance(key, str) or not key:
        return problem("the MLLOG event has no 'key' (a non-empty string)")
    if _number(time_ms) is None:
        return problem(f"the MLLOG event '{key[:60]}' has no 'time_ms' (a number of milliseconds)")
    if event_type not in EVENT_TYPES:
        return problem(
            f"the MLLOG event '{key[:60]}' has 'event_type' {_short(event_type)},"
            f" not one of {', '.join(sorted(EVENT_TYPES))}"
        )
    if not isinstance(metadata, dict):
        return problem(f"the MLLOG event '{key[:60]}' has 'metadata' that is not an object")
    return Event(at, key, data.get("value"), float(time_ms), event_type, MappingProxyType(metadata))  # type: ignore[arg-type]


def _structure(events: list[Event]) -> list[Problem]:
    """One run per log: a second run_start or run_stop, or a stop before the start, is refused."""
    problems = []
    for key in ("run_start", "run_stop"):
        found = [event for event in events if event.key == key]
        for extra in found[1:]:
            problems.append(
                located(
                    extra.at.path,
                    extra.at.line,
                    f"a second {key} (the first is on line {found[0].at.line}): a result log holds one run",
                )
            )
    starts = [e for e in events if e.key == "run_start"]
    stops = [e for e in events if e.key == "run_stop"]
    if starts and stops and stops[0].at.line < starts[0].at.line:
        problems.append(
            located(
                stops[0].at.path,
                stops[0].at.line,
                f"run_stop comes before run_start (line {starts[0].at.line})",
            )
        )
    return problems


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def _whole(event: Event | None) -> Event | None:
    """The event when its value is a positive whole number (a count), else None."""
    if event is None or isinstance(event.value, bool) or not isinstance(event.value, int) or event.value <= 0:
        return None
    return event


def _short(value: object) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."
