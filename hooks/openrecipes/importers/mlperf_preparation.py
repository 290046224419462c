"""What an MLPerf submission says to do before its launch: build the container, download and
preprocess the data set and the checkpoint. Read from its READMEs, never run; `mlperf_recipes` writes
what this finds into the launch's `preparation`.

The READMEs a launch rests on are read in order: the implementation's README (the folder the command
runs in), then the file the launch is read from, where that is another README (a system's). Every
code block before a README's launch is a candidate, and a step is the blocks under one heading, as
written, with the heading and the lines they span. Left out:

- what is not a command a reader runs: a listing of files or of a folder's tree (`train.npy
  validation.npy`, `$tree 8b/`), a formula, the contents of a file the submission holds (MangoBoost's
  `runtime_tunables.sh`, shown line by line), each told by what bash reads there (a command every
  word of which is a program or script a reader would run, `KNOWN`), never by the prose around it;
- the launch itself and another launch, and a block only of exports the launch's own shell needs
  (the launch carries those);
- a block written twice.

A block that starts an interactive container (`docker run -it …`) opens a session: the commands
after it, in that block and in the blocks after it, are typed in the container's shell (NVIDIA's
"now you should be inside the container"), until the reader leaves it (`exit`), starts another, or
the README's section that holds it ends. They are the step's `session`, shown, never run.

Where the launch needs an image that no step builds and no image is published (its CONT is a
placeholder), the implementation's Dockerfile is built with docker's own command, tagged as the launch
names the image, and the step says that the submission gives no such command.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..checking.scriptinputs import script_inputs
from ..reading import shellenv
from ..reading.envnames import is_dangerous_name
from ..reading.shelltext import placeholders
from . import mlperf_launch
from .common import Cited
from .gitsource import GitSource
from .mlperf import lines as _lines
from .mlperf_inputs import described

KNOWN = frozenset(
    {
        "", "export", "source", ".", "cd", "set", "unset", "exit", "echo", "printf", "cat", "ls", "find", "tee",
        "sudo", "bash", "sh", "python", "python3", "pip", "pip3", "uv", "conda", "git", "wget", "curl", "rclone",
        "aws", "gsutil", "huggingface-cli", "hf", "tar", "unzip", "gunzip", "zstd", "rm", "mv", "cp", "mkdir",
        "ln", "chmod", "sed", "md5sum", "sha256sum", "docker", "podman", "enroot", "srun", "sbatch", "salloc",
        "ssh", "scp", "make", "modprobe", "cpupower", "nvidia-smi", "rocm-smi", "rocm_agent_enumerator",
        "apt", "apt-get",
    }
)  # fmt: skip
"""Programs and shell builtins a README's preparation runs (an empty name: assignments alone)."""

_INTERACTIVE = re.compile(r"^-[a-z]*i[a-z]*t[a-z]*$|^-[a-z]*t[a-z]*i[a-z]*$|^--interactive$")
_LINK = re.compile(r"\]\((https?://[^)\s]+)\)|<(https?://[^>\s]+)>")
_HEADING = re.compile(r"(#{1,6})\s+(.*?)\s*#*\s*$")
_VALUED = frozenset(
    {"-t", "--tag", "-f", "--file", "--build-arg", "--target", "--platform", "--network", "--label", "--cache-from",
     "--secret", "--ssh", "--progress", "-o", "--output", "--iidfile", "--shm-size", "--ulimit", "--add-host"}
)  # fmt: skip
"""`docker build` options that take a value: what follows them is not the build's context."""


@dataclass
class Step:
    """A preparation step as read: its heading, its file and lines, what runs and what is typed."""

    what: str
    path: str
    first: int
    last: int
    commands: list[str] = field(default_factory=list)
    session: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    """How it was read: a command edited, the links its text gives."""


@dataclass(frozen=True)
class _Block:
    path: str
    block: mlperf_launch.Block
    heading: tuple[int, int, str]
    """(line, level, text) of the heading it is under; (0, 0, '') before the first."""
    parent: int
    """The level of the heading that holds that heading's section (0: the document)."""


