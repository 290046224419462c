"""A log file, read as whichever format it is: MLPerf, Megatron or torchtitan."""

from __future__ import annotations

from pathlib import Path

from ..problems import Problem
from .megatron import ITERATION, parse_megatron
from .mllog import MARKER, MlperfLog, located, parse_mllog
from .steps import StepLog
from .torchtitan import STEP, parse_torchtitan

MAX_BYTES = 512 * 1024 * 1024
"""A log larger than this is refused before it is read (the largest MLPerf result logs are a few MB)."""


def read_log(path: Path, shown: str) -> tuple[MlperfLog | StepLog | None, tuple[Problem, ...]]:
    """The log at `path` (named `shown` in messages), read by the reader its lines call for."""
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            return None, (located(shown, 0, f"the log is {size:,} bytes; at most {MAX_BYTES:,} are read"),)
        data = path.read_bytes()
    except OSError as error:
        return None, (located(shown, 0, f"cannot read the log: {error.strerror or error}"),)
    if MARKER.encode() in data:
        return parse_mllog(data, shown)
    text = data.decode("utf-8", errors="replace")
    if ITERATION.search(text):
        return parse_megatron(text, shown)
    if STEP.search(text):
        return parse_torchtitan(text, shown)
    return None, (
        located(
            shown,
            0,
            "not a training log this reads: no MLPerf ':::MLLOG' line, Megatron 'iteration N/ M |' line"
            " or torchtitan 'step: N  loss:' line",
        ),
    )
