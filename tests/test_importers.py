"""`openrecipes import`: the publishers' tables parsed, turned into recipes, and synced to recipes/.

No network: tests/importer_fixtures/ holds hand-written pages in the publishers' formats (every
column set, alternative values, n/a, qualifiers, footnotes, notes under tables), committed to
throwaway git repositories, and, for the documented launches, the publishers' own files copied
byte for byte at the commits the launches cite (megatron-bridge-releases/, one folder per
commit), committed and tagged as upstream. The recipes committed to this project are checked
against their own stored excerpts, and their launches against what the import makes of those copies.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import shutil
import subprocess
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import REPO, Project

from openrecipes.cli import main
from openrecipes.importers import common, megatron_bridge_recipes, sync, torchtitan_recipes
from openrecipes.importers import megatron_bridge as mb
from openrecipes.importers import megatron_bridge_launch as launches
from openrecipes.importers import torchtitan as tt
from openrecipes.importers.common import Planned
from openrecipes.importers.gitsource import GitSource
from openrecipes.importers.supersede import Configuration, supersede
from openrecipes.importers.tables import number
from openrecipes.measuring import mllog
from openrecipes.reading import yamlwrite
from openrecipes.reading.schema import Schema
from openrecipes.reading.yamlsource import read_document

FIXTURES = Path(__file__).parent / "importer_fixtures"
SCHEMA_DOCUMENT = yaml.safe_load((REPO / "schema/recipe.schema.yaml").read_text(encoding="utf-8"))
GIT_ENV = {
    "GIT_AUTHOR_NAME": "Publisher",
    "GIT_AUTHOR_EMAIL": "publisher@example.org",
    "GIT_COMMITTER_NAME": "Publisher",
    "GIT_COMMITTER_EMAIL": "publisher@example.org",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
}


def git(repo: Path, *args: str, date: str = "2099-01-02T03:04:05+00:00") -> str:
    env = {**os.environ, **GIT_ENV, "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}
    done = subprocess.run(["git", "-C", str(repo), *args], env=env, capture_output=True, text=True, check=True)
    return done.stdout.strip()


def commit(repo: Path, files: dict[str, str], message: str, date: str) -> str:
    for path, text in files.items():
        target = repo / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message, date=date)
    return git(repo, "rev-parse", "HEAD")


def fixture_files(folder: Path) -> dict[str, str]:
    return {
        path.relative_to(folder).as_posix(): path.read_text(encoding="utf-8")
        for path in folder.rglob("*")
        if path.is_file()
    }


def new_repo(tmp_path: Path, name: str) -> Path:
    repo = tmp_path / name
    repo.mkdir()
    git(repo, "init", "-q", "--template=", "-b", "main")
    return repo


@pytest.fixture
def mb_repo(tmp_path: Path) -> tuple[Path, str]:
    repo = new_repo(tmp_path, "megatron-bridge")
    sha = commit(repo, fixture_files(FIXTURES / "megatron-bridge"), "performance summary", "2099-02-03T10:00:00-07:00")
    return repo, sha


@pytest.fixture
def tt_repo(tmp_path: Path) -> tuple[Path, str, str, str]:
    """Commit A: the code a report ran; B: the reports, naming A; C: the Trainy command edited (flags renamed)."""
    repo = new_repo(tmp_path, "torchtitan")
    ran = commit(
        repo, fixture_files(FIXTURES / "torchtitan" / "at-run"), "the code the reports ran", "2099-06-13T00:00:00Z"
    )
    reports = {
        path: text.replace("{commit}", ran).replace("{short}", ran[:7])
        for path, text in fixture_files(FIXTURES / "torchtitan").items()
        if path.startswith("benchmarks/")
    }
    published = commit(repo, reports, "benchmarks", "2099-07-11T00:00:00Z")
    trainy = "benchmarks/llama3-8b_h200_209906_trainy-whitefiber.md"
    edited = reports[trainy].replace('--model.converters="float8"', '--model.converters="quantize.linear.float8"')
    edited = edited.replace("--profiling.profile_freq", "--profiler.profile_freq")
    latest = commit(repo, {trainy: edited}, "rename flags in the docs", "2099-09-30T00:00:00Z")
    return repo, ran, published, latest


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(arg) for arg in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def imported(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root / "recipes").as_posix(): path.read_bytes() for path in (root / "recipes").rglob("*.yaml")
    }


def read(path: Path) -> dict[str, Any]:
    document, problems = read_document(path.read_bytes(), str(path))
    assert document is not None and not problems, problems
    return document.data


# --- tables and cells -------------------------------------------------------------------------


def test_numbers_are_kept_as_printed() -> None:
    assert number("4912") == 4912 and isinstance(number("4912"), int)
    assert number("5,762") == 5762
    assert number("597.3") == 597.3
    assert number("n/a") is None and number("") is None and number("12k") is None


def test_cells_split_alternatives_footnotes_and_qualifiers() -> None:
    assert mb.split_cell("37556 (36108)") == ("37556", "36108", ())
    assert mb.split_cell("FP8-CS (FP8-MX)") == ("FP8-CS", "FP8-MX", ())
    assert mb.split_cell("661[^gpt-oss-note]") == ("661", None, ("gpt-oss-note",))
    assert mb.split_model("DeepSeekV3 (w/o MTP)") == ("DeepSeekV3", "w/o MTP")
    assert mb.split_model("Qwen3_30B_a3B (tokendrop)") == ("Qwen3_30B_a3B", "tokendrop")
    assert mb.split_model("GPT OSS 120B") == ("GPT OSS 120B", None)


def test_releases_sort_by_their_numbers() -> None:
    assert sorted(["26.08", "25.11", "26.06.01", "26.06", "25.09"], key=mb.release_key) == [
        "25.09",
        "25.11",
        "26.06",
        "26.06.01",
        "26.08",
    ]


# --- Megatron-Bridge: parsing -------------------------------------------------------------------


def _page(name: str) -> mb.Page:
    path = f"docs/{name}"
    return mb.parse_page(path, (FIXTURES / "megatron-bridge" / path).read_text(encoding="utf-8"))


def _row(page: mb.Page, release: str, line_start: str, variant: str = "primary", table: str | None = None) -> mb.Row:
    found = [
        row
        for row in page.rows
        if row.release == release
        and row.variant == variant
        and row.excerpt.splitlines()[-1].startswith(line_start)
        and (table is None or row.table == table)
    ]
    assert len(found) == 1, [row.excerpt for row in found]
    return found[0]


def test_megatron_bridge_pages_by_release_workload_and_table() -> None:
    summary, archive = _page("performance-summary.md"), _page("performance-summary-archive.md")
    assert summary.releases == ("27.02",)
    assert archive.releases == ("26.12", "25.11", "25.09")
    assert [(row.workload, row.table) for row in summary.rows] == [
        ("Pre-Training", "Model: DeepSeekV3"),
        ("Pre-Training", "Model: DeepSeekV3"),
        ("Pre-Training", "Model: LLAMA3_70B"),
        ("SFT", "Model: LLAMA3_70B"),
        ("LoRA", "Model: LLAMA3_70B"),
    ]
    assert summary.page_notes == ("moe-training-note",)
    assert summary.terms["Tokens/sec/GPU"].text == "Throughput per GPU"
    assert archive.terms["FSDP"].text == (
        "Fully Sharded Data Parallel; FSDP > 0: use FSDP with sharding group size = #GPUs / (TP × PP); "
        "FSDP = 0: use DDP (Distributed Data Parallel)"
    )
    assert [note.text[:20] for note in archive.release_notes["25.11"]] == [
        "The numbers in norma",
        "In MoE training benc",
    ]


def test_megatron_bridge_every_column_set() -> None:
    summary, archive = _page("performance-summary.md"), _page("performance-summary-archive.md")
    # 26.06 on: no FSDP, no GA; grouped by model.
    row = _row(summary, "27.02", "| DGX-GB200")
    values = row.values
    assert (values.model, values.system, values.gpus, values.precision) == ("DeepSeekV3", "DGX-GB200", 256, "MXFP8")
    assert (values.gbs, values.mbs, values.seq_len, values.tp, values.pp, values.cp) == (4096, 1, 4096, 1, 4, 1)
    assert (values.vp, values.ep, values.fsdp, values.ga, values.etp) == (None, 64, None, None, None)  # VP n/a
    assert (values.tokens, values.tflops) == (5003, 1300)
    assert "fsdp" not in values.columns and "ga" not in values.columns
    # 26.02 to 26.04.01: FSDP, no GA; EP n/a for a dense model.
    values = _row(archive, "26.12", "| DGX-GB300 | 64").values
    assert (values.fsdp, values.ep, values.vp, values.ga) == (64, None, None, None)
    assert "fsdp" in values.columns and "ga" not in values.columns
    # 25.11: grouped by system, Precision, FSDP and GA; a model with a qualifier and no space before the pipe.
    values = _row(archive, "25.11", "| DeepSeekV3").values
    assert (values.model, values.qualifier, values.system, values.ga, values.vp) == (
        "DeepSeekV3",
        "w/o MTP",
        "DGX-GB200",
        64,
        4,
    )
    # 25.09: no Precision column.
    values = _row(archive, "25.09", "| Qwen3_30B_a3B").values
    assert (values.precision, values.qualifier, values.ga) == (None, "tokendrop", 32)
    assert "precision" not in values.columns


def test_megatron_bridge_alternative_values_footnotes_and_notes() -> None:
    summary, archive = _page("performance-summary.md"), _page("performance-summary-archive.md")
    primary = _row(archive, "25.11", "| LLAMA3_8B | 8 | FP8-CS (FP8-MX)").values
    alternative = _row(archive, "25.11", "| LLAMA3_8B | 8 | FP8-CS (FP8-MX)", "alternative").values
    assert (primary.precision, primary.tokens, primary.tflops) == ("FP8-CS", 31000, 1600)
    assert (alternative.precision, alternative.tokens, alternative.tflops) == ("FP8-MX", 29500, 1520)
    assert (alternative.gbs, alternative.mbs, alternative.ga) == (128, 2, 8)  # printed once, for both
    assert alternative.alternative_in == {"precision", "tokens", "tflops"}
    # 25.09: alternatives in layout cells; a measured figure without one is not the alternative's.
    layout = _row(archive, "25.09", "| LLAMA3_70B", "alternative").values
    assert (layout.fsdp, layout.tp, layout.pp, layout.vp, layout.ga, layout.tokens) == (0, 2, 4, 5, 16, 3546)
    dropless = _row(archive, "25.09", "| DeepSeekV3", "alternative").values
    assert (dropless.tokens, dropless.tflops) == (None, 330)
    assert _row(summary, "27.02", "| DGX-GB300 | 256").values.footnotes == ("regression-note",)
    kimi = _row(archive, "26.12", "| DGX-GB300 | 256 | MXFP8 | 4096 | 2")
    assert kimi.notes == ("Muon optimizer was used for pre-training Kimi-K2.",)
    assert _row(archive, "26.12", "| DGX-B200").notes == ()


def test_megatron_bridge_an_unknown_column_is_an_error_naming_it() -> None:
    text = (FIXTURES / "megatron-bridge/docs/performance-summary.md").read_text(encoding="utf-8")
    changed = text.replace("| EP | Tokens", "| ETP2 | Tokens", 1)
    with pytest.raises(mb.ParseError, match=r"docs/x.md:\d+: unknown column 'ETP2'"):
        mb.parse_page("docs/x.md", changed)


def test_an_excerpt_parses_to_the_row_it_quotes() -> None:
    archive = _page("performance-summary-archive.md")
    for row in archive.rows:
        assert mb.parse_excerpt(row.excerpt)[row.variant] == row.values


# --- Megatron-Bridge: recipes ---------------------------------------------------------------------


def _mb_import(repo: Path, releases: list[str] | None = None) -> dict[str, Any]:
    result = megatron_bridge_recipes.build(GitSource.open(repo, None), releases)
    return {"recipes": {recipe.id: recipe.data for recipe in result.recipes}, "skipped": result.skipped}


def test_megatron_bridge_golden_recipe(mb_repo: tuple[Path, str]) -> None:
    repo, sha = mb_repo
    data = _mb_import(repo)["recipes"]["deepseek-v3/gb300/mb-27.02-mxfp8-256gpu"]
    page = f"https://github.com/NVIDIA-NeMo/Megatron-Bridge/blob/{sha}/docs/performance-summary.md"
    scripts = f"https://github.com/NVIDIA-NeMo/Megatron-Bridge/blob/{sha}/scripts/performance"
    assert data == {
        "schema_version": 2,
        "model": "DeepSeek-V3",
        "gpu": {"type": "GB300", "count": 256, "per_node": 4, "system": "DGX-GB300"},
        "author": {"name": "NVIDIA", "url": page},
        "status": "published",
        "source": {
            "url": f"{page}#L40",
            "where": '27.02 NeMo Container, Pre-Training Performance, table "Model: DeepSeekV3", row 1 of 2 '
            "(DGX-GB300, 256 GPUs, MXFP8)",
            "publisher": "NVIDIA",
            "published": dt.date(2099, 2, 3),
            "first_published": {"date": dt.date(2099, 2, 3), "commit": sha, "url": f"{page}#L40"},
            "excerpt": "#### Model: DeepSeekV3\n"
            "| System | #-GPUs | Precision | GBS | MBS | Sequence Length | TP | PP | CP | VP | EP | Tokens / sec / GPU "
            "| Model TFLOP / sec / GPU |\n"
            "|--------|--------|-----------|-----|-----|-----------------|----|----|----|----|----|------------------"
            "-----|-------------------------|\n"
            "| DGX-GB300 | 256 | MXFP8 | 4096 | 1 | 4096 | 1 | 2 | 1 | 8 | 32 | 7001 | 1801[^regression-note] |",
            "importer": "megatron-bridge",
        },
        "stack": {
            "framework": "Megatron-Bridge",
            "container_image": "nvcr.io/nvidia/nemo:27.02",
            "source": "Versions: not listed for 27.02 in docs/releases/software-versions.md; image: "
            'scripts/performance/README.md says "For release container XX.YY use nvcr.io/nvidia/nemo:XX.YY" '
            f"({scripts}/README.md#L3); no digest is published.",
        },
        "workload": {
            "row_tokens": 4096,
            "global_batch": 4096,
            "precision": "mxfp8",
            "method": {"kind": "pre-training"},
        },
        "layout": {"tp": 1, "pp": 2, "vpp": 8, "cp": 1, "ep": 32, "rows_per_microbatch": 1},
        "moe": {"routing": "force-balanced", "token_dropping": "dropless"},
        "result": {
            "tokens_per_s_per_gpu": 7001,
            "throughput_note": '"Tokens/sec/GPU: Throughput per GPU", as the page defines it; how and over which '
            "steps it was measured is not stated.",
            "publisher_figures": [
                {
                    "name": "Model TFLOP/sec/GPU",
                    "value": 1801,
                    "unit": "TFLOP/s per GPU",
                    "convention": "megatron",
                    "release": "27.02",
                    "note": "Footnote: A known regression, to be fixed in the next container.",
                }
            ],
        },
        "notes": '- Footnote to this row: "A known regression, to be fixed in the next container."\n'
        '- The page, of its MoE benchmarks: "In MoE training benchmarks, we force-balance the token distribution '
        'among experts and all benchmarks are token-dropless."\n'
        f"- GPUs per node: 4, the performance scripts' value for `gb300` GPUs (scripts/performance/argument_parser.py, "
        f"{scripts}/argument_parser.py#L8); the table does not state it.\n"
        "- Not published: the launch command for this row, the data, the measurement window. The page says its "
        'results "were obtained using performance recipes" in `scripts/performance` (linked on `main`, not at a '
        "commit).\n",
    }


def test_megatron_bridge_golden_layouts_precisions_and_workloads(mb_repo: tuple[Path, str]) -> None:
    recipes = _mb_import(mb_repo[0])["recipes"]
    # 25.11 alternative: its own precision and figures, the row's layout, and the footnote that explains it.
    alternative = recipes["llama-3-8b/gb200/mb-25.11-mxfp8-8gpu"]
    assert alternative["source"]["where"].endswith("(LLAMA3_8B, 8 GPUs, FP8-MX), the values in parentheses")
    assert alternative["workload"] == {
        "row_tokens": 8192,
        "global_batch": 128,
        "precision": "mxfp8",
        "method": {"kind": "pre-training"},
    }
    assert alternative["layout"] == {
        "tp": 1,
        "pp": 1,
        "cp": 1,
        "ep": 1,
        "sharding": {"kind": "ddp"},
        "gradient_accumulation": 8,
        "rows_per_microbatch": 2,
    }
    assert alternative["result"]["tokens_per_s_per_gpu"] == 29500
    assert alternative["result"]["publisher_figures"][0]["value"] == 1520
    assert "run in parentheses of its row" in alternative["notes"]
    primary = recipes["llama-3-8b/gb200/mb-25.11-fp8cs-8gpu"]
    assert (primary["workload"]["precision"], primary["workload"]["fp8_scaling"]) == ("fp8", "tensorwise")
    assert primary["stack"]["container_image"] == "nvcr.io/nvidia/nemo:25.11"
    # FSDP by the page's own definition: the group is the whole data-parallel group here.
    assert recipes["llama-3-8b/h100/mb-25.11-fp8cs-8gpu"]["layout"]["sharding"] == {"kind": "fsdp"}
    # Published GA that disagrees with GBS / (MBS x DP) is kept, and said so.
    oss = recipes["gpt-oss-120b/gb200/mb-25.11-bf16-64gpu"]
    assert oss["layout"]["gradient_accumulation"] == 2
    assert "512 / (4 × 64 / 4) = 8" in oss["notes"]
    # 26.x FP8: scaling not stated, so left out, and said so.
    h100 = recipes["llama-3-70b/h100/mb-27.02-fp8-64gpu"]
    assert "fp8_scaling" not in h100["workload"] and "scaling recipe of this release is not stated" in h100["notes"]
    assert "moe" not in h100 and "ep" not in h100["layout"]
    # Software versions where the release has them; none for a patch release's image.
    kimi = recipes["kimi-k2/gb300/mb-26.12-mxfp8-256gpu"]
    assert {
        key: kimi["stack"][key] for key in ("framework", "megatron_lm", "transformer_engine", "pytorch", "cuda")
    } == {
        "framework": "Megatron-Bridge 0.7.0",
        "megatron_lm": "Megatron Core 0.19.0",
        "transformer_engine": "2.18",
        "pytorch": "2.13.0a0+test",
        "cuda": "13.3",
    }
    assert "cuDNN 9.22.0, built on NVIDIA Optimized Frameworks PyTorch 26.10" in kimi["stack"]["source"]
    assert 'Printed under the table: "Muon optimizer was used for pre-training Kimi-K2."' in kimi["notes"]
    # SFT and LoRA.
    assert recipes["llama-3-70b/gb300/mb-27.02-sft-fp8-32gpu"]["workload"]["method"] == {"kind": "full-fine-tune"}
    lora = recipes["llama-3-70b/gb300/mb-27.02-lora-mxfp8-8gpu"]
    assert lora["workload"]["method"] == {"kind": "lora"}
    assert "the LoRA rank and which modules carry adapters" in lora["notes"]
    assert "run" not in lora  # Megatron-Bridge documents no per-row command


def test_megatron_bridge_rows_that_make_no_recipe_say_why(mb_repo: tuple[Path, str]) -> None:
    skipped = _mb_import(mb_repo[0])["skipped"]
    assert len(skipped) == 5  # 25.09: three rows, two with alternatives
    assert all(item.where.startswith("docs/performance-summary-archive.md:") for item in skipped)
    reasons = sorted({item.reason for item in skipped})
    assert reasons == ["the 25.09 tables have no Precision column: the precision is not published"]


def test_megatron_bridge_moe_routing_and_token_dropping_by_release() -> None:
    archive = _page("performance-summary-archive.md")
    force_balanced = _row(archive, "26.12", "| DGX-B200")
    assert megatron_bridge_recipes._moe(force_balanced, archive) == {
        "routing": "force-balanced",
        "token_dropping": "dropless",
    }
    # 25.09: only its dropless benchmarks are force-balanced; a token-drop row's routing is not stated.
    assert megatron_bridge_recipes._moe(_row(archive, "25.09", "| Qwen3_30B_a3B"), archive) == {
        "token_dropping": "capacity"
    }
    dropless = _row(archive, "25.09", "| DeepSeekV3")
    assert megatron_bridge_recipes._moe(dropless, archive) == {
        "routing": "force-balanced",
        "token_dropping": "dropless",
    }


def test_a_later_release_supersedes_the_same_configuration(mb_repo: tuple[Path, str]) -> None:
    recipes = _mb_import(mb_repo[0])["recipes"]
    status = {recipe_id: data["status"] for recipe_id, data in recipes.items()}
    older = recipes["deepseek-v3/gb300/mb-26.12-mxfp8-256gpu"]
    assert older["status"] == "deprecated"
    assert older["deprecation"] == {
        "reason": "Superseded by the 27.02 release's row for the same configuration (DeepSeekV3, DGX-GB300, "
        "256 GPUs, mxfp8, pre-training, sequence length 4,096): 7,001 tokens/s per GPU (this row: 6,500). The rule: "
        "a newer release that publishes the same model, system, GPU count, precision, training method and sequence "
        "length supersedes the older row; layout and batch sizes may differ, as releases retune them.",
        "superseded_by": "deepseek-v3/gb300/mb-27.02-mxfp8-256gpu",
    }
    assert recipes["llama-3-70b/h100/mb-26.12-fp8-64gpu"]["deprecation"]["superseded_by"] == (
        "llama-3-70b/h100/mb-27.02-fp8-64gpu"
    )
    # Not the same configuration: another precision (FP8-CS against an FP8 whose scaling neither the
    # page nor a documented launch states), another qualifier (DeepSeekV3 (w/o MTP) against
    # DeepSeekV3), another system, another GPU count.
    assert status["llama-3-70b/h100/mb-25.11-fp8cs-64gpu"] == "published"
    assert status["deepseek-v3/gb200/mb-25.11-mxfp8-256gpu-wo-mtp"] == "published"
    assert status["deepseek-v3/b200/mb-26.12-mxfp8-256gpu"] == "published"
    assert sum(value == "deprecated" for value in status.values()) == 2


def _planned(release: str, gbs: int = 256, seq: int = 8192, precision: str = "fp8", note: str = "") -> Planned:
    configuration = Configuration("LLAMA3_70B", "DGX-H100", 64, precision, "pre-training", seq, precision_from=note)
    data = {"status": "published", "result": {"tokens_per_s_per_gpu": 1000 + gbs}, "workload": {"global_batch": gbs}}
    name = f"llama-3-70b/h100/mb-{release}-{precision.replace(' ', '')}-64gpu-gbs{gbs}-seq{seq}"
    return Planned(name, data, configuration, mb.release_key(release), release)


def test_the_supersede_rule_compares_model_system_gpus_precision_method_and_sequence_length() -> None:
    old, retuned = _planned("26.02", gbs=128), _planned("26.06", gbs=256)
    longer = _planned("26.02", seq=16384)
    scaled = _planned("26.02", precision="fp8 tensorwise")
    launched = _planned("26.08", precision="fp8 tensorwise", note="the launcher loads X (-c fp8_cs)")
    result = {planned.id: planned for planned in supersede([old, retuned, longer, scaled, launched])}
    # A retuned batch (and layout) is the same job's newer figures; a longer sequence is another job.
    assert result[old.id].data["deprecation"]["superseded_by"] == retuned.id
    assert "(this row: 1,128)" in result[old.id].data["deprecation"]["reason"]
    assert result[retuned.id].data["status"] == "published"
    assert result[longer.id].data["status"] == "published"
    # A precision read through the launch says so in the reason.
    reason = result[scaled.id].data["deprecation"]["reason"]
    assert result[scaled.id].data["deprecation"]["superseded_by"] == launched.id
    assert reason.endswith("The precision as read for 26.08: the launcher loads X (-c fp8_cs).")
    # Two rows of the newest release for one configuration: which replaces the older is ambiguous.
    twice = supersede([old, _planned("26.06", gbs=256), _planned("26.06", gbs=512)])
    assert [planned.data["status"] for planned in twice] == ["published"] * 3


def test_only_chosen_releases_are_imported(mb_repo: tuple[Path, str]) -> None:
    recipes = _mb_import(mb_repo[0], ["26.12"])["recipes"]
    assert {recipe_id.rsplit("/", 1)[1].split("-")[1] for recipe_id in recipes} == {"26.12"}
    assert all(data["status"] == "published" for data in recipes.values())  # 27.02 is not imported
    with pytest.raises(ValueError, match=r"release 26\.01 is not in the performance summary"):
        _mb_import(mb_repo[0], ["26.01"])


def test_every_imported_recipe_is_valid(mb_repo: tuple[Path, str], tt_repo: tuple[Path, str, str, str]) -> None:
    schema = Schema.load(REPO / "schema/recipe.schema.yaml")
    for result in (
        megatron_bridge_recipes.build(GitSource.open(mb_repo[0], None)),
        torchtitan_recipes.build(GitSource.open(tt_repo[0], None)),
    ):
        for recipe in result.recipes:
            assert (
                sync._problems(recipe.id, sync.render(recipe.id, recipe.data, result.importer, SCHEMA_DOCUMENT), schema)
                == []
            )


# --- torchtitan --------------------------------------------------------------------------------


def _report(name: str) -> tt.Report:
    path = f"benchmarks/{name}"
    return tt.parse_report(path, (FIXTURES / "torchtitan" / path).read_text(encoding="utf-8"))


def test_torchtitan_reports_captions_and_rows() -> None:
    report = _report("llama3_h100_209912_torchtitan.md")
    assert (report.author, report.gpu, report.gpu_memory_gb, report.per_node, report.system) == (
        "torchtitan team",
        "H100",
        96,
        8,
        "Grand Teton",
    )
    assert report.models == ("Llama 3.1 8B", "Llama 3.1 405B")
    assert report.metric is not None and "(TPS/GPU) are read at the 90th iteration" in report.metric.text
    first, second = (row.values for row in report.rows if row.caption.startswith("**Table 2**"))
    assert (first.model, first.gpus, first.local_batch, first.global_batch) == ("Llama 3.1 8B", 8, 1, None)
    assert (first.seq_len, first.tokens_per_gpu, first.memory_gib, first.fsdp, first.cp) == (32768, 3900, 83.0, 8, 1)
    assert (second.fsdp, second.cp, second.float8, second.activation_checkpointing) == (4, 2, True, "full")
    table1 = [row.values for row in report.rows if row.caption.startswith("**Table 1**")]
    assert [(values.precision, values.global_batch, values.seq_len) for values in table1] == [
        (None, 16, None),
        ("fp8", 16, None),
    ]
    big = next(row.values for row in report.rows if row.caption.startswith("**Table 6**"))
    assert (big.tp, big.pp, big.fsdp, big.schedule, big.gpus) == (8, 8, 8, "1F1B", 512)
    asynctp = _report("asyncTP_llama3_h100_2099-06_torchtitan.md").rows
    assert [row.values.precision for row in asynctp] == ["bf16", "fp8"]
    assert asynctp[1].values.fp8_scaling == "rowwise"
    assert asynctp[0].values.not_per_gpu == ("Vanilla TP tokens/sec", "Async TP tokens/sec")
    assert asynctp[0].values.tokens_per_gpu is None
    trainy = _report("llama3-8b_h200_209906_trainy-whitefiber.md")
    assert [row.values.label for row in trainy.rows] == ["NUM_NODES 4", "NUM_NODES 8"]
    assert trainy.command is not None and trainy.command.text.splitlines()[0] == "  torchrun \\"
    assert tt.parse_command(trainy.command).options["training.local_batch_size"] == "2"


def test_torchtitan_excerpts_parse_to_their_rows() -> None:
    for name in ("llama3_h100_209912_torchtitan.md", "llama3-8b_h200_209906_trainy-whitefiber.md"):
        report = _report(name)
        for row in report.rows:
            assert tt.parse_excerpt(row.excerpt, report.models) == row.values


def test_torchtitan_recipes_and_skipped_rows(tt_repo: tuple[Path, str, str, str]) -> None:
    repo, ran, published, latest = tt_repo
    result = torchtitan_recipes.build(GitSource.open(repo, None))
    recipes = {recipe.id: recipe.data for recipe in result.recipes}
    assert sorted(recipes) == [
        "llama-3.1-405b/h100-96gb/tt-209912-torchtitan-fp8-512gpu-fsdp8-cp1",
        "llama-3.1-8b/h100-96gb/tt-209912-torchtitan-fp8-8gpu-fsdp4-cp2",
        "llama-3.1-8b/h100-96gb/tt-209912-torchtitan-fp8-8gpu-fsdp8-cp1",
        "llama-3.1-8b/h200/tt-209906-trainy-whitefiber-fp8-32gpu",
        "llama-3.1-8b/h200/tt-209906-trainy-whitefiber-fp8-64gpu",
    ]
    reasons = sorted(item.reason for item in result.skipped)
    assert (
        reasons
        == [
            "no throughput per GPU: the throughput columns ('Vanilla TP tokens/sec', 'Async TP tokens/sec') do not "
            "say per GPU",
        ]
        * 2
        + ["the sequence length is not published (not in the table, and the report names no config)"] * 2
    )

    table2 = recipes["llama-3.1-8b/h100-96gb/tt-209912-torchtitan-fp8-8gpu-fsdp4-cp2"]
    report = f"https://github.com/pytorch/torchtitan/blob/{published}/benchmarks/llama3_h100_209912_torchtitan.md"
    assert table2["gpu"] == {"type": "H100-96GB", "memory_gb": 96, "count": 8, "per_node": 8, "system": "Grand Teton"}
    assert table2["source"]["url"] == f"{report}#L30"
    assert (
        table2["source"]["where"] == "benchmarks/llama3_h100_209912_torchtitan.md, Table 2, row 2 of 2 (FSDP 4, CP 2)"
    )
    assert table2["workload"] == {"row_tokens": 65536, "global_batch": 4, "precision": "fp8"}
    assert table2["layout"] == {
        "tp": 1,
        "pp": 1,
        "cp": 2,
        "dp": 4,
        "sharding": {"kind": "fsdp"},
        "rows_per_microbatch": 1,
        "recompute": {"granularity": "full"},
    }
    assert table2["result"] == {
        "tokens_per_s_per_gpu": 2500,
        "throughput_note": "We note that memory readings are stable[^1], whereas throughput numbers (TPS/GPU) are "
        "read at the 90th iteration.",
        "memory_gib": 84.0,
    }
    assert "8 GPUs = FSDP 4 × CP 2, so both are 1" in table2["notes"]
    assert (
        f"local batch size 1 × data-parallel degree 4 = 4 sequences, as torchtitan computes it at {ran[:7]} "
        f"(https://github.com/pytorch/torchtitan/blob/{ran}/train.py#L6" in table2["notes"]
    )
    assert "run" not in table2
    assert table2["launch"]["kind"] == "not-published" and "publishes no command" in table2["launch"]["reason"]
    big = recipes["llama-3.1-405b/h100-96gb/tt-209912-torchtitan-fp8-512gpu-fsdp8-cp1"]
    assert big["layout"]["pipeline_schedule"] == "1f1b" and "rows_per_microbatch" not in big["layout"]
    assert big["workload"]["global_batch"] == 64

    trainy = recipes["llama-3.1-8b/h200/tt-209906-trainy-whitefiber-fp8-32gpu"]
    assert trainy["gpu"] == {"type": "H200", "count": 32, "per_node": 8}
    assert trainy["workload"] == {"row_tokens": 8192, "global_batch": 64, "precision": "fp8"}
    assert trainy["layout"] == {
        "tp": 1,
        "pp": 1,
        "cp": 1,
        "sharding": {"kind": "fsdp"},
        "rows_per_microbatch": 2,
        "recompute": {"granularity": "selective"},
    }
    # The report's command is the documented launch, at the torchtitan commit the report ran.
    launch = trainy["launch"]
    assert "run" not in trainy and "env" not in trainy and "inputs" not in trainy
    assert (launch["kind"], launch["source"]["repository"], launch["source"]["commit"]) == (
        "documented",
        "pytorch/torchtitan",
        ran,
    )
    config = "torchtitan/models/llama3/train_configs/llama3_8b.toml"
    assert [item["path"] for item in launch["source"]["files"]] == [config]  # the fixture's train.py is at the root
    assert launch["source"]["files"][0]["url"] == f"https://github.com/pytorch/torchtitan/blob/{ran}/{config}"
    assert f"git switch --detach {ran}" in launch["checkout"]
    assert launch["env"] == {"NUM_NODES": "4"}
    # the command's local batch 2 × the 32 GPUs' data-parallel degree; float8 from its --model.converters
    assert launch["sets"] == {
        "gpus": 32, "tp": 1, "pp": 1, "cp": 1, "gbs": 64, "mbs": 2, "seq_length": 8192, "precision": "fp8",
    }  # fmt: skip
    assert [item["name"] for item in launch["inputs"]] == ["<every node>"]  # this command reads no MASTER_ADDR
    # The command as first published, dedented; the edit and the missing backslash are noted.
    assert launch["command"].startswith("torchrun \\\n  --nnodes $NUM_NODES  \\\n")
    assert '--model.converters="float8"' in launch["command"] and "--profiling.profile_freq" in launch["command"]
    assert f"https://github.com/pytorch/torchtitan/blob/{published}/benchmarks/" in trainy["notes"]
    assert f"the report at {latest[:7]} shows it edited since" in trainy["notes"]
    # The line continuation the report lost is restored (issue 28: a launch shown is a launch that runs).
    assert "so a shell would run `--training.steps 2000` as a separate command; the launch adds the" in trainy["notes"]
    assert "--profiling.profile_freq 1000000 \\\n  --training.steps 2000\n" in launch["command"]
    assert "`seq_len = 8192`" in trainy["notes"] and '`mode = "selective"`' in trainy["notes"]
    assert (
        "The Memory(GiB) figure (48.0 GiB) is not recorded as peak memory" in trainy["notes"]
        and "memory_gib" not in trainy["result"]
    )
    assert (
        trainy["result"]["throughput_note"] == "`TPS` and `Memory(GiB)` are arbitrarily sampled at the 100th iteration"
    )


# --- the command: writing, checking, never overwriting --------------------------------------------


def _import_args(repo: Path, importer: str, *extra: str) -> list[str]:
    return ["import", importer, "--repo", str(repo), *extra]


def test_import_writes_then_check_passes_and_a_second_import_changes_nothing(
    capsys: pytest.CaptureFixture[str], project: Project, mb_repo: tuple[Path, str]
) -> None:
    repo, _ = mb_repo
    code, out, err = run(capsys, "--root", project.root, *_import_args(repo, "megatron-bridge"))
    assert code == 0, err
    written = imported(project.root)
    assert len(written) == 16
    assert out.count("added recipes/") == 16
    assert "16 added, 0 changed, 0 removed, 0 unchanged, 5 rows skipped" in err
    assert "skipped docs/performance-summary-archive.md:" in err
    code, out, err = run(capsys, "--root", project.root, *_import_args(repo, "megatron-bridge", "--check"))
    assert (code, out) == (0, "")
    assert "up to date" in err
    code, _, _ = run(capsys, "--root", project.root, *_import_args(repo, "megatron-bridge"))
    assert code == 0 and imported(project.root) == written  # deterministic: the same bytes


def test_files_are_written_in_schema_order_with_quoted_versions(
    capsys: pytest.CaptureFixture[str], project: Project, mb_repo: tuple[Path, str]
) -> None:
    run(capsys, "--root", project.root, *_import_args(mb_repo[0], "megatron-bridge"))
    text = (project.root / "recipes/kimi-k2/gb300/mb-26.12-mxfp8-256gpu.yaml").read_text(encoding="utf-8")
    keys = [line.split(":")[0] for line in text.splitlines() if re.match(r"^[a-z_]+:", line)]
    assert keys == [
        "schema_version",
        "model",
        "gpu",
        "author",
        "status",
        "source",
        "stack",
        "workload",
        "layout",
        "moe",
        "result",
        "notes",
    ]
    assert "  transformer_engine: '2.18'\n" in text and "  framework: 'Megatron-Bridge 0.7.0'\n" in text
    assert "  excerpt: |-\n    #### Model: Kimi_K2\n" in text  # multi-line text as a block
    assert "notes: |\n  - " in text


def test_check_exits_1_on_a_changed_row_and_writes_nothing(
    capsys: pytest.CaptureFixture[str], project: Project, mb_repo: tuple[Path, str]
) -> None:
    repo, _ = mb_repo
    run(capsys, "--root", project.root, *_import_args(repo, "megatron-bridge"))
    before = imported(project.root)
    page = repo / "docs/performance-summary.md"
    changed = page.read_text(encoding="utf-8").replace("| 5003 | 1300 |", "| 5019 | 1304 |")
    newer = commit(repo, {"docs/performance-summary.md": changed}, "revise a row", "2099-02-10T00:00:00Z")
    code, out, err = run(capsys, "--root", project.root, *_import_args(repo, "megatron-bridge", "--check"))
    assert code == 1
    # Every recipe of the changed page cites its new commit; the archive's recipes are unchanged.
    assert out.splitlines() == [
        "would change recipes/deepseek-v3/gb200/mb-27.02-mxfp8-256gpu.yaml",
        "would change recipes/deepseek-v3/gb300/mb-27.02-mxfp8-256gpu.yaml",
        "would change recipes/llama-3-70b/gb300/mb-27.02-lora-mxfp8-8gpu.yaml",
        "would change recipes/llama-3-70b/gb300/mb-27.02-sft-fp8-32gpu.yaml",
        "would change recipes/llama-3-70b/h100/mb-27.02-fp8-64gpu.yaml",
    ]
    assert "the recipes differ from the import" in err and newer[:12] in err
    assert imported(project.root) == before
    code, _, _ = run(capsys, "--root", project.root, *_import_args(repo, "megatron-bridge"))
    assert code == 0
    assert (
        read(project.root / "recipes/deepseek-v3/gb200/mb-27.02-mxfp8-256gpu.yaml")["result"]["tokens_per_s_per_gpu"]
        == 5019
    )


def test_a_hand_written_recipe_is_never_overwritten_or_removed(
    capsys: pytest.CaptureFixture[str], project: Project, mb_repo: tuple[Path, str]
) -> None:
    repo, _ = mb_repo
    mine = project.add("deepseek-v3/gb300/mb-27.02-mxfp8-256gpu", "schema_version: 2\nmodel: mine\n")
    other = project.add("deepseek-v3/gb300/mb-26.12-by-hand", "schema_version: 2\nmodel: mine too\n")
    code, out, err = run(capsys, "--root", project.root, *_import_args(repo, "megatron-bridge"))
    assert code == 0
    assert "kept recipes/deepseek-v3/gb300/mb-27.02-mxfp8-256gpu.yaml" in err
    assert "deepseek-v3/gb300/mb-27.02-mxfp8-256gpu.yaml" not in out
    assert mine.read_text(encoding="utf-8") == "schema_version: 2\nmodel: mine\n"
    assert other.read_text(encoding="utf-8") == "schema_version: 2\nmodel: mine too\n"  # in 26.12's scope, not its own


def test_an_imported_recipe_the_publisher_no_longer_prints_is_removed_within_the_releases_imported(
    capsys: pytest.CaptureFixture[str], project: Project, mb_repo: tuple[Path, str]
) -> None:
    repo, _ = mb_repo
    run(capsys, "--root", project.root, *_import_args(repo, "megatron-bridge"))
    archive = repo / "docs/performance-summary-archive.md"
    text = archive.read_text(encoding="utf-8")
    without = "\n".join(line for line in text.splitlines() if not line.startswith("| DGX-B200 | 256 | MXFP8")) + "\n"
    commit(repo, {"docs/performance-summary-archive.md": without}, "drop a row", "2099-03-01T00:00:00Z")
    code, out, _ = run(
        capsys, "--root", project.root, *_import_args(repo, "megatron-bridge", "--release", "27.02", "--check")
    )
    assert code == 0 and "would remove" not in out  # 26.12 is not imported: its files are left alone
    code, out, _ = run(capsys, "--root", project.root, *_import_args(repo, "megatron-bridge", "--release", "26.12"))
    assert code == 0
    assert "removed recipes/deepseek-v3/b200/mb-26.12-mxfp8-256gpu.yaml" in out.splitlines()
    assert not (project.root / "recipes/deepseek-v3/b200").exists()


def test_torchtitan_import_from_the_command(
    capsys: pytest.CaptureFixture[str], project: Project, tt_repo: tuple[Path, str, str, str]
) -> None:
    repo, _, published, _ = tt_repo
    code, out, err = run(capsys, "--root", project.root, *_import_args(repo, "torchtitan", "--commit", published))
    assert code == 0, err
    assert out.count("added recipes/") == 5
    assert "4 rows skipped" in err
    code, _, _ = run(
        capsys, "--root", project.root, *_import_args(repo, "torchtitan", "--commit", published, "--check")
    )
    assert code == 0
    # The next commit edits the Trainy report: its recipes now cite that commit.
    code, out, _ = run(capsys, "--root", project.root, *_import_args(repo, "torchtitan", "--check"))
    assert code == 1
    assert sorted(out.splitlines()) == [
        "would change recipes/llama-3.1-8b/h200/tt-209906-trainy-whitefiber-fp8-32gpu.yaml",
        "would change recipes/llama-3.1-8b/h200/tt-209906-trainy-whitefiber-fp8-64gpu.yaml",
    ]


def test_import_usage_errors(capsys: pytest.CaptureFixture[str], project: Project, tmp_path: Path) -> None:
    code, _, err = run(capsys, "--root", project.root, *_import_args(tmp_path / "nowhere", "torchtitan"))
    assert code == 2 and "no such folder" in err
    code, _, err = run(capsys, "--root", project.root, "import", "somewhere-else", "--repo", tmp_path)
    assert code == 2 and "invalid choice" in err


# --- the YAML writer ------------------------------------------------------------------------------


def test_yaml_writer_orders_keys_by_the_schema_and_quotes_versions() -> None:
    data = {
        "notes": "a\nb\n",
        "stack": {"source": "x", "cuda": "13.2.1.009", "framework": "Megatron-Bridge 0.5.0"},
        "model": "M",
        "env": {"B": "2", "A": "1"},
        "schema_version": 2,
    }
    text = yamlwrite.dump(yamlwrite.in_schema_order(data, SCHEMA_DOCUMENT))
    assert text == (
        "schema_version: 2\n"
        "model: M\n"
        "stack:\n"
        "  framework: 'Megatron-Bridge 0.5.0'\n"
        "  cuda: '13.2.1.009'\n"
        "  source: x\n"
        "env:\n"
        "  B: '2'\n"
        "  A: '1'\n"
        "notes: |\n"
        "  a\n"
        "  b\n"
    )


# --- the committed recipes ----------------------------------------------------------------------


def _committed() -> list[tuple[str, dict[str, Any]]]:
    found = []
    for path in sorted((REPO / "recipes").rglob("*.yaml")):
        found.append((path.relative_to(REPO / "recipes").as_posix(), read(path)))
    return found


IMPORTED = [(name, data) for name, data in _committed() if data.get("source", {}).get("importer")]


def test_the_catalogue_holds_the_imported_recipes() -> None:
    importers = [data["source"]["importer"] for _, data in IMPORTED]
    assert importers.count("megatron-bridge") >= 30 and importers.count("torchtitan") >= 1
    # issue 23: at least 40 MLPerf results from at least 4 submitters, AMD among them, each with its
    # time to train, its quality target and its launch files
    mlperf = [data for _, data in IMPORTED if data["source"]["importer"] == "mlperf"]
    submitters = {data["benchmark"]["submitter"] for data in mlperf}
    assert len(mlperf) >= 40 and len(submitters) >= 4 and "AMD" in submitters
    for data in mlperf:
        assert data["result"]["time_to_train"]["minutes"] > 0 and data["result"]["time_to_train"]["quality_target"]
        if data["launch"]["kind"] == "documented":
            # the command sources the configuration the launch cites (the first config_*.sh of its files,
            # after the README and any run.sub it is read through), never a README's `config_<system>.sh`;
            # by the path the README gives (`configs/…`; MangoBoost's `--config_sh conf/…` runs in its container)
            names = [file["path"].rsplit("/", 1)[-1] for file in data["launch"]["source"]["files"]]
            config = next(name for name in names if re.fullmatch(r"config_[^<>]+\.sh", name))
            sourced = re.search(r"(?:source|--config_sh) (?:\S*/)?(config_\S+\.sh)", data["launch"]["command"])
            assert sourced and sourced.group(1) == config, (config, data["launch"]["command"])
            assert not re.search(r"source \S*config_\S*<", data["launch"]["command"])


@pytest.mark.parametrize(("name", "data"), IMPORTED, ids=[name for name, _ in IMPORTED])
def test_a_committed_import_is_its_excerpt(name: str, data: dict[str, Any]) -> None:
    """Each published value of the recipe, read again from the excerpt the recipe quotes."""
    excerpt = data["source"]["excerpt"]
    workload, layout, result = data["workload"], data["layout"], data["result"]
    if data["source"]["importer"] == "megatron-bridge":
        variant = "alternative" if "the values in parentheses" in data["source"]["where"] else "primary"
        values = mb.parse_excerpt(excerpt, name)[variant]
        precision, scaling, _ = megatron_bridge_recipes.PRECISIONS[values.precision]
        assert (workload["precision"], workload.get("fp8_scaling")) == (precision, scaling)
        assert (workload["row_tokens"], workload["global_batch"]) == (values.seq_len, values.gbs)
        assert (layout["tp"], layout["pp"], layout["cp"], layout["rows_per_microbatch"]) == (
            values.tp,
            values.pp,
            values.cp,
            values.mbs,
        )
        assert (layout.get("vpp"), layout.get("ep"), layout.get("gradient_accumulation")) == (
            values.vp,
            values.ep,
            values.ga,
        )
        assert data["gpu"]["count"] == values.gpus
        assert data["gpu"]["system"] == values.system
        assert data["model"] == megatron_bridge_recipes.MODELS[values.model][0]
        assert result["tokens_per_s_per_gpu"] == values.tokens
        assert [figure["value"] for figure in result["publisher_figures"]] == [values.tflops]
    elif data["source"]["importer"] == "mlperf":
        log, problems = mllog.parse_mllog(excerpt, name)
        assert log is not None and not problems, problems
        assert workload["global_batch"] == log.global_batch_size.value  # type: ignore[union-attr]
        assert log.submission["division"].value == data["benchmark"]["division"]
        if log.sequence_length is not None:
            assert workload["row_tokens"] == log.sequence_length.value
        if "rank" in workload.get("method", {}):
            assert workload["method"]["rank"] == log.first("lora_rank").value  # type: ignore[union-attr]
        assert log.run_stop is not None and log.status == "success"
        assert f"#L{data['source']['url'].rsplit('#L', 1)[1]}" in data["source"]["url"]
    else:
        values = tt.parse_excerpt(excerpt, (data["model"],))
        assert result["tokens_per_s_per_gpu"] == values.tokens_per_gpu
        if values.seq_len is not None:
            assert workload["row_tokens"] == values.seq_len
        if values.global_batch is not None:
            assert workload["global_batch"] == values.global_batch
        for key, value in (("tp", values.tp), ("pp", values.pp), ("cp", values.cp), ("dp", values.fsdp)):
            if value is not None:
                assert layout[key] == value
        if values.gpus is not None:
            assert data["gpu"]["count"] == values.gpus
        if values.precision is not None:
            assert workload["precision"] == values.precision
        if "memory_gib" in result:
            assert result["memory_gib"] == values.memory_gib


@pytest.mark.parametrize(("name", "data"), IMPORTED, ids=[name for name, _ in IMPORTED])
def test_a_committed_import_is_valid(name: str, data: dict[str, Any]) -> None:
    schema = Schema.load(REPO / "schema/recipe.schema.yaml")
    document, problems = read_document((REPO / "recipes" / name).read_bytes(), name)
    assert document is not None and not problems
    assert schema.problems(document.data, document.source_map, name) == []
    if data["status"] == "deprecated":
        assert (REPO / "recipes" / f"{data['deprecation']['superseded_by']}.yaml").is_file()


_PINNED = (
    re.compile(r"^https://github\.com/[^/]+/[^/]+/blob/[0-9a-f]{40}/[^#\s]+(#L\d+(-L\d+)?)?$"),
    re.compile(r"^https://arxiv\.org/abs/\d{4}\.\d{4,5}v\d+$"),
    re.compile(r"^https://doi\.org/10\.\d{4,9}/\S+$"),
    re.compile(r"^https://web\.archive\.org/web/\d{14}/\S+$"),
)


@pytest.mark.parametrize(("name", "data"), _committed(), ids=[name for name, _ in _committed()])
def test_every_published_recipe_cites_a_source_that_cannot_change(name: str, data: dict[str, Any]) -> None:
    if data.get("status") != "published":
        return
    url = data["source"]["url"]
    assert any(pattern.match(url) for pattern in _PINNED), f"{name}: {url} is not pinned to a commit or version"


def test_the_pinned_source_check_refuses_moving_addresses() -> None:
    for moving in (
        "https://github.com/NVIDIA-NeMo/Megatron-Bridge/blob/main/docs/performance-summary.md",
        "https://github.com/o/r/blob/4ab94df/docs/x.md",
        "https://arxiv.org/abs/2401.04088",
        "https://example.org/results",
    ):
        assert not any(pattern.match(moving) for pattern in _PINNED), moving


# --- documented launches: Megatron-Bridge's own files at the pinned commits ----------------------

RELEASES = FIXTURES / "megatron-bridge-releases"
RELEASE_COMMITS = yaml.safe_load((RELEASES / "commits.yaml").read_text(encoding="utf-8"))
IMPORTED_AT = RELEASE_COMMITS[-1]["commit"]
LAUNCH_FIXTURES = {
    mb.REPOSITORY: RELEASES,
    tt.REPOSITORY: FIXTURES / "torchtitan-releases",
    **{f"mlcommons/training_results_v{r}": FIXTURES / f"mlperf-training-v{r}" for r in ("4.0", "4.1", "5.0", "5.1")},
}
"""Where the files each repository's launches cite are kept, one folder per commit."""