def read_steps(source: GitSource, found: mlperf_launch.Documented) -> list[Step]:
    """The preparation the submission documents before `found`'s launch, step by step."""
    launch_file = found.cited[0]
    files = [
        path
        for path in dict.fromkeys((f"{found.workdir}/README.md", launch_file.path))
        if path.endswith(".md") and source.exists(path)
    ]
    shown = _submission_scripts(source, found.workdir, [source.show(path) for path in files])
    steps: list[Step] = []
    seen: set[tuple[str, ...]] = set()
    for path in files:
        text = source.show(path)
        until = launch_file.first if path == launch_file.path and launch_file.first else None
        blocks = []
        for candidate in _before_launch(path, text, until):
            lines = tuple(line.rstrip() for line in candidate.block.lines if line.strip())
            if lines in seen or not _runs_commands(lines) or _shows_a_file(lines, shown):
                continue
            seen.add(lines)
            blocks.append(candidate)
        found = [step for step in _steps(path, text, blocks) if step.session or not _setup_only(step.commands)]
        end = until or next((block.first for block in mlperf_launch.code_blocks(text) if block.runs), None)
        steps += sorted([*found, *_by_hand(text, path, found, end)], key=lambda step: step.first)
    return _builds_first(_pulled_not_built(steps))


def _by_hand(text: str, path: str, steps: Sequence[Step], end: int | None) -> list[Step]:
    """A section before the launch that gives no command of its own but links where to download from
    (the reference's instructions for the data set or the checkpoint): a step done by hand."""
    headings = _headings(text)
    lines = _lines(text)
    found = []
    for index, (line, _, title) in enumerate(headings):
        if end is not None and line >= end:
            break
        stop = headings[index + 1][0] - 1 if index + 1 < len(headings) else len(lines)
        if end is not None:
            stop = min(stop, end - 1)
        while stop > line and not lines[stop - 1].strip():
            stop -= 1
        if any(line <= step.first <= stop or step.first <= line <= step.last for step in steps):
            continue
        body = lines[line:stop]
        links = _links(text, line, stop)
        if links and any("download" in each.lower() for each in body):
            found.append(Step(_plain(title), path, line, stop, notes=["By hand, as the README says.", *links]))
    return found


def _builds_first(steps: list[Step]) -> list[Step]:
    """The steps, a step that builds an image moved before the first step that runs that image (the
    README may document the build after the data's steps that start its container)."""
    ordered = list(steps)
    for step in steps:
        tags = [tag for command in _parsed(step.commands)[0] if (tag := _tag(command))]
        if not tags:
            continue
        users = [
            other
            for other in ordered[: ordered.index(step)]
            if any(tag in _masked(line) for tag in tags for line in other.commands)
        ]
        if users:
            ordered.remove(step)
            ordered.insert(ordered.index(users[0]), step)
            step.notes.append(
                "The README documents this step after the steps that run the image it builds; it comes first here."
            )
    return ordered


def _pulled_not_built(steps: list[Step]) -> list[Step]:
    """The steps, but one that only builds an image another step pulls (the README's two options):
    the pull is kept, and the build said in its notes."""
    pulled: dict[str, Step] = {}
    for step in steps:
        for command in _parsed(step.commands)[0]:
            words = [word.value for word in command.arguments]
            if command.name == "docker" and len(words) == 2 and words[0] == "pull":
                pulled[words[1]] = step
    kept = []
    for step in steps:
        commands, error = _parsed(step.commands)
        built = [_tag(command) for command in commands if command.name == "docker"]
        if error is None and built and not step.session and all(tag in pulled for tag in built):
            pulled[str(built[0])].notes.append(
                f"The README also builds this image from the implementation's Dockerfile instead ({step.what}, "
                f"lines {step.first}-{step.last}): `{'; '.join(step.commands)}`."
            )
            continue
        kept.append(step)
    return kept


def _tag(command: shellenv.Simple) -> str | None:
    """The tag a `docker build` gives its image, or None for any other docker command."""
    words = [word.value for word in command.arguments]
    if words[:1] != ["build"]:
        return None
    for index, word in enumerate(words):
        if word in ("-t", "--tag") and index + 1 < len(words):
            return words[index + 1]
    return None


def _before_launch(path: str, text: str, until: int | None) -> Iterable[_Block]:
    """The README's code blocks before its launch (before line `until`, or its first block that runs).
    A block under the launch's own heading is the launch's setup (the folder it runs in, its exports),
    unless a numbered item of the README's list introduces it (`1. Build the docker container`)."""
    headings = _headings(text)
    blocks = mlperf_launch.code_blocks(text)
    launch = next((block for block in blocks if (block.last >= until if until is not None else block.runs)), None)
    above_launch = [heading for heading in headings if launch is not None and heading[0] < launch.first]
    launch_heading = above_launch[-1][0] if above_launch else 0
    for block in blocks:
        if block is launch:
            return
        above = [heading for heading in headings if heading[0] < block.first]
        heading = above[-1] if above else (0, 0, "")
        if block.runs:
            continue  # another launch the README documents (another node count, a script's run)
        own = launch is not None and heading[0] == launch_heading
        if own and _numbered_item(text, heading[0], block.first) is None:
            continue
        parents = [level for line, level, _ in above if level < heading[1]]
        yield _Block(path, block, heading, parents[-1] if parents else 0)


