"""Models of one architecture, linked (issue 22, item 6): reference/models.yaml's `same_architecture`,
its refusals with their lines, and the links on the model pages and the home page's matrix of a site
built from the tests' own recipes."""

from __future__ import annotations

import re

from conftest import Project

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
