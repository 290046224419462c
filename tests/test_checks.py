"""Every recomputed figure: the seed passes each check, and each check fails on a broken fixture."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO, SEED, SEED_ID, BuildResult, Project, parse

from openrecipes.catalogue import load_catalogue
from openrecipes.reference import load_reference

TODAY = dt.date(2026, 12, 2)
FILE = f"recipes/{SEED_ID}.yaml"


def _checks(root: Path) -> dict[str, Any]:
    catalogue = load_catalogue(root, today=TODAY)
    return {check.name: check for entry in catalogue.entries for check in entry.derived.checks}


def test_the_seed_passes_every_check_with_the_sourced_figures() -> None:
    catalogue = load_catalogue(REPO, today=TODAY)
    assert catalogue.problems == ()
    (entry,) = [e for e in catalogue.entries if e.recipe.id == SEED_ID]
    derived = entry.derived
    assert all(check.passed for check in derived.checks)
    assert derived.peak_tflops == 989
    assert f"{derived.mfu * 100:.3f}%" == "18.566%"
    assert derived.instance.usd_per_hour == 63.296 and derived.instance.gpus == 8
    assert f"{derived.usd_per_million_tokens:.4f}" == "1.8402"
    assert f"{derived.run_cost_usd:.2f}" == "45.89"  # 5.8 GPU-hours × $7.912
    assert derived.tokens_per_gpu_hour == pytest.approx(4_299_480)
    assert derived.price_age_days == 266  # price of 2026-01-21, measured 2026-10-14
    names = [check.name for check in derived.checks]
    assert names == [
        "MFU",
        "$/1M tokens",
        "GPU count",
        "Whole nodes",
        "GPU memory",
        "Instance GPU",
        "Whole instances",
        "Expert layout",
        "Global batch",
        "Measurement window",
        "Window tokens",
        "Dataset rows",
        "Row length",
        "Verified status",
        "Correctness evidence",
        "Convergence figures",
        "Measured date",
    ]


# (check, replacement applied to the seed, the exact problem line)
FAILURES = [
    (
        "MFU",
        ("  mfu: 0.1857\n", "  mfu: 0.1870\n"),
        f"{FILE}:78:8: $.result.mfu: MFU check failed: stated 18.70%, recomputed 18.566% (6 × 25,623,920,640 active "
        "parameters × 1,194.3 tokens/s ÷ 989 TFLOP/s (H200 dense BF16 peak)); tolerance ±0.1 percentage points",
    ),
    (
        "$/1M tokens",
        ("  usd_per_million_tokens: 1.84\n", "  usd_per_million_tokens: 2.47\n"),
        f"{FILE}:76:27: $.result.usd_per_million_tokens: $/1M tokens check failed: stated $2.4700, recomputed $1.8402 "
        "($63.296/h ÷ 8 GPUs ÷ (1,194.3 tokens/s × 3,600) × 1,000,000); tolerance ±$0.0184 (1% or half a cent, "
        "whichever is larger)",
    ),
    (
        "GPU count",
        ("  dp: 1\n", "  dp: 2\n"),
        f"{FILE}:8:10: $.gpu.count: GPU count check failed: stated 8 GPUs, recomputed 16 GPUs "
        "(TP × PP × CP × DP = 4 × 2 × 1 × 2); tolerance exact",
    ),
    (
        "Whole nodes",
        ("  per_node: 8\n", "  per_node: 3\n"),
        f"{FILE}:9:13: $.gpu.per_node: Whole nodes check failed: stated 8 GPUs, 3 per node, recomputed 2.66667 nodes "
        "(gpu.count ÷ gpu.per_node); tolerance a whole number of nodes",
    ),
    (
        "GPU memory",
        ("  memory_gb: 141\n", "  memory_gb: 80\n"),
        f"{FILE}:7:14: $.gpu.memory_gb: GPU memory check failed: stated 80 GB, recomputed 141 GB (memory of the "
        "NVIDIA H200 SXM 141GB in reference/gpus.yaml); tolerance exact",
    ),
    (
        "Expert layout",
        ("  ep: 1\n", "  ep: 3\n"),
        f"{FILE}:62:7: $.layout.ep: Expert layout check failed: stated EP × ETP = 3 × 1 = 3, recomputed TP × CP × DP "
        "= 4 × 1 × 1 = 4 (experts are spread over the GPUs of one pipeline stage); tolerance EP × ETP divides "
        "TP × CP × DP",
    ),
    (
        "Global batch",
        ("  rows_per_microbatch: 1\n", "  rows_per_microbatch: 3\n"),
        f"{FILE}:31:17: $.workload.global_batch: Global batch check failed: stated 128 rows, recomputed a multiple of "
        "3 rows (rows per microbatch × DP = 3 × 1); tolerance a whole number of microbatches per DP rank",
    ),
    (
        "Layer split",
        ("  layer_split: null\n", "  layer_split: [34, 30, 0]\n"),
        f"{FILE}:66:25: $.layout.layer_split[2]: 0 is less than the minimum of 1",
    ),
    (
        "Layer split",
        ("  layer_split: null\n", "  layer_split: [34, 20, 10]\n"),
        f"{FILE}:66:16: $.layout.layer_split: Layer split check failed: stated 3 stages, recomputed PP = 2 stages "
        "(len(layout.layer_split) = layout.pp); tolerance one layer count per pipeline stage",
    ),
    (
        "Measurement window",
        ("  - 19\n", "  - 21\n", "  window_tokens: 15728640\n", "  window_tokens: 17825792\n"),
        f"{FILE}:87:3: $.result.window: Measurement window check failed: stated steps 5–21, recomputed within steps "
        "1–20 (the window lies inside the measured run); tolerance 1 ≤ first ≤ last ≤ steps_per_run",
    ),
    (
        "Window tokens",
        ("  window_tokens: 15728640\n", "  window_tokens: 16777216\n"),
        f"{FILE}:89:18: $.result.window_tokens: Window tokens check failed: stated 16,777,216, recomputed 15,728,640 "
        "((last − first + 1) × global_batch × row_tokens = (19 − 5 + 1) × 128 × 8,192); tolerance exact",
    ),
    (
        "Dataset rows",
        ("      rows: 6400\n", "      rows: 2000\n"),
        f"{FILE}:43:13: $.workload.dataset.build.rows: Dataset rows check failed: stated 2,000 rows built, recomputed "
        "2,560 rows consumed (steps_per_run × global_batch = 20 × 128); tolerance built ≥ consumed",
    ),
    (
        "Row length",
        ("      row_tokens: 8192\n", "      row_tokens: 4096\n"),
        f"{FILE}:44:19: $.workload.dataset.build.row_tokens: Row length check failed: stated 4,096 tokens per built "
        "row, recomputed 8,192 tokens per training row (the build's rows are the rows trained on); tolerance exact",
    ),
    (
        "Verified status",
        ("  result: pass\n  summary: passed\n", "  result: not-run\n  summary: passed\n"),
        f"{FILE}:14:9: $.status: Verified status check failed: stated status verified, recomputed correctness "
        "not-run (a recipe is verified only on passing evidence); tolerance verified requires correctness pass",
    ),
    (
        "Correctness evidence",
        ("    steps: 20\n    result: pass\n", "    steps: 20\n    result: fail\n"),
        f"{FILE}:96:11: $.correctness.result: Correctness evidence check failed: stated correctness pass, recomputed "
        "convergence fail (the verdict rests on the loss-curve comparison); tolerance pass requires the convergence "
        "check to pass",
    ),
    (
        "Convergence figures",
        ("    correlation: 0.999997\n", "    correlation: null\n"),
        f"{FILE}:104:5: $.correctness.convergence: Convergence figures check failed: stated convergence pass, "
        "recomputed figures missing (correlation, final_loss_difference and pointwise_failures are not null); "
        "tolerance a comparison that ran states its correlation, final loss difference and failures",
    ),
    (
        "Measured date",
        ("  measured: 2026-10-14\n", "  measured: 2027-01-05\n"),
        f"{FILE}:84:13: $.result.measured: Measured date check failed: stated 2027-01-05, recomputed on or before "
        "2026-12-02, the date of the build in UTC (a run cannot be measured after the site is built); tolerance not "
        "in the future",
    ),
]


@pytest.mark.parametrize(
    ("name", "edit", "expected"), FAILURES, ids=[f"{case[0]}-{i}" for i, case in enumerate(FAILURES)]
)
def test_each_check_fails_on_a_broken_figure(project: Project, name: str, edit: tuple[str, ...], expected: str) -> None:
    text = SEED
    for before, after in zip(edit[::2], edit[1::2], strict=True):
        assert before in text
        text = text.replace(before, after, 1)
    project.add(SEED_ID, text)
    problems = [str(p) for p in load_catalogue(project.root, today=TODAY).problems]
    assert problems == [expected]


def test_price_is_null_exactly_when_there_is_no_instance(project: Project) -> None:
    project.add(SEED_ID, SEED.replace("  instance: AWS p5en.48xlarge\n", "  instance: null\n"))
    assert [str(p) for p in load_catalogue(project.root, today=TODAY).problems] == [
        f"{FILE}:76:27: $.result.usd_per_million_tokens: $/1M tokens check failed: stated $1.8400, recomputed null "
        "(no instance, so no public price); tolerance null exactly when gpu.instance is null"
    ]
    project.add(SEED_ID, SEED.replace("  usd_per_million_tokens: 1.84\n", "  usd_per_million_tokens: null\n"))
    assert [str(p) for p in load_catalogue(project.root, today=TODAY).problems] == [
        f"{FILE}:76:27: $.result.usd_per_million_tokens: $/1M tokens check failed: stated null, recomputed $1.8402 "
        "($63.296/h ÷ 8 GPUs ÷ (1,194.3 tokens/s × 3,600) × 1,000,000); tolerance ±$0.0184 (1% or half a cent, "
        "whichever is larger)"
    ]


def test_half_a_cent_is_the_smallest_price_tolerance(project: Project) -> None:
    # 8 × 32k tokens/s on an 8-GPU p5en: $0.0671/1M; 1% would be $0.0007, so half a cent applies.
    fast = SEED.replace("tokens_per_s_per_gpu: 1194.3", "tokens_per_s_per_gpu: 32768.0")
    fast = fast.replace("mfu: 0.1857", "mfu: 0.5094").replace(
        "active_params:\n    count: 25623920640", "active_params:\n    count: 2562392064"
    )
    project.add(SEED_ID, fast.replace("usd_per_million_tokens: 1.84", "usd_per_million_tokens: 0.0716"))
    assert [c.passed for c in _checks(project.root).values()] == [True] * 17
    project.add(SEED_ID, fast.replace("usd_per_million_tokens: 1.84", "usd_per_million_tokens: 0.0727"))
    assert not _checks(project.root)["$/1M tokens"].passed


def test_unknown_gpu_and_instance_list_the_known_ones(project: Project) -> None:
    text = SEED.replace("  type: H200\n", "  type: H300\n").replace(
        "  instance: AWS p5en.48xlarge\n", "  instance: AWS p5en.24xlarge\n"
    )
    project.add("qwen3.8-27b/h300/attune-tp4-pp2", text)
    problems = [str(p) for p in load_catalogue(project.root, today=TODAY).problems]
    assert problems[0].startswith(
        "recipes/qwen3.8-27b/h300/attune-tp4-pp2.yaml:6:9: $.gpu.type: unknown GPU 'H300'; did you mean 'H200'? "
        "Known GPUs: A100, A100-40GB, B200, B300, GB200, GB300, H100, H100-96GB, H100-NVL, H100-PCIe, H20, H200, "
        "MI250X, MI300X, MI325X, MI355X"
    )
    assert problems[1].startswith(
        "recipes/qwen3.8-27b/h300/attune-tp4-pp2.yaml:10:13: $.gpu.instance: unknown instance 'AWS p5en.24xlarge'; "
        "did you mean 'AWS p5en.48xlarge'? Add it with its price and source to reference/instances.yaml, or write "
        "null for GPUs without a public price. Known: AWS p4d.24xlarge, "
    )
    assert len(problems) == 2  # no check runs against a default peak or price


def test_aliases_name_the_same_gpu_and_fp8_runs_use_the_fp8_peak(project: Project) -> None:
    data = project.add_synthetic("llama-3.1-70b/h100-sxm/fp8", gpu="H100 SXM", precision="fp8", tokens_per_s=1500.0)
    assert data["result"]["mfu"] == round(6 * 70553706496 * 1500 / 1979e12, 4)
    catalogue = load_catalogue(project.root, today=TODAY)
    assert catalogue.problems == ()
    assert catalogue.entries[0].derived.peak_tflops == 1979


def test_a_gpu_without_fp8_cannot_run_fp8(project: Project) -> None:
    data = project.add_synthetic(
        "llama-3.1-70b/a100/bf16", gpu="A100", instance="AWS p4de.24xlarge", tokens_per_s=200.0
    )
    data["workload"]["precision"] = "fp8"
    project.add("llama-3.1-70b/a100/bf16", data)
    assert [str(p) for p in load_catalogue(project.root, today=TODAY).problems] == [
        "recipes/llama-3.1-70b/a100/bf16.yaml:27:14: $.workload.precision: A100 has no FP8 tensor cores, so a fp8 run "
        "on it cannot be right"
    ]


def test_instance_gpu_must_match_and_instances_are_billed_whole(project: Project) -> None:
    data = project.add_synthetic(
        "llama-3.1-70b/h200/on-p5", gpu="H200", instance="AWS p5en.48xlarge", tokens_per_s=900.0
    )
    data["gpu"]["instance"] = "AWS p5.48xlarge"
    data["result"]["usd_per_million_tokens"] = 2.1235
    data["gpu"]["count"], data["gpu"]["per_node"], data["layout"]["pp"] = 4, 4, 1
    data["layout"]["tp"], data["layout"]["dp"] = 4, 1
    data["workload"]["global_batch"] = 64
    data["result"]["window_tokens"] = 24 * 64 * 8192
    data["workload"]["dataset"]["build"]["rows"] = 64 * 30
    project.add("llama-3.1-70b/h200/on-p5", data)
    checks = _checks(project.root)
    assert not checks["Instance GPU"].passed and checks["Instance GPU"].recomputed == "H100"
    assert not checks["Whole instances"].passed
    assert checks["Whole instances"].recomputed == "0.5 instances of 8 GPUs"


def test_reference_data_is_validated_with_its_own_schema(project: Project) -> None:
    gpus = project.root / "reference/gpus.yaml"
    gpus.write_text(gpus.read_text().replace("  memory_gb: 141\n", "  memory_gb: 141\n  memory: 141\n", 1))
    instances = project.root / "reference/instances.yaml"
    instances.write_text(instances.read_text().replace("  gpu: H200\n", "  gpu: H201\n", 1))
    _, problems = load_reference(project.root)
    assert [(p.path, p.where) for p in problems] == [("reference/gpus.yaml", "$.H200.memory")]
    assert problems[0].message.startswith("unknown key 'memory'; did you mean 'memory_gb'? Allowed keys: ")
    assert problems[0].line == gpus.read_text().splitlines().index("  memory: 141") + 1
    gpus.write_text((REPO / "reference/gpus.yaml").read_text())
    _, problems = load_reference(project.root)
    assert [str(p) for p in problems] == [
        "reference/instances.yaml: $['AWS p5en.48xlarge'].gpu: 'H201' is not a GPU of reference/gpus.yaml"
    ]


def test_every_reference_number_has_a_source_and_a_date(reference: Any) -> None:
    for spec in [*reference.gpus.values(), *reference.instances.values(), *reference.models.values()]:
        assert spec.sourced.source.strip(), spec.key
        assert isinstance(spec.sourced.as_of, dt.date), spec.key
    required = {"H100", "H200", "B200", "B300", "GB200", "A100", "MI300X", "MI325X", "MI355X"}
    assert required <= set(reference.gpus)
    for name in (
        "AWS p4d.24xlarge",
        "AWS p4de.24xlarge",
        "AWS p5.48xlarge",
        "AWS p5en.48xlarge",
        "AWS p6-b200.48xlarge",
        "AWS p6-b300.48xlarge",
        "GCP a3-highgpu-8g",
        "GCP a3-megagpu-8g",
        "Azure Standard_ND96isr_H100_v5",
    ):
        assert reference.instance(name) is not None, name


def test_recipe_page_shows_each_check_and_the_sources(seed_site: BuildResult) -> None:
    html = seed_site.html(f"recipes/{SEED_ID}/")
    checks = re.search(r'<h2 [^>]*id="checks".*?</table>', html, re.S).group(0)
    rows = [
        parse(row, capture_when=lambda t, a: t == "td").captured for row in re.findall(r"<tr>.*?</tr>", checks, re.S)
    ]
    rows = [row for row in rows if row]
    assert rows[0] == [
        "MFU",
        "18.57%",
        "18.566%",
        "6 × 25,623,920,640 active parameters × 1,194.3 tokens/s ÷ 989 TFLOP/s (H200 dense BF16 peak)",
        "±0.1 percentage points",
        "pass",
    ]
    assert rows[1][:3] == ["$/1M tokens", "$1.8400", "$1.8402"]
    assert len(rows) == 17
    text = " ".join(" ".join(parse(html).text).split())
    assert "attention FLOPs are not counted" in text
    assert (
        "Price used: AWS p5en.48xlarge at $63.296 per instance-hour on demand (us-east-1), 8 GPUs: $7.912 per GPU-hour."
        in text
    )
    assert "as of 2026-01-21 (266 days before the measurement)" in text
    assert "the measured run cost $45.89 (5.8 GPU-hours × $7.912)" in text


def test_methodology_page_renders_formulas_and_every_reference_row(seed_site: BuildResult, reference: Any) -> None:
    text = " ".join(" ".join(parse(seed_site.html("methodology/")).text).split())
    assert "MFU = 6 × N × tokens/s per GPU ÷ dense peak FLOP/s" in text
    assert "$/1M tokens = USD per instance-hour ÷ GPUs per instance ÷ (tokens/s per GPU × 3,600) × 1,000,000" in text
    for gpu in reference.gpus.values():
        assert gpu.name in text
    assert "AWS p5en.48xlarge H200 8 63.296 7.912 us-east-1" in text
