"""The `openrecipes` command: validate, new, list, show, diff and import, in-process and as a real process."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import REPO, SEED_DATA, SEED_ID, SEED_PATH, Project, copy_project

from openrecipes import fmt
from openrecipes.cli import main
from openrecipes.loader import load_catalogue
from openrecipes.reading.gitrev import Repository
from openrecipes.reading.placeholders import SchemaWalker, is_placeholder
from openrecipes.reading.schema import Schema
from openrecipes.site import export, facts
from openrecipes_tools.synthetic import recipe_data, yaml_text

SEED_FILE = f"recipes/{SEED_ID}.yaml"
COMMANDS = ("validate", "new", "list", "show", "diff", "import")


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return code, out, err


def broken_seed(project: Project) -> None:
    project.add(SEED_ID, SEED_PATH.read_text(encoding="utf-8").replace("  tp: 4\n", "  tp: four\n"))


def one_error_line(err: str) -> str:
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("openrecipes")
    return lines[0]


# --- help and usage ---------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_every_command_has_help(capsys: pytest.CaptureFixture[str], command: str) -> None:
    code, out, _ = run(capsys, *([command] if command else []), "--help")
    assert code == 0
    assert out.startswith(f"usage: openrecipes{' ' + command if command else ''}")
    if not command:
        assert all(name in out for name in COMMANDS)


def test_version_and_no_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "--version")[1].startswith("openrecipes ")
    code, out, _ = run(capsys)
    assert code == 0 and out.startswith("usage: openrecipes")


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["frobnicate"], "invalid choice: 'frobnicate'"),
        (["new", "--model", "X"], "the following arguments are required: --gpu, --count, --name"),
        (["new", "--model", "X", "--gpu", "H100", "--count", "0", "--name", "a"], "'0' is not a positive number"),
        (["show"], "the following arguments are required: ID"),
        (["list", "--bogus"], "unrecognized arguments: --bogus"),
    ],
)
def test_usage_errors_are_one_line_with_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], expected: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    line = one_error_line(err)
    assert expected in line and line.endswith("--help)")


def test_outside_a_project_says_so_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "validate")
    assert code == 2
    assert "no OpenRecipes project here" in one_error_line(err)
    code, _, err = run(capsys, "--root", tmp_path, "list")
    assert code == 2
    assert (
        one_error_line(err)
        == f"openrecipes: error: --root {tmp_path}: not an OpenRecipes project (it has no schema/recipe.schema.yaml)"
    )


def test_an_unexpected_failure_is_one_line_not_a_traceback(
    capsys: pytest.CaptureFixture[str], project: Project
) -> None:
    project.add_seed()
    (project.root / "schema/recipe.schema.yaml").write_text("type: [unclosed\n", encoding="utf-8")
    code, _, err = run(capsys, "--root", project.root, "validate")
    assert code == 1
    assert one_error_line(err).startswith("openrecipes: error: unexpected ")


# --- validate ---------------------------------------------------------------------------------


def test_validate_valid_recipes(capsys: pytest.CaptureFixture[str], project: Project) -> None:
    project.add_seed()
    project.add_synthetic("llama-3.1-70b/h100/a")
    code, out, err = run(capsys, "--root", project.root, "validate")
    # The seed's script reads variables it does not describe: a warning, not a failure.
    assert (code, err) == (0, "2 recipes valid, 1 warning\n")
    assert [line.split(": ", 3)[2] for line in out.splitlines()] == ["warning"]


def test_validate_prints_every_problem_located_and_a_summary(
    capsys: pytest.CaptureFixture[str], project: Project
) -> None:
    broken_seed(project)
    project.add("llama-3.1-70b/h100/b", "model: Llama 3.1 70B\n")
    code, out, err = run(capsys, "validate", "--root", project.root)
    assert code == 1
    lines = out.splitlines()
    assert f"{SEED_FILE}:58:7: $.layout.tp: 'four' is not of type 'integer'" in lines
    assert any(line.startswith("recipes/llama-3.1-70b/h100/b.yaml:") for line in lines)
    assert not any(line.startswith("::") for line in lines)
    assert err == f"{len(lines)} problems in 2 files\n"


def test_validate_under_github_actions_adds_annotations(
    capsys: pytest.CaptureFixture[str], project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken_seed(project)
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    code, out, err = run(capsys, "--root", project.root, "validate")
    assert code == 1
    assert out == (
        f"{SEED_FILE}:58:7: $.layout.tp: 'four' is not of type 'integer'\n"
        f"::error file={SEED_FILE},line=58,col=7::$.layout.tp: 'four' is not of type 'integer'\n"
    )
    assert err == "1 problem in 1 file\n"


@pytest.mark.site
def test_validate_given_files_and_folders_only(
    capsys: pytest.CaptureFixture[str], project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken_seed(project)
    good = project.add("llama-3.1-70b/h100/a", recipe_data(project.reference, name="a"))
    project.add("llama-3.1-70b/h100/b", recipe_data(project.reference, name="b"))
    # The project is found by walking up from the current folder.
    monkeypatch.chdir(good.parent)
    assert run(capsys, "validate", "a.yaml") == (0, "", "1 recipe valid\n")
    assert run(capsys, "validate", ".") == (0, "", "2 recipes valid\n")
    monkeypatch.chdir(project.root)
    code, out, _ = run(capsys, "validate", "recipes/qwen3.8-27b", "recipes/llama-3.1-70b/h100/a.yaml")
    assert code == 1 and out.startswith(SEED_FILE)
    # The project root itself means every recipe, not mkdocs.yml or the reference data.
    code, out, err = run(capsys, "validate", ".")
    assert code == 1 and err == "1 problem in 1 file\n"


def test_validate_of_a_folder_reports_what_is_no_recipe_as_a_whole_run_does(
    capsys: pytest.CaptureFixture[str], project: Project
) -> None:
    project.add_seed()
    folder = project.root / "recipes/qwen3.8-27b/h200"
    (folder / "attune-tp4-pp2.yaml~").write_text("old", encoding="utf-8")
    os.mkfifo(folder / "pipe.yaml")
    whole = run(capsys, "--root", project.root, "validate")
    assert whole[0] == 1 and "attune-tp4-pp2.yaml~: 'attune-tp4-pp2.yaml~' is not a recipe file" in whole[1]
    assert "pipe.yaml: is a named pipe (FIFO), not a recipe file" in whole[1]
    assert run(capsys, "--root", project.root, "validate", folder) == whole


def test_validate_a_missing_path_is_a_usage_error(capsys: pytest.CaptureFixture[str], project: Project) -> None:
    project.add_seed()
    code, out, err = run(capsys, "--root", project.root, "validate", "nope.yaml")
    assert (code, out) == (2, "")
    assert one_error_line(err) == "openrecipes: error: nope.yaml: no such file or folder"


def test_validate_a_file_outside_recipes_is_a_problem(
    capsys: pytest.CaptureFixture[str], project: Project, tmp_path: Path
) -> None:
    stray = tmp_path / "stray.yaml"
    stray.write_text(SEED_PATH.read_text(encoding="utf-8"), encoding="utf-8")
    code, out, _ = run(capsys, "--root", project.root, "validate", stray)
    assert code == 1
    assert "is not under recipes/" in out


# --- new --------------------------------------------------------------------------------------

NEW = ("new", "--model", "Llama 3.1 70B", "--gpu", "h100", "--count", "16", "--name", "mine")


def _schema_paths(walker: SchemaWalker, node: dict[str, Any], path: tuple) -> list[tuple]:
    node = walker.resolve(node)
    paths = []
    for name, child in node.get("properties", {}).items():
        paths.append((*path, name))
        paths += _schema_paths(walker, child, (*path, name))
    items = walker.resolve(node["items"]) if isinstance(node.get("items"), dict) else {}
    if "properties" in items:
        paths += _schema_paths(walker, items, (*path, 0))
    return paths


def _at(data: Any, path: tuple) -> Any:
    for part in path:
        data = data[part]
    return data


def _fill(value: Any, source: Any) -> Any:
    """The generated skeleton with each placeholder replaced by the synthetic recipe's value, or dropped."""
    missing = object()
    if isinstance(value, dict):
        filled = {}
        for key, item in value.items():
            given = source.get(key, missing) if isinstance(source, dict) else missing
            if is_placeholder(item) or (isinstance(item, list) and given is not missing):
                if given is not missing:
                    filled[key] = given
            elif isinstance(item, (dict, list)) and given is missing:
                continue  # an optional part the synthetic recipe leaves out (a patch, component tests)
            else:
                filled[key] = _fill(item, given)
        return filled
    return value


