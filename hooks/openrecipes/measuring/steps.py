"""What step-logging trainers print, as one record: a logged step and the figures on its line.

Megatron-LM (and Megatron-Bridge, which prints Megatron's line) and torchtitan print one line per
logged step, every `log_interval` / `log_freq` steps, with figures averaged over the steps since
the previous logged line. `Step.steps` is how many steps that line covers (its step number less
the previous logged line's); the first line of a log covers an unknown number and is never inside
a measurement window.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

from .mllog import Where

TIMESTAMP = re.compile(r"\[?(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:[.,](\d{1,6}))?\]?")
"""`[2024-04-06 03:02:12]` (Megatron), `2025-07-21 15:57:42,774` (torchtitan's logging format).
Read as UTC: logs do not say their zone, and only differences and the date are used."""


@dataclass(frozen=True, slots=True)
class Step:
    """One logged step. A figure the line does not print is None, never a default."""

    at: Where
    step: int
    steps: int | None
    """Steps since the previous logged line (None for the log's first line)."""
    time: datetime | None
    step_time_ms: float | None
    """Milliseconds per step over `steps`: Megatron prints it; for torchtitan it is the time
    between this line's timestamp and the previous one's, over `steps`."""
    tokens_per_s_per_gpu: float | None
    """torchtitan's `tps` (tokens per second per GPU over the interval); Megatron prints none."""
    global_batch_size: int | None
    loss: float | None
    tflops_per_gpu: float | None
    mfu_percent: float | None
    memory_gib: float | None
    total_steps: int | None
    """Megatron's `iteration N/ M`: M, the run's planned steps."""


@dataclass(frozen=True, slots=True)
class StepLog:
    """A log's logged steps, in file order, one line per step (the first rank's, when ranks repeat it)."""

    path: str
    trainer: str
    """`megatron` or `torchtitan`: whose line format it was read as."""
    steps: tuple[Step, ...]
    ignored: int = 0
    """Lines of other ranks repeating a step already read."""


def timestamp(line: str) -> datetime | None:
    match = TIMESTAMP.search(line)
    if not match:
        return None
    date, clock, fraction = match.groups()
    try:
        moment = datetime.fromisoformat(f"{date}T{clock}").replace(tzinfo=UTC)
    except ValueError:
        return None
    if fraction:
        moment = moment.replace(microsecond=int(fraction.ljust(6, "0")))
    return moment


def number(text: str) -> float | None:
    """`1,234.5`, `2.120380E+00`, `13372.8/13364.7` (the first of Primus's pair) as a float."""
    first = text.strip().split("/")[0].replace(",", "").strip()
    first = first.removesuffix("%")
    try:
        value = float(first)
    except ValueError:
        return None
    return value if value == value and abs(value) != float("inf") else None