@dataclass(frozen=True)
class ReleaseRepo:
    repo: Path
    real: dict[str, str]
    """The scratch repository's commit -> the upstream commit its folder was copied at."""

    @property
    def scratch(self) -> dict[str, str]:
        return {real: scratch for scratch, real in self.real.items()}

    def as_upstream(self, text: str) -> str:
        for scratch, real in self.real.items():
            text = text.replace(scratch, real)
        return text


@pytest.fixture(scope="module")
def release_repo(tmp_path_factory: pytest.TempPathFactory) -> ReleaseRepo:
    """Each folder of megatron-bridge-releases committed as the whole tree, tagged as upstream tags it."""
    repo = new_repo(tmp_path_factory.mktemp("releases"), "megatron-bridge")
    real = {}
    for entry in RELEASE_COMMITS:
        for path in list(repo.iterdir()):
            if path.name != ".git":
                shutil.rmtree(path) if path.is_dir() else path.unlink()
        commit_id = commit(repo, fixture_files(RELEASES / entry["commit"]), entry["tag"] or "import", entry["date"])
        if entry["tag"]:
            git(repo, "tag", entry["tag"])
        real[commit_id] = entry["commit"]
    return ReleaseRepo(repo, real)


@pytest.fixture
def releases(release_repo: ReleaseRepo, monkeypatch: pytest.MonkeyPatch) -> launches.Releases:
    """The launch reader on the scratch repository, its version index pinned at the scratch v0.6.0."""
    index_commit, path = launches.VERSION_INDEX
    monkeypatch.setattr(launches, "VERSION_INDEX", (release_repo.scratch[index_commit], path))
    return launches.Releases(GitSource.open(release_repo.repo, release_repo.scratch[IMPORTED_AT]))


