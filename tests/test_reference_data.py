"""Reference data for real runs (issue 11 §4): model counts held to their architectures, aliases,
per-variant GPU peaks, and Megatron-Bridge's model-FLOPs convention reproduced from published rows."""

from __future__ import annotations

import re
from typing import Any, NamedTuple

import pytest
import yaml
from conftest import REPO, Project

from openrecipes.flops import (
    PUBLISHED_TOLERANCE,
    counts_window_and_glu,
    model_flops_per_token,
    padded_vocab,
    parameter_counts,
    published_tolerance,
    release_key,
    six_n_flops_per_token,
)
from openrecipes.reading.reference import PEAK_COLUMN, Reference, load_reference

GPUS_YAML = yaml.safe_load((REPO / "reference/gpus.yaml").read_text(encoding="utf-8"))
SOURCES_MD = (REPO / "reference/SOURCES.md").read_text(encoding="utf-8")

# The keys the importers write (issue 11 §4 and the Megatron-Bridge 25.09-26.08 and torchtitan tables).
IMPORTED_MODELS = (
    "Llama 3 8B",
    "Llama 3 70B",
    "Llama 3.1 8B",
    "Llama 3.1 70B",
    "Llama 3.1 405B",
    "DeepSeek-V3",
    "Qwen3-30B-A3B",
    "Qwen3-235B-A22B",
    "GPT-OSS 120B",
    "Kimi K2",
    "DeepSeek-V4-Flash",
    "Nemotron 3 Nano 30B-A3B",
    "Nemotron 3.5 Lightning 30B-A3B",
    "Nemotron 3 Super 120B-A12B",
    "Nemotron 3 Ultra 550B-A55B",
)


def _architecture(reference: Reference, key: str) -> Any:
    architecture = reference.models[key].architecture
    assert architecture is not None, key
    return architecture


# --- models.yaml ------------------------------------------------------------------------------------


def test_every_imported_model_is_there_and_the_existing_ones_are_kept(reference: Reference) -> None:
    assert set(IMPORTED_MODELS) <= set(reference.models)
    assert {"Qwen3-8B", "Qwen3-32B", "Mixtral 8x7B", "Mixtral 8x22B"} <= set(reference.models)


def test_derived_counts_are_exactly_what_the_architecture_gives(reference: Reference) -> None:
    for spec in reference.models.values():
        assert spec.total_params >= spec.active_params, spec.key
        if spec.counts == "derived":
            assert spec.architecture is not None, f"{spec.key}: derived counts need the architecture they come from"
            assert parameter_counts(spec.architecture) == (spec.total_params, spec.active_params), spec.key
        else:
            # Headline counts are the publisher's rounded figures: nothing here could derive them.
            assert spec.counts == "headline" and spec.architecture is None, spec.key
            assert spec.sourced.notes and "headline" in spec.sourced.notes.casefold(), spec.key


