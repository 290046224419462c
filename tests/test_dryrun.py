"""The dry run of a documented launch (issue 28, item 5): launch.sh run by bash over the publisher's
files at the pinned commit, every launcher a stand-in. Each test lays out its own files: copies of
the frozen MLPerf fixture's cited files (tests/importer_fixtures) with a `.paths` listing of the
files a launch only hands on, or a git repository made here."""

from __future__ import annotations

import dataclasses
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from conftest import FIXTURES, REPO, Project

from openrecipes.checking import dryrun
from openrecipes.cli.main import main
from openrecipes.loader import load_catalogue
from openrecipes.reading import dryruns

DELL_ID = "llama-2-70b/h100/mlperf-4.1-dell-xe9640x4h100-sxm-80gb"
REPOSITORY = "mlcommons/training_results_v4.1"
COMMIT = "8821c7037ffd06e3775398fd39361a4c591d2235"
FOLDER = "Dell/benchmarks/llama2_70b_lora/implementations/nemo"
CITED = REPO / "tests/importer_fixtures/mlperf-training-v4.1" / COMMIT / FOLDER
DELL_TEXT = (FIXTURES / f"recipes/{DELL_ID}.yaml").read_text(encoding="utf-8")

pytestmark = pytest.mark.skipif(shutil.which("bash") is None or shutil.which("git") is None, reason="needs bash, git")


def _copies(base: Path, commit: str = COMMIT, listed: tuple[str, ...] = ("run.sub",)) -> Path:
    """The cited files at `base/<commit>/`, and `base/<commit>.paths` listing the others."""
    shutil.copytree(CITED, base / commit / FOLDER)
    lines = [f"100644 {FOLDER}/{name}\n" for name in listed]
    (base / f"{commit}.paths").write_text("".join(lines), encoding="utf-8")
    return base


def _fields(project: Project, text: str = DELL_TEXT, recipe_id: str = DELL_ID) -> object:
    project.add(recipe_id, text)
    (entry,) = [entry for entry in load_catalogue(project.root).entries if entry.recipe.id == recipe_id]
    return entry.recipe.fields


def test_a_launch_over_its_files_reaches_its_launcher_with_the_documented_command(
    project: Project, tmp_path: Path
) -> None:
    found = dryrun.dry_run(DELL_ID, _fields(project), dryrun.from_copies({REPOSITORY: _copies(tmp_path / "copies")}))
    assert found is not None
    assert found.problems == []
    assert found.passed
    where = f"training_results_v4.1/{FOLDER}"
    # The configuration the command sources sets the node count and wall time the launcher is given.
    assert found.launcher == dryrun.Call("sbatch", ("-N", "1", "-t", "UNLIMITED", "run.sub"), where)
    assert [(call.program, call.args[:1]) for call in found.calls] == [
        ("git", ("clone",)),
        ("git", ("switch",)),
        ("sbatch", ("-N",)),
    ]


def test_a_file_the_launcher_is_handed_that_the_commit_does_not_hold_fails_it(project: Project, tmp_path: Path) -> None:
    copies = _copies(tmp_path / "copies", listed=())
    found = dryrun.dry_run(DELL_ID, _fields(project), dryrun.from_copies({REPOSITORY: copies}))
    assert found is not None
    assert found.problems == [f"sbatch is handed run.sub, which is not in training_results_v4.1/{FOLDER}"]


def test_a_sourced_file_missing_at_the_commit_stops_the_launch_with_bash_s_own_words(
    project: Project, tmp_path: Path
) -> None:
    copies = _copies(tmp_path / "copies")
    (copies / COMMIT / FOLDER / "configs/config_XE9640_common.sh").unlink()
    found = dryrun.dry_run(DELL_ID, _fields(project), dryrun.from_copies({REPOSITORY: copies}))
    assert found is not None
    assert len(found.problems) == 1
    assert found.problems[0].startswith("launch.sh exited with 1: ")
    assert "config_XE9640_common.sh: No such file or directory" in found.problems[0]
    assert "<sandbox>" not in found.problems[0] and "/tmp/" not in found.problems[0]


def test_no_copy_at_the_commit_is_said_not_guessed(project: Project, tmp_path: Path) -> None:
    copies = _copies(tmp_path / "copies", commit="0" * 40)
    found = dryrun.dry_run(DELL_ID, _fields(project), dryrun.from_copies({REPOSITORY: copies}))
    assert found is not None
    assert found.problems == [f"the publisher's files: no copy of {REPOSITORY} at {COMMIT}"]