def test_new_writes_every_field_with_placeholders_that_fail_until_filled(
    capsys: pytest.CaptureFixture[str], project: Project
) -> None:
    code, out, err = run(capsys, "--root", project.root, *NEW, "--instance", "aws p5.48xlarge")
    assert (code, err) == (0, "")
    path = project.root / "recipes/llama-3.1-70b/h100/mine.yaml"
    assert f"Created {path}" in out or "Created recipes/llama-3.1-70b/h100/mine.yaml" in out
    assert "openrecipes validate" in out
    text = path.read_text(encoding="utf-8")
    data = yaml.safe_load(text)

    schema = yaml.safe_load((REPO / "schema/recipe.schema.yaml").read_text(encoding="utf-8"))
    walker = SchemaWalker(schema)
    for field_path in _schema_paths(walker, schema, ()):
        if field_path[0] not in ("deprecation", "disagreements"):  # written later, never in a new recipe
            _at(data, field_path)  # every other field of the schema is present (KeyError otherwise)
    assert not {"deprecation", "disagreements"} & set(data) and (data["schema_version"], data["status"]) == (
        2,
        "verified",
    )
    # What was given is filled in, spelled as the reference data spells it; what follows from it too.
    assert data["model"] == "Llama 3.1 70B"
    gpu = {key: value for key, value in data["gpu"].items() if not is_placeholder(value)}
    assert gpu == {"type": "H100", "count": 16, "per_node": 8, "instance": "AWS p5.48xlarge"}  # memory: the author's

    code, out, err = run(capsys, "--root", project.root, "validate", path)
    assert code == 1
    problems = out.splitlines()
    assert len(problems) > 80
    assert all("placeholder not filled in: " in line for line in problems), problems
    by_field = {line.split(": ", 2)[1]: line.split(": ", 2)[2] for line in problems}
    assert (
        by_field["$.layout.tp"]
        == "placeholder not filled in: Tensor-parallel degree. Write an integer ≥ 1 and ≤ 1,000,000"
    )
    tp_line = text.splitlines().index("  tp: 'FILL IN: Tensor-parallel degree'") + 1
    assert f"recipes/llama-3.1-70b/h100/mine.yaml:{tp_line}:7: $.layout.tp: " in "\n".join(problems)
    assert by_field["$.workload.precision"].endswith("Write one of 'bf16', 'fp16', 'fp8', 'mxfp8', 'nvfp4', 'mxfp4'")
    assert by_field["$.source.url"].endswith(
        "Write text. Links must be absolute http:// or https:// URLs without spaces or quotes."
    )  # required in version 2
    assert by_field["$.stack.cuda"].endswith(
        "Write text, or delete the line: the field is optional. Versions are text; quote them so YAML keeps "
        "them as written ('12.9', not 12.9)."
    )
    assert by_field["$.layout.recompute.granularity"].endswith("or delete $.layout.recompute: it is optional")
    assert by_field["$.patches[0].name"].endswith("Write text, or remove the item $.patches[0]")
    assert by_field["$.result.measured"].endswith(
        "Write an ISO date (YYYY-MM-DD), or delete the line: the field is optional"
    )

    synthetic = recipe_data(project.reference, name="mine", gpu="H100", count=16, instance="AWS p5.48xlarge")
    synthetic.update(schema_version=2, source={"url": "https://arxiv.org/abs/2610.17528v1", "where": "table 2"})
    path.write_text(yaml_text(_fill(data, synthetic)), encoding="utf-8")
    assert run(capsys, "--root", project.root, "validate", path) == (0, "", "1 recipe valid\n")


