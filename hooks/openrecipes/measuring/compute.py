"""The figures of a recipe's `result`, computed from read logs, each with the lines it rests on.

`measure` takes the logs of one run (or several MLPerf runs of one result) and the facts a log
does not print (GPU count, sequence length where the log does not print it, the window), and
returns `Figure`s in the schema's key order, or located problems; never a figure made of a
default. What is computed, and how:

- **tokens/s per GPU over a window** that leaves out warm-up: by default the first fifth of the
  logged intervals (at least the first, whose length is unknown), or `window` (first and last
  step, inclusive). It is total tokens over total time, never a mean of rates: Megatron, steps ×
  global batch × sequence length over steps × elapsed time per iteration, ÷ GPUs; torchtitan, its
  per-GPU `tps` weighted by the time each interval took (from the timestamps); MLPerf, the
  samples of each `tracked_stats` block × sequence length over the samples ÷ the block's
  throughput, ÷ GPUs.
- **step-time coefficient of variation**: sample standard deviation over mean of the logged
  step times in the window (each line's average over its interval), in percent.
- **GPU-hours** (MLPerf): GPUs × the time from the first `init_start` to `run_stop`. A step log
  does not show its start-up, so it gets none.
- **time to train** (MLPerf): `run_start` to `run_stop`; several runs are combined by MLPerf's
  rule (the mean without the fastest and the slowest) and every run must reach its target.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from ..problems import Problem
from . import mllog
from .mllog import MlperfLog, Where, located
from .score import mlperf_score
from .steps import Step, StepLog

WARMUP_FRACTION = 5
"""The default window leaves out the first 1/5 of a log's logged intervals (at least one)."""


@dataclass(frozen=True, slots=True)
class Settings:
    """What the logs do not say, given by the user: None when not given."""

    gpus: int | None = None
    seq_length: int | None = None
    window: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class Figure:
    """One value of `result`, with the log lines it came from and how it was computed."""

    key: str
    value: object
    lines: tuple[Where, ...]
    how: str


@dataclass(frozen=True, slots=True)
class Measurement:
    figures: tuple[Figure, ...]
    notes: tuple[str, ...]

    def result(self) -> dict[str, object]:
        return {figure.key: figure.value for figure in self.figures}


def measure(logs: Sequence[MlperfLog | StepLog], settings: Settings) -> tuple[Measurement | None, tuple[Problem, ...]]:
    """The figures the logs support; None and the problems when any figure asked for cannot be made."""
    if not logs:
        return None, (located("", 0, "no log given"),)
    if all(isinstance(log, MlperfLog) for log in logs):
        return _mlperf([log for log in logs if isinstance(log, MlperfLog)], settings)
    if len(logs) > 1:
        names = ", ".join(log.path for log in logs)
        return None, (
            located(logs[1].path, 0, f"one step log at a time ({names}): several are read only for MLPerf runs"),
        )
    log = logs[0]
    assert isinstance(log, StepLog)
    return _steps(log, settings)


# --- step logs (Megatron, torchtitan) -------------------------------------------------------------