def _git(folder: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(folder), "-c", "user.name=t", "-c", "user.email=t@t", *args],
        capture_output=True,
        text=True,
        check=True,
        env={"GIT_CONFIG_NOSYSTEM": "1", "HOME": str(folder), "PATH": "/usr/bin:/bin"},
    )
    return done.stdout.strip()


def _clone_with_dell_files(folder: Path, *, run_sub: bool = True) -> tuple[Path, str]:
    folder.mkdir()
    _git(folder, "init", "-q")
    shutil.copytree(CITED, folder / FOLDER)
    if run_sub:
        (folder / FOLDER / "run.sub").write_text("#!/bin/bash\n", encoding="utf-8")
    _git(folder, "add", "-A")
    _git(folder, "commit", "-q", "-m", "files")
    return folder, _git(folder, "rev-parse", "HEAD")


def test_over_a_clone_the_files_of_the_pinned_commit_are_read_from_git(project: Project, tmp_path: Path) -> None:
    clone, commit = _clone_with_dell_files(tmp_path / "clone")
    fields = _fields(project, DELL_TEXT.replace(COMMIT, commit))
    cache = tmp_path / "cache"
    found = dryrun.dry_run(DELL_ID, fields, dryrun.from_clone({REPOSITORY: clone}, cache))
    assert found is not None
    assert found.problems == []
    # A later commit that removes run.sub does not change what the pinned commit holds.
    (clone / FOLDER / "run.sub").unlink()
    _git(clone, "commit", "-q", "-a", "-m", "removed")
    again = dryrun.dry_run(DELL_ID, fields, dryrun.from_clone({REPOSITORY: clone}, tmp_path / "cache2"))
    assert again is not None and again.problems == []


@pytest.mark.parametrize(
    ("checkout_line", "problem"),
    [
        ("git checkout main", f"the checkout switches to main, not the cited {COMMIT}"),
        (
            "git clone https://github.com/mIcommons/training_results_v4.1.git elsewhere",
            f"the checkout clones https://github.com/mIcommons/training_results_v4.1.git, not https://github.com/{REPOSITORY}",
        ),
    ],
)
def test_a_checkout_of_another_repository_or_commit_fails(
    project: Project, tmp_path: Path, checkout_line: str, problem: str
) -> None:
    """validate refuses such a checkout (reading/launchsafety.py); the dry run does not take its word."""
    fields = _fields(project)
    launch = dataclasses.replace(fields.launch, checkout=fields.launch.checkout + checkout_line + "\n")
    found = dryrun.dry_run(
        DELL_ID, dataclasses.replace(fields, launch=launch), dryrun.from_copies({REPOSITORY: _copies(tmp_path / "c")})
    )
    assert found is not None
    assert found.problems[0] == problem


def test_the_command_records_each_outcome_for_the_site(project: Project, tmp_path: Path, capsys) -> None:
    project.add(DELL_ID, DELL_TEXT)
    copies = _copies(tmp_path / "copies")
    status = main(["launch", "check", DELL_ID, "--root", str(project.root), "--copies", f"{REPOSITORY}={copies}"])
    out, err = capsys.readouterr()
    assert (status, out) == (0, f"passed  {DELL_ID}\n")
    assert err == "1 of 1 documented launch passed\n"
    assert not (project.root / dryruns.DRY_RUNS_FILE).exists()  # written only when asked

    assert main(["launch", "check", "--root", str(project.root), "--copies", f"{REPOSITORY}={copies}", "--record"]) == 0
    recorded = yaml.safe_load((project.root / dryruns.DRY_RUNS_FILE).read_text(encoding="utf-8"))
    entry = load_catalogue(project.root)
    (dell,) = [one for one in entry.entries if one.recipe.id == DELL_ID]
    assert recorded[DELL_ID] == {
        "launch_sh_sha256": dryruns.script_sha256(_launch_sh(dell)),
        "repository": REPOSITORY,
        "commit": COMMIT,
        "files": "copies",
        "passed": True,
        "launcher": "sbatch -N 1 -t UNLIMITED run.sub",
    }
    assert dell.derived.dry_run.state == "passed"

    # The recipe's launch changes: the record no longer counts.
    project.add(DELL_ID, DELL_TEXT.replace("use appropriate config", "the configuration of this result"))
    (dell,) = [one for one in load_catalogue(project.root).entries if one.recipe.id == DELL_ID]
    assert dell.derived.dry_run.state == "stale"


