"""Readiness (issue 28, item 7): whether a reader can run a recipe as it stands, one label decided in
one place (checking/readiness.py) and carried by `Derived.readiness` to every page, export and command.

Every state is made here from the frozen recipes: the seed's script as run, a torchtitan report
without a launch, NVIDIA's MLPerf launch (whose configuration states neither the row's global
batch nor its sequence length), and Dell's, completed with those two so that only its dry run
decides, under ids of its own for each outcome of the dry run. The dry runs are recorded as
`openrecipes launch check --record` records them (reading/dryruns.py), for the launch.sh each
recipe makes. PREPARE is Dell's as imported, with the submission's preparation; the others are without it.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
import yaml
from conftest import FIXTURES, SEED_DATA, SEED_ID, Project

from openrecipes.checking import launchscript
from openrecipes.checking.readiness import LABELS, NO_SOURCE_COMMAND, Readiness, configuration_gaps
from openrecipes.cli.main import main
from openrecipes.loader import Entry, load_catalogue
from openrecipes.reading import dryruns

DELL = "llama-2-70b/h100/mlperf-4.1-dell-xe9640x4h100-sxm-80gb"
"""Runs as documented: its dry run passed."""
NVIDIA = "llama-2-70b/h100/mlperf-4.0-nvidia-fp8-8gpu"
"""Differs from the row; of the same model, GPU type and method as DELL, and faster: the cheaper."""
NOT_RUN = "llama-2-70b/h100/x-dell-not-run"
STALE = "llama-2-70b/h100/x-dell-stale"
FAILS = "llama-2-70b/h100/x-dell-fails"
PREPARE = "llama-2-70b/h100/x-dell-prepare"
INCOMPLETE = "llama-2-70b/h100/x-dell-incomplete"
"""Dell's, its dry run passed, but its configuration sources a file not at the commit (`launch.missing`)."""
NONE = "llama-3.1-8b/h100-96gb/tt-202412-torchtitan-fp8-8gpu-fsdp8-cp1"

STATES = {
    SEED_ID: "as-run",
    NONE: "not-published",
    NVIDIA: "differs",
    DELL: "runs",
    NOT_RUN: "not-yet-run",
    STALE: "not-yet-run",
    FAILS: "fails-dry-run",
    PREPARE: "needs-preparation",
    INCOMPLETE: "incomplete",
}
DELL_CONFIG = (
    "Dell/benchmarks/llama2_70b_lora/implementations/nemo/configs/config_XE9640x4H100-SXM-80GB_1x4x2xtp4pp1cp1.sh"
)
MISSING = [
    {
        "path": "Dell/benchmarks/llama2_70b_lora/implementations/nemo/configs/config_common.sh",
        "file": DELL_CONFIG,
        "line": 3,
        "what": "sourced by config_XE9640x4H100-SXM-80GB_1x4x2xtp4pp1cp1.sh",
    },
    {
        "path": "Dell/benchmarks/llama2_70b_lora/implementations/nemo/Dockerfile",
        "file": "Dell/benchmarks/llama2_70b_lora/implementations/nemo/README.md",
        "what": "the Dockerfile the launch's image is built from",
    },
]

REPOSITORY = "mlcommons/training_results_v4.1"
COMMIT = "8821c7037ffd06e3775398fd39361a4c591d2235"
PROBLEM = "sbatch is handed run.sub, which is not in training_results_v4.1/Dell/benchmarks/llama2_70b_lora"
PASSED = (
    f"The publisher's documented launch passed its dry run over the files of {REPOSITORY} at {COMMIT[:12]}: the "
    "launcher received the documented command, and every input it needs is declared and stops it when unset."
)
SEED_INPUTS = (
    "$NVLINK_COUNT",
    "<slime entry module>",
    "$MODEL_ARGS",
    "$HF_CKPT",
    "$TORCH_DIST",
    "$SFT_DATA",
    "$PROFILE_DIR",
)


def frozen(recipe_id: str) -> dict[str, Any]:
    return yaml.safe_load((FIXTURES / "recipes" / f"{recipe_id}.yaml").read_text(encoding="utf-8"))


def dell(**sets: Any) -> dict[str, Any]:
    """Dell's recipe with its global batch and sequence length set as the row states them (the frozen copy
    states them already: this holds whatever the copy says)."""
    data = frozen(DELL)
    data["launch"]["sets"].update({"gbs": 8, "seq_length": 8192, **sets})
    # Without the submission's preparation, which PREPARE keeps.
    data["launch"].pop("preparation", None)
    files = data["launch"]["source"]["files"]
    data["launch"]["source"]["files"] = [item for item in files if not item["what"].startswith("preparation: ")]
    return data