def _steps(log: StepLog, settings: Settings) -> tuple[Measurement | None, tuple[Problem, ...]]:
    problems: list[Problem] = []
    window, chosen = _window(log, settings.window)
    if isinstance(window, Problem):
        return None, (window,)
    first, last = chosen[0].step - (chosen[0].steps or 1) + 1, chosen[-1].step
    lines = tuple(step.at for step in chosen)
    figures: list[Figure] = []
    notes: list[str] = []
    span = _span(lines)
    where = f"the {len(chosen)} logged line{'s' if len(chosen) != 1 else ''} of steps {first} to {last} ({span})"

    if log.trainer == "megatron":
        missing = [
            f"--{flag}"
            for flag, value in (("gpus", settings.gpus), ("seq-length", settings.seq_length))
            if value is None
        ]
        if missing:
            problems.append(
                located(
                    log.path,
                    0,
                    f"a Megatron log prints neither GPU count nor sequence length: give {' and '.join(missing)}",
                )
            )
        unbatched = next((step for step in chosen if step.global_batch_size is None), None)
        if unbatched is not None:
            problems.append(located(log.path, unbatched.at.line, "this iteration line prints no 'global batch size'"))
        if problems:
            return None, tuple(problems)
        assert settings.gpus is not None and settings.seq_length is not None
        tokens = sum((step.steps or 0) * (step.global_batch_size or 0) * settings.seq_length for step in chosen)
        seconds = sum((step.steps or 0) * (step.step_time_ms or 0) / 1000 for step in chosen)
        rate = tokens / seconds / settings.gpus
        batches = sorted({step.global_batch_size for step in chosen if step.global_batch_size})
        how = (
            f"Computed by openrecipes measure from {where}: steps × global batch"
            f" ({', '.join(map(str, batches))}) × {settings.seq_length} tokens per sequence (--seq-length),"
            f" over steps × 'elapsed time per iteration (ms)', ÷ {settings.gpus} GPUs (--gpus)."
        )
        figures.append(Figure("tokens_per_s_per_gpu", round(rate, 1), lines, how))
        figures.append(Figure("throughput_note", how, lines, how))
    else:
        timed = [step for step in chosen if step.step_time_ms is not None]
        seconds = sum((step.steps or 0) * (step.step_time_ms or 0) / 1000 for step in timed)
        if not timed or seconds <= 0:
            return None, (located(log.path, chosen[0].at.line, "the window's lines have no time between them"),)
        rate = (
            sum(
                (step.tokens_per_s_per_gpu or 0) * (step.steps or 0) * (step.step_time_ms or 0) / 1000 for step in timed
            )
            / seconds
        )
        how = (
            f"Computed by openrecipes measure from {where}: torchtitan's 'tps' (tokens/s per GPU) of each line,"
            " weighted by the time between its timestamp and the previous line's."
        )
        figures.append(Figure("tokens_per_s_per_gpu", round(rate, 1), lines, how))
        figures.append(Figure("throughput_note", how, lines, how))
    if log.ignored:
        notes.append(
            f"{log.ignored} line{'s' if log.ignored != 1 else ''} of other ranks repeating a step were not read"
        )

    times = [step.step_time_ms for step in chosen if step.step_time_ms is not None]
    if len(times) >= 2:
        cv = statistics.stdev(times) / statistics.fmean(times) * 100
        figures.append(
            Figure(
                "step_time_cv_percent",
                round(cv, 2),
                lines,
                f"sample standard deviation ÷ mean of the {len(times)} step times of {where},"
                " each an average over its line's interval",
            )
        )
    else:
        notes.append("step_time_cv_percent: the window has fewer than two timed lines")
    moment = next((step.time for step in log.steps if step.time is not None), None)
    if moment is not None:
        figures.append(
            Figure(
                "measured", moment.date(), (log.steps[0].at,), "the date of the log's first timestamp (UTC as written)"
            )
        )
    figures.append(Figure("steps_per_run", log.steps[-1].step, (log.steps[-1].at,), "the last logged step"))
    if log.steps[-1].total_steps and log.steps[-1].total_steps != log.steps[-1].step:
        notes.append(f"the log stops at step {log.steps[-1].step} of the {log.steps[-1].total_steps} its run planned")
    figures.append(Figure("window", [first, last], lines, "first and last step of the logged intervals in the window"))
    if log.trainer == "megatron" and settings.seq_length:
        tokens = sum((step.steps or 0) * (step.global_batch_size or 0) * settings.seq_length for step in chosen)
        figures.append(Figure("window_tokens", tokens, lines, "steps × global batch × sequence length over the window"))
    notes.append("gpu_hours: a step log does not show its start-up; count GPU-hours from the job's own accounting")
    return Measurement(_ordered(figures), tuple(notes)), ()


def _window(log: StepLog, asked: tuple[int, int] | None) -> tuple[Problem | None, list[Step]]:
    """The logged lines whose whole interval lies in the window; the default leaves out warm-up."""
    counted = [step for step in log.steps if step.steps is not None]
    if asked is None:
        if not counted:
            return located(
                log.path, log.steps[0].at.line, "one logged line: no interval to measure (its length is unknown)"
            ), []
        skip = max(0, math.ceil(len(log.steps) / WARMUP_FRACTION) - 1)
        return None, counted[skip:]
    low, high = asked
    inside = [step for step in counted if step.step - (step.steps or 1) + 1 >= low and step.step <= high]
    if not inside:
        logged = f"{log.steps[0].step} to {log.steps[-1].step}"
        return located(
            log.path,
            0,
            f"no logged interval lies within steps {low} to {high} (logged steps: {logged};"
            " the first line's interval is unknown)",
        ), []
    return None, inside


# --- MLPerf result logs ------------------------------------------------------------------------------


