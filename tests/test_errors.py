"""Bad recipes: each mistake gives one located, explained line; all of them in one run; no traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import SEED_PATH, Project

from openrecipes.catalogue import load_catalogue

SEED = SEED_PATH.read_text(encoding="utf-8")
ID = "qwen3.8-27b/h200/attune-tp4-pp2"
FILE = f"recipes/{ID}.yaml"

CORPUS = Path(__file__).parent / "corpus"
CASES = sorted(path.stem for path in CORPUS.glob("*.yaml"))


def _expected(name: str, file: str = FILE) -> list[str]:
    return (CORPUS / f"{name}.expected").read_text(encoding="utf-8").replace("{file}", file).splitlines()


@pytest.mark.parametrize("name", CASES)
def test_each_broken_recipe_in_the_corpus_gives_its_exact_problems(
    project: Project, name: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)  # where a YAML tag's command would leave its mark if it ran
    project.add(ID, (CORPUS / f"{name}.yaml").read_bytes())
    assert [str(problem) for problem in load_catalogue(project.root).problems] == _expected(name)
    assert not (tmp_path / "openrecipes-tag-ran").exists()


def test_every_class_of_failure_has_a_corpus_case() -> None:
    for required in (
        "syntax-error",
        "duplicate-key",
        "unknown-key",
        "wrong-type",
        "missing-required-key",
        "zero-count",
        "negative-batch",
        "mfu-as-a-percent",
        "nan",
        "infinity",
        "not-utf-8",
        "empty-file",
        "list-at-the-top",
        "python-tag",
        "alias-bomb",
    ):
        assert required in CASES


def test_oversized_file(project: Project) -> None:
    project.add(ID, SEED + "\n# " + "x" * 300_000 + "\n")
    assert [str(p) for p in load_catalogue(project.root).problems] == [
        f"{FILE}: file is 306,348 bytes; a recipe may be at most 262,144 bytes"
    ]


def test_files_outside_the_layout_symlinks_and_case_collisions(project: Project, tmp_path: Path) -> None:
    project.add_seed()
    project.add_seed("Qwen3.8-27B/H200/attune-tp4-pp2")
    (project.root / "recipes/qwen3.8-27b/loose.yaml").write_text(SEED)
    (project.root / "recipes/qwen3.8-27b/h200/old.yml").write_text(SEED)
    (project.root / "recipes/qwen3.8-27b/h200/bad name.yaml").write_text(SEED)
    outside = tmp_path / "elsewhere.yaml"
    outside.write_text(SEED)
    (project.root / "recipes/qwen3.8-27b/h200/link.yaml").symlink_to(outside)
    problems = [str(p) for p in load_catalogue(project.root).problems]
    assert problems == [
        "recipes/Qwen3.8-27B/H200/attune-tp4-pp2.yaml: its id 'Qwen3.8-27B/H200/attune-tp4-pp2' differs only in "
        "letter case from recipes/qwen3.8-27b/h200/attune-tp4-pp2.yaml",
        "recipes/qwen3.8-27b/h200/attune-tp4-pp2.yaml: its id 'qwen3.8-27b/h200/attune-tp4-pp2' differs only in "
        "letter case from recipes/Qwen3.8-27B/H200/attune-tp4-pp2.yaml",
        "recipes/qwen3.8-27b/h200/bad name.yaml: 'bad name' cannot be part of a recipe id: use letters, digits, "
        "'.', '_' and '-', starting with a letter or digit",
        "recipes/qwen3.8-27b/h200/link.yaml: is a symbolic link to a file outside recipes/; commit the recipe itself",
        "recipes/qwen3.8-27b/h200/old.yml: recipe files end in '.yaml' (not '.yml'): rename it",
        "recipes/qwen3.8-27b/loose.yaml: is not at recipes/<model>/<gpu>/<name>.yaml (1 folders deep instead of 2)",
    ]


def test_folder_must_match_the_model_and_gpu(project: Project) -> None:
    project.add_seed("qwen3.8-27b/h100/attune-tp4-pp2")
    assert [str(p) for p in load_catalogue(project.root).problems] == [
        "recipes/qwen3.8-27b/h100/attune-tp4-pp2.yaml:6:9: $.gpu.type: 'H200' is filed under the folder 'h100'; "
        "move the file to recipes/qwen3.8-27b/h200/attune-tp4-pp2.yaml or correct the value"
    ]


def test_a_generated_page_never_replaces_a_hand_written_one(project: Project) -> None:
    project.add_seed()
    page = project.root / "docs/recipes/qwen3.8-27b/h200/attune-tp4-pp2.md"
    page.parent.mkdir(parents=True)
    page.write_text("# Mine\n")
    result = project.build()
    assert not result.ok
    assert result.errors() == [
        "recipes/qwen3.8-27b/h200/attune-tp4-pp2.yaml: its page 'recipes/qwen3.8-27b/h200/attune-tp4-pp2.md' would "
        "replace the hand-written docs/recipes/qwen3.8-27b/h200/attune-tp4-pp2.md; rename one of them",
        "1 problem in 1 file; the site was not built",
    ]


def test_every_problem_in_every_file_is_reported_in_one_build(project: Project) -> None:
    project.add_seed()
    broken = ["wrong-type", "unknown-key", "python-tag", "not-utf-8", "duplicate-key", "mfu-as-a-percent"]
    for name in broken:
        project.add(f"qwen3.8-27b/h200/{name}", (CORPUS / f"{name}.yaml").read_bytes())
    project.add(
        "qwen3.8-27b/h200/two", SEED.replace("  tp: 4\n", "  tp: four\n").replace("  count: 8\n", "  count: 0\n")
    )
    result = project.build()
    assert not result.ok
    two = "recipes/qwen3.8-27b/h200/two.yaml"
    expected = sorted(
        [line for name in broken for line in _expected(name, f"recipes/qwen3.8-27b/h200/{name}.yaml")]
        + [
            f"{two}:8:10: $.gpu.count: 0 is less than the minimum of 1",
            f"{two}:58:7: $.layout.tp: 'four' is not of type 'integer'",
        ],
        key=lambda line: (line.split(":")[0], int(line.split(":")[1])),  # by file, then line number
    )
    assert result.errors() == [*expected, "8 problems in 7 files; the site was not built"]


def test_mkdocs_build_prints_the_problems_without_a_traceback_with_and_without_strict(project: Project) -> None:
    project.add(ID, SEED.replace("  tp: 4\n", "  tp: four\n"))
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    mkdocs = [sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(project.site)]
    config = project.root / "mkdocs.yml"
    for strictness in (["--strict"], []):
        if not strictness:
            config.write_text(config.read_text().replace("strict: true", "strict: false"))
        done = subprocess.run([*mkdocs, *strictness], cwd=project.root, capture_output=True, text=True, env=env)
        assert done.returncode == 1
        assert f"{FILE}:58:7: $.layout.tp: 'four' is not of type 'integer'" in done.stderr
        assert "Traceback" not in done.stderr
        assert not (project.site / "index.html").exists()
