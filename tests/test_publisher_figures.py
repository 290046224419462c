"""Publisher figures of every kind (issue 23, item 3): a TFLOP/s per GPU, an MFU and an HFU, each with
its convention, recomputed in that convention where the inputs exist and otherwise saying why; and a
throughput derived from one of them, marked derived wherever it is shown and never ranked as measured.

Every recipe here is synthetic (tools/openrecipes_tools/synthetic.py), built in tmp_path: Llama 3.1
70B on H100, whose N without the input embedding and dense BF16 peak come from the reference data."""

from __future__ import annotations

import csv
import io
import json
import re
from typing import Any

import pytest
from conftest import Project, parse

from openrecipes import flops, fmt
from openrecipes.cli import main as run
from openrecipes.loader import load_catalogue

MODEL = "Llama 3.1 70B"
MEASURED_ID = "llama-3.1-70b/h100/measured"
DERIVED_ID = "llama-3.1-70b/h100/derived"
TOKENS = 900.0


def _n(project: Project) -> int:
    spec = project.reference.model(MODEL)
    assert spec is not None and spec.architecture is not None
    return flops.flops_params(spec.active_params, spec.architecture)


def _peak(project: Project) -> float:
    gpu = project.reference.gpu("H100")
    assert gpu is not None and gpu.bf16_tflops is not None
    return gpu.bf16_tflops


def _mfu_6n(project: Project, tokens: float) -> float:
    """6 × N × tokens/s ÷ the BF16 peak, in percent: what the site recomputes for a `6n` MFU."""
    return 6 * _n(project) * tokens / (_peak(project) * 1e12) * 100


def measured(project: Project) -> dict[str, Any]:
    """A measured run whose publisher states an MFU and an HFU (6 × N), an MFU with attention and a
    TFLOP/s of their own: llm-foundry's and Meta's kinds."""
    data = project.add_synthetic(MEASURED_ID, model=MODEL, tokens_per_s=TOKENS)
    data["layout"]["recompute"] = {"granularity": "full", "method": "uniform", "num_layers": 1}
    mfu = round(_mfu_6n(project, TOKENS), 2)
    data["result"]["publisher_figures"] = [
        {"name": "MFU", "value": mfu, "unit": "MFU %", "convention": "6n", "peak": {"precision": "bf16"}},
        {
            "name": "HFU",
            "value": round(mfu * 4 / 3, 2),
            "unit": "HFU %",
            "convention": "6n",
            "peak": {"precision": "bf16", "tflops": _peak(project)},
        },
        {"name": "Model TFLOP/s", "value": 400, "unit": "TFLOP/s per GPU", "convention": "other", "note": "Their own."},
        {"name": "BF16 MFU", "value": 41, "unit": "MFU %", "convention": "other", "peak": {"precision": "bf16"}},
    ]
    project.add(MEASURED_ID, data)
    return data


def derived(project: Project, edit: Any = None) -> dict[str, Any]:
    """A run whose publisher gives only an MFU (41%): the tokens/s per GPU derived from it."""
    tokens = round(0.41 * _peak(project) * 1e12 / (6 * _n(project)), 1)
    data = project.add_synthetic(DERIVED_ID, model=MODEL, tokens_per_s=tokens, instance=None)
    data["schema_version"] = 2  # a published report's figures: no MFU or $ / 1M of its own
    data["status"] = "published"
    data["source"] = {"url": "https://arxiv.org/abs/2407.21783v3", "where": "Table 4"}
    result = data["result"]
    for name in ("mfu", "usd_per_million_tokens"):
        result.pop(name, None)
    result["publisher_figures"] = [
        {"name": "BF16 MFU", "value": 41, "unit": "MFU %", "convention": "6n", "peak": {"precision": "bf16"}}
    ]
    result["tokens_per_s_per_gpu_from"] = {"figure": "BF16 MFU", "how": "41% of the BF16 peak over 6 × N."}
    if edit:
        edit(data)
    project.add(DERIVED_ID, data)
    return data