def _mlperf(logs: list[MlperfLog], settings: Settings) -> tuple[Measurement | None, tuple[Problem, ...]]:
    problems: list[Problem] = []
    runs: list[tuple[MlperfLog, mllog.TimeToTrain, mllog.Verdict]] = []
    benchmarks = {log.benchmark for log in logs}
    if len(benchmarks) > 1:
        return None, (
            located(
                logs[1].path,
                0,
                f"the logs are of different benchmarks: {', '.join(sorted(b or 'none' for b in benchmarks))}",
            ),
        )
    for log in logs:
        timed = mllog.time_to_train(log)
        if isinstance(timed, Problem):
            problems.append(timed)
            continue
        runs.append((log, timed, mllog.verdict(log)))
    if problems:
        return None, tuple(problems)
    # MLPerf's rule (measuring.score, as the MLPerf importer scores): a run that missed the target
    # is dropped as the slowest of three or more; otherwise it leaves no score.
    scored = mlperf_score([run[1].minutes for run in runs], [run[2].reached for run in runs])
    if isinstance(scored, str):
        return None, tuple(
            located(
                log.path,
                verdict.status.at.line if verdict.status else 0,
                f"the quality target was not reached: {verdict.reason}",
            )
            for log, _, verdict in runs
            if not verdict.reached
        )
    figures: list[Figure] = []
    notes: list[str] = []
    missed = [run for run in runs if not run[2].reached]
    if missed:
        notes.append(f"{missed[0][0].path} did not reach the target and is dropped as the slowest (MLPerf's rule)")
    log, timed, verdict = next(run for run in runs if run[2].reached)
    run_lines = tuple(where for run in runs for where in run[1].lines)
    score = scored.minutes
    kept = scored.counted
    if len(runs) >= 3:
        scoring = (
            f"mean of the {len(runs)} runs without the fastest and the slowest, each timed from run_start to run_stop"
            " (MLPerf's rule); computed by openrecipes measure from the logs"
        )
    else:
        scoring = (
            (
                "run_start to run_stop of one run"
                if len(runs) == 1
                else f"mean of {len(runs)} runs, each run_start to run_stop"
            )
            + "; computed by openrecipes measure from the log"
            + ("" if len(runs) == 1 else "s")
        )
    target = (
        str(verdict.target)
        if verdict.target
        else f"run_stop status success ({log.benchmark or 'benchmark not logged'})"
    )
    figures.append(
        Figure(
            "time_to_train",
            {"minutes": round(score, 3), "quality_target": target, "scoring": scoring}
            | ({"runs_counted": len(kept)} if len(runs) > 1 else {}),
            run_lines,
            "; ".join(
                f"{run[0].path}: {run[1].minutes:.3f} min from run_start (line {run[1].start.at.line}) to run_stop"
                f" (line {run[1].stop.at.line}); target: {run[2].reason}"
                for run in runs
            ),
        )
    )
    if len(runs) > 1:
        figures.append(Figure("runs", len(runs), run_lines, "the result logs given"))
        notes.append(f"throughput, window and GPU-hours are the first log's that reached the target ({log.path})")
    start = log.run_start
    assert start is not None
    figures.append(
        Figure(
            "measured",
            datetime.fromtimestamp(start.time_ms / 1000, UTC).date(),
            (start.at,),
            "the UTC date of run_start",
        )
    )
    batch = log.global_batch_size
    seq, seq_problem = _mlperf_sequence(log, settings)
    if seq_problem:
        return None, (seq_problem,)
    blocks = _blocks(log)
    if blocks and batch is not None and settings.gpus and seq:
        chosen, window_problem = _mlperf_window(log, blocks, batch.value, settings.window)  # type: ignore[arg-type]
        if window_problem:
            return None, (window_problem,)
        samples = sum(count for _, count, _ in chosen)
        seconds = sum(count / rate for _, count, rate in chosen)
        rate = samples * seq / seconds / settings.gpus
        lines = tuple(event.at for event, _, _ in chosen)
        first = (chosen[0][0].metadata["step"] - chosen[0][1]) // batch.value + 1  # type: ignore[operator]
        last = chosen[-1][0].metadata["step"] // batch.value  # type: ignore[operator]
        source = "max_sequence_length logged" if log.sequence_length else "--seq-length"
        how = (
            f"Computed by openrecipes measure from the 'tracked_stats' throughput (samples/s for the whole system) of"
            f" {len(chosen)} training block{'s' if len(chosen) != 1 else ''} ({_span(lines)}), weighted by each block's"
            f" samples, × {seq} tokens per sample ({source}) ÷ {settings.gpus} GPUs (--gpus); steps {first} to {last}"
            f" at a global batch of {batch.value} (line {batch.at.line})."
        )
        figures.append(Figure("tokens_per_s_per_gpu", round(rate, 1), lines, how))
        figures.append(Figure("throughput_note", how, lines, how))
        figures.append(Figure("window", [first, last], lines, "the optimizer steps of the blocks measured"))
        figures.append(Figure("window_tokens", samples * seq, lines, "the blocks' samples × sequence length"))
    elif not blocks and settings.gpus and seq:
        # No tracked_stats: the samples trained to run_stop over the run's time less its
        # evaluations (training_rate, as the MLPerf importer measures such a log).
        rate = training_rate(log)
        if isinstance(rate, str):
            notes.append(f"tokens_per_s_per_gpu: {rate}")
        else:
            stop_at = log.run_stop.at if log.run_stop else log.run_start.at
            evaluations = " less the evaluations" if rate.evaluations_excluded else " (evaluations not timed)"
            how = (
                f"Computed by openrecipes measure: the log has no 'tracked_stats' throughput, so the samples trained"
                f" to run_stop ({rate.samples}) × {seq} tokens per sample over the time from run_start to run_stop"
                f"{evaluations}, {rate.seconds:,.1f} s, ÷ {settings.gpus} GPUs (--gpus)."
            )
            value = round(rate.samples * seq / rate.seconds / settings.gpus, 1)
            figures.append(Figure("tokens_per_s_per_gpu", value, (log.run_start.at, stop_at), how))
            figures.append(Figure("throughput_note", how, (log.run_start.at, stop_at), how))
    elif not blocks:
        missing = [flag for flag, value in (("--gpus", settings.gpus), ("--seq-length", seq)) if not value]
        notes.append(f"tokens_per_s_per_gpu: needs {' and '.join(missing)}")
    else:
        missing = [flag for flag, value in (("--gpus", settings.gpus), ("--seq-length", seq)) if not value]
        if batch is None:
            missing.append("a logged global_batch_size")
        notes.append(f"tokens_per_s_per_gpu: needs {' and '.join(missing)}")
    stop = log.run_stop
    assert stop is not None
    samples_at_stop = stop.metadata.get("samples_count")
    if batch is not None and isinstance(samples_at_stop, int) and samples_at_stop % batch.value == 0:  # type: ignore[operator]
        figures.append(
            Figure(
                "steps_per_run",
                samples_at_stop // batch.value,
                (stop.at, batch.at),
                "run_stop's samples_count ÷ global batch",
            )
        )  # type: ignore[operator]
    init = log.first("init_start")
    if settings.gpus:
        begin = init if init is not None and init.time_ms <= start.time_ms else start
        hours = (stop.time_ms - begin.time_ms) / 3_600_000 * settings.gpus
        figures.append(
            Figure("gpu_hours", round(hours, 2), (begin.at, stop.at), f"{settings.gpus} GPUs × {begin.key} to run_stop")
        )
        figures.append(
            Figure(
                "gpu_hours_note",
                f"{settings.gpus} GPUs × the time from {begin.key} ({log.path}:{begin.at.line}) to run_stop (line"
                f" {stop.at.line}), initialisation and evaluations included; what the launcher did before {begin.key}"
                " is not in the log. Computed by openrecipes measure.",
                (begin.at, stop.at),
                "",
            )
        )
    else:
        notes.append("gpu_hours: needs --gpus")
    return Measurement(_ordered(figures), tuple(notes)), ()


