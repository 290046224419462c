"""MLPerf Training's score of a result from its runs: one rule, for `openrecipes measure` and the
MLPerf importer alike.

The rules (training_policies, training_rules.adoc at mllog.RULES) score a result as the mean of its
runs' times to train without the fastest and the slowest; a run that did not reach the quality
target counts as the slowest, whatever its time, and more than one such run makes the result
invalid. With fewer than three runs there is nothing to drop: the mean is over all of them, and a
run that missed the target leaves no score.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Score:
    minutes: float
    """The mean of the counted runs' times to train."""
    counted: tuple[int, ...]
    """The runs the mean is over (indexes into the runs given), fastest first."""
    fastest: int | None
    """The run dropped as the fastest; None with fewer than three runs."""
    slowest: int | None
    """The run dropped as the slowest (one that missed the target, if any)."""


def mlperf_score(minutes: Sequence[float], reached: Sequence[bool]) -> Score | str:
    """The score of runs taking `minutes` each, `reached` saying which met the target; else why
    there is none."""
    failed = [index for index, ok in enumerate(reached) if not ok]
    if len(failed) > 1:
        return f"{len(failed)} runs did not reach the target: MLPerf's rules make a result with more than one invalid"
    order = sorted(range(len(minutes)), key=lambda index: (not reached[index], minutes[index]))
    if len(order) >= 3:
        counted, fastest, slowest = tuple(order[1:-1]), order[0], order[-1]
    elif failed:
        return "a run did not reach the target, and with fewer than three runs none is dropped"
    elif not order:
        return "no run"
    else:
        counted, fastest, slowest = tuple(order), None, None
    return Score(statistics.fmean(minutes[index] for index in counted), counted, fastest, slowest)
