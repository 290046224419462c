"""Models of one architecture, linked (issue 22, item 6): reference/models.yaml's `same_architecture`,
its refusals with their lines, and the links on the model pages and the home page's matrix of a site
built from the tests' own recipes."""

from __future__ import annotations

import re
from html import unescape

import pytest
from conftest import BuildResult, Project, copy_project, parse

from openrecipes.reading.reference import Reference, load_reference

# Two models of the tests' own, appended to the project's models.yaml: the same architecture as each
# other (and as Llama 3.1 8B), so that the tests hold whatever the committed file says.
ARCHITECTURE = """\
    attention: gqa
    layers: 32
    hidden: 4096
    heads: 32
    kv_heads: 8
    head_dim: 128
    ffn: 14336
    gated_mlp: true
    activation: silu
    vocab: 128256
"""


def _model(key: str, alias: str, same: str | None, architecture: str = ARCHITECTURE) -> str:
    lines = [
        f"{key}:",
        f"  aliases: [{alias}]",
        "  total_params: 8030261248",
        "  active_params: 8030261248",
        "  counts: derived",
        "  architecture:",
        architecture.rstrip("\n"),
    ]
    if same is not None:
        lines += ["  same_architecture:", f"    models: {same}", "    source: a test's own claim"]
    lines += ["  source: a test", "  as_of: 2026-12-03", ""]
    return "\n".join(lines)


def _with_models(project: Project, *entries: str) -> tuple[Reference | None, list[str], int]:
    """The project's models.yaml with `entries` appended: what loading it gives, and the line the
    first appended entry starts on."""
    models = project.root / "reference/models.yaml"
    text = models.read_text(encoding="utf-8").rstrip("\n") + "\n"
    first_line = text.count("\n") + 1
    models.write_text(text + "".join(entries), encoding="utf-8")
    loaded, problems = load_reference(project.root)
    return loaded, [str(problem) for problem in problems], first_line


def test_the_relation_holds_both_ways_and_through_chains(project: Project) -> None:
    loaded, problems, _ = _with_models(
        project,
        _model("Example A", "example-a-hf", "[Example B]"),
        _model("Example B", "example-b-hf", None),
        _model("Example C", "example-c-hf", "[Example B]"),
    )
    assert problems == []
    assert loaded is not None
    assert loaded.same_architecture("Example A") == ("Example B", "Example C")
    assert loaded.same_architecture("Example B") == ("Example A", "Example C")  # written on the other side only
    assert loaded.same_architecture("Example C") == ("Example A", "Example B")
    assert loaded.same_architecture("Llama 2 70B") == ()


def test_the_committed_llama_pairs_are_linked_with_a_source(reference: Reference) -> None:
    assert reference.same_architecture("Llama 3 8B") == ("Llama 3.1 8B",)
    assert reference.same_architecture("Llama 3.1 70B") == ("Llama 3 70B",)
    for key in ("Llama 3.1 8B", "Llama 3.1 70B"):
        spec = reference.models[key]
        assert spec.same_architecture_source and "[S42]" in spec.same_architecture_source


def test_bad_claims_are_refused_each_at_its_line(project: Project) -> None:
    wider = ARCHITECTURE.replace("layers: 32", "layers: 40")
    loaded, problems, line = _with_models(
        project,
        _model("Example A", "example-a-hf", "[Example A, Llama 3 9B, example-b-hf, Example B, Example C]"),
        _model("Example B", "example-b-hf", None),
        _model("Example C", "example-c-hf", None, architecture=wider).replace(
            "8030261248", "9775157248"
        ),  # 40 layers: its own counts, so that only the claim is wrong
    )
    assert loaded is None
    where = f"reference/models.yaml:{line + 17}:14"  # the `models:` list of Example A
    assert problems == [
        f"{where}: $['Example A'].same_architecture.models[0]: 'Example A' is this model itself: "
        "name the other models of its architecture",
        f"reference/models.yaml:{line + 17}:25: $['Example A'].same_architecture.models[1]: "
        "'Llama 3 9B' is not a model of reference/models.yaml (did you mean 'Llama 3 8B'?)",
        f"reference/models.yaml:{line + 17}:37: $['Example A'].same_architecture.models[2]: "
        "'example-b-hf' is an alias of 'Example B': write the model's key",
        f"reference/models.yaml:{line + 17}:62: $['Example A'].same_architecture.models[4]: "
        "'Example C' has another architecture: layers differ",
    ]


def test_the_schema_refuses_an_empty_list_and_a_claim_without_a_source(project: Project) -> None:
    entry = _model("Example A", "example-a-hf", "[]").replace("    source: a test's own claim\n", "")
    _, problems, _ = _with_models(project, entry)
    assert [re.sub(r":\d+:\d+:", ":L:C:", problem) for problem in problems] == [
        "reference/models.yaml:L:C: $['Example A'].same_architecture: missing required key 'source'",
        "reference/models.yaml:L:C: $['Example A'].same_architecture.models: [] has 0 items; expected at least 1",
    ]


# -- the site -----------------------------------------------------------------------------------

