"""`openrecipes import dgxc-benchmarking`: NVIDIA's DGX Cloud Benchmarking tables read, turned into
recipes across release tags, and synced.

tests/importer_fixtures/dgxc/ holds short excerpts of the publisher's README tables, one folder per
release tag (what changes at that tag; `.deleted` lists files the tag removes), committed in turn to a
throwaway repository and tagged. The shapes: v24.11.1's captions with settings, column batches and a
405B table with its own Layers/GBS/PP/VP rows; v25.01 reprinting them unchanged; v25.04's
configuration tables and a `-Proxy` size; v25.05's GPU-type headings, peak table, bare rows and
TFLOPS_per_GPU; v25.07 without a table.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from conftest import Project

from openrecipes.cli import main
from openrecipes.importers import dgxc, dgxc_context, dgxc_recipes
from openrecipes.importers.common import Import, Planned
from openrecipes.importers.gitsource import GitSource

FIXTURES = Path(__file__).parent / "importer_fixtures" / "dgxc"
TAGS = ("v24.11.1", "v25.01", "v25.04", "v25.05", "v25.07")
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


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture folders committed in tag order, each commit tagged: the publisher's release history."""
    repo = tmp_path_factory.mktemp("dgxc") / "dgxc-benchmarking"
    repo.mkdir()
    git(repo, "init", "-q", "--template=", "-b", "main")
    for month, tag in enumerate(TAGS, start=1):
        folder = FIXTURES / tag
        if folder.is_dir():
            for path in folder.rglob("*"):
                if path.is_file() and path.name != ".deleted":
                    target = repo / path.relative_to(folder)
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(path.read_bytes())
            deleted = folder / ".deleted"
            for line in deleted.read_text(encoding="utf-8").splitlines() if deleted.is_file() else ():
                (repo / line).unlink()
        git(repo, "add", "-A")
        date = f"2099-{month:02d}-15T12:00:00+00:00"
        git(repo, "commit", "-q", "--allow-empty", "-m", tag, date=date)
        git(repo, "tag", tag, date=date)
    return repo


@pytest.fixture(scope="module")
def imported(repo: Path) -> Import:
    return dgxc_recipes.build(GitSource.open(repo, None))


def recipe(imported: Import, recipe_id: str) -> Planned:
    return next(planned for planned in imported.recipes if planned.id == recipe_id)