def _headings(text: str) -> list[tuple[int, int, str]]:
    """(line, level, text) of each Markdown heading outside the code blocks (as code_blocks reads them)."""
    inside = {line for block in mlperf_launch.code_blocks(text) for line in range(block.first, block.last + 1)}
    found = []
    for number, line in enumerate(_lines(text), start=1):
        match = _HEADING.match(line) if number not in inside else None
        if match:
            found.append((number, len(match.group(1)), match.group(2).strip()))
    return found


def _steps(path: str, text: str, blocks: Sequence[_Block]) -> list[Step]:
    steps: list[Step] = []
    readme = _lines(text)
    session_level: int | None = None  # while a session is open: the level of heading that ends it
    typed_with_run = False  # the block that opened it typed its commands after the `docker run`
    headings = _headings(text)
    session_heading = 0
    previous = 0
    for each in blocks:
        heading_line, level, title = each.heading
        lines = [line.rstrip() for line in each.block.lines if line.strip()]
        lead = [
            line.strip()
            for line in readme[max(previous, heading_line) : each.block.first - 1]
            if line.strip() and not line.lstrip().startswith(("```", "#"))
        ]
        # Every heading since the block before: one as high as the section the session is in ends it.
        crossed = [depth for line, depth, _ in headings if previous < line < each.block.first]
        previous = each.block.last
        if session_level is not None and any(depth <= session_level for depth in crossed):
            session_level = None
        opens = _opens_session(lines)
        # A later block is typed in the open session: under the heading that opened it, where that block
        # typed nothing (the commands come in blocks of their own); where the README's words before it speak
        # of the container; or where it only leaves the container (`exit`).
        parsed = _parsed(lines)[0]
        joins = (
            (heading_line == session_heading and not typed_with_run)
            or any("container" in line.lower() for line in lead)
            or (bool(parsed) and all(command.name == "exit" for command in parsed))
        )
        if lead and re.match(r"(or|alternatively)\b", lead[-1], re.I) and steps:
            # Another way to do what the step before does ("or simply run the … slurm script"): said, not run.
            steps[-1].notes.append(
                f"The README gives another way to do this ({_span(each.block.first, each.block.last)}): "
                f'"{_plain(lead[-1])[:300]}"'
            )
            continue
        if session_level is not None and opens is None and joins:
            step = steps[-1]
            if title and _plain(title) not in step.what.split("; "):
                step.what = f"{step.what}; {_plain(title)}"
            step.session += lines
            step.last = each.block.last
            if any(command.name == "exit" for command in _parsed(lines)[0]):
                session_level = None
            continue
        session_level = None
        item = _numbered_item(text, heading_line, each.block.first)
        first = item[0] if item else heading_line or each.block.first
        label = item[1] if item else _plain(title) or "The README's setup"
        if not steps or steps[-1].path != path or steps[-1].first != first or steps[-1].session:
            steps.append(Step(label, path, first, each.block.last))
            if lead and not item:
                steps[-1].notes.append(f'The README before its commands: "{_plain(lead[-1])[:300]}"')
        step = steps[-1]
        step.last = each.block.last
        if opens is None:
            step.commands += lines
            continue
        step.commands += lines[: opens + 1]
        step.session += lines[opens + 1 :]
        typed_with_run = bool(lines[opens + 1 :])
        session_heading = heading_line
        # It lasts while the section holding its heading lasts (a top heading's own section).
        session_level = each.parent or level
    for step in steps:
        step.notes += _links(text, step.first, step.last)
        step.commands, edited = _with_build_context(step.commands)
        step.notes += edited
    return steps


def _parsed(lines: Sequence[str]) -> tuple[list[shellenv.Simple], shellenv.ParseError | None]:
    """The lines as bash reads them once each `<placeholder>` is a word (bash would read its `<` as a
    redirection); each keeps its place, so lines and columns stay right."""
    return shellenv.commands(_masked("\n".join(lines)))


