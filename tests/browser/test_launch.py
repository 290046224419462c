"""Launches in Chromium (issue 21): a documented command copied byte for byte, hostile launch text
inert, the Launch section on a phone reachable by keyboard (axe), and compare's launch diffs.

The site holds the frozen Megatron-Bridge, torchtitan and MLPerf recipes with their launches, and
a recipe whose documented launch is written to attack the page: markup and script in the command,
the checkout, each input's description and origin, the environment, the cited files and the notes.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest
import yaml
from conftest import FIXTURES, Project, copy_project

from openrecipes.reading.reference import Reference
from openrecipes_tools import chromium

from .conftest import Watch, project_served_at, watched_tab

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

DEEPSEEK = "deepseek-v3/gb200/mb-26.08-mxfp8-256gpu"
NANO_A = "nemotron-3-nano-30b-a3b/gb200/mb-26.06-mxfp8-8gpu"
NANO_B = "nemotron-3-nano-30b-a3b/gb200/mb-26.06.01-mxfp8-8gpu"
MLPERF = "llama-2-70b/h100/mlperf-4.0-nvidia-fp8-8gpu"
NONE = "llama-3.1-8b/h100-96gb/tt-202412-torchtitan-fp8-8gpu-fsdp8-cp1"
NONE_TOO = "llama-3.1-8b/h100-96gb/tt-202412-copy"
HOSTILE = "llama-2-70b/h100/hostile-launch"
FROZEN = (DEEPSEEK, NANO_A, NANO_B, MLPERF, NONE)

ATTACK = '</code></pre><script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">'
MARKDOWN_ATTACK = '<img src=x onerror="window.__pwned=3"> [click](javascript:window.__pwned=4) **bold**'


def frozen(recipe_id: str) -> dict[str, Any]:
    return yaml.safe_load((FIXTURES / "recipes" / f"{recipe_id}.yaml").read_text(encoding="utf-8"))


def hostile_recipe() -> dict[str, Any]:
    data = frozen(MLPERF)
    launch = data["launch"]
    # A checkout clones what the launch cites (reading/launchsafety.py): the attack is in its comment.
    source = launch["source"]
    launch["checkout"] = (
        f"git clone https://github.com/{source['repository']}.git  # {ATTACK}\n"
        f"cd {source['repository'].split('/')[1]}\ngit switch --detach {source['commit']}\n"
    )
    launch["command"] = f'echo "{ATTACK}"\necho "$SLURM_ACCOUNT"\n'
    launch["container"] = f"registry.example/{ATTACK}"
    launch["env"] = {"ATTACK": ATTACK, "QUOTES": "'\"`$(id)`"}
    # The markup in the command reads as placeholders (issue 28): each is an input, described hostilely too.
    launch["inputs"] = [
        {"name": "SLURM_ACCOUNT", "description": MARKDOWN_ATTACK, "origin": f"{MARKDOWN_ATTACK} {ATTACK}"},
        *({"name": name, "description": ATTACK} for name in ("</code>", "</pre>", "<script>", "</script>")),
    ]
    launch["source"]["files"][0]["what"] = ATTACK
    launch["notes"] = f"{ATTACK} {MARKDOWN_ATTACK}"
    return data


@pytest.fixture(scope="module")
def launch_site(
    chromium_available: None, tmp_path_factory: pytest.TempPathFactory, reference: Reference
) -> Iterator[str]:
    base = tmp_path_factory.mktemp("launch")
    site_dir = base / "site"
    site_dir.mkdir()
    with chromium.serving(site_dir) as url:
        project = Project(copy_project(base / "project"), reference)
        project_served_at(project, url)
        for recipe_id in FROZEN:
            project.add_fixture(recipe_id)
        project.add(HOSTILE, hostile_recipe())
        project.add(NONE_TOO, frozen(NONE))
        project.add_seed()
        result = project.build()
        assert result.ok, result.log
        shutil.rmtree(site_dir)
        shutil.move(result.site, site_dir)
        yield url


@pytest.fixture
def tab(browser_context: Any, launch_site: str, watch: Watch) -> Iterator[Any]:
    browser_context.grant_permissions(["clipboard-read", "clipboard-write"], origin=launch_site.rstrip("/"))
    with watched_tab(browser_context, launch_site, watch) as opened:
        yield opened


def copy(tab: Any, selector: str) -> str:
    tab.evaluate("navigator.clipboard.writeText('')")
    block = tab.locator(selector)
    block.hover()
    block.locator("button.md-code__button[data-md-type='copy']").click()
    tab.wait_for_function("async () => (await navigator.clipboard.readText()) !== ''")
    return tab.evaluate("navigator.clipboard.readText()")


def test_the_copy_buttons_copy_a_documented_launch_byte_for_byte(tab: Any, launch_site: str) -> None:
    launch = frozen(DEEPSEEK)["launch"]
    tab.goto(f"{launch_site}recipes/{DEEPSEEK}/")
    # Material trims the trailing newline; everything else byte for byte.
    assert copy(tab, "div.highlight[data-or-file='command']").encode() == launch["command"].rstrip().encode()
    assert copy(tab, "div.highlight[data-or-file='checkout']").encode() == launch["checkout"].rstrip().encode()
    env = "".join(f"export {name}={value}\n" for name, value in launch["env"].items())
    assert copy(tab, "div.highlight[data-or-file='env.sh']") == env.rstrip()
    # The download is the launch.sh shown on the page.
    shown = tab.locator("details.or-launch-script div.highlight[data-or-file='launch.sh']").text_content()
    served = tab.evaluate("async (url) => (await fetch(url)).text()", f"{launch_site}recipes/{DEEPSEEK}/launch.sh")
    assert shown == served


def test_hostile_launch_text_is_text_in_chromium(tab: Any, launch_site: str) -> None:
    data = hostile_recipe()
    tab.goto(f"{launch_site}recipes/{HOSTILE}/")
    tab.wait_for_load_state("networkidle")
    for details in tab.locator("#launch ~ * details").all():
        details.evaluate("element => { element.open = true; }")
    tab.locator("table.or-inputs").hover()
    assert tab.evaluate("window.__pwned") is None
    section = tab.locator("article").inner_text()
    assert ATTACK in section  # each shown as written
    assert tab.locator("div.highlight[data-or-file='command']").text_content() == data["launch"]["command"]
    assert tab.locator("article script, article img[src='x'], article a[href^='javascript']").count() == 0
    # The inputs' descriptions are Markdown: bold is bold, raw HTML is text, a javascript: link no link.
    assert tab.locator("table.or-inputs strong").first.inner_text() == "bold"


@pytest.fixture
def phone_tab(touch_context: Any, launch_site: str, watch: Watch) -> Iterator[Any]:
    with watched_tab(touch_context, launch_site, watch) as opened:
        yield opened


@pytest.mark.parametrize("recipe_id", [DEEPSEEK, MLPERF])
def test_on_a_phone_the_launch_scrolls_in_regions_the_keyboard_reaches(
    phone_tab: Any, launch_site: str, recipe_id: str
) -> None:
    from axe_playwright_python.sync_playwright import Axe

    phone_tab.goto(f"{launch_site}recipes/{recipe_id}/")
    phone_tab.wait_for_load_state("networkidle")
    for details in phone_tab.locator("details.or-launch-script, details.or-cited").all():
        details.evaluate("element => { element.open = true; }")
    results = Axe().run(phone_tab, options={"runOnly": ["scrollable-region-focusable", "color-contrast"]}).response
    assert [(v["id"], [n["target"] for n in v["nodes"]]) for v in results["violations"]] == []
    # Nothing makes the page wider than the phone, and no command scrolls sideways: each wraps
    # (Material makes a scrolling code block focusable only where there is hover).
    assert phone_tab.evaluate("document.documentElement.scrollWidth") <= 390
    scrolling = phone_tab.eval_on_selector_all(
        "div.highlight pre > code", "codes => codes.filter(c => c.scrollWidth > c.clientWidth + 1).length"
    )
    assert scrolling == 0
    command = phone_tab.locator("div.highlight[data-or-file='command'] pre > code")
    assert command.bounding_box()["height"] > 20 * command.text_content().count("\n")  # long lines wrapped


def test_compare_diffs_two_documented_launches(tab: Any, launch_site: str) -> None:
    tab.goto(f"{launch_site}compare/?a={NANO_A}&b={NANO_B}")
    tab.wait_for_selector("[data-or-diff] .or-diff__line")
    title = tab.locator("[data-or-diff] h3").inner_text()
    # Each named with its readiness: neither configuration states the row's sequence length.
    assert title == f"Launch: {NANO_B} (differs from the row) against {NANO_A} (differs from the row)"
    changed = tab.eval_on_selector_all(
        "[data-or-diff] .or-diff__line[data-op='+']", "lines => lines.map(l => l.textContent)"
    )
    # 26.06.01 is launched from another Megatron-Bridge release than 26.06: its checkout differs.
    assert any(line.startswith("+git switch --detach") for line in changed), changed


def test_compare_says_which_recipe_has_no_launch(tab: Any, launch_site: str) -> None:
    reason = " ".join(frozen(NONE)["launch"]["reason"].split())
    tab.goto(f"{launch_site}compare/?a={DEEPSEEK}&b={NONE}")
    tab.wait_for_selector("[data-or-diff-kind='missing']")
    assert tab.locator("[data-or-diff-kind='missing'] p").inner_text() == (
        f"{NONE} has no launch: {reason} Nothing to compare its launch with."
    )
    # Neither has one: never "identical".
    tab.goto(f"{launch_site}compare/?a={NONE}&b={NONE_TOO}")
    tab.wait_for_selector("[data-or-diff-kind='missing']")
    assert tab.locator("[data-or-diff-kind='missing'] p").inner_text() == (
        f"Neither recipe has a launch to compare. {NONE} has no launch: {reason} {NONE_TOO} has no launch: {reason}"
    )
    assert tab.locator("[data-or-diff-kind='identical']").count() == 0


def test_compare_prices_the_time_to_train_at_the_basis(tab: Any, launch_site: str) -> None:
    """Cost to train is a compare figure like run cost: the GPU-hours of the time to train (its
    minutes × its GPUs) at the reader's price basis; a recipe without a time to train says so."""
    import json
    import urllib.request

    from openrecipes import fmt

    with urllib.request.urlopen(f"{launch_site}api/recipes/{MLPERF}.json") as response:
        record = json.load(response)
    minutes, gpus = record["fields"]["result"]["time_to_train"]["minutes"], record["fields"]["gpu"]["count"]
    assert record["derived"]["train_gpu_hours"] == minutes / 60 * gpus
    assert (
        record["derived"]["train_cost_usd"]
        == record["derived"]["train_gpu_hours"] * record["derived"]["usd_per_gpu_hour"]
    )
    tab.goto(f"{launch_site}compare/?a={MLPERF}&b={DEEPSEEK}")
    row = "[data-or-compare-figures] tr[data-metric='Cost to train'] td"
    tab.wait_for_function(f'() => document.querySelectorAll("{row}").length === 2')
    cells = tab.eval_on_selector_all(row, "cells => cells.map(c => c.innerText.trim())")
    assert cells == [fmt.usd(record["derived"]["train_cost_usd"]), "not published (no time to train)"]


def test_the_tables_cost_to_train_column_follows_the_price_basis(tab: Any, launch_site: str) -> None:
    """The catalogue's Cost to train column prices each time to train (minutes × GPUs) at the
    reader's basis, as the recipe page does; recipes without one sort last either way."""
    import json
    import urllib.request

    from openrecipes import fmt

    with urllib.request.urlopen(f"{launch_site}api/recipes/{MLPERF}.json") as response:
        hours = json.load(response)["derived"]["train_gpu_hours"]
    for direction in ("asc", "desc"):
        tab.goto(f"{launch_site}?sort=train_cost&dir={direction}&H100=2")
        cells = "[data-or-catalogue] tbody tr td[data-key='train_cost']"
        tab.wait_for_function(
            f'expected => document.querySelector("{cells}")?.textContent === expected', arg=fmt.usd(hours * 2)
        )
        texts = tab.eval_on_selector_all(cells, "cells => cells.map(c => c.textContent)")
        assert texts[:2] == [fmt.usd(hours * 2)] * 2, texts
        assert set(texts[2:]) == {"not published"}, texts