def explained(data: dict[str, Any]) -> dict[str, Any]:
    """A launch that sets another value than the row fails the Launch values check, unless the
    published recipe says why (`disagreements`)."""
    note = "The configuration at the commit sets a tensor-parallel degree of 2; the results ran 4."
    return {**data, "disagreements": [{"check": "Launch values", "note": note}]}


def launch_sh(entry: Entry) -> str:
    (documented,) = [one for one in launchscript.launches(entry.recipe.fields) if one.kind == "documented"]
    assert documented.launch_sh is not None
    return documented.launch_sh.text


def record(entry: Entry, passed: bool = True, problems: tuple[str, ...] = (), ran: str | None = None) -> Any:
    """A dry run as `launch check --record` writes it, of the recipe's launch.sh (or of `ran`)."""
    script = launch_sh(entry) if ran is None else ran
    launcher = "sbatch -N 1 -t UNLIMITED run.sub" if passed else None
    return dryruns.DryRunRecord(
        entry.recipe.id, dryruns.script_sha256(script), REPOSITORY, COMMIT, passed, problems, launcher, "copies"
    )


def add_every_state(project: Project) -> dict[str, Entry]:
    """The catalogue of STATES, with its dry runs recorded in checks/dry-runs.yaml; its entries by id."""
    project.add_seed()
    project.add_fixture(NONE)
    project.add_fixture(NVIDIA)
    for recipe_id in (DELL, NOT_RUN, STALE, FAILS):
        project.add(recipe_id, dell())
    project.add(PREPARE, frozen(DELL))
    project.add(INCOMPLETE, {**dell(), "launch": {**dell()["launch"], "missing": MISSING}})
    entries = entries_of(project)
    dryruns.write(
        project.root,
        [
            record(entries[DELL]),
            record(entries[PREPARE]),
            # Passed: the stand-ins never read what the image holds; the missing files decide first.
            record(entries[INCOMPLETE]),
            record(entries[FAILS], passed=False, problems=(PROBLEM,)),
            record(entries[STALE], ran="#!/usr/bin/env bash\n# an earlier launch.sh\n"),
            # A record of a recipe whose launch is not this row's: the label goes by the row first.
            record(entries[NVIDIA]),
        ],
    )
    return entries_of(project)


def entries_of(project: Project) -> dict[str, Entry]:
    catalogue = load_catalogue(project.root)
    assert catalogue.problems == (), catalogue.problems
    return {entry.recipe.id: entry for entry in catalogue.entries}


def readiness_of(project: Project, recipe_id: str, data: dict[str, Any]) -> Readiness:
    project.add(recipe_id, data)
    return entries_of(project)[recipe_id].derived.readiness


# -- each state, with exactly what it says ------------------------------------------------------


@pytest.fixture
def states(project: Project) -> dict[str, Readiness]:
    return {recipe_id: entry.derived.readiness for recipe_id, entry in add_every_state(project).items()}


def test_every_recipe_has_one_readiness(states: dict[str, Readiness]) -> None:
    assert {recipe_id: readiness.key for recipe_id, readiness in states.items()} == STATES
    assert {key: LABELS[key] for key in set(STATES.values())} == {
        "runs": "runs as documented",
        "needs-preparation": "needs preparation",
        "incomplete": "incomplete",
        "differs": "differs from the row",
        "as-run": "as run by the author",
        "not-yet-run": "not yet run",
        "fails-dry-run": "fails its dry run",
        "not-published": "not published",
    }
    assert [recipe_id for recipe_id, readiness in states.items() if readiness.runs] == [DELL, PREPARE]


def test_a_documented_launch_whose_dry_run_passed_runs_as_documented(states: dict[str, Readiness]) -> None:
    assert states[DELL] == Readiness("runs", PASSED)
    assert states[DELL].label == "runs as documented"


def test_one_with_the_publishers_preparation_needs_it_and_lists_each_step(states: dict[str, Readiness]) -> None:
    assert states[PREPARE] == Readiness(
        "needs-preparation",
        f"{PASSED} The publisher lists steps to take first.",
        ("3.1 Build the container", "3.2 Download dataset and model; 3.3 Preprocess dataset and model"),
        "Preparation",
    )


