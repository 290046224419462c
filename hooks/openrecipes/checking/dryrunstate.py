"""Where a recipe's documented launch stands with its dry run: the recorded outcome
(checks/dry-runs.yaml) counts only for the launch.sh the recipe makes now."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from ..reading.dryruns import DryRunRecord
from . import launchscript

DryRunState = Literal["passed", "failed", "stale", "not run"]


@dataclass(frozen=True)
class DryRunOutcome:
    state: DryRunState
    record: DryRunRecord | None = None

    @property
    def summary(self) -> str:
        if self.record is None:
            return "not run: no dry run of this launch is recorded (`openrecipes launch check --record`)"
        where = f"{self.record.repository} at {self.record.commit[:12]}"
        if self.state == "stale":
            return f"not run on this launch: the recorded dry run ({where}) ran an earlier launch.sh"
        if self.state == "passed":
            return f"passed over {where}'s files: the launcher received the command, every input stops it when unset"
        return f"failed over {where}'s files: " + "; ".join(self.record.problems)


def dry_run_outcome(fields: Any, record: DryRunRecord | None) -> DryRunOutcome | None:
    """None for a recipe without a documented launch (nothing to dry-run)."""
    launch = next((one for one in launchscript.launches(fields) if one.kind == "documented"), None)
    if launch is None or launch.launch_sh is None:
        return None
    if record is None:
        return DryRunOutcome("not run")
    if not record.is_for(launch.launch_sh.text):
        return DryRunOutcome("stale", record)
    return DryRunOutcome("passed" if record.passed else "failed", record)