def test_new_never_overwrites(capsys: pytest.CaptureFixture[str], project: Project) -> None:
    assert run(capsys, "--root", project.root, *NEW)[0] == 0
    path = project.root / "recipes/llama-3.1-70b/h100/mine.yaml"
    path.write_text("mine\n", encoding="utf-8")
    code, out, err = run(capsys, "--root", project.root, *NEW)
    assert (code, out) == (2, "")
    assert "recipes/llama-3.1-70b/h100/mine.yaml already exists" in one_error_line(err)
    assert path.read_text(encoding="utf-8") == "mine\n"


def test_new_without_instance_or_per_node_leaves_them_to_fill_in(
    capsys: pytest.CaptureFixture[str], project: Project
) -> None:
    assert run(capsys, "--root", project.root, *NEW)[0] == 0
    data = yaml.safe_load((project.root / "recipes/llama-3.1-70b/h100/mine.yaml").read_text(encoding="utf-8"))
    assert is_placeholder(data["gpu"]["per_node"]) and is_placeholder(data["gpu"]["instance"])
    assert run(capsys, "--root", project.root, *NEW[:-1], "onprem", "--instance", "none", "--per-node", "4")[0] == 0
    data = yaml.safe_load((project.root / "recipes/llama-3.1-70b/h100/onprem.yaml").read_text(encoding="utf-8"))
    assert data["gpu"]["instance"] is None and data["gpu"]["per_node"] == 4
    assert is_placeholder(data["result"]["usd_per_million_tokens"])  # optional: priced at the basis when deleted


