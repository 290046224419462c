"""loader.LoadMemo, what `mkdocs serve` keeps of the recipes between rebuilds: a file whose bytes are
unchanged is neither read nor checked again; a changed one always is, even at the same size."""

from __future__ import annotations

import os

import pytest
from conftest import SEED, SEED_ID, Project

from openrecipes import loader
from openrecipes.loader import LoadMemo, load_catalogue

OTHER = "qwen3.8-27b/h200/other"


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The recipe files read, in order."""
    read: list[str] = []
    original = loader.read_file

    def counted(path: os.PathLike[str] | str, display: str) -> tuple[bytes | None, object]:
        read.append(display)
        return original(path, display)

    monkeypatch.setattr(loader, "read_file", counted)
    return read


def test_only_a_changed_file_is_read_again_even_at_the_same_size(project: Project, reads: list[str]) -> None:
    seed = project.add_seed()
    project.add(OTHER, SEED)
    memo = LoadMemo()
    first = {entry.recipe.id: entry for entry in load_catalogue(project.root, memo=memo).entries}
    assert len(reads) == 2
    reads.clear()

    again = {entry.recipe.id: entry for entry in load_catalogue(project.root, memo=memo).entries}
    assert reads == []
    assert again[SEED_ID] is first[SEED_ID] and again[OTHER] is first[OTHER]

    # The same number of bytes, other bytes (a comment's letter), written within the same second.
    edited = SEED.replace("# An OpenRecipes recipe", "# An OpenRecipes Recipe", 1)
    assert len(edited.encode()) == len(SEED.encode()) and edited != SEED
    seed.write_text(edited, encoding="utf-8")
    third = {entry.recipe.id: entry for entry in load_catalogue(project.root, memo=memo).entries}
    assert reads == [f"recipes/{SEED_ID}.yaml"]
    assert third[SEED_ID] is not first[SEED_ID]
    assert third[OTHER] is first[OTHER]


def test_a_file_replaced_by_another_with_the_same_bytes_keeps_its_entry(project: Project, reads: list[str]) -> None:
    seed = project.add_seed()
    memo = LoadMemo()
    (first,) = load_catalogue(project.root, memo=memo).entries
    replacement = seed.with_name("replacement.tmp")
    replacement.write_bytes(seed.read_bytes())
    replacement.replace(seed)  # as an editor saves: a new file in its place
    reads.clear()
    (again,) = load_catalogue(project.root, memo=memo).entries
    assert reads == [f"recipes/{SEED_ID}.yaml"]  # read, since it is another file ...
    assert again is first  # ... and kept, since its bytes are the same
