"""The project's files at a git revision, written into a folder so the catalogue can load them.

Only git plumbing is used (`rev-parse`, `ls-tree`, `cat-file --batch`): no checkout, so the
working tree and the index are never touched, and the revision's own code is never run.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

EXPORTED = ("recipes", "schema", "reference")
"""What `load_catalogue` reads: the recipes, and the schema and reference data they are checked against."""


class GitError(Exception):
    """A git command failed; the message is one line for the user."""


def _git(root: Path, *args: str, stdin: bytes | None = None) -> bytes:
    try:
        done = subprocess.run(["git", "-C", str(root), *args], input=stdin, capture_output=True, check=False)
    except FileNotFoundError:
        raise GitError("git is not installed (or not on PATH)") from None
    if done.returncode != 0:
        lines = [line for line in done.stderr.decode("utf-8", "replace").splitlines() if line.strip()]
        raise GitError(lines[-1].removeprefix("fatal: ") if lines else f"git {args[0]} failed")
    return done.stdout


@dataclass(frozen=True)
class Repository:
    """The git repository holding the project at `root`, which may be a subfolder of it."""

    root: Path
    prefix: str
    """The project's folder inside the repository, '' or ending in '/'."""

    @classmethod
    def at(cls, root: Path) -> Repository:
        try:
            prefix = _git(root, "rev-parse", "--show-prefix").decode().strip()
        except GitError as error:
            raise GitError(f"{root} is not in a git repository ({error})") from None
        return cls(root, prefix)

    def commit(self, revision: str) -> str:
        """The full commit id `revision` names, or a GitError saying it names none."""
        if revision.startswith("-") or not revision.strip():
            raise GitError(f"{revision!r} is not a revision")
        try:
            out = _git(self.root, "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}")
        except GitError:
            raise GitError(f"unknown revision {revision!r} (not a commit, branch or tag in this repository)") from None
        return out.decode().strip()

    def export(self, commit: str, destination: Path) -> None:
        """Write recipes/, schema/ and reference/ as they are at `commit` into `destination`."""
        listing = _git(
            self.root, "ls-tree", "-r", "-z", "--full-tree", commit, "--", *(self.prefix + part for part in EXPORTED)
        )
        entries = []
        for record in listing.split(b"\0"):
            if not record:
                continue
            meta, _, path = record.partition(b"\t")
            mode, kind, blob = meta.decode().split()
            if kind == "blob":  # submodules ("commit") hold no files of this repository
                entries.append((mode, blob, path.decode("utf-8", "surrogateescape").removeprefix(self.prefix)))
        if not entries:
            return
        contents = _read_blobs(self.root, [blob for _, blob, _ in entries])
        for (mode, _, path), data in zip(entries, contents, strict=True):
            target = destination / path
            target.parent.mkdir(parents=True, exist_ok=True)
            if mode == "120000":
                # Kept as a link: the catalogue reports links in recipes/ and never follows them.
                target.symlink_to(os.fsdecode(data))
            else:
                target.write_bytes(data)


def _read_blobs(root: Path, blobs: list[str]) -> list[bytes]:
    """The contents of many blobs from one `git cat-file --batch` process."""
    out = _git(root, "cat-file", "--batch", stdin="".join(f"{blob}\n" for blob in blobs).encode())
    contents = []
    offset = 0
    for blob in blobs:
        header_end = out.index(b"\n", offset)
        name, kind, size = out[offset:header_end].decode().split()
        if name != blob or kind != "blob":
            raise GitError(f"git cat-file returned {kind} {name} for blob {blob}")
        start = header_end + 1
        contents.append(out[start : start + int(size)])
        offset = start + int(size) + 1  # each object is followed by a newline
    return contents