def test_new_published_writes_only_the_core_every_public_report_has(
    capsys: pytest.CaptureFixture[str], project: Project
) -> None:
    assert run(capsys, "--root", project.root, *NEW, "--status", "published", "--per-node", "8")[0] == 0
    path = project.root / "recipes/llama-3.1-70b/h100/mine.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    schema = Schema.load(REPO / "schema/recipe.schema.yaml").document
    assert set(data) == set(schema["required"]) | {"source"}  # source: required by schema version 2
    assert set(data["gpu"]) == {"type", "count", "per_node"}  # memory: optional, and the author's to state
    assert set(data["workload"]) == {"row_tokens", "global_batch", "precision"}
    assert set(data["layout"]) == {"tp", "pp"} and set(data["result"]) == {"tokens_per_s_per_gpu"}
    code, out, _ = run(capsys, "--root", project.root, "validate", path)
    assert code == 1 and len(out.splitlines()) == 8  # source url and where, GBS, sequence, precision, TP, PP, tokens/s


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        (("--name", "my run"), "--name 'my run': 'my run' cannot be part of a recipe id: use letters, digits"),
        (("--name", "README"), "--name 'README': 'README' cannot be part of a recipe id: the site makes index"),
        (("--model", "Llama/70B"), "--model 'Llama/70B': 'Llama/70B' does not have the expected form"),
    ],
)
def test_new_refuses_values_the_schema_refuses(
    capsys: pytest.CaptureFixture[str], project: Project, options: tuple[str, str], expected: str
) -> None:
    argv = list(NEW)
    argv[argv.index(options[0]) + 1] = options[1]
    code, _, err = run(capsys, "--root", project.root, *argv)
    assert code == 2
    assert expected in one_error_line(err)
    assert not list((project.root / "recipes").rglob("*.yaml"))


def test_new_notes_an_unknown_gpu(capsys: pytest.CaptureFixture[str], project: Project) -> None:
    code, out, err = run(capsys, "--root", project.root, *NEW[:4], "Z9000", *NEW[5:])
    assert code == 0 and out.startswith("Created ")
    assert (project.root / "recipes/llama-3.1-70b/z9000/mine.yaml").exists()
    assert err.startswith("note: GPU 'Z9000' is not in reference/gpus.yaml")


# --- list and show ----------------------------------------------------------------------------


def _three(project: Project) -> None:
    project.add_synthetic("llama-3.1-70b/h100/slow", tokens_per_s=800.0)
    project.add_synthetic("llama-3.1-70b/h100/fast", tokens_per_s=1100.0)
    project.add_synthetic("llama-3.1-70b/mi325x/onprem", gpu="MI325X", instance=None, tokens_per_s=700.0)


def _cells(header: str, line: str) -> dict[str, str]:
    """A row of `list` by its header: columns are two spaces apart at least, and no cell is empty."""
    return dict(zip(re.split(r" {2,}", header.strip()), re.split(r" {2,}", line.strip()), strict=True))


def test_list_is_in_table_order_with_aligned_columns(capsys: pytest.CaptureFixture[str], project: Project) -> None:
    _three(project)
    code, out, err = run(capsys, "--root", project.root, "list")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    # The columns the registry gives `openrecipes list` (facts.TERMINAL), after the id.
    assert re.split(r" {2,}", lines[0].strip()) == ["id", *(fact.terminal for fact in facts.TERMINAL)]
    assert [line.split()[0] for line in lines[1:]] == [
        "llama-3.1-70b/h100/fast",
        "llama-3.1-70b/h100/slow",
        "llama-3.1-70b/mi325x/onprem",
    ]
    fast = _cells(lines[0], lines[1])
    assert (
        fast.items()
        >= {
            "id": "llama-3.1-70b/h100/fast",
            "method": "not stated",  # every ranking is within one method; this one does not say
            "GPUs": "16 × H100",
            "layout": "TP8 PP2",
            "tokens/s/GPU": "1,100",
            "$/1M": "$0.9722",  # at the price basis: Nebius H100, $3.85 per GPU-hour
            # Against the peak named beside it; N is Llama 3.1 70B's less its input embedding.
            "MFU": f"{fmt.percent(6 * (70_553_706_496 - 128_256 * 8_192) * 1100 / 989e12)} vs BF16 peak",
            "MFU/BF16": fmt.percent(6 * (70_553_706_496 - 128_256 * 8_192) * 1100 / 989e12),
            "status": "verified",
        }.items()
    )
    assert _cells(lines[0], lines[3])["$/1M"] == "no public price"
    # Numbers are right-aligned: every row ends its $/1M cell where the header ends.
    end = lines[0].index("$/1M") + len("$/1M")
    assert all(line[end - 1] != " " and line[end : end + 1] in ("", " ") for line in lines)


