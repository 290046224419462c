"""Reference data is a stranger's pull request too: every name in it is checked by a declared rule,
whatever reaches a page outside the fragment renderer is escaped, and scripts run by hash only."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from pathlib import Path

import pytest
from conftest import REPO, Project, parse

from openrecipes.reading import plaintext
from openrecipes.reading.reference import load_reference
from openrecipes.site import csp, fragments
from openrecipes.site.render import environment, render

MATERIAL = Path(__import__("material").__file__).parent / "templates"

# (file, text replaced, its replacement, the problem: where and the start of what is said)
ATTACKS = (
    (
        "gpus",
        "H100-PCIe:\n",
        "'X9</title><script src=\"../../x/launch.sh\"></script><title>':\n",
        "$['X9</title><script src=\"../../x/launch.sh\"></script><title>']",
        "'X9</title><script src=",
    ),
    ("gpus", "H20:\n", "\u041d20:\n", "$.\u041d20", "'\u041d20' does not have the expected form"),
    (
        "gpus",
        "  aliases: [H100 PCIe]\n",
        "  aliases: [H100 PCIe, '<meta http-equiv=refresh content=0;url=//evil.example>']\n",
        "$['H100-PCIe'].aliases[1]",
        "'<meta http-equiv=refresh",
    ),
    (
        "gpus",
        "  name: NVIDIA H100 NVL",
        "  name: NVIDIA \u041d100 NVL",
        "$['H100-NVL'].name",
        "'NVIDIA \u041d100 NVL 94GB (per GPU of the pair)' mixes scripts (Latin, Cyrillic)",
    ),
    (
        "gpus",
        "  name: NVIDIA A100 SXM 80GB\n",
        "  name: NVIDIA A100 <b>SXM</b>\n",
        "$.A100.name",
        "'NVIDIA A100 <b>SXM</b>' holds < >: a name is plain text",
    ),
    ("gpus", "  vendor: AMD\n", "  vendor: \uff21MD\n", "$.MI250X.vendor", "'\uff21MD' holds U+FF21"),
    (
        "gpus",
        'notes: "Memory bandwidth',
        'notes: "M\u0435mory bandwidth',
        "$['A100-40GB'].notes",
        "'M\u0435mory bandwidth 1.555 TB/s against 2.039 TB/s for the 80GB part.' has the word 'M\u0435mory'",
    ),
    (
        "instances",
        "AWS p5.48xlarge:\n",
        "'AWS p5.48xlarge \U0001d407100':\n",
        "$['AWS p5.48xlarge \U0001d407100']",
        "'AWS p5.48xlarge \U0001d407100' does not have the expected form",
    ),
    ("instances", "  provider: Lambda\n", '  provider: "Lambda\\"><svg onload=alert(1)>"\n', None, "holds"),
    ("models", "Kimi K2:\n", "'Kimi K2 <img src=x>':\n", "$['Kimi K2 <img src=x>']", "'Kimi K2 <img src=x>'"),
)


def _attack(project: Project, kind: str, old: str, new: str) -> None:
    path = project.root / f"reference/{kind}.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text, (kind, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize(("kind", "old", "new", "where", "message"), ATTACKS)
def test_each_hostile_reference_value_is_refused_where_it_is_written(
    project: Project, kind: str, old: str, new: str, where: str | None, message: str
) -> None:
    _attack(project, kind, old, new)
    reference, problems = load_reference(project.root)
    assert reference is None
    assert len(problems) == 1, [str(problem) for problem in problems]
    (problem,) = problems
    assert problem.path == f"reference/{kind}.yaml" and problem.line > 0 and problem.column > 0
    written = project.root.joinpath(problem.path).read_text(encoding="utf-8").splitlines()[problem.line - 1]
    assert new.strip().split(":")[0].strip("'\" ")[:6] in written or new.strip() in written
    if where is not None:
        assert problem.where == where
    assert message in problem.message, problem.message


def test_every_hostile_reference_value_is_reported_in_one_run(project: Project) -> None:
    for kind, old, new, *_ in ATTACKS:
        _attack(project, kind, old, new)
    _, problems = load_reference(project.root)
    by_file = {kind: sum(1 for attack in ATTACKS if attack[0] == kind) for kind in ("gpus", "instances", "models")}
    assert {kind: sum(1 for p in problems if p.path == f"reference/{kind}.yaml") for kind in by_file} == by_file


@pytest.mark.parametrize(
    "name",
    [
        "NVIDIA B300 / Blackwell Ultra (HGX)",
        "NVIDIA H100 SXM 96GB HBM2e (Meta Grand Teton, 500 W)",
        "Zürich",
        "東京",
        "Ελλάδα",
        "us-east-1",
    ],
)
def test_plain_names_in_any_one_script_are_names(name: str) -> None:
    assert plaintext.name_problem(name) is None


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("H\u0410100", "mixes scripts (Latin, Cyrillic)"),  # Cyrillic A
        ("\U0001d407100", "U+1D407 (MATHEMATICAL BOLD CAPITAL H), a look-alike of 'H'; write 'H100'"),
        ("ＡＭＤ", "U+FF21 (FULLWIDTH LATIN CAPITAL LETTER A)"),
        ("AMD &amp; co", "holds &"),
        ("O'Brien", "holds '"),
        ("`AMD`", "holds `"),
        (" AMD", "leading, trailing or doubled spaces"),
        ("A  MD", "leading, trailing or doubled spaces"),
    ],
)
def test_names_that_are_not_what_they_read_as_are_refused(name: str, reason: str) -> None:
    problem = plaintext.name_problem(name)
    assert problem is not None and reason in problem


def test_prose_may_hold_any_printable_text_but_no_look_alike_word() -> None:
    assert plaintext.prose_problem("624 TFLOP/s (with sparsity) <see [S1]> & 'quotes' — ≈ ×2, Zürich") is None
    assert plaintext.prose_problem("Мемория in Cyrillic alone is one script") is None
    assert "'H\u0430100'" in (plaintext.prose_problem("the H\u0430100 part") or "")


def test_the_committed_reference_data_keeps_every_rule() -> None:
    reference, problems = load_reference(REPO)
    assert reference is not None and problems == []


# --- tokens ------------------------------------------------------------------------------------


def test_text_that_spells_a_token_is_only_text() -> None:
    """Tokens are made of private-use code points, which no file read may hold: a value spelling
    the old ASCII token, or any digits, stays the text it is."""
    env = environment()
    with fragments.collecting() as made:
        token = fragments.fragment("<b>ours</b>")
    assert re.fullmatch("\ue000\\d+\ue001", str(token))
    assert len(made.html) == 1
    page = render(env, "unavailable.md.j2", title="orfrag0z orfrag1z 0", files=[], problems=[])
    html = fragments.restore(page.markdown, page.fragments)
    assert "orfrag0z orfrag1z 0" in html


# --- the policy --------------------------------------------------------------------------------


def _integrity(content: bytes) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(content).digest()).decode()


def test_scripts_are_signed_with_their_hash_and_nothing_else_is_a_script() -> None:
    integrities = {"assets/core.js": _integrity(b"core"), "assets/javascripts/bundle.js": _integrity(b"bundle")}
    present = {*integrities, "recipes/m/g/r/launch.sh", "recipes/m/g/r/index.html"}
    page = '<script src="../../../../assets/core.js"></script><script id="__config" type="application/json">{}</script>'
    signed = csp.with_integrity(page, "recipes/m/g/r/index.html", integrities, "/openrecipes/", present)
    assert signed == (
        f'<script integrity="{_integrity(b"core")}" src="../../../../assets/core.js"></script>'
        '<script id="__config" type="application/json">{}</script>'
    )
    absolute = csp.with_integrity(
        '<script src="/openrecipes/assets/core.js">', "404.html", integrities, "/openrecipes/"
    )
    assert f'integrity="{_integrity(b"core")}"' in absolute
    for refused in (
        '<script src="launch.sh"></script>',  # a download of the site
        '<script src="https://evil.example/x.js"></script>',
        '<script src="//evil.example/x.js"></script>',
        '<script src="/elsewhere/assets/core.js"></script>',  # another site on the host (a preview)
        "<script>alert(1)</script>",
        '<SCRIPT SRC="../../../../assets/core.js" integrity="sha256-x">',
    ):
        with pytest.raises(csp.ScriptError):
            csp.with_integrity(refused, "recipes/m/g/r/index.html", integrities, "/openrecipes/", present)
    # A script the site names but did not make (serving broken data) loads nothing either way.
    missing = '<script src="../../../../assets/facets.js"></script>'
    assert csp.with_integrity(missing, "recipes/m/g/r/index.html", integrities, "/openrecipes/", present) == missing


def test_the_policy_lists_hashes_and_no_place() -> None:
    policy = csp.policy([_integrity(b"b"), _integrity(b"a"), _integrity(b"a")])
    directives = dict(part.split(" ", 1) for part in policy.split("; "))
    assert directives["script-src"] == " ".join(sorted(f"'{_integrity(c)}'" for c in (b"a", b"b")))
    assert "'self'" not in directives["script-src"] and "unsafe" not in directives["script-src"]
    assert directives["object-src"] == "'none'" and directives["base-uri"] == "'none'"
    assert csp.policy([]).count("script-src 'none'") == 1
    assert not csp.is_script("assets/javascripts/workers/search.js") and csp.is_script("assets/vendor/diff.min.js")
    assert not csp.is_script("recipes/a/b/c/launch.sh") and not csp.is_script("charts/x.js")
    listing = csp.integrity_script({"assets/javascripts/plotly.min.js": "sha256-p", "assets/core.js": "sha256-c"})
    assert json.loads(listing.split(".integrity = ", 1)[1].rstrip(";\n")) == {
        "assets/javascripts/plotly.min.js": "sha256-p"
    }


# --- the theme ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("partial", "escaped"),
    [
        (
            "partials/header.html",
            {"{{ page.meta.title }}": "{{ page.meta.title | e }}", "{{ page.title }}": "{{ page.title | e }}"},
        ),
        (
            "partials/content.html",
            {
                "{{ page.title | d(config.site_name, true)}}": "{{ page.title | d(config.site_name, true) | e }}",
            },
        ),
    ],
)
def test_the_overridden_partials_are_the_themes_with_titles_escaped(partial: str, escaped: dict[str, str]) -> None:
    """The header and content partials are Material's, but for the escapes: a Material upgrade that
    changes them fails here, to be taken over again."""
    ours = (REPO / "overrides" / partial).read_text(encoding="utf-8")
    theirs = (MATERIAL / partial).read_text(encoding="utf-8")
    theirs = re.sub(r"\A\{#-.*?-#\}\n", "", theirs, flags=re.S)
    ours = re.sub(r"\A\{#-.*?-#\}\n", "", ours, flags=re.S)
    for raw, safe in escaped.items():
        assert theirs.count(raw) == 1
        theirs = theirs.replace(raw, safe)
    assert ours == theirs


@pytest.mark.site
def test_titles_descriptions_and_search_entries_are_text(project: Project) -> None:
    """With the key rule taken out of the project's schema, a GPU key holding markup reaches the
    title, header, description and search index of its page: each shows it as text."""
    schema = project.root / "schema/reference.schema.yaml"
    text = schema.read_text(encoding="utf-8").replace("    propertyNames: {$ref: '#/$defs/key'}\n", "")
    text = text.replace("items: {$ref: '#/$defs/key'}", "items: {type: string}")
    schema.write_text(text, encoding="utf-8")
    hostile = "X9</title><script>alert(1)</script><meta http-equiv=refresh content=0;url=//evil.example>&amp;"
    gpus = project.root / "reference/gpus.yaml"
    text = gpus.read_text(encoding="utf-8").replace("H100-PCIe:\n", json.dumps(hostile) + ":\n", 1)
    gpus.write_text(text.replace("  aliases: [H100 PCIe]\n", "  aliases: [X9]\n", 1), encoding="utf-8")
    data = project.add_synthetic("llama-3.1-70b/x9/run", gpu="H100-PCIe", instance=None)  # X9's figures
    data["gpu"]["type"] = "X9"
    project.add("llama-3.1-70b/x9/run", data)
    result = project.build()
    assert result.ok, result.log
    pages = [path for path in result.site.rglob("*.html") if hostile[:3] in path.read_text(encoding="utf-8")]
    assert pages
    for path in pages:
        html = path.read_text(encoding="utf-8")
        parsed = parse(html)
        assert [tag for tag, _ in parsed.elements].count("title") == 1
        assert not any(
            tag == "script" and not attrs.get("src") and attrs.get("type") != "application/json"
            for tag, attrs in parsed.elements
        ), path
        assert not any(tag == "meta" and attrs.get("http-equiv") == "refresh" for tag, attrs in parsed.elements)
    index = json.loads((result.site / "search/search_index.json").read_text(encoding="utf-8"))
    for entry in index["docs"]:
        # The search box shows a title as markup: a title holding the key shows it as text.
        if "X9" in entry["title"]:
            assert "<script>" not in entry["title"] and "<meta" not in entry["title"], entry["title"]
