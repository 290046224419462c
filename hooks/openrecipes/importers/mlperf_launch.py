"""Where an MLPerf submission documents the launch of a result's configuration, and the command read
from it.

A submission documents its launch in one of four ways, tried in this order (the first that holds
is taken):
1. the system's own README (`README-<system>.md`) holds the launch;
2. the implementation's README (`implementations/<impl>/README.md`) documents a launch, for this
   configuration by name or generically (`source configs/config_DGXH100_*.sh  # use appropriate
   config`): the command sources the configuration the result ran;
3. the implementation holds a launch script of its own (a `*.sh` that sources a `config_*.sh` and
   submits `run.sub`, Oracle's `run_lora.sh`);
4. the implementation holds no README: its `run.sub` is byte for byte the `run.sub` of an
   implementation of the same benchmark in the same results repository whose README documents its
   launch (NVIDIA's, typically): that README documents this `run.sub`'s launch.
Where none holds, the reason says what is missing. Every command line is a line of the publisher's
file, quoted as written; the only edit is the configuration a generic command sources, which is
swapped for the one the result ran (and said so).
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from ..reading import shellenv
from ..reading.gitrev import GitError, run_git
from . import mlperf as mp
from .common import Cited
from .gitsource import GitSource
from .mlperf import lines as _lines

# A line that starts the training: a Slurm submission of run.sub, a docker launcher, LLMBoost's CLI.
_RUNS = re.compile(
    r"\bsbatch\b.*\brun\.sub\b|\brun_with_docker\.sh\b|\bdocker_run\.sh\b|\bllmboost\s+mlperf\b|(?:^|\s)(?:\./)?run\.sub\b"
)
_CONFIG = re.compile(r"(?P<prefix>[^\s\"'=]*?)(?P<name>config_(?:[A-Za-z0-9_.+-]|<[^<>\s]+>|\*)+?\.sh)\b")
_SOURCE_LINE = re.compile(r"^(\s*(?:source|\.)\s+)(\S+)(.*)$")
_CONFIG_FLAG = re.compile(r"(--config_sh\s+)(\S+)")
_COMMON = re.compile(r"config_(common\w*|mounts\w*|.*_common)\.sh")
_IMAGE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-/]*:[A-Za-z0-9_.\-]+")


@dataclass(frozen=True)
class Documented:
    workdir: str
    """The folder the command runs in (the one holding run.sub or the launcher)."""
    command: str
    cited: tuple[Cited, ...]
    """The files the command is read from, with their lines (the configuration is cited apart)."""
    notes: tuple[str, ...]
    container: str | None
    """The image the quoted lines name, where they name one."""
    borrowed: str | None = None
    """The implementation whose README and code the launch runs, where it is not `workdir`'s own: a
    submission whose run.sub is byte for byte that implementation's builds its image from there."""

    @property
    def code(self) -> str:
        """The folder the image is built from and whose training code and configuration it runs."""
        return self.borrowed or self.workdir


@dataclass(frozen=True)
class Undocumented:
    reason: str


@dataclass(frozen=True)
class Block:
    first: int
    last: int
    lines: tuple[str, ...]
    section: int
    """The line of the heading (`#` or `##`) the block is under: blocks under one such heading are one
    part of the README's directions."""

    @property
    def runs(self) -> bool:
        return any(_RUNS.search(line) for line in self.lines if not line.lstrip().startswith("#"))

    @property
    def setup(self) -> bool:
        """Whether the block only prepares the environment the launch block runs in: each of its
        commands, read as bash reads them, sets or exports variables, sources a file, or pulls or
        runs a container (a block of comments alone is read with the launch too)."""
        commands, error = shellenv.commands("\n".join(self.lines))
        return error is None and any(line.strip() for line in self.lines) and all(map(_prepares, commands))


def _prepares(command: shellenv.Simple) -> bool:
    if command.name in ("", "export", "source", "."):  # '': assignments alone
        return True
    return command.name == "docker" and command.arguments[:1] != () and command.arguments[0].value in ("pull", "run")