def _mlperf_sequence(log: MlperfLog, settings: Settings) -> tuple[int | None, Problem | None]:
    logged = log.sequence_length
    if logged is not None and settings.seq_length is not None and logged.value != settings.seq_length:
        return None, located(
            log.path,
            logged.at.line,
            f"the log's max_sequence_length is {logged.value}, not --seq-length {settings.seq_length}",
        )
    if logged is not None:
        return int(logged.value), None  # type: ignore[call-overload]
    return settings.seq_length, None


def training_blocks(log: MlperfLog) -> list[tuple[mllog.Event, int, float]]:
    """The `tracked_stats` blocks measured by default (`openrecipes measure` and the MLPerf
    importer alike): each with its samples and samples/s, all but the first, which holds warm-up
    and compilation (the only one, when there is one)."""
    blocks = _blocks(log)
    return blocks[1:] or blocks


@dataclass(frozen=True)
class TrainingRate:
    """What an MLPerf run trained and in how long, as measured by default."""

    samples: int
    seconds: float
    blocks: int
    """The `tracked_stats` blocks it is over; 0 when the log has none and the whole run is used."""
    evaluations_excluded: bool
    """For the whole run: whether the evaluations' time (eval_start to eval_stop) is left out."""


def training_rate(log: MlperfLog) -> TrainingRate | str:
    """The samples and seconds of a run's training, for tokens/s: MLPerf's own `tracked_stats`
    blocks but the first (training_blocks); a log without any, the samples trained to run_stop
    over the time from run_start to run_stop less the evaluations. Else why there is none."""
    blocks = training_blocks(log)
    if blocks:
        return TrainingRate(
            sum(count for _, count, _ in blocks), sum(count / rate for _, count, rate in blocks), len(blocks), True
        )
    samples = _samples_trained(log)
    timed = mllog.time_to_train(log)
    if samples is None or isinstance(timed, Problem):
        return "the log has neither tracked_stats nor a samples_count at run_stop or an evaluation"
    evaluation = _evaluation_seconds(log)
    seconds = timed.milliseconds / 1000 - (evaluation or 0.0)
    if seconds <= 0:
        return "the run's training time is not positive"
    return TrainingRate(samples, seconds, 0, evaluation is not None)


