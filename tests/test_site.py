"""The built catalogue: pages, the ranked table, links, navigation and offline use."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
import yaml
from conftest import (
    REPO,
    SEED_DATA,
    SEED_ID,
    SEED_PATH,
    BuildResult,
    Project,
    build_site,
    code_blocks,
    copy_project,
    parse,
)

from openrecipes import fmt
from openrecipes.loader import Entry, load_catalogue
from openrecipes.site import facts, pages

SEED_URL = f"recipes/{SEED_ID}/"
PUBLISHED = "deepseek-v3/gb200/mb-26.08-mxfp8-256gpu"
MLPERF = "llama-2-70b/h100/mlperf-4.0-nvidia-fp8-8gpu"


def visible_text(html: str) -> str:
    return " ".join(" ".join(parse(html).text).split())


def table_rows(html: str) -> list[dict[str, str | None]]:
    return [attrs for tag, attrs in parse(html).elements if tag == "tr" and "data-recipe" in attrs]


def test_seed_recipe_page_shows_every_section(fixture_site: BuildResult, fixture_entries: dict[str, Entry]) -> None:
    text = visible_text(fixture_site.html(SEED_URL))
    derived, result = fixture_entries[SEED_ID].derived, SEED_DATA["result"]
    first, last = result["window"]
    basis, own = fmt.usd(derived.usd_per_million_tokens), fmt.usd(derived.instance_usd_per_million_tokens)
    params = fmt.number(result["active_params"]["count"])
    for expected in (
        "Qwen3.8-27B on 8 × H200 · TP4 PP2",
        "verified",
        "correctness: pass",
        f"Tokens/s per GPU {fmt.as_written(result['tokens_per_s_per_gpu'])}",
        # At the price basis of its GPU type, and at the instance it names.
        f"$ / 1M tokens {basis} price basis: Nebius H200, $4.50 per GPU-hour, the cheapest sourced H200"
        f" at its own instance, AWS p5en.48xlarge: {own}",
        # Against the peak of its precision, said beside it; the method is not stated: every weight trained.
        f"MFU vs BF16 peak {fmt.percent(derived.mfu)} 6 × N FLOPs per token (method not stated: every weight "
        f"counted as trained) N = {params} active parameters per token (the recipe's)",
        f"Step-time CV {fmt.as_written(result['step_time_cv_percent'])}%",
        f"GPU-hours {fmt.as_written(result['gpu_hours'])}",
        f"Measured {result['measured']}",
        f"steps {first}–{last} of {result['steps_per_run']} {fmt.number(result['window_tokens'])} tokens",
        "8 × H200 141 GB (AWS p5en.48xlarge, 8 per node, 1 node)",
        "Tensor parallel (TP) 4",
        "Pipeline parallel (PP) 2",
        "Context parallel (CP) 1",
        "Expert tensor parallel (ETP) 1",
        "Data parallel (DP) 1",
        "Sequence parallel yes",
        "Recompute none",
        "Offload optimizer state 100% on the CPU, copies overlapped with compute",
        "Max tokens per GPU 8,192",
        "Rows per microbatch (MBS) 1",
        "NCCL 2.28.9 (CUDA 12.9 build; printed by the measured run)",
        "Source of the pins: in-pod environment dump",
        "Rows SHA-256 ee1486b28ce21df721ad61c2d3765c64a29eed0eb5680ede005bd6a321dc1a1e",
        "Parquet SHA-256 a7b7b4db98e95152604a77bcf09b51502d2266ba04de98409cef6b97afd039c8",
        "Loss correlation 0.999997",
        "Final loss difference 0.000236",
        "Pointwise failures 0",
        "Measured by ATTUNE",
    ):
        assert expected in text, expected


def test_launch_script_and_environment_are_byte_exact(fixture_site: BuildResult) -> None:
    recipe = yaml.safe_load(SEED_PATH.read_text(encoding="utf-8"))
    blocks = code_blocks(fixture_site.html(SEED_URL))
    env_lines = "".join(f"export {name}={value}\n" for name, value in recipe["env"].items())
    assert env_lines in blocks
    assert recipe["run"] in blocks
    assert "python3 -m <slime entry module> --async \\\n" in recipe["run"]
    page_dir = fixture_site.site / SEED_URL
    assert (page_dir / "launch.sh").read_bytes() == recipe["run"].encode()
    assert (page_dir / "env.sh").read_bytes() == env_lines.encode()
    assert (fixture_site.site / f"recipes/{SEED_ID}.yaml").read_bytes() == SEED_PATH.read_bytes()


def test_home_table_holds_the_first_rows_and_the_rest_as_data(seed_site: BuildResult) -> None:
    html = seed_site.html("")
    ids = [row["data-recipe"] for row in table_rows(html)]
    everything = json.loads((seed_site.site / "assets/catalogue-rows.json").read_text(encoding="utf-8"))
    # Every recipe is in the table's data, in table order; the page holds the first current ones.
    assert sorted(everything["id"]) == sorted(
        path.relative_to(REPO / "recipes").with_suffix("").as_posix() for path in (REPO / "recipes").rglob("*.yaml")
    )
    statuses = everything["facets"]["status"]
    status_of = dict(zip(everything["id"], [statuses["values"][i] for i in statuses["index"]], strict=True))
    current = [recipe_id for recipe_id in everything["id"] if status_of[recipe_id] != "deprecated"]
    assert ids == current[: pages.HOME_ROWS]
    assert f'data-or-total="{len(everything["id"])}"' in html
    # Columns are found by their key, so a column added to the registry changes nothing here.
    keys = re.findall(r'<th scope="col" data-key="([a-z0-9_]+)"', html)
    assert keys == [fact.key for fact in facts.COLUMNS]


def test_a_home_table_row_holds_the_exact_values(fixture_site: BuildResult) -> None:
    html = fixture_site.html("")
    keys = re.findall(r'<th scope="col" data-key="([a-z0-9_]+)"', html)
    tag, row = re.search(rf'(<tr data-recipe="{re.escape(SEED_ID)}"[^>]*>)(.*?)</tr>', html, re.S).groups()
    cells = re.findall(r"<td.*?</td>", row, re.S)
    text = {key: " ".join(" ".join(parse(cell).text).split()) for key, cell in zip(keys, cells, strict=True)}
    value = {key: re.search(r'data-value="([^"]*)"', cell).group(1) for key, cell in zip(keys, cells, strict=True)}
    tokens = SEED_DATA["result"]["tokens_per_s_per_gpu"]
    usd = 4.5 / (tokens * 3600) * 1e6  # at the price basis: Nebius H200, $4.50 per GPU-hour
    mfu = 6 * SEED_DATA["result"]["active_params"]["count"] * tokens / 989e12
    assert (
        text
        | {
            "model": "Qwen3.8-27B",
            "gpus": "8 × H200",
            "layout": "TP4 PP2",
            "tokens": fmt.as_written(tokens),
            "usd": fmt.usd(usd),
            "method": "not stated",  # the seed does not say how it trained
            "mfu": f"{fmt.percent(mfu)} vs BF16 peak",  # the peak it is against, beside it
            "mfu_bf16": fmt.percent(mfu),  # a BF16 run: the same
            "status": "verified correctness: pass",  # the evidence in one column
            "precision": "bf16",
            "row_tokens": "8,192",
        }
        == text
    )
    # Sorted by the figures recomputed from sourced data, as written by Python (the script reads them back).
    assert (value["tokens"], value["usd"], value["mfu"]) == (repr(tokens), repr(usd), repr(mfu))
    attributes = dict(re.findall(r'data-([a-z_]+)="([^"]*)"', tag))
    assert (
        attributes | {"gpu": "H200", "count": "8", "status": "verified", "correctness": "pass", "framework": "slime"}
        == attributes
    )
    assert f'href="{SEED_URL}"' in row


@pytest.mark.site
def test_table_order_is_price_then_mfu_then_id_with_unpriced_last(project: Project) -> None:
    # $/GPU-hour: p5 6.88, p5en 7.912; throughputs chosen so prices tie and differ.
    project.add_synthetic("llama-3.1-8b/h100/cheap", model="Llama 3.1 8B", tokens_per_s=9000.0, tp=1, pp=1, count=8)
    project.add_synthetic("llama-3.1-70b/h100/pricey", tokens_per_s=600.0)
    project.add_synthetic("llama-3.1-70b/h100/mid-b", tokens_per_s=900.0)
    project.add_synthetic("llama-3.1-70b/h100/mid-a", tokens_per_s=900.0)
    project.add_synthetic("llama-3.1-70b/mi325x/onprem", gpu="MI325X", instance=None, tokens_per_s=700.0)
    project.add_synthetic("llama-3.1-70b/b200/onprem", gpu="B200", instance=None, tokens_per_s=2000.0)
    project.add_synthetic("llama-3.1-70b/h200/tenfold", gpu="H200", instance="AWS p5en.48xlarge", tokens_per_s=90.0)
    # At its own Azure instance ($12.29 per GPU-hour) it would rank after mid-a and mid-b ($2.2759).
    azure = "Azure Standard_ND96isr_H100_v5"
    project.add_synthetic("llama-3.1-70b/h100/azure", instance=azure, tokens_per_s=1500.0)
    result = project.build()
    assert result.ok, result.errors()
    order = [row["data-recipe"] for row in table_rows(result.html(""))]
    # Every $ / 1M at the price basis of the GPU type: H100 at Nebius's $3.85, H200 at Nebius's $4.50.
    assert order == [
        "llama-3.1-8b/h100/cheap",  # $0.1188
        "llama-3.1-70b/h100/azure",  # $0.7130, whatever its author paid Azure
        "llama-3.1-70b/b200/onprem",  # $0.9431: priced at RunPod's $6.79 per B200-hour
        "llama-3.1-70b/h100/mid-a",  # $1.19, same MFU as mid-b: by id
        "llama-3.1-70b/h100/mid-b",
        "llama-3.1-70b/h100/pricey",  # $1.78
        "llama-3.1-70b/h200/tenfold",  # $13.89: 13 sorts after 1 as a number
        "llama-3.1-70b/mi325x/onprem",  # no sourced MI325X price at all: last
    ]


@pytest.mark.site
def test_fleets_of_other_gpus_and_several_nodes_build(project: Project) -> None:
    project.add_synthetic(
        "llama-3.1-70b/a100/four-nodes", gpu="A100", instance="AWS p4de.24xlarge", count=32, tokens_per_s=250.0
    )
    project.add_synthetic("mixtral-8x7b/b200/ep", model="Mixtral 8x7B", gpu="B200", instance=None, tp=2, pp=1, ep=4)
    project.add_synthetic("llama-3.1-405b/h100/sixteen", model="Llama 3.1 405B", count=128, pp=8, tokens_per_s=120.0)
    result = project.build()
    assert result.ok, result.errors()
    text = visible_text(result.html("recipes/llama-3.1-70b/a100/four-nodes/"))
    assert "32 × A100 80 GB (AWS p4de.24xlarge, 8 per node, 4 nodes)" in text
    # On-premises GPUs are priced at the price basis for their type, and say so.
    onprem = visible_text(result.html("recipes/mixtral-8x7b/b200/ep/"))
    assert "price basis: RunPod Secure B200, $6.79 per GPU-hour, the cheapest sourced B200" in onprem
    assert "16 × B200 180 GB (no public price, 8 per node, 2 nodes)" in onprem


@pytest.mark.site
def test_recipe_pages_stay_out_of_the_sidebar_but_index_pages_are_in_it(project: Project) -> None:
    for index in range(3):
        project.add_synthetic(f"llama-3.1-70b/h100/r{index}")
    result = project.build()
    assert result.ok, result.errors()
    nav = re.search(r'<nav class="md-nav md-nav--primary[^"]*".*?</nav>\s*</div>', result.html(""), re.S).group(0)
    assert "recipes/llama-3.1-70b" not in nav
    assert "Methodology" in nav


def test_edit_link_opens_the_recipe_file(fixture_site: BuildResult) -> None:
    edit = [a for tag, a in parse(fixture_site.html(SEED_URL)).elements if tag == "a" and a.get("rel") == "edit"]
    assert edit[0]["href"] == f"https://github.com/openrecipes/openrecipes/edit/main/recipes/{SEED_ID}.yaml"


def test_every_internal_link_and_asset_resolves_and_nothing_is_loaded_from_other_hosts(seed_site: BuildResult) -> None:
    site = seed_site.site
    for page in site.rglob("*.html"):
        base = "http://site/" + page.relative_to(site).as_posix()
        for tag, attrs in parse(page.read_text(encoding="utf-8")).elements:
            for name in ("href", "src"):
                value = attrs.get(name)
                if not value or value.startswith(("#", "mailto:")):
                    continue
                url = urlsplit(urljoin(base, value))
                if url.netloc != "site":
                    navigates_only = tag == "a" or (tag == "link" and attrs.get("rel") in ("canonical", "alternate"))
                    assert navigates_only, f"{page}: <{tag} {name}={value}> loads from another host"
                    continue
                # 404.html links absolutely, under the site_url's path, so it works at any depth.
                path = url.path.removeprefix("/openrecipes/") if page.name == "404.html" else url.path
                target = site / path.lstrip("/")
                if path.endswith("/"):
                    target = target / "index.html"
                assert target.exists(), f"{page}: broken link {value}"


def test_derived_tables_stay_out_of_the_search_index(fixture_site: BuildResult) -> None:
    # The checks and the alternatives are most of a recipe page's text and nothing anyone searches for.
    index = json.loads((fixture_site.site / "search/search_index.json").read_text(encoding="utf-8"))
    sections = {doc["location"] for doc in index["docs"] if doc["location"].startswith(SEED_URL)}
    assert f"{SEED_URL}#software-stack" in sections
    assert f"{SEED_URL}#checks" not in sections


def _found_by(index: dict, query: str) -> set[str]:
    """The pages whose entries hold every word of `query`, as Material's search reads them: split at
    its separator, lower case, a word matching the start of an indexed word."""
    separator = re.compile(index["config"]["separator"])
    wanted = [word for word in separator.split(query.lower()) if word]
    found = set()
    for doc in index["docs"]:
        text = re.sub(r"<[^>]+>", " ", f"{doc['title']} {doc['text']}").lower()
        words = [word for word in separator.split(text) if word]
        if all(any(word.startswith(term) for word in words) for term in wanted):
            found.add(doc["location"].split("#")[0])
    return found


@pytest.mark.site
def test_search_finds_a_recipe_by_model_gpu_framework_author_and_dataset(project: Project) -> None:
    # The index holds what a recipe is searched by, a kilobyte or so of each recipe, not its tables.
    project.add_seed()
    project.add_fixture(PUBLISHED)
    project.add_synthetic("llama-3.1-70b/h100/searched", model="Llama 3.1 70B", gpu="H100", instance="AWS p5.48xlarge")
    result = project.build()
    assert result.ok, result.errors()
    index = json.loads((result.site / "search/search_index.json").read_text(encoding="utf-8"))
    queries = {
        f"recipes/{SEED_ID}/": ["Qwen3.8-27B", "H200", "slime", "ATTUNE", "Tulu 3 SFT mixture", "tulu-3-sft-mixture"],
        f"recipes/{PUBLISHED}/": ["DeepSeek-V3", "GB200", "Megatron-Bridge", "NVIDIA"],
        "recipes/llama-3.1-70b/h100/searched/": ["Llama 3.1 70B", "H100", "Megatron-LM", "test suite", "FineWeb"],
    }
    for page, searches in queries.items():
        for query in searches:
            assert page in _found_by(index, query), query
    # Not what nobody searches by: launch scripts, hashes, the layout's numbers, the checks.
    seed_text = " ".join(doc["text"] for doc in index["docs"] if doc["location"].startswith(f"recipes/{SEED_ID}/"))
    assert "torchrun" not in seed_text and "Tensor parallel" not in seed_text and "sha256" not in seed_text.lower()


def test_theme_uses_the_sites_own_fonts_and_no_repository_api(seed_site: BuildResult) -> None:
    html = seed_site.html("")
    assert "fonts.googleapis" not in html and "fonts.gstatic" not in html
    # The site's own: the stylesheet before the theme's overrides, the body face preloaded.
    assert '<link rel="stylesheet" href="assets/openrecipes-fonts.css">' in html
    preload = '<link rel="preload" href="assets/vendor/fonts/roboto-latin-400-normal.woff2" as="font"'
    assert preload in html
    for name in ("openrecipes-fonts.css", "vendor/fonts/roboto-latin-400-normal.woff2", "vendor/fonts/roboto.LICENSE"):
        assert (seed_site.site / "assets" / name).is_file(), name
    assert 'data-md-component="source"' not in html  # would fetch stars from api.github.com


@pytest.mark.site
def test_nothing_is_written_into_docs_or_recipes(tmp_path: Path, project: Project) -> None:
    project.add_seed()
    before = sorted(p.relative_to(project.root) for p in project.root.rglob("*") if "__pycache__" not in p.parts)
    assert project.build().ok
    after = sorted(p.relative_to(project.root) for p in project.root.rglob("*") if "__pycache__" not in p.parts)
    assert after == before


SEED_SHA256 = "42dddd5d866a0f68739460c0d8089b1a8cdf04dba8faca2773d7b0c73c52ca66"
"""The seed as shared with the team (../shared/seed/*.txt, the text from its `# recipes/...` line on):
the tests' frozen copy of it must stay byte for byte what it was, wherever the tests run. The
catalogue's own copy in recipes/ is data like any other recipe, free to change."""


def test_the_tests_seed_is_the_shared_seed_byte_for_byte() -> None:
    raw = SEED_PATH.read_bytes()
    assert raw.startswith(b"# recipes/qwen3.8-27b/h200/attune-tp4-pp2.yaml\n")
    assert hashlib.sha256(raw).hexdigest() == SEED_SHA256
    # Beside the checkout (not in CI's clean checkout), the shared text itself is compared too.
    for source in sorted((REPO.parent / "shared" / "seed").glob("*.txt")):
        text = source.read_bytes()
        assert text[text.index(b"# recipes/qwen3.8-27b/") :] == raw, source


def test_every_page_carries_the_content_security_policy_first_and_no_inline_script(seed_site: BuildResult) -> None:
    pages = sorted(seed_site.site.rglob("*.html"))
    assert len(pages) > 8
    policies = set()
    for page in pages:
        html = page.read_text(encoding="utf-8")
        elements = parse(html).elements
        head = [(tag, attrs) for tag, attrs in elements if tag in ("meta", "script", "link", "title")]
        tag, attrs = head[0]
        assert (tag, attrs.get("http-equiv")) == ("meta", "Content-Security-Policy"), page
        policies.add(attrs["content"])
        policy = dict(part.strip().split(" ", 1) for part in attrs["content"].split(";"))
        allowed = policy["script-src"].split()
        # Scripts by hash only: no place ('self', a host, a path) and nothing inline or eval'd.
        assert allowed and all(re.fullmatch(r"'sha256-[A-Za-z0-9+/]{43}='", source) for source in allowed)
        assert policy["default-src"] == "'self'" and policy["object-src"] == "'none'"
        assert policy["base-uri"] == "'none'"
        for tag, attrs in elements:
            if tag != "script":
                continue
            # Data blocks (the theme's configuration) do not run; every script that runs is a file
            # of the site whose bytes hash to its integrity, which the policy lists.
            if not attrs.get("src"):
                assert attrs.get("type") == "application/json", (page, attrs)
                continue
            src = urlsplit(
                urljoin(f"http://site/openrecipes/{page.relative_to(seed_site.site).as_posix()}", attrs["src"])
            )
            target = seed_site.site / src.path.removeprefix("/openrecipes/")
            digest = "sha256-" + base64.b64encode(hashlib.sha256(target.read_bytes()).digest()).decode()
            assert attrs.get("integrity") == digest, (page, attrs)
            assert f"'{digest}'" in allowed
    assert len(policies) == 1  # one policy for the site: instant navigation keeps the first page's


def test_the_policy_allows_no_file_an_author_writes(seed_site: BuildResult) -> None:
    """Downloads, data and recipe files are never script sources: none of them hashes to a
    script the policy allows, and the libraries loaded later are listed with their integrity."""
    html = (seed_site.site / "index.html").read_text(encoding="utf-8")
    (content,) = [attrs["content"] for tag, attrs in parse(html).elements if attrs.get("http-equiv")]
    allowed = set(re.findall(r"'(sha256-[^']+)'", content))
    for path in seed_site.site.rglob("*"):
        if path.is_file() and not path.name.endswith(".js"):
            digest = "sha256-" + base64.b64encode(hashlib.sha256(path.read_bytes()).digest()).decode()
            assert digest not in allowed, path
    listing = (seed_site.site / "assets" / "integrity.js").read_text(encoding="utf-8")
    for library in ("assets/javascripts/plotly.min.js", "assets/vendor/diff.min.js"):
        digest = "sha256-" + base64.b64encode(hashlib.sha256((seed_site.site / library).read_bytes()).digest()).decode()
        assert f'"{library}": "{digest}"' in listing
        assert digest in allowed


@pytest.mark.build
def test_an_mlperf_result_shows_its_time_to_train_and_says_what_it_does_not_publish(tmp_path: Path) -> None:
    root = copy_project(tmp_path / "project", with_recipes=[f"recipes/{MLPERF}.yaml"])
    catalogue = load_catalogue(root)
    assert catalogue.problems == ()
    (entry,) = catalogue.entries
    assert entry.derived.params == 68_976_648_192 - 32_000 * 8_192  # Llama 2 70B, less its input embedding
    assert entry.derived.method == "lora" and entry.derived.flops_per_token == 4 * entry.derived.params
    assert all(check.passed for check in entry.derived.checks)
    result = build_site(root, tmp_path / "site")
    assert result.ok, result.log
    text = visible_text(result.html(f"recipes/{MLPERF}/"))
    stated = entry.recipe.fields.result
    first, last = stated.window
    for expected in (
        "Llama 2 70B on 8 × H100 · TP4 PP1",
        f"Tokens/s per GPU {fmt.as_written(stated.tokens_per_s_per_gpu)}",
        # LoRA: 4 × N over the base model without its input embedding; against the FP8 peak, and the BF16 one.
        f"MFU vs FP8 peak {fmt.percent(entry.derived.mfu)} 4 × N FLOPs per token (LoRA: frozen weights have no "
        f"weight gradient) N = {fmt.number(68_976_648_192 - 32_000 * 8_192)} active parameters per token without "
        f"the input embedding MFU vs BF16 peak {fmt.percent(entry.derived.mfu_bf16)}",
        f"Measured {stated.measured}",
        f"Window steps {first}–{last} of {stated.steps_per_run} {fmt.number(stated.window_tokens)} tokens",
        "Training LoRA, rank 16, alpha 32, adapters on the attention layers",
        "Sequence 8,192 Global batch 8 rows (65,536 tokens per step) Precision fp8 FP8 scaling delayed",
        f"Time to train {stated.time_to_train.minutes:g} minutes to eval loss 0.925 (mean of the 10 runs"
        " (result_0.txt to result_9.txt) without the fastest and the slowest, each timed from run_start to run_stop;"
        " computed here from the logs)",
        "Data parallel (DP) 2 (derived: GPUs ÷ (TP × PP × CP))",
        # What MLPerf's logs and configs do not state is said to be unpublished, never filled in.
        "Step-time CV not published GPU-hours not published",
        # Llama 2 70B is dense: its expert degrees do not apply rather than go unpublished.
        "Expert parallel (EP) does not apply (dense model) Expert tensor parallel (ETP) does not apply (dense model)",
        "Not published: Virtual pipeline stages (VPP), Sharding, Pipeline schedule, Layers per pipeline stage,"
        " Offload, Max tokens per GPU.",
        "Not published: Revision, License, Rows SHA-256.",
        # NVIDIA's submission documents how it is launched: the page shows that, labelled as such.
        "The publisher's documented launch. How MLCommons (submitted by NVIDIA) launches this configuration",
    ):
        assert expected in text, expected