def test_a_launch_not_known_to_run_is_not_yet_run_or_fails_its_dry_run(states: dict[str, Readiness]) -> None:
    assert states[NOT_RUN] == Readiness(
        "not-yet-run",
        "No dry run of the publisher's documented launch is recorded (openrecipes launch check --record): it is "
        "not yet known to run.",
    )
    assert states[STALE] == Readiness(
        "not-yet-run",
        f"The recorded dry run (over the files of {REPOSITORY} at {COMMIT[:12]}) ran an earlier launch.sh: this one "
        "is not yet known to run.",
    )
    assert states[FAILS] == Readiness(
        "fails-dry-run",
        f"The publisher's documented launch failed its dry run over the files of {REPOSITORY} at {COMMIT[:12]}.",
        (PROBLEM,),
        "What the dry run found",
    )
    assert not any(states[recipe_id].runs for recipe_id in (NOT_RUN, STALE, FAILS))


def test_a_launch_that_needs_files_not_at_its_commit_is_incomplete_and_lists_each(
    states: dict[str, Readiness],
) -> None:
    folder = "Dell/benchmarks/llama2_70b_lora/implementations/nemo"
    assert states[INCOMPLETE] == Readiness(
        "incomplete",
        f"The publisher's documented launch needs 2 files that are not in {REPOSITORY} at {COMMIT[:12]}: it cannot "
        "run as written.",
        (
            f"{folder}/configs/config_common.sh: sourced by config_XE9640x4H100-SXM-80GB_1x4x2xtp4pp1cp1.sh "
            f"({folder}/configs/config_XE9640x4H100-SXM-80GB_1x4x2xtp4pp1cp1.sh line 3)",
            f"{folder}/Dockerfile: the Dockerfile the launch's image is built from ({folder}/README.md)",
        ),
        "What the launch needs that is not there",
    )
    assert not states[INCOMPLETE].runs


def test_a_launch_that_leaves_out_values_the_row_states_differs_from_the_row(states: dict[str, Readiness]) -> None:
    """NVIDIA's configuration states neither the global batch, the sequence length nor the precision: its dry run
    passed (recorded), and still it is not known to give this row's figures."""
    assert states[NVIDIA] == Readiness(
        "differs",
        "The publisher's documented launch does not state 3 values the row states: run as documented, it is not "
        "known to be this row's configuration, nor to give its figures.",
        (
            "GBS: the row states 8; the launch does not state it",
            "sequence length: the row states 8,192; the launch does not state it",
            "precision: the row states fp8; the launch does not state it",
        ),
        "Where the launch and the row part",
    )


def test_a_launch_that_sets_another_value_differs_and_says_both(project: Project) -> None:
    data = frozen(DELL)
    data["launch"]["sets"].update({"tp": 2, "gbs": 8})
    assert readiness_of(project, DELL, explained(data)) == Readiness(
        "differs",
        "The publisher's documented launch sets 1 value other than the row's: run as documented, it is not known "
        "to be this row's configuration, nor to give its figures.",
        ("TP: the launch sets 2, the row states 4",),
        "Where the launch and the row part",
    )


def test_configuration_gaps_are_the_launch_values_check_s_and_the_row_s_values_sets_leaves_out(
    project: Project,
) -> None:
    project.add(DELL, dell())
    project.add(NVIDIA, frozen(NVIDIA))
    entries = entries_of(project)
    assert configuration_gaps(entries[DELL].recipe.fields) == ()
    assert [gap.text for gap in configuration_gaps(entries[NVIDIA].recipe.fields)] == [
        "GBS: the row states 8; the launch does not state it",
        "sequence length: the row states 8,192; the launch does not state it",
        "precision: the row states fp8; the launch does not state it",
    ]
    # A value the row leaves out is never a gap, whether the launch states it (MBS) or not (ETP).
    data = dell()
    del data["layout"]["rows_per_microbatch"]
    project.add(DELL, data)
    assert configuration_gaps(entries_of(project)[DELL].recipe.fields) == ()


def test_the_authors_script_is_as_run_with_the_inputs_it_does_not_describe(states: dict[str, Readiness]) -> None:
    assert states[SEED_ID] == Readiness(
        "as-run",
        "The author's own script, exactly as the run was made; nothing checks that it runs anywhere else, and it "
        "reads 7 inputs the author does not describe.",
        SEED_INPUTS,
        "Inputs the author does not describe",
    )