def cells(html: str, table_class: str) -> list[list[str]]:
    table = html[html.index(f'<table class="{table_class}"') :]
    body = table[table.index("<tbody>") : table.index("</table>")]
    return [
        [" ".join(" ".join(parse(cell).text).split()) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)
    ]


# -- recomputed in the publisher's convention ---------------------------------------------------------


def test_each_kind_is_recomputed_in_its_convention_or_says_why(project: Project) -> None:
    data = measured(project)
    catalogue = load_catalogue(project.root)
    assert catalogue.problems == (), catalogue.problems
    figures = {figure.name: figure for figure in catalogue.entries[0].derived.publisher_figures}
    mfu = _mfu_6n(project, TOKENS)
    assert figures["MFU"].recomputed == pytest.approx(mfu)
    # Half a unit of its last printed digit, and what one unit of the throughput's last digit moves it by.
    tolerance = 0.005 + mfu / TOKENS
    assert figures["MFU"].tolerance == pytest.approx(tolerance)
    # Full recompute: one more forward, × 4/3, as llm-foundry counts its HFU; the stated peak is used.
    assert figures["HFU"].recomputed == pytest.approx(mfu * 4 / 3)
    assert figures["HFU"].peak == f"{fmt.as_written(_peak(project))} TFLOP/s (BF16 peak as published)"
    assert figures["Model TFLOP/s"].recomputed is None
    assert figures["Model TFLOP/s"].not_recomputed == (
        "not recomputed: in a convention of the publisher's own, which flops.py has no formula for"
    )
    assert figures["BF16 MFU"].recomputed is None
    checks = [c for c in catalogue.entries[0].derived.checks if c.name == "Publisher's figures"]
    assert [c.field for c in checks] == [("result", "publisher_figures", i, "value") for i in (0, 1)]
    assert all(c.passed for c in checks)
    assert checks[0].stated == f"MFU {fmt.as_written(data['result']['publisher_figures'][0]['value'])}%"
    places = fmt.decimals(data["result"]["publisher_figures"][0]["value"]) + 2
    assert checks[0].tolerance == f"±{fmt.as_written(round(tolerance, places))} points"


def test_an_mfu_in_a_convention_of_ours_is_checked_against_the_publishers_tflops(project: Project) -> None:
    """No throughput gives a `6n-attention` MFU of a model whose attention cannot be counted, but the
    publisher's TFLOP/s in that convention over the same peak does: 400 ÷ 989 is 40.4%, not 43%."""
    data = measured(project)
    data["result"]["publisher_figures"] = [
        {"name": "TFLOP/s", "value": 400, "unit": "TFLOP/s per GPU", "convention": "6n-attention"},
        {"name": "MFU", "value": 43, "unit": "MFU %", "convention": "6n-attention", "peak": {"precision": "bf16"}},
    ]
    data["workload"].pop("row_tokens")  # no sequence length: attention cannot be counted from the throughput
    data["workload"]["dataset"]["build"].pop("row_tokens", None)
    project.add(MEASURED_ID, data)
    problems = [p for p in load_catalogue(project.root).problems if "Publisher's figures" in p.message]
    assert len(problems) == 1, problems
    problem = problems[0]
    assert problem.where == "$.result.publisher_figures[1].value"
    recomputed = 400 / _peak(project) * 100
    assert f"stated MFU 43%, recomputed {fmt.number(recomputed, 1)}%" in problem.message
    assert f"TFLOP/s 400 TFLOP/s ÷ {fmt.as_written(_peak(project))} TFLOP/s (H100 dense BF16 peak" in problem.message


def test_an_hfu_whose_recompute_is_not_said_is_not_recomputed(project: Project) -> None:
    data = measured(project)
    del data["layout"]["recompute"]
    data["schema_version"] = 2
    data["source"] = {"url": "https://arxiv.org/abs/2407.21783v3", "where": "Table 4"}
    project.add(MEASURED_ID, data)
    catalogue = load_catalogue(project.root)
    hfu = next(f for f in catalogue.entries[0].derived.publisher_figures if f.name == "HFU")
    assert hfu.not_recomputed == (
        "not recomputed: an HFU counts recomputed activations, and the recipe does not say whether any were "
        "recomputed (layout.recompute)"
    )


