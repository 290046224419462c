"""Megatron-LM's iteration lines (Megatron-Bridge prints the same), read into located steps.

`training_log` in Megatron-LM's `megatron/training/training.py` prints, every `--log-interval`
iterations, fields separated by `|`:

    [2024-04-06 03:02:12] iteration       71/     100 | consumed samples:         9088 |
    elapsed time per iteration (ms): 5361.6 | throughput per GPU (TFLOP/s/GPU): 243.6 |
    learning rate: 1.420000E-05 | global batch size:   128 | lm loss: 1.818812E+00 | ...

(one line in the log). The timestamp and the throughput field are printed by newer versions and
with `--log-throughput` only. The elapsed time and the throughput are averages over the iterations
since the previous line. A line that starts like an iteration line but cannot be read is a
located problem, as is a step number that does not increase (a restart appended to the log).
"""

from __future__ import annotations

import re

from ..problems import Problem
from .mllog import Where, located
from .steps import Step, StepLog, number, timestamp

ITERATION = re.compile(r"\biteration\s+(\d+)\s*/\s*(\d+)\s*\|")
FIELDS = {
    "elapsed time per iteration (ms)": "step_time_ms",
    "throughput per gpu (tflop/s/gpu)": "tflops_per_gpu",
    "global batch size": "global_batch_size",
    "lm loss": "loss",
}


def parse_megatron(text: str, path: str) -> tuple[StepLog | None, tuple[Problem, ...]]:
    """Every iteration line of a Megatron log; None when there is none (a problem says so)."""
    steps: list[Step] = []
    problems: list[Problem] = []
    previous: Step | None = None
    for index, line in enumerate(text.split("\n"), start=1):
        match = ITERATION.search(line)
        if not match:
            continue
        at = Where(path, index)
        step, total = int(match.group(1)), int(match.group(2))
        fields = _fields(line[match.end() :])
        elapsed = fields.get("step_time_ms")
        if elapsed is None or elapsed <= 0:
            problems.append(
                Problem(
                    path, index, match.start() + 1, "", "an iteration line without 'elapsed time per iteration (ms)'"
                )
            )
            continue
        if previous is not None and step <= previous.step:
            problems.append(
                Problem(
                    path,
                    index,
                    match.start() + 1,
                    "",
                    f"iteration {step} after iteration {previous.step} (line {previous.at.line}):"
                    " the log holds more than one run; give each run's log on its own",
                )
            )
            continue
        batch = fields.get("global_batch_size")
        record = Step(
            at=at,
            step=step,
            steps=step - previous.step if previous is not None else None,
            time=timestamp(line[: match.start()]),
            step_time_ms=elapsed,
            tokens_per_s_per_gpu=None,
            global_batch_size=int(batch) if batch is not None and batch >= 1 and batch == int(batch) else None,
            loss=fields.get("loss"),
            tflops_per_gpu=fields.get("tflops_per_gpu"),
            mfu_percent=None,
            memory_gib=None,
            total_steps=total,
        )
        steps.append(record)
        previous = record
    if not steps:
        if not problems:
            problems.append(located(path, 0, "no Megatron iteration lines ('iteration N/ M | ...')"))
        return None, tuple(problems)
    return StepLog(path, "megatron", tuple(steps)), tuple(problems)


def _fields(rest: str) -> dict[str, float]:
    found: dict[str, float] = {}
    for part in rest.split("|"):
        name, colon, value = part.rpartition(":")
        if not colon:
            continue
        key = FIELDS.get(" ".join(name.split()).lower())
        parsed = number(value)
        if key and parsed is not None:
            found[key] = parsed
    return found
