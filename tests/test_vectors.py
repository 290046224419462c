"""The Python side and the page scripts agree, checked without a browser: tests/vectors/*.json are
what the Python side makes of each case (tests/vectors/make.py), and `node --test tests/js/` holds
docs/assets/*.js to them. Node is needed for the second half: without it the test is skipped, except
in CI (`CI` set), where it fails (.ci/run installs Debian's nodejs)."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import pytest
from conftest import BuildResult

from openrecipes.checking import pricebasis
from openrecipes.reading.reference import Reference

REPO = Path(__file__).resolve().parent.parent
VECTORS = REPO / "tests" / "vectors"
JS_TESTS = REPO / "tests" / "js"
IN_CI = os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")
NODE_MAJOR = 18
"""node:test, its TAP reporter and structuredClone: Debian 12's nodejs (18.19) has them."""


def _make() -> Any:
    spec = importlib.util.spec_from_file_location("vectors_make", VECTORS / "make.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


make = _make()


def test_the_vectors_are_what_the_python_side_makes() -> None:
    expected = make.texts()
    assert sorted(path.name for path in VECTORS.glob("*.json")) == sorted(expected)
    for name, text in expected.items():
        assert (VECTORS / name).read_text(encoding="utf-8") == text, (
            f"tests/vectors/{name} is not what the Python side makes now: run `.venv/bin/python tests/vectors/make.py`,"
            " then `node --test tests/js/` to see whether the page scripts agree"
        )


def _shape(data: dict[str, Any]) -> tuple[Any, ...]:
    """The names and types of assets/prices.json's fields, at every level."""

    def fields(value: dict[str, Any]) -> dict[str, str]:
        return {key: type(item).__name__ for key, item in value.items()}

    presets = {repr(fields(preset)) for preset in data["presets"]}
    prices = {repr(fields(price)) for preset in data["presets"] for price in preset["prices"].values()}
    return fields(data), presets, prices, {type(gpu).__name__ for gpu in data["gpus"]}


def test_the_vectors_price_data_has_the_shape_of_assets_prices_json(reference: Reference) -> None:
    """price.js is given made-up prices (the arithmetic is the point), in the real file's shape."""
    made, real = make.price_data(), pricebasis.price_data(reference)
    assert _shape(made) == _shape(real)
    assert [preset["key"] for preset in made["presets"]] == [preset["key"] for preset in real["presets"]]
    assert made["default"] == real["default"]


def _node() -> str:
    node = shutil.which("node") or shutil.which("nodejs")
    problem = None
    if node is None:
        problem = "Node is not installed (apt-get install nodejs)"
    else:
        version = subprocess.run([node, "--version"], capture_output=True, text=True, check=False).stdout.strip()
        found = re.fullmatch(r"v(\d+)\..*", version)
        if not found or int(found.group(1)) < NODE_MAJOR:
            problem = f"Node {version or '?'} is older than {NODE_MAJOR} (apt-get install nodejs)"
    if problem is not None:
        if IN_CI:
            pytest.fail(f"CI must check the page scripts against the Python side, but {problem}", pytrace=False)
        pytest.skip(f"the page scripts are not checked against the Python side: {problem}")
    assert node is not None
    return node


def test_the_page_scripts_agree_with_the_python_side() -> None:
    """`node --test tests/js/`: every case of every vector file, in the scripts as shipped."""
    node = _node()
    files = sorted(str(path.relative_to(REPO)) for path in JS_TESTS.glob("*.test.mjs"))
    assert files, "no tests in tests/js"
    run = subprocess.run(
        [node, "--test", "--test-reporter=tap", *files],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, "NO_COLOR": "1"},
    )
    output = run.stdout + run.stderr
    counts = dict(re.findall(r"^# (pass|fail|cancelled) (\d+)$", output, flags=re.MULTILINE))
    failures = "\n".join(line for line in output.splitlines() if line.startswith("not ok"))
    assert run.returncode == 0 and counts.get("fail") == "0" and counts.get("cancelled") == "0", (
        f"node --test tests/js/ failed ({counts}):\n{failures}\n\n{output[-6000:]}"
    )
    assert int(counts.get("pass", "0")) >= len(files)


