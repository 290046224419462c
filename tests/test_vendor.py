"""The vendored browser libraries are exactly the files their README records, licence included."""

from __future__ import annotations

import hashlib
import re

from conftest import REPO

VENDOR = REPO / "docs/assets/vendor"


def _recorded() -> dict[str, str]:
    """File name -> sha256, from the README's table (first column the file, last its sha256)."""
    rows = re.findall(r"^\| `([^`]+)` \|.*\| `([0-9a-f]{64})` \|$", (VENDOR / "README.md").read_text("utf-8"), re.M)
    return dict(rows)


def test_every_vendored_file_is_the_one_its_readme_records() -> None:
    recorded = _recorded()
    present = {path.name for path in VENDOR.iterdir() if path.name != "README.md"}
    assert recorded.keys() == present
    for name, sha256 in recorded.items():
        assert hashlib.sha256((VENDOR / name).read_bytes()).hexdigest() == sha256, name


def test_each_library_has_its_licence_and_exact_version_recorded() -> None:
    readme = (VENDOR / "README.md").read_text("utf-8")
    assert "diff.LICENSE" in _recorded()
    assert (VENDOR / "diff.LICENSE").read_text("utf-8").startswith("BSD 3-Clause License")
    row = next(line for line in readme.splitlines() if line.startswith("| `diff.min.js` |"))
    version = row.split(" | ")[2]
    assert re.fullmatch(r"\d+\.\d+\.\d+", version), version
    assert re.search(r"`sha512-[A-Za-z0-9+/]{86}==`", row)
