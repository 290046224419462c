"""A dry run of a documented launch: its `launch.sh` run by bash in a sandbox over the publisher's
files at the pinned commit, every program it would start replaced by a stand-in that writes down
what it was given.

What a reader copies must run, so the script is run, not read: the checkout clones the very
repository the launch cites and switches to its commit (the stand-in `git` lays out the files of
that commit, from a local clone or from copies of them), every `source` bash meets must find its
file, and the launcher it reaches (`sbatch`, `srun`, `torchrun`, `python`, `uv`, `docker`…) must be
handed files that exist. Each input the script requires is given a folder of its own as its value;
run once more with none, the script must stop on the first before anything runs. Nothing reaches
the network and no publisher code runs: every program that could is a stand-in.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import launchscript

LAUNCHERS = (
    "sbatch", "srun", "salloc", "torchrun", "python", "python3", "uv", "docker", "podman", "enroot",
    "llmboost", "mpirun", "deepspeed", "accelerate",
)  # fmt: skip
"""Programs a launch hands the run to: one of them must be reached."""
OTHERS = (
    "pip", "pip3", "nvidia-smi", "wget", "curl", "huggingface-cli", "hf", "sudo", "ssh", "scp", "make", "sleep",
    "squeue", "scancel", "sacct", "srun_wrapper",
)  # fmt: skip
"""Programs a launch may call on the way, stood in so that nothing is installed, fetched or waited for."""
_FILE_SUFFIXES = (".sh", ".sub", ".py", ".yaml", ".yml", ".toml", ".json")
_SECONDS = 60

Materialize = Callable[[str, str, Path, frozenset[str]], str | None]
"""(repository, commit, folder, words of the launch): lay out the repository's files at the commit
in the folder; None, or why it cannot."""


@dataclass(frozen=True)
class Call:
    program: str
    args: tuple[str, ...]
    cwd: str


@dataclass
class DryRun:
    """What a dry run of one launch found."""

    recipe_id: str
    launch_sh: str
    repository: str
    commit: str
    problems: list[str] = field(default_factory=list)
    calls: list[Call] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.problems

    @property
    def through_kept_out(self) -> bool:
        """Whether the launch reached a publisher's script the copies do not keep (from_copies)."""
        return any(call.program == KEPT_OUT for call in self.calls)

    @property
    def launcher(self) -> Call | None:
        """The first launcher the script reached."""
        return next((call for call in self.calls if call.program in LAUNCHERS), None)


def dry_run(recipe_id: str, fields: Any, materialize: Materialize) -> DryRun | None:
    """The dry run of the recipe's documented launch; None when it has none."""
    launch = next((one for one in launchscript.launches(fields) if one.kind == "documented"), None)
    if launch is None or launch.launch_sh is None:
        return None
    source = fields.launch.source
    found = DryRun(recipe_id, launch.launch_sh.text, source.repository, source.commit)
    with tempfile.TemporaryDirectory(prefix="openrecipes-dryrun-") as folder:
        sandbox = _Sandbox(Path(folder), source.repository, source.commit, materialize, launch.launch_sh.text)
        # Every variable of the script is given a value (an optional one too); only a required one must stop it.
        variables = [item.name for item in launch.inputs if item.required]
        required = [item.name for item in launch.inputs if item.required and not item.optional]
        values = {name: str(sandbox.input_folder(name)) for name in dict.fromkeys(variables)}
        why = sandbox.prepare_files()
        if why is not None:
            found.problems.append(f"the publisher's files: {why}")
            return found
        done, calls = sandbox.run(launch.launch_sh.text, values)
        found.calls = [sandbox.relative_call(call) for call in calls]
        problems = list(sandbox.problems)
        if done.returncode != 0:
            tail = " | ".join(line for line in done.stderr.strip().splitlines()[-3:])
            problems.append(f"launch.sh exited with {done.returncode}: {tail or 'nothing on stderr'}")
        elif any(call.program == KEPT_OUT for call in calls):
            pass  # the launcher is that script's to start: what it does is not known here
        elif not any(call.program in LAUNCHERS for call in calls):
            problems.append(f"launch.sh ran to its end without starting a launcher ({', '.join(LAUNCHERS)})")
        elif (named := _launcher_named(fields.launch.command or "")) and all(call.program != named for call in calls):
            problems.append(f"the command starts {named}, which the run never reached")
        problems += _missing_files(calls)
        if required:
            problems += _stops_when_unset(sandbox, launch.launch_sh.text, required[0])
        # Messages name the sandbox's places as the reader's would be: a record is the same on every machine.
        found.problems = list(dict.fromkeys(sandbox.relative(problem) for problem in problems))
    return found