@pytest.mark.site
def test_list_json_matches_the_site_api(capsys: pytest.CaptureFixture[str], project: Project) -> None:
    _three(project)
    project.add_seed()
    code, out, _ = run(capsys, "--root", project.root, "list", "--json")
    assert code == 0
    listed = json.loads(out)
    result = project.build()
    assert result.ok, result.errors()
    site = json.loads((result.site / "api/recipes.json").read_text(encoding="utf-8"))
    assert listed == site


def test_list_leaves_out_recipes_with_problems_and_says_so(
    capsys: pytest.CaptureFixture[str], project: Project
) -> None:
    broken_seed(project)
    project.add_synthetic("llama-3.1-70b/h100/a")
    code, out, err = run(capsys, "--root", project.root, "list")
    assert code == 0
    assert [line.split()[0] for line in out.splitlines()[1:]] == ["llama-3.1-70b/h100/a"]
    assert err == "1 file with problems not listed: run `openrecipes validate`\n"


def test_show_prints_every_section_of_the_page_and_the_checks(
    capsys: pytest.CaptureFixture[str], project: Project
) -> None:
    project.add_seed()
    code, out, err = run(capsys, "--root", project.root, "show", SEED_ID)
    assert (code, err) == (0, "")
    assert out.startswith("Qwen3.8-27B on 8 × H200 · TP4 PP2\n")
    assert re.search(rf"^page +recipes/{re.escape(SEED_ID)}/$", out, re.M)
    entry = load_catalogue(project.root).entries[0]
    derived = entry.derived
    # Every section the registry gives the recipe page, in its order, each fact as the page
    # writes it; a headline figure with its notes in brackets.
    blocks = {block.split("\n", 1)[0]: block for block in out.split("\n\n")}
    titles = [title for title in blocks if title.split(":")[0] in facts.SECTION_TITLES.values()]
    shown = [name for name in facts.SECTIONS if name not in facts.OPTIONAL_SECTIONS or facts.publishes(name, entry)]
    assert [title.split(":")[0] for title in titles] == [facts.SECTION_TITLES[name] for name in shown]
    for name, title in zip(shown, titles, strict=True):
        for fact, text in facts.rows(name, entry):
            notes = [note.text for note in fact.notes_of(entry)]
            written = " ".join((f"{text} ({'; '.join(notes)})" if notes else text).split())
            assert re.search(rf"^  {re.escape(fact.label)} +{re.escape(written)}$", blocks[title], re.M), written
    basis, own = fmt.usd(derived.usd_per_million_tokens), fmt.usd(derived.instance_usd_per_million_tokens)
    assert (
        f"  $ / 1M tokens     {basis} (price basis: Nebius H200, $4.50 per GPU-hour, the cheapest sourced H200;"
        f" at its own instance, AWS p5en.48xlarge: {own})"
    ) in out
    stated_mfu = fmt.percent(SEED_DATA["result"]["mfu"], 2)
    assert f"stated {stated_mfu}" in out and f"recomputed {fmt.percent(derived.mfu, 3)}" in out
    checks = out.split("\nChecks\n", 1)[1].splitlines()
    assert checks and all(line.split()[0] == "pass" for line in checks)


def test_show_json_is_the_site_record(capsys: pytest.CaptureFixture[str], project: Project) -> None:
    project.add_seed()
    code, out, _ = run(capsys, "--root", project.root, "show", f"recipes/{SEED_ID}.yaml", "--json")
    assert code == 0
    entry = load_catalogue(project.root).entries[0]
    assert json.loads(out) == json.loads(json.dumps(export.recipe_json(entry, f"recipes/{SEED_ID}/")))


