"""Two builds of the same commit are byte-identical, wherever they are built, so a pull request's
preview differs from main only where its recipes differ."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import build_site, copy_project


def _files(site: Path) -> dict[str, bytes]:
    return {path.relative_to(site).as_posix(): path.read_bytes() for path in sorted(site.rglob("*")) if path.is_file()}


def test_two_builds_in_different_folders_are_identical(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # MkDocs dates the sitemap by SOURCE_DATE_EPOCH when set (CI sets it to the commit's time).
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1790000000")
    first = build_site(copy_project(tmp_path / "one" / "project", with_recipes=True), tmp_path / "one" / "site")
    second = build_site(copy_project(tmp_path / "two" / "checkout", with_recipes=True), tmp_path / "two" / "site")
    assert first.ok and second.ok
    one, two = _files(first.site), _files(second.site)
    assert one.keys() == two.keys()
    assert [name for name in one if one[name] != two[name]] == []