def text_of(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


# --- the reader: tables of every shape ------------------------------------------------------------


def test_a_sideways_table_is_one_cell_per_gpu_column_with_every_value_located() -> None:
    readme = dgxc.parse_readme("llama3.1/README_70b.md", text_of("v24.11.1/llama3.1/README_70b.md"))
    first = readme.cells[0]
    assert first.caption == dgxc.Caption(
        text="Llama 3.1 70b 24.09 BF16 (TP=4, PP=4, CP=2, VP=5, MBS=1, GA=64)",
        model="Llama 3.1 70b",
        precision="BF16",
        container="24.09",
        settings=(("TP", 4), ("PP", 4), ("CP", 2), ("VP", 5), ("MBS", 1), ("GA", 64)),
    )
    assert (first.header.gpus, first.header.gpu, first.header.settings) == (64, "H100", (("GBS", 128),))
    assert first.figures == (
        ("step_time", dgxc.Figure(14.72, "14.72", 25)),
        ("tokens_per_s", dgxc.Figure(71235, "71235", 26)),
        ("mfu", dgxc.Figure(54.1, "54.10%", 27)),
        ("days_1t", dgxc.Figure(162.48, "162.48", 28)),
    )
    assert first.global_batch == (128, "line 23, the column header `Throughput on 64x H100 GPUs (GBS=128)`")
    second = readme.cells[1]
    assert (second.column, second.gpus, second.figure("tokens_per_s"), second.global_batch[0]) == (  # type: ignore[index]
        2,
        128,
        dgxc.Figure(142373, "142373", 26),
        256,
    )
    assert [(cell.caption.precision, cell.gpus) for cell in readme.cells] == [("BF16", 64), ("BF16", 128), ("FP8", 64)]
    assert readme.peaks == (
        dgxc.Peak("H100", "FP8", 1979.0, readme.peaks[0].text, 19),
        dgxc.Peak("H100", "BF16", 989.0, readme.peaks[0].text, 19),
    )
    assert [(item.what, item.value, item.statement.line) for item in readme.model_flops] == [
        ("Llama 3.1 70b", 3.94e15, 21)
    ]
    assert readme.mfu_formula is not None and readme.mfu_formula.line == 16
    assert readme.timing is not None and readme.timing.line == 7
    assert "Llama 3.1 70b" in first.excerpt and first.excerpt.count("\n") == 5


def test_bad_input_is_a_located_problem_never_an_exception() -> None:
    readme = dgxc.parse_readme("llama3.1/README_70b.md", text_of("v24.11.1/llama3.1/README_70b.md"))
    assert readme.problems == (
        dgxc.Unread("llama3.1/README_70b.md", 36, "row 'Tokens per joule' is not a figure this reader knows"),
    )
    big = dgxc.parse_readme("llama3.1/README_405b.md", text_of("v24.11.1/llama3.1/README_405b.md"))
    assert big.problems == (
        dgxc.Unread(
            "llama3.1/README_405b.md",
            11,
            "Training step time (seconds per step), Throughput on 96x H100 GPUs: '8.7  5' is not a number",
        ),
    )
    # The rest of the column is still read; only the step time is absent.
    assert big.cells[1].figure("step_time") is None and big.cells[1].figure("tokens_per_s").value == 117965  # type: ignore[union-attr]
    samples = dgxc.parse_readme("hf-llama2/README_70b.md", text_of("v24.11.1/hf-llama2/README_70b.md"))
    assert samples.problems == (
        dgxc.Unread("hf-llama2/README_70b.md", 3, "3 values under 2 columns: '9.432' not read"),
    )
    assert [cell.figures for cell in samples.cells] == [
        (("samples_per_s", dgxc.Figure(1.247, "1.247", 3)),),
        (("samples_per_s", dgxc.Figure(3.664, "3.664", 3)),),
    ]
    odd = dgxc.parse_readme(
        "x/README.md",
        "| Some model | Throughput on 8x H100 GPUs | over there |\n|---|---|---|\n"
        "| Training step time (seconds per step) | 1.5 | 2 |\n",
    )
    assert odd.problems == (dgxc.Unread("x/README.md", 1, "the caption 'Some model' names no precision"),)
    columns = dgxc.parse_readme(
        "x/README.md",
        "| Model BF16 | 8x H100 GPUs | lots of GPUs |\n|---|---|---|\n| Model flops utilization | 40% | 41% |\n",
    )
    assert columns.problems == (dgxc.Unread("x/README.md", 1, "column 2 ('lots of GPUs') names no GPU count"),)
    assert [cell.figure("mfu") for cell in columns.cells] == [dgxc.Figure(40, "40%", 3)]


def test_a_column_prints_its_own_settings_and_proxies_are_named() -> None:
    readme = dgxc.parse_readme("llama3.1/README_405b.md", text_of("v24.11.1/llama3.1/README_405b.md"))
    small, middle, full = readme.cells
    assert (small.figure("layers").value, small.figure("pp").value, small.figure("vp")) == (7, 1, None)  # type: ignore[union-attr]
    assert small.global_batch == (126, "line 8, the GBS row")
    assert small.proxy == "7 layers (line 7) where the table prints 126"
    assert middle.proxy == "21 layers (line 7) where the table prints 126"
    assert full.proxy == "" and full.figure("days_1t") == dgxc.Figure(96.43, "96.43", 14)


def test_configuration_rows_by_size_precision_gpu_type_and_count() -> None:
    readme = dgxc.parse_readme("llama3.1/README.md", text_of("v25.04/llama3.1/README.md"))
    seventy, _, proxy = readme.cells
    assert seventy.setup is not None and seventy.setup.line == 5
    assert seventy.setup.gpu == "H100"  # the README's tables name one GPU type
    assert dict(seventy.setup.values) == {
        "seq_len": 8192,
        "layers": 80,
        "tp": 4,
        "pp": 4,
        "cp": 2,
        "ep": None,
        "dp": 2,
        "vp": 5,
        "mbs": 1,
        "gbs": 128,
        "ga": 64,
    }
    assert proxy.setup is not None and proxy.setup.size == "405b-Proxy"
    assert proxy.proxy == "size 405b-Proxy (8 layers, line 10)"
    # Every figure of a table whose rows leave out their first pipe, under a GPU-type heading.
    newer = dgxc.parse_readme("deepseek_v3/pretraining/README.md", text_of("v25.05/deepseek_v3/pretraining/README.md"))
    (cell,) = newer.cells
    assert dict(cell.figures)["tflops_per_gpu"] == dgxc.Figure(249.3, "249.3", 24)
    assert cell.setup is not None and (cell.setup.gpu, cell.setup.size, cell.setup.value("ep")) == ("GB200", "671B", 32)
    assert newer.peak("GB200", "BF16") == dgxc.Peak("GB200", "BF16", 2450.0, newer.peaks[0].text, 18)
    headed = dgxc.parse_readme("llama3.1/README.md", text_of("v25.05/llama3.1/README.md"))
    assert [(cell.gpu, cell.gpus, cell.setup.line if cell.setup else None) for cell in headed.cells] == [
        ("GB200", 128, 8),
        ("GB200", 256, 9),
        ("H100", 512, 15),
    ]
    assert headed.peak("H100", "FP8") == dgxc.Peak("H100", "FP8", 1979.0, "| FP8       | 4900  | 1979 |", 30)


def test_two_configuration_rows_for_a_cell_are_ambiguous_unless_its_batch_decides() -> None:
    text = (
        "### LORA\n\n| GPUs | SeqLen | TP | PP | GBS |\n|---|---|---|---|---|\n| 8 | 4096 | 2 | 4 | 32 |\n"
        "| 8 | 4096 | 2 | 4 | 512 |\n\n"
        "| Llama3 70b Finetuning LORA BF16 | 8x H100 GPUs |\n|---|---|\n| Throughput in tokens per second | 1 |\n\n"
        "| Llama3 70b Finetuning LORA FP8 Strong Scaling | 8x H100 GPUs (GBS=512) Strong Scaling |\n|---|---|\n"
        "| Throughput in tokens per second | 2 |\n\n"
        "| Llama3 70b Finetuning SFT BF16 | 8x H100 GPUs |\n|---|---|\n| Throughput in tokens per second | 3 |\n"
    )
    unknown, strong, other_scheme = dgxc.parse_readme("ft/README.md", text).cells
    assert unknown.setup is None
    assert unknown.setup_note == "the configuration tables have 2 rows for Llama3 70b BF16 on 8 H100 (lines 5, 6)"
    assert strong.caption.scheme == "LORA" and strong.caption.strong_scaling and strong.header.strong_scaling
    assert strong.setup is not None and strong.setup.line == 6
    assert other_scheme.setup is None and other_scheme.setup_note.startswith("no row of the README's configuration")


def test_captions_of_every_release() -> None:
    assert dgxc.parse_caption("Maxtext LLama2 70b FP8 (FSDP+DP MBS=2)") == dgxc.Caption(
        text="Maxtext LLama2 70b FP8 (FSDP+DP MBS=2)",
        model="Maxtext LLama2 70b",
        precision="FP8",
        settings=(("MBS", 2),),
        fsdp_dp=True,
    )
    caption = dgxc.parse_caption("Llama3 8b Finetuning SFT FP8 (TP=1, PP=41, CP=1, VP=None)")
    assert caption is not None and (caption.model, caption.scheme, caption.setting("VP"), caption.states("VP")) == (
        "Llama3 8b",
        "SFT",
        None,
        True,
    )
    caption = dgxc.parse_caption("Nemotron 340b BF16 GB200 Strong Scaling")
    assert caption is not None and (caption.model, caption.gpu, caption.strong_scaling) == (
        "Nemotron 340b",
        "GB200",
        True,
    )
    caption = dgxc.parse_caption("NeMo Megatron 24.11 BF16 (TP=4,PP=8, MBS=1, VP=12, SEQ=2048)")
    assert caption is not None and (caption.model, caption.container, caption.setting("SEQ")) == (
        "NeMo Megatron",
        "24.11",
        2048,
    )
    column = dgxc.parse_column("Throughput on 512x H100 GPUs (FSDP=128 GBS=1024)")
    assert column == dgxc.Column(
        "Throughput on 512x H100 GPUs (FSDP=128 GBS=1024)", 512, "H100", (("FSDP", 128), ("GBS", 1024))
    )
    assert dgxc.parse_column("Throughput on 256 H100 GPUs") == dgxc.Column("Throughput on 256 H100 GPUs", 256, "H100")
    assert dgxc.release_key("v25.05.05") > dgxc.release_key("v25.05") > dgxc.release_key("v24.11.1")


def test_every_release_tag_is_read_and_the_tables_end_at_v25_07(repo: Path) -> None:
    read = dgxc.releases(GitSource.open(repo, None))
    assert [(release.tag, len(release.cells)) for release in read] == [
        ("v24.11.1", 8),
        ("v25.01", 8),
        ("v25.04", 3),
        ("v25.05", 4),
        ("v25.07", 0),
    ]
    with pytest.raises(ValueError, match=r"no release tag v9\.99"):
        dgxc.releases(GitSource.open(repo, None), ["v9.99"])


def test_the_workload_files_say_gpus_per_node_framework_and_sequence_length(repo: Path) -> None:
    source = GitSource.open(repo, None)
    old = dgxc_context.workload(source.at(source.resolve("v24.11.1") or ""), "llama3.1/README_70b.md")
    assert old.launch == "llama3.1/launch.sh"
    assert old.gpus_per_node("H100") == dgxc_context.Stated(8, "llama3.1/launch.sh", 3, "#SBATCH --ntasks-per-node=8")
    assert (old.framework.value, old.version.value) == ("nemo", "24.09")  # type: ignore[union-attr]
    assert old.sequence_length("Llama 3.1 70b") == dgxc_context.Stated(
        8192, "llama3.1/llama3.1_70b.yaml", 3, "encoder_seq_length: 8192"
    )
    new = dgxc_context.workload(source.at(source.resolve("v25.05") or ""), "llama3.1/README.md")
    assert (new.gpus_per_node("GB200").value, new.gpus_per_node("GB200").line) == (4, 7)  # type: ignore[union-attr]
    assert (new.gpus_per_node("H100").value, new.gpus_per_node("H100").line) == (8, 12)  # type: ignore[union-attr]
    assert new.gpus_per_node("B200").value == 8  # type: ignore[union-attr]
    assert new.framework is not None and new.framework.value == "nemo2" and new.framework.path.endswith("metadata.yaml")


# --- the recipes ------------------------------------------------------------------------------------


def test_one_recipe_per_distinct_cell_and_older_tags_superseded(imported: Import) -> None:
    statuses = {planned.id: planned.data["status"] for planned in imported.recipes}
    assert statuses == {
        "llama-3.1-70b/h100/dgxc-v24.11.1-bf16-64gpu": "deprecated",
        "llama-3.1-70b/h100/dgxc-v24.11.1-bf16-128gpu": "deprecated",
        "llama-3.1-70b/h100/dgxc-v24.11.1-fp8-64gpu": "published",
        "llama-3.1-405b/h100/dgxc-v24.11.1-bf16-576gpu": "published",
        "llama-3.1-70b/h100/dgxc-v25.04-bf16-64gpu": "published",
        "llama-3.1-70b/h100/dgxc-v25.04-bf16-128gpu": "published",
        "llama-3.1-405b/gb200/dgxc-v25.05-bf16-128gpu": "published",
        "llama-3.1-405b/gb200/dgxc-v25.05-bf16-256gpu": "published",
        "llama-3.1-405b/h100/dgxc-v25.05-bf16-512gpu": "published",
        "deepseek-v3/gb200/dgxc-v25.05-bf16-128gpu": "published",
    }
    old = recipe(imported, "llama-3.1-70b/h100/dgxc-v24.11.1-bf16-64gpu").data
    assert old["deprecation"]["superseded_by"] == "llama-3.1-70b/h100/dgxc-v25.04-bf16-64gpu"
    assert old["deprecation"]["reason"].startswith(
        "Superseded by the v25.04 release's row for the same configuration (Llama 3.1 70B, H100, 64 GPUs, bf16, "
        "pre-training, sequence length 8,192): 1,117.59 tokens/s per GPU (this row: 1,113.05)."
    )
    assert [skip.where.split(" (")[0] for skip in imported.releases_skipped] == ["tag v25.07"]


def test_tokens_per_gpu_is_derived_from_the_total_and_says_so(imported: Import) -> None:
    data = recipe(imported, "llama-3.1-70b/h100/dgxc-v24.11.1-bf16-64gpu").data
    assert data["result"]["tokens_per_s_per_gpu"] == round(71235 / 64, 2) == 1113.05
    assert data["result"]["throughput_note"].startswith(
        "Derived: the README prints the total throughput, 71235 tokens/s for 64 GPUs (line 26); per GPU 71235 ÷ 64 "
        "= 1,113.05 (to 0.01)."
    )
    assert (data["gpu"], data["workload"]) == (
        {"type": "H100", "count": 64, "per_node": 8},
        {"row_tokens": 8192, "global_batch": 128, "precision": "bf16", "method": {"kind": "pre-training"}},
    )
    assert data["layout"] == {
        "tp": 4,
        "pp": 4,
        "vpp": 5,
        "cp": 2,
        "gradient_accumulation": 64,
        "rows_per_microbatch": 1,
    }
    assert data["stack"]["framework"] == "NeMo 24.09"
    notes = data["notes"]
    assert "- Step time: 14.72 s per step (line 25)." in notes
    assert "8,192 × 128 ÷ 14.72 = 71,235 tokens/s, which agrees with the printed 71235." in notes
    assert "- Time to train 1T tokens: 162.48 days as printed (line 28)" in notes
    assert "`encoder_seq_length: 8192` in llama3.1/llama3.1_70b.yaml (line 3)" in notes
    assert "printed by the release tags from v24.11.1 to v25.01" in notes


def test_the_publishers_mfu_is_kept_in_their_convention_and_recomputed(imported: Import) -> None:
    figure = recipe(imported, "llama-3.1-70b/h100/dgxc-v24.11.1-bf16-64gpu").data["result"]["publisher_figures"]
    assert figure[0] | {"note": ""} == {
        "name": "Model flops utilization",
        "value": 54.1,
        "unit": "MFU %",
        "convention": "other",
        "peak": {"precision": "bf16", "tflops": 989.0},
        "note": "",
    }
    assert "Recomputed from the README's own figures: 54.13%." in figure[0]["note"]
    # v25.04's README states the model FLOPs of the 8B only: the 70B's MFU is not recomputed from them.
    newer = recipe(imported, "llama-3.1-70b/h100/dgxc-v25.04-bf16-64gpu").data["result"]["publisher_figures"][0]
    assert "Recomputed" not in newer["note"] and "8b" not in newer["note"]
    deepseek = recipe(imported, "deepseek-v3/gb200/dgxc-v25.05-bf16-128gpu").data
    assert [(item["name"], item["value"], item["unit"]) for item in deepseek["result"]["publisher_figures"]] == [
        ("TFLOPS_per_GPU", 249.3, "TFLOP/s per GPU"),
        ("Model flops utilization", 10.18, "MFU %"),
    ]
    assert "Recomputed from the README's own figures: 10.18%." in deepseek["result"]["publisher_figures"][1]["note"]
    assert deepseek["gpu"] == {"type": "GB200", "count": 128, "per_node": 4}
    assert deepseek["layout"]["ep"] == 32


def test_a_weak_scaling_series_keeps_every_gpu_count(imported: Import) -> None:
    series = sorted(
        planned.data["gpu"]["count"] for planned in imported.recipes if planned.id.startswith("llama-3.1-405b/gb200/")
    )
    assert series == [128, 256]
    data = recipe(imported, "llama-3.1-405b/gb200/dgxc-v25.05-bf16-256gpu").data
    assert data["workload"]["global_batch"] == 128 and data["layout"]["dp"] == 4
    assert data["stack"]["framework"] == "NeMo 2 25.04.01"


def test_skipped_cells_say_where_and_why(imported: Import) -> None:
    reasons = sorted(f"{skip.where.split(' (')[0]}: {skip.reason}" for skip in imported.skipped)
    assert reasons == [
        "v24.11.1 hf-llama2/README_70b.md:3: not read: 3 values under 2 columns: '9.432' not read",
        "v24.11.1 llama3.1/README_405b.md:11: not read: Training step time (seconds per step), Throughput on 96x "
        "H100 GPUs: '8.7  5' is not a number",
        "v24.11.1 llama3.1/README_70b.md:36: not read: row 'Tokens per joule' is not a figure this reader knows",
        "v25.01 hf-llama2/README_70b.md:1: no throughput in tokens per second (the column prints samples_per_s)",
        "v25.01 hf-llama2/README_70b.md:1: no throughput in tokens per second (the column prints samples_per_s)",
        "v25.01 hf-llama2/README_70b.md:3: not read: 3 values under 2 columns: '9.432' not read",
        "v25.01 llama3.1/README_405b.md:11: not read: Training step time (seconds per step), Throughput on 96x "
        "H100 GPUs: '8.7  5' is not a number",
        "v25.01 llama3.1/README_405b.md:5: a proxy of the model, not the model: 21 layers (line 7) where the table "
        "prints 126",
        "v25.01 llama3.1/README_405b.md:5: a proxy of the model, not the model: 7 layers (line 7) where the table "
        "prints 126",
        "v25.01 llama3.1/README_70b.md:36: not read: row 'Tokens per joule' is not a figure this reader knows",
        "v25.04 llama3.1/README.md:31: a proxy of the model, not the model: size 405b-Proxy (8 layers, line 10)",
    ]


def test_source_pins_the_newest_tag_and_first_published_the_first(repo: Path, imported: Import) -> None:
    source = GitSource.open(repo, None)
    first, second = source.resolve("v24.11.1"), source.resolve("v25.01")
    data = recipe(imported, "llama-3.1-70b/h100/dgxc-v24.11.1-bf16-64gpu").data["source"]
    # v25.01 changed nothing: the file's last change as of v25.01 is v24.11.1's commit, the pin.
    assert second != first
    assert data["url"] == (f"https://github.com/NVIDIA/dgxc-benchmarking/blob/{first}/llama3.1/README_70b.md#L23-L28")
    assert data["where"] == (
        'release v25.01, llama3.1/README_70b.md, table "Llama 3.1 70b 24.09 BF16 (TP=4, PP=4, CP=2, VP=5, MBS=1, '
        'GA=64)", column 1 (Throughput on 64x H100 GPUs (GBS=128))'
    )
    assert str(data["first_published"]["date"]) == "2099-01-15" and data["first_published"]["commit"] == first
    assert data["excerpt"].splitlines()[0].startswith("| Llama 3.1 70b 24.09 BF16")
    launch = recipe(imported, "llama-3.1-70b/h100/dgxc-v24.11.1-bf16-64gpu").data["launch"]
    assert launch["kind"] == "not-published"
    assert f"tree/{second}/llama3.1" in launch["reason"] and "launch.sh, llama3.1_405b.yaml" in launch["reason"]


def test_a_publishers_inconsistent_layout_is_a_disagreement() -> None:
    text = (
        "| GPUs | SeqLen | TP | PP | CP | DP | GBS |\n|---|---|---|---|---|---|---|\n"
        "| 16 | 4096 | 1 | 1 | 1 | 8 | 64 |\n\n"
        "| Llama3 8b Finetuning SFT BF16 | Throughput on 16x H100 GPUs |\n|---|:---:|\n"
        "| Training step time (seconds per step) | 1.32 |\n| Throughput in tokens per second | 198593 |\n"
    )
    (cell,) = dgxc.parse_readme("ft/README.md", text).cells
    layout, _ = dgxc_recipes._layout(cell)
    assert layout == {"tp": 1, "pp": 1, "cp": 1, "dp": 8}
    (disagreement,) = dgxc_recipes._disagreements(cell, layout)
    assert disagreement["check"] == "GPU count"
    assert "TP 1, PP 1, CP 1 and DP 8, whose product is 8, for the 16 GPUs its column names" in disagreement["note"]


# --- the command ------------------------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(arg) for arg in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def written(root: Path) -> dict[str, bytes]:
    return {path.relative_to(root).as_posix(): path.read_bytes() for path in (root / "recipes").rglob("dgxc-*.yaml")}


def test_import_writes_valid_recipes_then_check_is_up_to_date(
    capsys: pytest.CaptureFixture[str], project: Project, repo: Path
) -> None:
    code, out, err = run(capsys, "--root", project.root, "import", "dgxc-benchmarking", "--repo", repo)
    assert code == 0, err
    assert out.count("added recipes/") == 10
    assert "10 added, 0 changed, 0 removed, 0 unchanged, 11 rows skipped, 1 release not imported" in err
    assert "not imported: tag v25.07: its READMEs print no performance table" in err
    before = written(project.root)
    code, out, err = run(capsys, "--root", project.root, "import", "dgxc-benchmarking", "--repo", repo, "--check")
    assert (code, out) == (0, "") and "up to date" in err
    code, _, err = run(capsys, "--root", project.root, "validate")
    assert code == 0, err
    run(capsys, "--root", project.root, "import", "dgxc-benchmarking", "--repo", repo)
    assert written(project.root) == before  # the same bytes


def test_only_the_release_tags_asked_for_are_read(
    capsys: pytest.CaptureFixture[str], project: Project, repo: Path
) -> None:
    code, out, err = run(
        capsys, "--root", project.root, "import", "dgxc-benchmarking", "--repo", repo, "--release", "v25.05"
    )
    assert code == 0, err
    assert sorted(line.split()[-1] for line in out.splitlines()) == [
        "recipes/deepseek-v3/gb200/dgxc-v25.05-bf16-128gpu.yaml",
        "recipes/llama-3.1-405b/gb200/dgxc-v25.05-bf16-128gpu.yaml",
        "recipes/llama-3.1-405b/gb200/dgxc-v25.05-bf16-256gpu.yaml",
        "recipes/llama-3.1-405b/h100/dgxc-v25.05-bf16-512gpu.yaml",
    ]
    code, _, err = run(capsys, "--root", project.root, "import", "dgxc-benchmarking", "--repo", repo, "--release", "v1")
    assert code == 2 and "no release tag v1" in err