class _Sandbox:
    def __init__(self, root: Path, repository: str, commit: str, materialize: Materialize, script: str) -> None:
        self.root = root
        self.words = frozenset(re.findall(r"[\w.+-]+", script))
        self.work = root / "work"
        self.bin = root / "bin"
        self.inputs = root / "inputs"
        self.log = root / "calls.jsonl"
        self.repository, self.commit = repository, commit
        self.materialize = materialize
        self.problems: list[str] = []
        for made in (self.work, self.bin, self.inputs, root / "home"):
            made.mkdir()
        for name in (*LAUNCHERS, *OTHERS, "git"):
            _stand_in(self.bin / name, name)
        _stand_in(self.bin / "kept-out", KEPT_OUT)

    def relative(self, text: str) -> str:
        """`text` with the sandbox's folders named as the reader knows them: the working folder
        of the launch as `.`, an input's stand-in folder as `$NAME`."""
        return (
            text.replace(f"{self.work}/", "")
            .replace(str(self.work), ".")
            .replace(f"{self.inputs}/", "$")
            .replace(str(self.root), "<sandbox>")
        )

    def relative_call(self, call: Call) -> Call:
        return Call(call.program, tuple(self.relative(arg) for arg in call.args), self.relative(call.cwd))

    def input_folder(self, name: str) -> Path:
        path = self.inputs / name
        path.mkdir(exist_ok=True)
        return path

    def run(self, script: str, values: dict[str, str]) -> tuple[subprocess.CompletedProcess[str], list[Call]]:
        if self.log.exists():
            self.log.unlink()
        (self.root / "launch.sh").write_text(script, encoding="utf-8")
        env = {
            "PATH": f"{self.bin}{os.pathsep}/usr/bin{os.pathsep}/bin",
            "HOME": str(self.root / "home"),
            "LANG": "C.UTF-8",
            "OPENRECIPES_DRYRUN_LOG": str(self.log),
            "OPENRECIPES_DRYRUN_REPOSITORY": self.repository,
            "OPENRECIPES_DRYRUN_COMMIT": self.commit,
            "OPENRECIPES_DRYRUN_FILES": str(self.root / "files"),
            "OPENRECIPES_DRYRUN_BIN": str(self.bin),
            **values,
        }
        try:
            done = subprocess.run(
                ["bash", str(self.root / "launch.sh")],
                cwd=self.work,
                env=env,
                capture_output=True,
                text=True,
                check=False,
                timeout=_SECONDS,
                stdin=subprocess.DEVNULL,
            )
        except subprocess.TimeoutExpired:
            done = subprocess.CompletedProcess([], 124, "", f"still running after {_SECONDS} s")
        calls = [Call(item["program"], tuple(item["args"]), item["cwd"]) for item in _read_log(self.log)]
        for call in calls:
            if call.program == "git" and call.args[:1] == ("problem",):
                self.problems.append(call.args[1])
        return done, [call for call in calls if call.program != "git" or call.args[:1] != ("problem",)]

    def prepare_files(self) -> str | None:
        """The publisher's files at the commit, where the stand-in `git clone` finds them."""
        files = self.root / "files"
        files.mkdir()
        return self.materialize(self.repository, self.commit, files, self.words)


def _stops_when_unset(sandbox: _Sandbox, script: str, first: str) -> list[str]:
    done, calls = sandbox.run(script, {})
    expected = f"launch.sh: {first} is not set: "
    problems = []
    if done.returncode == 0 or not done.stderr.startswith(expected):
        problems.append(f"with no input set, launch.sh did not stop on {first} first (exit {done.returncode})")
    if calls:
        problems.append(f"with no input set, launch.sh ran {calls[0].program} before stopping")
    return problems


def _launcher_named(command: str) -> str | None:
    """The last launcher the publisher's command names as a program (`sbatch … run.sub`), read with
    shlex as the shell splits words; None when it names none (it runs a script that starts one)."""
    named = None
    for line in command.replace("\\\n", " ").splitlines():
        try:
            words = shlex.split(line, comments=True)
        except ValueError:
            continue
        while words and (words[0] in ("export", "env", "exec", "time", "nohup") or "=" in words[0]):
            words = words[1:]
        for separator_free in _commands(words):
            if separator_free and separator_free[0] in LAUNCHERS:
                named = separator_free[0]
    return named


def _commands(words: list[str]) -> Iterator[list[str]]:
    """The simple commands of one line's words, split at `&&`, `||`, `;` and `|`."""
    current: list[str] = []
    for word in words:
        if word in ("&&", "||", ";", "|"):
            yield current
            current = []
        else:
            current.append(word)
    yield current