def test_derived_counts_match_what_publishers_count_exactly(reference: Reference) -> None:
    # Independent exact figures, not inputs of the derivation:
    # Megatron-Bridge's gpt-oss-120b verification card: the export "has 73 safetensors shards and 615 BF16
    # tensors totaling 116,829,156,672 parameters"
    # https://github.com/NVIDIA-NeMo/Megatron-Bridge/blob/067f987df03b8355b03192d88d70f1709fedf51a/examples/model_verification_cards/gpt-oss-120b/card.yaml
    assert reference.models["GPT-OSS 120B"].total_params == 116_829_156_672
    # Its Qwen3-30B-A3B card: BF16 "total_size 61,064,245,248" bytes, two bytes a parameter.
    # https://github.com/NVIDIA-NeMo/Megatron-Bridge/blob/067f987df03b8355b03192d88d70f1709fedf51a/examples/model_verification_cards/qwen3-30b-a3b/card.yaml
    assert reference.models["Qwen3-30B-A3B"].total_params * 2 == 61_064_245_248
    # The rest agree with the publishers' headlines to the digits printed (rounded or truncated; DeepSeek's
    # 37B seems to leave out the input embedding, which our active counts include).
    headlines = {  # key: ((total, its last printed digit), (active, its last printed digit))
        "Llama 3 8B": ((8e9, 1e9), (8e9, 1e9)),
        "Llama 3.1 405B": ((405e9, 1e9), (405e9, 1e9)),
        "DeepSeek-V3": ((671e9, 1e9), (37e9, 1e9)),  # "671B total parameters with 37B activated"
        "Qwen3-235B-A22B": ((235e9, 1e9), (22e9, 1e9)),
        "Qwen3-30B-A3B": ((30e9, 1e9), (3e9, 1e9)),
        "Kimi K2": ((1e12, 1e12), (32e9, 1e9)),  # "1T", "32B"
        "Mixtral 8x7B": ((47e9, 1e9), (13e9, 1e9)),
    }
    for key, ((total, total_digit), (active, active_digit)) in headlines.items():
        spec = reference.models[key]
        assert total - total_digit / 2 <= spec.total_params < total + total_digit, key
        assert active - active_digit / 2 <= spec.active_params < active + active_digit, key
    # OpenAI: "117B parameters with 5.1B active parameters", active without the input embedding.
    gpt_oss = reference.models["GPT-OSS 120B"]
    embedding = gpt_oss.architecture["vocab"] * gpt_oss.architecture["hidden"] if gpt_oss.architecture else 0
    assert round(gpt_oss.total_params / 1e9) == 117 and round((gpt_oss.active_params - embedding) / 1e8) == 51


def test_publishers_names_resolve_to_their_models(reference: Reference) -> None:
    written = {
        # Megatron-Bridge performance summary, 25.09 to 26.08 (the '#### Model:' headings and Model column)
        "LLAMA3_8B": "Llama 3 8B",
        "LLAMA3_70B": "Llama 3 70B",
        "LLAMA3.1_405B": "Llama 3.1 405B",
        "DeepSeekV3": "DeepSeek-V3",
        "DeepSeekV4 Flash": "DeepSeek-V4-Flash",
        "Qwen3_30B_a3B": "Qwen3-30B-A3B",
        "Qwen3_235B_a22B": "Qwen3-235B-A22B",
        "GPT OSS 120B": "GPT-OSS 120B",
        "Kimi_K2": "Kimi K2",
        "Nemotron_3_Nano": "Nemotron 3 Nano 30B-A3B",
        "Nemotron_3_5_Lightning": "Nemotron 3.5 Lightning 30B-A3B",
        "Nemotron_3_Super": "Nemotron 3 Super 120B-A12B",
        "Nemotron_3_Ultra": "Nemotron 3 Ultra 550B-A55B",
        # torchtitan benchmarks/ (the 2025-06 async-TP report's 'Llama3 8b' is the key 'Llama 3 8B',
        # whose counts and architecture are Llama 3.1 8B's)
        "Llama 3.1 8B": "Llama 3.1 8B",
        "Llama 3.1 70B": "Llama 3.1 70B",
        "Llama 3.1 405B": "Llama 3.1 405B",
        "Llama3 8b": "Llama 3 8B",
        "Llama3 70b": "Llama 3 70B",
        # Hugging Face ids the Megatron-Bridge recipes load
        "meta-llama/Meta-Llama-3-70B": "Llama 3 70B",
        "openai/gpt-oss-120b": "GPT-OSS 120B",
        "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16": "Nemotron 3 Nano 30B-A3B",
    }
    for name, key in written.items():
        spec = reference.model(name)
        assert spec is not None and spec.key == key, name
    same = reference.models["Llama 3 70B"], reference.models["Llama 3.1 70B"]
    assert same[0].architecture == same[1].architecture and same[0].total_params == same[1].total_params


