"""`openrecipes import mlperf` on MLCommons' own files: AMD's MI325X and NVIDIA's H100 Llama 2 70B LoRA
results and Intel's Gaudi 2 system, copied byte for byte from mlcommons/training_results_v5.0 and
v4.0 at the commits the catalogue cites (tests/importer_fixtures/mlperf-training-v*/) and committed
to scratch git repositories, as the results repositories hold them.

Figures the import computes are computed again here from the logs with plain string handling
(not the MLLOG reader under test); bad input (a broken MLLOG line, a system description missing or
not JSON, a run that did not reach the target) is reported with its file and line, never a traceback.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import REPO, Project
from test_importers import git, new_repo, run
from test_site import visible_text

from openrecipes import fmt
from openrecipes.importers import mlperf_recipes
from openrecipes.importers.common import Import
from openrecipes.importers.gitsource import GitSource
from openrecipes.loader import load_catalogue
from openrecipes.reading import dryruns
from openrecipes.site.plan import plan_site

FIXTURES = Path(__file__).parent / "importer_fixtures"
V50 = FIXTURES / "mlperf-training-v5.0/0fdc28f013256aea84fa36fdaf1e0fa46094b18c"
V40 = FIXTURES / "mlperf-training-v4.0/62f111b7690f163b269f32e4f93dcaaa13717c9c"
AMD_RESULTS = "AMD/results/MI325X_EPYC_9575F_pytorch/llama2_70b_lora"
AMD_ID = "llama-2-70b/mi325x/mlperf-5.0-amd-mi325x_epyc_9575f_pytorch"
NVIDIA_RESULTS = "NVIDIA/results/eos_ngc24.04_nemo/llama2_70b_lora"
NVIDIA_ID = "llama-2-70b/h100/mlperf-4.0-nvidia-eos_ngc24.04_nemo"
HOSTILE = "<img src=x onerror=alert(1)> QuantaGrid"


def scratch(tmp_path: Path, name: str, folder: Path) -> Path:
    """A repository holding the copied files at their paths, in one commit."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    repo = new_repo(tmp_path, name)
    shutil.copytree(folder, repo, dirs_exist_ok=True)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "results")
    return repo


def scratch_with_listed(target: Path, folder: Path) -> Path:
    """The kept copies of `folder`, and every other file its `<commit>.paths` listing names, empty."""
    shutil.copytree(folder, target)
    listing = folder.with_name(folder.name + dryruns_paths_suffix())
    if listing.is_file():
        from openrecipes.checking.dryrun import read_paths

        for _, path in read_paths(listing.read_text(encoding="utf-8")):
            file = target / path
            if not file.exists():
                file.parent.mkdir(parents=True, exist_ok=True)
                file.touch()
    return target


def dryruns_paths_suffix() -> str:
    from openrecipes.checking.dryrun import PATHS_SUFFIX

    return PATHS_SUFFIX


def imported(repo: Path, round_name: str) -> Import:
    return mlperf_recipes.build(GitSource.open(repo, "HEAD"), round_name)


def recipe(made: Import, recipe_id: str) -> dict[str, Any]:
    (found,) = [planned.data for planned in made.recipes if planned.id == recipe_id]
    return found


def times(folder: Path) -> list[float]:
    """Each log's run_start-to-run_stop minutes, read with plain string handling."""
    found = []
    for path in sorted(folder.glob("result_*.txt"), key=lambda path: int(re.findall(r"\d+", path.name)[0])):
        stamps = {}
        for line in path.read_text(encoding="utf-8", errors="replace").split("\n"):
            for key in ("run_start", "run_stop"):
                if f'"key": "{key}"' in line and key not in stamps:
                    stamps[key] = int(line.split('"time_ms": ')[1].split(",")[0])
        found.append((stamps["run_stop"] - stamps["run_start"]) / 60_000)
    return found


def olympic(values: list[float]) -> float:
    ordered = sorted(values)[1:-1]
    return sum(ordered) / len(ordered)


