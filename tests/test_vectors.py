"""The Python side and the page scripts agree, checked without a browser: tests/vectors/*.json are
what the Python side makes of each case (tests/vectors/make.py), and `node --test tests/js/` holds
docs/assets/*.js to them. Node is needed for the second half: without it the test is skipped, except
in CI (`CI` set), where it fails (.ci/run installs Debian's nodejs)."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

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
