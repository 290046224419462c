"""A recipe's launch on its page, in its downloads and in the exports (issue 21).

The documented launches are made by the Megatron-Bridge import run on copies of the publisher's
files at the pinned commits (tests/importer_fixtures, as test_importers does); the MLPerf and
torchtitan ones are frozen copies in tests/fixtures. Every script is checked by running it: the
downloaded `launch.sh` stops on each input left unset, runs the publisher's command as written
once they are set (with `git` and the launcher replaced by stand-ins that record what they were
given), and no text of the recipe ever runs.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import os
import shlex
import stat
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import FIXTURES, REPO, SEED_DATA, SEED_ID, BuildResult, Project, code_blocks, parse
from test_importers import IMPORTED_AT, ReleaseRepo, _launch_import, release_repo  # noqa: F401 (a fixture)

from openrecipes.checking import launchscript as launches
from openrecipes.importers import megatron_bridge_launch
from openrecipes.reading.schema import Schema

pytestmark = pytest.mark.site

MEGATRON_ID = "deepseek-v3/gb200/mb-26.08-mxfp8-256gpu"
MLPERF_ID = "llama-2-70b/h100/mlperf-4.0-nvidia-fp8-8gpu"
TORCHTITAN_ID = "llama-3.1-8b/h200/tt-202506-trainy-whitefiber-fp8-32gpu"
NOT_PUBLISHED_ID = "llama-3.1-8b/h100-96gb/tt-202412-torchtitan-fp8-8gpu-fsdp8-cp1"
FROZEN = (MLPERF_ID, TORCHTITAN_ID, NOT_PUBLISHED_ID)


def frozen(recipe_id: str) -> dict[str, Any]:
    return yaml.safe_load((FIXTURES / "recipes" / f"{recipe_id}.yaml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def imported(release_repo: ReleaseRepo) -> dict[str, Any]:  # noqa: F811 (the fixture imported above)
    """The Megatron-Bridge recipe as the import makes it from the publisher's files, commits as upstream's."""
    index_commit, path = megatron_bridge_launch.VERSION_INDEX
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(megatron_bridge_launch, "VERSION_INDEX", (release_repo.scratch[index_commit], path))
        data = _launch_import(release_repo)[MEGATRON_ID]
    return yaml.safe_load(release_repo.as_upstream(yaml.safe_dump(data, allow_unicode=True, sort_keys=False)))


@pytest.fixture
def built(project: Project, imported: dict[str, Any]) -> BuildResult:
    project.add(MEGATRON_ID, imported)
    for recipe_id in FROZEN:
        project.add_fixture(recipe_id)
    project.add_seed()
    result = project.build()
    assert result.ok, result.log
    return result


def page_of(result: BuildResult, recipe_id: str) -> str:
    return result.html(f"recipes/{recipe_id}/")


def download(result: BuildResult, recipe_id: str, name: str) -> bytes:
    return (result.site / "recipes" / recipe_id / name).read_bytes()


def launch_section(html: str) -> str:
    """The text of the page's Launch section, as a reader reads it."""
    start = html.rindex("<h2", 0, html.index('id="launch"'))
    section = "".join(parse(html[start : html.index("<h2", start + 1)]).text)
    return " ".join(section.replace("¶", "").split())


