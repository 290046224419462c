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
FILE = "recipes/qwen3.8-27b/h200/attune-tp4-pp2.yaml"

# (name, text in the seed, replacement, exact problem lines)
CASES = [
    ("wrong type", "  tp: 4\n", "  tp: four\n", [f"{FILE}:58:7: $.layout.tp: 'four' is not of type 'integer'"]),
    (
        "unquoted version",
        "  cuda: '12.9'\n",
        "  cuda: 12.9\n",
        [
            f"{FILE}:21:9: $.stack.cuda: 12.9 is not of type 'string'. "
            "YAML reads 12.9 as a number; quote it to keep the text: '12.9'."
        ],
    ),
    (
        "version that YAML would shorten",
        "  python: '3.12'\n",
        "  python: 3.10\n",
        [
            f"{FILE}:24:11: $.stack.python: 3.10 is not of type 'string'. "
            "YAML reads 3.10 as a number; quote it to keep the text: '3.10'."
        ],
    ),
    (
        "MFU as a percent",
        "  mfu: 0.1857\n",
        "  mfu: 18.57\n",
        [
            f"{FILE}:78:8: $.result.mfu: 18.57 is greater than 1; this is a fraction: did you mean 0.1857? "
            "MFU is a fraction of the peak, not a percent."
        ],
    ),
    (
        "unknown key",
        "  vpp: 1\n",
        "  vpp: 1\n  tpp: 3\n",
        [
            f"{FILE}:61:3: $.layout.tpp: unknown key 'tpp'; did you mean 'tp'? Allowed keys: cp, dispatcher, dp, "
            "ep, etp, highlights, label, layer_split, max_tokens_per_gpu, notes, offload, pp, recompute, "
            "rows_per_microbatch, sequence_parallel, summary, tp, vpp"
        ],
    ),
    (
        "missing required key",
        "  per_node: 8\n",
        "",
        [f"{FILE}:5:1: $.gpu: missing required key 'per_node' (GPUs per node (server); count is a multiple of it)"],
    ),
    (
        "misspelt status",
        "status: verified\n",
        "status: verifed\n",
        [
            f"{FILE}:14:9: $.status: 'verifed' is not one of 'verified', 'unverified', 'deprecated'; "
            "did you mean 'verified'?"
        ],
    ),
    ("zero count", "  count: 8\n", "  count: 0\n", [f"{FILE}:8:10: $.gpu.count: 0 is less than the minimum of 1"]),
    (
        "negative batch",
        "  global_batch: 128\n",
        "  global_batch: -128\n",
        [f"{FILE}:31:17: $.workload.global_batch: -128 is less than the minimum of 1"],
    ),
    (
        "upper-case hash",
        "rows_sha256: ee1486b2",
        "rows_sha256: EE1486b2",
        [
            f"{FILE}:38:18: $.workload.dataset.rows_sha256: "
            "'EE1486b28ce21df721ad61c2d3765c64a29eed0eb5680ede005bd6a321dc1a1e' does not have the expected form. "
            "A SHA-256 is 64 lowercase hexadecimal characters, as printed by `sha256sum`."
        ],
    ),
    (
        "not an ISO date",
        "  measured: 2026-10-14\n",
        "  measured: '14/10/2026'\n",
        [f"{FILE}:84:13: $.result.measured: '14/10/2026' is not an ISO date; write it as YYYY-MM-DD (2026-10-14)"],
    ),
    (
        "NaN",
        "  step_time_cv_percent: 1.89\n",
        "  step_time_cv_percent: .nan\n",
        [f"{FILE}:77:25: $.result.step_time_cv_percent: .nan is not a finite number"],
    ),
    (
        "infinity",
        "  gpu_hours: 5.8\n",
        "  gpu_hours: .inf\n",
        [f"{FILE}:92:14: $.result.gpu_hours: .inf is not a finite number"],
    ),
    (
        "duplicate key",
        "status: verified\n",
        "status: verified\nstatus: deprecated\n",
        [
            f"{FILE}:15:1: $.status: duplicate key 'status' (first at line 14); "
            "YAML would silently keep only the last one"
        ],
    ),
    (
        "YAML 1.1 boolean",
        "  license: ODC-By 1.0\n",
        "  license: no\n",
        [
            f"{FILE}:37:14: $.workload.dataset.license: no is not of type 'string'. "
            "YAML reads no as a boolean; quote it: 'no'."
        ],
    ),
    (
        "environment value as a number",
        "  CUDA_DEVICE_MAX_CONNECTIONS: '1'\n",
        "  CUDA_DEVICE_MAX_CONNECTIONS: 1\n",
        [
            f"{FILE}:114:32: $.env.CUDA_DEVICE_MAX_CONNECTIONS: 1 is not of type 'string'. "
            "YAML reads 1 as a number; quote it to keep the text: '1'."
        ],
    ),
    (
        "environment name",
        "  CUDA_DEVICE_MAX_CONNECTIONS: '1'\n",
        "  CUDA-DEVICE: '1'\n",
        [
            f"{FILE}:114:3: $.env['CUDA-DEVICE']: 'CUDA-DEVICE' is not a valid name here; "
            "names match ^[A-Za-z_][A-Za-z0-9_]*$"
        ],
    ),
    (
        "python tag",
        "  tp: 4\n",
        '  tp: !!python/object/apply:os.system ["echo hacked"]\n',
        [
            f"{FILE}:58:7: $.layout.tp: the YAML tag !!python/object/apply:os.system is not allowed; "
            "recipes are plain YAML (quote the value if it is text)"
        ],
    ),
    (
        "syntax error",
        "  tp: 4\n",
        "  tp: [4\n",
        [
            f"{FILE}:59:5: YAML syntax error: while parsing a flow sequence, did not find expected ',' or ']' "
            "(the construct starts at line 58)"
        ],
    ),
    (
        "javascript URL",
        "  url: https://arxiv.org/abs/2610.17528\n",
        "  url: javascript:alert(1)\n",
        [
            f"{FILE}:13:8: $.author.url: 'javascript:alert(1)' does not have the expected form. "
            "Links must be absolute http:// or https:// URLs without spaces or quotes."
        ],
    ),
    (
        "future schema",
        "schema_version: 1\n",
        "schema_version: 2\n",
        [f"{FILE}:3:17: $.schema_version: 2 is not allowed here; the value must be 1"],
    ),
    (
        "window of three steps",
        "  - 19\n",
        "  - 19\n  - 20\n",
        [f"{FILE}:87:3: $.result.window: [5, 19, 20] has 3 items; expected at most 2"],
    ),
    (
        "invisible character",
        "  rows: SFT conversations\n",
        '  rows: "SFT \\u202e conversations"\n',
        [f"{FILE}:30:9: $.workload.rows: contains the invisible character U+202E (RIGHT-TO-LEFT OVERRIDE); remove it"],
    ),
    (
        "merge key",
        "  tp: 4\n",
        "  <<: {tp: 4}\n",
        [f"{FILE}:58:3: $.layout: merge keys ('<<') are not supported; write the fields out"],
    ),
]