def test_show_unknown_id_names_the_closest(capsys: pytest.CaptureFixture[str], project: Project) -> None:
    project.add_seed()
    code, out, err = run(capsys, "--root", project.root, "show", "attune-tp4-pp2")
    assert (code, out) == (2, "")
    assert one_error_line(err) == f"openrecipes: error: unknown recipe id 'attune-tp4-pp2'; did you mean {SEED_ID}?"
    code, _, err = run(capsys, "--root", project.root, "show", "zzz")
    assert code == 2
    assert one_error_line(err).endswith("`openrecipes list` shows every id")


def test_show_a_recipe_with_problems(capsys: pytest.CaptureFixture[str], project: Project) -> None:
    broken_seed(project)
    code, _, err = run(capsys, "--root", project.root, "show", SEED_ID)
    assert code == 1
    assert "has problems" in one_error_line(err)


# --- diff -------------------------------------------------------------------------------------

GIT_ENV = {
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.org",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.org",
}


def git(folder: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", *args], cwd=folder, env={**os.environ, **GIT_ENV}, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def commit(folder: Path, message: str) -> str:
    git(folder, "add", "-A")
    git(folder, "commit", "-q", "-m", message)
    return git(folder, "rev-parse", "HEAD")


@pytest.fixture
def repository(project: Project) -> Project:
    """The project in a git repository: base commit with the seed and three synthetic recipes."""
    project.add_seed()
    project.add_synthetic("llama-3.1-70b/h100/kept", tokens_per_s=900.0)
    project.add_synthetic("llama-3.1-70b/h100/faster", tokens_per_s=900.0)
    project.add_synthetic("llama-3.1-70b/h100/gone", tokens_per_s=900.0)
    git(project.root, "init", "-q", "--template=")
    commit(project.root, "base")
    git(project.root, "tag", "base")
    return project


def _change(project: Project) -> None:
    project.add_synthetic("llama-3.1-70b/h100/faster", tokens_per_s=1000.0)
    project.add_synthetic("llama-3.1-70b/h100/new", tokens_per_s=950.0)
    (project.root / "recipes/llama-3.1-70b/h100/gone.yaml").unlink()


def test_diff_between_two_revisions_as_json(capsys: pytest.CaptureFixture[str], repository: Project) -> None:
    _change(repository)
    head = commit(repository.root, "change")
    code, out, err = run(capsys, "--root", repository.root, "diff", "base", "HEAD", "--json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert data["base"] == {"revision": "base", "commit": git(repository.root, "rev-parse", "base")}
    assert data["head"] == {"revision": "HEAD", "commit": head}
    assert data["added"] == ["llama-3.1-70b/h100/new"]
    assert data["changed"] == ["llama-3.1-70b/h100/faster"]
    assert data["removed"] == ["llama-3.1-70b/h100/gone"]
    faster = next(recipe for recipe in data["recipes"] if recipe["change"] == "changed")
    assert faster["url"] == "recipes/llama-3.1-70b/h100/faster/"
    assert faster["before"]["tokens_per_s_per_gpu"] == 900.0 and faster["after"]["tokens_per_s_per_gpu"] == 1000.0
    assert faster["delta"]["tokens_per_s_per_gpu"] == 100.0
    assert faster["delta"]["usd_per_million_tokens"] == round(
        faster["after"]["usd_per_million_tokens"] - faster["before"]["usd_per_million_tokens"], 9
    )
    gone = next(recipe for recipe in data["recipes"] if recipe["change"] == "removed")
    assert gone["url"] is None and gone["after"] is None and gone["before"]["tokens_per_s_per_gpu"] == 900.0
    assert data["problems"] == {"base": [], "head": []}


def test_diff_against_the_working_tree_as_text(capsys: pytest.CaptureFixture[str], repository: Project) -> None:
    _change(repository)
    code, out, _ = run(capsys, "--root", repository.root, "diff", "base")
    assert code == 0
    base = git(repository.root, "rev-parse", "base")[:12]
    lines = out.splitlines()
    assert lines[0] == f"Recipes from base ({base}) to the working tree: 1 added, 1 changed, 1 removed"
    # MFU over N = Llama 3.1 70B's active parameters less its input embedding, at H100's BF16 peak.
    n = 70_553_706_496 - 128_256 * 8_192
    mfu = {tokens: fmt.percent(6 * n * tokens / 989e12) for tokens in (900, 950, 1000)}
    # Each MFU names the peak it is against.
    new = f"llama-3.1-70b/h100/new  method not stated · 950 tokens/s/GPU · $1.13 per 1M · MFU {mfu[950]} vs BF16 peak"
    assert lines[1] == f"  added    {new}"
    assert lines[2] == "  changed  llama-3.1-70b/h100/faster"
    assert lines[3] == "             tokens/s/GPU      900 → 1,000    +100 (+11.1%)"
    assert lines[4] == "             $/1M tokens       $1.19 → $1.07  −$0.1188 (−10.0%)"
    assert lines[5] == f"             MFU vs BF16 peak  {mfu[900]} → {mfu[1000]}  +4.2 pp"
    gone = f"llama-3.1-70b/h100/gone  method not stated · 900 tokens/s/GPU · $1.19 per 1M · MFU {mfu[900]} vs BF16 peak"
    assert lines[6] == f"  removed  {gone}"
    assert len(lines) == 7


def test_diff_reports_broken_recipes_without_failing(capsys: pytest.CaptureFixture[str], repository: Project) -> None:
    broken_seed(repository)
    repository.add("llama-3.1-70b/h100/bad", ": not yaml [\n")
    code, out, _ = run(capsys, "--root", repository.root, "diff", "base", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["added"] == ["llama-3.1-70b/h100/bad"] and data["changed"] == [SEED_ID]
    seed = next(recipe for recipe in data["recipes"] if recipe["id"] == SEED_ID)
    result = SEED_DATA["result"]
    recomputed = 6 * result["active_params"]["count"] * result["tokens_per_s_per_gpu"] / 989e12
    assert seed["before"]["mfu"] == recomputed and seed["after"] is None
    assert seed["problems"] == [f"{SEED_FILE}:58:7: $.layout.tp: 'four' is not of type 'integer'"]
    assert len(data["problems"]["head"]) == 2
    code, out, _ = run(capsys, "--root", repository.root, "diff", "base")
    assert f"  changed  {SEED_ID}  1 problem (listed below)" in out
    assert f"  {SEED_FILE}:58:7: $.layout.tp: 'four' is not of type 'integer'" in out


def test_diff_of_a_project_in_a_subfolder_of_the_repository(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, reference: Any
) -> None:
    repo = tmp_path / "monorepo"
    root = copy_project(repo / "site")
    seed = root / SEED_FILE
    seed.parent.mkdir(parents=True)
    shutil.copy2(SEED_PATH, seed)
    git(repo, "init", "-q", "--template=")
    commit(repo, "base")
    Project(root, reference).add_synthetic("llama-3.1-70b/h100/new")
    commit(repo, "add")
    code, out, _ = run(capsys, "--root", root, "diff", "HEAD~1", "HEAD", "--json")
    assert code == 0
    data = json.loads(out)
    assert (data["added"], data["changed"], data["removed"]) == (["llama-3.1-70b/h100/new"], [], [])


def test_diff_reads_no_link_of_a_revision(
    capsys: pytest.CaptureFixture[str], repository: Project, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    # Valid recipes for where the links are, so that following a link would show as an added recipe.
    (outside / "linked.yaml").write_text(
        yaml_text(recipe_data(repository.reference, name="linked"), "llama-3.1-70b/h100/linked"), encoding="utf-8"
    )
    folder = repository.root / "recipes/llama-3.1-70b/h100"
    (folder / "linked.yaml").symlink_to(outside / "linked.yaml")
    (folder / "relative.yaml").symlink_to("kept.yaml")
    (repository.root / "recipes/llama-3.1-70b/b200").symlink_to(outside, target_is_directory=True)
    (repository.root / "reference/gpus.yaml").unlink()
    (repository.root / "reference/gpus.yaml").symlink_to(REPO / "reference/gpus.yaml")
    head = commit(repository.root, "links")

    destination = tmp_path / "export"
    unread = Repository.at(repository.root).export(head, destination)
    assert [(problem.path, problem.message) for problem in unread] == [
        (path, "is a symbolic link; it was not read: commit the file itself")
        for path in (
            "recipes/llama-3.1-70b/b200",
            "recipes/llama-3.1-70b/h100/linked.yaml",
            "recipes/llama-3.1-70b/h100/relative.yaml",
            "reference/gpus.yaml",
        )
    ]
    assert [path for path in destination.rglob("*") if path.is_symlink()] == []
    assert (destination / "recipes/llama-3.1-70b/h100/kept.yaml").is_file()
    assert not (destination / "reference/gpus.yaml").exists()

    # The working tree as the base: every other file is the same, the links are problems of HEAD.
    git(repository.root, "checkout", "-q", "base")
    code, out, err = run(capsys, "--root", repository.root, "diff", "HEAD", head, "--json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert (data["added"], data["changed"], data["removed"]) == ([], [], [])
    assert [problem for problem in data["problems"]["head"] if "symbolic link" in problem] == [
        f"{problem.path}: {problem.message}" for problem in unread
    ]


def test_diff_reads_a_revision_as_committed_whatever_its_gitattributes(
    capsys: pytest.CaptureFixture[str], repository: Project
) -> None:
    kept = repository.root / "recipes/llama-3.1-70b/h100/kept.yaml"
    kept.write_text("# $Format:%H$\n" + kept.read_text(encoding="utf-8"), encoding="utf-8")
    (repository.root / ".gitattributes").write_text(
        "*.yaml export-subst\nrecipes/llama-3.1-70b/h100/gone.yaml export-ignore\n", encoding="utf-8"
    )
    commit(repository.root, "attributes")
    code, out, _ = run(capsys, "--root", repository.root, "diff", "HEAD", "--json")
    assert code == 0
    data = json.loads(out)
    # Placeholders stay as committed (the working tree has them too), so nothing changed ...
    assert (data["changed"], data["removed"]) == ([], [])
    # ... but a file that git archive leaves out cannot be read (so it looks added), and says so.
    assert data["added"] == ["llama-3.1-70b/h100/gone"]
    assert data["problems"]["base"] == [
        "recipes/llama-3.1-70b/h100/gone.yaml: is marked export-ignore in .gitattributes, so git archive leaves it out"
    ]


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (("nope",), "unknown revision 'nope'"),
        (("base", "nope"), "unknown revision 'nope'"),
        (("--upload-pack=x",), "'--upload-pack=x' is not a revision"),
    ],
)
def test_diff_bad_revisions_are_one_line(
    capsys: pytest.CaptureFixture[str], repository: Project, argv: tuple[str, ...], expected: str
) -> None:
    code, out, err = run(
        capsys, "--root", repository.root, "diff", *(["--", *argv] if argv[0].startswith("-") else argv)
    )
    assert (code, out) == (2, "")
    assert expected in one_error_line(err)


def test_diff_outside_git_is_one_line(capsys: pytest.CaptureFixture[str], project: Project) -> None:
    project.add_seed()
    code, _, err = run(capsys, "--root", project.root, "diff", "HEAD")
    assert code == 2
    assert "is not in a git repository" in one_error_line(err)


# --- as a real process ------------------------------------------------------------------------


def _process(*argv: str | Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "openrecipes.cli", *map(str, argv)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env={**os.environ, **(env or {})},
        check=False,
    )


def test_validate_of_a_large_catalogue_shares_it_with_a_second_process_and_reports_the_same(project: Project) -> None:
    # Past loader._PARALLEL_FROM files, a real process (no other threads) forks a second one for
    # half of them: a problem in either half, and ids that differ only in case across the halves.
    for index in range(80):
        project.add_synthetic(f"llama-3.1-70b/h100/r{index:02d}", tokens_per_s=900.0 + index)
    project.add_synthetic("llama-3.1-70b/h100/R79", tokens_per_s=700.0)
    for name in ("r00", "r70"):
        path = project.root / f"recipes/llama-3.1-70b/h100/{name}.yaml"
        path.write_text(path.read_text(encoding="utf-8").replace("  tp: 8\n", "  tp: eight\n"), encoding="utf-8")
    done = _process("--root", project.root, "validate")
    expected = [str(problem) for problem in load_catalogue(project.root).problems]
    assert len(expected) >= 4 and any("differs only in letter case" in line for line in expected)
    assert (done.returncode, done.stdout.splitlines()) == (1, expected)


def test_the_command_as_a_process(project: Project) -> None:
    broken_seed(project)
    done = _process("--root", project.root, "validate", env={"GITHUB_ACTIONS": "true"})
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        f"{SEED_FILE}:58:7: $.layout.tp: 'four' is not of type 'integer'",
        f"::error file={SEED_FILE},line=58,col=7::$.layout.tp: 'four' is not of type 'integer'",
    ]
    assert done.stderr == "1 problem in 1 file\n"
    done = _process("--root", project.root, "show", "no/such/id")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    installed = Path(sys.executable).parent / "openrecipes"
    if installed.exists():  # the console script of the editable install
        done = subprocess.run([installed, "--version"], capture_output=True, text=True, check=False)
        assert done.returncode == 0 and done.stdout.startswith("openrecipes ")