def test_a_name_two_models_share_is_refused(project: Project) -> None:
    models = project.root / "reference/models.yaml"
    text = models.read_text(encoding="utf-8")
    models.write_text(text.replace("  aliases: [Kimi_K2,", "  aliases: [LLAMA3-70B, Kimi_K2,", 1), encoding="utf-8")
    _, problems = load_reference(project.root)
    assert [str(p) for p in problems] == [
        "reference/models.yaml: $['Kimi K2']: 'LLAMA3-70B' also names 'Llama 3 70B'",
    ]


def test_derived_counts_that_drift_from_their_architecture_are_refused(project: Project) -> None:
    models = project.root / "reference/models.yaml"
    text = models.read_text(encoding="utf-8")
    models.write_text(
        text.replace("  active_params: 22190763520\n", "  active_params: 22190763521\n"), encoding="utf-8"
    )
    _, problems = load_reference(project.root)
    assert [str(p) for p in problems] == [
        "reference/models.yaml: $['Qwen3-235B-A22B'].active_params: 22190763521 is not what its architecture "
        "gives (22190763520), which derived counts must equal"
    ]


def test_an_architecture_missing_what_its_kind_needs_is_refused(project: Project) -> None:
    models = project.root / "reference/models.yaml"
    text = models.read_text(encoding="utf-8")
    text = text.replace("    kv_lora_rank: 512\n", "", 1).replace("    top_k: 4\n", "", 1)
    models.write_text(text, encoding="utf-8")
    _, problems = load_reference(project.root)
    # Refused by the schema, so the counts and FLOPs are never computed from half an architecture.
    assert sorted((p.where, p.message) for p in problems) == [
        ("$['DeepSeek-V3'].architecture", "missing required key 'kv_lora_rank'"),
        ("$['GPT-OSS 120B'].architecture", "missing required key 'top_k'"),
    ]


def test_the_same_bytes_are_read_once_and_any_change_is_read_again(project: Project) -> None:
    first, problems = load_reference(project.root)
    assert first is not None and problems == []
    again, _ = load_reference(project.root)
    assert again is first  # shared: a build and each rebuild of `mkdocs serve` read the data again
    gpus = project.root / "reference/gpus.yaml"
    sound = gpus.read_text(encoding="utf-8")
    gpus.write_text(sound.replace("  memory_gb: 141\n", "  memory_gb: 142\n", 1), encoding="utf-8")
    changed, _ = load_reference(project.root)
    assert changed is not None and changed is not first
    assert {gpu.memory_gb for gpu in changed.gpus.values()} - {gpu.memory_gb for gpu in first.gpus.values()} == {142}
    # The schema is part of what is read: the same data under another schema is checked again.
    schema = project.root / "schema/reference.schema.yaml"
    schema.write_text(schema.read_text(encoding="utf-8").replace("memory_gb", "memory_in_gb"), encoding="utf-8")
    _, problems = load_reference(project.root)
    assert problems and all(problem.path == "reference/gpus.yaml" for problem in problems)
    assert any("memory_in_gb" in problem.message for problem in problems)


def test_every_reference_file_reports_its_problems_in_order(project: Project) -> None:
    (project.root / "reference/gpus.yaml").unlink()
    instances = project.root / "reference/instances.yaml"
    instances.write_text(instances.read_text(encoding="utf-8") + "\nnot: [closed\n", encoding="utf-8")
    reference, problems = load_reference(project.root)
    assert reference is None
    assert [problem.path for problem in problems] == ["reference/gpus.yaml", "reference/instances.yaml"]
    assert "cannot be read" in problems[0].message


def test_every_entry_cites_sources_that_resolve() -> None:
    tags = set(re.findall(r"^- \[(S\d+)\]", SOURCES_MD, re.M))
    for kind in ("models", "gpus"):
        for key, entry in yaml.safe_load((REPO / f"reference/{kind}.yaml").read_text(encoding="utf-8")).items():
            cited = re.findall(r"\[(S\d+)[a-z]?\]", entry["source"] + entry.get("notes", ""))
            assert cited, key
            assert set(cited) <= tags, (key, set(cited) - tags)


# --- gpus.yaml --------------------------------------------------------------------------------------


