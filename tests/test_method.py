"""The training method as a first-class fact, and the FLOPs conventions per method (issue 22).

LoRA's 4 × N is held to Megatron-Bridge's own LoRA figures (their rows, copied from their repository
into tests/importer_fixtures), and pages built from recipes of several methods never rank one
method beside another."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from conftest import REPO, Project, parse

from openrecipes import flops, fmt
from openrecipes.importers import megatron_bridge as mb
from openrecipes.loader import load_catalogue
from openrecipes.reading.reference import Reference
from openrecipes.site import charts

ARCHIVE = (
    REPO
    / "tests/importer_fixtures/megatron-bridge-releases/4ab94dfad36641cabdeb96452b21bf676aac4772"
    / "docs/performance-summary-archive.md"
)


def _lora_rows() -> list[mb.Row]:
    page = mb.parse_page("docs/performance-summary-archive.md", ARCHIVE.read_text(encoding="utf-8"))
    return [row for row in page.rows if row.workload == "LoRA" and row.variant == "primary"]


def test_the_lora_convention_counts_no_weight_gradient_for_frozen_weights() -> None:
    n = 69_503_033_344
    assert flops.training_flops_per_token(n, "pre-training") == 6 * n
    assert flops.training_flops_per_token(n, "continued-pre-training") == 6 * n
    assert flops.training_flops_per_token(n, "full-fine-tune") == 6 * n
    assert flops.training_flops_per_token(n, None) == 6 * n  # not stated: every weight counted as trained
    # Forward 2N and activation gradient 2N through every weight; weight gradient 2N only for the
    # trained ones: the adapters, 6 FLOPs each.
    assert flops.training_flops_per_token(n, "lora") == 4 * n
    assert flops.training_flops_per_token(n, "qlora", adapter_params=1_000) == 4 * n + 6_000
    assert (flops.flops_formula("lora"), flops.flops_formula("pre-training"), flops.flops_formula(None)) == (
        "4 × N",
        "6 × N",
        "6 × N",
    )
    with pytest.raises(ValueError, match="unknown training method 'rlhf'"):
        flops.training_flops_per_token(n, "rlhf")
    with pytest.raises(ValueError, match="params must be positive"):
        flops.training_flops_per_token(0, "lora")


def test_n_leaves_out_the_input_embedding_and_keeps_the_output_head(reference: Reference) -> None:
    llama = reference.model("Llama 3 70B")
    assert llama is not None and llama.architecture is not None
    embedding = 128_256 * 8_192
    assert flops.input_embedding_params(llama.architecture) == embedding
    assert flops.flops_params(llama.active_params, llama.architecture) == 70_553_706_496 - embedding
    # A tied embedding is the output head's matrix too: its product is counted, so nothing is left out.
    assert flops.input_embedding_params({**llama.architecture, "tied_embeddings": True}) == 0
    # gpt-oss-120b: OpenAI's "5.1B active" leaves the input embedding out, as N does, to the parameter.
    gpt_oss = reference.model("GPT-OSS 120B")
    assert gpt_oss is not None and flops.flops_params(gpt_oss.active_params, gpt_oss.architecture) == 5_132_849_472
    # A headline count without an architecture is kept as published.
    assert flops.flops_params(3_500_000_000, None) == 3_500_000_000


def test_lora_flops_agree_with_megatron_bridges_own_lora_figures(reference: Reference) -> None:
    rows = _lora_rows()
    assert [(row.release, row.values.system, row.values.precision) for row in rows] == [
        ("26.06", "DGX-GB300", "FP8"),
        ("26.06", "DGX-GB300", "MXFP8"),
        ("26.06", "DGX-GB200", "FP8"),
        ("26.06", "DGX-GB200", "MXFP8"),
        ("26.06", "DGX-H100", "FP8"),
    ]
    for row in rows:
        values = row.values
        model = reference.model(values.model)
        assert model is not None and model.architecture is not None, values.model
        n = flops.flops_params(model.active_params, model.architecture)
        theirs = values.tflops * 1e12 / values.tokens
        ours = flops.training_flops_per_token(n, "lora")
        # Within their documented differences (attention over the packed SQuAD sequences, real tokens).
        assert abs(ours / theirs - 1) <= flops.LORA_PUBLISHED_TOLERANCE, (row.excerpt, ours / theirs)
        # The pre-training convention the site used to apply to these rows is half as much again.
        assert flops.training_flops_per_token(model.active_params, "pre-training") / theirs > 1.5


def _lora_recipe(project: Project, row: mb.Row, gpu: str, *, method: str | None = "lora") -> dict[str, Any]:
    """A recipe of a published LoRA row: its GPU, precision and throughput; the site's own N."""
    values = row.values
    data = project.add_synthetic(
        "llama-3-70b/x/y",
        model="Llama 3 70B",
        gpu=gpu,
        count=8,
        instance=None,
        tp=values.tp,
        pp=values.pp,
        precision=values.precision.lower(),
        tokens_per_s=float(values.tokens),
    )
    if method:
        data["workload"]["method"] = {"kind": method}
        # The author's MFU, in the author's N (the whole active count): 4 × N for LoRA.
        stated = data["result"]["active_params"]["count"]
        peak = project.reference.gpu(gpu).peak_tflops(data["workload"]["precision"])
        data["result"]["mfu"] = round(4 * stated * values.tokens / (peak * 1e12), 4)
    data["result"]["publisher_figures"] = [
        {"name": "Model TFLOP/sec/GPU", "value": values.tflops, "unit": "TFLOP/s per GPU", "convention": "other"}
    ]
    return data