@pytest.fixture(scope="module")
def v50(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return scratch(tmp_path_factory.mktemp("mlperf"), "training_results_v5.0", V50)


@pytest.fixture(scope="module")
def v40(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return scratch(tmp_path_factory.mktemp("mlperf"), "training_results_v4.0", V40)


def test_an_amd_result_becomes_a_recipe_with_its_time_to_train_target_and_launch(v50: Path) -> None:
    made = imported(v50, "5.0")
    data = recipe(made, AMD_ID)
    system = json.loads((V50 / "AMD/systems/MI325X_EPYC_9575F_pytorch.json").read_text(encoding="utf-8"))
    assert data["gpu"] == {
        "type": "MI325X",
        "memory_gb": 256,
        "count": 8,
        "per_node": 8,
        "system": system["system_name"],
        "host": f"2 × {system['host_processor_model_name']}, {system['host_memory_capacity']} memory",
    }
    assert data["benchmark"] == {
        "suite": "MLPerf Training",
        "round": "5.0",
        "name": "llama2_70b_lora",
        "division": "closed",
        "availability": "available",
        "status": "Available on-premise",
        "submitter": "AMD",
        "system": "MI325X_EPYC_9575F_pytorch",
        # The logs' submission_platform, without its node count: it names the filed system's GPU, so no flag.
        "platform": "MI325X",
    }
    assert data["stack"]["framework"] == system["framework"]
    # MLPerf's rule: the mean of the runs without the fastest and the slowest
    minutes = times(V50 / AMD_RESULTS)
    trained = data["result"]["time_to_train"]
    assert len(minutes) == 10 and trained["minutes"] == round(olympic(minutes), 3)
    assert trained["runs_counted"] == 8 and trained["quality_target"] == "eval loss 0.925"
    scaling = json.loads((V50 / AMD_RESULTS / "scaling.json").read_text(encoding="utf-8"))["scaling_factor"]
    assert trained["scaling_factor"] == scaling
    assert f"to {olympic(minutes) * scaling:.3f} minutes" in data["notes"]
    assert data["correctness"]["result"] == "pass"
    assert data["correctness"]["summary"] == "every counted run (8 of 10) reached eval loss 0.925"
    assert data["workload"] == {
        "row_tokens": 8192,
        "global_batch": 8,
        "precision": "fp8",
        "fp8_scaling": "delayed",
        "method": {"kind": "lora", "rank": 16, "alpha": 32},
        "dataset": {"name": "GovReport (SCROLLS), MLPerf's tokenized and packed copy"},
    }
    assert data["layout"] == {"tp": 1, "pp": 1, "cp": 1, "sequence_parallel": False, "rows_per_microbatch": 1}
    # The README's command sources the MI300X configuration; the result ran the MI325X one, which the
    # log's submission_platform and the configuration's MLPERF_SUBMISSION_PLATFORM name.
    launch = data["launch"]
    assert launch["kind"] == "documented"
    # README lines 62-64 (the environment), 74 (the configuration) and 80-81 (one run); the ten-run
    # alternative at 88-89 is not appended to it
    assert launch["command"] == (
        "export DATADIR=/data/mlperf_llama2\n"
        "export LOGDIR=/data/mlperf_llama2/results\n"
        "export CONT=rocm/amd-mlperf:llama2_70b_training_5.0\n"
        "source config_MI325X_1x8x1.sh  # use appropriate config\n"
        "export NEXP=1\n"
        "bash run_with_docker.sh\n"
    )
    assert launch["container"] == "rocm/amd-mlperf:llama2_70b_training_5.0"
    assert (
        "The README's command sources config_MI300X_1x8x1.sh; this result ran config_MI325X_1x8x1.sh" in launch["notes"]
    )
    assert "(submission_platform '1xMI325X')" in launch["notes"]
    cited = [item["path"].rsplit("/", 1)[-1] for item in launch_files(launch)]
    # the training script's Hydra configuration, where the global batch and the sequence length are computed
    assert cited == [
        "README.md",
        "config_MI325X_1x8x1.sh",
        "train.py",
        "megatron_gpt_peft_tuning_config.yaml",
        "megatron_gpt_peft_tuning_config.yaml",
    ]
    assert [item["what"] for item in launch_files(launch)[2:]] == [
        "the configuration the training script runs",
        "model.global_batch_size",
        "model.encoder_seq_length",
    ]
    assert launch["env"]["FP8"] == "True" and "DGXSYSTEM" not in launch["env"]  # a shell expression
    # MINIBS 1 × (8 GPUs ÷ TP 1 × PP 1) ÷ CP 1; MAX_SEQLEN unset, so the YAML's default 8,192
    assert launch["sets"] == {
        "gpus": 8, "tp": 1, "pp": 1, "cp": 1, "gbs": 8, "mbs": 1, "seq_length": 8192, "precision": "fp8",
    }  # fmt: skip
    assert "MAX_SEQLEN not set (the YAML's default)" in launch["notes"]
    assert (
        "global batch 8 (model.global_batch_size, src/conf/megatron_gpt_peft_tuning_config.yaml line" in launch["notes"]
    )
    # every excerpt line is the log's own line, and the source links the run_stop line at its commit
    log = (V50 / AMD_RESULTS / "result_0.txt").read_text(encoding="utf-8").split("\n")
    for line in data["source"]["excerpt"].split("\n"):
        assert line in log
    stop = next(number for number, line in enumerate(log, start=1) if '"key": "run_stop"' in line)
    commit = git(v50, "rev-parse", "HEAD")
    assert data["source"]["url"] == (
        f"https://github.com/mlcommons/training_results_v5.0/blob/{commit}/{AMD_RESULTS}/result_0.txt#L{stop}"
    )


def test_the_throughput_is_derived_from_the_counted_runs_and_says_how(v50: Path) -> None:
    """As openrecipes measure measures a log by default: MLPerf's own tracked_stats throughput of
    each counted run's training blocks but the first (warm-up), weighted by their samples;
    recomputed here by hand from the logs."""
    data = recipe(imported(v50, "5.0"), AMD_ID)
    minutes = times(V50 / AMD_RESULTS)
    counted = sorted(range(10), key=lambda index: minutes[index])[1:-1]
    samples = seconds = 0.0
    blocks = 0
    for index in counted:
        text = (V50 / AMD_RESULTS / f"result_{index}.txt").read_text(encoding="utf-8")
        events = [json.loads(line.split(":::MLLOG ", 1)[1]) for line in text.split("\n") if ":::MLLOG " in line]
        previous, run = 0, []
        for event in events:
            if event["key"] == "tracked_stats":
                run.append((event["metadata"]["step"] - previous, event["value"]["throughput"]))
                previous = event["metadata"]["step"]
        for count, rate in run[1:]:
            samples += count
            seconds += count / rate
        blocks += len(run) - 1
    assert data["result"]["tokens_per_s_per_gpu"] == round(samples * 8192 / seconds / 8, 1)
    note = data["result"]["throughput_note"]
    assert note.startswith(
        "Derived, not printed: over the 8 counted runs, the logs' own tracked_stats throughput (samples/s of the"
        f" whole system) of each run's training blocks but the first, which holds warm-up and compilation ({blocks}"
        f" blocks), weighted by their samples ({int(samples):,} samples in all,"
    )
    assert note.endswith(
        "as openrecipes measure measures a log by default. It counts every token of a packed sample, padding included."
    )


def test_an_nvidia_result_runs_the_configuration_its_readme_names(v40: Path) -> None:
    made = imported(v40, "4.0")
    data = recipe(made, NVIDIA_ID)
    minutes = times(V40 / NVIDIA_RESULTS)
    assert data["result"]["time_to_train"]["minutes"] == round(olympic(minutes), 3)
    # the hand-written recipe this import replaces computed the same score by hand: 28.07
    assert round(data["result"]["time_to_train"]["minutes"], 2) == 28.07
    # ... but did not say that MLCommons scales it: scaling.json is beside the logs
    scaling = json.loads((V40 / NVIDIA_RESULTS / "scaling.json").read_text(encoding="utf-8"))["scaling_factor"]
    assert data["result"]["time_to_train"]["scaling_factor"] == scaling
    launch = data["launch"]
    config = "NVIDIA/benchmarks/llama2_70b_lora/implementations/nemo/config_DGXH100_1x8x4xtp4pp1cp1.sh"
    assert [item["path"] for item in launch_files(launch)][:2] == [
        "NVIDIA/benchmarks/llama2_70b_lora/implementations/eos_ngc24.04_nemo/README-eos_ngc24.04_nemo.md",
        config,
    ]
    # config_common.sh is not beside the configuration at this commit: what it would set is not known, so
    # neither are the GPUs per node, the global batch nor the sequence length the YAML computes from them.
    assert launch["sets"] == {"tp": 4, "pp": 1, "cp": 1, "precision": "fp8"}
    assert "Not in sets: the GPU count, since DGXNNODES × DGXNGPU cannot be read" in launch["notes"]
    assert "source config_DGXH100_1x8x4xtp4pp1cp1.sh" in launch["command"]
    assert "sbatch -N ${DGXNNODES} -t ${WALLTIME} run.sub" in launch["command"]
    assert {item["name"] for item in launch["inputs"]} >= {
        "<Slurm cluster>",
        "<docker/registry:benchmark-tag>",
        "<path/to/data/dir>",
        "<path/to/output/dir>",
    }
    # config_common.sh is not beside the configuration at this commit: said, not guessed
    assert f"{config} line 3 sources" in launch["notes"] and "is not beside it at this commit" in launch["notes"]
    assert data["layout"] == {"tp": 4, "pp": 1, "cp": 1, "sequence_parallel": True}
    assert "README-eos_ngc24.04_nemo.md:7" in data["notes"]


def test_an_accelerator_that_is_not_a_gpu_of_the_reference_data_is_skipped_with_why(v40: Path) -> None:
    made = imported(v40, "4.0")
    (skipped,) = [item for item in made.skipped if item.where.startswith("Intel-HabanaLabs/")]
    assert skipped.where == "Intel-HabanaLabs/results/HLS-Gaudi2-PT/llama2_70b_lora"
    assert skipped.reason.startswith(
        "accelerator 'Intel(R) Gaudi(R) 2 AI Accelerator' is not a GPU of reference/gpus.yaml"
    )


def _broken(tmp_path: Path, edit: Any) -> Import:
    repo = scratch(tmp_path, "broken", V50)
    edit(repo)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "broken")
    return imported(repo, "5.0")


def test_a_malformed_log_line_is_reported_at_its_file_line_and_column(tmp_path: Path) -> None:
    def edit(repo: Path) -> None:
        path = repo / AMD_RESULTS / "result_3.txt"
        lines = path.read_text(encoding="utf-8").split("\n")
        lines[9] = lines[9].replace('"time_ms"', '"time_ms', 1)
        path.write_text("\n".join(lines), encoding="utf-8")

    made = _broken(tmp_path, edit)
    assert not made.recipes
    (skipped,) = made.skipped
    assert skipped.where == AMD_RESULTS
    assert re.fullmatch(
        rf"a result log does not read as MLLOG: {AMD_RESULTS}/result_3\.txt:10:\d+: the MLLOG event is not JSON: .+",
        skipped.reason,
    ), skipped.reason


def test_a_missing_or_broken_system_description_is_reported_located(tmp_path: Path) -> None:
    system = "AMD/systems/MI325X_EPYC_9575F_pytorch.json"
    made = _broken(tmp_path / "missing", lambda repo: (repo / system).unlink())
    assert [(item.where, item.reason) for item in made.skipped] == [
        (AMD_RESULTS, f"{system}:0: the system description is missing: every result names one")
    ]
    made = _broken(tmp_path / "bad", lambda repo: (repo / system).write_text('{\n  "division": "closed",\n}\n'))
    (skipped,) = made.skipped
    assert skipped.reason.startswith(f"{system}:3:1: the system description is not JSON")


def test_two_runs_that_miss_the_target_make_the_result_invalid(tmp_path: Path) -> None:
    def edit(repo: Path) -> None:
        for index in (2, 5):
            path = repo / AMD_RESULTS / f"result_{index}.txt"
            path.write_text(path.read_text(encoding="utf-8").replace('"status": "success"', '"status": "aborted"'))

    made = _broken(tmp_path, edit)
    (skipped,) = made.skipped
    assert skipped.reason.startswith(f"2 runs did not reach the target ({AMD_RESULTS}/result_2.txt: run_stop (")
    assert "MLPerf's rules make a result with more than one such run invalid" in skipped.reason


def test_one_run_that_misses_the_target_is_dropped_as_the_slowest(tmp_path: Path) -> None:
    def edit(repo: Path) -> None:
        path = repo / AMD_RESULTS / "result_8.txt"  # the fastest run
        path.write_text(path.read_text(encoding="utf-8").replace('"status": "success"', '"status": "aborted"'))

    data = recipe(_broken(tmp_path, edit), AMD_ID)
    minutes = times(V50 / AMD_RESULTS)
    kept = sorted(minutes[:8] + minutes[9:])[1:]  # result_8 is the slowest now; the fastest of the rest drops
    assert data["result"]["time_to_train"]["minutes"] == round(sum(kept) / len(kept), 3)
    assert data["correctness"]["summary"].endswith("; result_8.txt did not and is dropped as the slowest")


def test_the_command_imports_then_check_passes_and_fails_when_a_log_changes(
    capsys: pytest.CaptureFixture[str], project: Project, tmp_path: Path
) -> None:
    repo = scratch(tmp_path, "v5.0", V50)
    args = ["--root", project.root, "import", "mlperf", "--repo", repo, "--round", "5.0"]
    code, out, err = run(capsys, *args)
    assert code == 0, err
    assert f"added recipes/{AMD_ID}.yaml" in out and "Traceback" not in err
    path = project.root / "recipes" / f"{AMD_ID}.yaml"
    written = path.read_bytes()
    assert yaml.safe_load(written)["source"]["importer"] == "mlperf"
    code, _, err = run(capsys, *args, "--check")
    assert code == 0 and "up to date" in err
    # the publisher's next commit changes a run's time: --check says so and writes nothing
    log = repo / AMD_RESULTS / "result_0.txt"
    log.write_text(log.read_text(encoding="utf-8").replace('"time_ms": 1745913575147', '"time_ms": 1745913675147'))
    git(repo, "commit", "-q", "-am", "a later run_stop")
    code, out, err = run(capsys, *args, "--check")
    assert code == 1 and f"would change recipes/{AMD_ID}.yaml" in out and "the recipes differ" in err
    assert path.read_bytes() == written
    # without --round, a repository whose README does not name the round is a clear error
    code, _, err = run(capsys, "--root", project.root, "import", "mlperf", "--repo", repo)
    assert code == 1 and "does not name the round" in err and "Traceback" not in err


AMD_CONFIG = "AMD/benchmarks/llama2_70b_lora/implementations/MI325X_EPYC_9575F_pytorch/config_MI325X_1x8x1.sh"


def test_a_configuration_exporting_ld_preload_is_imported_withheld_and_its_page_warns(
    capsys: pytest.CaptureFixture[str], project: Project, tmp_path: Path
) -> None:
    """A name a recipe may not set, in the publisher's own config_*.sh, is never copied into env: the
    import records it with its file and line (and says so), the page warns of it, no script exports it."""
    repo = scratch(tmp_path, "v5.0", V50)
    config = repo / AMD_CONFIG
    text = config.read_text(encoding="utf-8").rstrip("\n") + "\nexport LD_PRELOAD=/opt/hook/libhook.so\n"
    config.write_text(text, encoding="utf-8")
    git(repo, "commit", "-q", "-am", "a configuration that preloads a library")
    line = len(text.rstrip("\n").split("\n"))
    code, _, err = run(capsys, "--root", project.root, "import", "mlperf", "--repo", repo, "--round", "5.0")
    assert code == 0, err
    assert (
        f"withheld in recipes/{AMD_ID}.yaml: LD_PRELOAD, set by {AMD_CONFIG} line {line}, is not in launch.env: "
        "LD_PRELOAD is read by the dynamic loader of every program" in err
    )
    launch = yaml.safe_load((project.root / "recipes" / f"{AMD_ID}.yaml").read_text(encoding="utf-8"))["launch"]
    assert "LD_PRELOAD" not in launch["env"] and launch["env"]["FP8"] == "True"
    assert launch["withheld"] == [
        {"name": "LD_PRELOAD", "value": "/opt/hook/libhook.so", "file": AMD_CONFIG, "line": line}
    ]
    assert "withheld from env as names a recipe may not set (the page warns of each): LD_PRELOAD." in launch["notes"]
    assert all(item["name"] != "LD_PRELOAD" for item in launch["inputs"])
    catalogue = load_catalogue(project.root, only=[project.root / "recipes" / f"{AMD_ID}.yaml"])
    assert catalogue.ok, catalogue.problems
    outputs = {output.src_uri: output for output in plan_site(project.root).outputs}
    page = outputs[f"recipes/{AMD_ID}.md"].text()
    commit = git(repo, "rev-parse", "HEAD")
    assert (
        f'<li><code>LD_PRELOAD=/opt/hook/libhook.so</code>, set by <a href="https://github.com/mlcommons/'
        f'training_results_v5.0/blob/{commit}/{AMD_CONFIG}#L{line}" rel="nofollow noopener"><code>'
        f"config_MI325X_1x8x1.sh</code> line {line}</a>: LD_PRELOAD is read by the dynamic loader" in page
    )
    for name in ("env.sh", "launch.sh"):
        assert "LD_PRELOAD" not in outputs[f"recipes/{AMD_ID}/{name}"].text()


def test_a_real_configuration_setting_enroots_configuration_folder_is_withheld(v50: Path) -> None:
    """Lambda's 5.0 configuration exports ENROOT_CONFIG_PATH, the folder enroot runs hooks from."""
    folder = "Lambda/benchmarks/llama2_70b_lora/implementations/1cc_b200_0416"
    config = f"{folder}/config_1ccB200_1x8x1xtp1pp1cp1.sh"
    launch = launch_of(v50, "5.0", "Lambda", "1cc_b200_n1_ngc25.04_nemo", config)
    lines = (V50 / config).read_text(encoding="utf-8").split("\n")
    assert lines[26] == "export ENROOT_CONFIG_PATH=~/.config/enroot"
    withheld = {"name": "ENROOT_CONFIG_PATH", "value": "~/.config/enroot", "file": config, "line": 27}
    assert launch["withheld"] == [withheld]
    assert "ENROOT_CONFIG_PATH" not in launch["env"]


@pytest.mark.site
def test_imported_results_build_pages_with_time_and_cost_to_train(project: Project, tmp_path: Path) -> None:
    # the submitter's text is a stranger's: a system name holding markup reaches the page as text
    repo = scratch(tmp_path, "v5.0", V50)
    system = repo / "AMD/systems/MI325X_EPYC_9575F_pytorch.json"
    system.write_text(
        system.read_text(encoding="utf-8").replace('"QuantaGrid D74A-7U"', f'"{HOSTILE}"'), encoding="utf-8"
    )
    git(repo, "commit", "-q", "-am", "a hostile system name")
    made = imported(repo, "5.0")
    schema = yaml.safe_load((project.root / "schema/recipe.schema.yaml").read_text(encoding="utf-8"))
    from openrecipes.importers import sync

    for planned in made.recipes:
        project.add(planned.id, sync.render(planned.id, planned.data, "mlperf", schema))
    catalogue = load_catalogue(project.root)
    assert catalogue.problems == ()
    (entry,) = catalogue.entries
    result = project.build()
    assert result.ok, result.log
    text = visible_text(result.html(f"recipes/{AMD_ID}/"))
    trained = entry.recipe.fields.result.time_to_train
    hours = trained.minutes / 60 * 8
    price = entry.derived.price
    cost = fmt.usd(hours * price.usd_per_gpu_hour) if price is not None else "no public price"
    for expected in (
        "Llama 2 70B on 8 × MI325X · TP1 PP1",
        f"Cost to train {cost}"
        f" 8 GPUs × {fmt.as_written(trained.minutes)} minutes = {fmt.number(hours, 1)} GPU-hours, at the price basis",
        "Host 2 × AMD EPYC 9575F, 2.25TiB memory",
        "Benchmark MLPerf Training v5.0, llama2_70b_lora, closed division, available (Available on-premise)",
        f"Time to train {trained.minutes:g} minutes to eval loss 0.925 (mean of the 8 runs left of 10",
        "source config_MI325X_1x8x1.sh",
        f"System {HOSTILE}",
    ):
        assert expected in text, expected
    assert "<img" not in result.html(f"recipes/{AMD_ID}/")
    csv = (project.site / "api" / "recipes.csv").read_text(encoding="utf-8").split("\n")
    header = csv[0].split(",")
    row = next(line for line in csv if AMD_ID in line).split(",")
    assert row[header.index("time_to_train_minutes")] == str(trained.minutes)


# --- documented launches of submissions that ship no README of their system ----------------------

V51 = FIXTURES / "mlperf-training-v5.1/4da2d1cd71eb30c855dad12712480ae5ac90dd89"
V40_LAUNCH = FIXTURES / "mlperf-training-v4.0/62f111b7690f163b269f32e4f93dcaaa13717c9c"
V50_LAUNCH = FIXTURES / "mlperf-training-v5.0/0fdc28f013256aea84fa36fdaf1e0fa46094b18c"


@pytest.fixture(scope="module")
def v51(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return scratch(tmp_path_factory.mktemp("mlperf"), "training_results_v5.1", V51)


@pytest.fixture(scope="module")
def v40_launch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return scratch(tmp_path_factory.mktemp("mlperf"), "training_results_v4.0", V40_LAUNCH)


def launch_of(
    repo: Path, round_name: str, submitter: str, system: str, config: str, benchmark_name: str = "llama2_70b_lora"
) -> dict[str, Any]:
    """The launch the import writes for a result of `system` that ran `config` (named by its log)."""
    from openrecipes.importers import mlperf as mp

    source = GitSource.open(repo, "HEAD")
    benchmark = mp.BENCHMARKS[benchmark_name]
    folder = f"{submitter}/results/{system}/{benchmark_name}"
    result = mp.Result(round_name, submitter, system, benchmark, folder, (), None)
    repository = mp.Repository(source, round_name, (result,))
    return mlperf_recipes._launch(repository, result, mp.read_config(source, config), f"{folder}/result_1.txt:4")


def assert_cited_lines_exist(repo: Path, launch: dict[str, Any]) -> None:
    """Every file the launch cites is in the repository at the commit it names, with the lines it cites."""
    commit = launch["source"]["commit"]
    for item in launch["source"]["files"]:
        text = git(repo, "show", f"{commit}:{item['path']}")
        first, last = item["lines"]
        assert 1 <= first <= last <= len(text.split("\n")), item
        assert item["url"].endswith(
            f"/blob/{commit}/{item['path']}#L{first}-L{last}" if first != last else f"#L{first}"
        )


def blob_id(path: Path) -> str:
    data = path.read_bytes()
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def test_a_submission_without_a_readme_whose_run_sub_is_nvidias_gets_nvidias_documented_launch(v51: Path) -> None:
    own = "Supermicro/benchmarks/llama2_70b_lora/implementations/AS-8126GS-NB3RT"
    nvidia = "NVIDIA/benchmarks/llama2_70b_lora/implementations/nemo"
    assert not (V51 / own / "README.md").exists()
    assert (V51 / own / "run.sub").read_bytes() == (V51 / nvidia / "run.sub").read_bytes()
    launch = launch_of(v51, "5.1", "Supermicro", "AS-8126GS-NB3RT", f"{own}/config_DGXB200_1x8x1xtp1pp1cp1.sh")
    readme = (V51 / nvidia / "README.md").read_text(encoding="utf-8").split("\n")
    (first, last) = launch["source"]["files"][0]["lines"]
    # NVIDIA's generic launch block, as written, sourcing the configuration the result ran
    assert readme[first - 1 : last] == [
        'export DATADIR="</path/to/dataset>/gov_report"  # set your </path/to/dataset>',
        'export MODEL="</path/to/dataset>/model"  # set your </path/to/dataset>',
        'export LOGDIR="</path/to/output_logdir>"  # set the place where the output logs will be saved',
        "export CONT=<docker/registry>/mlperf-nvidia:llama2_70b_lora-pyt",
        "source config_<system>.sh  # select config and source it",
        "sbatch -N $DGXNNODES -t $WALLTIME run.sub  # you may be required to set --account and --partition here",
    ]
    assert launch["command"] == "\n".join(
        [
            *readme[first - 1 : last - 2],
            "source config_DGXB200_1x8x1xtp1pp1cp1.sh  # select config and source it",
            readme[last - 1],
            "",
        ]
    )
    assert launch["checkout"].endswith(f"cd {own}\n")
    assert [(item["path"], item["what"]) for item in launch_files(launch)] == [
        (f"{nvidia}/README.md", "the launch steps"),
        (f"{nvidia}/run.sub", "the run.sub that README launches"),
        (f"{own}/run.sub", "this submission's run.sub, byte for byte the same"),
        (f"{own}/config_DGXB200_1x8x1xtp1pp1cp1.sh", "the configuration this result ran (exported variables)"),
        (f"{own}/config_common.sh", "a file the configuration sources"),
        # The image is built from NVIDIA's folder: its training script and configuration give the batch and sequence.
        (f"{nvidia}/train.py", "the configuration the training script runs"),
        (f"{nvidia}/conf/megatron_gpt_peft_tuning_config.yaml", "model.global_batch_size"),
        (f"{nvidia}/conf/megatron_gpt_peft_tuning_config.yaml", "model.encoder_seq_length"),
    ]
    assert (launch["sets"]["gbs"], launch["sets"]["seq_length"]) == (8, 8192)
    # NVIDIA's README builds the image and prepares the data in NVIDIA's folder, where prepare.sh runs them.
    assert {step.get("folder") for step in launch["preparation"]} == {nvidia}
    assert "missing" not in launch
    assert (
        f"{own} holds no README; its run.sub is byte for byte {nvidia}/run.sub (git blob "
        f"{blob_id(V51 / own / 'run.sub')}), whose README documents its launch" in launch["notes"]
    )
    assert "The README's command sources config_<system>.sh; this result ran" in launch["notes"]
    # The placeholders the README writes as paths from the root are inputs too (issue 28, item 1).
    assert {item["name"] for item in launch["inputs"]} == {
        "<Slurm cluster>",
        "<docker/registry>",
        "</path/to/dataset>",
        "</path/to/output_logdir>",
        "WALLTIME",
    }
    assert_cited_lines_exist(v51, launch)


def test_a_generic_readme_is_instantiated_with_the_configuration_the_result_ran(v40_launch: Path) -> None:
    folder = "Fujitsu/benchmarks/llama2_70b_lora/implementations/pytorch"
    config = f"{folder}/configs/config_GX2560M7_1x4x8xtp4pp1cp1.sh"
    launch = launch_of(v40_launch, "4.0", "Fujitsu", "GX2560M7_H100_SXM_80GBx4", config)
    readme = (V40_LAUNCH / folder / "README.md").read_text(encoding="utf-8").split("\n")
    assert readme[71:73] == [
        "source configs/config_DGXH100_1x8x8x4x2_fp8.sh  # use appropriate config",
        "CONT=<container/name> LOGDIR=<path/to/output/dir> DATADIR=<path/to/dataset> MODEL=<path/to/model> "
        "sbatch -N $DGXNNODES -t $WALLTIME run.sub",
    ]
    assert launch["command"] == (
        "source configs/config_GX2560M7_1x4x8xtp4pp1cp1.sh  # use appropriate config\n" + readme[72] + "\n"
    )
    assert launch["checkout"].endswith(f"cd {folder}\n")  # where run.sub is, the README's folder
    assert [(item["path"], item["lines"]) for item in launch_files(launch)][:3] == [
        (f"{folder}/README.md", [72, 73]),
        (config, [1, 27]),
        (f"{folder}/configs/config_GX2560M7_common.sh", [1, 29]),
    ]
    notes = launch["notes"]
    assert "Read from README.md, lines 72-73 (its code blocks, as written)." in notes
    assert "The README's command sources configs/config_DGXH100_1x8x8x4x2_fp8.sh; this result ran" in notes
    # the docker alternative at line 79 is said, not appended to the Slurm launch
    assert "README.md documents 1 other launch block(s) (line(s) 79): alternatives to the first" in notes
    assert [item["name"] for item in launch["inputs"]] == [
        "<Slurm cluster>",
        "<container/name>",
        "<path/to/output/dir>",
        "<path/to/dataset>",
        "<path/to/model>",
        "WALLTIME",
    ]
    assert "container" not in launch  # the image is built from the Dockerfile: an input, not a name
    assert_cited_lines_exist(v40_launch, launch)


def test_a_submission_whose_files_document_no_launch_says_what_is_missing(v51: Path) -> None:
    own = "Supermicro/benchmarks/llama2_70b_lora/implementations/AS-4126GS-NBR-LCC"
    config = "config_AS-4126GS-NBR-LCC_1x8x1xtp1pp1cp1.sh"
    # its run.sub is not NVIDIA's (it differs from it, so no README documents it)
    assert (V51 / own / "run.sub").read_bytes() != (
        V51 / "NVIDIA/benchmarks/llama2_70b_lora/implementations/nemo/run.sub"
    ).read_bytes()
    launch = launch_of(v51, "5.1", "Supermicro", "AS-4126GS-NBR-LCC", f"{own}/{config}")
    assert launch == {
        "kind": "not-published",
        "reason": (
            f"The submission documents no launch for AS-4126GS-NBR-LCC: {own} holds no README.md; no script of its "
            "own sources a configuration and submits run.sub; its run.sub is byte for byte none of the 2 other "
            "run.sub files of llama2_70b_lora implementations at this commit whose README documents a launch. The "
            f"configuration it ran is {config} (Supermicro/results/AS-4126GS-NBR-LCC/llama2_70b_lora/result_1.txt:4)."
        ),
    }


def test_a_fence_with_a_language_opens_a_block_after_a_stray_fence() -> None:
    from openrecipes.importers import mlperf_launch

    # Oracle's MI300X README opens a fence at line 4 and never closes it
    readme = V50_LAUNCH / "Oracle/benchmarks/llama2_70b_lora/implementations/1xBM.GPU.MI300X.8/README.md"
    text = readme.read_text(encoding="utf-8")
    assert text.split("\n")[3] == "```"
    blocks = {(block.first, block.last): block.lines for block in mlperf_launch.code_blocks(text)}
    assert blocks[(10, 10)] == ("docker build -t rocm/amd-mlperf:llama2_70b_training_5.0 .",)
    assert blocks[(74, 74)] == ("source config_MI300X_1x8x1.sh  # use appropriate config",)
    assert blocks[(80, 81)] == ("export NEXP=1", "bash run_with_docker.sh")


# --- the environment a configuration leaves, read as bash reads it (issue 28, item 2) ---------------

NVIDIA_405B = "NVIDIA/benchmarks/llama31_405b/implementations/eos-dfw_n256_ngc25.01_nemo"


def test_a_405b_configuration_sets_its_checkpoint_only_under_no_ckpt(v50: Path) -> None:
    """NVIDIA's Llama 3.1 405B configurations empty LOAD_CHECKPOINT and turn the compliance check off
    only when NO_CKPT=1: never in env (which would wipe the checkpoint the README resumes from), but
    listed with the test that sets them."""
    common = f"{NVIDIA_405B}/config_common.sh"
    lines = (V50 / common).read_text(encoding="utf-8").split("\n")
    assert lines[56:60] == [
        'if [[ "${NO_CKPT:-0}" -eq 1 ]]; then',
        '    export LOAD_CHECKPOINT=""',
        '    export CHECK_COMPLIANCE="0"',
        "fi",
    ]
    config = f"{NVIDIA_405B}/config_DGXH100_256x8x72xtp8pp8cp2.sh"
    launch = launch_of(v50, "5.0", "NVIDIA", "eos-dfw_n256_ngc25.01_nemo", config, "llama31_405b")
    no_ckpt, minimal = 'if [[ "${NO_CKPT:-0}" -eq 1 ]]', 'if [[ "${LOAD_MINIMAL_NUM_SAMPLES}" -eq 1 ]]'
    assert launch["conditional"] == [
        {"name": "OVERRIDE_ZERO_CONSUMED_SAMPLES", "value": "0", "condition": minimal, "file": common, "line": 19},
        {"name": "INIT_GLOBAL_STEP", "value": "0", "condition": minimal, "file": common, "line": 20},
        {"name": "LOAD_CHECKPOINT", "value": "", "condition": no_ckpt, "file": common, "line": 58},
        {"name": "CHECK_COMPLIANCE", "value": "0", "condition": no_ckpt, "file": common, "line": 59},
    ]
    env = launch["env"]
    assert not {item["name"] for item in launch["conditional"]} & set(env)
    # MAX_STEPS=500 under LOAD_MINIMAL_NUM_SAMPLES is set again, unconditionally, by the configuration after it.
    assert lines[17] == "  export MAX_STEPS=500" and env["MAX_STEPS"] == "300"
    assert env["FP8"] == "True" and env["MICRO_BATCH_SIZE"] == "1" and env["TENSOR_MODEL_PARALLEL"] == "8"
    assert "WALLTIME" not in env and "left out of env: DGXSYSTEM, WALLTIME." in launch["notes"]
    assert (
        "(launch.conditional gives each with its test, file and line): OVERRIDE_ZERO_CONSUMED_SAMPLES, "
        "INIT_GLOBAL_STEP, LOAD_CHECKPOINT, CHECK_COMPLIANCE." in launch["notes"]
    )
    assert [item["path"] for item in launch_files(launch)][1:3] == [config, common]  # each conditional's file
    # DGXNGPU is run.sub's default; the global batch is MINIBS 72 × (2,048 GPUs ÷ TP 8 × PP 8 × CP 2)
    assert launch["sets"] == {
        "gpus": 2048, "tp": 8, "pp": 8, "cp": 2, "gbs": 1152, "mbs": 1, "seq_length": 8192, "precision": "fp8",
    }  # fmt: skip
    assert "DGXNGPU=8 (run.sub's default, line 60)" in launch["notes"]


def test_an_import_keeps_conditional_values_out_of_env_and_the_page_lists_them(
    capsys: pytest.CaptureFixture[str], project: Project, tmp_path: Path
) -> None:
    """An && chain, an if/else and a source under a test, added to AMD's real configuration: each
    value where bash sets it, the scripts exporting only the unconditional ones, the page listing the
    others with their test and line."""
    repo = scratch(tmp_path, "v5.0", V50)
    config = repo / AMD_CONFIG
    base = len(config.read_text(encoding="utf-8").rstrip("\n").split("\n"))
    config.write_text(
        config.read_text(encoding="utf-8").rstrip("\n") + "\nexport ACG=full && export ACM=block && export ACL=21\n"
        'if [ "${NO_CKPT:-0}" = 1 ]; then\n'
        '    export LOAD_CHECKPOINT=""\n'
        "else\n"
        "    export FP8=False\n"
        "fi\n"
        'if [ -n "${EXTRA:-}" ]; then source config_extra.sh; fi\n',
        encoding="utf-8",
    )
    git(repo, "commit", "-q", "-am", "a configuration with conditions")
    code, _, err = run(capsys, "--root", project.root, "import", "mlperf", "--repo", repo, "--round", "5.0")
    assert code == 0, err
    path = project.root / "recipes" / f"{AMD_ID}.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    launch = data["launch"]
    assert {name: launch["env"][name] for name in ("ACG", "ACM", "ACL")} == {"ACG": "full", "ACM": "block", "ACL": "21"}
    # FP8 is set unconditionally before: it stays in env (and the recipe is FP8), the else branch's override listed
    assert launch["env"]["FP8"] == "True" and data["workload"]["precision"] == "fp8"
    assert "LOAD_CHECKPOINT" not in launch["env"]
    no_ckpt = 'if [ "${NO_CKPT:-0}" = 1 ]'
    assert launch["conditional"] == [
        {"name": "LOAD_CHECKPOINT", "value": "", "condition": no_ckpt, "file": AMD_CONFIG, "line": base + 3},
        {"name": "FP8", "value": "False", "condition": f"else of {no_ckpt}", "file": AMD_CONFIG, "line": base + 5},
    ]
    assert (
        f'{AMD_CONFIG} line {base + 7} sources config_extra.sh under if [ -n "${{EXTRA:-}}" ], which is not beside '
        "it at this commit: its variables are not in env." in launch["notes"]
    )
    catalogue = load_catalogue(project.root, only=[path])
    assert catalogue.ok, catalogue.problems
    outputs = {output.src_uri: output for output in plan_site(project.root).outputs}
    env_sh, launch_sh = (outputs[f"recipes/{AMD_ID}/{name}"].text() for name in ("env.sh", "launch.sh"))
    for script in (env_sh, launch_sh):
        assert "export ACG=full\nexport ACM=block\nexport ACL=21\n" in script and "export FP8=True\n" in script
        assert "LOAD_CHECKPOINT" not in script and "FP8=False" not in script
    page = outputs[f"recipes/{AMD_ID}.md"].text()
    table = page[page.index('<table class="or-conditional" data-or-conditional>') :]
    table = table[: table.index("</table>")]
    assert "launch.sh and env.sh do not set these; the publisher's files do, when the command sources them" in table
    commit = git(repo, "rev-parse", "HEAD")
    link = f"https://github.com/mlcommons/training_results_v5.0/blob/{commit}/{AMD_CONFIG}"
    rows = [visible_text(row) for row in table.split("<tr>")[2:]]
    assert rows == [
        f"LOAD_CHECKPOINT empty {no_ckpt} config_MI325X_1x8x1.sh line {base + 3}",
        f"FP8 False else of {no_ckpt} config_MI325X_1x8x1.sh line {base + 5}",
    ]
    assert f'<a href="{link}#L{base + 3}" rel="nofollow noopener">' in table


def launch_files(launch: dict[str, Any]) -> list[dict[str, Any]]:
    """The files the launch itself is read from: those its preparation steps are read from aside
    (test_preparation.py tests those)."""
    return [item for item in launch["source"]["files"] if not item["what"].startswith("preparation: ")]


def test_the_committed_mlperf_launches_are_what_the_publishers_files_make(tmp_path: Path) -> None:
    """Every MLPerf recipe's documented launch, and its note of the values read, as the importer makes
    them now from the copies of the files the launch cites (`importer_fixtures/mlperf-training-v<round>/
    <commit>/`): the committed data was written by the importer's own code, and stays so."""
    from openrecipes.importers import mlperf as mp

    repos: dict[tuple[str, str], tuple[GitSource, str]] = {}
    checked = 0
    frozen = REPO / "tests/fixtures/recipes"
    for path in [*sorted((REPO / "recipes").rglob("*.yaml")), *sorted(frozen.rglob("*.yaml"))]:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if data.get("source", {}).get("importer") != "mlperf" or data["launch"]["kind"] != "documented":
            continue
        launch = data["launch"]
        round_name, commit = data["benchmark"]["round"], launch["source"]["commit"]
        if (round_name, commit) not in repos:
            folder = FIXTURES / f"mlperf-training-v{round_name}" / commit
            # The files the launches' folders hold beside the kept copies, laid out empty (the `.paths` listing):
            # what the importer asks of them is whether they are there.
            listed = scratch_with_listed(tmp_path / f"{round_name}-{commit}-files", folder)
            repo = scratch(tmp_path / f"{round_name}-{commit}", "results", listed)
            repos[(round_name, commit)] = (GitSource.open(repo, "HEAD"), git(repo, "rev-parse", "HEAD"))
        source, head = repos[(round_name, commit)]
        (config_path,) = [
            item["path"] for item in launch["source"]["files"] if item["what"].startswith("the configuration this")
        ]
        said = re.search(
            rf"Layout and precision from {re.escape(config_path)}, the configuration this result ran "
            r"\((.*?)\): (?=`|\.\n)",
            data["notes"],
        )
        assert said, path
        benchmark = mp.BENCHMARKS[data["benchmark"]["name"]]
        submitter, system = config_path.split("/", 1)[0], data["benchmark"]["system"]
        result = mp.Result(
            round_name, submitter, system, benchmark, f"{submitter}/results/{system}/{benchmark.name}", (), None
        )
        config = mp.read_config(source, config_path)
        made = mlperf_recipes._launch(mp.Repository(source, round_name, (result,)), result, config, said.group(1))
        made = yaml.safe_load(yaml.safe_dump(made, sort_keys=False).replace(head, commit))
        assert made == launch, path
        disagreements = mlperf_recipes._launch_disagreement({**data, "launch": made}, config)
        assert disagreements == [item for item in data.get("disagreements", []) if item["check"] == "Launch values"]
        assert f"- {mlperf_recipes._notes(result, config, said.group(1))[0]}" in data["notes"].split("\n"), path
        checked += 1
    assert checked >= 99


def test_an_import_with_dry_run_runs_each_written_launch_over_the_clone_and_records_it(
    capsys: pytest.CaptureFixture[str], project: Project, tmp_path: Path
) -> None:
    """The kept files hold the script the launch runs (run_with_docker.sh), not the one it hands the
    container (run_and_time.sh): the dry run says so; with a stand-in of ours for it, it passes."""
    folder = AMD_CONFIG.rsplit("/", 1)[0]
    repo = scratch(tmp_path / "kept", "v5.0", V50)
    args = ["--root", project.root, "import", "mlperf", "--round", "5.0", "--dry-run"]
    code, _, err = run(capsys, *args, "--repo", repo)
    assert code == 1
    assert err.splitlines()[-2:] == [
        f"dry run failed recipes/{AMD_ID}.yaml: docker is handed ./run_and_time.sh, which is not in "
        f"training_results_v5.0/{folder}",
        "dry run: 0 of 1 launch passed",
    ]
    records = dryruns.load(project.root)[0]
    assert records[AMD_ID].passed is False and records[AMD_ID].files == "clone"

    whole = tmp_path / "whole"
    shutil.copytree(V50, whole)
    (whole / folder / "run_and_time.sh").write_text("echo a stand-in of ours\n", encoding="utf-8")
    repo = scratch(tmp_path / "whole-repo", "v5.0", whole)
    code, _, err = run(capsys, *args, "--repo", repo)
    assert (code, err.splitlines()[-1]) == (0, "dry run: 1 of 1 launch passed"), err
    record = dryruns.load(project.root)[0][AMD_ID]
    assert record.passed and record.commit == git(repo, "rev-parse", "HEAD")
    assert record.launcher is not None and record.launcher.startswith("docker ")


def test_a_launch_needing_files_not_at_the_commit_lists_each_with_the_file_and_line_that_needs_it(
    tmp_path: Path,
) -> None:
    """Issue 28, item 2: a file the configuration sources, the Hydra configuration the training script
    names, the Python file run_and_time.sh runs and the Dockerfile the image is built from, each
    missing at the commit, make the launch incomplete (`launch.missing`), with what needs each."""
    folder = "Acme/benchmarks/llama2_70b_lora/implementations/box"
    repo = new_repo(tmp_path, "training_results_v5.1")
    files = {
        f"{folder}/README.md": (
            "# Box\n\n```bash\nsource config_BOX_1x8x1.sh\nsbatch -N $DGXNNODES -t $WALLTIME run.sub\n```\n"
        ),
        f"{folder}/config_BOX_1x8x1.sh": (
            "source $(dirname ${BASH_SOURCE[0]})/config_common.sh\n"
            "export DGXNNODES=1\nexport DGXNGPU=8\nexport TP=1\nexport PP=1\nexport CP=1\nexport MINIBS=1\n"
            "export WALLTIME=30\n"
        ),
        f"{folder}/run.sub": "#!/bin/bash\nsrun ./run_and_time.sh\n",
        f"{folder}/run_and_time.sh": "#!/bin/bash\nset -e\npython -u finetune.py --seed 1\n",
        f"{folder}/src/train.py": (
            "import hydra\n\n\n@hydra.main(config_path='conf', config_name='lora')\ndef main(cfg):\n    pass\n"
        ),
    }
    for path, text in files.items():
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text(text, encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "results")
    launch = launch_of(repo, "5.1", "Acme", "box", f"{folder}/config_BOX_1x8x1.sh")
    assert launch["kind"] == "documented"
    assert launch["missing"] == [
        {
            "path": f"{folder}/config_common.sh",
            "file": f"{folder}/config_BOX_1x8x1.sh",
            "line": 1,
            "what": "sourced by config_BOX_1x8x1.sh",
        },
        {
            "path": f"{folder}/src/conf/lora.yaml",
            "file": f"{folder}/src/train.py",
            "line": 4,
            "what": "the Hydra configuration train.py runs",
        },
        {
            "path": f"{folder}/Dockerfile",
            "file": f"{folder}/README.md",
            "what": "the Dockerfile the launch's image is built from: the launch names no published image, and no "
            "step of the submission pulls or builds one",
        },
        {
            "path": f"{folder}/finetune.py",
            "file": f"{folder}/run_and_time.sh",
            "line": 3,
            "what": "run by run_and_time.sh in the image",
        },
    ]
    # Each file that needs one is cited, at the line that does.
    cited = {item["path"]: item.get("lines") for item in launch["source"]["files"]}
    assert cited[f"{folder}/run_and_time.sh"] == [3, 3]
    assert cited[f"{folder}/src/train.py"] == [4, 4]
    assert_cited_lines_exist(repo, launch)


def test_a_launch_kept_with_its_configuration_below_the_implementation_runs_the_implementations_code(
    tmp_path: Path,
) -> None:
    """Issue 29, item 4: Nebius keeps each system's configuration and launch script in
    `configs/<system>/`, below the benchmark's folder that holds the Dockerfile, the training script
    and its Hydra configuration: the batch and sequence are read there, and no Dockerfile is missing."""
    bench = "Acme/benchmarks/llama2_70b_lora"
    own = f"{bench}/configs/box_n1"
    repo = new_repo(tmp_path, "training_results_v5.1")
    files = {
        f"{bench}/Dockerfile": "FROM scratch\n",
        f"{bench}/run.sub": "#!/bin/bash\nsrun ./run_and_time.sh\n",
        f"{bench}/train.py": (
            "import hydra\n\n\n@hydra.main(config_path='conf', config_name='lora')\ndef main(cfg):\n    pass\n"
        ),
        f"{bench}/conf/lora.yaml": (
            "model:\n  global_batch_size: ${multiply:${oc.env:MINIBS},${oc.env:DGXNGPU}}\n  encoder_seq_length: 8192\n"
        ),
        f"{own}/run.sub": "#!/bin/bash\nsrun ./run_and_time.sh\n",
        f"{own}/run_box.sh": (
            "#!/bin/bash\nexport CONT=/mnt/images/lora.sqsh\nsource config_BOX_1x8x1.sh\n"
            "sbatch -N ${DGXNNODES} --time=${WALLTIME} run.sub\n"
        ),
        f"{own}/config_BOX_1x8x1.sh": (
            "export DGXNNODES=1\nexport DGXNGPU=8\nexport TP=1\nexport PP=1\nexport CP=1\nexport MINIBS=1\n"
            "export WALLTIME=30\n"
        ),
    }
    for path, text in files.items():
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text(text, encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "results")
    from openrecipes.importers import mlperf_launch

    assert mlperf_launch.implementation_folder(f"{own}/config_BOX_1x8x1.sh", list(files)) == own
    launch = launch_of(repo, "5.1", "Acme", "box_n1", f"{own}/config_BOX_1x8x1.sh")
    assert launch["checkout"].endswith(f"cd {own}\n")
    assert "missing" not in launch
    cited = [item["path"] for item in launch["source"]["files"]]
    assert f"{bench}/train.py" in cited and f"{bench}/conf/lora.yaml" in cited
    assert_cited_lines_exist(repo, launch)


def test_a_gpu_memory_the_gpu_is_not_sold_with_is_kept_as_published_with_why_its_check_fails() -> None:
    """Lenovo's v5.1 B300 system description states 275 GB; the B300 is sold with 288 or 270 GB."""
    from openrecipes.importers import mlperf as mp

    result = mp.Result("5.1", "Lenovo", "SR680aV4-8xB300_SXM", mp.BENCHMARKS["llama31_8b"], "x", (), None)
    (found,) = mlperf_recipes._memory_disagreement(result, {"type": "B300", "memory_gb": 275})
    assert found["check"] == "GPU memory"
    assert found["note"].startswith(
        "Lenovo's system description (Lenovo/systems/SR680aV4-8xB300_SXM.json, accelerator_memory_capacity) states "
        "275 GB per accelerator; the NVIDIA B300"
    )
    assert mlperf_recipes._memory_disagreement(result, {"type": "B300", "memory_gb": 288}) == []
    assert mlperf_recipes._memory_disagreement(result, {"type": "B300"}) == []


def test_a_launch_that_submits_a_run_sub_its_folder_does_not_hold_is_incomplete(tmp_path: Path) -> None:
    folder = "Acme/benchmarks/llama2_70b_lora/implementations/box"
    repo = new_repo(tmp_path, "training_results_v4.0")
    files = {
        f"{folder}/README.md": "# Box\n\n```bash\nsource config_BOX_1x8x1.sh\nsbatch -N $DGXNNODES run.sub\n```\n",
        f"{folder}/config_BOX_1x8x1.sh": "export DGXNNODES=1\nexport DGXNGPU=8\nexport TP=1\nexport PP=1\n",
        f"{folder}/Dockerfile": "FROM scratch\n",
    }
    for path, text in files.items():
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text(text, encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "results")
    launch = launch_of(repo, "4.0", "Acme", "box", f"{folder}/config_BOX_1x8x1.sh")
    assert launch["missing"] == [
        {
            "path": f"{folder}/run.sub",
            "file": f"{folder}/README.md",
            "what": "the job script the launch submits (sbatch … run.sub)",
        }
    ]