# -- the catalogue table's rows -----------------------------------------------------------------------

Node = list[Any]
"""An element as [tag, {attribute: value}, [children]], text as a string (tests/js/harness.mjs `tree`)."""


class _Tables(HTMLParser):
    """The catalogue tables' header cells and rows of a page, as trees."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.columns: list[dict[str, Any]] = []
        self.rows: list[Node] = []
        self.open: list[Node] = []
        self.header: dict[str, Any] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {name: value or "" for name, value in attrs}
        if tag == "th" and "data-key" in attributes:
            self.header = {
                "key": attributes["data-key"],
                "label": "",
                "cell": attributes.get("data-cell", "text"),
                "numeric": attributes.get("data-type") == "number",
            }
        if tag == "tr" and "data-recipe" in attributes:
            self.open = [[tag, attributes, []]]
        elif self.open:
            node: Node = [tag, attributes, []]
            self.open[-1][2].append(node)
            self.open.append(node)

    def handle_endtag(self, tag: str) -> None:
        if tag == "th" and self.header is not None:
            self.columns.append(self.header)
            self.header = None
        if self.open:
            node = self.open.pop()
            assert node[0] == tag, (node, tag)
            if not self.open:
                self.rows.append(node)

    def handle_data(self, data: str) -> None:
        if self.header is not None:
            self.header["label"] += data
        if not self.open:
            return
        if self.open[-1][0] == "tr" and not data.strip():
            return  # the template's line breaks between cells
        children = self.open[-1][2]
        if children and isinstance(children[-1], str):
            children[-1] += data
        else:
            children.append(data)


def _comparable(node: Node | str, page: str, site: str) -> Any:
    """`node` with numbers as numbers (Python writes 5000.0 where JavaScript writes 5000), links
    as addresses from the site's root, and without the title the script gives a price."""
    if isinstance(node, str):
        return node
    tag, attributes, children = node
    out: dict[str, Any] = {}
    for name, value in attributes.items():
        if name == "title" and "data-usd-per-mtok" in attributes:
            continue
        if name == "href":
            value = urljoin(site + page, value).removeprefix(site)
        elif re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", value):
            value = float(value)
        out[name] = value
    return [tag, out, [_comparable(child, page, site) for child in children]]


def test_table_js_draws_each_row_as_the_build_writes_it(seed_site: BuildResult) -> None:
    """The home page and a model's or GPU type's page with many recipes hold their first rows, and
    table.js draws the others from assets/catalogue-rows.json: every row of every table the build
    wrote, drawn by the script from the data at the default basis, is the same row."""
    node = _node()
    tables: dict[str, _Tables] = {}
    for path in sorted(seed_site.site.rglob("index.html")):
        text = path.read_text(encoding="utf-8")
        if "data-or-catalogue" in text:
            parser = _Tables()
            parser.feed(text)
            tables[path.parent.relative_to(seed_site.site).as_posix() + "/"] = parser
    columns = tables["./"].columns
    assert columns and all(table.columns == columns for table in tables.values())
    run = subprocess.run(
        [node, str(JS_TESTS / "rows.mjs"), str(seed_site.site)],
        input=json.dumps(columns),
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    drawn = json.loads(run.stdout)
    assert drawn["warnings"] == []
    site = drawn["site"]
    compared = 0
    for page, table in tables.items():
        page = "" if page == "./" else page
        for row in table.rows:
            recipe = row[1]["data-recipe"]
            assert _comparable(drawn["rows"][recipe], "", site) == _comparable(row, page, site), (page, recipe)
            compared += 1
    assert compared > len(drawn["rows"])  # every row at least once, most on two or three pages
