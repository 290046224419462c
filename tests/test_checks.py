"""Every recomputed figure: the seed passes each check, and each check fails on a broken fixture."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO, SEED, SEED_DATA, SEED_ID, BuildResult, Project, parse

from openrecipes import fmt
from openrecipes.checking.derive import analyse
from openrecipes.checking.figures import RULES
from openrecipes.checking.rules import check_statements
from openrecipes.loader import Entry, load_catalogue, load_recipe
from openrecipes.reading.reference import load_reference
from openrecipes.reading.schema import SCHEMA_RELATIVE_PATH, Schema

TODAY = dt.date(2026, 12, 2)
FILE = f"recipes/{SEED_ID}.yaml"


def _checks(root: Path) -> dict[str, Any]:
    """Every check made of the one recipe under `root`, passing or not (the catalogue keeps only valid ones)."""
    (path,) = (root / "recipes").rglob("*.yaml")
    recipe, locations, _ = load_recipe(path, root, Schema.load(root / SCHEMA_RELATIVE_PATH))
    derived, _ = analyse(recipe, locations, load_reference(root)[0], TODAY)
    return {check.name: check for check in derived.checks}


def test_the_committed_catalogue_has_no_problems() -> None:
    assert load_catalogue(REPO, today=TODAY).problems == ()


def _seed_entry(root: Path) -> Entry:
    catalogue = load_catalogue(root, today=TODAY)
    assert catalogue.problems == ()
    (entry,) = [e for e in catalogue.entries if e.recipe.id == SEED_ID]
    return entry


def test_the_seed_passes_every_check_with_the_sourced_figures(fixture_root: Path) -> None:
    derived = _seed_entry(fixture_root).derived
    result = SEED_DATA["result"]
    tokens, gpu_hours = result["tokens_per_s_per_gpu"], result["gpu_hours"]
    assert derived.checks and all(check.passed for check in derived.checks)
    assert derived.peak_tflops == 989
    assert derived.params == result["active_params"]["count"] and derived.params_from_recipe
    assert derived.mfu == pytest.approx(6 * result["active_params"]["count"] * tokens / 989e12)
    assert derived.instance.usd_per_hour == 63.296 and derived.instance.gpus == 8
    assert derived.price.instance is derived.instance and not derived.price.basis
    # Shown and ranked at the price basis of H200 (the cheapest sourced: Nebius, $4.50 per GPU-hour);
    # its own instance's figure, which the stated one is checked against, beside it.
    assert derived.basis.instance.key == "Nebius H200" and derived.basis.basis
    assert derived.usd_per_million_tokens == pytest.approx(4.5 / (tokens * 3600) * 1e6)
    own = 63.296 / 8 / (tokens * 3600) * 1e6
    assert derived.instance_usd_per_million_tokens == pytest.approx(own)
    assert {c.name: c.recomputed for c in derived.checks}["$/1M tokens"] == fmt.usd(own, 4)
    assert derived.run_cost_usd == pytest.approx(gpu_hours * 7.912)  # the run's own cost: GPU-hours × $7.912
    assert derived.tokens_per_gpu_hour == pytest.approx(tokens * 3600)
    # The p5en's price is of 2026-01-21.
    assert derived.price_age_days == (result["measured"] - dt.date(2026, 1, 21)).days
    assert (derived.dp, derived.dp_derived, derived.label) == (1, False, "TP4 PP2")


def test_every_rule_is_stated_for_the_methodology_page() -> None:
    statements = check_statements()
    assert len(statements) == len(RULES) and len({name for name, _ in statements}) == len(RULES)
    assert all(statement.endswith(".") and len(statement) > 30 for _, statement in statements)


PUBLISHED = """\
schema_version: 2
model: Llama 3.1 70B
status: published
source:
  url: https://github.com/example/bench/blob/0123456789abcdef0123456789abcdef01234567/README.md#L10
  where: table 1, row 2
gpu:
  type: H100
  count: 64
  per_node: 8
  system: DGX-H100
workload:
  row_tokens: 8192
  global_batch: 128
  precision: fp8
layout:
  tp: 4
  pp: 4
  cp: 2
  vpp: 5
  rows_per_microbatch: 1
result:
  tokens_per_s_per_gpu: 1500.0
