"""The GitHub workflows and their scripts: they pass actionlint and ShellCheck, pull requests from forks
can never reach a write permission with their own code, and the scripts that publish previews, run
here against a scratch git remote, publish a pull request's data with main's code and nothing else."""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import REPO, SAMPLE, SEED_ID, BuildResult, build_site, copy_project

from openrecipes.reading.reference import Reference
from openrecipes_tools.synthetic import recipe_data, yaml_text

WORKFLOWS = sorted((REPO / ".github" / "workflows").glob("*.yml"))
SCRIPTS = REPO / ".github" / "scripts"
BIN = Path(sys.executable).parent
PINNED = re.compile(r"^[\w.-]+/[\w.-]+(/[\w./-]+)?@[0-9a-f]{40}$")
DEFAULT_BRANCH = "${{ github.event.repository.default_branch }}"
# Events whose own commit is main's (or a maintainer's choice): a checkout without `ref` is trusted.
TRUSTED_EVENTS = {"push", "workflow_dispatch"}
COMMAND = r"(^|[;|&(]|\bthen|\bdo|\belse|\$\()\s*"
# Commands (at the start of a command) that would run code from the checkout or the artifact,
# instead of only copying files.
RUNS_CODE = re.compile(
    COMMAND
    + r"(\./|\.\s|source\b|bash\b|sh\b|python3?\b|pip3?\b|openrecipes\b|mkdocs\b|make\b|npm\b|npx\b|node\b|xargs\b)"
)
# A command that is a path: runs whatever file is there.
RUNS_A_FILE = re.compile(COMMAND + r"(\"?(\$\{?\w+\}?)?[\w.-]*/[^\s;|&)]*)")
# The only files a job that can write may run: main's own scripts, from a checkout of main.
MAIN_SCRIPT = re.compile(r"\.github/scripts/[a-z0-9-]+\.sh")
PAGES_WRITERS = re.compile(r"\.github/scripts/(pages-publish|pages-remove|preview-publish)\.sh")


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


def all_jobs() -> Iterator[tuple[str, dict[str, Any], str, dict[str, Any]]]:
    for name, workflow in by_name().items():
        for job_name, job in workflow["jobs"].items():
            yield name, workflow, job_name, job


def run_text(job: dict[str, Any]) -> str:
    return "\n".join(step.get("run", "") for step in job.get("steps", []))


def test_the_four_workflows_exist() -> None:
    assert {path.name for path in WORKFLOWS} == {"pull-request.yml", "pr-preview.yml", "pr-closed.yml", "deploy.yml"}


def tool(name: str) -> str:
    found = shutil.which(name, path=str(BIN)) or shutil.which(name)
    assert found, f"{name} is missing: it comes with the test extra (./dev test installs it)"
    return found