# -- bad input: located errors, every one in one run ---------------------------------------------------


@pytest.mark.parametrize(
    ("edit", "where", "message"),
    [
        (lambda figure: figure.update(value=141), "$.result.publisher_figures[0].value", "at most 100"),
        (lambda figure: figure.pop("convention"), "$.result.publisher_figures[0]", "convention"),
        (lambda figure: figure.pop("peak"), "$.result.publisher_figures[0]", "peak"),
        (
            lambda figure: figure.update(unit="TFLOP/s per GPU"),
            "$.result.publisher_figures[0].peak",
            "peak is written only",
        ),
        (lambda figure: figure.update(unit="% MFU"), "$.result.publisher_figures[0].unit", "MFU %"),
    ],
    ids=["mfu above 100%", "no convention", "mfu without a peak", "peak of a tflops", "unknown unit"],
)
def test_a_bad_figure_is_a_located_error(project: Project, edit: Any, where: str, message: str) -> None:
    derived(project, lambda data: edit(data["result"]["publisher_figures"][0]))
    problems = load_catalogue(project.root).problems
    assert any(p.where == where and message in p.message and p.line > 0 for p in problems), problems


def test_a_derived_throughput_that_disagrees_with_its_figure_fails_at_its_line(project: Project) -> None:
    derived(project, lambda data: data["result"].update(tokens_per_s_per_gpu=1000.0))
    problems = load_catalogue(project.root).problems
    assert len(problems) == 1, problems
    problem = problems[0]
    assert problem.where == "$.result.tokens_per_s_per_gpu"
    recomputed = 0.41 * _peak(project) * 1e12 / (6 * _n(project))
    assert problem.message.startswith(
        f"Derived throughput check failed: stated 1,000 tokens/s per GPU from BF16 MFU 41%, recomputed "
        f"{fmt.number(recomputed, 1)} (+"
    )
    assert "tolerance ±0.5%" in problem.message


@pytest.mark.parametrize(
    ("edit", "where", "message"),
    [
        (
            lambda data: data["result"]["tokens_per_s_per_gpu_from"].update(figure="MFU"),
            "$.result.tokens_per_s_per_gpu_from.figure",
            "no publisher figure is named 'MFU' (result.publisher_figures: 'BF16 MFU')",
        ),
        (
            lambda data: data["result"]["publisher_figures"][0].update(convention="other"),
            "$.result.tokens_per_s_per_gpu_from",
            "cannot be recomputed: in a convention of the publisher's own, which flops.py has no formula for; state "
            "the FLOPs per token it divides by in result.tokens_per_s_per_gpu_from.flops_per_token",
        ),
        (
            lambda data: data["result"]["tokens_per_s_per_gpu_from"].pop("how"),
            "$.result.tokens_per_s_per_gpu_from",
            "how",
        ),
        (
            lambda data: data["result"]["publisher_figures"].append(dict(data["result"]["publisher_figures"][0])),
            "$.result.tokens_per_s_per_gpu_from.figure",
            "2 publisher figures are named 'BF16 MFU' (result.publisher_figures 0, 1): name the one it is derived "
            "from apart",
        ),
    ],
    ids=["unknown figure", "no formula and no flops per token", "no how", "two figures of that name"],
)
def test_a_derivation_that_cannot_be_recomputed_is_a_located_error(
    project: Project, edit: Any, where: str, message: str
) -> None:
    derived(project, edit)
    problems = load_catalogue(project.root).problems
    assert any(p.where.startswith(where) and message in p.message for p in problems), problems


