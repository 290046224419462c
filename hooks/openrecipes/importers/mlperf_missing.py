"""Files an MLPerf result's documented launch needs that are not in the results repository at its
commit (`launch.missing`): such a launch is shown as the submission documents it, but it is
incomplete, and never counted as one that runs.

Four ways a launch needs a file, each read from the submission's own files, never guessed:

- its configuration sources it, unconditionally, by a plain name beside itself (`mlperf.Missing`);
- its training script names it as the Hydra configuration it runs (`mlperf_effective`);
- the image its run.sub runs (`CONT`) is built from the implementation's Dockerfile: the launch
  submits run.sub and names no image, no step of the README pulls or builds one, and the
  implementation holds no Dockerfile (a launch that starts its own container, as MangoBoost's
  `llmboost` does, names its image in its own scripts);
- the run.sub the launch submits, where its folder holds none;
- the script the image starts (`run_and_time.sh`, which run.sub runs in the container) runs a
  Python file of the implementation that is not in it.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Sequence

from ..reading import shellenv
from . import mlperf as mp
from .common import MissingFile
from .gitsource import GitSource

ENTRY = "run_and_time.sh"
"""What run.sub runs inside the container, from the implementation's folder (its image's workdir)."""

_GETS_IMAGE = (("docker", "build"), ("docker", "pull"), ("podman", "build"), ("podman", "pull"), ("enroot", "import"))


def sourced(config: mp.ShellConfig) -> list[MissingFile]:
    """Each file the configuration sources, by a plain name beside itself, that is not there."""
    return [
        MissingFile(item.target, item.path, item.line, f"sourced by {item.path.rsplit('/', 1)[-1]}")
        for item in config.missing
        if item.target is not None and not item.condition
    ]


def image(
    source: GitSource, code: str, command: str, container: str | None, steps: Sequence[str], needed_by: str
) -> list[MissingFile]:
    """The Dockerfile the image run.sub runs is built from, where it is not in `code`: the launch
    (`command`) submits run.sub, names no image (`container`), and no preparation step (`steps`, their
    commands) pulls or builds one."""
    # `code` is already the nearest folder at or above the launch's that holds a Dockerfile, where one does
    # (mlperf_launch.find): one look here is enough.
    dockerfile = f"{code}/Dockerfile"
    if not _submits_run_sub(command) or container is not None or source.exists(dockerfile):
        return []
    if any(_gets_image(text) for text in steps):
        return []
    return [
        MissingFile(
            dockerfile,
            needed_by,
            None,
            "the Dockerfile the launch's image is built from: the launch names no published image, and no step "
            "of the submission pulls or builds one",
        )
    ]


def submitted(source: GitSource, workdir: str, command: str, needed_by: str) -> list[MissingFile]:
    """The run.sub the launch submits, where it is not in the folder the launch runs in."""
    runsub = f"{workdir}/run.sub"
    if not _submits_run_sub(command) or source.exists(runsub):
        return []
    return [MissingFile(runsub, needed_by, None, "the job script the launch submits (sbatch … run.sub)")]


def entry_scripts(source: GitSource, code: str) -> list[MissingFile]:
    """Each Python file of the implementation that its run_and_time.sh runs and that is not in it."""
    script = f"{code}/{ENTRY}"
    if not source.exists(script):
        return []
    commands, _ = shellenv.commands(source.show(script))
    found: dict[str, MissingFile] = {}
    for command in commands:
        for word in _python_files(command.words):
            path = posixpath.normpath(f"{code}/{word.value}")
            if path not in found and not source.exists(path):
                found[path] = MissingFile(path, script, word.line, f"run by {ENTRY} in the image")
    return list(found.values())


def _python_files(words: Iterable[shellenv.Word]) -> Iterable[shellenv.Word]:
    for word in words:
        value = word.value
        if word.expression or not value.endswith(".py") or "=" in value or value.startswith(("/", "-", "~")):
            continue
        if any(part == ".." for part in value.split("/")):
            continue
        yield word


def _gets_image(text: str) -> bool:
    commands, _ = shellenv.commands(text)
    for command in commands:
        words = [command.name, *(word.value for word in command.arguments[:1])]
        if tuple(words[:2]) in _GETS_IMAGE:
            return True
    return False


def _submits_run_sub(command: str) -> bool:
    commands, _ = shellenv.commands(command)
    return any(word.value.rsplit("/", 1)[-1] == "run.sub" for item in commands for word in item.arguments)