def test_actionlint_passes_with_shellcheck() -> None:
    done = subprocess.run(
        [tool("actionlint"), "-no-color", "-shellcheck", tool("shellcheck"), *map(str, WORKFLOWS)],
        cwd=REPO,
        capture_output=True,
        text=True,
        env={**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"},
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_scripts_pass_shellcheck_and_stop_at_the_first_error() -> None:
    scripts = sorted(SCRIPTS.glob("*.sh"))
    assert scripts
    done = subprocess.run(
        [tool("shellcheck"), "-x", *map(str, scripts)], cwd=REPO, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    for script in scripts:
        text = script.read_text(encoding="utf-8")
        assert text.startswith("#!/usr/bin/env bash\n"), script.name
        assert "\nset -euo pipefail\n" in text, script.name
        # pages-lib.sh is sourced, every other script is run.
        assert bool(script.stat().st_mode & 0o100) == (script.name != "pages-lib.sh"), script.name


def test_the_site_checker_needs_only_the_standard_library() -> None:
    # The publishing jobs have a sparse checkout of .github/scripts and the runner's python3.
    tree = ast.parse((SCRIPTS / "pages-check.py").read_text(encoding="utf-8"))
    modules = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    modules |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    assert modules
    assert {name.split(".")[0] for name in modules} - {"__future__"} <= sys.stdlib_module_names


def test_every_action_is_pinned_to_a_commit() -> None:
    for name, _, job_name, job in all_jobs():
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


def test_only_the_closing_workflow_runs_on_pull_request_target_and_it_never_checks_out_the_pull_request() -> None:
    # pull_request_target runs with write permissions on the base repository's behalf.
    workflows = by_name()
    assert [name for name, workflow in workflows.items() if "pull_request_target" in workflow["on"]] == [
        "pr-closed.yml"
    ]
    closing = workflows["pr-closed.yml"]
    assert closing["on"] == {"pull_request_target": {"types": ["closed"]}}
    text = (REPO / ".github" / "workflows" / "pr-closed.yml").read_text(encoding="utf-8")
    for head in ("pull_request.head", "head_ref", "refs/pull", "merge_commit_sha", "github.sha"):
        assert head not in text
    refs = [
        step["with"].get("ref")
        for job in closing["jobs"].values()
        for step in job["steps"]
        if step.get("uses", "").startswith("actions/checkout@")
    ]
    assert refs == [DEFAULT_BRANCH, "gh-pages"]


def checkout_kind(workflow: dict[str, Any], step: dict[str, Any]) -> str:
    """'main' (main's code), 'pages' (the published files, as data) or what else it checks out."""
    options = step.get("with", {})
    ref = options.get("ref")
    if "repository" in options:
        return f"another repository ({options['repository']})"
    if ref == "gh-pages":
        return "pages"
    if ref == DEFAULT_BRANCH or (ref is None and set(workflow["on"]) <= TRUSTED_EVENTS):
        return "main"
    return f"ref {ref}" if ref else "the event's commit"


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
            kinds = []
            for step in job.get("steps", []):
                uses = step.get("uses", "")
                if uses.startswith("actions/checkout@"):
                    kind = checkout_kind(workflow, step)
                    kinds.append(kind)
                    if kind not in ("main", "pages"):
                        found.append(f"{where} checks out code: {kind}")
                    if step.get("with", {}).get("persist-credentials") is not False:
                        found.append(f"{where} leaves its token in a checkout")
                if uses.startswith("./"):
                    found.append(f"{where} runs a local action")
            # Main's scripts, only where main (and nothing else) is checked out.
            may_run_scripts = kinds and all(kind == "main" for kind in kinds)
            for step in job.get("steps", []):
                for line in step.get("run", "").splitlines():
                    command = line.split("#", 1)[0]
                    if RUNS_CODE.search(command):
                        found.append(f"{where} may run code: {line.strip()}")
                    for match in RUNS_A_FILE.finditer(command):
                        path = match.group(2).strip('"')
                        if not (may_run_scripts and MAIN_SCRIPT.fullmatch(path)):
                            found.append(f"{where} runs {path}")
    return writers, found


def test_jobs_that_can_write_never_check_out_or_run_code() -> None:
    writers, found = unsafe_writers(by_name())
    assert found == []
    # deploy.yml, pr-preview.yml and pr-closed.yml each write the branch and deploy it; pr-preview.yml
    # also comments.
    assert writers == 7


def test_the_write_check_catches_a_checkout_and_a_build() -> None:
    checkout = "actions/checkout@" + "0" * 40
    unsafe = {
        "x.yml": {
            "on": {"workflow_run": {}},
            "jobs": {
                "publish": {
                    "permissions": {"contents": "write"},
                    "steps": [{"uses": checkout}, {"run": "pip install -e .\n  ./dev build"}],
                },
                "defaults": {"steps": [{"run": "make"}]},  # no permissions key: the default may write
                "head": {
                    "permissions": {"contents": "write"},
                    "steps": [
                        {
                            "uses": checkout,
                            "with": {
                                "ref": "${{ github.event.workflow_run.head_sha }}",
                                "persist-credentials": False,
                            },
                        },
                        {"run": ".github/scripts/pages-publish.sh root site"},
                    ],
                },
                "artifact": {
                    "permissions": {"pull-requests": "write"},
                    "steps": [
                        {"uses": checkout, "with": {"ref": DEFAULT_BRANCH, "persist-credentials": False}},
                        {"run": 'x=1; "$RUNNER_TEMP/preview/run.sh" && cd "$RUNNER_TEMP"'},
                    ],
                },
                "pages": {
                    "permissions": {"pages": "write"},
                    "steps": [
                        {"uses": checkout, "with": {"ref": "gh-pages", "persist-credentials": False}},
                        {"run": ".github/scripts/pages-publish.sh root ."},
                    ],
                },
                "safe": {
                    "permissions": {"contents": "write"},
                    "steps": [
                        {"uses": checkout, "with": {"ref": DEFAULT_BRANCH, "persist-credentials": False}},
                        {"run": '.github/scripts/pages-remove.sh "$NUMBER" >> "$GITHUB_OUTPUT"'},
                    ],
                },
            },
        }
    }
    assert unsafe_writers(unsafe) == (
        6,
        [
            "x.yml: publish checks out code: the event's commit",
            "x.yml: publish leaves its token in a checkout",
            "x.yml: publish may run code: pip install -e .",
            "x.yml: publish may run code: ./dev build",
            "x.yml: publish runs ./dev",
            "x.yml: defaults may run code: make",
            "x.yml: head checks out code: ref ${{ github.event.workflow_run.head_sha }}",
            "x.yml: head runs .github/scripts/pages-publish.sh",
            "x.yml: artifact runs $RUNNER_TEMP/preview/run.sh",
            "x.yml: pages runs .github/scripts/pages-publish.sh",
        ],
    )


def test_jobs_that_read_pull_requests_after_the_fact_check_out_only_main_or_the_published_files() -> None:
    # workflow_run and pull_request_target run in main's context: whatever they check out by
    # default, and whatever they cache, is main's.
    for name, workflow, job_name, job in all_jobs():
        if not {"workflow_run", "pull_request_target"} & set(workflow["on"]):
            continue
        for step in job["steps"]:
            uses = step.get("uses", "")
            if uses.startswith("actions/checkout@"):
                assert checkout_kind(workflow, step) in ("main", "pages"), (name, job_name, step)
                assert step["with"]["persist-credentials"] is False, (name, job_name)
            # Main's jobs would restore a cache saved by a job that read a pull request's files.
            assert not uses.startswith("actions/cache"), (name, job_name)
            assert "cache" not in step.get("with", {}), (name, job_name, step)


def test_the_preview_builds_only_after_a_successful_pull_request_run() -> None:
    workflows = by_name()
    preview = workflows["pr-preview.yml"]
    assert preview["on"] == {
        "workflow_run": {"workflows": [workflows["pull-request.yml"]["name"]], "types": ["completed"]}
    }
    assert preview["permissions"] == {}
    build = preview["jobs"]["build"]
    assert "workflow_run.event == 'pull_request'" in build["if"]
    assert "workflow_run.conclusion == 'success'" in build["if"]
    # The job that reads the pull request's files cannot write.
    assert not writes(permissions(preview, build))
    # Nothing of the pull request's own run is read: its artifacts are for people to download.
    for job in preview["jobs"].values():
        for step in job["steps"]:
            assert "run-id" not in step.get("with", {}), step
    # The untrusted number, commit and ids are checked before use.
    scripts = {path.name: path.read_text(encoding="utf-8") for path in SCRIPTS.glob("*.sh")}
    for script in ("preview-pr.sh", "preview-prepare.sh", "preview-publish.sh", "pages-remove.sh"):
        assert "^[1-9][0-9]{0,8}$" in scripts[script], script
    assert "^[A-Za-z0-9._/-]+$" in scripts["preview-comment.sh"]
    assert '"open $head_sha"' in scripts["preview-publish.sh"]
    # Expressions are never pasted into scripts, where an artifact's text could become a command.
    for _, _, _, job in all_jobs():
        for step in job.get("steps", []):
            assert "${{" not in step.get("run", ""), step


def pages_writers() -> list[tuple[str, str, dict[str, Any]]]:
    return [(name, job_name, job) for name, _, job_name, job in all_jobs() if PAGES_WRITERS.search(run_text(job))]


def test_writers_of_the_pages_branch_never_queue_behind_a_pull_request_of_someone_else() -> None:
    groups = {(name, job_name): job["concurrency"] for name, job_name, job in pages_writers()}
    assert groups == {
        ("deploy.yml", "publish"): {"group": "pages-main", "cancel-in-progress": False},
        ("pr-preview.yml", "publish"): {
            "group": "preview-${{ needs.build.outputs.number }}",
            "cancel-in-progress": False,
        },
        ("pr-closed.yml", "remove"): {
            "group": "preview-${{ github.event.pull_request.number }}",
            "cancel-in-progress": False,
        },
    }
    # No job that a pull request can start is in main's group.
    for name, _, job_name, job in all_jobs():
        if name != "deploy.yml":
            assert job.get("concurrency", {}).get("group") != "pages-main", (name, job_name)


def test_deployments_share_one_group_and_deploy_the_tip_of_the_branch() -> None:
    deployers = {}
    for name, workflow, job_name, job in all_jobs():
        granted = permissions(workflow, job)
        in_group = job.get("concurrency", {}).get("group") == "pages"
        deploys = isinstance(granted, dict) and granted.get("pages") == "write"
        assert in_group == deploys, (name, job_name)
        if deploys:
            deployers[name] = job
    assert set(deployers) == {"deploy.yml", "pr-preview.yml", "pr-closed.yml"}
    for name, job in deployers.items():
        assert job["concurrency"] == {"group": "pages", "cancel-in-progress": False}
        assert job["environment"]["name"] == "github-pages"
        steps = job["steps"]
        # It checks out the branch itself when it starts, and deploys exactly that: nothing handed
        # over by an earlier job, which a newer writer may have overtaken.
        assert steps[0]["uses"].startswith("actions/checkout@")
        assert steps[0]["with"] == {"ref": "gh-pages", "path": "pages", "persist-credentials": False}
        uploads = [step for step in steps if step.get("uses", "").startswith("actions/upload-pages-artifact@")]
        assert [step["with"] for step in uploads] == [{"path": "pages"}]
        assert not any("download-artifact" in step.get("uses", "") for step in steps), name
        assert steps[-1]["uses"].startswith("actions/deploy-pages@")
        # The same job everywhere (only what it waits for differs).
        same = {key: value for key, value in job.items() if key not in ("needs", "if")}
        assert same == {key: value for key, value in deployers["deploy.yml"].items() if key not in ("needs", "if")}


# Behaviour: the scripts, run here against a scratch remote.


@pytest.fixture(scope="module")
def publications(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Remotes as `published` left them, for the next test that asks for the same state."""
    return tmp_path_factory.mktemp("publications")


@pytest.fixture
def sandbox(tmp_path: Path, publications: Path) -> Sandbox:
    return Sandbox(tmp_path, publications)


class Sandbox:
    """A scratch bare repository standing for GitHub, and the environment the scripts run in: a
    fake `gh` (what GitHub's API would answer is given per call), no token, no delays."""

    def __init__(self, root: Path, publications: Path) -> None:
        self.root = root
        self.remote = root / "remote.git"
        self.publications = publications
        self.bin = root / "bin"
        self.bin.mkdir()
        gh = self.bin / "gh"
        gh.write_text('#!/bin/sh\nprintf \'%s\\n\' "$*" >> "$FAKE_GH_LOG"\nprintf \'%s\\n\' "$FAKE_GH"\n')
        gh.chmod(0o755)
        self.gh_log = root / "gh.log"
        empty = root / "git-template"
        empty.mkdir()
        self.env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("GIT_", "GITHUB_", "GH_", "PAGES_", "SOURCE_DATE_EPOCH"))
        }
        self.env.update(
            PATH=f"{self.bin}{os.pathsep}{os.environ.get('PATH', '')}",
            GIT_CONFIG_GLOBAL=os.devnull,
            GIT_CONFIG_NOSYSTEM="1",
            GIT_TEMPLATE_DIR=str(empty),  # no sample hooks in each repository the scripts make
            GIT_AUTHOR_NAME="A",
            GIT_AUTHOR_EMAIL="a@example.org",
            GIT_COMMITTER_NAME="A",
            GIT_COMMITTER_EMAIL="a@example.org",
            GITHUB_REPOSITORY="openrecipes/openrecipes",
            PAGES_REMOTE=str(self.remote),
            PAGES_RETRY_SECONDS="0",
            FAKE_GH_LOG=str(self.gh_log),
            FAKE_GH="",
        )
        self.git(root, "init", "-q", "--bare", "-b", "main", str(self.remote))

    def git(self, cwd: Path, *args: str, **env: str) -> str:
        done = subprocess.run(
            ["git", *args], cwd=cwd, env={**self.env, **env}, capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, f"git {' '.join(args)}: {done.stderr}"
        return done.stdout.strip()

    def script(self, name: str, *args: str | Path, cwd: Path | None = None, ok: bool = True, **env: str) -> Outcome:
        done = subprocess.run(
            [str(SCRIPTS / name), *map(str, args)],
            cwd=cwd or self.root,
            env={**self.env, **env},
            capture_output=True,
            text=True,
            check=False,
            timeout=60,
        )
        assert (done.returncode == 0) == ok, f"{name} exited with {done.returncode}: {done.stderr}"
        outputs = dict(line.split("=", 1) for line in done.stdout.splitlines() if "=" in line)
        return Outcome(done.stdout, done.stderr, outputs)

    def pages(self, branch: str = "gh-pages") -> dict[str, bytes]:
        """Every file on the pages branch of the remote, by path (links as the path they hold)."""
        entries = self.git(self.remote, "ls-tree", "-r", "-z", branch).split("\0")
        listing = [entry.split("\t", 1) for entry in entries if entry]
        blobs = [(info.split()[2], path) for info, path in listing if info.split()[1] == "blob"]
        batch = subprocess.run(
            ["git", "cat-file", "--batch"],
            cwd=self.remote,
            env=self.env,
            input="".join(f"{name}\n" for name, _ in blobs).encode(),
            capture_output=True,
            check=True,
        ).stdout
        files = {}
        for _, path in blobs:  # each: "<name> blob <size>\n<bytes>\n", in the order asked
            header, batch = batch.split(b"\n", 1)
            size = int(header.split()[2])
            files[path], batch = batch[:size], batch[size + 1 :]
        return files

    def pre_receive(self, script: str) -> None:
        """Run `script` as the remote's pre-receive hook from now on."""
        hook = self.remote / "hooks" / "pre-receive"
        hook.parent.mkdir(exist_ok=True)  # made without git's sample hooks
        hook.write_text(script)
        hook.chmod(0o755)

    def tip(self, branch: str = "gh-pages") -> str:
        return self.git(self.remote, "rev-parse", "--verify", "-q", f"refs/heads/{branch}")


class Outcome:
    def __init__(self, stdout: str, stderr: str, outputs: dict[str, str]) -> None:
        self.stdout, self.stderr, self.outputs = stdout, stderr, outputs


FAKE_POLICY = "default-src 'self'; script-src 'self'; object-src 'none'"
MARK, OTHER_MARK = "recipes/m/g/x.yaml", "recipes/m/g/y.yaml"
"""Files made from a recipe, whose bytes are the data's: what tells one fake preview from another."""
SITEMAP = b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"/>\n'


def fake_page(path: str, text: str) -> bytes:
    """A page as the checker wants one: the policy first in its head, scripts from assets/ only."""
    up = "../" * path.count("/")
    return (
        '<!doctype html>\n<html lang="en">\n<head>\n'
        f'<meta http-equiv="Content-Security-Policy" content="{FAKE_POLICY}">\n'
        f'<meta charset="utf-8">\n<title>{text}</title>\n<script src="{up}assets/core.js"></script>\n'
        f"</head>\n<body>{text}</body>\n</html>\n"
    ).encode()


def fake_site(folder: Path, *, core: bytes = b"// core v1\n", extra: dict[str, bytes] | None = None) -> Path:
    """A few files shaped like the built site: pages and data, and assets."""
    files = {
        "index.html": fake_page("index.html", "home"),
        "sitemap.xml": SITEMAP,
        "recipes/a/b/c/index.html": fake_page("recipes/a/b/c/index.html", "recipe"),
        "assets/core.js": core,
        "assets/javascripts/bundle.min.js": b"// material\n",
        "assets/openrecipes.css": b"body {}\n",
        **(extra or {}),
    }
    for path, data in files.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_bytes(data)
    return folder


def under(files: dict[str, bytes], folder: str) -> dict[str, bytes]:
    return {path: data for path, data in files.items() if path.startswith(folder + "/")}


def outside_previews(files: dict[str, bytes]) -> dict[str, bytes]:
    return {path: data for path, data in files.items() if not re.match(r"pr-\d+/", path)}


def published(sandbox: Sandbox, *numbers: int) -> dict[str, bytes]:
    """Main's fake site at the root and a preview for each number: published by the scripts the first
    time these numbers are asked for, and fetched as they left it after that."""
    state = sandbox.publications / ("remote-" + "-".join(map(str, ("root", *numbers))) + ".git")
    if state.exists():  # the pages branch as it was left, the remote's other branches as they are
        sandbox.git(sandbox.remote, "fetch", "-q", str(state), "+refs/heads/gh-pages:refs/heads/gh-pages")
        return sandbox.pages()
    sandbox.script("pages-publish.sh", "root", fake_site(sandbox.root / "main-site"))
    for number in numbers:
        site = fake_site(sandbox.root / f"site-{number}", extra={MARK: f"{number}".encode()})
        assert sandbox.script("pages-publish.sh", f"pr-{number}", site).outputs == {"changed": "true"}
    shutil.copytree(sandbox.remote, state, symlinks=True)
    return sandbox.pages()


def test_previews_and_main_each_change_only_their_own_folder(sandbox: Sandbox) -> None:
    before = published(sandbox, 3, 7)
    assert before[f"pr-7/{MARK}"] == b"7"
    assert {path[5:] for path in under(before, "pr-7")} == {path[5:] for path in under(before, "pr-3")}
    # Publishing again replaces the preview, and leaves main and the other preview as they were.
    site = fake_site(sandbox.root / "site-7-again", extra={OTHER_MARK: b"new"})
    assert sandbox.script("pages-publish.sh", "pr-7", site).outputs == {"changed": "true"}
    after = sandbox.pages()
    assert f"pr-7/{MARK}" not in after and after[f"pr-7/{OTHER_MARK}"] == b"new"
    assert under(after, "pr-3") == under(before, "pr-3")
    assert outside_previews(after) == outside_previews(before)
    # The same files again change nothing, and push nothing.
    tip = sandbox.tip()
    assert sandbox.script("pages-publish.sh", "pr-7", site).outputs == {"changed": "false"}
    assert sandbox.tip() == tip
    # The branch holds one commit: what is published now.
    assert sandbox.git(sandbox.remote, "rev-list", "--count", "gh-pages") == "1"


def test_main_replaces_its_own_files_and_drops_previews_of_closed_pull_requests(sandbox: Sandbox) -> None:
    before = published(sandbox, 3, 7)
    site = fake_site(sandbox.root / "main-2", extra={"api/index.json": b"new"})
    (site / "sitemap.xml").unlink()
    # Without pruning, every preview stays.
    sandbox.script("pages-publish.sh", "root", site)
    after = sandbox.pages()
    assert "sitemap.xml" not in after and after["api/index.json"] == b"new"
    assert under(after, "pr-3") == under(before, "pr-3") and under(after, "pr-7") == under(before, "pr-7")
    # With it, only those of open pull requests (GitHub answers: #3 and #12 are open).
    sandbox.script("pages-publish.sh", "root", site, PAGES_PRUNE_CLOSED="true", FAKE_GH="3\n12")
    after = sandbox.pages()
    assert under(after, "pr-3") == under(before, "pr-3")
    assert under(after, "pr-7") == {}
    assert "pulls?state=open" in sandbox.gh_log.read_text()


def test_removing_a_preview_leaves_everything_else(sandbox: Sandbox) -> None:
    before = published(sandbox, 3, 7)
    assert sandbox.script("pages-remove.sh", "7").outputs == {"changed": "true"}
    after = sandbox.pages()
    assert under(after, "pr-7") == {}
    assert after == {path: data for path, data in before.items() if not path.startswith("pr-7/")}
    # Removing it again (the pull request's run and its closing may both do it) changes nothing.
    tip = sandbox.tip()
    assert sandbox.script("pages-remove.sh", "7").outputs == {"changed": "false"}
    assert sandbox.tip() == tip
    sandbox.script("pages-remove.sh", "7; rm -rf /", ok=False)


def test_a_writer_whose_push_is_overtaken_starts_again_from_the_new_tip(sandbox: Sandbox) -> None:
    before = published(sandbox, 3)
    # Stand-in for a second writer that pushes between the first one's fetch and its push: the
    # remote, on receiving the first push, publishes preview #8 before taking it. The first push,
    # whose lease names the tip it fetched, is then refused.
    site_8 = fake_site(sandbox.root / "site-8", extra={MARK: b"8"})
    sandbox.pre_receive(
        "#!/usr/bin/env bash\n"
        "set -euo pipefail\n"
        "cat > /dev/null\n"
        '[ -e "$MARKER" ] && exit 0\n'
        'touch "$MARKER"\n'
        # The push being received sets these for this repository; the other writer has its own.
        "unset $(git rev-parse --local-env-vars) GIT_QUARANTINE_PATH\n"
        f'"{SCRIPTS}/pages-publish.sh" pr-8 "{site_8}" > /dev/null\n'
    )
    site_7 = fake_site(sandbox.root / "site-7", extra={MARK: b"7"})
    outcome = sandbox.script("pages-publish.sh", "pr-7", site_7, MARKER=str(sandbox.root / "overtaken"))
    assert (sandbox.root / "overtaken").exists()
    assert "moved since it was fetched" in outcome.stderr
    assert outcome.outputs == {"changed": "true"}
    after = sandbox.pages()
    assert after[f"pr-8/{MARK}"] == b"8"
    assert after[f"pr-7/{MARK}"] == b"7"
    assert under(after, "pr-3") == under(before, "pr-3")
    assert outside_previews(after) == outside_previews(before)


def test_a_writer_gives_up_after_its_attempts(sandbox: Sandbox) -> None:
    published(sandbox)
    sandbox.pre_receive("#!/bin/sh\necho refused >&2\nexit 1\n")
    outcome = sandbox.script("pages-remove.sh", "3", ok=True)  # nothing to remove: no push
    assert outcome.outputs == {"changed": "false"}
    outcome = sandbox.script("pages-publish.sh", "pr-3", fake_site(sandbox.root / "s"), ok=False, PAGES_ATTEMPTS="2")
    assert "could not update gh-pages in 2 attempts" in outcome.stderr


@pytest.mark.parametrize(
    ("change", "complaint"),
    [
        ({"assets/core.js": b"alert(document.domain)\n"}, "assets/core.js: not on the live site as built"),
        ({"assets/evil.js": b"alert(1)\n"}, "assets/evil.js: not on the live site as built"),
        ({"recipes/a/b/c/chart.svg": b"<svg onload='alert(1)'/>"}, "recipes/a/b/c/chart.svg: not a file the build"),
        ({".well-known/x.txt": b"x"}, ".well-known: a hidden file or folder"),
    ],
)
def test_a_preview_brings_no_asset_of_its_own(sandbox: Sandbox, change: dict[str, bytes], complaint: str) -> None:
    # Even a build subverted into writing other files cannot put them on the site's origin.
    before = published(sandbox)
    outcome = sandbox.script("pages-publish.sh", "pr-7", fake_site(sandbox.root / "evil", extra=change), ok=False)
    assert complaint in outcome.stderr
    assert sandbox.pages() == before


def test_a_preview_holding_a_link_is_refused(sandbox: Sandbox) -> None:
    before = published(sandbox)
    site = fake_site(sandbox.root / "linked")
    (site / "secret.html").symlink_to("/etc/passwd")
    outcome = sandbox.script("pages-publish.sh", "pr-7", site, ok=False)
    assert "not a plain file or folder" in outcome.stderr
    sandbox.script("pages-publish.sh", "pr-x", fake_site(sandbox.root / "plain"), ok=False)
    sandbox.script("pages-publish.sh", "../x", fake_site(sandbox.root / "plain"), ok=False)
    assert sandbox.pages() == before


# The publisher against a real build: the committed catalogue's site is the live site, and each
# preview is a copy of it (its files linked, and replaced rather than changed: the built site is
# shared by every test) with one change a subverted build could make.

RECIPE = f"recipes/{SEED_ID}"
RECIPE_PAGE = f"{RECIPE}/index.html"
POLICY_META = re.compile(r'<meta http-equiv="Content-Security-Policy" content="[^"]*">')


def live_site(sandbox: Sandbox, fixture_site: BuildResult) -> str:
    """The frozen real recipes' site (`fixture_site`: a few, so the scripts take seconds) published
    at the root of the pages branch (by the script, the first time a test asks, and fetched as it
    left it after that); the tip it is at."""
    state = sandbox.publications / "remote-real.git"
    if state.exists():
        sandbox.git(sandbox.remote, "fetch", "-q", str(state), "+refs/heads/gh-pages:refs/heads/gh-pages")
    else:
        assert sandbox.script("pages-publish.sh", "root", fixture_site.site).outputs == {"changed": "true"}
        shutil.copytree(sandbox.remote, state, symlinks=True)
    return sandbox.tip()


def _link_or_copy(source: str, destination: str) -> None:
    try:
        os.link(source, destination)
    except OSError:
        shutil.copy2(source, destination)


def linked_copy(site: Path, folder: Path) -> Path:
    shutil.copytree(site, folder, copy_function=_link_or_copy)
    return folder


def rewrite(file: Path, data: bytes) -> None:
    """Puts `data` at `file` without writing into the file that was there (maybe the shared site's)."""
    file.unlink(missing_ok=True)
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_bytes(data)


def edit(site: Path, path: str, old: str, new: str) -> None:
    text = (site / path).read_text(encoding="utf-8")
    assert old in text, (path, old)
    rewrite(site / path, text.replace(old, new, 1).encode())


def before_body_end(page: str, markup: str) -> Callable[[Path], None]:
    return lambda site: edit(site, page, "</body>", f"{markup}</body>")


def without_policy(site: Path) -> None:
    text = (site / "about/index.html").read_text(encoding="utf-8")
    rewrite(site / "about/index.html", POLICY_META.sub("", text, count=1).encode())


def with_other_policy(site: Path) -> None:
    edit(site, "about/index.html", "object-src 'none'", "object-src 'none'; script-src-attr 'unsafe-inline'")


def with_text_as_script(site: Path) -> None:
    rewrite(site / RECIPE / "notes.txt", b"alert(document.domain)\n")
    before_body_end(RECIPE_PAGE, '<script src="notes.txt"></script>')(site)


def with_file(path: str, data: bytes) -> Callable[[Path], None]:
    return lambda site: rewrite(site / path, data)


def with_changed_core(site: Path) -> None:
    rewrite(site / "assets/core.js", (site / "assets/core.js").read_bytes() + b"\nalert(document.domain);\n")


def problem_lines(stderr: str) -> dict[str, list[str]]:
    """The checker's problems, by the file each names."""
    found: dict[str, list[str]] = {}
    for line in stderr.splitlines():
        if line.startswith("  ") and ": " in line:
            path, reason = line[2:].split(": ", 1)
            found.setdefault(path, []).append(reason)
    return found


@pytest.mark.parametrize(
    ("change", "paths", "complaint"),
    [
        pytest.param(
            before_body_end(RECIPE_PAGE, "<script>alert(document.domain)</script>"),
            [RECIPE_PAGE],
            "an inline <script>",
            id="inline-script",
        ),
        pytest.param(without_policy, ["about/index.html"], "no Content-Security-Policy", id="no-policy"),
        pytest.param(
            with_other_policy,
            ["about/index.html"],
            "its Content-Security-Policy is not the one of the live site's index.html",
            id="other-policy",
        ),
        pytest.param(
            lambda site: edit(site, "about/index.html", "<head>", '<head>\n<meta name="x" content="first">'),
            ["about/index.html"],
            "the Content-Security-Policy is not the first element of <head>: <meta> comes before it",
            id="policy-not-first",
        ),
        pytest.param(
            before_body_end(RECIPE_PAGE, '<script src="launch.sh"></script>'),
            [RECIPE_PAGE],
            "<script src> launch.sh: not a .js file of the site's code under assets/",
            id="launch-sh-as-script",
        ),
        pytest.param(
            with_text_as_script,
            [RECIPE_PAGE, f"{RECIPE}/notes.txt"],
            "<script src> notes.txt: not a .js file of the site's code under assets/",
            id="txt-as-script",
        ),
        pytest.param(with_file("evil.js", b"alert(1)\n"), ["evil.js"], "not a file the build makes", id="evil-js"),
        pytest.param(
            with_file("assets/x.json", b"{}\n"), ["assets/x.json"], "not a file the build makes", id="assets-json"
        ),
        pytest.param(
            with_file("recipes/a/b/c/x.html", b"<p>x</p>\n"),
            ["recipes/a/b/c/x.html"],
            "not a file the build makes",
            id="recipe-folder-html",
        ),
        pytest.param(with_changed_core, ["assets/core.js"], "not on the live site as built", id="changed-core-js"),
        pytest.param(
            lambda site: edit(site, "about/index.html", "</head>", '<meta http-equiv="refresh" content="0; url=x">'),
            ["about/index.html"],
            "<meta http-equiv=refresh>",
            id="meta-refresh",
        ),
        pytest.param(
            before_body_end(RECIPE_PAGE, '<img src="x.png" onerror="alert(1)">'),
            [RECIPE_PAGE],
            "<img onerror=…>: an event-handler attribute, which is inline script",
            id="onerror",
        ),
        pytest.param(
            before_body_end("about/index.html", '<a href=" JavaScript:alert(1)">x</a>'),
            ["about/index.html"],
            "a script address",
            id="javascript-link",
        ),
        pytest.param(
            before_body_end(RECIPE_PAGE, '<script src="/openrecipes-other/evil.js"></script>'),
            [RECIPE_PAGE],
            "<script src> /openrecipes-other/evil.js: outside the site",
            id="script-of-another-site-on-the-host",
        ),
        pytest.param(
            # A browser reads <style> in SVG as markup, html.parser as text: refused, not guessed at.
            before_body_end(RECIPE_PAGE, "<svg><style><script>alert(1)</script></style></svg>"),
            [RECIPE_PAGE],
            "markup a browser may read otherwise",
            id="script-in-svg-style",
        ),
        pytest.param(
            lambda site: edit(
                site, "feed.xml", "</feed>", '<script xmlns="http://www.w3.org/1999/xhtml">alert(1)</script></feed>'
            ),
            ["feed.xml"],
            "is not of the namespace http://www.w3.org/2005/Atom",
            id="script-in-feed",
        ),
    ],
)
def test_a_preview_of_a_real_site_with_anything_that_could_run_publishes_nothing(
    sandbox: Sandbox, fixture_site: BuildResult, change: Callable[[Path], None], paths: list[str], complaint: str
) -> None:
    tip = live_site(sandbox, fixture_site)
    preview = linked_copy(fixture_site.site, sandbox.root / "preview")
    change(preview)
    outcome = sandbox.script("pages-publish.sh", "pr-7", preview, ok=False)
    found = problem_lines(outcome.stderr)
    # Only the changed files are refused, each by name; the rest of the real site passes.
    assert sorted(found) == sorted(paths), outcome.stderr
    assert any(complaint in reason for reason in found[paths[0]]), outcome.stderr
    assert "::error::the preview pr-7 is not published" in outcome.stderr
    assert sandbox.tip() == tip


def test_a_preview_of_a_real_site_is_published(sandbox: Sandbox, fixture_site: BuildResult) -> None:
    live_site(sandbox, fixture_site)
    preview = linked_copy(fixture_site.site, sandbox.root / "preview")
    rewrite(preview / RECIPE / "launch.sh", b"#!/bin/sh\necho a preview's own launch script\n")
    assert sandbox.script("pages-publish.sh", "pr-7", preview).outputs == {"changed": "true"}
    pages = sandbox.pages()
    assert pages[f"pr-7/{RECIPE}/launch.sh"] == b"#!/bin/sh\necho a preview's own launch script\n"
    assert (
        pages["pr-7/assets/core.js"] == pages["assets/core.js"] == (fixture_site.site / "assets/core.js").read_bytes()
    )


@pytest.mark.parametrize(
    ("change", "paths", "complaint"),
    [
        pytest.param(
            lambda site: edit(site, "index.html", "script-src ", "script-src 'unsafe-inline' "),
            ["index.html"],
            "the Content-Security-Policy of index.html: its script-src allows 'unsafe-inline'",
            id="unsafe-inline",
        ),
        pytest.param(
            before_body_end("about/index.html", "<script>alert(document.domain)</script>"),
            ["about/index.html"],
            "an inline <script>",
            id="inline-script",
        ),
        pytest.param(
            with_file("assets/launch.txt", b"alert(1)\n"),
            ["assets/launch.txt"],
            "not a kind of file the site serves",
            id="txt",
        ),
    ],
)
def test_main_is_checked_as_a_whole_too(
    sandbox: Sandbox, fixture_site: BuildResult, change: Callable[[Path], None], paths: list[str], complaint: str
) -> None:
    tip = live_site(sandbox, fixture_site)
    site = linked_copy(fixture_site.site, sandbox.root / "main")
    change(site)
    outcome = sandbox.script("pages-publish.sh", "root", site, ok=False)
    found = problem_lines(outcome.stderr)
    assert sorted(found) == sorted(paths), outcome.stderr
    assert any(complaint in reason for reason in found[paths[0]]), outcome.stderr
    assert "::error::the site is not published" in outcome.stderr
    assert sandbox.tip() == tip


@pytest.mark.parametrize(
    ("state", "kind", "expected"),
    [
        ("open {sha}", "data", {"changed": "true", "current": "true"}),
        ("open {sha}", "code", {"changed": "true", "current": "true"}),  # an earlier preview goes
        ("closed {sha}", "data", {"changed": "true", "current": "false"}),  # after the closing
        ("open 0123456789012345678901234567890123456789", "data", {"changed": "false", "current": "false"}),
    ],
)
def test_a_preview_follows_the_pull_request_as_it_is_now(
    sandbox: Sandbox, state: str, kind: str, expected: dict[str, str]
) -> None:
    before = published(sandbox, 7)
    sha = "f" * 40
    site = fake_site(sandbox.root / "site-7-new", extra={MARK: b"new"})
    outcome = sandbox.script("preview-publish.sh", "7", sha, kind, site, FAKE_GH=state.format(sha=sha))
    assert outcome.outputs == expected
    assert "pulls/7" in sandbox.gh_log.read_text()
    after = sandbox.pages()
    assert outside_previews(after) == outside_previews(before)
    if expected["changed"] == "false":
        assert after == before
    elif state.startswith("open") and kind == "data":
        assert after[f"pr-7/{MARK}"] == b"new"
    else:
        assert under(after, "pr-7") == {}


def test_the_pull_request_is_found_from_its_head_commit_and_branch(sandbox: Sandbox) -> None:
    sha = "a" * 40
    answer = f"5\t{'b' * 40}\tmain\n6\t{sha}\tother\n7\t{sha}\tmain"
    outcome = sandbox.script("preview-pr.sh", "someone", "my-branch", sha, "main", FAKE_GH=answer)
    assert outcome.outputs == {"number": "7"}
    assert "head=someone:my-branch" in sandbox.gh_log.read_text()
    assert sandbox.script("preview-pr.sh", "someone", "b", sha, "main", FAKE_GH="").outputs == {"number": ""}
    sandbox.script("preview-pr.sh", "someone", "b", "HEAD", "main", ok=False)
    sandbox.script("preview-pr.sh", "some one", "b", sha, "main", ok=False)


# What a pull request changes, decided from git alone.


class Repository:
    """A working repository whose main is pushed to the sandbox's remote."""

    def __init__(self, sandbox: Sandbox, folder: Path) -> None:
        self.sandbox, self.folder = sandbox, folder
        folder.mkdir(parents=True, exist_ok=True)
        sandbox.git(folder, "init", "-q", "-b", "main")
        sandbox.git(folder, "remote", "add", "origin", str(sandbox.remote))

    def commit(self, files: dict[str, bytes | None], message: str = "change", **env: str) -> str:
        for path, data in files.items():
            target = self.folder / path
            if data is None:
                target.unlink()
            else:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
        self.sandbox.git(self.folder, "add", "-A")
        self.sandbox.git(self.folder, "commit", "-q", "-m", message, **env)
        return self.sandbox.git(self.folder, "rev-parse", "HEAD")

    def open_pull_request(self, number: int, files: dict[str, bytes | None], **env: str) -> str:
        """Commits `files` on a branch off main and pushes it as GitHub keeps a pull request's head."""
        self.sandbox.git(self.folder, "checkout", "-q", "-b", f"pr-{number}", "main")
        head = self.commit(files, **env)
        self.sandbox.git(self.folder, "push", "-q", "origin", f"HEAD:refs/pull/{number}/head")
        self.sandbox.git(self.folder, "checkout", "-q", "main")
        return head

    def checkout_of_main(self) -> Path:
        """A fresh clone of main, as actions/checkout makes it (with the full history)."""
        self.sandbox.git(self.folder, "push", "-q", "origin", "main")
        clone = self.sandbox.root / "checkout"
        self.sandbox.git(self.sandbox.root, "clone", "-q", str(self.sandbox.remote), str(clone))
        return clone


SMALL_MAIN = {
    "recipes/m/g/a.yaml": b"a: 1\n",
    "reference/gpus.yaml": b"H100: 1\n",
    "reference/SOURCES.md": b"# Sources\n",
    "hooks/catalogue.py": b"# hook\n",
    "docs/assets/core.js": b"// core\n",
}


@pytest.mark.parametrize(
    ("files", "kind", "code"),
    [
        ({"recipes/m/g/b.yaml": b"b: 1\n"}, "data", []),
        ({"recipes/m/g/a.yaml": None, "reference/gpus.yaml": b"H200: 2\n"}, "data", []),
        ({"reference/SOURCES.md": b"# Sources\nmore\n"}, "data", []),
        ({"recipes/m/g/b.yaml": b"b: 1\n", "docs/assets/core.js": b"alert(1)\n"}, "code", ["docs/assets/core.js"]),
        ({"hooks/catalogue.py": None}, "code", ["hooks/catalogue.py"]),
        ({"recipes/.gitattributes": b"*.yaml filter=lfs\n"}, "code", ["recipes/.gitattributes"]),
        ({"recipes/m/g/.hidden.yaml": b"a: 1\n"}, "code", ["recipes/m/g/.hidden.yaml"]),
        ({"recipes/m/g/b c`@x.yaml": b"a: 1\n"}, "code", ["recipes/m/g/b?c?@x.yaml"]),
        ({"recipes/m/g/b\n.yaml": b"a: 1\n"}, "code", ["recipes/m/g/b?.yaml"]),
        ({"mkdocs.yml": b"hooks: []\n", "recipes.yaml": b""}, "code", ["mkdocs.yml", "recipes.yaml"]),
    ],
)
def test_a_pull_request_is_data_only_when_it_changes_only_plain_files_in_recipes_and_reference(
    sandbox: Sandbox, files: dict[str, bytes | None], kind: str, code: list[str]
) -> None:
    repository = Repository(sandbox, sandbox.root / "author")
    repository.commit(SMALL_MAIN)
    head = repository.open_pull_request(5, files)
    notes = sandbox.root / "code-paths"
    outcome = sandbox.script("preview-changes.sh", "main", head, notes, cwd=repository.folder)
    assert outcome.stdout == f"{kind}\n"
    assert notes.read_text().splitlines() == code


def test_a_link_or_a_submodule_in_recipes_is_code(sandbox: Sandbox) -> None:
    repository = Repository(sandbox, sandbox.root / "author")
    repository.commit(SMALL_MAIN)
    sandbox.git(repository.folder, "checkout", "-q", "-b", "pr")
    (repository.folder / "recipes" / "m" / "g" / "b.yaml").symlink_to("/etc/passwd")
    sandbox.git(repository.folder, "add", "recipes/m/g/b.yaml")
    sandbox.git(repository.folder, "update-index", "--add", "--cacheinfo", f"160000,{'1' * 40},recipes/m/sub")
    sandbox.git(repository.folder, "commit", "-q", "-m", "links")
    head = sandbox.git(repository.folder, "rev-parse", "HEAD")
    notes = sandbox.root / "code-paths"
    outcome = sandbox.script("preview-changes.sh", "main", head, notes, cwd=repository.folder)
    assert outcome.stdout == "code\n"
    assert notes.read_text().splitlines() == ["recipes/m/g/b.yaml", "recipes/m/sub"]


def test_only_the_pull_requests_changes_to_data_are_applied_over_main(sandbox: Sandbox) -> None:
    repository = Repository(sandbox, sandbox.root / "author")
    repository.commit(SMALL_MAIN)
    head = repository.open_pull_request(
        5, {"recipes/m/g/b.yaml": b"b: 1\n", "recipes/m/g/a.yaml": None}, GIT_COMMITTER_DATE="1790000000 +0000"
    )
    # Main moves on meanwhile: its newer recipe and code stay as they are.
    repository.commit({"recipes/m/g/c.yaml": b"c: 1\n", "hooks/catalogue.py": b"# newer hook\n"})
    checkout = repository.checkout_of_main()
    notes = sandbox.root / "notes"
    outcome = sandbox.script("preview-prepare.sh", "5", head, notes, cwd=checkout)
    assert outcome.outputs == {
        "kind": "data",
        "base-sha": sandbox.git(checkout, "rev-parse", "HEAD"),
        "source-date-epoch": "1790000000",
    }
    assert sandbox.git(checkout, "status", "--porcelain").splitlines() == [
        "D  recipes/m/g/a.yaml",
        "A  recipes/m/g/b.yaml",
    ]
    assert (checkout / "recipes/m/g/c.yaml").read_bytes() == b"c: 1\n"
    assert (checkout / "hooks/catalogue.py").read_bytes() == b"# newer hook\n"
    # A run of an older push of the pull request prepares nothing.
    stale = repository.open_pull_request(6, {"recipes/m/g/d.yaml": b"d: 1\n"})
    sandbox.git(repository.folder, "push", "-q", "-f", "origin", "main:refs/pull/6/head")
    fresh = sandbox.root / "fresh"
    sandbox.git(sandbox.root, "clone", "-q", str(sandbox.remote), str(fresh))
    assert sandbox.script("preview-prepare.sh", "6", stale, notes, cwd=fresh).outputs == {"kind": "stale"}
    sandbox.script("preview-prepare.sh", "6 ", stale, notes, cwd=fresh, ok=False)


@pytest.fixture
def project_repository(sandbox: Sandbox) -> Repository:
    """The real project (its hooks, templates, assets and the seed recipe) as main."""
    repository = Repository(sandbox, copy_project(sandbox.root / "author", with_recipes=SAMPLE))
    repository.commit({}, "main")
    return repository


def a_recipe(reference: Reference) -> tuple[str, bytes]:
    recipe_id = "llama-3.1-70b/h100/preview-only"
    return f"recipes/{recipe_id}.yaml", yaml_text(recipe_data(reference, name="preview-only"), recipe_id).encode()


def test_a_data_only_pull_request_is_published_with_mains_code(
    sandbox: Sandbox, project_repository: Repository, reference: Reference, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, recipe = a_recipe(reference)
    head = project_repository.open_pull_request(7, {path: recipe})
    checkout = project_repository.checkout_of_main()
    main_files = {
        file.relative_to(checkout): file.read_bytes()
        for part in ("hooks", "overrides", "docs", "schema", "mkdocs.yml")
        for file in ([checkout / part] if (checkout / part).is_file() else (checkout / part).rglob("*"))
        if file.is_file()
    }
    # Main's site, built apart: a build leaves __pycache__ in the project, and the checkout must be clean.
    main_site = build_site(project_repository.folder, sandbox.root / "main-site")
    assert main_site.ok, main_site.log
    sandbox.script("pages-publish.sh", "root", main_site.site)

    outcome = sandbox.script("preview-prepare.sh", "7", head, sandbox.root / "notes", cwd=checkout)
    assert outcome.outputs["kind"] == "data"
    assert sandbox.git(checkout, "status", "--porcelain").splitlines() == [f"A  {path}"]
    assert (checkout / path).read_bytes() == recipe
    for relative, data in main_files.items():
        assert (checkout / relative).read_bytes() == data, relative
    monkeypatch.setenv("SOURCE_DATE_EPOCH", outcome.outputs["source-date-epoch"])
    preview = build_site(checkout, sandbox.root / "preview-site")
    assert preview.ok, preview.log
    assert sandbox.script("pages-publish.sh", "pr-7", preview.site).outputs == {"changed": "true"}

    pages = sandbox.pages()
    assert "pr-7/recipes/llama-3.1-70b/h100/preview-only/index.html" in pages
    assert "recipes/llama-3.1-70b/h100/preview-only/index.html" not in pages  # main's site has no such page
    docs = checkout / "docs"
    for asset in sorted((docs / "assets").rglob("*")):
        name = asset.relative_to(docs).as_posix()
        if asset.is_file() and name != "assets/vendor/README.md":  # for maintainers: exclude_docs leaves it out
            assert pages[f"pr-7/{name}"] == asset.read_bytes() == pages[name], name


def test_a_pull_request_that_changes_javascript_publishes_nothing(
    sandbox: Sandbox, project_repository: Repository, reference: Reference
) -> None:
    path, recipe = a_recipe(reference)
    core = project_repository.folder / "docs" / "assets" / "core.js"
    evil = core.read_bytes() + b"\nlocalStorage.clear(); alert(document.domain);\n"
    head = project_repository.open_pull_request(7, {path: recipe, "docs/assets/core.js": evil})
    checkout = project_repository.checkout_of_main()
    before = published(sandbox, 3)

    notes = sandbox.root / "notes"
    outcome = sandbox.script("preview-prepare.sh", "7", head, notes, cwd=checkout)
    assert outcome.outputs == {"kind": "code"}
    # The checkout of main is left as it was: nothing to build.
    assert sandbox.git(checkout, "status", "--porcelain") == ""
    # What the publishing job then does: there is no preview to publish, and none is left.
    outcome = sandbox.script("preview-publish.sh", "7", head, "code", sandbox.root / "no-site", FAKE_GH=f"open {head}")
    assert outcome.outputs == {"changed": "false", "current": "true"}
    pages = sandbox.pages()
    assert pages == before
    assert not any(path.startswith("pr-7/") for path in pages)
    assert evil not in pages.values()

    run_url = "https://github.com/openrecipes/openrecipes/actions/runs/123"
    comment = sandbox.script("preview-comment.sh", "code", "7", head, notes, RUN_URL=run_url).stdout
    assert comment.startswith("<!-- openrecipes-preview -->\n")
    assert "- `docs/assets/core.js`\n" in comment
    assert path not in comment
    assert f"[its Pull request run]({run_url})" in comment
    assert "No preview is published" in comment


def test_the_code_comment_caps_and_defangs_the_paths(sandbox: Sandbox) -> None:
    notes = sandbox.root / "notes"
    notes.mkdir()
    paths = [f"hooks/{index}.py" for index in range(25)] + ["x`](https://evil)@everyone <b>"]
    (notes / "code-paths").write_text("\n".join(["x`](https://evil)@everyone <b>", *paths]) + "\n")
    run_url = "https://github.com/o/r/actions/runs/1"
    comment = sandbox.script("preview-comment.sh", "code", "7", "a" * 40, notes, RUN_URL=run_url).stdout
    assert "- `x???https?//evil?@everyone??b?`\n" in comment
    assert "- `hooks/18.py`\n" in comment and "hooks/19.py" not in comment
    assert "- … and 7 more\n" in comment
    assert "(https://evil)" not in comment and "<b>" not in comment
    sandbox.script("preview-comment.sh", "code", "7", "a" * 40, notes, RUN_URL="javascript:alert(1)", ok=False)


def test_the_data_comment_links_only_plain_recipe_ids(sandbox: Sandbox) -> None:
    notes = sandbox.root / "notes"
    notes.mkdir()
    (notes / "pr-diff.json").write_text(
        '{"added": ["m/g/new", "../../evil", "a](https://evil)", 3], "changed": ["m/g/old"], "removed": "m/g/x"}'
    )
    page = "https://openrecipes.github.io/openrecipes/"
    comment = sandbox.script("preview-comment.sh", "data", "7", "a" * 40, notes, PAGE_URL=page).stdout
    assert f"{page}pr-7/ (built from commit {'a' * 40})" in comment
    assert f"- [`m/g/new`]({page}pr-7/recipes/m/g/new/)\n" in comment
    assert f"- [`m/g/old`]({page}pr-7/recipes/m/g/old/)\n" in comment
    assert "evil" not in comment and "Removed" not in comment