def _masked(text: str) -> str:
    """`text` with each `<placeholder>` a word of as many characters (`PPPP`)."""
    for use in reversed(placeholders(text)):
        text = text[: use.start] + "P" * (use.end - use.start) + text[use.end :]
    return text


def _numbered_item(text: str, heading: int, block: int) -> tuple[int, str] | None:
    """The numbered item of a list (`1. Build the docker container`) that introduces the block, between its
    heading and it: (its line, its text), the closest one."""
    lines = _lines(text)
    for number in range(block - 1, heading, -1):
        found = re.match(r"\s*\d+[.)]\s+(\S.*)", lines[number - 1])
        if found:
            return number, _plain(found.group(1))
    return None


def _opens_session(lines: list[str]) -> int | None:
    """The index of the line that ends the block's interactive `docker run` (its last continued line)."""
    commands, error = _parsed(lines)
    if error is not None:
        return None
    for command in commands:
        words = [word.value for word in command.arguments]
        if command.name == "docker" and words[:1] == ["run"] and any(_INTERACTIVE.match(word) for word in words):
            return max(word.line for word in command.words) - 1
    return None


def _runs_commands(lines: Sequence[str]) -> bool:
    """Whether bash reads the block as commands a reader runs: each a known program, a script by its
    path, or assignments alone; comments alone are not a step."""
    commands, error = _parsed(lines)
    if error is not None or not commands:
        return False
    for command in commands:
        if not command.words:
            continue
        if command.name == "" and len(command.assignments) != len(command.words):
            return False  # a command whose name is an expansion ($tree): a listing, as written
        if command.name not in KNOWN and "/" not in command.name:
            return False
    return True


def _setup_only(lines: Sequence[str]) -> bool:
    """Whether the lines only set variables or source files: what the launch's shell needs, not a step."""
    commands, error = _parsed(lines)
    return error is None and all(command.name in ("", "export", "source", ".") for command in commands)


def _submission_scripts(source: GitSource, folder: str, texts: Sequence[str]) -> list[list[str]]:
    """The nonblank lines of each shell script of the implementation's folder that the READMEs name."""
    scripts = []
    for path in source.list(folder):
        name = path.rsplit("/", 1)[-1]
        if name.endswith(".sh") and any(name in text for text in texts):
            scripts.append([line.strip() for line in _lines(source.show(path)) if line.strip()])
    return scripts


def _shows_a_file(lines: Sequence[str], scripts: Sequence[list[str]]) -> bool:
    """Whether the block is a file of the submission shown line by line (its contents, not a step):
    three lines or more, found together and in order in one of the implementation's scripts."""
    wanted = [line.strip() for line in lines if not line.lstrip().startswith("#")]
    if len(wanted) < 3:
        return False
    for script in scripts:
        for start in range(len(script) - len(wanted) + 1):
            if script[start : start + len(wanted)] == wanted:
                return True
    return False


def _with_build_context(commands: list[str]) -> tuple[list[str], list[str]]:
    """The commands with a `.` added to a `docker build` that names no build context (docker refuses
    one), and a note of each such edit."""
    notes = []
    out = list(commands)
    parsed, error = _parsed(commands)
    if error is not None:
        return out, notes
    for command in parsed:
        values = [word.value for word in command.arguments]
        if command.name != "docker" or values[:1] != ["build"]:
            continue
        positional = []
        skip = False
        for word in values[1:]:
            if skip:
                skip = False
            elif word in _VALUED:
                skip = True
            elif not word.startswith("-"):
                positional.append(word)
        if positional:
            continue
        last = max(word.line for word in command.words) - 1
        comment = re.search(r"\s+#", out[last])
        at = comment.start() if comment else len(out[last])
        out[last] = out[last][:at] + " ." + out[last][at:]
        notes.append(
            "As published, `docker build` names no build context (docker refuses it without one): the step adds "
            "`.`, the implementation's folder with its Dockerfile, where prepare.sh runs it."
        )
    return out, notes


def _links(text: str, first: int, last: int) -> list[str]:
    """A note of the links the README's text gives for a step (the data set's, the reference's)."""
    lines = _lines(text)[first - 1 : last]
    links = [match.group(1) or match.group(2) for line in lines for match in _LINK.finditer(line)]
    if not links:
        return []
    return ["The README's text for this step links " + ", ".join(dict.fromkeys(links)) + "."]