def code_blocks(text: str) -> list[Block]:
    """A README's code: fenced blocks and blocks indented by four spaces.

    A fence with a language (```` ```bash ````) always opens a block, even after a fence left open: a
    stray fence (Oracle's MI300X README opens one at line 4 and never closes it) would otherwise
    turn every later block inside out."""
    lines = _lines(text)
    blocks: list[Block] = []
    section = 0
    start: int | None = None
    indent = 0
    fenced = False
    body: list[str] = []
    indented: list[tuple[int, str]] = []

    def close_indented() -> None:
        while indented and not indented[-1][1].strip():
            indented.pop()
        if indented:
            blocks.append(Block(indented[0][0], indented[-1][0], tuple(line[4:] for _, line in indented), section))
        indented.clear()

    previous_blank = True
    for number, line in enumerate(lines, start=1):
        stripped = line.lstrip()
        if stripped.startswith("```"):
            close_indented()
            language = stripped[3:].strip()
            if fenced and not language:
                if start is not None and body:
                    blocks.append(Block(start, number - 1, tuple(body), section))
                fenced, start, body = False, None, []
            else:
                fenced, start, body, indent = True, number + 1, [], len(line) - len(stripped)
            previous_blank = False
            continue
        if fenced:
            body.append(line[indent:] if line[:indent].strip() == "" else line.lstrip())
            continue
        heading = re.match(r"(#{1,6})\s", line)
        if heading:
            close_indented()
            if len(heading.group(1)) <= 2:
                section = number
        elif line.startswith(("    ", "\t")) and (indented or previous_blank):
            indented.append((number, line.replace("\t", "    ", 1)))
        elif not line.strip():
            if indented:
                indented.append((number, line))
        else:
            close_indented()
        previous_blank = not line.strip()
    close_indented()
    return blocks


# --- finding the documentation -------------------------------------------------------------------


def implementation_folder(path: str) -> str:
    """`<submitter>/benchmarks/<benchmark>/implementations/<impl>` of a file under it."""
    parts = path.split("/")
    return "/".join(parts[:5]) if len(parts) > 5 and parts[3] == "implementations" else path.rsplit("/", 1)[0]


def find(source: GitSource, result: mp.Result, config: mp.ShellConfig, evidence: str) -> Documented | Undocumented:
    root = f"{result.submitter}/benchmarks/{result.benchmark.name}/implementations"
    files = source.tree(root)
    own = implementation_folder(config.path)
    system_readmes = [
        path
        for path in files
        if path.rsplit("/", 1)[-1] in (f"README-{result.system}.md", f"README_{result.system}.md")
    ]
    for path in system_readmes:
        found = from_readme(source, path, config, evidence, config.path.rsplit("/", 1)[0])
        if found is not None:
            return found
    readme = f"{own}/README.md"
    missing: list[str] = []
    if readme in files:
        found = from_readme(source, readme, config, evidence, own)
        if found is not None:
            return found
        missing.append(
            f"{readme} documents no launch (no code block runs sbatch, run.sub, run_with_docker.sh, docker_run.sh "
            "or llmboost mlperf)"
        )
    else:
        missing.append(f"{own} holds no README.md")
    script = from_script(source, own, config, evidence)
    if script is not None:
        return script
    missing.append("no script of its own sources a configuration and submits run.sub")
    runsub = f"{own}/run.sub"
    if runsub in files:
        found, compared = from_identical(source, result, runsub, config, evidence)
        if found is not None:
            return found
        missing.append(
            f"its run.sub is byte for byte none of the {compared} other run.sub files of {result.benchmark.name} "
            "implementations at this commit whose README documents a launch"
        )
    else:
        missing.append("it holds no run.sub")
    return Undocumented(
        f"The submission documents no launch for {result.system}: {'; '.join(missing)}. The configuration it ran "
        f"is {config.name} ({evidence})."
    )