def test_a_documented_launch_shows_the_publishers_files_commands_and_environment_verbatim(
    built: BuildResult, imported: dict[str, Any]
) -> None:
    documented = imported["launch"]
    html = page_of(built, MEGATRON_ID)
    text = launch_section(html)
    commit = documented["source"]["commit"]
    # Under its readiness (test_readiness_site.py), what it is: the publisher's, not a log of the run.
    assert text.startswith("Launch Readiness: ")
    assert (
        "The publisher's documented launch. How NVIDIA launches this configuration, read from their own "
        f"files in NVIDIA-NeMo/Megatron-Bridge at commit {commit[:12]}. It is not a log of the command that "
        "produced the figures above."
    ) in text
    assert '<tr><th scope="row">Container</th><td><code>nvcr.io/nvidia/nemo:26.08</code></td></tr>' in html
    assert '<tr><th scope="row">GPUs</th><td>256</td></tr>' in html
    blocks = code_blocks(html)
    env = download(built, MEGATRON_ID, "env.sh").decode("utf-8")
    script = download(built, MEGATRON_ID, "launch.sh").decode("utf-8")
    # The checkout, the command, env.sh and launch.sh, each exactly the text a copy button copies.
    assert documented["checkout"] in blocks and documented["command"] in blocks
    assert env in blocks and script in blocks
    assert env == "".join(f"export {name}={value}\n" for name, value in documented["env"].items())
    # Each cited file is linked at the commit, with its lines and what they hold.
    tags = parse(html).elements
    links = {attrs["href"] for tag, attrs in tags if tag == "a" and "href" in attrs}
    assert {item["url"] for item in documented["source"]["files"]} <= links
    first = documented["source"]["files"][0]
    assert f"{first['path']} line{'s' if first['lines'][0] != first['lines'][1] else ''} {first['lines'][0]}" in text
    # Its inputs, in the recipe's order, each with where it comes from.
    for item in documented["inputs"]:
        assert item["name"] in text
    assert "Values the launch's configuration runs, against this recipe's" in text
    assert "Runs this recipe's configuration: the launch states every dimension the recipe states" in text
    assert '<tr><td>GPUs</td><td class="or-num">256</td><td class="or-num">256</td><td>yes</td></tr>' in html
    assert '<tr><td>precision</td><td class="or-num">mxfp8</td><td class="or-num">mxfp8</td><td>yes</td></tr>' in html
    assert "Download env.sh Download launch.sh" in text


def test_environment_values_round_trip_through_bash(
    built: BuildResult, imported: dict[str, Any], tmp_path: Path
) -> None:
    (tmp_path / "env.sh").write_bytes(download(built, MEGATRON_ID, "env.sh"))
    shown = subprocess.run(
        ["bash", "-c", ". ./env.sh && env -0"], cwd=tmp_path, env={}, capture_output=True, check=True
    ).stdout.decode("utf-8")
    values = dict(line.split("=", 1) for line in shown.split("\0") if "=" in line)
    assert {name: values[name] for name in imported["launch"]["env"]} == imported["launch"]["env"]


def test_an_mlperf_launch_names_its_config_and_makes_its_placeholders_variables(built: BuildResult) -> None:
    documented = frozen(MLPERF_ID)["launch"]
    html = page_of(built, MLPERF_ID)
    text = launch_section(html)
    assert "How MLCommons" in text or "How the publisher" in text
    assert "config_DGXH100_1x8x4xtp4pp1cp1.sh" in text
    # Its sets (written by hand in 2025) state no global batch, sequence length or precision: the page says so.
    assert (
        "Differs from this recipe's configuration: its configuration's GBS, sequence length, precision are not "
        "stated (see the notes); it is not known to run the configuration these figures are for."
    ) in text
    assert (
        '<tr class="or-differs"><td>sequence length</td><td class="or-num">not stated</td>'
        '<td class="or-num">8,192</td><td><strong>not stated</strong>: see the notes</td></tr>'
    ) in html
    script = download(built, MLPERF_ID, "launch.sh").decode("utf-8")
    # The page's command is the publisher's; the download's has a variable for each placeholder.
    assert documented["command"] in code_blocks(html)
    assert "<docker/registry:benchmark-tag>" not in script.split("# The documented command", 1)[1]
    # One placeholder written twice is one value; one written only as a variable's whole value is
    # that variable (issue 28, item 1), each quoted as one word.
    assert 'docker build --pull -t "${DOCKER_REGISTRY_BENCHMARK_TAG}" .' in script
    assert 'CONT="${DOCKER_REGISTRY_BENCHMARK_TAG}" DATADIR="${DATADIR}" LOGDIR="${LOGDIR}" sbatch' in script
    assert "<docker/registry:benchmark-tag> (DOCKER_REGISTRY_BENCHMARK_TAG in launch.sh)" in text
    assert subprocess.run(["bash", "-n"], input=script.encode("utf-8"), check=False).returncode == 0


