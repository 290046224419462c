"""The project's files at a git revision, written into a folder so the catalogue can load them.

The files come from `git archive` of the revision's tree, read as a stream with `tarfile`: no
checkout, so the working tree and the index are never touched, and the revision's own code is
never run. Only regular files are written; links (which could point anywhere on this machine)
and anything else are reported and left out.
"""

from __future__ import annotations

import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO

from ..problems import Problem

EXPORTED = ("recipes", "schema", "reference")
"""What `load_catalogue` reads: the recipes, and the schema and reference data they are checked against."""


class GitError(Exception):
    """A git command failed; the message is one line for the user."""


def _failure(stderr: bytes, fallback: str) -> str:
    lines = [line for line in stderr.decode("utf-8", "replace").splitlines() if line.strip()]
    return lines[-1].removeprefix("fatal: ") if lines else fallback


def run_git(root: Path, *args: str) -> bytes:
    """`git -C root args...`: its output, or GitError with git's last line of complaint."""
    try:
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, check=False)
    except FileNotFoundError:
        raise GitError("git is not installed (or not on PATH)") from None
    if done.returncode != 0:
        raise GitError(_failure(done.stderr, f"git {args[0]} failed"))
    return done.stdout


@dataclass(frozen=True)
class Repository:
    """The git repository holding the project at `root`, which may be a subfolder of it."""

    root: Path
    """The repository's top folder: git runs there, as archive and ls-tree read paths from where they run."""
    prefix: str
    """The project's folder inside the repository, '' or ending in '/'."""

    @classmethod
    def at(cls, project: Path) -> Repository:
        try:
            out = run_git(project, "rev-parse", "--show-toplevel", "--show-prefix")
        except GitError as error:
            raise GitError(f"{project} is not in a git repository ({error})") from None
        top, prefix, *_ = out.decode("utf-8", "surrogateescape").split("\n")
        return cls(Path(top), prefix)

    def commit(self, revision: str) -> str:
        """The full commit id `revision` names, or a GitError saying it names none."""
        if revision.startswith("-") or not revision.strip():
            raise GitError(f"{revision!r} is not a revision")
        try:
            out = run_git(self.root, "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}")
        except GitError:
            raise GitError(f"unknown revision {revision!r} (not a commit, branch or tag in this repository)") from None
        return out.decode().strip()

    def export(self, commit: str, destination: Path) -> tuple[Problem, ...]:
        """Write recipes/, schema/ and reference/ as they are at `commit` into `destination`.

        Returns a problem for each file of theirs that was not written: a symbolic link, or a
        file the revision's .gitattributes keep out of archives (export-ignore).
        """
        expected = self._files(commit)
        if not expected:
            return ()
        # The project's own tree, not the commit: paths come out relative to the project, and git
        # expands export-subst placeholders only in archives of a commit, so bytes stay as committed.
        tree = f"{commit}:{self.prefix}"
        parts = sorted({path.split("/", 1)[0] for path in expected})
        written, problems = _write_archive(self.root, tree, parts, destination)
        for path in sorted(expected - written - {problem.path for problem in problems}):
            problems.append(
                Problem(path, 0, 0, "", "is marked export-ignore in .gitattributes, so git archive leaves it out")
            )
        return tuple(problems)

    def _files(self, commit: str) -> set[str]:
        """Paths, relative to the project, of the files (regular files and links) under EXPORTED at `commit`.

        Also tells which of EXPORTED exist (git archive refuses a path that matches nothing), and
        works when the project's folder does not exist at `commit`.
        """
        listing = run_git(self.root, "ls-tree", "-r", "-z", commit, "--", *(self.prefix + part for part in EXPORTED))
        files = set()
        for record in listing.split(b"\0"):
            meta, _, path = record.partition(b"\t")
            if meta.split(b" ")[1:2] == [b"blob"]:  # submodules ("commit") hold no files of this repository
                files.add(path.decode("utf-8", "surrogateescape").removeprefix(self.prefix))
        return files


def _write_archive(root: Path, tree: str, parts: list[str], destination: Path) -> tuple[set[str], list[Problem]]:
    """Stream `git archive tree -- parts` and write its regular files under `destination`."""
    written: set[str] = set()
    problems: list[Problem] = []
    # stderr goes to a file: a pipe nobody reads while tarfile reads stdout could fill and stall git.
    with tempfile.TemporaryFile() as stderr:
        try:
            process = subprocess.Popen(
                ["git", "-C", str(root), "archive", "--format=tar", tree, "--", *parts],
                stdout=subprocess.PIPE,
                stderr=stderr,
            )
        except FileNotFoundError:
            raise GitError("git is not installed (or not on PATH)") from None
        assert process.stdout is not None
        with process:
            try:
                _read_members(process.stdout, destination, written, problems)
            except (tarfile.TarError, EOFError) as error:
                process.kill()
                process.wait()
                stderr.seek(0)
                raise GitError(
                    _failure(stderr.read(), f"git archive of {tree} is not a readable tar ({error})")
                ) from None
            process.stdout.read()  # the end-of-archive padding, so git is not cut off mid-write
        if process.returncode != 0:
            stderr.seek(0)
            raise GitError(_failure(stderr.read(), f"git archive of {tree} failed"))
    return written, problems


def _read_members(stream: IO[bytes], destination: Path, written: set[str], problems: list[Problem]) -> None:
    # "r|": a forward-only stream, nothing buffered beyond the member being read.
    with tarfile.open(fileobj=stream, mode="r|") as archive:
        for member in archive:
            name = member.name.rstrip("/")
            path = PurePosixPath(name)
            # Git never writes such names, but the archive is input: nothing lands outside `destination`.
            if (
                path.is_absolute()
                or not path.parts
                or path.parts[0] not in EXPORTED
                or any(part in (".", "..") for part in path.parts)
            ):
                problems.append(Problem(name, 0, 0, "", "has a path outside the project in git archive; not read"))
            elif member.isdir():
                continue  # folders are made for the files in them
            elif member.issym():
                # Not followed: its target is a path on this machine, not a file of the revision.
                problems.append(Problem(name, 0, 0, "", "is a symbolic link; it was not read: commit the file itself"))
            elif not member.isreg():
                problems.append(Problem(name, 0, 0, "", "is not a regular file; it was not read"))
            else:
                source = archive.extractfile(member)
                assert source is not None  # a regular file always has contents
                target = destination.joinpath(*path.parts)
                target.parent.mkdir(parents=True, exist_ok=True)
                # The bytes only, under a name checked above: no mode, owner or link from the archive.
                target.write_bytes(source.read())
                written.add(path.as_posix())