def test_a_derivation_in_a_convention_of_the_publishers_own_uses_the_stated_flops(project: Project) -> None:
    per_token = 6 * _n(project) * 1.05  # their count: 5% above 6 × N

    def edit(data: dict[str, Any]) -> None:
        data["result"]["publisher_figures"][0]["convention"] = "other"
        data["result"]["tokens_per_s_per_gpu_from"]["flops_per_token"] = per_token
        data["result"]["tokens_per_s_per_gpu"] = round(0.41 * _peak(project) * 1e12 / per_token, 1)

    derived(project, edit)
    catalogue = load_catalogue(project.root)
    assert catalogue.problems == (), catalogue.problems
    check = next(c for c in catalogue.entries[0].derived.checks if c.name == "Derived throughput")
    assert check.passed
    assert check.formula == (
        f"41% × {fmt.as_written(_peak(project))} TFLOP/s (H100 dense BF16 peak, reference/gpus.yaml) ÷ "
        f"{fmt.number(per_token)} FLOPs per token (as stated)"
    )


# -- shown everywhere, marked derived, never ranked as measured ----------------------------------------


@pytest.mark.site
def test_the_page_exports_and_terminal_show_every_kind_and_mark_the_derived(
    project: Project, capsys: pytest.CaptureFixture[str]
) -> None:
    measured(project)
    data = derived(project)
    tokens = data["result"]["tokens_per_s_per_gpu"]
    built = project.build()
    assert built.ok, built.errors()

    rows = cells(built.html(f"recipes/{MEASURED_ID}/"), "or-publisher")
    mfu = _mfu_6n(project, TOKENS)
    peak = fmt.as_written(_peak(project))
    assert rows[0][:4] == [
        "MFU",
        f"{fmt.as_written(round(mfu, 2))}%",
        f"{fmt.number(mfu, 2)}%",
        f"MFU; FLOPs: 6 × N; peak: {peak} TFLOP/s (H100 dense BF16 peak, reference/gpus.yaml)",
    ]
    assert rows[1][2] == f"{fmt.number(mfu * 4 / 3, 2)}%"
    assert rows[1][3] == f"HFU; FLOPs: 6 × N; peak: {peak} TFLOP/s (BF16 peak as published)"
    assert rows[2] == [
        "Model TFLOP/s",
        "400",
        "not recomputed: in a convention of the publisher's own, which flops.py has no formula for",
        "TFLOP/s per GPU; FLOPs: the publisher's own (see the note)",
        "Their own.",
    ]

    page = built.html(f"recipes/{DERIVED_ID}/")
    text = " ".join(" ".join(parse(page).text).split())
    assert f"Tokens/s per GPU (derived) {fmt.as_written(tokens)}" in text
    assert "derived from the publisher's BF16 MFU 41%, not measured: 41% of the BF16 peak over 6 × N." in text, text
    # The MFUs made from a derived throughput are derived too: on the page, in the table, in the JSON.
    derived_mfu = fmt.percent(6 * _n(project) * tokens / (_peak(project) * 1e12))
    assert f"MFU vs BF16 peak (derived) {derived_mfu}" in text
    rows = cells(page, "or-publisher")
    assert rows[0][2] == (
        "not recomputed: the recipe's tokens/s per GPU is derived from this figure, so it would only give it back; "
        "the Derived throughput check recomputes the derivation"
    )

    # The catalogue table: "(derived)" in the cell, and no sort value, so it sorts after every measured one.
    home = built.html("")
    row = home[home.index(f'<tr data-recipe="{DERIVED_ID}"') :]
    cell = re.search(r'<td class="or-num" data-key="tokens"[^>]*data-value="([^"]*)">([^<]*)</td>', row)
    assert cell is not None and cell.groups() == ("", f"{fmt.as_written(tokens)} (derived)")
    for key, shown in (("mfu", f"{derived_mfu} vs BF16 peak (derived)"), ("mfu_bf16", f"{derived_mfu} (derived)")):
        cell = re.search(rf'<td class="or-num" data-key="{key}"[^>]*data-value="([^"]*)">([^<]*)</td>', row)
        assert cell is not None and cell.groups() == ("", shown), key
    row = home[home.index(f'<tr data-recipe="{MEASURED_ID}"') :]
    cell = re.search(r'<td class="or-num" data-key="tokens"[^>]*data-value="([^"]*)">([^<]*)</td>', row)
    assert cell is not None and cell.groups() == ("900.0", "900")

    # It is the cheaper of the two, yet comes after the measured one, and its price cell says it does not
    # rank by price (table.js reads data-derived, and the rows it loads list it as derived).
    assert home.index(f'<tr data-recipe="{MEASURED_ID}"') < home.index(f'<tr data-recipe="{DERIVED_ID}"')
    row = home[home.index(f'<tr data-recipe="{DERIVED_ID}"') :]
    assert re.search(r'<td class="or-num" data-key="usd"[^>]* data-derived[ >]', row[: row.index("</tr>")])
    data = json.loads((built.site / "assets/catalogue-rows.json").read_text())
    assert [data["id"][index] for index in data["derived"]] == [DERIVED_ID]

    # The feed.
    feed = (built.site / "feed.xml").read_text()
    assert f"{fmt.as_written(tokens)} tokens/s per GPU (derived) from the publisher&#x27;s BF16 MFU 41%" in feed or (
        f"{fmt.as_written(tokens)} tokens/s per GPU (derived) from the publisher's BF16 MFU 41%" in feed
    )

    # CSV and JSON.
    rows_csv = {r["id"]: r for r in csv.DictReader(io.StringIO((built.site / "api/recipes.csv").read_text()))}
    assert rows_csv[DERIVED_ID]["tokens_per_s_per_gpu_derived_from"] == "BF16 MFU 41%"
    assert rows_csv[MEASURED_ID]["tokens_per_s_per_gpu_derived_from"] == ""
    record = json.loads((built.site / f"api/recipes/{DERIVED_ID}.json").read_text())
    assert record["derived"]["tokens_per_s_per_gpu_qualifier"] == "(derived)"
    assert record["derived"]["mfu_against"] == "vs BF16 peak (derived)"
    assert record["derived"]["tokens_per_s_per_gpu_from"]["figure"] == "BF16 MFU 41%"
    assert record["derived"]["publisher_figures"][0]["unit"] == "MFU %"
    record = json.loads((built.site / f"api/recipes/{MEASURED_ID}.json").read_text())
    assert record["derived"]["tokens_per_s_per_gpu_qualifier"] is None
    assert record["derived"]["publisher_figures"][0]["recomputed"] == pytest.approx(mfu)

    # `list` and `show`.
    assert run(["list", "--root", str(project.root)]) == 0
    listed = capsys.readouterr().out
    line = next(line for line in listed.splitlines() if line.startswith(DERIVED_ID))
    assert f"{fmt.as_written(tokens)} (derived)" in line
    assert run(["show", DERIVED_ID, "--root", str(project.root)]) == 0
    shown = capsys.readouterr().out
    assert "tokens/s per GPU  derived from BF16 MFU 41%: 41% of the BF16 peak over 6 × N." in shown
    assert f"{fmt.as_written(tokens)} (derived)" in shown