def _missing_files(calls: Sequence[Call]) -> Iterator[str]:
    """Files a launcher is handed that are not there: a script, a config, a Slurm batch file."""
    for call in calls:
        for argument in handed_files(call):
            if not (Path(call.cwd) / argument).exists():
                yield f"{call.program} is handed {argument}, which is not in {call.cwd}"


def handed_files(call: Call) -> Iterator[str]:
    """The arguments of a launcher's call that name a file (a script, a config, a batch file)."""
    if call.program in LAUNCHERS:
        yield from _handed(call.args)


def _handed(args: Sequence[str]) -> Iterator[str]:
    for argument in args:
        value = argument.split("=", 1)[1] if argument.startswith("--") and "=" in argument else argument
        if value.startswith(("-", "/", "$")) or "://" in value or not value.endswith(_FILE_SUFFIXES):
            continue
        if re.fullmatch(r"[\w./+-]+", value):
            yield value


def _read_log(path: Path) -> Iterator[dict[str, Any]]:
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            yield json.loads(line)


# What each stand-in does, run by this Python: record the call; `git` also lays out the files.
_STAND_IN = """
import json, os, subprocess, sys
name, args = {name!r}, sys.argv[1:]
log = os.environ["OPENRECIPES_DRYRUN_LOG"]
def record(program, arguments):
    with open(log, "a", encoding="utf-8") as handle:
        handle.write(json.dumps({{"program": program, "args": arguments, "cwd": os.getcwd()}}) + "\\n")
record(name, args)
if name == "git":
    repository, commit = os.environ["OPENRECIPES_DRYRUN_REPOSITORY"], os.environ["OPENRECIPES_DRYRUN_COMMIT"]
    words = args[2:] if args[:1] == ["-C"] else args
    if words[:1] == ["clone"]:
        rest = [word for word in words[1:] if not word.startswith("-")]
        url = rest[0] if rest else ""
        if url.removesuffix(".git").removesuffix("/") != "https://github.com/" + repository:
            record("git", ["problem", "the checkout clones " + url + ", not https://github.com/" + repository])
            sys.exit(128)
        target = rest[1] if len(rest) > 1 else url.rstrip("/").removesuffix(".git").rsplit("/", 1)[-1]
        # Linked, not copied (a submission repository holds tens of thousands of files); a script that
        # edits one in place (sed -i) writes a new file, leaving the others' alone.
        subprocess.run(["cp", "-al", os.environ["OPENRECIPES_DRYRUN_FILES"], target], check=True)
    elif words[:1] in (["switch"], ["checkout"]):
        named = [word for word in words[1:] if not word.startswith("-")]
        if named and named[0] != commit:
            record("git", ["problem", "the checkout switches to " + named[0] + ", not the cited " + commit])
            sys.exit(1)
"""


def _stand_in(path: Path, name: str) -> None:
    path.write_text(f"#!{sys.executable}\n{_STAND_IN.format(name=name)}", encoding="utf-8")
    path.chmod(0o755)


# -- where the publisher's files come from ---------------------------------------------------------


def from_clone(clones: dict[str, Path], cache: Path) -> Materialize:
    """Files from local git clones, by repository (`owner/name`): the tree at the commit, read from
    the clone's objects (no checkout, no network). Each top-level file, and each top-level folder
    a launch names (a submission repository holds tens of thousands of files, in one folder per
    submitter), is laid out once in `cache` and linked into each sandbox; a folder no launch names
    is there, empty. A clone that lacks some large blobs (a partial or shallow copy) gives the others."""
    tops: dict[tuple[str, str], list[tuple[str, str]] | str] = {}
    laid_out: set[tuple[str, str, str]] = set()

    def materialize(repository: str, commit: str, folder: Path, words: frozenset[str]) -> str | None:
        clone = clones.get(repository)
        if clone is None:
            return f"no clone of {repository} was given (--repo {repository}=PATH)"
        if (repository, commit) not in tops:
            tops[(repository, commit)] = _top_level(clone, commit)
        entries = tops[(repository, commit)]
        if isinstance(entries, str):
            return entries
        target = cache / f"{repository.replace('/', '+')}@{commit}"
        for kind, name in entries:
            if kind == "tree" and name not in words:
                (folder / name).mkdir()
                continue
            if (repository, commit, name) not in laid_out:
                _tree(clone, commit, target, name)
                laid_out.add((repository, commit, name))
            if (target / name).exists() or (target / name).is_symlink():
                # Linked, not copied; a script that edits a file in place (sed -i) writes a new one.
                subprocess.run(["cp", "-al", str(target / name), str(folder / name)], check=True)
        return None

    return materialize


