"""Every recorded dry run (checks/dry-runs.yaml) holds: each current documented launch, run again
over the publishers' files the tests keep (the cited files copied in tests/importer_fixtures, and
`<commit>.paths` listing the files of the folders a launch works in), comes out as recorded over
the publishers' own repositories, as far as the copies go: a launch that runs a publisher's script
the tests do not keep agrees up to that script. So CI needs no network, and a record nobody can reproduce fails.

This is a test of the committed catalogue: it asserts what holds for any catalogue (every record
current and reproducible), not the outcome of any one launch."""

from __future__ import annotations

import pytest
from conftest import REPO

from openrecipes.checking import dryrun
from openrecipes.loader import load_catalogue
from openrecipes.reading import dryruns
from openrecipes_tools.launchfixtures import FIXTURE_FOLDERS

pytestmark = pytest.mark.launches


def test_every_documented_launch_has_a_current_record_that_its_files_reproduce() -> None:
    records, problems = dryruns.load(REPO)
    assert problems == []
    catalogue = load_catalogue(REPO)
    materialize = dryrun.from_copies(dict(FIXTURE_FOLDERS))
    unrecorded, differing = [], []
    for entry in catalogue.entries:
        outcome = entry.derived.dry_run
        if outcome is None:
            continue
        if outcome.state not in ("passed", "failed"):
            unrecorded.append(f"{entry.recipe.id}: {outcome.state}")
            continue
        record = records[entry.recipe.id]
        again = dryrun.dry_run(entry.recipe.id, entry.recipe.fields, materialize)
        assert again is not None
        if again.through_kept_out:
            # What the publisher's script does is seen over the clone only: the copies agree as far as they go.
            if not set(again.problems) <= set(record.problems):
                differing.append(f"{entry.recipe.id}: recorded {record.problems}, over the copies {again.problems}")
        elif (again.passed, tuple(again.problems)) != (record.passed, record.problems):
            was, now = record.problems or "passed", again.problems or "passed"
            differing.append(f"{entry.recipe.id}: recorded {was}, over the copies {now}")
    assert unrecorded == [], "run `openrecipes launch check --repo ... --record` for these launches"
    assert differing == []