def test_the_version_picker_names_each_containers_megatron_bridge() -> None:
    text = (RELEASES / launches.VERSION_INDEX[0] / launches.VERSION_INDEX[1]).read_text(encoding="utf-8")
    index = launches.version_index(text)
    assert {release: version for release, (version, _) in index.items()} == {
        "26.08": "0.6.0",
        "26.06.01": "0.5.1",
        "26.06": "0.5.0",
        "26.04.01": "0.4.2",
        "26.04": "0.4.0",
        "26.02.01": "0.3.1",
        "26.02": "0.3.0",
        "25.11": "0.2.0",
        "25.09": "0.1.0",
    }
    line = text.splitlines()[index["26.08"][1] - 1]
    assert "0.6.0 (latest) · 26.08" in line


def test_a_flat_perf_recipe_is_read_with_its_helpers_and_environment(releases: launches.Releases) -> None:
    found = releases.find(launches.Row("26.08", "Pre-Training", "DeepSeekV3", "gb200", 256, "MXFP8", 4096))
    assert isinstance(found, launches.Documented)
    assert (found.release.tag, found.release.shape, found.launcher) == ("v0.6.0", "flat", "train.sh")
    assert found.configuration == "deepseek_v3_pretrain_256gpu_gb200_fp8mx_config"
    assert found.selection == (("--recipe", found.configuration), ("--mode", "pretrain"))
    # The perf recipe sets the layout and batch; the library recipe it starts from (recipes/deepseek/h100/) gives
    # the experts' TP and the model's sequence length, which a perf helper gives the dataset (and the runner
    # the model back from it).
    assert found.sets == {
        "gpus": 256, "tp": 1, "pp": 4, "vp": 4, "cp": 1, "ep": 64, "etp": 1, "gbs": 4096, "mbs": 1,
        "seq_length": 4096, "precision": "mxfp8",
    }  # fmt: skip
    assert found.unresolved == {}
    library = "src/megatron/bridge/recipes/deepseek/h100/deepseek_v3.py"
    assert (found.origins["etp"].path, found.origins["seq_length"].path) == (library, library)
    at_tag = RELEASES / next(entry["commit"] for entry in RELEASE_COMMITS if entry["tag"] == "v0.6.0")
    written = (at_tag / library).read_text().splitlines()[found.origins["seq_length"].line - 1]
    assert written.strip() == "cfg.model.seq_length = 4096"
    assert found.env is not None
    assert next(iter(found.env)) == "TORCH_NCCL_HIGH_PRIORITY"  # **COMMON_PERF_ENV_VARS first, from environment.py
    assert found.env["NVTE_ALLOW_NONDETERMINISTIC_ALGO"] == "0" and found.env["USE_MNNVL"] == "1"
    cited = {(item.path, item.what): (item.first, item.last) for item in found.cited}
    function = cited[("src/megatron/bridge/perf_recipes/deepseek/gb200/deepseek_v3.py", found.configuration)]
    at_tag = RELEASES / next(entry["commit"] for entry in RELEASE_COMMITS if entry["tag"] == "v0.6.0")
    lines = (at_tag / "src/megatron/bridge/perf_recipes/deepseek/gb200/deepseek_v3.py").read_text().splitlines()
    assert lines[function[0] - 1].startswith(f"def {found.configuration}(")
    assert ("src/megatron/bridge/perf_recipes/environment.py", "COMMON_PERF_ENV_VARS") in cited
    assert ("src/megatron/bridge/perf_recipes/_common.py", "_benchmark_common") in cited
    # each name with the file and line that set it, which launch.withheld cites for a name a recipe may not set
    assert [name for name, _, _ in found.env_lines] == list(found.env)
    for name, path, line in found.env_lines:
        assert f'"{name}"' in (at_tag / path).read_text().splitlines()[line - 1], (name, path, line)