def test_every_precision_has_its_peak_column_or_an_explained_null() -> None:
    for key, entry in GPUS_YAML.items():
        peaks = entry["dense_tflops"]
        columns = {PEAK_COLUMN[precision] for precision in entry["precisions"]}
        for column in columns:
            assert column in peaks, (key, column)
            if peaks[column] is None:
                assert entry.get("notes"), (key, column)
        for column, value in peaks.items():
            assert value is None or column in columns, (key, column)
        # Dense rates double from BF16 to FP8 on every part that runs both (the vendors' own ratio).
        if peaks["bf16"] is not None and peaks["fp8"] is not None:
            assert peaks["fp8"] == pytest.approx(2 * peaks["bf16"], rel=0.002), key


def test_a_listed_precision_without_its_peak_column_is_refused(project: Project) -> None:
    gpus = project.root / "reference/gpus.yaml"
    text = gpus.read_text(encoding="utf-8")
    gpus.write_text(text.replace("fp8: 4500, fp4: 9000}", "fp8: 4500}", 1), encoding="utf-8")
    _, problems = load_reference(project.root)
    assert [str(p) for p in problems] == [
        "reference/gpus.yaml: $['B200'].dense_tflops: nvfp4 and mxfp4 in precisions but no fp4 peak "
        "(write null, with a note why)"
    ]


def test_gpu_variants_for_the_published_runs(reference: Reference) -> None:
    sxm = reference.gpus["H100"]
    assert (sxm.memory_gb, sxm.other_memory_gb, sxm.bf16_tflops) == (80, (), 989)
    assert reference.gpu("DGX H100") is sxm  # Megatron-Bridge's DGX-H100 rows
    teton = reference.gpus["H100-96GB"]  # torchtitan's Grand Teton H100
    assert teton.memory_gb == 96
    assert (teton.bf16_tflops, teton.fp8_tflops, teton.fp4_tflops) == (None, None, None)
    assert teton.runs("fp8") and teton.peak_tflops("bf16") is None
    assert teton.sourced.notes and "we don't know its exact value" in teton.sourced.notes
    fp4 = {key: reference.gpus[key].fp4_tflops for key in ("B200", "B300", "GB200", "GB300", "MI355X")}
    assert fp4 == {"B200": 9000, "B300": None, "GB200": 10000, "GB300": 15000, "MI355X": 10100}
    assert reference.gpus["GB300"].peak_tflops("nvfp4") == 15000
    assert reference.gpus["MI355X"].peak_tflops("nvfp4") is None  # AMD multiplies MX formats, not NVFP4
    for key in ("H100", "H200", "MI300X", "MI325X"):
        assert not reference.gpus[key].runs("mxfp8") and not reference.gpus[key].runs("nvfp4"), key
    for key in ("B200", "B300", "GB200", "GB300"):
        assert {"mxfp8", "nvfp4", "mxfp4"} <= set(reference.gpus[key].precisions), key
    assert {spec.key: spec.memory_options for spec in reference.gpus.values() if spec.key in fp4} == {
        "B200": (180, 192),
        "B300": (288, 270),
        "GB200": (186,),
        "GB300": (288, 279),
        "MI355X": (288,),
    }


# --- flops.py ---------------------------------------------------------------------------------------

MB = "https://github.com/NVIDIA-NeMo/Megatron-Bridge/blob/4ab94dfad36641cabdeb96452b21bf676aac4772/docs"
CARDS = (
    "https://github.com/NVIDIA-NeMo/Megatron-Bridge/blob/067f987df03b8355b03192d88d70f1709fedf51a"
    "/examples/model_verification_cards"
)


class Row(NamedTuple):
    """One published row: Model TFLOP/s/GPU ÷ Tokens/s/GPU is Megatron-Bridge's FLOPs per token."""

    release: str
    model: str
    seq_len: int
    tp: int
    mtp: int
    tokens_per_s: float
    tflops: float
    where: str


