"""`openrecipes import megatron-bridge-cards`: Megatron-Bridge's model verification cards as publisher-verified recipes.

No network and none of the publisher's code: tests/importer_fixtures/megatron-bridge-cards/ holds a
stand-in Megatron-Bridge commit written for these tests (bridge/: a launcher, a runner and one flat perf
recipe function) and two versions of the cards folder, committed after it to a throwaway repository; the
cards name that commit (`{bridge}`). The Qwen3-30B-A3B card's figures and commands are the publisher's.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from conftest import Project
from test_importers import FIXTURES, commit, fixture_files, imported, new_repo, read, run

from openrecipes.importers import megatron_bridge_cards as cards
from openrecipes.importers import megatron_bridge_cards_recipes as card_recipes
from openrecipes.importers.common import Import
from openrecipes.importers.gitsource import GitSource
from openrecipes.importers.megatron_bridge_cards_launch import Command, parse_command
from openrecipes.loader import load_catalogue

CARDS = FIXTURES / "megatron-bridge-cards"
QWEN = "examples/model_verification_cards/qwen3-30b-a3b/card.yaml"
BROKEN = "examples/model_verification_cards/broken/card.yaml"


class CardRepo:
    def __init__(self, repo: Path, bridge: str, first: str, latest: str) -> None:
        self.repo, self.bridge, self.first, self.latest = repo, bridge, first, latest

    def card(self, path: str, commit: str | None = None) -> str:
        return GitSource.open(self.repo, commit or self.latest).show(path)


def _cards(folder: str, bridge: str) -> dict[str, str]:
    return {path: text.replace("{bridge}", bridge) for path, text in fixture_files(CARDS / folder).items()}


@pytest.fixture(scope="module")
def card_repo(tmp_path_factory: pytest.TempPathFactory) -> CardRepo:
    """The stand-in bridge commit, then the cards as first published, then as they are now."""
    repo = new_repo(tmp_path_factory.mktemp("cards"), "megatron-bridge")
    bridge = commit(repo, fixture_files(CARDS / "bridge"), "the code the runs ran", "2099-02-01T00:00:00Z")
    first = commit(repo, _cards("cards-v1", bridge), "the first card", "2099-03-01T12:00:00+02:00")
    latest = commit(repo, _cards("cards-v2", bridge), "weak scaling, and more cards", "2099-04-01T00:00:00Z")
    return CardRepo(repo, bridge, first, latest)


@pytest.fixture(scope="module")
def built(card_repo: CardRepo) -> Import:
    return card_recipes.build(GitSource.open(card_repo.repo, None))


def _recipe(built: Import, recipe_id: str) -> dict[str, Any]:
    return next(recipe.data for recipe in built.recipes if recipe.id == recipe_id)


# --- reading a card -------------------------------------------------------------------------------


def test_a_card_reads_into_runs_each_value_with_its_file_and_line(card_repo: CardRepo) -> None:
    card = cards.read_card(QWEN, card_repo.card(QWEN))
    assert card.problems == ()
    by_where = {run.where: run for run in card.runs}
    assert list(by_where) == [
        "items.pretrain_performance.H100",
        "items.pretrain_performance.B200",
        "items.pretrain_performance.GB200",
        "items.pretrain_performance.GB300",
        *(f"items.pretrain_weak_scaling.GB300.points[{index}]" for index in range(4)),
    ]  # `items.pretrain` is not a performance run
    gb300 = by_where["items.pretrain_performance.GB300"]
    assert (gb300.path, gb300.line, gb300.gpu) == (QWEN, 65, cards.At("GB300", QWEN, 65))
    assert gb300.status == cards.At("verified", QWEN, 66)
    assert gb300.precision == cards.At("fp8_mx", QWEN, 67)
    assert gb300.bridge_commit == cards.At(card_repo.bridge, QWEN, 68)
    assert gb300.commit_of == "item"
    assert gb300.container == cards.At("nvcr.io/nvidia/nemo:26.06", QWEN, 14)
    assert gb300.last_verified == cards.At(dt.date(2026, 8, 18), QWEN, 74, "2026-08-18")
    assert gb300.command_lines == (
        "./scripts/training/train.sh --wait --nodes 2 --gpus-per-node 4",
        "--recipe qwen3_30b_a3b_pretrain_8gpu_gb300_fp8mx_config",
        "--mode pretrain --max_steps 50 --seq_length 4096",
        "logger.save_config_filepath=work/model-verification/qwen3-30b-a3b/gb300-performance/ConfigContainer.yaml",
    )
    metrics = gb300.metrics
    assert metrics.initial_loss == cards.At(12.34753, QWEN, 76, "12.34753")
    assert metrics.final_loss == cards.At(8.125566, QWEN, 77, "8.125566")
    assert metrics.step_time_ms == cards.At(5854.91, QWEN, 78, "5854.910")
    assert metrics.tflops_per_gpu == cards.At(1030.07, QWEN, 79, "1030.070")
    assert metrics.tokens_per_gpu == cards.At(44773.361, QWEN, 80, "44773.361")
    assert metrics.peak_allocated_gib is None and metrics.peak_reserved_gib is None  # not published: None
    # The excerpt is the card's own lines: its verification environment, then the item.
    lines = card_repo.card(QWEN).splitlines()
    assert gb300.excerpt_lines == ((13, 15), (65, 84))
    assert gb300.excerpt == "\n".join(lines[12:15]) + "\n\n" + "\n".join(lines[64:84])
    # An item without a bridge_commit of its own names the card's.
    h100 = by_where["items.pretrain_performance.H100"]
    assert (h100.bridge_commit, h100.commit_of) == (cards.At(card_repo.bridge, QWEN, 15), "card")


def test_a_weak_scaling_point_is_a_run_with_its_gpus_batch_and_the_items_own_values(card_repo: CardRepo) -> None:
    card = cards.read_card(QWEN, card_repo.card(QWEN))
    points = [run for run in card.runs if run.item == cards.WEAK_SCALING]
    assert [(run.point, run.num_gpus and run.num_gpus.value) for run in points] == [(0, 8), (1, 32), (2, 128), (3, 256)]
    assert [run.global_batch and run.global_batch.value for run in points] == [512, 2048, 8192, 16384]
    assert {run.status.value for run in points} == {"verified"}
    assert {run.last_verified and run.last_verified.value for run in points} == {dt.date(2026, 8, 15)}
    second = points[1]
    assert second.metrics.initial_loss == cards.At(12.3471, QWEN, second.line + 8, "12.347100")
    # Its excerpt leaves the other points out: the item's own lines, this point, then the item's result.
    assert second.excerpt_lines == ((13, 15), (87, 92), (106, 118), (145, 148))
    assert "num_gpus: 32" in second.excerpt and "num_gpus: 8\n" not in second.excerpt


def test_a_card_in_a_shape_not_known_is_located_problems_and_its_other_runs_are_read(card_repo: CardRepo) -> None:
    card = cards.read_card(BROKEN, card_repo.card(BROKEN))
    assert [(problem.line, problem.where, problem.message) for problem in card.problems] == [
        (
            14,
            "$.items.pretrain_performance.H100.dataset",
            "'dataset' is not a key of a pretrain_performance item this importer knows (bridge_commit, command, "
            "expected_result, last_verified, metrics, precision, status): what it says of the run cannot be known, "
            "so the run is not read",
        ),
        (23, "$.items.pretrain_performance.B200.metrics.initial_loss", "is text ('eleven'), not a number: not read"),
        (
            27,
            "$.items.pretrain_performance.B300.bridge_commit",
            "'a8038f6' is not a full 40-character commit: not read",
        ),
        (32, "$.items.pretrain_performance.GB200.status", "'done' is not a status the card's header lists"),
        (46, "$.items.pretrain_weak_scaling", "pretrain_weak_scaling is a list, not a mapping: it is not read"),
        (47, "$.items.sft_performance", "sft_performance is not a kind of performance item this importer reads"),
    ]
    assert [run.where for run in card.runs] == ["items.pretrain_performance.GB300"]
    # Not YAML at all: one problem at the line the parser stopped, never an exception.
    path = "examples/model_verification_cards/not-yaml/card.yaml"
    unread = cards.read_card(path, card_repo.card(path))
    assert unread.runs == ()
    assert [(problem.path, problem.line) for problem in unread.problems] == [(path, 5)]


def test_a_command_is_read_as_the_launcher_reads_its_words() -> None:
    command = parse_command(
        "./scripts/training/train.sh --wait --nodes 2 --gpus-per-node 4 --recipe f_config -sl 4096 a.b=1 'c.d=[1, 2]'"
    )
    assert command == Command(
        words=(
            "./scripts/training/train.sh",
            "--wait",
            "--nodes",
            "2",
            "--gpus-per-node",
            "4",
            "--recipe",
            "f_config",
            "-sl",
            "4096",
            "a.b=1",
            "c.d=[1, 2]",
        ),
        options={"--nodes": "2", "--gpus-per-node": "4", "--recipe": "f_config", "-sl": "4096"},
        flags=("--wait",),
        overrides=("a.b=1", "c.d=[1, 2]"),
    )
    assert parse_command("python train.py --nodes 2") == "the command runs 'python', not ./scripts/training/train.sh"
    assert parse_command("./scripts/training/train.sh --nodes 2 --nodes 4") == "the option --nodes is given twice"
    assert parse_command("./scripts/training/train.sh --recipe") == (
        "the option --recipe has no value this importer can tell apart"
    )


# --- the recipes ----------------------------------------------------------------------------------


def test_a_verified_run_is_a_publisher_verified_recipe_of_the_cards_figures(card_repo: CardRepo, built: Import) -> None:
    data = _recipe(built, "qwen3-30b-a3b/gb300/mb-card-mxfp8-8gpu")
    link = f"https://github.com/NVIDIA-NeMo/Megatron-Bridge/blob/{card_repo.latest}/{QWEN}"
    assert data["status"] == "publisher-verified"
    assert (data["model"], data["gpu"]) == ("Qwen3-30B-A3B", {"type": "GB300", "count": 8, "per_node": 4})
    source = data["source"]
    assert (source["url"], source["published"], source["importer"]) == (
        f"{link}#L65",
        dt.date(2099, 4, 1),
        "megatron-bridge-cards",
    )
    # First published with these values in the first version of the card, where the item was on line 19.
    assert source["first_published"] == {
        "date": dt.date(2099, 3, 1),
        "commit": card_repo.first,
        "url": f"https://github.com/NVIDIA-NeMo/Megatron-Bridge/blob/{card_repo.first}/{QWEN}#L19",
    }
    assert source["excerpt"].startswith("verification_environment:\n  base_container: nvcr.io/nvidia/nemo:26.06\n")
    # The figures as the card publishes them.
    assert data["result"]["tokens_per_s_per_gpu"] == 44773.361
    assert data["result"]["publisher_figures"][0]["value"] == 1030.07
    assert data["result"]["publisher_figures"][0]["convention"] == "megatron"
    assert (data["result"]["measured"], data["result"]["steps_per_run"], data["result"]["window"]) == (
        dt.date(2026, 8, 18),
        50,
        [41, 50],
    )
    assert data["result"]["window_tokens"] == 10 * 512 * 4096
    assert "memory_gib" not in data["result"]  # the card publishes no memory for it
    assert data["correctness"]["result"] == "not-run"
    assert (data["correctness"]["loss"]["initial"], data["correctness"]["loss"]["final"]) == (12.34753, 8.125566)
    # What the command runs at its commit: the function's values, the command's --seq_length over the
    # function's 2,048, the GPUs its nodes hold.
    assert data["launch"]["sets"] == {
        "gpus": 8,
        "tp": 1,
        "pp": 1,
        "vp": None,
        "cp": 1,
        "ep": 8,
        "etp": 1,
        "gbs": 512,
        "mbs": 8,
        "seq_length": 4096,
        "precision": "mxfp8",
    }
    assert (data["workload"]["row_tokens"], data["workload"]["global_batch"], data["workload"]["precision"]) == (
        4096,
        512,
        "mxfp8",
    )
    assert data["workload"]["method"] == {"kind": "pre-training"}
    assert data["layout"] == {"tp": 1, "pp": 1, "cp": 1, "ep": 8, "etp": 1, "rows_per_microbatch": 8}
    assert data["stack"]["container_image"] == "nvcr.io/nvidia/nemo:26.06"


def test_the_launch_is_the_cards_command_word_for_word_at_the_commit_it_ran_at(
    card_repo: CardRepo, built: Import
) -> None:
    launch = _recipe(built, "qwen3-30b-a3b/gb300/mb-card-mxfp8-8gpu")["launch"]
    assert launch["kind"] == "documented"
    assert launch["source"]["commit"] == card_repo.bridge
    assert launch["checkout"] == (
        "git clone https://github.com/NVIDIA-NeMo/Megatron-Bridge.git\ncd Megatron-Bridge\n"
        f"git switch --detach {card_repo.bridge}  # the commit the card's run used\n"
    )
    assert launch["command"] == (
        "./scripts/training/train.sh --wait --nodes 2 --gpus-per-node 4 \\\n"
        "    --recipe qwen3_30b_a3b_pretrain_8gpu_gb300_fp8mx_config \\\n"
        "    --mode pretrain --max_steps 50 --seq_length 4096 \\\n"
        "    logger.save_config_filepath=work/model-verification/qwen3-30b-a3b/gb300-performance/ConfigContainer.yaml"
        " \\\n"
        '    --account "$SLURM_ACCOUNT" --partition "$SLURM_PARTITION" \\\n'
        "    --container-image nvcr.io/nvidia/nemo:26.06\n"
    )
    assert launch["container"] == "nvcr.io/nvidia/nemo:26.06"
    # The function's environment, less what a recipe may not set, which is withheld with its line.
    assert launch["env"] == {"CUDA_DEVICE_MAX_CONNECTIONS": "32", "NVTE_FWD_LAYERNORM_SM_MARGIN": "20"}
    common = "src/megatron/bridge/perf_recipes/qwen/common.py"
    assert launch["withheld"] == [{"name": "LD_LIBRARY_PATH", "value": "/opt/extra", "file": common, "line": 3}]
    files = {(item["path"], tuple(item.get("lines", ()))) for item in launch["source"]["files"]}
    # The perf recipe, not the library recipe of the same name: the runner prefers it.
    assert ("src/megatron/bridge/perf_recipes/qwen/gb300/qwen3_moe.py", (8, 22)) in files
    assert not any(path.startswith("src/megatron/bridge/recipes/") for path, _ in files)
    assert ("scripts/training/run_recipe.py", (14, 14)) in files  # -sl, which the command sets
    assert [item["name"] for item in launch["inputs"]] == ["<Slurm cluster>", "SLURM_ACCOUNT", "SLURM_PARTITION"]
    assert "The card's command sets: sequence length 4096 (`--seq_length 4096`)." in launch["notes"]


def test_the_weak_scaling_series_keeps_every_gpu_count(built: Import) -> None:
    series = {
        recipe.id: recipe.data for recipe in built.recipes if "/mb-card-weak-" in recipe.id and "/gb300/" in recipe.id
    }
    assert sorted(series, key=lambda recipe_id: series[recipe_id]["gpu"]["count"]) == [
        "qwen3-30b-a3b/gb300/mb-card-weak-mxfp8-8gpu",
        "qwen3-30b-a3b/gb300/mb-card-weak-mxfp8-32gpu",
        "qwen3-30b-a3b/gb300/mb-card-weak-mxfp8-128gpu",
        "qwen3-30b-a3b/gb300/mb-card-weak-mxfp8-256gpu",
    ]
    figures = {
        data["gpu"]["count"]: (
            data["gpu"]["per_node"],
            data["workload"]["global_batch"],
            data["launch"]["sets"]["gbs"],
            data["result"]["tokens_per_s_per_gpu"],
            data["correctness"]["loss"]["final"],
        )
        for data in series.values()
    }
    assert figures == {
        8: (4, 512, 512, 44511.004, 8.131992),
        32: (4, 2048, 2048, 45086.158, 8.131451),
        128: (4, 8192, 8192, 44951.404, 8.126566),
        256: (4, 16384, 16384, 45052.607, 8.129371),
    }
    for recipe_id, data in series.items():
        others = ", ".join(other for other in series if other != recipe_id)
        assert (
            f"series on GB300 (8, 32, 128, 256 GPUs, the global batch growing with them); the others: {others}."
            in (data["notes"])
        )


def test_runs_that_make_no_recipe_are_skipped_each_at_its_line_with_why(card_repo: CardRepo, built: Import) -> None:
    skipped = {item.where: item.reason for item in built.skipped}
    bridge = card_repo.bridge[:12]
    assert skipped[f"{QWEN}:28 (items.pretrain_performance.H100)"] == (
        "the card's command does not run at the commit it names: no function "
        "qwen3_30b_a3b_pretrain_16gpu_h100_bf16_config is defined under src/megatron/bridge/perf_recipes or "
        f"src/megatron/bridge/recipes at {bridge}"
    )
    assert skipped[f"{QWEN}:43 (items.pretrain_performance.B200)"] == (
        "the bridge commit abcdef0123456789abcdef0123456789abcdef01 is not in this clone, so what the command runs "
        "there cannot be read"
    )
    assert skipped[f"{QWEN}:56 (items.pretrain_performance.GB200)"] == (
        "status unverified: the card does not say this run is verified"
    )
    assert skipped[f"{BROKEN}:36 (items.pretrain_performance.GB300)"].startswith(
        "the card's command does not run at the commit it names: no function gpt_oss_120b_pretrain_64gpu_gb300_bf16"
    )
    # Every problem of a card's shape is said too, at its line.
    assert skipped[f"{BROKEN}:14 ($.items.pretrain_performance.H100.dataset)"].startswith("'dataset' is not a key")
    assert any(where.startswith("examples/model_verification_cards/not-yaml/card.yaml:5 ") for where in skipped)
    assert len(built.recipes) == 5
    assert built.owns("qwen3-30b-a3b/gb300/mb-card-mxfp8-8gpu") and not built.owns("qwen3-30b-a3b/gb300/mb-26.08-x")


def test_the_import_writes_valid_recipes_and_a_second_import_changes_nothing(
    capsys: pytest.CaptureFixture[str], project: Project, card_repo: CardRepo
) -> None:
    argv = ("--root", project.root, "import", "megatron-bridge-cards", "--repo", card_repo.repo)
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    assert "5 added, 0 changed, 0 removed, 0 unchanged, 11 rows skipped" in err
    assert out.count("added recipes/") == 5
    written = imported(project.root)
    assert load_catalogue(project.root).problems == ()
    code, out, err = run(capsys, *argv, "--check")
    assert (code, out) == (0, "") and "up to date" in err
    assert imported(project.root) == written
    recipe = read(project.root / "recipes/qwen3-30b-a3b/gb300/mb-card-mxfp8-8gpu.yaml")
    assert recipe["status"] == "publisher-verified"