"""


def test_a_published_recipe_needs_only_the_core_and_the_rest_is_derived_or_absent(project: Project) -> None:
    project.add("llama-3.1-70b/h100/published", PUBLISHED)
    catalogue = load_catalogue(project.root, today=TODAY)
    assert catalogue.problems == ()
    (entry,) = catalogue.entries
    derived = entry.derived
    assert (derived.dp, derived.dp_derived) == (2, True)  # 64 ÷ (4 × 4 × 2)
    assert derived.label == "TP4 PP4 CP2 VPP5"
    # From reference/models.yaml: 70,553,706,496 active, less the input embedding (128,256 × 8,192), a lookup.
    assert derived.params == 70_553_706_496 - 128_256 * 8_192 and not derived.params_from_recipe
    assert derived.method is None  # not stated: counted as training every weight, ranked apart
    assert derived.mfu == pytest.approx(6 * derived.params * 1500 / 1979e12) and derived.peak_column == "fp8"
    assert derived.mfu_bf16 == pytest.approx(6 * derived.params * 1500 / 989e12)  # one scale for every precision
    # No instance of its own: priced at the cheapest sourced H100 offer, labelled as the basis.
    assert derived.instance is None and derived.price.basis and derived.price is derived.basis
    h100 = [spec for spec in load_reference(REPO)[0].instances.values() if spec.gpu == "H100"]
    assert derived.basis.usd_per_gpu_hour == min(spec.usd_per_gpu_hour for spec in h100)
    assert derived.usd_per_million_tokens == pytest.approx(derived.basis.usd_per_gpu_hour / (1500 * 3600) * 1e6)
    assert derived.instance_usd_per_million_tokens is None
    assert derived.run_cost_usd is None and derived.price_age_days is None  # no GPU-hours, no date: not shown
    names = {check.name for check in derived.checks}
    assert {"GPU count", "Whole nodes", "Global batch", "Plausible MFU", "Pinned source", "Precision"} <= names
    assert not names & {"MFU", "$/1M tokens", "Measurement window", "GPU-hours", "Verified status"}  # nothing stated


def test_a_value_the_schema_refuses_is_left_out_of_the_checks_not_guessed(project: Project) -> None:
    project.add("llama-3.1-70b/h100/published", PUBLISHED.replace("  cp: 2\n", "  cp: two\n"))
    problems = load_catalogue(project.root, today=TODAY).problems
    assert [(p.where, p.message.split(";")[0]) for p in problems] == [
        ("$.layout.cp", "'two' is not of type 'integer'")
    ]  # and no GPU count check against an invented CP


def test_half_a_cent_is_the_smallest_price_tolerance(project: Project) -> None:
    # 8 × 32k tokens/s on an 8-GPU p5en: $0.0671/1M; 1% would be $0.0007, so half a cent applies.
    fast = SEED.replace("tokens_per_s_per_gpu: 1194.3", "tokens_per_s_per_gpu: 32768.0")
    fast = fast.replace("mfu: 0.1857", "mfu: 0.5094").replace(
        "active_params:\n    count: 25623920640",
        "active_params:\n    count: 2562392064\n    note: a model a tenth the size, for this test",
    )
    project.add(SEED_ID, fast.replace("usd_per_million_tokens: 1.84", "usd_per_million_tokens: 0.0716"))
    assert all(c.passed for c in _checks(project.root).values())
    project.add(SEED_ID, fast.replace("usd_per_million_tokens: 1.84", "usd_per_million_tokens: 0.0727"))
    assert not _checks(project.root)["$/1M tokens"].passed


def test_unknown_gpu_and_instance_list_the_known_ones(project: Project) -> None:
    text = SEED.replace("  type: H200\n", "  type: H300\n").replace(
        "  instance: AWS p5en.48xlarge\n", "  instance: AWS p5en.24xlarge\n"
    )
    project.add("qwen3.8-27b/h300/attune-tp4-pp2", text)
    problems = load_catalogue(project.root, today=TODAY).problems
    assert [p.where for p in problems] == ["$.gpu.type", "$.gpu.instance"]  # no check runs against a default
    assert problems[0].message.startswith("unknown GPU 'H300'; did you mean 'H200'? Add it with its peaks")
    assert problems[0].message.endswith("Known GPUs: " + ", ".join(sorted(load_reference(REPO)[0].gpus)))
    assert problems[1].message.startswith(
        "unknown instance 'AWS p5en.24xlarge'; did you mean 'AWS p5en.48xlarge'? Add it with its price and source"
    )


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
    problems = load_catalogue(project.root, today=TODAY).problems
    assert [(p.where, p.message.split(" (")[0]) for p in problems] == [
        ("$.workload.precision", "Precision check failed: stated fp8, recomputed A100 runs bf16, fp16")
    ]  # and no MFU against a peak the GPU does not have


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


def test_recipe_page_shows_each_check_and_the_sources(fixture_site: BuildResult, fixture_root: Path) -> None:
    html = fixture_site.html(f"recipes/{SEED_ID}/")
    checks = re.search(r'<h2 [^>]*id="checks".*?</table>', html, re.S).group(0)
    rows = [
        parse(row, capture_when=lambda t, a: t == "td").captured for row in re.findall(r"<tr>.*?</tr>", checks, re.S)
    ]
    rows = [row for row in rows if row]
    derived = _seed_entry(fixture_root).derived
    result = SEED_DATA["result"]
    assert rows[0] == [
        "MFU",
        fmt.percent(result["mfu"], 2),
        fmt.percent(derived.mfu, 3),
        f"6 × {fmt.number(result['active_params']['count'])} active parameters × "
        f"{fmt.as_written(result['tokens_per_s_per_gpu'])} tokens/s ÷ 989 TFLOP/s (H200 dense BF16 peak)",
        "±0.1 percentage points",
        "pass",
    ]
    by_name = {row[0]: row for row in rows}
    stated, own = result["usd_per_million_tokens"], derived.instance_usd_per_million_tokens
    assert by_name["$/1M tokens"][1:3] == [fmt.usd(stated, 4), fmt.usd(own, 4)]
    assert [row[0] for row in rows] == [check.name for check in derived.checks]  # every check, once
    assert all(row[-1] == "pass" for row in rows)
    text = " ".join(" ".join(parse(html).text).split())
    assert "attention FLOPs are not counted" in text
    assert (
        "Its own instance: the price its stated $ / 1M is checked against and its run cost is at (the $ / 1M above is "
        "at the price basis): AWS p5en.48xlarge at $63.296 per instance-hour on demand (us-east-1), 8 GPUs: $7.912 "
        "per GPU-hour." in text
    )
    assert f"as of 2026-01-21 ({fmt.plural(derived.price_age_days, 'day')} before the measurement)" in text
    run_cost = f"{fmt.usd(derived.run_cost_usd)} ({fmt.as_written(result['gpu_hours'])} GPU-hours × $7.912)"
    assert f"the measured run cost {run_cost}" in text


def test_methodology_page_renders_formulas_and_every_reference_row(seed_site: BuildResult, reference: Any) -> None:
    text = " ".join(" ".join(parse(seed_site.html("methodology/")).text).split())
    assert "MFU = training FLOPs per token × tokens/s per GPU ÷ dense peak FLOP/s" in text
    assert "= 4 × N (LoRA, QLoRA: the frozen weights have no weight gradient)" in text
    assert "MFU vs BF16 peak = the same FLOPs ÷ the GPU's BF16 dense peak" in text
    # Every model's N: the active count less the input embedding, or the headline count as published.
    for model in reference.models.values():
        if model.architecture:
            embedding = model.architecture["vocab"] * model.architecture["hidden"]
            n = model.active_params - embedding
            row = f"{model.active_params:,} {model.total_params:,} derived {embedding:,} {n:,}"
        else:
            row = f"{model.active_params:,} {model.total_params:,} headline not published {model.active_params:,}"
        assert row in text, model.key
    assert "$/1M tokens = $ per GPU-hour ÷ (tokens/s per GPU × 3,600) × 1,000,000" in text
    # The price basis: each preset's price for each GPU type, with the instance it is the price of.
    assert "H200 $4.50 (Nebius H200) $7.91 (AWS p5en.48xlarge) $4.50 (Nebius H200)" in text
    assert "MI325X none none none" in text
    for gpu in reference.gpus.values():
        assert gpu.name in text
    assert "AWS p5en.48xlarge H200 8 63.296 7.912 us-east-1" in text
    for name, statement in check_statements():  # the list of checks is the checks' own
        assert f"{name} {statement}" in text
    assert "figures from a public benchmark table, report or log by the people who ran the run" in text


def test_loading_alone_registers_every_rule() -> None:
    # `openrecipes validate` imports the loader and never the site: the rules must register
    # themselves when the checks run, or validate would make no check at all.
    import subprocess
    import sys

    code = (
        "import openrecipes.loader, openrecipes.checking.figures as f; "
        "print(sorted(r.name for r in f.RULES) == sorted(set(r.name for r in f.RULES)), len(f.RULES))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO / "hooks")
    assert done.stdout.split() == ["True", str(len(RULES))]