def test_an_authors_script_that_describes_its_inputs_lists_none(project: Project) -> None:
    data = copy.deepcopy(SEED_DATA)
    data["inputs"] = [{"name": written.removeprefix("$"), "description": "Provided."} for written in SEED_INPUTS]
    assert readiness_of(project, SEED_ID, data) == Readiness(
        "as-run",
        "The author's own script, exactly as the run was made; nothing checks that it runs anywhere else. It "
        "describes every input it reads.",
    )


def test_a_script_as_run_comes_before_a_documented_launch_and_differing_before_a_dry_run(project: Project) -> None:
    both = {**dell(), "run": "torchrun train.py\n"}
    assert readiness_of(project, DELL, both).key == "as-run"
    project.add(DELL, explained(dell(tp=2)))
    dryruns.write(project.root, [record(entries_of(project)[DELL], passed=False, problems=(PROBLEM,))])
    assert entries_of(project)[DELL].derived.readiness.key == "differs"


def test_no_launch_is_not_published_with_the_publishers_reason(states: dict[str, Readiness], project: Project) -> None:
    reason = frozen(NONE)["launch"]["reason"]
    assert states[NONE] == Readiness("not-published", reason)
    without = frozen(NONE)
    del without["launch"]
    assert readiness_of(project, NONE, without) == Readiness("not-published", NO_SOURCE_COMMAND)


# -- `openrecipes show` and `list` ----------------------------------------------------------------


def test_show_gives_the_label_why_and_its_list(project: Project, capsys: pytest.CaptureFixture[str]) -> None:
    add_every_state(project)
    assert main(["--root", str(project.root), "show", FAILS]) == 0
    out = capsys.readouterr().out
    assert "\nreadiness    fails its dry run\n" in out
    assert out[out.index("\nReadiness: ") + 1 : out.index("\nLaunch: ")].splitlines() == [
        "Readiness: fails its dry run",
        f"  The publisher's documented launch failed its dry run over the files of {REPOSITORY} at {COMMIT[:12]}.",
        "  What the dry run found:",
        f"  - {PROBLEM}",
    ]
    assert main(["--root", str(project.root), "show", SEED_ID]) == 0
    out = capsys.readouterr().out
    assert out[out.index("\nReadiness: ") + 1 : out.index("\nLaunch: ")].splitlines() == [
        "Readiness: as run by the author",
        "  The author's own script, exactly as the run was made; nothing checks that it runs anywhere else, and it "
        "reads 7 inputs the author does not describe.",
        "  Inputs the author does not describe:",
        *(f"  - {written}" for written in SEED_INPUTS),
    ]
    # A recipe without a launch says why once, as its readiness.
    assert main(["--root", str(project.root), "show", NONE]) == 0
    out = capsys.readouterr().out
    reason = " ".join(frozen(NONE)["launch"]["reason"].split())
    assert out[out.index("\nReadiness: ") + 1 : out.index("\n\nChecks")].splitlines() == [
        "Readiness: not published",
        f"  {reason}",
    ]


def test_list_has_a_readiness_column(project: Project, capsys: pytest.CaptureFixture[str]) -> None:
    add_every_state(project)
    assert main(["--root", str(project.root), "list"]) == 0
    header, *rows = capsys.readouterr().out.splitlines()
    assert header.split()[-1] == "readiness"
    shown = {row.split()[0]: row for row in rows}
    for recipe_id, key in STATES.items():
        assert shown[recipe_id].endswith(f"  {LABELS[key]}"), shown[recipe_id]


# -- what lists a recipe --------------------------------------------------------------------------


def test_an_edit_of_a_page_only_field_that_changes_the_label_changes_what_lists_it(project: Project) -> None:
    """`mkdocs serve` remakes the tables and the matrix when a recipe's listing changes: the label is
    made of page-only fields (`launch.sets` here), so the listing holds the label itself."""
    project.add(DELL, dell())
    dryruns.write(project.root, [record(entries_of(project)[DELL])])
    runs = entries_of(project)[DELL]
    project.add(DELL, explained(dell(tp=2)))
    differs = entries_of(project)[DELL]
    assert (runs.derived.readiness.key, differs.derived.readiness.key) == ("runs", "differs")
    assert runs.listing != differs.listing
    # A page-only edit that leaves the label as it is lists the recipe as before.
    noted = dell()
    noted["launch"]["notes"] = "Edited."
    project.add(DELL, noted)
    assert entries_of(project)[DELL].listing == runs.listing