# Rows of Megatron-Bridge's performance summary, copied as printed (the line quoted after each).
ROWS = [
    # 25.09 DGX-H100 "| LLAMA3_70B | 64 | 128 | 1 | 8192 | 0 | 4 | 8 | 1 | 5 | 1 | 64 | 1619 | 727 |"
    Row("25.09", "Llama 3 70B", 8192, 4, 0, 1619, 727, f"{MB}/performance-summary-archive.md#L629"),
    # 25.11 DGX-H100 "| LLAMA3_70B | 64 | FP8-CS | 128 | 1 | 8192 | 0 | 4 | 8 | 1 | 5 | 1 | 64 | 1602 | 719 |"
    Row("25.11", "Llama 3 70B", 8192, 4, 0, 1602, 719, f"{MB}/performance-summary-archive.md#L590"),
    # 26.02 LLAMA3_70B "| DGX-H100 | 64 | FP8 | 256 | 1 | 8192 | 0 | 4 | 8 | 1 | 5 | n/a | 1621 | 728 |"
    Row("26.02", "Llama 3 70B", 8192, 4, 0, 1621, 728, f"{MB}/performance-summary-archive.md#L489"),
    # 26.04 LLAMA3_70B "| DGX-GB300 | 64 | NVFP4 | 256 | 1 | 8192 | 0 | 1 | 4 | 1 | 5 | n/a | 7397 | 3321 |"
    Row("26.04", "Llama 3 70B", 8192, 1, 0, 7397, 3321, f"{MB}/performance-summary-archive.md#L302"),
    # 25.11 DGX-H100 "| LLAMA3.1_405B | 1024 | FP8-CS | 512 | 1 | 8192 | 0 | 8 | 8 | 2 | 8 | 1 | 64 | 292 | 737 |"
    Row("25.11", "Llama 3.1 405B", 8192, 8, 0, 292, 737, f"{MB}/performance-summary-archive.md#L591"),
    # 26.06 LLAMA3.1_405B "| DGX-H100 | 1024 | FP8 | 1536 | 1 | 8192 | 8 | 8 | 2 | 8 | n/a | 326 | 822 |"
    Row("26.06", "Llama 3.1 405B", 8192, 8, 0, 326, 822, f"{MB}/performance-summary-archive.md#L106"),
    # 26.06 LLAMA3.1_405B "| DGX-GB300 | 256 | FP8 | 1536 | 1 | 8192 | 4 | 8 | 1 | 4 | n/a | 1048 | 2646 |"
    Row("26.06", "Llama 3.1 405B", 8192, 4, 0, 1048, 2646, f"{MB}/performance-summary-archive.md#L100"),
    # 25.11 DGX-H100 "| LLAMA3_8B | 8 | FP8-CS | 128 | 1 | 8192 | 8 | 1 | 1 | 1 | n/a | 1 | 16 | 14451 | 744 |"
    Row("25.11", "Llama 3 8B", 8192, 1, 0, 14451, 744, f"{MB}/performance-summary-archive.md#L589"),
    # DeepSeek-V3 trains one MTP layer in every release except the 25.11 rows labelled "(w/o MTP)".
    # 25.09 DGX-H100 (no Precision column; the parenthesis is another quantisation granularity's TFLOP/s)
    # "| DeepSeekV3 (dropless) | 1024 | 8192 | 1 | 4096 | 0 | 2 | 8 | 1 | 4 | 64 | 128 | 1297 | 338 (330) |"
    Row("25.09", "DeepSeek-V3", 4096, 2, 1, 1297, 338, f"{MB}/performance-summary-archive.md#L631"),
    # 25.11 DGX-GB300
    # "| DeepSeekV3 (w/o MTP) | 256 | BF16 | 4096 | 1 | 4096 | 0 | 1 | 2 | 1 | 4 | 32 | 32 | 3848 | 961 |"
    Row("25.11", "DeepSeek-V3", 4096, 1, 0, 3848, 961, f"{MB}/performance-summary-archive.md#L555"),
    # 26.02 DeepSeekV3 "| DGX-B200 | 256 | MXFP8 | 4096 | 1 | 4096 | 0 | 1 | 16 | 1 | n/a | 8 | 2689 | 699 |"
    Row("26.02", "DeepSeek-V3", 4096, 1, 1, 2689, 699, f"{MB}/performance-summary-archive.md#L510"),
    # 26.06 DeepSeekV3 "| DGX-GB300 | 256 | MXFP8 | 4096 | 1 | 4096 | 1 | 2 | 1 | 8 | 32 | 6338 | 1648 |"
    Row("26.06", "DeepSeek-V3", 4096, 1, 1, 6338, 1648, f"{MB}/performance-summary-archive.md#L112"),
    # 25.11 DGX-GB300 "| Qwen3_235B_a22B | 256 | BF16 | 8192 | 2 | 4096 | 0 | 1 | 4 | 1 | 12 | 16 | 32 | 6131 | 907 |"
    Row("25.11", "Qwen3-235B-A22B", 4096, 1, 0, 6131, 907, f"{MB}/performance-summary-archive.md#L559"),
    # 26.02 Qwen3_235B_a22B "| DGX-H100 | 256 | FP8 | 8192 | 1 | 4096 | 0 | 2 | 8 | 1 | 4 | 32 | 1633 | 242 |"
    Row("26.02", "Qwen3-235B-A22B", 4096, 2, 0, 1633, 242, f"{MB}/performance-summary-archive.md#L540"),
    # 26.06 Qwen3_235B_a22B "| DGX-GB300 | 256 | MXFP8 | 8192 | 2 | 4096 | 1 | 4 | 1 | 12 | 32 | 9015 | 1335 |"
    Row("26.06", "Qwen3-235B-A22B", 4096, 1, 0, 9015, 1335, f"{MB}/performance-summary-archive.md#L138"),
    # 26.06 Qwen3_30B_a3B "| DGX-H100 | 16 | FP8 | 1024 | 1 | 4096 | 1 | 1 | 1 | n/a | 16 | 8826 | 203 |"
    Row("26.06", "Qwen3-30B-A3B", 4096, 1, 0, 8826, 203, f"{MB}/performance-summary-archive.md#L132"),
    # 26.06 Kimi_K2 "| DGX-GB300 | 256 | MXFP8 | 4096 | 2 | 4096 | 1 | 4 | 1 | 4 | 64 | 5372 | 1099 |"
    Row("26.06", "Kimi K2", 4096, 1, 0, 5372, 1099, f"{MB}/performance-summary-archive.md#L145"),
    # GPT-OSS 120B before 26.06: every layer full attention, its quick-GELU GLU counted as two GEMMs.
    # 25.11 DGX-GB300 "| GPT OSS 120B | 64 | BF16 | 1280 | 2 | 8192 | 0 | 1 | 1 | 1 | 1 | 64 | 10 | 18347 | 565 |"
    Row("25.11", "GPT-OSS 120B", 8192, 1, 0, 18347, 565, f"{MB}/performance-summary-archive.md#L557"),
    # 26.02 GPT OSS 120B "| DGX-H100 | 64 | BF16 | 1280 | 1 | 4096 | 0 | 1 | 4 | 1 | n/a | 8 | 5993 | 163 |"
    Row("26.02", "GPT-OSS 120B", 4096, 1, 0, 5993, 163, f"{MB}/performance-summary-archive.md#L520"),
    # 26.04 GPT OSS 120B "| DGX-GB300 | 64 | BF16 | 1280 | 4 | 4096 | 0 | 1 | 1 | 1 | n/a | 64 | 19275 | 524 |"
    Row("26.04", "GPT-OSS 120B", 4096, 1, 0, 19275, 524, f"{MB}/performance-summary-archive.md#L334"),
    # From 26.06: the 128-token window on alternate layers, and three GEMMs.
    # 26.06 GPT OSS 120B "| DGX-GB300 | 64 | MXFP8 | 1280 | 4 | 4096 | 1 | 1 | 1 | n/a | 16 | 33166 | 1081 |"
    Row("26.06", "GPT-OSS 120B", 4096, 1, 0, 33166, 1081, f"{MB}/performance-summary-archive.md#L121"),
    # 26.06 GPT OSS 120B "| DGX-B300 | 64 | MXFP8 | 1280 | 4 | 4096 | 1 | 1 | 1 | n/a | 8 | 18534 | 604 |"
    Row("26.06", "GPT-OSS 120B", 4096, 1, 0, 18534, 604, f"{MB}/performance-summary-archive.md#L123"),
    # Releases that print tokens/s rounded (flops.ROUNDED_RELEASES), with their wider tolerance.
    # 26.08 DeepSeekV3 "| DGX-GB300 | 256 | MXFP8 | 4096 | 1 | 4096 | 1 | 2 | 1 | 8 | 32 | 6288 | 1635 |"
    Row("26.08", "DeepSeek-V3", 4096, 1, 1, 6288, 1635, f"{MB}/performance-summary.md#L45"),
    # 26.08 GPT OSS 120B "| DGX-GB300 | 64 | MXFP8 | 1280 | 4 | 4096 | 1 | 1 | 1 | n/a | 16 | 33024 | 1077 |"
    Row("26.08", "GPT-OSS 120B", 4096, 1, 0, 33024, 1077, f"{MB}/performance-summary.md#L59"),
    # 26.04.01 LLAMA3_70B "| DGX-H100 | 64 | FP8 | 256 | 1 | 8192 | 0 | 4 | 8 | 1 | 5 | n/a | 1664 | 731 |", the
    # furthest of all 313 checkable rows (-2.2 %): 1664 is a multiple of 128.
    Row("26.04.01", "Llama 3 70B", 8192, 4, 0, 1664, 731, f"{MB}/performance-summary-archive.md#L207"),
]