def test_a_megatron_bridge_environment_name_a_recipe_may_not_set_is_withheld_with_its_line(
    release_repo: ReleaseRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No release sets one today: USE_MNNVL stands in for one, and goes where LD_PRELOAD would."""
    real = common.is_dangerous_name
    monkeypatch.setattr(common, "is_dangerous_name", lambda name: "stands in" if name == "USE_MNNVL" else real(name))
    index_commit, path = launches.VERSION_INDEX
    monkeypatch.setattr(launches, "VERSION_INDEX", (release_repo.scratch[index_commit], path))
    launch = _launch_import(release_repo)["deepseek-v3/gb200/mb-26.08-mxfp8-256gpu"]["launch"]
    (withheld,) = launch["withheld"]
    assert "USE_MNNVL" not in launch["env"] and withheld["name"] == "USE_MNNVL" and withheld["value"] == "1"
    at_tag = RELEASES / release_repo.real[launch["source"]["commit"]]
    assert '"USE_MNNVL"' in (at_tag / withheld["file"]).read_text().splitlines()[withheld["line"] - 1]
    assert withheld["file"] in {item["path"] for item in launch["source"]["files"]}
    assert "withheld from env as names a recipe may not set (the page warns of each): USE_MNNVL." in launch["notes"]


def test_a_flat_recipe_built_on_another_gets_its_values(releases: launches.Releases) -> None:
    # GB300's DeepSeek V4 Flash starts from GB200's function and sets only its environment.
    found = releases.find(launches.Row("26.08", "Pre-Training", "DeepSeekV4 Flash", "gb300", 128, "MXFP8", 2048))
    assert isinstance(found, launches.Documented)
    assert found.sets == {
        "gpus": 128, "tp": 1, "pp": 1, "vp": None, "cp": 1, "ep": 64, "etp": 1, "gbs": 2048, "mbs": 1,
        "seq_length": 4096, "precision": "mxfp8",
    }  # fmt: skip
    assert [item.what for item in found.cited if item.path.endswith("deepseek_v4.py")] == [
        "deepseek_v4_flash_pretrain_128gpu_gb300_fp8mx_config",
        "deepseek_v4_flash_pretrain_128gpu_gb200_fp8mx_config",
        # the library recipe GB200's starts from, where the sequence length is written
        "deepseek_v4_flash_pretrain_64gpu_gb200_bf16_config",
    ]
    assert found.origins["seq_length"].path == "src/megatron/bridge/recipes/deepseek/gb200/deepseek_v4.py"
    # Nemotron 3 Ultra: values held in local names, a helper with keyword arguments, MBS set by a helper.
    ultra = releases.find(launches.Row("26.08", "Pre-Training", "Nemotron_3_Ultra", "gb200", 256, "MXFP8", 256))
    assert isinstance(ultra, launches.Documented)
    assert (ultra.sets["tp"], ultra.sets["ep"], ultra.sets["gbs"], ultra.sets["mbs"], ultra.sets["seq_length"]) == (
        2,
        64,
        256,
        1,
        8192,
    )


def test_a_workload_base_config_is_the_launchers_default_variant(releases: launches.Releases) -> None:
    found = releases.find(launches.Row("26.06", "Pre-Training", "DeepSeekV3", "gb300", 256, "MXFP8", 4096))
    assert isinstance(found, launches.Documented)
    assert (found.release.tag, found.release.shape, found.launcher) == ("v0.5.0", "variants", "setup_experiment.py")
    assert found.configuration == "DEEPSEEK_V3_PRETRAIN_CONFIG_GB300_FP8_MX_V2"  # --config_variant defaults to v2
    assert found.selection == (
        ("-m", "deepseek"),
        ("-mr", "deepseek_v3"),
        ("--task", "pretrain"),
        ("-g", "gb300"),
        ("-c", "fp8_mx"),
    )
    assert found.sets == {
        "gpus": 256, "tp": 1, "pp": 2, "vp": 8, "cp": 1, "ep": 32, "etp": 1, "gbs": 4096, "mbs": 1,
        "seq_length": 4096, "precision": "mxfp8",
    }  # fmt: skip
    # The mock dataset is as long as the model's sequence, which the family's configuration function sets.
    assert found.origins["seq_length"].path == "scripts/performance/configs/deepseek/deepseek_llm_pretrain.py"
    assert found.runner == "uv run python" and found.prelude == ()
    assert found.env is not None and found.env["PYTORCH_CUDA_ALLOC_CONF"] == "expandable_segments:True"
    # The row at GBS 15360 is the variant named for it.
    batch = releases.find(launches.Row("26.06", "Pre-Training", "DeepSeekV3", "gb300", 256, "MXFP8", 15360))
    assert isinstance(batch, launches.Documented)
    assert batch.configuration.endswith("_GBS15360") and batch.selection[-1] == ("-cv", "gbs15360")
    # Kimi K2's configurations have no version suffix: the launcher's last fallback.
    kimi = releases.find(launches.Row("26.06", "Pre-Training", "Kimi_K2", "gb300", 256, "MXFP8", 4096))
    assert isinstance(kimi, launches.Documented) and kimi.configuration == "KIMI_K2_PRETRAIN_CONFIG_GB300_FP8_MX"
    # 26.x prints FP8 without its scaling: the one FP8 configuration there is.
    fp8 = releases.find(launches.Row("26.06", "SFT", "LLAMA3_70B", "h100", 32, "FP8", 32))
    assert isinstance(fp8, launches.Documented)
    assert (fp8.configuration, fp8.compute_dtype) == ("LLAMA3_70B_SFT_CONFIG_H100_FP8_CS_V1", "fp8_cs")
    assert ("--task", "sft") in fp8.selection


def test_a_25_11_base_config_and_its_launcher(releases: launches.Releases) -> None:
    found = releases.find(launches.Row("25.11", "Pre-Training", "LLAMA3_70B", "h100", 64, "FP8-CS", 128))
    assert isinstance(found, launches.Documented)
    assert (found.release.tag, found.release.shape) == ("v0.2.0", "base")
    assert found.configuration == "LLAMA3_70B_H100_FP8_CS_BASE_CONFIG"
    assert found.selection == (("-m", "llama3"), ("-s", "70b"), ("-g", "h100"), ("-c", "fp8_cs"))
    assert found.sets == {
        "gpus": 64, "tp": 4, "pp": 8, "vp": 5, "cp": 1, "ep": 1, "etp": None, "gbs": 128, "mbs": 1,
        "seq_length": 8192, "precision": "fp8",
    }  # fmt: skip
    assert found.origins["seq_length"].path == "scripts/performance/configs/llama3/llama3_llm_pretrain.py"
    assert found.runner == "python" and found.prelude == ("pip install git+https://github.com/NVIDIA-NeMo/Run.git",)
    assert found.env == {
        "TORCH_NCCL_AVOID_RECORD_STREAMS": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "TOKENIZERS_PARALLELISM": "False",
        "NCCL_NVLS_ENABLE": "0",
        "NVTE_NORM_FWD_USE_CUDNN": "1",
        "NVTE_NORM_BWD_USE_CUDNN": "1",
        "TORCH_NCCL_HIGH_PRIORITY": "1",
    }


def test_a_row_without_a_documented_launch_says_why(
    release_repo: ReleaseRepo, releases: launches.Releases, monkeypatch: pytest.MonkeyPatch
) -> None:
    missing = releases.find(launches.Row("26.08", "Pre-Training", "Qwen3_30B_a3B", "gb200", 16, "BF16", 512))
    assert isinstance(missing, launches.NotDocumented)
    assert "no qwen3_30b_a3b_pretrain_16gpu_gb200_bf16_config" in missing.reason
    both = releases.find(launches.Row("26.06", "Pre-Training", "DeepSeekV3", "h100", 1024, "FP8", 8192))
    assert isinstance(both, launches.NotDocumented)
    assert "does not say which FP8 recipe ran" in both.reason and "(-c fp8_sc)" in both.reason
    unknown_model = releases.find(launches.Row("25.11", "Pre-Training", "Kimi_K2", "gb300", 256, "MXFP8", 4096))
    assert isinstance(unknown_model, launches.NotDocumented) and "BASE_NAMES" in unknown_model.reason
    # A clone without the pinned index, or without a release's tag, cannot say: no launch at all.
    monkeypatch.setattr(launches, "VERSION_INDEX", ("0" * 40, "docs/versions1.json"))
    unpinned = launches.Releases(GitSource.open(release_repo.repo, release_repo.scratch[IMPORTED_AT]))
    assert isinstance(
        unpinned.find(launches.Row("26.08", "Pre-Training", "DeepSeekV3", "gb200", 256, "MXFP8", 4096)),
        launches.Unknown,
    )
    assert isinstance(  # 25.09 is Megatron-Bridge 0.1.0, whose tag the scratch repository lacks
        releases.find(launches.Row("25.09", "Pre-Training", "DeepSeekV3", "gb200", 256, "MXFP8", 2048)),
        launches.Unknown,
    )


def _launch_import(release_repo: ReleaseRepo) -> dict[str, dict[str, Any]]:
    source = GitSource.open(release_repo.repo, release_repo.scratch[IMPORTED_AT])
    imported = megatron_bridge_recipes.build(source, None)
    return {planned.id: planned.data for planned in imported.recipes}


def test_the_committed_launches_are_what_the_publishers_files_make(
    release_repo: ReleaseRepo, releases: launches.Releases
) -> None:
    """The import run on the copies of the publisher's files gives every committed recipe its launch,
    its first-published date and its status (its deprecation rests on the launches' FP8 scaling)."""
    made = _launch_import(release_repo)
    committed = {
        name.removesuffix(".yaml"): data for name, data in IMPORTED if data["source"]["importer"] == "megatron-bridge"
    }
    assert sorted(made) == sorted(committed)
    for recipe_id, data in made.items():
        launch = yaml.safe_load(release_repo.as_upstream(yaml.safe_dump(data["launch"], allow_unicode=True)))
        assert launch == committed[recipe_id]["launch"], recipe_id
        first = yaml.safe_load(release_repo.as_upstream(yaml.safe_dump(data["source"]["first_published"])))
        assert first == committed[recipe_id]["source"]["first_published"], recipe_id
        assert data["status"] == committed[recipe_id]["status"], recipe_id
        assert data.get("deprecation") == committed[recipe_id].get("deprecation"), recipe_id
        launch_notes = [item for item in data.get("disagreements", []) if item["check"] == "Launch values"]
        assert launch_notes == [
            item for item in committed[recipe_id].get("disagreements", []) if item["check"] == "Launch values"
        ], recipe_id
    kinds = Counter(data["launch"]["kind"] for data in made.values())
    assert kinds == {"documented": len(made)}


def _documented_launches() -> list[tuple[str, dict[str, Any]]]:
    return [(name, data["launch"]) for name, data in _committed() if data.get("launch", {}).get("kind") == "documented"]


@pytest.mark.parametrize(("name", "launch"), _documented_launches(), ids=[name for name, _ in _documented_launches()])
def test_every_file_a_launch_cites_is_kept_at_the_commit_it_names(name: str, launch: dict[str, Any]) -> None:
    source = launch["source"]
    folder = LAUNCH_FIXTURES[source["repository"]] / source["commit"]
    assert folder.is_dir(), f"{name}: no copy of {source['repository']} at {source['commit']} in {folder}"
    for item in source["files"]:
        path = folder / item["path"]
        assert path.is_file(), f"{name}: {item['path']} at {source['commit']} is not in {folder}"
        lines = path.read_text(encoding="utf-8").splitlines()
        anchor = ""
        if "lines" in item:
            first, last = item["lines"]
            assert 1 <= first <= last <= len(lines), f"{name}: lines {first}-{last} of {item['path']}"
            anchor = f"#L{first}" if first == last else f"#L{first}-L{last}"
            what = item.get("what", "")
            if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", what):  # a function or constant: defined at its first line
                assert re.match(rf"(def |){re.escape(what)}\b", lines[first - 1]), f"{name}: {what} at {first}"
        assert (
            item["url"] == f"https://github.com/{source['repository']}/blob/{source['commit']}/{item['path']}{anchor}"
        )


def test_check_exits_1_when_a_releases_configuration_changes(
    capsys: pytest.CaptureFixture[str],
    project: Project,
    release_repo: ReleaseRepo,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    repo = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(release_repo.repo), str(repo)], check=True, env={**os.environ, **GIT_ENV})
    index_commit, path = launches.VERSION_INDEX
    monkeypatch.setattr(launches, "VERSION_INDEX", (release_repo.scratch[index_commit], path))
    at = release_repo.scratch[IMPORTED_AT]
    args = _import_args(repo, "megatron-bridge", "--commit", at, "--release", "26.08")
    code, _, err = run(capsys, "--root", project.root, *args)
    assert code == 0, err
    code, _, err = run(capsys, "--root", project.root, *args, "--check")
    assert code == 0 and "up to date" in err
    # The 26.08 tag moved to a commit whose GB200 DeepSeek-V3 configuration doubles its global batch.
    git(repo, "checkout", "-q", "v0.6.0")
    recipe_file = "src/megatron/bridge/perf_recipes/deepseek/gb200/deepseek_v3.py"
    text = (repo / recipe_file).read_text(encoding="utf-8")
    start = text.index("def deepseek_v3_pretrain_256gpu_gb200_fp8mx_config")
    edited = text[:start] + text[start:].replace("global_batch_size = 4096", "global_batch_size = 8192", 1)
    commit(repo, {recipe_file: edited}, "retune", "2099-03-01T00:00:00Z")
    git(repo, "tag", "-f", "v0.6.0")
    code, out, err = run(capsys, "--root", project.root, *args, "--check")
    assert code == 1
    # Every 26.08 launch checks out the tag's new commit; the retuned one also sets another batch.
    changed = out.splitlines()
    assert len(changed) == 18 and all(line.startswith("would change ") and "mb-26.08-" in line for line in changed)
    assert "would change recipes/deepseek-v3/gb200/mb-26.08-mxfp8-256gpu.yaml" in changed
    code, _, _ = run(capsys, "--root", project.root, *args)
    written = read(project.root / "recipes/deepseek-v3/gb200/mb-26.08-mxfp8-256gpu.yaml")
    # The launch then sets the row's batch with the launcher's own option, and says so; nothing disagrees.
    assert written["launch"]["sets"]["gbs"] == 4096
    assert written["launch"]["command"].endswith("    --mode pretrain \\\n    -gb 4096\n")
    assert "GBS 4,096 (the configuration runs 8,192) with `-gb 4096`" in written["launch"]["notes"]
    assert "disagreements" not in written


def test_every_recipe_says_how_it_is_launched() -> None:
    """As run (`run`), as the publisher documents it (`launch`), or why the publisher documents none."""
    for name, data in _committed():
        launch = data.get("launch")
        assert "run" in data or launch is not None, f"{name}: neither run nor launch"
        if launch is None or launch["kind"] != "documented":
            continue
        files = [item["path"] for item in launch["source"]["files"]]
        if data.get("source", {}).get("importer") == "megatron-bridge":
            # Its container tag (its release's: a patch release's, 26.04.01, named as the README's own
            # example names one), its GPU count, and the configuration it loads linked at a commit.
            release = re.search(r"\(([0-9.]+) container\)", launch["checkout"]).group(1)
            assert launch["container"] == f"nvcr.io/nvidia/nemo:{release}", name
            assert f"-i {launch['container']} " in launch["command"] or f"image {launch['container']} " in launch[
                "command"
            ].replace("--container-image", "image"), name
            nodes = data["gpu"]["count"] // data["gpu"]["per_node"]
            asks = f"-ng {data['gpu']['count']}" in launch["command"] or f"--nodes {nodes} " in launch["command"]
            assert launch["sets"]["gpus"] > 0 and asks, name
            assert any("perf_recipes/" in path or "workload_base_configs.py" in path for path in files), name
        if data.get("source", {}).get("publisher", "").startswith("MLCommons"):
            assert any(re.search(r"/config_[^/]+\.sh$", path) for path in files), name
    # Issue 21: at least 95% of current recipes show a launch (as run, or the publisher's documented one).
    current = Counter(
        "run" if "run" in data else data["launch"]["kind"] for _, data in _committed() if "deprecation" not in data
    )
    assert (current["documented"] + current["run"]) / sum(current.values()) >= 0.95, current
    # Every Megatron-Bridge row of every imported release has the documented launch of its release.
    megatron = Counter(
        data["launch"]["kind"]
        for _, data in _committed()
        if data.get("source", {}).get("importer") == "megatron-bridge"
    )
    assert set(megatron) == {"documented"}, megatron


def test_imported_launches_declare_every_input() -> None:
    from openrecipes.checking.derive import launch_inputs

    schema = Schema.load(REPO / "schema/recipe.schema.yaml")
    for name, data in _committed():
        if data.get("launch", {}).get("kind") != "documented":
            continue
        undeclared = [written for written, text in launch_inputs(schema.record(data)) if text is None]
        assert undeclared == [], f"{name}: the command reads {undeclared} and nothing declares them"