def _span(first: int, last: int) -> str:
    return f"line {first}" if first == last else f"lines {first}-{last}"


def _plain(title: str) -> str:
    """A heading as text: its Markdown marks and trailing colon taken off."""
    return re.sub(r"`|\*\*", "", re.sub(r"</?[a-z]+>", "", title)).strip().rstrip(":").strip()


def build_step(
    source: GitSource, found: mlperf_launch.Documented, image: str | None, steps: Sequence[Step]
) -> Step | None:
    """Docker's build of the implementation's Dockerfile, tagged as the launch names the image, where
    the launch needs one (`image`, as the command writes it) and no step builds one."""
    if image is None or any(_builds(step.commands) for step in steps):
        return None
    dockerfile = f"{found.code}/Dockerfile"
    if not source.exists(dockerfile):
        return None
    total = max(1, len(_lines(source.show(dockerfile))))
    return Step(
        "Build the container from the implementation's Dockerfile",
        dockerfile,
        1,
        total,
        [f"docker build -t {image} ."],
        notes=[
            "The submission's files give no command to build the image the launch runs; this is docker's own "
            "build of the Dockerfile beside run.sub, tagged as the launch names the image."
        ],
    )


def _builds(commands: Sequence[str]) -> bool:
    parsed, error = _parsed(commands)
    return error is None and any(
        command.name == "docker" and [word.value for word in command.arguments][:1] == ["build"] for command in parsed
    )


@dataclass(frozen=True)
class Prepared:
    """A step as the launch writes it, and the lines of the file it is read from, to cite."""

    cited: Cited
    data: dict[str, Any]


def steps(source: GitSource, found: mlperf_launch.Documented, image: str | None) -> list[Prepared]:
    """The launch's preparation: the READMEs' steps, then the image's build where none builds it."""
    read = read_steps(source, found)
    build = build_step(source, found, image, read)
    if build is not None:
        read.append(build)
    out = []
    before = ""
    for step in read:
        commands = "".join(f"{line}\n" for line in step.commands)
        data: dict[str, Any] = {"what": step.what, "file": step.path, "lines": [step.first, step.last]}
        if found.code != found.workdir and step.path.startswith(found.code + "/"):
            # Read from the README of the implementation the launch borrows: its commands name that folder's files.
            data["folder"] = found.code
        if commands:
            data["commands"] = commands
        if step.session:
            data["session"] = "".join(f"{line}\n" for line in step.session)
        needs = _step_inputs(before, commands, "".join(f"{line}\n" for line in step.session))
        if needs:
            data["inputs"] = needs
        if step.notes:
            data["notes"] = " ".join(step.notes)
        out.append(Prepared(Cited(step.path, step.first, step.last, f"preparation: {step.what}"[:300]), data))
        before += commands
    return out


def _step_inputs(before: str, commands: str, session: str) -> list[dict[str, str]]:
    """What a step's commands read (what earlier steps set aside), each described as the launch's are,
    and what its text asks for in words: a registry login, a Hugging Face token typed in a session."""
    needs: list[dict[str, str]] = []
    first = before.count("\n") + 1
    for item in script_inputs(before + commands):
        if item.line < first or (item.kind == "variable" and is_dangerous_name(item.name)):
            continue
        written = item.written if item.kind == "placeholder" else item.name
        description, origin, kind = described(written)
        needs.append(
            {
                "name": written,
                "description": description
                or f"Read by the step's commands (line {item.line - first + 1}); the README says what to provide.",
                "origin": origin or "the submission's README",
                **({"kind": kind} if kind else {}),
            }
        )
    for command in _parsed(commands.splitlines())[0]:
        words = [word.value for word in command.arguments]
        if command.name == "docker" and words[:1] == ["login"]:
            registry = next((word for word in words[1:] if not word.startswith("-")), "docker.io")
            needs.append(
                {
                    "name": f"<account on {registry}>",
                    "description": f"An account that may pull the images the step names from {registry}; the step "
                    "logs in with it (docker login)",
                    "origin": f"{registry}'s sign-up, and access granted by whoever publishes the image",
                    "kind": "account",
                }
            )
    if re.search(r"\bHF_TOKEN\b", session):
        needs.append(
            {
                "name": "<Hugging Face token>",
                "description": "A Hugging Face access token, typed into the container's shell as the step's session "
                "sets HF_TOKEN, of an account granted access to the model's repository",
                "origin": "https://huggingface.co/settings/tokens",
                "kind": "access-token",
            }
        )
    return needs