def _top_level(clone: Path, commit: str) -> list[tuple[str, str]] | str:
    """(kind, name) of each entry at the top of the commit's tree; why not, as text."""
    listed = subprocess.run(["git", "-C", str(clone), "ls-tree", "-z", commit], capture_output=True, check=False)
    if listed.returncode != 0:
        return f"{clone} does not hold commit {commit}: fetch it first"
    entries = []
    for record in listed.stdout.split(b"\0"):
        if record:
            meta, name = record.split(b"\t", 1)
            entries.append((meta.split()[1].decode(), name.decode("utf-8", "surrogateescape")))
    return entries


def _tree(clone: Path, commit: str, target: Path, top: str) -> None:
    """Write the files under `top` (a top-level folder or file) of `commit` in `clone` into `target`."""
    listed = subprocess.run(
        ["git", "-C", str(clone), "ls-tree", "-r", "-z", commit, "--", top], capture_output=True, check=True
    )
    target.mkdir(parents=True, exist_ok=True)
    entries = []
    for record in listed.stdout.split(b"\0"):
        if record:
            meta, path = record.split(b"\t", 1)
            mode, kind, sha = meta.split()
            if kind == b"blob":
                entries.append((mode.decode(), sha.decode(), path.decode("utf-8", "surrogateescape")))
    request = "".join(f"{sha}\n" for _, sha, _ in entries).encode()
    batch = subprocess.run(
        ["git", "-C", str(clone), "cat-file", "--batch"], input=request, capture_output=True, check=False
    )
    data, at = batch.stdout, 0
    for mode, _, path in entries:
        header_end = data.index(b"\n", at)
        header = data[at:header_end].split()
        at = header_end + 1
        if header[-1] == b"missing":
            continue  # a blob the copy left out (the snapshot's largest files)
        size = int(header[2])
        content, at = data[at : at + size], at + size + 1
        destination = target / path
        destination.parent.mkdir(parents=True, exist_ok=True)
        if mode == "120000":
            destination.symlink_to(content.decode("utf-8", "surrogateescape"))
        else:
            destination.write_bytes(content)
            if mode == "100755":
                destination.chmod(0o755)


def from_copies(copies: dict[str, Path]) -> Materialize:
    """Files from folders of copies, by repository: `<folder>/<commit>/…` holds the files a launch
    reads as they are at that commit (the tests keep them in tests/importer_fixtures), and
    `<folder>/<commit>.paths` lists every file of the folders the launch works in with its mode.
    A listed file that is not kept is a stand-in: handed on, it is there; run, it records that the
    launch reached a publisher's script the tests do not keep (`KEPT_OUT`), which stands for the
    launcher it would start."""

    def materialize(repository: str, commit: str, folder: Path, words: frozenset[str]) -> str | None:
        base = copies.get(repository)
        if base is None or not (base / commit).is_dir():
            return f"no copy of {repository} at {commit}"
        shutil.copytree(base / commit, folder, dirs_exist_ok=True, symlinks=True)
        listing = base / f"{commit}{PATHS_SUFFIX}"
        if listing.is_file():
            for mode, path in read_paths(listing.read_text(encoding="utf-8")):
                file = folder / path
                if not file.exists():
                    file.parent.mkdir(parents=True, exist_ok=True)
                    file.write_text(_KEPT_OUT_SCRIPT, encoding="utf-8")
                if mode == "100755":  # a copy keeps the bytes, not the mode
                    file.chmod(0o755)
        return None

    return materialize


KEPT_OUT = "(a publisher's script the tests do not keep)"
_KEPT_OUT_SCRIPT = '"$OPENRECIPES_DRYRUN_BIN/kept-out" "$0" "$@"\n'


PATHS_SUFFIX = ".paths"


def read_paths(text: str) -> Iterator[tuple[str, str]]:
    """(mode, path) of each line `<mode> <path>` of a `.paths` listing."""
    for line in text.splitlines():
        mode, _, path = line.partition(" ")
        if mode in ("100644", "100755") and path and ".." not in Path(path).parts and not path.startswith("/"):
            yield mode, path


def from_sources(clones: dict[str, Path], copies: dict[str, Path], cache: Path) -> Materialize:
    """A clone where one is given for the repository, else its copies."""
    from_a_clone, from_copy = from_clone(clones, cache), from_copies(copies)

    def materialize(repository: str, commit: str, folder: Path, words: frozenset[str]) -> str | None:
        return (from_a_clone if repository in clones else from_copy)(repository, commit, folder, words)

    return materialize


def repository_of(fields: Any) -> str | None:
    launch = getattr(fields, "launch", None)
    source = getattr(launch, "source", None)
    return getattr(source, "repository", None)


def shown(call: Call) -> str:
    return shlex.join([call.program, *call.args])