def _launch_sh(entry: object) -> str:
    from openrecipes.checking import launchscript

    (documented,) = [one for one in launchscript.launches(entry.recipe.fields) if one.kind == "documented"]
    return documented.launch_sh.text


def test_a_failed_launch_exits_1_and_names_each_problem(project: Project, tmp_path: Path, capsys) -> None:
    project.add(DELL_ID, DELL_TEXT)
    copies = _copies(tmp_path / "copies", listed=())
    status = main(["launch", "check", DELL_ID, "--root", str(project.root), "--copies", f"{REPOSITORY}={copies}"])
    out, err = capsys.readouterr()
    assert status == 1
    assert out == f"FAILED  {DELL_ID}\n    sbatch is handed run.sub, which is not in training_results_v4.1/{FOLDER}\n"
    assert err == "0 of 1 documented launch passed\n"


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ([], "give the publishers' files: --repo OWNER/NAME=CLONE or --copies OWNER/NAME=DIR"),
        (["--repo", "nothing"], "--repo 'nothing': expected OWNER/NAME=PATH"),
        (["--copies", "a/b=/no/such/folder"], "--copies 'a/b=/no/such/folder': /no/such/folder is not a folder"),
    ],
)
def test_a_wrong_command_line_is_one_line(project: Project, arguments: list[str], message: str, capsys) -> None:
    assert main(["launch", "check", "--root", str(project.root), *arguments]) == 2
    assert capsys.readouterr().err == f"openrecipes: error: {message}\n"


def test_a_broken_record_file_is_a_located_problem(project: Project) -> None:
    path = project.root / dryruns.DRY_RUNS_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"{DELL_ID}:\n  passed: maybe\n", encoding="utf-8")
    found = load_catalogue(project.root)
    located = [problem for problem in found.problems if problem.path == dryruns.DRY_RUNS_FILE]
    assert located, found.problems
    assert all(problem.line >= 1 for problem in located)


def test_a_command_whose_launcher_is_never_reached_fails(project: Project, tmp_path: Path) -> None:
    fields = _fields(project)
    command = fields.launch.command.replace("sbatch -N", "true || sbatch -N")
    other = fields.launch.command.replace("sbatch -N", "true || sbatch -N").replace(
        "source configs", "srun true\nsource configs"
    )
    launch = dataclasses.replace(fields.launch, command=command)
    found = dryrun.dry_run(
        DELL_ID, dataclasses.replace(fields, launch=launch), dryrun.from_copies({REPOSITORY: _copies(tmp_path / "c")})
    )
    assert found is not None
    assert found.problems == [
        "launch.sh ran to its end without starting a launcher (sbatch, srun, salloc, torchrun, python, python3, uv, "
        "docker, podman, enroot, llmboost, mpirun, deepspeed, accelerate)"
    ]
    # Another launcher reached first is not the one the command names.
    launch = dataclasses.replace(fields.launch, command=other)
    found = dryrun.dry_run(
        DELL_ID, dataclasses.replace(fields, launch=launch), dryrun.from_copies({REPOSITORY: _copies(tmp_path / "d")})
    )
    assert found is not None
    assert found.problems == ["the command starts sbatch, which the run never reached"]


@pytest.mark.parametrize(
    ("command", "launcher"),
    [
        ("export A=1\nsource x.sh\nsbatch -N $N run.sub\n", "sbatch"),
        ("pip install x\npython scripts/a.py \\\n  --x 1\n", "python"),
        ("bash run_with_docker.sh\n", None),  # the script starts it: nothing to hold the run to
        ("CONFIG_FILE=a.toml ./run_llama_train.sh\n", None),
        ("llmboost mlperf --config_sh c.sh 2>&1 | tee log\n", "llmboost"),
        ("cd x && srun --mpi=pmix python train.py # sbatch in a comment\n", "srun"),
    ],
)
def test_the_launcher_a_command_names_is_read_as_the_shell_splits_words(command: str, launcher: str | None) -> None:
    assert dryrun._launcher_named(command) == launcher