def test_a_derived_throughput_is_never_the_best_beside_a_measured_one(project: Project) -> None:
    """The derived recipe has the higher throughput, and still is not the fastest of its GPU type."""
    from openrecipes.site import pages

    measured(project)
    derived(project)
    entries = {entry.recipe.id: entry for entry in load_catalogue(project.root).entries}
    assert entries[DERIVED_ID].recipe.fields.result.tokens_per_s_per_gpu > TOKENS
    best = min(entries.values(), key=pages.fastest_first)
    assert best.recipe.id == MEASURED_ID


def test_a_derived_throughput_is_marked_on_the_cost_chart_and_never_on_its_frontier(project: Project) -> None:
    """It would be the frontier's fastest and cheapest H100 point; it is drawn, marked, and left off."""
    from openrecipes.site import charts

    project.add_synthetic("llama-3.1-70b/h100/a", model=MODEL, tokens_per_s=TOKENS)
    project.add_synthetic("llama-3.1-70b/h100/c", model=MODEL, tokens_per_s=600.0)
    project.add_synthetic(
        "llama-3.1-70b/h200/d", model=MODEL, gpu="H200", instance="AWS p5en.48xlarge", tokens_per_s=1000.0
    )
    derived(project)
    catalogue = load_catalogue(project.root)
    assert catalogue.problems == (), catalogue.problems
    built = {
        kind: json.loads(make()) for kind, make in charts.charts_for(catalogue.entries, lambda e: e.recipe.id).items()
    }
    figure = built["cost"]["panels"][0]["figure"]
    custom = {c[0]: c for trace in figure["data"] if trace["meta"]["role"] == "points" for c in trace["customdata"]}
    assert custom[DERIVED_ID][5:] == ["derived"]
    assert all(len(c) == 5 for recipe_id, c in custom.items() if recipe_id != DERIVED_ID)
    tokens = custom[DERIVED_ID][2]
    assert f"{fmt.as_written(tokens)} tokens/s per GPU (derived) · " in custom[DERIVED_ID][4]
    frontier = next(trace for trace in figure["data"] if trace["meta"]["role"] == "pareto")
    assert tokens not in frontier["x"]
    assert frontier["x"] == [TOKENS, 1000.0]  # the measured H100 and H200 runs


