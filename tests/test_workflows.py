"""The GitHub workflows: they pass actionlint (with ShellCheck on every script), and pull requests from
forks can never reach a write permission with their own code."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import REPO

WORKFLOWS = sorted((REPO / ".github" / "workflows").glob("*.yml"))
BIN = Path(sys.executable).parent
PINNED = re.compile(r"^[\w.-]+/[\w.-]+(/[\w./-]+)?@[0-9a-f]{40}$")
# Commands (at the start of a command) that would run code from the checkout or the artifact,
# instead of only copying files.
RUNS_CODE = re.compile(
    r"(^|[;|&(]|\bthen|\bdo|\belse|\$\()\s*"
    r"(\./|\.\s|source\b|bash\b|sh\b|python3?\b|pip3?\b|openrecipes\b|mkdocs\b|make\b|npm\b|npx\b|node\b|xargs\b)"
)


def load(path: Path) -> dict[str, Any]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    # YAML 1.1 reads the key `on` as true.
    data["on"] = data.pop(True, data.get("on"))
    return data


def by_name() -> dict[str, dict[str, Any]]:
    return {path.name: load(path) for path in WORKFLOWS}


def permissions(workflow: dict[str, Any], job: dict[str, Any]) -> dict[str, str] | str | None:
    return job["permissions"] if "permissions" in job else workflow.get("permissions")


def writes(granted: dict[str, str] | str | None) -> bool:
    # No permissions key at all means the repository default, which may be write-all.
    if granted is None:
        return True
    if isinstance(granted, str):
        return granted != "read-all"
    return any(level == "write" for level in granted.values())


def test_the_three_workflows_exist() -> None:
    assert {path.name for path in WORKFLOWS} == {"pull-request.yml", "pr-preview.yml", "deploy.yml"}


def test_actionlint_passes_with_shellcheck() -> None:
    actionlint = shutil.which("actionlint", path=str(BIN)) or shutil.which("actionlint")
    assert actionlint, "actionlint is missing: it comes with the test extra (./dev test installs it)"
    shellcheck = shutil.which("shellcheck", path=str(BIN)) or shutil.which("shellcheck")
    assert shellcheck, "shellcheck is missing: it comes with the test extra (./dev test installs it)"
    done = subprocess.run(
        [actionlint, "-no-color", "-shellcheck", shellcheck, *map(str, WORKFLOWS)],
        cwd=REPO,
        capture_output=True,
        text=True,
        env={**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"},
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_action_is_pinned_to_a_commit() -> None:
    for name, workflow in by_name().items():
        for job_name, job in workflow["jobs"].items():
            for step in job.get("steps", []):
                if "uses" in step:
                    assert PINNED.match(step["uses"]), f"{name}: {job_name}: {step['uses']} is not pinned to a commit"


def test_the_pull_request_workflow_cannot_write() -> None:
    workflow = by_name()["pull-request.yml"]
    assert set(workflow["on"]) == {"pull_request"}
    assert workflow["permissions"] == {"contents": "read"}
    for job in workflow["jobs"].values():
        assert not writes(permissions(workflow, job))
        for step in job["steps"]:
            if step.get("uses", "").startswith("actions/checkout@"):
                assert step["with"]["persist-credentials"] is False


def test_no_workflow_runs_on_pull_request_target() -> None:
    # pull_request_target runs with write permissions on the base repository's behalf.
    for name, workflow in by_name().items():
        assert "pull_request_target" not in workflow["on"], name


def unsafe_writers(workflows: dict[str, dict[str, Any]]) -> tuple[int, list[str]]:
    """How many jobs can write, and what each of them does that could run code it did not bring."""
    writers, found = 0, []
    for name, workflow in workflows.items():
        for job_name, job in workflow["jobs"].items():
            if not writes(permissions(workflow, job)):
                continue
            writers += 1
            where = f"{name}: {job_name}"
            if "uses" in job:
                found.append(f"{where} calls another workflow")
            for step in job.get("steps", []):
                uses = step.get("uses", "")
                if uses.startswith("actions/checkout@"):
                    found.append(f"{where} checks out code")
                if uses.startswith("./"):
                    found.append(f"{where} runs a local action")
                for line in step.get("run", "").splitlines():
                    if RUNS_CODE.search(line.split("#", 1)[0]):
                        found.append(f"{where} may run code: {line.strip()}")
    return writers, found


def test_jobs_that_can_write_never_check_out_or_run_code() -> None:
    writers, found = unsafe_writers(by_name())
    assert found == []
    assert writers == 2  # the preview and the deploy


def test_the_write_check_catches_a_checkout_and_a_build() -> None:
    unsafe = {
        "x.yml": {
            "on": {"workflow_run": {}},
            "jobs": {
                "publish": {
                    "permissions": {"contents": "write"},
                    "steps": [{"uses": "actions/checkout@" + "0" * 40}, {"run": "pip install -e .\n  ./dev build"}],
                },
                "defaults": {"steps": [{"run": "make"}]},  # no permissions key: the default may write
            },
        }
    }
    assert unsafe_writers(unsafe) == (
        2,
        [
            "x.yml: publish checks out code",
            "x.yml: publish may run code: pip install -e .",
            "x.yml: publish may run code: ./dev build",
            "x.yml: defaults may run code: make",
        ],
    )


def test_the_preview_publishes_only_after_a_successful_pull_request_run() -> None:
    workflows = by_name()
    preview = workflows["pr-preview.yml"]
    assert preview["on"] == {
        "workflow_run": {"workflows": [workflows["pull-request.yml"]["name"]], "types": ["completed"]}
    }
    assert preview["permissions"] == {}
    job = preview["jobs"]["publish"]
    assert "workflow_run.event == 'pull_request'" in job["if"]
    assert "workflow_run.conclusion == 'success'" in job["if"]
    script = "\n".join(step.get("run", "") for step in job["steps"])
    # The untrusted number and ids are checked before use.
    assert "^[1-9][0-9]{0,8}$" in script
    assert "^[A-Za-z0-9._/-]+$" in script
    assert '"open $HEAD_SHA"' in script
    # Expressions are never pasted into scripts, where an artifact's text could become a command.
    for workflow in workflows.values():
        for job in workflow["jobs"].values():
            for step in job.get("steps", []):
                assert "${{" not in step.get("run", ""), step


@pytest.mark.parametrize("name", ["pr-preview.yml", "deploy.yml"])
def test_writers_of_the_pages_branch_take_turns(name: str) -> None:
    workflow = by_name()[name]
    writer = next(job for job in workflow["jobs"].values() if writes(permissions(workflow, job)))
    assert writer["concurrency"] == {"group": "pages", "cancel-in-progress": False}
    assert writer["environment"]["name"] == "github-pages"