def _write(project: Project, text: str | bytes, recipe_id: str = "qwen3.8-27b/h200/attune-tp4-pp2") -> None:
    project.add(recipe_id, text)


@pytest.mark.parametrize(("name", "before", "after", "expected"), CASES, ids=[case[0] for case in CASES])
def test_each_mistake_is_one_located_explained_line(
    project: Project, name: str, before: str, after: str, expected: list[str]
) -> None:
    assert before in SEED
    _write(project, SEED.replace(before, after, 1))
    catalogue = load_catalogue(project.root)
    assert [str(problem) for problem in catalogue.problems] == expected


WHOLE_FILE_CASES = [
    ("empty file", b"", "the file is empty; a recipe is a YAML mapping of fields"),
    ("only comments", b"# nothing yet\n", "the file is empty; a recipe is a YAML mapping of fields"),
    ("list at the top", b"- model: x\n", "1:1: $: the file holds a list; a recipe is a mapping of fields (key: value)"),
    (
        "scalar at the top",
        b"hello\n",
        "1:1: $: the file holds a single value; a recipe is a mapping of fields (key: value)",
    ),
    ("not UTF-8", b"model: caf\xe9\n", "1:11: not valid UTF-8 (byte 0xe9); save the file as UTF-8"),
    (
        "two documents",
        b"model: a\n---\nmodel: b\n",
        "2:1: a recipe file holds exactly one YAML document; remove the extra '---' line",
    ),
]


@pytest.mark.parametrize(("name", "raw", "expected"), WHOLE_FILE_CASES, ids=[c[0] for c in WHOLE_FILE_CASES])
def test_unreadable_files(project: Project, name: str, raw: bytes, expected: str) -> None:
    _write(project, raw)
    assert [str(p) for p in load_catalogue(project.root).problems] == [
        f"{FILE}{':' if expected[0].isdigit() else ': '}{expected}"
    ]


def test_alias_bomb_fails_fast_in_bounded_memory(project: Project) -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 10)]
    _write(project, "\n".join(lines) + "\n")
    problems = [str(p) for p in load_catalogue(project.root).problems]
    assert problems == [
        f"{FILE}:1:34: the document expands to more than 20,000 values (through YAML aliases?); "
        "write the values out instead"
    ]


def test_oversized_file(project: Project) -> None:
    _write(project, SEED + "\n# " + "x" * 300_000 + "\n")
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
    for index, (_, before, after, _) in enumerate(CASES[:6]):
        _write(project, SEED.replace(before, after, 1), f"qwen3.8-27b/h200/broken-{index}")
    _write(
        project,
        SEED.replace("  tp: 4\n", "  tp: four\n").replace("  count: 8\n", "  count: 0\n"),
        "qwen3.8-27b/h200/two",
    )
    result = project.build()
    assert not result.ok
    expected = sorted(
        line.replace(FILE, f"recipes/qwen3.8-27b/h200/broken-{index}.yaml")
        for index, case in enumerate(CASES[:6])
        for line in case[3]
    )
    two = "recipes/qwen3.8-27b/h200/two.yaml"
    expected += [
        f"{two}:8:10: $.gpu.count: 0 is less than the minimum of 1",
        f"{two}:58:7: $.layout.tp: 'four' is not of type 'integer'",
    ]
    assert result.errors() == [*expected, "8 problems in 7 files; the site was not built"]


def test_mkdocs_build_prints_the_problems_without_a_traceback_with_and_without_strict(project: Project) -> None:
    _write(project, SEED.replace("  tp: 4\n", "  tp: four\n"))
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