def test_a_launch_that_is_not_published_says_why_and_offers_no_download(built: BuildResult) -> None:
    reason = " ".join(frozen(NOT_PUBLISHED_ID)["launch"]["reason"].split())
    text = launch_section(page_of(built, NOT_PUBLISHED_ID))
    assert text == f"Launch Readiness: not published {reason}"
    assert not (built.site / "recipes" / NOT_PUBLISHED_ID / "launch.sh").exists()


def test_an_as_run_script_is_served_byte_for_byte(built: BuildResult) -> None:
    html = page_of(built, SEED_ID)
    assert download(built, SEED_ID, "launch.sh") == SEED_DATA["run"].encode("utf-8")
    assert SEED_DATA["run"] in code_blocks(html)
    text = launch_section(html)
    assert text.startswith("Launch Readiness: as run by the author The author's own script, exactly as the run")
    assert "As run. The author's launch script, exactly as the run was made." in text


def test_exports_say_which_kind_of_launch_each_recipe_has(built: BuildResult) -> None:
    """The JSON record's launches, each with its kind and files; whether a recipe runs is its
    readiness, the one label the CSV, the tables and the filters give (test_readiness_site.py)."""
    rows = {row["id"]: row for row in csv.DictReader(io.StringIO((built.site / "api/recipes.csv").read_text()))}
    assert "launch" not in rows[SEED_ID]
    assert {recipe_id: rows[recipe_id]["readiness"] for recipe_id in (SEED_ID, NOT_PUBLISHED_ID)} == {
        SEED_ID: "as-run",
        NOT_PUBLISHED_ID: "not-published",
    }
    record = json.loads((built.site / f"api/recipes/{MEGATRON_ID}.json").read_text())
    [documented] = record["launches"]
    assert documented["kind"] == "documented" and "label" not in documented
    assert documented["files"]["launch.sh"] == download(built, MEGATRON_ID, "launch.sh").decode("utf-8")
    assert [item["name"] for item in documented["inputs"] if item["required"]] == ["SLURM_ACCOUNT", "SLURM_PARTITION"]
    none = json.loads((built.site / f"api/recipes/{NOT_PUBLISHED_ID}.json").read_text())["launches"]
    assert none == [
        {
            "kind": "not-published",
            "reason": frozen(NOT_PUBLISHED_ID)["launch"]["reason"],
            "files": {},
            "inputs": [],
        }
    ]
    # The tables filter by readiness, not by the kind of launch.
    rows_shown = {
        attrs["data-recipe"]: (attrs.get("data-launch"), attrs.get("data-readiness"))
        for tag, attrs in parse(built.html("")).elements
        if tag == "tr" and "data-recipe" in attrs
    }
    assert rows_shown[SEED_ID] == (None, "as run by the author")
    assert rows_shown[NOT_PUBLISHED_ID] == (None, "not published")
    assert '"Any launch"' not in (built.site / "assets/facets.js").read_text()


# -- the documented launch.sh, run -----------------------------------------------------------------

HOSTILE = "$(touch PWNED) `touch PWNED` ${IFS} '; touch PWNED; ' \" \\"


def _documented_fields(**launch: Any) -> Any:
    """A recipe record with a documented launch, as the loader makes it from the schema."""
    data = frozen(MLPERF_ID)
    data["launch"] = {
        "kind": "documented",
        "source": data["launch"]["source"],
        "checkout": "git clone https://example.org/publisher.git\ncd publisher\n",
        "command": "./launcher.sh --data <path/to/data> --tool <path> --account \"$SLURM_ACCOUNT\" '<not/read>'\n",
        "env": {"NCCL_ALGO": "Ring,Tree", "SPACED": "a b", "QUOTED": HOSTILE},
        "inputs": [
            {"name": "<Slurm cluster>", "description": f"A cluster. {HOSTILE}\nrm -rf /", "origin": "yours"},
            {"name": "SLURM_ACCOUNT", "description": f"The account. {HOSTILE}", "origin": f"`sacctmgr` {HOSTILE}"},
            {"name": "<path/to/data>", "description": "The data.", "origin": "the README"},
            {"name": "<path>", "description": "A tool's path.", "origin": "anywhere"},
            {"name": "<not/read>", "description": "Single-quoted in the command: not read.", "origin": "nowhere"},
        ],
        **launch,
    }
    return Schema.load(REPO / "schema/recipe.schema.yaml").record(data)