# Megatron-Bridge's model verification cards print the last ten steps' averages unrounded, so the formula
# must hold to rounding of the third decimal. Megatron-Bridge at HEAD 067f987 (2026-08-22).
CARD_ROWS = [
    # qwen3-235b-a22b GB300 fp8_mx, --seq_length 4096, TP1/PP4/CP1/EP32: 1300.440 TFLOP/s/GPU, 8784.492 tokens/s/GPU
    Row("26.08", "Qwen3-235B-A22B", 4096, 1, 0, 8784.492, 1300.440, f"{CARDS}/qwen3-235b-a22b/card.yaml"),
    # gpt-oss-120b GB300 fp8_mx, --seq_length 4096, TP1/PP1/CP1/EP16: 1077.350, 33017.081
    Row("26.08", "GPT-OSS 120B", 4096, 1, 0, 33017.081, 1077.350, f"{CARDS}/gpt-oss-120b/card.yaml"),
    # deepseek-v3 GB300 fp8mx, --seq_length 4096: 1597.310, 6143.635
    Row("26.08", "DeepSeek-V3", 4096, 1, 1, 6143.635, 1597.310, f"{CARDS}/deepseek-v3/card.yaml"),
    # deepseek-v3 H100 bf16, TP2/PP8/VP4/CP1/EP64: 276.030, 1061.206; the logits over 129,280 padded to a
    # multiple of 1280 x TP = 130,560 (with 128 x TP it would be 0.04 % off).
    Row("26.08", "DeepSeek-V3", 4096, 2, 1, 1061.206, 276.030, f"{CARDS}/deepseek-v3/card.yaml"),
]


