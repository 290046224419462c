"""A documented launch's preparation (issue 28, item 4): the publisher's steps before the launch, on
the page and in a `prepare.sh` made, parsed and checked as `launch.sh` is; inputs that are optional
or of a kind; what validate refuses of them.

The recipe is the frozen MLPerf fixture with its README's build step moved out of the command into
`launch.preparation`, and the data step of the implementation's README (a container's shell the
publisher types in) added, each cited at the lines of the fixture's own files.
"""

from __future__ import annotations

import copy
import os
import stat
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import FIXTURES, Project, code_blocks, parse
from test_importers import run

from openrecipes.checking import launchscript
from openrecipes.checking.preparation import needs_preparation, preparation_steps
from openrecipes.loader import load_recipe
from openrecipes.reading.schema import Schema

MLPERF_ID = "llama-2-70b/h100/mlperf-4.0-nvidia-fp8-8gpu"
SYSTEM_README = "NVIDIA/benchmarks/llama2_70b_lora/implementations/eos_ngc24.04_nemo/README-eos_ngc24.04_nemo.md"
README = "NVIDIA/benchmarks/llama2_70b_lora/implementations/nemo/README.md"
BUILD = "docker build --pull -t <docker/registry:benchmark-tag> .\ndocker push <docker/registry:benchmark-tag>\n"
START = "docker run -it --gpus all -v <path/to/dataset>:/data <docker/registry:benchmark-tag> --pty bash\n"
TYPED = "python scripts/download_dataset.py\npython scripts/convert_dataset.py\n"


def prepared() -> dict[str, Any]:
    """The frozen MLPerf recipe, its build lines a preparation step, a data step after it, and an
    optional input of the launch (NCCL_DEBUG, which the command passes on when set)."""
    data = yaml.safe_load((FIXTURES / "recipes" / f"{MLPERF_ID}.yaml").read_text(encoding="utf-8"))
    launch = data["launch"]
    assert launch["command"].startswith(BUILD)
    launch["command"] = launch["command"].removeprefix(BUILD)
    registry = next(item for item in launch["inputs"] if item["name"] == "<docker/registry:benchmark-tag>")
    launch["inputs"].append(
        {
            "name": "NEXP_LOG",
            "description": "Where to copy the job's log as well",
            "origin": "your cluster's shared storage",
            "optional": True,
        }
    )
    launch["command"] += 'if [ -n "${NEXP_LOG:-}" ]; then echo "$NEXP_LOG"; fi\n'
    launch["preparation"] = [
        {
            "what": "Build the docker container and push it to a docker registry",
            "file": SYSTEM_README,
            "lines": [15, 18],
            "commands": BUILD,
            "inputs": [{**copy.deepcopy(registry), "kind": "container-image"}],
        },
        {
            "what": "Download the dataset and convert it",
            "file": README,
            "lines": [13, 24],
            "commands": START,
            "session": TYPED,
            "inputs": [
                {**copy.deepcopy(registry), "kind": "container-image"},
                {
                    "name": "<path/to/dataset>",
                    "description": "An empty folder the data set is written to",
                    "origin": "your shared storage",
                    "kind": "data",
                },
            ],
            "notes": "The README also links the data set on the MLPerf drive.",
        },
        {"what": "Check the converted files are there", "file": README, "lines": [25, 28]},
    ]
    return data


def _fields(data: dict[str, Any], project: Project) -> Any:
    path = project.add(MLPERF_ID, data)
    recipe, _, problems = load_recipe(path, project.root, Schema.load(project.root / "schema" / "recipe.schema.yaml"))
    assert recipe is not None and not [problem for problem in problems if not problem.warning], problems
    return recipe.fields