H100_96GB = "llama-3.1-8b/h100-96gb/tt-202412-torchtitan-fp8-8gpu-fsdp8-cp1"
H200 = "llama-3.1-8b/h200/tt-202506-trainy-whitefiber-fp8-32gpu"


def _text(html: str) -> str:
    return " ".join("".join(parse(html).text).split())


def _matrix_row(html: str, model: str) -> list[str]:
    """The visible text of each cell of the home matrix's row for `model`, the row header first."""
    row = re.search(rf'<tr data-model="{re.escape(model)}">(.*?)</tr>', html, re.S)
    assert row, model
    return [_text(cell) for cell in re.findall(r"<t[hd]\b[^>]*>(.*?)</t[hd]>", row.group(1), re.S)]


def _links(html: str) -> list[tuple[str, str]]:
    found = re.findall(r'<a [^>]*href="([^"]*)"[^>]*>(.*?)</a>', html, re.S)
    return [(_text(text), unescape(href)) for href, text in found]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, reference: Reference) -> BuildResult:
    """Llama 3.1 8B's two frozen recipes (H100-96GB, H200) and three of Llama 3 8B's own (two on
    H100, one on GB300): the same architecture on different GPU types."""
    project = Project(copy_project(tmp_path_factory.mktemp("same-architecture") / "project"), reference)
    project.add_fixture(H100_96GB)
    project.add_fixture(H200)
    for name, gpu, tokens in (("a", "H100", 9000.0), ("b", "H100", 8000.0), ("c", "GB300", 30000.0)):
        instance = "AWS p5.48xlarge" if gpu == "H100" else None
        project.add_synthetic(
            f"llama-3-8b/{gpu.lower()}/{name}",
            model="Llama 3 8B",
            gpu=gpu,
            count=8,
            per_node=4 if gpu == "GB300" else 8,
            instance=instance,
            tokens_per_s=tokens,
            tp=1,
            pp=1,
        )
    result = project.build()
    assert result.ok, result.log
    return result


@pytest.mark.site
def test_the_home_matrix_links_each_model_to_the_other_and_fills_empty_cells(built: BuildResult) -> None:
    html = built.html("")
    # Columns: GB300, H100, H100-96GB, H200.
    assert _matrix_row(html, "Llama 3.1 8B")[0] == "Llama 3.1 8B same architecture: Llama 3 8B — 3 recipes"
    assert _matrix_row(html, "Llama 3.1 8B")[1:3] == [
        "no recipe; same architecture: Llama 3 8B: 1 recipe",
        "no recipe; same architecture: Llama 3 8B: 2 recipes",
    ]
    assert _matrix_row(html, "Llama 3 8B")[0] == "Llama 3 8B same architecture: Llama 3.1 8B — 2 recipes"
    assert _matrix_row(html, "Llama 3 8B")[3:] == [
        "no recipe; same architecture: Llama 3.1 8B: 1 recipe",
        "no recipe; same architecture: Llama 3.1 8B: 1 recipe",
    ]
    row = re.search(r'<tr data-model="Llama 3.1 8B">(.*?)</tr>', html, re.S).group(1)
    links = _links(row)
    # The other model's page, filtered to the matrix's training method (and GPU type) as its own cells.
    method = "method=not%20stated"
    assert links[:2] == [("Llama 3.1 8B", "models/llama-3.1-8b/"), ("Llama 3 8B", f"models/llama-3-8b/?{method}")]
    assert ("same architecture: Llama 3 8B: 1 recipe", f"models/llama-3-8b/?gpu=GB300&{method}") in links
    assert ("same architecture: Llama 3 8B: 2 recipes", f"models/llama-3-8b/?gpu=H100&{method}") in links
    # A model of no shared architecture has neither.
    assert "same architecture" not in " ".join(_matrix_row(html, "Llama 3 8B")[1:3])


@pytest.mark.site
def test_each_model_page_names_the_other_with_its_count(built: BuildResult) -> None:
    page = built.html("models/llama-3.1-8b/")
    lead = re.search(r'<p class="or-note or-same-architecture">(.*?)</p>', page, re.S).group(1)
    assert _text(lead) == (
        "Same architecture: Llama 3 8B — 3 recipes. The same layers and sizes make the same FLOPs per token, "
        "so a recipe of one trains the other as fast at the same sequence length (methodology); those recipes "
        "are ranked on their own model's page, not here."
    )
    assert _links(lead) == [("Llama 3 8B", "../llama-3-8b/"), ("methodology", "../../methodology/#same-architecture")]
    other = built.html("models/llama-3-8b/")
    assert "Same architecture: Llama 3.1 8B — 2 recipes." in _text(other)
    # The rows stay their own model's.
    assert H200 not in other and "llama-3-8b/h100/a" not in page
    # A model of no shared architecture says nothing of it.
    assert "Same architecture" not in _text(built.html("gpus/h200/"))


@pytest.mark.site
def test_methodology_lists_each_claim_with_its_source(built: BuildResult) -> None:
    text = _text(built.html("methodology/"))
    assert "Llama 3.1 8B Llama 3 8B meta-llama/llama-models models/sku_list.py @ 084b88e:" in text
    assert "Llama 3.1 70B Llama 3 70B meta-llama/llama-models" in text