def test_the_sites_lora_mfu_is_megatron_bridges_tflops_over_the_peak(project: Project, reference: Reference) -> None:
    row = next(row for row in _lora_rows() if row.values.system == "DGX-H100")
    project.add("llama-3-70b/h100/lora", _lora_recipe(project, row, "H100"))
    project.add("llama-3-70b/h100/unsaid", _lora_recipe(project, row, "H100", method=None))
    (project.root / "recipes/llama-3-70b/x/y.yaml").unlink()
    catalogue = load_catalogue(project.root)
    assert catalogue.problems == ()
    by_id = {entry.recipe.id: entry.derived for entry in catalogue.entries}
    lora, unsaid = by_id["llama-3-70b/h100/lora"], by_id["llama-3-70b/h100/unsaid"]
    h100 = reference.gpu("H100")
    theirs = row.values.tflops / h100.fp8_tflops  # 735 of 1,979: their TFLOP/s over the FP8 peak
    assert lora.method == "lora" and lora.peak_column == "fp8"
    assert abs(lora.mfu / theirs - 1) <= flops.LORA_PUBLISHED_TOLERANCE
    assert abs(lora.mfu_bf16 / (row.values.tflops / h100.bf16_tflops) - 1) <= flops.LORA_PUBLISHED_TOLERANCE
    # The same run with no method stated is counted at 6 × N, and said to be.
    assert unsaid.method is None and unsaid.mfu == pytest.approx(lora.mfu * 1.5)


def _entry_ids(html: str) -> list[str]:
    return re.findall(r'data-recipe="([^"]+)"', html)