def test_the_steps_are_listed_for_whoever_judges_how_ready_a_launch_is(project: Project) -> None:
    fields = _fields(prepared(), project)
    steps = preparation_steps(fields)
    assert needs_preparation(fields)
    assert [(step.number, step.what, step.by_hand) for step in steps] == [
        (1, "Build the docker container and push it to a docker registry", False),
        (2, "Download the dataset and convert it", False),
        (3, "Check the converted files are there", True),
    ]
    base = "https://github.com/mlcommons/training_results_v4.0/blob/62f111b7690f163b269f32e4f93dcaaa13717c9c/"
    assert steps[0].url == f"{base}{SYSTEM_README}#L15-L18"
    assert steps[1].session == TYPED
    assert [(item.name, item.written, item.kind) for item in steps[1].inputs] == [
        ("DOCKER_REGISTRY_BENCHMARK_TAG", "<docker/registry:benchmark-tag>", "container-image"),
        ("PATH_TO_DATASET", "<path/to/dataset>", "data"),
    ]
    data = prepared()
    del data["launch"]["preparation"]
    data["launch"]["command"] = BUILD + data["launch"]["command"]
    assert not needs_preparation(_fields(data, project))


# --- prepare.sh and launch.sh, run ----------------------------------------------------------------

RECORDER = 'printf "%s %s\\n" "${0##*/}" "$*" >> "$CALLS"\n'
"""A stand-in for every program the scripts start: it writes down its name and arguments."""
IMPLEMENTATION = "training_results_v4.0/NVIDIA/benchmarks/llama2_70b_lora/implementations/nemo"
GIT = (
    'printf "git %s\\n" "$*" >> "$CALLS"\n'
    f'if [ "$1" = clone ]; then mkdir -p training_results_v4.0/.git {IMPLEMENTATION}\n'
    f"  echo 'export DGXNNODES=1 WALLTIME=00:30:00' > {IMPLEMENTATION}/config_DGXH100_1x8x4xtp4pp1cp1.sh\n"
    "fi\n"
)
"""A stand-in for git: a clone is the folders the checkout enters, and the configuration the command sources."""