def test_the_compare_page_reads_whether_a_throughput_is_derived() -> None:
    """compare.js writes each figure's qualifier after it and no difference between two that differ:
    the tokens/s figure's is the record's derived.tokens_per_s_per_gpu_qualifier ("(derived)" or null)."""
    from openrecipes.site import facts

    tokens = next(figure for figure in facts.figure_config() if figure["key"] == "tokens")
    assert tokens["qualifier"] == "derived.tokens_per_s_per_gpu_qualifier"


@pytest.mark.site
def test_hostile_text_in_a_figure_and_its_derivation_is_text(project: Project) -> None:
    hostile = '<img src=x onerror="alert(1)"> **bold** [link](javascript:alert(1))'

    def edit(data: dict[str, Any]) -> None:
        figure = data["result"]["publisher_figures"][0]
        figure["name"] = f"MFU {hostile}"
        figure["note"] = hostile
        data["result"]["tokens_per_s_per_gpu_from"] = {"figure": figure["name"], "how": hostile}

    derived(project, edit)
    built = project.build()
    assert built.ok, built.errors()
    page = built.html(f"recipes/{DERIVED_ID}/")
    assert "<img src=x" not in page and 'onerror="alert' not in page and 'href="javascript:' not in page
    assert "<strong>bold</strong>" not in page
    text = " ".join(" ".join(parse(page).text).split())
    assert f"derived from the publisher's MFU {hostile} 41%, not measured: {hostile}" in text


# llm-foundry's own figures, from its benchmark table: mosaicml/llm-foundry at commit
# c90b9b312c644dbde5c9e6eef75c6f1c117d8782, scripts/train/benchmarking/README.md, "H100 80GB BF16":
# | 7b | 2048 | 8 | h100_80gb | 46.44 | 46.44 | 459 | ... | 10643 | ... | False | False | 6658859008 |
# | 70b | 2048 | 64 | h100_80gb | 42.57 | 56.76 | 421 | ... | 1039 | ... | True | False | 64862437376 |
# (MFU, HFU, Model TFLOP, ..., tokens/s per GPU, ..., activation checkpointing, CPU offload, NumParams).
# Its collect_results.py (commit 22ede8dd) counts 6 × NumParams + 12 × n_layers × d_model × seq per token,
# × 4/3 for the HFU with activation checkpointing, over composer's H100 BF16 peak (GPU_AVAILABLE_FLOPS:
# 1.979e15 / 2, 989.5 TFLOP/s).
# MPT-7B: 32 layers, d_model 4096, 32 heads; MPT-70B: 80 layers, d_model 8192, 64 heads; both tie their
# embeddings, so NumParams is the N this site counts.
LLM_FOUNDRY = (
    # (layers, d_model, heads, NumParams, tokens/s per GPU, activation checkpointing, MFU, HFU)
    (32, 4096, 32, 6658859008, 10643, False, 46.44, 46.44),
    (80, 8192, 64, 64862437376, 1039, True, 42.57, 56.76),
)