def from_readme(source: GitSource, path: str, config: mp.ShellConfig, evidence: str, workdir: str) -> Documented | None:
    blocks = code_blocks(source.show(path))
    launches = [block for block in blocks if block.runs]
    if not launches:
        return None
    exact = [block for block in launches if any(_names(line, config.name) for line in block.lines)]
    # Else the block whose configuration is most like this one (MI325X_2x8x1 for MI300X_2x8x1: the same
    # node count), to be sourced with this one; else the first launch, with this configuration sourced first.
    naming = [(_likeness(block, config.name), -index) for index, block in enumerate(launches)]
    best = max(naming)
    chosen = exact[0] if exact else launches[-best[1]] if best[0] > 0 else launches[0]
    taken = [chosen]
    for block in reversed([block for block in blocks if block.last < chosen.first]):
        if block.section != chosen.section:
            break
        if block.runs:
            continue  # another launch of the same directions (another node count, say): not this one
        if not block.setup:
            break
        taken.insert(0, block)
    readme_folder = path.rsplit("/", 1)[0]
    if config.path.startswith(f"{readme_folder}/") and path.rsplit("/", 1)[-1] == "README.md":
        workdir = readme_folder
    lines = [line.rstrip() for block in taken for line in block.lines if line.strip()]
    name = path.rsplit("/", 1)[-1]
    notes = []
    spans = ", ".join(
        f"{block.first}-{block.last}" if block.first != block.last else str(block.first) for block in taken
    )
    notes.append(f"Read from {name}, lines {spans} (its code blocks, as written).")
    command, swapped = _instantiate(lines, config, workdir, evidence, "README")
    notes += swapped
    others = [block for block in launches if block is not chosen]
    if others:
        notes.append(
            f"{name} documents {len(others)} other launch block(s) (line(s) "
            + ", ".join(str(block.first) for block in others)
            + "): "
            + ("they name other configurations" if exact else "alternatives to the first, which is taken")
            + "."
        )
    first, last = taken[0].first, chosen.last
    return Documented(
        workdir,
        command,
        (Cited(path, first, last, "the launch steps"),),
        tuple(notes),
        _container(command),
    )


def _names(line: str, name: str) -> bool:
    return any(found.group("name") == name for found in _CONFIG.finditer(line))


def _likeness(block: Block, name: str) -> int:
    """How many characters the end of a configuration the block names shares with `name` (0: it names none)."""
    best = 0
    for line in block.lines:
        for found in _CONFIG.finditer(line):
            if _COMMON.fullmatch(found.group("name")):
                continue
            written = found.group("name")
            shared = len(posixpath.commonprefix([written[::-1], name[::-1]]))
            best = max(best, shared, 1)
    return best


def _instantiate(
    lines: list[str], config: mp.ShellConfig, workdir: str, evidence: str, what: str
) -> tuple[str, list[str]]:
    """The documented lines with the configuration they source (or pass) swapped for the one the result
    ran, where they name another; and what was swapped."""
    relative = posixpath.relpath(config.path, workdir) if config.path.startswith(f"{workdir}/") else config.name
    notes: list[str] = []
    out = []
    named = False
    for line in lines:
        sourced = _SOURCE_LINE.match(line)
        if sourced and _CONFIG.fullmatch(sourced.group(2).strip("\"'")):
            written = sourced.group(2).strip("\"'")
            base = written.rsplit("/", 1)[-1]
            if not _COMMON.fullmatch(base):
                named = True
                if written != relative:
                    notes.append(
                        f"The {what}'s command sources {written}; this result ran {config.name} ({evidence}), "
                        "sourced here instead."
                    )
                    line = f"{sourced.group(1)}{relative}{sourced.group(3)}"
        flag = _CONFIG_FLAG.search(line)
        if flag:
            written = flag.group(2).strip("\"'")
            found = _CONFIG.fullmatch(written)
            if found:
                named = True
                if found.group("name") != config.name:
                    notes.append(
                        f"The {what}'s command passes {written}; this result ran {config.name} ({evidence}), passed "
                        "here instead."
                    )
                    line = line[: flag.start(2)] + found.group("prefix") + config.name + line[flag.end(2) :]
        out.append(line)
    if not named:
        out.insert(0, f"source {relative}")
        notes.append(
            f"The {what}'s command sources no configuration; this result ran {config.name} ({evidence}), sourced first."
        )
    return "\n".join(out), notes


def _container(command: str) -> str | None:
    """The image the command names: the first `CONT` or `IMAGE_NAME` it sets to an image and tag,
    or image it pulls, as bash reads the command (never one in a comment)."""
    commands, _ = shellenv.commands(command)
    for simple in commands:
        for word in simple.assignments:
            name, value = shellenv.assigned(word) or ("", "")
            if name in ("CONT", "IMAGE_NAME") and not word.expression and _IMAGE.fullmatch(value):
                return value
        pulled = simple.arguments[1] if simple.name == "docker" and len(simple.arguments) >= 2 else None
        if pulled is not None and simple.arguments[0].value == "pull" and _IMAGE.fullmatch(pulled.value):
            return pulled.value
    return None