def _published(row: Row) -> float:
    return row.tflops * 1e12 / row.tokens_per_s


@pytest.mark.parametrize("row", ROWS, ids=lambda row: f"{row.release}-{row.model}-{row.tokens_per_s:g}")
def test_model_flops_reproduce_megatron_bridges_published_rows(reference: Reference, row: Row) -> None:
    architecture = _architecture(reference, row.model)
    ours = model_flops_per_token(
        architecture, row.seq_len, mtp_layers=row.mtp, tensor_parallel=row.tp, release=row.release
    )
    assert ours == pytest.approx(_published(row), rel=published_tolerance(row.release)), row.where


@pytest.mark.parametrize("row", CARD_ROWS, ids=lambda row: f"card-{row.model}-{row.tokens_per_s:g}")
def test_model_flops_reproduce_unrounded_verification_runs(reference: Reference, row: Row) -> None:
    ours = model_flops_per_token(
        _architecture(reference, row.model), row.seq_len, mtp_layers=row.mtp, tensor_parallel=row.tp
    )
    assert ours == pytest.approx(_published(row), rel=1e-4), row.where


def test_the_26_06_convention_change_moves_gpt_oss_only(reference: Reference) -> None:
    gpt_oss = _architecture(reference, "GPT-OSS 120B")
    before = model_flops_per_token(gpt_oss, 4096, release="26.04.01")
    after = model_flops_per_token(gpt_oss, 4096, release="26.06")
    assert after == model_flops_per_token(gpt_oss, 4096)  # None: the current formula
    assert after / before == pytest.approx(32.630 / 27.164, rel=1e-3)  # about +20 % at 4,096 tokens
    # Before 26.06 the window is ignored, so the figure grows with the sequence like full attention.
    assert model_flops_per_token(gpt_oss, 8192, release="25.11") > before
    for key in ("Llama 3 70B", "DeepSeek-V3", "Qwen3-235B-A22B", "Kimi K2"):
        architecture = _architecture(reference, key)
        assert model_flops_per_token(architecture, 4096, release="25.09") == model_flops_per_token(architecture, 4096)
    assert counts_window_and_glu("26.06.01") and not counts_window_and_glu("26.04.01")