@pytest.mark.parametrize("row", LLM_FOUNDRY, ids=["mpt-7b", "mpt-70b"])
def test_llm_foundrys_mfu_and_hfu_are_recomputed_in_their_convention(row: tuple[Any, ...]) -> None:
    from types import SimpleNamespace

    from openrecipes.checking import publisher
    from openrecipes.reading import records

    layers, hidden, heads, params, tokens, checkpointing, mfu, hfu = row
    architecture = {"attention": "mha", "layers": layers, "hidden": hidden, "heads": heads}
    recompute = SimpleNamespace(granularity="full") if checkpointing else None
    layout = SimpleNamespace(**{records.GIVEN: frozenset({"recompute"}), "recompute": recompute})
    f = SimpleNamespace(model="MPT", layout=layout)
    inputs = publisher.Inputs(
        f,
        SimpleNamespace(key="MPT", architecture=architecture),
        None,
        params,
        "pre-training",
        2048,
        lambda release: 0.0,
        "not used",
    )
    peak = SimpleNamespace(precision="bf16", tflops=989.5)
    figures = [
        SimpleNamespace(
            name=name, value=value, unit=unit, convention="6n-attention", peak=peak, release=None, note=None
        )
        for name, value, unit in (("MFU", mfu, "MFU %"), ("HFU", hfu, "HFU %"))
    ]
    for index, raw in enumerate(figures):
        figure = publisher.figure(index, raw, float(tokens), inputs, None, figures)
        assert figure.recomputed is not None, figure.not_recomputed
        assert abs(figure.recomputed - raw.value) <= figure.tolerance, (raw.name, figure.recomputed, figure.tolerance)
    # Against the reference data's rounded 989 TFLOP/s, the 7B's MFU is 0.02 points off: the peak matters.
    if not checkpointing:
        rounded = SimpleNamespace(precision="bf16", tflops=989)
        figure = publisher.figure(
            0, SimpleNamespace(**{**vars(figures[0]), "peak": rounded}), 10643.0, inputs, None, []
        )
        assert abs(figure.recomputed - mfu) > figure.tolerance


@pytest.mark.parametrize(
    ("method", "recompute", "expected"),
    [
        ("pre-training", None, 6),  # no recompute: the hardware FLOPs are the model's
        ("pre-training", "full", 8),  # one more forward: 2 × N
        ("lora", "full", 6),  # LoRA's 4 × N, and its forward again
        ("pre-training", "selective", None),
    ],
)
def test_an_hfu_counts_what_the_recipe_recomputed(method: str, recompute: str | None, expected: int | None) -> None:
    from types import SimpleNamespace

    from openrecipes.checking import publisher
    from openrecipes.reading import records

    params = 1_000_000_000
    granularity = SimpleNamespace(granularity=recompute) if recompute else None
    layout = SimpleNamespace(**{records.GIVEN: frozenset({"recompute"}), "recompute": granularity})
    inputs = publisher.Inputs(
        SimpleNamespace(model="M", layout=layout), None, None, params, method, 4096, lambda r: 0.0, "not used"
    )
    count, words = publisher.per_token("6n", True, inputs)
    if expected is None:
        assert count is None
        assert words == (
            "not recomputed: selective recompute in the 6 × N convention reruns work flops.py does not count"
        )
    else:
        assert count == expected * params, words


def test_diff_marks_a_derived_throughput_and_gives_no_difference_from_a_measured_one() -> None:
    from openrecipes.cli import changes

    measured = changes.Figures(900.0, 1.0, 0.38, "bf16")
    derived = changes.Figures(972.4, 0.93, 0.41, "bf16", derived=True)
    lines = {label: (text, delta) for label, text, delta in changes._figure_lines(measured, derived)}
    assert lines["tokens/s/GPU"] == ("900 → 972.4 (derived)", "(now derived)")
    lines = {label: (text, delta) for label, text, delta in changes._figure_lines(derived, derived)}
    assert lines["tokens/s/GPU (derived)"] == ("972.4 → 972.4", "±0.0 (±0.0%)")
    assert changes._summary(derived).startswith("972.4 tokens/s/GPU (derived) · ")
    change = changes.RecipeChange("m/h100/r", "recipes/m/h100/r.yaml", "changed", measured, derived)
    assert change.delta() == {"tokens_per_s_per_gpu": None, "usd_per_million_tokens": None, "mfu": None}