def from_script(source: GitSource, folder: str, config: mp.ShellConfig, evidence: str) -> Documented | None:
    """A launch script of the implementation's own: a `*.sh` beside run.sub that sources a configuration
    and submits run.sub (its commented-out lines left out)."""
    for path in source.list(folder):
        base = path.rsplit("/", 1)[-1]
        if not base.endswith(".sh") or base.startswith("config_"):
            continue
        text = _lines(source.show(path))
        active = [
            (number, line)
            for number, line in enumerate(text, start=1)
            if line.strip() and not line.lstrip().startswith("#")
        ]
        submits = any(re.search(r"\bsbatch\b.*\brun\.sub\b", line) for _, line in active)
        sources = any(
            (found := _SOURCE_LINE.match(line)) and _CONFIG.fullmatch(found.group(2).strip("\"'")) for _, line in active
        )
        if not (submits and sources):
            continue
        command, swapped = _instantiate([line.rstrip() for _, line in active], config, folder, evidence, "script")
        first, last = active[0][0], active[-1][0]
        left = [
            number
            for number, line in enumerate(text, start=1)
            if first <= number <= last and line.lstrip().startswith("#")
        ]
        notes = [
            f"Read from {base}, the submission's own launch script, lines {first}-{last}"
            + (f" (its commented-out lines {', '.join(map(str, left))} left out)" if left else "")
            + ".",
            *swapped,
        ]
        commands, _ = shellenv.commands(source.show(path))
        own_paths = [
            f"{name}={value} (line {word.line})"
            for simple in commands
            for word in simple.assignments
            for name, value in [shellenv.assigned(word) or ("", "")]
            if value.startswith("/")
        ]
        if own_paths:
            notes.append(
                "The script names paths on the publisher's own cluster: "
                + ", ".join(own_paths)
                + "; set your own (its comments say so)."
            )
        return Documented(
            folder,
            command,
            (Cited(path, first, last, "the submission's launch script"),),
            tuple(notes),
            _container(command),
        )
    return None


def blob(source: GitSource, path: str) -> str | None:
    try:
        return run_git(source.repo, "rev-parse", f"{source.commit}:{path}").decode().strip()
    except GitError:
        return None


def from_identical(
    source: GitSource, result: mp.Result, runsub: str, config: mp.ShellConfig, evidence: str
) -> tuple[Documented | None, int]:
    """This run.sub is byte for byte another implementation's whose README documents its launch."""
    mine = blob(source, runsub)
    out = run_git(source.repo, "ls-tree", "-r", source.commit).decode()
    wanted = re.compile(rf"[^/]+/benchmarks/{re.escape(result.benchmark.name)}/implementations/[^/]+/run\.sub")
    others = []
    for line in out.splitlines():
        meta, _, path = line.partition("\t")
        if wanted.fullmatch(path) and path != runsub:
            others.append((meta.split()[2], path))
    compared = 0
    # NVIDIA's reference implementation first, then the submitter's own, then the rest in path order.
    others.sort(
        key=lambda item: (not item[1].startswith("NVIDIA/"), not item[1].startswith(f"{result.submitter}/"), item[1])
    )
    for sha, path in others:
        folder = path.rsplit("/", 1)[0]
        readme = f"{folder}/README.md"
        if not source.exists(readme):
            continue
        found = from_readme(source, readme, config, evidence, folder)
        if found is None:
            continue
        compared += 1
        if sha != mine:
            continue
        own = runsub.rsplit("/", 1)[0]
        command, _ = _instantiate(found.command.splitlines(), config, own, evidence, "README")
        notes = (
            f"{own} holds no README; its run.sub is byte for byte {path} (git blob {mine}), whose README documents "
            f"its launch: that launch is read from {readme}, run in {own} with the configuration this result ran.",
            *found.notes,
        )
        cited = (
            *found.cited,
            Cited(path, 1, len(_lines(source.show(path))), "the run.sub that README launches"),
            Cited(runsub, 1, len(_lines(source.show(runsub))), "this submission's run.sub, byte for byte the same"),
        )
        return Documented(own, command, cited, notes, found.container, borrowed=folder), compared
    return None, compared
