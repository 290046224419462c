"""Every release of Megatron-Bridge's performance summary, superseded rows, first-published dates (issue 22).

The publisher's files are copies at the pinned commits (tests/importer_fixtures/megatron-bridge-releases:
the release tags and every earlier version of the performance summary), committed to a scratch
repository in upstream's order by test_importers' `release_repo`; the import runs on it, never on
the catalogue's recipes.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import subprocess
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
import yaml
from conftest import REPO, BuildResult, Project, parse
from test_importers import (  # noqa: F401 (release_repo, tt_repo and mb_repo are fixtures)
    FIXTURES,
    IMPORTED_AT,
    RELEASES,
    ReleaseRepo,
    _import_args,
    _launch_import,
    commit,
    fixture_files,
    mb_repo,
    new_repo,
    release_repo,
    run,
    tt_repo,
)

from openrecipes.importers import megatron_bridge as mb
from openrecipes.importers import megatron_bridge_launch, megatron_bridge_recipes, supersede, torchtitan_recipes
from openrecipes.importers.gitsource import GitSource

UPSTREAM = "https://github.com/NVIDIA-NeMo/Megatron-Bridge/blob"
STALE = "qwen3-30b-a3b/b200/mb-25.11-mxfp8-8gpu"
SUCCESSOR = "qwen3-30b-a3b/b200/mb-26.04.01-mxfp8-8gpu"
FIRST_25_11 = "97ad8cc6fb27a58bb79ff51ce73897c3887aa2c6"  # 2025-12-04: "Added 25.11 starter pack"


@pytest.fixture(scope="module")
def imported(release_repo: ReleaseRepo) -> dict[str, dict[str, Any]]:  # noqa: F811
    """Every release's recipes as the import makes them from the copies, commits as upstream's."""
    index_commit, path = megatron_bridge_launch.VERSION_INDEX
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(megatron_bridge_launch, "VERSION_INDEX", (release_repo.scratch[index_commit], path))
        made = _launch_import(release_repo)
    return yaml.safe_load(release_repo.as_upstream(yaml.safe_dump(made, allow_unicode=True, sort_keys=False)))


def _release(recipe_id: str) -> str:
    return recipe_id.rsplit("/", 1)[1].split("-")[1]


def test_every_release_the_page_prints_is_imported_or_said_why(
    capsys: pytest.CaptureFixture[str],
    project: Project,
    release_repo: ReleaseRepo,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
    imported: dict[str, dict[str, Any]],
) -> None:
    assert {_release(recipe_id) for recipe_id in imported} == {
        "25.11", "26.02", "26.02.01", "26.04", "26.04.01", "26.06", "26.06.01", "26.08",
    }  # fmt: skip
    index_commit, path = megatron_bridge_launch.VERSION_INDEX
    monkeypatch.setattr(megatron_bridge_launch, "VERSION_INDEX", (release_repo.scratch[index_commit], path))
    args = _import_args(release_repo.repo, "megatron-bridge", "--commit", release_repo.scratch[IMPORTED_AT])
    code, _, err = run(capsys, "--root", project.root, *args, "--check")
    assert code == 1  # the project holds none of them
    assert (
        "not imported: release 25.09 (docs/performance-summary-archive.md:599): the 25.09 tables have no Precision "
        "column: the precision is not published (all 17 rows)"
    ) in err.splitlines()
    assert err.splitlines()[-1].startswith(
        "265 added, 0 changed, 0 removed, 0 unchanged, 28 rows skipped, 1 release not imported"
    )
    # Asked for alone, 25.09 makes nothing and says why.
    code, out, err = run(capsys, "--root", project.root, *args, "--release", "25.09", "--check")
    assert code == 0 and out == ""
    assert "not imported: release 25.09" in err and "0 added" in err.splitlines()[-1]


def test_the_stale_row_is_deprecated_by_the_newer_release(imported: dict[str, dict[str, Any]]) -> None:
    stale = imported[STALE]
    assert stale["status"] == "deprecated" and stale["result"]["tokens_per_s_per_gpu"] == 9299
    assert (
        imported[SUCCESSOR]["status"] == "published" and imported[SUCCESSOR]["result"]["tokens_per_s_per_gpu"] == 27136
    )
    assert stale["deprecation"] == {
        "reason": "Superseded by the 26.04.01 release's row for the same configuration (Qwen3_30B_a3B, DGX-B200, "
        "8 GPUs, mxfp8, pre-training, sequence length 4,096): 27,136 tokens/s per GPU (this row: 9,299). The rule: "
        "a newer release that publishes the same model, system, GPU count, precision, training method and sequence "
        "length supersedes the older row; layout and batch sizes may differ, as releases retune them.",
        "superseded_by": SUCCESSOR,
    }
    # Every older release's row of that configuration points at the newest, not at the next release.
    for release in ("26.02", "26.02.01", "26.04"):
        older = imported[f"qwen3-30b-a3b/b200/mb-{release}-mxfp8-8gpu"]
        assert older["deprecation"]["superseded_by"] == SUCCESSOR
    # 25.11's FP8-CS against 26.x's FP8, whose scaling only the release's configuration states.
    fp8 = imported["llama-3-70b/h100/mb-25.11-fp8cs-64gpu"]["deprecation"]
    assert fp8["superseded_by"] == "llama-3-70b/h100/mb-26.04.01-fp8-64gpu"
    assert fp8["reason"].endswith(
        "The precision as read for 26.04.01: the page prints FP8 without its scaling; the configuration "
        "Megatron-Bridge's launcher loads for the row at v0.4.2 is LLAMA3_70B_PRETRAIN_CONFIG_H100_FP8_CS_V2 "
        "(-c fp8_cs, tensorwise current scaling)."
    )
    # Not superseded: no newer release publishes Llama 3 8B on B200, nor GPT-OSS on GB200 at 8,192 tokens.
    assert imported["llama-3-8b/b200/mb-25.11-fp8cs-8gpu"]["status"] == "published"
    assert imported["gpt-oss-120b/gb200/mb-25.11-bf16-64gpu"]["status"] == "published"
    assert imported["gpt-oss-120b/gb200/mb-25.11-bf16-64gpu"]["workload"]["row_tokens"] == 8192
    # Of each configuration exactly one recipe, the newest release's, stays published.
    for recipe_id, data in imported.items():
        if data["status"] == "deprecated":
            successor = imported[data["deprecation"]["superseded_by"]]
            assert successor["status"] == "published", recipe_id
            newer = mb.release_key(_release(data["deprecation"]["superseded_by"]))
            assert newer > mb.release_key(_release(recipe_id)), recipe_id


def test_first_published_is_the_first_commit_whose_file_holds_the_row(imported: dict[str, dict[str, Any]]) -> None:
    stale = imported[STALE]["source"]
    assert stale["published"] == dt.date(2026, 8, 11)  # the file's last change: the pin
    assert stale["url"] == f"{UPSTREAM}/{IMPORTED_AT}/docs/performance-summary-archive.md#L582"
    assert stale["first_published"] == {
        "date": dt.date(2025, 12, 4),
        "commit": FIRST_25_11,
        "url": f"{UPSTREAM}/{FIRST_25_11}/docs/performance-summary.md#L81",
    }
    first = (RELEASES / FIRST_25_11 / "docs/performance-summary.md").read_text(encoding="utf-8").splitlines()
    assert first[80] == "| Qwen3_30B_a3B | 8 | FP8-MX | 512 | 1 | 4096 | 0 | 1 | 1 | 1 | 1 | 8 | 64 | 9299 | 214 |"
    # The commit before it printed no 25.11 release.
    before = "fa0315ae2684693a666be9d247adf9baf1e30028"
    assert "## 25.11 NeMo Container" not in (RELEASES / before / "docs/performance-summary.md").read_text()
    # A row printed with other values first (DeepSeekV3 on GB200, later qualified "w/o MTP" with
    # another layout) was first published when these values were.
    renamed = imported["deepseek-v3/gb200/mb-25.11-bf16-256gpu-wo-mtp"]["source"]["first_published"]
    assert (renamed["date"], renamed["commit"][:9]) == (dt.date(2025, 12, 9), "1804c076f")
    # A 26.08 row first appeared in the imported commit itself.
    newest = imported["deepseek-v3/gb200/mb-26.08-mxfp8-256gpu"]["source"]["first_published"]
    assert newest["commit"] == IMPORTED_AT and newest["date"] == dt.date(2026, 8, 11)
    # No row first appears after the commit its URL is pinned at.
    for recipe_id, data in imported.items():
        assert data["source"]["first_published"]["date"] <= data["source"]["published"], recipe_id


def test_a_past_version_is_read_row_by_row() -> None:
    """25.11's first version printed `32 64` in a GA cell: the strict reader stops there, the history
    reader leaves that row out and reads every other."""
    text = (RELEASES / FIRST_25_11 / "docs/performance-summary.md").read_text(encoding="utf-8")
    with pytest.raises(mb.ParseError, match=r"docs/performance-summary.md:68: ga '32 64' is not a whole number"):
        mb.parse_page("docs/performance-summary.md", text)
    page = mb.parse_page("docs/performance-summary.md", text, lenient=True)
    lines = {row.line for row in page.rows}
    assert 68 not in lines and {67, 69, 81} <= lines
    assert page.releases == ("25.11",)


def test_a_version_that_cannot_be_read_is_named_in_the_recipe(tmp_path: Path) -> None:
    repo = new_repo(tmp_path, "megatron-bridge")
    files = fixture_files(FIXTURES / "megatron-bridge")
    broken = files["docs/performance-summary.md"].replace("## Archive", "## 27.02 NeMo Container\n\n## Archive")
    first = commit(repo, {**files, "docs/performance-summary.md": broken}, "draft", "2099-01-05T00:00:00Z")
    fixed = commit(repo, files, "fix", "2099-01-06T00:00:00Z")
    made = megatron_bridge_recipes.build(GitSource.open(repo, fixed), ["27.02"])
    recipe = next(planned.data for planned in made.recipes if planned.id == "deepseek-v3/gb300/mb-27.02-mxfp8-256gpu")
    assert recipe["source"]["first_published"]["commit"] == fixed
    assert (
        f"- First published: versions of the file before the first one found to hold this row could not be read "
        f"(docs/performance-summary.md at {first[:12]}, 2099-01-05: docs/performance-summary.md:"
    ) in recipe["notes"]
    assert "release 27.02 appears twice); the row may have been printed earlier.\n" in recipe["notes"]
    # A 26.12 row the draft's archive printed was read there: the archive page of that commit was readable.
    older = next(planned.data for planned in made.recipes if planned.id.endswith("mb-27.02-fp8-64gpu"))
    assert older["source"]["first_published"]["commit"] == fixed


def test_a_shallow_clone_is_refused_rather_than_dated_by_its_cut(
    capsys: pytest.CaptureFixture[str], project: Project, tmp_path: Path
) -> None:
    repo = new_repo(tmp_path, "megatron-bridge")
    files = fixture_files(FIXTURES / "megatron-bridge")
    commit(repo, files, "first", "2099-01-05T00:00:00Z")
    commit(repo, {"docs/releases/notes.md": "later\n"}, "second", "2099-01-06T00:00:00Z")
    shallow = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{repo}", str(shallow)], check=True)
    code, out, err = run(capsys, "--root", project.root, *_import_args(shallow, "megatron-bridge"), "--check")
    assert (code, out) == (2, "")
    assert "a shallow clone; first-published dates need the whole history of docs/performance-summary.md" in err
    assert "Traceback" not in err


def test_torchtitan_rows_carry_the_commit_that_first_published_them(tt_repo: tuple[Path, str, str, str]) -> None:  # noqa: F811
    repo, _, published, latest = tt_repo
    recipes = {planned.id: planned.data for planned in torchtitan_recipes.build(GitSource.open(repo, latest)).recipes}
    trainy = recipes["llama-3.1-8b/h200/tt-209906-trainy-whitefiber-fp8-32gpu"]["source"]
    assert latest in trainy["url"] and trainy["published"] == dt.date(2099, 9, 30)
    assert trainy["first_published"]["commit"] == published
    assert trainy["first_published"]["date"] == dt.date(2099, 7, 11)
    assert trainy["first_published"]["url"].startswith(
        f"https://github.com/pytorch/torchtitan/blob/{published}/benchmarks/llama3-8b_h200_209906_trainy-whitefiber.md#L"
    )


@pytest.fixture
def built(project: Project, imported: dict[str, dict[str, Any]]) -> BuildResult:
    project.add(STALE, imported[STALE])
    project.add(SUCCESSOR, imported[SUCCESSOR])
    project.add_seed()
    result = project.build()
    assert result.ok, result.log
    return result


def _text(html: str) -> str:
    return " ".join("".join(parse(html).text).split())


@pytest.mark.site
def test_the_recipe_page_and_exports_show_the_first_published_date(built: BuildResult) -> None:
    page = built.html(f"recipes/{STALE}/")
    text = _text(page)
    assert "(first published 2025-12-04; cited as of 2026-08-11)" in text
    assert (
        "First published 2025-12-04, in commit 97ad8cc6fb27 (the first of the publisher's history whose file holds "
        "this row with these values); the link above is pinned at the file's last change, 2026-08-11."
    ) in text
    links = [attrs.get("href") for tag, attrs in parse(page).elements if tag == "a"]
    assert f"{UPSTREAM}/{FIRST_25_11}/docs/performance-summary.md#L81" in links
    assert "Superseded by the 26.04.01 release's row for the same configuration" in text
    rows = {row["id"]: row for row in csv.DictReader(io.StringIO((built.site / "api/recipes.csv").read_text()))}
    assert (rows[STALE]["first_published"], rows[STALE]["first_published_commit"]) == ("2025-12-04", FIRST_25_11)
    assert rows[SUCCESSOR]["first_published"] == "2026-05-16"
    seed = next(row for row in rows.values() if row["id"] not in (STALE, SUCCESSOR))
    assert seed["first_published"] == "" and seed["first_published_commit"] == ""
    record = json.loads((built.site / f"api/recipes/{STALE}.json").read_text(encoding="utf-8"))
    assert record["fields"]["source"]["first_published"] == {
        "date": "2025-12-04",
        "commit": FIRST_25_11,
        "url": f"{UPSTREAM}/{FIRST_25_11}/docs/performance-summary.md#L81",
    }
    assert record["fields"]["deprecation"]["superseded_by"] == SUCCESSOR
    # The feed dates a published row by its first appearance, not by its file's last change.
    feed = ElementTree.fromstring((built.site / "feed.xml").read_bytes())
    atom = "{http://www.w3.org/2005/Atom}"
    updated = {entry.findtext(f"{atom}id"): entry.findtext(f"{atom}updated") for entry in feed.iter(f"{atom}entry")}
    assert updated[f"urn:openrecipes:recipe:{STALE}"].startswith("2025-12-04")
    assert updated[f"urn:openrecipes:recipe:{SUCCESSOR}"].startswith("2026-05-16")


@pytest.mark.site
def test_the_supersede_rule_is_stated_where_it_is_applied(built: BuildResult) -> None:
    """The rule's words (supersede.RULE, the reason's) are what Methodology and the README state."""
    assert f"a newer release that publishes the {supersede.RULE} supersedes the older row" in _text(
        built.html("methodology/")
    )
    readme = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    assert f"a newer release that publishes the {supersede.RULE} supersedes the older row" in readme
    assert "not imported: release 25.09" in readme


def test_a_patch_releases_image_is_named_as_the_readme_names_one(imported: dict[str, dict[str, Any]]) -> None:
    """The README's rule gives XX.YY releases an image; its own example of a patch release
    (`nvcr.io/nvidia/nemo:25.11.01`) names one by its whole release, so 26.04.01's is `…:26.04.01`."""
    launch = imported[SUCCESSOR]["launch"]
    assert launch["container"] == "nvcr.io/nvidia/nemo:26.04.01"
    assert "  -i nvcr.io/nvidia/nemo:26.04.01 \\\n" in launch["command"]
    assert "CONTAINER_IMAGE" not in [item["name"] for item in launch["inputs"]]
    cited = next(
        item for item in launch["source"]["files"] if item["what"] == "a patch release's image, as the README names one"
    )
    assert cited == {
        "path": "scripts/performance/README.md",
        "lines": [48, 48],
        "what": "a patch release's image, as the README names one",
        "url": f"{UPSTREAM}/{launch['source']['commit']}/scripts/performance/README.md#L48",
    }
    readme = RELEASES / launch["source"]["commit"] / "scripts/performance/README.md"
    assert readme.read_text(encoding="utf-8").splitlines()[47] == 'CONTAINER="nvcr.io/nvidia/nemo:25.11.01"'
    assert "its own example of a patch release at this revision, nvcr.io/nvidia/nemo:25.11.01 (line 48)" in launch[
        "notes"
    ].replace("\n", " ")
