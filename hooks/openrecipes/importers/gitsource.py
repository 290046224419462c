"""A publisher's files at one commit of a local clone, read with git: no checkout, no network.

Permalinks cite the commit that last changed a file (as of the commit asked for): the text there
is the same, and a re-import on the publisher's next commit gives the same recipes unless the
file itself changed, so `--check` reports only real changes.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from ..reading.gitrev import GitError, run_git


def _git(repo: Path, *args: str) -> str:
    return run_git(repo, *args).decode("utf-8")


@dataclass(frozen=True)
class FileAtCommit:
    path: str
    text: str
    commit: str
    """The commit that last changed the file, as of the commit read: the one permalinks cite."""
    date: str
    """That commit's committer date, as an ISO date (its own time zone)."""


@dataclass(frozen=True)
class GitSource:
    """One commit of a local clone (bare or not) of a publisher's repository."""

    repo: Path
    commit: str

    @classmethod
    def open(cls, repo: Path, revision: str | None) -> GitSource:
        revision = revision or "HEAD"
        if revision.startswith("-") or not revision.strip():
            raise GitError(f"{revision!r} is not a revision")
        if not repo.is_dir():
            raise GitError(f"{repo}: no such folder")
        try:
            commit = _git(repo, "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}").strip()
        except GitError:
            raise GitError(f"{repo}: unknown revision {revision!r} (or not a git repository)") from None
        return cls(repo, commit)

    def exists(self, path: str) -> bool:
        try:
            _git(self.repo, "cat-file", "-e", f"{self.commit}:{path}")
        except GitError:
            return False
        return True

    def read(self, path: str) -> FileAtCommit:
        text = self.show(path)
        last, date = _git(self.repo, "log", "-1", "--format=%H %cs", self.commit, "--", path).split()
        return FileAtCommit(path, text, last, date)

    def show(self, path: str, commit: str | None = None) -> str:
        return _show(self.repo, commit or self.commit, path)

    def list(self, folder: str) -> list[str]:
        """Paths of the files directly in `folder` at the commit, sorted."""
        out = _git(self.repo, "ls-tree", "--name-only", f"{self.commit}:{folder}")
        return sorted(f"{folder}/{name}" for name in out.splitlines() if name)

    def first_version(self, path: str) -> FileAtCommit | None:
        """The file as the commit that added it wrote it, or None when it has no history here."""
        out = _git(self.repo, "log", "--diff-filter=A", "--format=%H %cs", self.commit, "--", path).split()
        if not out:
            return None
        commit, date = out[-2], out[-1]  # oldest last
        return FileAtCommit(path, _show(self.repo, commit, path), commit, date)

    def is_shallow(self) -> bool:
        """Whether the clone lacks the history before some commit (`git clone --depth`)."""
        return _git(self.repo, "rev-parse", "--is-shallow-repository").strip() == "true"

    def history(self, paths: tuple[str, ...]) -> list[tuple[str, str]]:
        """(commit, ISO committer date) of every commit that changed one of `paths`, as of the
        commit, oldest first (git's default history simplification: the changes that reach it)."""
        out = _git(self.repo, "log", "--reverse", "--format=%H %cs", self.commit, "--", *paths)
        return [(commit, date) for commit, date in (line.split() for line in out.splitlines() if line)]

    def at(self, commit: str) -> GitSource:
        """The same clone at another commit (a release's tag, say)."""
        return GitSource(self.repo, commit)

    def tree(self, folder: str) -> list[str]:
        """Paths of every file under `folder` at the commit, sorted; empty when there is no such folder."""
        try:
            out = _git(self.repo, "ls-tree", "-r", "--name-only", self.commit, "--", folder)
        except GitError:
            return []
        return sorted(line for line in out.splitlines() if line)

    def grep(self, text: str) -> list[tuple[str, int, str]]:
        """(path, line, the line) for every line holding `text` exactly, at the commit, in path order."""
        try:
            out = _git(self.repo, "grep", "-n", "-I", "-F", "-e", text, self.commit, "--")
        except GitError:  # git grep exits 1 when nothing matches
            return []
        found = []
        for hit in out.splitlines():
            _, path, line, content = hit.split(":", 3)
            found.append((path, int(line), content))
        return sorted(found, key=lambda item: (item[0], item[1]))

    def tags(self) -> dict[str, str]:
        """Every tag of the clone that names a commit, by name: the commit it names (a publisher that
        releases by tag, NVIDIA's DGX Cloud Benchmarking, prints each release's tables at its tag)."""
        out = _git(self.repo, "for-each-ref", "--format=%(refname:strip=2)", "refs/tags")
        found = {}
        for name in out.splitlines():
            commit = self.resolve(name) if name and not name.startswith("-") else None
            if commit is not None:
                found[name] = commit
        return found

    def resolve(self, revision: str) -> str | None:
        """The full commit an abbreviated one names, or None when this clone does not have it."""
        try:
            return _git(self.repo, "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}").strip()
        except GitError:
            return None


@functools.lru_cache(maxsize=64)
def _show(repo: Path, commit: str, path: str) -> str:
    return _git(repo, "show", f"{commit}:{path}")
