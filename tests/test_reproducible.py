"""Two builds of the same commit are byte-identical, wherever, whenever and in whatever time zone
they are built, so a pull request's preview differs from main only where its recipes differ."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from conftest import SAMPLE, SEED, SEED_ID, Project, build_site, copy_project

from openrecipes.builddate import BuildDateError, build_date
from openrecipes.cli import main
from openrecipes.site.plan import plan_site

# 2026-10-15 11:00 UTC: already 2026-10-16 in Kiritimati (UTC+14), still 2026-10-14 at UTC-12.
INSTANT = int(dt.datetime(2026, 10, 15, 11, 0, tzinfo=dt.UTC).timestamp())
ZONES = ("Pacific/Kiritimati", "Etc/GMT+12", "UTC")


def _files(site: Path) -> dict[str, bytes]:
    return {path.relative_to(site).as_posix(): path.read_bytes() for path in sorted(site.rglob("*")) if path.is_file()}


@pytest.fixture
def time_zone(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str], None]]:
    """Sets the process's local time zone; restored afterwards."""

    def use(zone: str) -> None:
        monkeypatch.setenv("TZ", zone)
        time.tzset()

    yield use
    monkeypatch.undo()
    time.tzset()


@pytest.mark.build
def test_two_builds_in_different_folders_and_time_zones_are_identical(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, time_zone: Callable[[str], None]
) -> None:
    # MkDocs dates the sitemap by SOURCE_DATE_EPOCH when set (CI sets it to the commit's time).
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1800000000")
    time_zone("Pacific/Kiritimati")
    first = build_site(copy_project(tmp_path / "one" / "project", with_recipes=SAMPLE), tmp_path / "one" / "site")
    time_zone("Etc/GMT+12")
    second = build_site(copy_project(tmp_path / "two" / "checkout", with_recipes=SAMPLE), tmp_path / "two" / "site")
    assert first.ok and second.ok
    one, two = _files(first.site), _files(second.site)
    assert one.keys() == two.keys()
    assert [name for name in one if one[name] != two[name]] == []


def test_the_build_date_is_the_utc_date_in_every_time_zone(time_zone: Callable[[str], None]) -> None:
    for zone in ZONES:
        time_zone(zone)
        assert build_date({"SOURCE_DATE_EPOCH": str(INSTANT)}) == dt.date(2026, 10, 15), zone
        before = dt.datetime.now(dt.UTC).date()
        assert build_date({}) in (before, dt.datetime.now(dt.UTC).date()), zone


def _validate(capsys: pytest.CaptureFixture[str], project: Project) -> tuple[int, str, str]:
    """`openrecipes validate` of the project, in this process (its environment as the test set it)."""
    code = main(["validate", "--root", str(project.root)])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("value", ["", "yesterday", "1.5e9", "9" * 30])
def test_a_source_date_epoch_that_is_no_time_is_an_error(
    value: str, project: Project, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(BuildDateError):
        build_date({"SOURCE_DATE_EPOCH": value})
    project.add_seed()
    monkeypatch.setenv("SOURCE_DATE_EPOCH", value)
    code, out, _ = _validate(capsys, project)
    assert code == 1
    assert out.startswith("SOURCE_DATE_EPOCH: ") and "is not a time" in out


@pytest.mark.parametrize("zone", ZONES)
def test_validate_at_the_edge_of_the_day_does_not_depend_on_the_time_zone(
    project: Project,
    zone: str,
    monkeypatch: pytest.MonkeyPatch,
    time_zone: Callable[[str], None],
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(INSTANT))
    time_zone(zone)
    # Measured on the UTC date of the build: valid, though at UTC-12 it is still the day before.
    project.add(SEED_ID, SEED.replace("measured: 2026-10-14", "measured: 2026-10-15"))
    code, _, err = _validate(capsys, project)
    assert (code, err) == (0, "1 recipe valid, 1 warning\n")
    # Measured the next UTC day: refused, though in Kiritimati that day has begun.
    project.add(SEED_ID, SEED.replace("measured: 2026-10-14", "measured: 2026-10-16"))
    code, out, _ = _validate(capsys, project)
    assert code == 1
    assert "Measured date check failed: stated 2026-10-16, recomputed on or before 2026-10-15," in out


def test_no_page_or_export_shows_the_date_of_the_build(project: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    project.add_seed()
    texts = []
    # Days no reference source is dated: reference/ prints the dates its sources were read (as_of).
    for day in (dt.date(2029, 2, 28), dt.date(2031, 7, 19)):
        instant = dt.datetime(day.year, day.month, day.day, 12, tzinfo=dt.UTC)
        monkeypatch.setenv("SOURCE_DATE_EPOCH", str(int(instant.timestamp())))
        plan = plan_site(project.root)
        assert plan.problems == ()
        rendered = {output.src_uri: output.text() for output in plan.outputs}
        assert not [src for src, text in rendered.items() if day.isoformat() in text]
        texts.append(rendered)
    assert texts[0] == texts[1]