def _execute(folder: Path, name: str, text: str, values: dict[str, str]) -> subprocess.CompletedProcess[str]:
    bin_dir = folder / "bin"
    bin_dir.mkdir(exist_ok=True)
    for program, body in (("docker", RECORDER), ("sbatch", RECORDER), ("git", GIT)):
        stand_in = bin_dir / program
        stand_in.write_text(f"#!/usr/bin/env bash\n{body}", encoding="utf-8")
        stand_in.chmod(stand_in.stat().st_mode | stat.S_IXUSR)
    work = folder / "work"
    work.mkdir(exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")
    env = {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "CALLS": str(folder / "calls"), **values}
    return subprocess.run(
        ["bash", str(folder / name)], cwd=work, env=env, capture_output=True, text=True, check=False,
        stdin=subprocess.DEVNULL,
    )  # fmt: skip


def _calls(folder: Path) -> list[str]:
    calls = folder / "calls"
    return calls.read_text(encoding="utf-8").splitlines() if calls.exists() else []


def _documented(fields: Any) -> launchscript.Launch:
    return next(one for one in launchscript.launches(fields) if one.kind == "documented")


def test_prepare_sh_checks_out_then_runs_each_step_as_written(project: Project, tmp_path: Path) -> None:
    launch = _documented(_fields(prepared(), project))
    prepare = launch.prepare_sh
    assert prepare is not None and prepare.name == "prepare.sh"
    values = {"DOCKER_REGISTRY_BENCHMARK_TAG": "registry.example/lora:1", "PATH_TO_DATASET": "/shared/my data"}
    done = _execute(tmp_path, "prepare.sh", prepare.text, values)
    assert done.returncode == 0, done.stderr
    commit = "62f111b7690f163b269f32e4f93dcaaa13717c9c"
    assert _calls(tmp_path) == [
        "git clone https://github.com/mlcommons/training_results_v4.0.git",
        f"git switch --detach {commit}",
        "docker build --pull -t registry.example/lora:1 .",
        "docker push registry.example/lora:1",
        "docker run -it --gpus all -v /shared/my data:/data registry.example/lora:1 --pty bash",
    ]
    # What the publisher types in the container's shell is shown to the reader, never run.
    assert done.stderr == f"prepare.sh, step 2: in the shell that opens now, run these, then exit:\n{TYPED}"
    # Run again in the same folder (as launch.sh is after it), the clone is used again.
    (tmp_path / "calls").unlink()
    assert _execute(tmp_path, "prepare.sh", prepare.text, values).returncode == 0
    assert _calls(tmp_path)[0] == f"git switch --detach {commit}"
    # The step done by hand is said in the script, with its lines.
    comments = " ".join(line.removeprefix("#").strip() for line in prepare.text.splitlines() if line.startswith("#"))
    assert f"Step 3 of 3: Check the converted files are there ({README} lines 25-28)." in comments
    assert "By hand: the publisher describes this step in words, in the lines named above." in comments


def test_each_required_input_stops_the_script_and_an_optional_one_does_not(project: Project, tmp_path: Path) -> None:
    launch = _documented(_fields(prepared(), project))
    assert launch.prepare_sh is not None and launch.launch_sh is not None
    done = _execute(tmp_path, "prepare.sh", launch.prepare_sh.text, {"PATH_TO_DATASET": "/data"})
    assert done.returncode == 1 and not _calls(tmp_path)
    assert done.stderr.startswith("prepare.sh: DOCKER_REGISTRY_BENCHMARK_TAG is not set: ")
    needed = {
        "DOCKER_REGISTRY_BENCHMARK_TAG": "registry.example/lora:1",
        "DATADIR": "/data",
        "LOGDIR": "/logs",
        "MODEL": "/model",
        "NEXP": "10",
    }
    for name in needed:
        missing = {key: value for key, value in needed.items() if key != name}
        done = _execute(tmp_path, "launch.sh", launch.launch_sh.text, missing)
        assert done.returncode == 1 and done.stderr.startswith(f"launch.sh: {name} is not set: "), name
        assert not _calls(tmp_path)
    # NEXP_LOG is optional: unset, the launch runs; set, the command sees it.
    assert "# May be set (optional: the script runs without it):\n#   NEXP_LOG: Where to copy" in launch.launch_sh.text
    assert "require NEXP_LOG" not in launch.launch_sh.text
    done = _execute(tmp_path, "launch.sh", launch.launch_sh.text, needed)
    assert done.returncode == 0, done.stderr
    assert _calls(tmp_path)[-1] == "sbatch -N 1 -t 00:30:00 run.sub"
    done = _execute(tmp_path, "launch.sh", launch.launch_sh.text, {**needed, "NEXP_LOG": "/logs/copy"})
    assert done.returncode == 0 and done.stdout.splitlines()[-1] == "/logs/copy"


# --- the page -----------------------------------------------------------------------------------


@pytest.mark.site
def test_the_page_shows_each_step_and_the_prepare_sh_it_downloads(project: Project) -> None:
    data = prepared()
    project.add(MLPERF_ID, data)
    built = project.build()
    assert built.ok, built.log
    html = built.html(f"recipes/{MLPERF_ID}/")
    download = (built.site / "recipes" / MLPERF_ID / "prepare.sh").read_text(encoding="utf-8")
    launch = _documented(_fields(data, project))
    assert launch.prepare_sh is not None
    # The download is the script the page shows, byte for byte, and the one launchscript makes.
    assert download == launch.prepare_sh.text
    blocks = code_blocks(html)
    assert download in blocks
    # Each step's commands and session, exactly as the recipe writes them, in the page's order: the
    # preparation before the launch's checkout and command.
    steps = data["launch"]["preparation"]
    order = [BUILD, START, TYPED, download, data["launch"]["checkout"], data["launch"]["command"]]
    assert [blocks.index(text) for text in order] == sorted(blocks.index(text) for text in order)
    assert steps[0]["commands"] == BUILD
    text = " ".join("".join(parse(html).text).split())
    assert "First, prepare: the 3 steps the publisher documents before this launch, each as they write it." in text
    assert f"Step 1: Build the docker container and push it to a docker registry ({SYSTEM_README} lines 15–18)" in text
    assert f"Step 3: Check the converted files are there ({README} lines 25–28). By hand:" in text
    assert "The README also links the data set on the MLPerf drive." in text
    assert "What to provide to prepare it" in text and "Then, launch:" in text
    # An input's kind, and an optional one, said as such.
    assert "<docker/registry:benchmark-tag> (DOCKER_REGISTRY_BENCHMARK_TAG in prepare.sh) container image" in text
    assert "NEXP_LOG optional: launch.sh runs without it" in text
    tags = parse(html).elements
    links = {attrs.get("href") for tag, attrs in tags if tag == "a"}
    base = "https://github.com/mlcommons/training_results_v4.0/blob/62f111b7690f163b269f32e4f93dcaaa13717c9c/"
    assert f"{base}{SYSTEM_README}#L15-L18" in links and "prepare.sh" in links
    # It is checked as launch.sh is: bash parses it and ShellCheck finds nothing.
    assert "Checked: bash parses launch.sh and env.sh and prepare.sh, and ShellCheck finds no error" in text


def test_show_lists_the_steps_and_what_they_need(project: Project, capsys: pytest.CaptureFixture[str]) -> None:
    project.add(MLPERF_ID, prepared())
    code, out, err = run(capsys, "--root", project.root, "show", MLPERF_ID)
    assert code == 0, err
    assert (
        "  prepare first  1. Build the docker container and push it to a docker registry; "
        "2. Download the dataset and convert it; 3. Check the converted files are there" in out.splitlines()
    )
    assert "  prepare needs  <docker/registry:benchmark-tag>, <path/to/dataset>" in out.splitlines()
    assert f"  prepare.sh     recipes/{MLPERF_ID}/prepare.sh" in out.splitlines()


def test_a_step_read_from_another_implementations_readme_runs_in_its_folder_then_comes_back(
    project: Project, tmp_path: Path
) -> None:
    """A launch that borrows another implementation's README and code (MLPerf's byte-for-byte run.sub)
    builds that implementation's image in its folder (`folder`); the launch runs where the checkout left it."""
    data = prepared()
    other = SYSTEM_README.rsplit("/", 1)[0]
    data["launch"]["preparation"][0]["folder"] = other
    prepare = _documented(_fields(data, project)).prepare_sh
    assert prepare is not None
    lines = prepare.text.splitlines()
    into = f"cd -- ../eos_ngc24.04_nemo  # {other}, where the publisher runs this step"
    back = "cd -- ../nemo  # back to the launch's folder"
    build = 'docker build --pull -t "${DOCKER_REGISTRY_BENCHMARK_TAG}" .'
    assert lines.index(into) < lines.index(build) < lines.index(back)
    # The other steps run where the checkout leaves the shell: one cd there and back, no more.
    assert (lines.count(into), lines.count(back)) == (1, 1)
    (tmp_path / "work" / "training_results_v4.0" / other).mkdir(parents=True)
    values = {"DOCKER_REGISTRY_BENCHMARK_TAG": "registry.example/lora:1", "PATH_TO_DATASET": "/shared/data"}
    done = _execute(tmp_path, "prepare.sh", prepare.text + 'printf "%s\\n" "$PWD" > "$CALLS.pwd"\n', values)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "calls.pwd").read_text(encoding="utf-8").rstrip("\n").endswith(IMPLEMENTATION)


def test_a_steps_folder_must_hold_the_file_it_is_read_from(project: Project) -> None:
    data = prepared()
    data["launch"]["preparation"][0]["folder"] = "NVIDIA/benchmarks/gpt3"
    path = project.add(MLPERF_ID, data)
    _, _, problems = load_recipe(path, project.root, Schema.load(project.root / "schema" / "recipe.schema.yaml"))
    assert [(problem.where, problem.message) for problem in problems if not problem.warning] == [
        (
            "$.launch.preparation[0].folder",
            f"'NVIDIA/benchmarks/gpt3' does not hold '{SYSTEM_README}': a step runs in the folder of the file it is "
            "read from (or one above it)",
        )
    ]
    data["launch"]["preparation"][0]["folder"] = "NVIDIA/../NVIDIA"
    path = project.add(MLPERF_ID, data)
    _, _, problems = load_recipe(path, project.root, Schema.load(project.root / "schema" / "recipe.schema.yaml"))
    assert [problem.where for problem in problems if not problem.warning] == ["$.launch.preparation[0].folder"]