@pytest.mark.site
def test_the_matrix_and_best_figures_are_per_method_and_lists_say_each_rows(project: Project) -> None:
    # Llama 3.1 70B on H100: a slow pre-training run and a LoRA run twice as fast (cheaper per token).
    pretraining = project.add_synthetic("llama-3.1-70b/h100/pretrain", tokens_per_s=900.0)
    pretraining["workload"]["method"] = {"kind": "pre-training"}
    project.add("llama-3.1-70b/h100/pretrain", pretraining)
    lora = project.add_synthetic("llama-3.1-70b/h100/lora", tokens_per_s=1800.0)
    lora["workload"]["method"] = {"kind": "lora", "rank": 16}
    lora["result"]["mfu"] = round(4 * lora["result"]["active_params"]["count"] * 1800 / 989e12, 4)
    project.add("llama-3.1-70b/h100/lora", lora)
    project.add_synthetic("llama-3.1-70b/h200/unsaid", gpu="H200", instance=None, tokens_per_s=1000.0)
    result = project.build()
    assert result.ok, result.errors()
    home = result.html("")

    # One matrix per method, pre-training first and chosen; the LoRA run is in its own.
    tabs = re.search(
        r'<div class="tabbed-set tabbed-alternate or-methods" data-or-methods>(.*?)<div class="tabbed-content">',
        home,
        re.S,
    )
    assert tabs, "no method chooser"
    assert re.findall(r'<input( checked)? id="or-method-([a-z-]+)" name="or-method" type="radio">', tabs.group(1)) == [
        (" checked", "pre-training"),
        ("", "lora"),
        ("", "not-stated"),
    ]
    assert " ".join(parse(tabs.group(1)).text).split() == ["Pre-training", "1", "LoRA", "1", "Not", "stated", "1"]
    matrices = dict(
        re.findall(r'<div class="or-matrix" data-or-matrix data-method="([^"]+)">(.*?)</table>', home, re.S)
    )
    assert list(matrices) == ["pre-training", "LoRA", "not stated"]
    assert re.findall(r'<td data-gpu="[^"]+" data-recipe="([^"]+)"', matrices["pre-training"]) == [
        "llama-3.1-70b/h100/pretrain"
    ]
    assert re.findall(r'<td data-gpu="[^"]+" data-recipe="([^"]+)"', matrices["LoRA"]) == ["llama-3.1-70b/h100/lora"]
    assert "?gpu=H100&amp;method=LoRA" in matrices["LoRA"]  # its count opens the model page at that method
    assert "not stated" in matrices and "H200" not in matrices["pre-training"]

    # The table holds every method: each row says its own, and the filter offers them.
    rows = dict(re.findall(r'<tr data-recipe="([^"]+)"[^>]* data-method="([^"]+)"', home))
    assert rows == {
        "llama-3.1-70b/h100/lora": "LoRA",
        "llama-3.1-70b/h100/pretrain": "pre-training",
        "llama-3.1-70b/h200/unsaid": "not stated",
    }
    assert re.search(r'<td data-key="method" data-label="Method" data-value="3">LoRA</td>', home)

    # The Models page: a row per method, each with its own best figures.
    models = " ".join(" ".join(parse(result.html("models/")).text).split())
    n = 70_553_706_496 - 128_256 * 8_192
    assert (
        f"Llama 3.1 70B pre-training 1 {fmt.usd(3.85 / (900 * 3600) * 1e6)} {fmt.percent(6 * n * 900 / 989e12)}"
        in models
    )
    assert f"LoRA 1 {fmt.usd(3.85 / (1800 * 3600) * 1e6)} {fmt.percent(4 * n * 1800 / 989e12)}" in models

    # Lists of recipes of several methods say each one's: Recently added, the feed.
    assert re.search(r"llama-3.1-70b/h100/lora</a>: Llama 3.1 70B on 16 × H100, LoRA, measured", home)
    assert "llama-3.1-70b/h200/unsaid</a>: Llama 3.1 70B on 16 × H200, method not stated, measured" in home
    feed = (result.site / "feed.xml").read_text(encoding="utf-8")
    assert "<summary>LoRA: 1,800 tokens/s per GPU" in feed and "<summary>pre-training: 900 tokens/s" in feed
    # The model's page says which N its MFUs count.
    model_page = " ".join(" ".join(parse(result.html("models/llama-3.1-70b/")).text).split())
    assert f"MFU counts N = {fmt.number(n)} of them, without the input embedding." in model_page
    # A recipe's other recipes are of its own method: the LoRA run is no pre-training run's alternative.
    page = result.html("recipes/llama-3.1-70b/h100/pretrain/")
    assert "llama-3.1-70b/h100/lora" not in page and "Other recipes for this model" not in page
    unsaid = " ".join(" ".join(parse(result.html("recipes/llama-3.1-70b/h200/unsaid/")).text).split())
    assert "method not stated" in unsaid
    lora_page = " ".join(" ".join(parse(result.html("recipes/llama-3.1-70b/h100/lora/")).text).split())
    assert (
        f"MFU vs BF16 peak {fmt.percent(4 * n * 1800 / 989e12)} 4 × N FLOPs per token "
        "(LoRA: frozen weights have no weight gradient)" in lora_page
    )
    assert "LoRA, rank 16" in lora_page


@pytest.mark.site
def test_a_catalogue_of_one_method_has_one_matrix_and_says_which(project: Project) -> None:
    project.add_synthetic("llama-3.1-70b/h100/a", tokens_per_s=900.0)
    result = project.build()
    assert result.ok, result.errors()
    home = result.html("")
    assert "data-or-methods" not in home and home.count("data-or-matrix") == 1
    assert "Training method: <strong>not stated</strong>." in home