def _samples_trained(log: MlperfLog) -> int | None:
    stop = log.run_stop
    for event in (stop, *reversed(log.evaluations)):
        if event is None or (stop is not None and event.at.line > stop.at.line):
            continue
        value = event.metadata.get("samples_count")
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            return value
    return None


def _evaluation_seconds(log: MlperfLog) -> float | None:
    starts, stops = log.all("eval_start"), log.all("eval_stop")
    if not starts or len(starts) != len(stops):
        return None
    total = 0.0
    for start, stop in zip(starts, stops, strict=True):
        if stop.time_ms < start.time_ms or stop.at.line < start.at.line:
            return None
        total += (stop.time_ms - start.time_ms) / 1000
    return total


def _blocks(log: MlperfLog) -> list[tuple[mllog.Event, int, float]]:
    """Each `tracked_stats` with its samples since the previous one and its samples/s."""
    blocks = []
    previous = 0
    for event in log.throughput:
        step = event.metadata.get("step")
        rate = event.value["throughput"]  # type: ignore[index]
        if isinstance(step, bool) or not isinstance(step, int) or step <= previous or rate <= 0:
            continue
        blocks.append((event, step - previous, float(rate)))
        previous = step
    return blocks


def _mlperf_window(
    log: MlperfLog, blocks: list[tuple[mllog.Event, int, float]], batch: int, asked: tuple[int, int] | None
) -> tuple[list[tuple[mllog.Event, int, float]], Problem | None]:
    if asked is None:
        return training_blocks(log), None
    low, high = asked
    chosen = []
    for event, count, rate in blocks:
        end = event.metadata["step"] // batch  # type: ignore[operator]
        start = end - count // batch + 1
        if start >= low and end <= high:
            chosen.append((event, count, rate))
    if not chosen:
        return [], located(log.path, 0, f"no tracked_stats block lies within steps {low} to {high}")
    return chosen, None


ORDER = (
    "tokens_per_s_per_gpu",
    "throughput_note",
    "step_time_cv_percent",
    "measured",
    "steps_per_run",
    "window",
    "window_tokens",
    "runs",
    "gpu_hours",
    "gpu_hours_note",
    "time_to_train",
)
"""The schema's order of `result`'s keys, for the ones measured here."""


def _ordered(figures: list[Figure]) -> tuple[Figure, ...]:
    return tuple(sorted(figures, key=lambda figure: ORDER.index(figure.key)))


def _span(lines: Sequence[Where]) -> str:
    if not lines:
        return ""
    numbers = [where.line for where in lines]
    name = lines[0].path
    return f"{name}:{numbers[0]}" if len(numbers) == 1 else f"{name}:{numbers[0]}-{numbers[-1]}"


def cite(lines: Sequence[Where]) -> str:
    """`a.txt:4,9; b.txt:7`: each file once, with its lines in order (runs of three or more as `4-9`)."""
    by_path: dict[str, list[int]] = {}
    for where in lines:
        by_path.setdefault(where.path, []).append(where.line)
    parts = []
    for path, numbers in by_path.items():
        ordered = sorted(set(numbers))
        runs: list[list[int]] = []
        for number in ordered:
            if runs and number == runs[-1][-1] + 1:
                runs[-1].append(number)
            else:
                runs.append([number])
        text = ",".join(f"{run[0]}-{run[-1]}" if len(run) >= 3 else ",".join(map(str, run)) for run in runs)
        parts.append(f"{path}:{text}")
    return "; ".join(parts)