def test_model_flops_parts(reference: Reference) -> None:
    llama = _architecture(reference, "Llama 3 8B")
    h, layers, q, kv, ffn = 4096, 32, 4096, 1024, 14336
    # 6 FLOPs a weight per token for every GEMM, plus causal-halved core attention, plus the logits.
    expected = 6 * layers * (h * (q + 2 * kv) + q * h + 3 * h * ffn + q * 8192) + 6 * h * 128256
    assert model_flops_per_token(llama, 8192) == expected
    # The attention and logits terms are what separates it from 6N.
    assert model_flops_per_token(llama, 8192) / six_n_flops_per_token(8_030_261_248) == pytest.approx(1.0683, abs=1e-4)
    deepseek = _architecture(reference, "DeepSeek-V3")
    assert padded_vocab(129280, 2, deepseek["vocab_divisible_by"]) == 130560
    assert padded_vocab(128256, 8) == 129024
    with_mtp = model_flops_per_token(deepseek, 4096, mtp_layers=1)
    assert with_mtp / model_flops_per_token(deepseek, 4096) == pytest.approx(259.993 / 249.812, rel=1e-5)


def test_six_n_is_six_times_the_active_parameters() -> None:
    assert six_n_flops_per_token(25_623_920_640) == 153_743_523_840.0
    with pytest.raises(ValueError):
        six_n_flops_per_token(0)


def test_model_flops_refuse_what_they_cannot_compute(reference: Reference) -> None:
    llama = _architecture(reference, "Llama 3 70B")
    with pytest.raises(ValueError, match="unknown convention"):
        model_flops_per_token(llama, 4096, convention="torchtitan")
    with pytest.raises(ValueError, match="not a NeMo container release"):
        model_flops_per_token(llama, 4096, release="v0.5.0")
    with pytest.raises(ValueError, match=r"no model FLOPs before 25\.09"):
        model_flops_per_token(llama, 4096, release="25.07")
    with pytest.raises(ValueError):
        model_flops_per_token(llama, 0)
    assert release_key("26.04.01") == (26, 4, 1) and release_key("25.11") == (25, 11, 0)
    assert published_tolerance("26.06") == PUBLISHED_TOLERANCE < published_tolerance("26.06.01")
