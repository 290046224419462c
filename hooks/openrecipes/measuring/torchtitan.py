"""torchtitan's step lines, read into located steps.

torchtitan's `MetricsProcessor.log` prints, every `metrics.log_freq` steps, through Python's
logging (so with its timestamp, and under `torchrun` with `[rankN]:` before it):

    [rank0]:[titan] 2025-07-21 15:57:42,774 - root - INFO - step:  3  loss:  4.9925
    grad_norm:  2.6422  memory:  0.00GiB(0.00%)  tps: 30,768  tflops: 3.15  mfu: 0.36%

(one line in the log). `tps` is tokens per second per GPU since the previous logged step;
`tflops` and `mfu` are torchtitan's own, in its FLOP convention. Several ranks print the same
step; the rank with the most step lines is read and the others' lines are counted, not used.
"""

from __future__ import annotations

import re

from ..problems import Problem
from .mllog import Where, located
from .steps import Step, StepLog, number, timestamp

STEP = re.compile(r"\bstep:\s*(\d+)\s+loss:\s*(\S+)")
RANK = re.compile(r"\[rank(\d+)\]:")
FIELD = re.compile(r"\b(tps|tflops|mfu|memory):\s*([\d.,]+)")


def parse_torchtitan(text: str, path: str) -> tuple[StepLog | None, tuple[Problem, ...]]:
    """Every step line of a torchtitan log (one rank's); None when there is none."""
    steps: list[Step] = []
    problems: list[Problem] = []
    found = [
        (index, line, match) for index, line in enumerate(text.split("\n"), start=1) if (match := STEP.search(line))
    ]
    ranks = [_rank(line, match) for _, line, match in found]
    # The rank with the most step lines is read (the lowest of equals): under LOG_RANK several
    # ranks print the same steps, and one rank's lines are one clock's.
    rank = min(set(ranks), key=lambda name: (-ranks.count(name), int(name or 0))) if ranks else ""
    ignored = 0
    previous: Step | None = None
    for (index, line, match), this_rank in zip(found, ranks, strict=True):
        step = int(match.group(1))
        if this_rank != rank or (previous is not None and step == previous.step):
            ignored += 1  # another rank's copy of a step, or the same rank's line printed twice
            continue
        fields = {name: number(value) for name, value in FIELD.findall(line[match.end() :])}
        tps = fields.get("tps")
        moment = timestamp(line[: match.start()])
        if tps is None or moment is None:
            missing = "'tps:'" if tps is None else "a timestamp"
            problems.append(Problem(path, index, match.start() + 1, "", f"a torchtitan step line without {missing}"))
            continue
        if previous is not None and step < previous.step:
            problems.append(
                Problem(
                    path,
                    index,
                    match.start() + 1,
                    "",
                    f"step {step} after step {previous.step} (line {previous.at.line}):"
                    " the log holds more than one run; give each run's log on its own",
                )
            )
            continue
        count = step - previous.step if previous is not None else None
        step_ms = None
        if previous is not None and previous.time is not None and count:
            step_ms = (moment - previous.time).total_seconds() * 1000 / count
        steps.append(
            previous := Step(
                at=Where(path, index),
                step=step,
                steps=count,
                time=moment,
                step_time_ms=step_ms,
                tokens_per_s_per_gpu=tps,
                global_batch_size=None,
                loss=number(match.group(2)),
                tflops_per_gpu=fields.get("tflops"),
                mfu_percent=fields.get("mfu"),
                memory_gib=fields.get("memory"),
                total_steps=None,
            )
        )
    if not steps:
        if not problems:
            problems.append(located(path, 0, "no torchtitan step lines ('step: N  loss: ...  tps: ...')"))
        return None, tuple(problems)
    return StepLog(path, "torchtitan", tuple(steps), ignored), tuple(problems)


def _rank(line: str, match: re.Match[str]) -> str:
    found = RANK.search(line[: match.start()])
    return found.group(1) if found else ""