def _run(script: str, folder: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """Runs `script` in `folder` with a stand-in `git` whose clone makes a launcher that writes down
    its arguments and environment."""
    bin_dir = folder / "bin"
    bin_dir.mkdir(exist_ok=True)
    launcher = bin_dir / "launcher.sh"
    launcher.write_text('#!/bin/bash\nprintf "%s\\n" "$@" > ../launched\nenv > ../environment\n', encoding="utf-8")
    fake_git = bin_dir / "git"
    fake_git.write_text(
        f'#!/bin/bash\nif [ "$1" = clone ]; then mkdir -p publisher && cp {launcher} publisher/; fi\n', encoding="utf-8"
    )
    for made in (launcher, fake_git):
        made.chmod(made.stat().st_mode | stat.S_IEXEC)
    (folder / "launch.sh").write_text(script, encoding="utf-8")
    environment = {"PATH": f"{bin_dir}:{os.environ['PATH']}", **env}
    return subprocess.run(["bash", "launch.sh"], cwd=folder, env=environment, capture_output=True, text=True)


def test_a_documented_launch_sh_stops_on_each_unset_input_and_runs_the_command_once_they_are_set(
    tmp_path: Path,
) -> None:
    [documented] = launches.launches(_documented_fields())
    script = documented.launch_sh.text
    assert [(item.written, item.name, item.required) for item in documented.inputs] == [
        ("<Slurm cluster>", "<Slurm cluster>", False),
        ("SLURM_ACCOUNT", "SLURM_ACCOUNT", True),
        ("<path/to/data>", "PATH_TO_DATA", True),
        ("<path>", "PATH_INPUT", True),  # never PATH itself
        ("<not/read>", "NOT_READ", True),  # single-quoted, but a placeholder all the same (issue 28)
    ]

    stopped = _run(script, tmp_path)
    assert stopped.returncode == 1
    assert stopped.stderr.startswith("launch.sh: SLURM_ACCOUNT is not set: The account. ")
    assert HOSTILE in stopped.stderr  # the description is printed as written, never run
    stopped = _run(script, tmp_path, SLURM_ACCOUNT="acct")
    assert stopped.returncode == 1 and stopped.stderr == "launch.sh: PATH_TO_DATA is not set: The data.\n"
    assert not (tmp_path / "launched").exists()

    values = {"SLURM_ACCOUNT": "acct", "PATH_TO_DATA": "/data dir", "PATH_INPUT": "/opt/tool", "NOT_READ": "x'y"}
    ran = _run(script, tmp_path, **values)
    assert ran.returncode == 0, ran.stderr
    # The command as the publisher wrote it, each placeholder the value set for its variable, one
    # word where the placeholder was one word (the data path keeps its space).
    assert (tmp_path / "launched").read_text().splitlines() == [
        "--data", "/data dir", "--tool", "/opt/tool", "--account", "acct", "x'y",
    ]  # fmt: skip
    environment = (tmp_path / "environment").read_text()
    assert "NCCL_ALGO=Ring,Tree\n" in environment and "SPACED=a b\n" in environment
    assert f"QUOTED={HOSTILE}\n" in environment
    assert not list(tmp_path.rglob("PWNED"))


def test_recipe_text_reaches_a_documented_launch_sh_only_as_comments_and_quoted_words() -> None:
    [documented] = launches.launches(_documented_fields(notes=HOSTILE))
    script = documented.launch_sh.text
    own = {"<Slurm cluster>", "SLURM_ACCOUNT", "<path/to/data>", "<path>", "<not/read>"}
    for line in script.splitlines():
        if "PWNED" not in line:
            continue
        if line.startswith("#"):
            continue  # a comment, wrapped: a line break in a description never ends it
        words = shlex.split(line)
        assert words in (
            ["require", "SLURM_ACCOUNT", f"The account. {HOSTILE}"],
            ["export", f"QUOTED={HOSTILE}"],
        ), line
    assert "\nrm -rf /" not in script
    assert own == {item.written for item in documented.inputs}


def test_a_recipe_with_its_own_script_and_a_documented_launch_downloads_both() -> None:
    both = dataclasses.replace(_documented_fields(), run="echo run\n")
    as_run, documented = launches.launches(both)
    assert (as_run.kind, as_run.launch_sh.name) == ("as-run", "launch.sh")
    assert (documented.kind, documented.launch_sh.name, documented.env_sh.name) == (
        "documented",
        "publisher-launch.sh",
        "publisher-env.sh",
    )


def test_show_says_how_a_recipe_is_launched(
    project: Project, imported: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    from openrecipes.cli.main import main

    project.add(MEGATRON_ID, imported)
    project.add_fixture(NOT_PUBLISHED_ID)
    assert main(["--root", str(project.root), "show", MEGATRON_ID]) == 0
    out = capsys.readouterr().out
    launch = out[out.index("\nLaunch: ") + 1 : out.index("\n\nChecks")].splitlines()
    commit = imported["launch"]["source"]["commit"]
    assert launch == [
        "Launch: The publisher's documented launch"
        " (how the publisher launches this configuration, not a log of the run)",
        f"  launch.sh  recipes/{MEGATRON_ID}/launch.sh",
        f"  env.sh     recipes/{MEGATRON_ID}/env.sh",
        f"  revision   NVIDIA-NeMo/Megatron-Bridge at {commit}",
        "  container  nvcr.io/nvidia/nemo:26.08",
        "  needs      <Slurm cluster>, SLURM_ACCOUNT, SLURM_PARTITION",
    ]
    assert main(["--root", str(project.root), "show", NOT_PUBLISHED_ID]) == 0
    out = capsys.readouterr().out
    reason = " ".join(frozen(NOT_PUBLISHED_ID)["launch"]["reason"].split())
    assert f"\nReadiness: not published\n  {reason}\n" in out
    assert "\nLaunch: " not in out


def test_what_lists_a_recipe_changes_with_its_kind_of_launch_and_not_with_its_text(project: Project) -> None:
    """`mkdocs serve` remakes the tables when a recipe's listing changes: the Readiness column goes
    by a launch's kind and whether there is a script, so those are listed; its texts are not."""
    from openrecipes.loader import load_catalogue

    def listing(recipe_id: str, data: dict[str, Any]) -> str:
        path = project.add(recipe_id, data)
        loaded = load_catalogue(project.root)
        path.unlink()
        assert len(loaded.entries) == 1, loaded.problems
        return loaded.entries[0].listing

    base = frozen(NOT_PUBLISHED_ID)
    reworded = {**base, "launch": {**base["launch"], "reason": base["launch"]["reason"] + " Reworded."}}
    with_script = {**base, "run": "torchrun train.py\n"}
    assert listing(NOT_PUBLISHED_ID, base) == listing(NOT_PUBLISHED_ID, reworded)
    assert listing(NOT_PUBLISHED_ID, base) != listing(NOT_PUBLISHED_ID, with_script)
    documented = frozen(TORCHTITAN_ID)
    edited = {**documented, "launch": {**documented["launch"], "notes": "Edited."}}
    none = {**documented, "launch": {"kind": "not-published", "reason": "The report names no command."}}
    assert listing(TORCHTITAN_ID, documented) == listing(TORCHTITAN_ID, edited)
    assert listing(TORCHTITAN_ID, documented) != listing(TORCHTITAN_ID, none)