@pytest.mark.site
def test_every_mfu_names_its_peak_and_the_bf16_figure_ranks_precisions_together(project: Project) -> None:
    bf16 = project.add_synthetic("llama-3.1-70b/h100/bf16", tokens_per_s=900.0)
    fp8 = project.add_synthetic("llama-3.1-70b/h100/fp8", precision="fp8", tokens_per_s=1300.0)
    result = project.build()
    assert result.ok, result.errors()
    n = 70_553_706_496 - 128_256 * 8_192
    page = " ".join(" ".join(parse(result.html("recipes/llama-3.1-70b/h100/fp8/")).text).split())
    # The headline: against its own precision's peak, named, then against the BF16 peak.
    assert f"MFU vs FP8 peak {fmt.percent(6 * n * 1300 / 1979e12)}" in page
    assert f"MFU vs BF16 peak {fmt.percent(6 * n * 1300 / 989e12)}" in page
    labels = re.findall(
        r'<span class="or-figure__label">([^<]*)</span>', result.html("recipes/llama-3.1-70b/h100/bf16/")
    )
    assert labels.count("MFU vs BF16 peak") == 1  # a BF16 run's two figures are one
    fp8_labels = re.findall(
        r'<span class="or-figure__label">([^<]*)</span>', result.html("recipes/llama-3.1-70b/h100/fp8/")
    )
    assert fp8_labels[fp8_labels.index("MFU vs FP8 peak") + 1] == "MFU vs BF16 peak"
    # Against different peaks, the other recipe's MFU is shown without a difference; against BF16, with one.
    fp8_mfu, bf16_mfu = fmt.percent(6 * n * 1300 / 1979e12), fmt.percent(6 * n * 900 / 989e12)
    assert f"{bf16_mfu} vs BF16 peak {bf16_mfu} (−" in page
    bf16_page = " ".join(" ".join(parse(result.html("recipes/llama-3.1-70b/h100/bf16/")).text).split())
    assert f"{fp8_mfu} vs FP8 peak {fmt.percent(6 * n * 1300 / 989e12)} (+" in bf16_page
    # The CSV: the peak beside the MFU, and the comparable figure.
    csv = (result.site / "api/recipes.csv").read_text(encoding="utf-8").splitlines()
    header = csv[0].split(",")
    assert header[header.index("mfu") + 1 : header.index("mfu") + 3] == ["mfu_peak", "mfu_vs_bf16_peak"]
    row = dict(
        zip(header, next(line for line in csv if line.startswith("llama-3.1-70b/h100/fp8,")).split(","), strict=True)
    )
    assert (row["method"], row["mfu_peak"]) == ("not stated", "fp8")
    assert float(row["mfu_vs_bf16_peak"]) == pytest.approx(6 * n * 1300 / 989e12)
    # The compare page writes the peak after each MFU (assets/facets.js, read by compare.js).
    facets = (result.site / "assets/facets.js").read_text(encoding="utf-8")
    assert '"qualifier": "derived.mfu_against"' in facets
    assert bf16["workload"]["precision"] == "bf16" and fp8["workload"]["precision"] == "fp8"


def test_charts_put_each_method_in_a_series_of_its_own_and_mfu_on_the_bf16_scale(project: Project) -> None:
    for name, gpu, instance, tokens, method in (
        ("a", "H100", "AWS p5.48xlarge", 900.0, "pre-training"),
        ("b", "H100", "AWS p5.48xlarge", 950.0, "pre-training"),
        ("c", "H200", "AWS p5en.48xlarge", 1000.0, "pre-training"),
        ("d", "H100", "AWS p5.48xlarge", 1800.0, "lora"),
        ("e", "H100", "AWS p5.48xlarge", 1700.0, "lora"),
        ("f", "H200", "AWS p5en.48xlarge", 1900.0, "lora"),
    ):
        data = project.add_synthetic(
            f"llama-3.1-70b/{gpu.lower()}/{name}", gpu=gpu, instance=instance, tokens_per_s=tokens
        )
        data["workload"]["method"] = {"kind": method}
        if method == "lora":
            data["result"]["mfu"] = round(4 * data["result"]["active_params"]["count"] * tokens / 989e12, 4)
        project.add(f"llama-3.1-70b/{gpu.lower()}/{name}", data)
    catalogue = load_catalogue(project.root)
    assert catalogue.problems == ()
    files = {
        kind: json.loads(build()) for kind, build in charts.charts_for(catalogue.entries, lambda e: e.recipe.id).items()
    }
    # A cost panel per method, pre-training shown first: no frontier joins a LoRA run to pre-training.
    cost = files["cost"]
    assert [panel["name"] for panel in cost["panels"]] == ["Llama 3.1 70B", "Llama 3.1 70B · LoRA"]
    assert cost["panels"][cost["selected"]]["name"] == "Llama 3.1 70B"
    lora_panel = {
        url
        for trace in cost["panels"][1]["figure"]["data"]
        if trace["meta"]["role"] == "points"
        for url in (c[0] for c in trace["customdata"])
    }
    assert lora_panel == {"llama-3.1-70b/h100/d", "llama-3.1-70b/h100/e", "llama-3.1-70b/h200/f"}
    # MFU: a row per method, on the BF16 scale, with the MFU against its own peak in the hover.
    layout = files["mfu"]["panels"][0]["figure"]["layout"]
    assert [a["text"] for a in layout["annotations"]] == ["Llama 3.1 70B", "Llama 3.1 70B · LoRA"]
    assert layout["xaxis"]["title"]["text"] == "MFU vs BF16 peak (one scale for every precision)"
    n = 70_553_706_496 - 128_256 * 8_192
    xs = sorted(
        x
        for trace in files["mfu"]["panels"][0]["figure"]["data"]
        if trace["meta"]["role"] == "points"
        for x in trace["x"]
    )
    assert round(4 * n * 1900 / 989e12 * 100, 2) in xs and round(6 * n * 900 / 989e12 * 100, 2) in xs


def test_a_method_the_schema_does_not_know_is_a_located_error(project: Project) -> None:
    data = project.add_synthetic("llama-3.1-70b/h100/sft", tokens_per_s=900.0)
    data["workload"]["method"] = {"kind": "sft"}
    path = project.add("llama-3.1-70b/h100/sft", data)
    (problem,) = load_catalogue(project.root).problems
    line = path.read_text(encoding="utf-8").splitlines().index("    kind: sft") + 1
    assert (problem.path, problem.line, problem.where) == (
        "recipes/llama-3.1-70b/h100/sft.yaml",
        line,
        "$.workload.method.kind",
    )
    for kind in ("pre-training", "continued-pre-training", "full-fine-tune", "lora", "qlora"):
        assert kind in problem.message


def test_diff_names_the_peak_and_gives_no_difference_between_peaks() -> None:
    from openrecipes.cli import changes

    bf16 = changes.Figures(900.0, 1.0, 0.38, "bf16")
    faster = changes.Figures(1000.0, 0.9, 0.42, "bf16")
    fp8 = changes.Figures(1300.0, 0.8, 0.27, "fp8")
    mfu = {label: (text, delta) for label, text, delta in changes._figure_lines(bf16, faster)}["MFU vs BF16 peak"]
    assert mfu == ("38.0% → 42.0%", "+4.0 pp")
    mfu = {label: (text, delta) for label, text, delta in changes._figure_lines(bf16, fp8)}["MFU"]
    assert mfu == ("38.0% vs BF16 peak → 27.0% vs FP8 peak", "(another peak)")
    assert changes._summary(fp8).endswith("MFU 27.0% vs FP8 peak")
    # A recipe now of another method says so; each recipe's summary starts with its method.
    lora = changes.Figures(1800.0, 0.5, 0.5, "bf16", method="LoRA")
    unsaid = changes.Figures(900.0, 1.0, 0.38, "bf16", method="not stated")
    assert next(changes._figure_lines(unsaid, lora)) == ("method", "method not stated → LoRA", "(another method)")
    assert changes._summary(lora).startswith("LoRA · 1,800 tokens/s/GPU")


def test_a_gpu_without_a_sourced_peak_says_so_once(project: Project) -> None:
    from openrecipes.site import facts

    project.add_fixture("llama-3.1-8b/h100-96gb/tt-202412-torchtitan-fp8-8gpu-fsdp8-cp1")
    (entry,) = load_catalogue(project.root).entries
    assert entry.derived.mfu is None and entry.derived.mfu_bf16 is None  # H100-96GB: no peak is published
    figures = {fact.key: text for fact, text in facts.rows("figures", entry)}
    assert figures["mfu"] == "no sourced peak" and "mfu_bf16" not in figures
