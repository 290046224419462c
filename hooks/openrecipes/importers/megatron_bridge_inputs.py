"""What a Megatron-Bridge launch needs that its command does not show: the launcher's Python
environment, and a Hugging Face token where the model's files are gated or the launcher asks for one.
Read from the release's own files at its tag, never run; `megatron_bridge_recipes` writes what this
finds into the launch's `preparation`, command and `inputs`.

- **The launcher's environment.** `setup_experiment.py` imports NeMo-Run. Releases 0.2 to 0.4 install
  it with `pip install git+https://github.com/NVIDIA-NeMo/Run.git` (the performance README's Step 1),
  which takes NeMo-Run's default branch, unpinned: the step installs the NeMo-Run the release's
  `uv.lock` resolves instead, and says so. From 0.5 the README runs the launcher with `uv run`,
  whose environment installs megatron-core from the `3rdparty/Megatron-LM` submodule (a clone leaves
  it empty) and leaves out the optional extra that holds NeMo-Run: one step checks out the
  submodule as the release's own documentation writes it, another installs the extra at the
  versions `uv.lock` pins. `train.sh` (0.6 on) pins NeMo-Run itself (`uv run --with nemo-run==…`).
- **A Hugging Face token.** A model whose library recipe reads its configuration from a gated
  Hugging Face repository (`GATED`), found at the release's tag, or one the launcher asserts a token
  for (`setup_experiment.py`'s `assert hf_token …` under a test naming the model), gets the
  launcher's token option: `-hf "$HF_TOKEN"` for `setup_experiment.py`, `--env HF_TOKEN` for
  `train.sh`, as each documents it.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from .common import Cited
from .megatron_bridge_launch import PERFORMANCE_README, Documented, Releases

PYPROJECT = "pyproject.toml"
UV_LOCK = "uv.lock"
LAUNCHER = "scripts/performance/setup_experiment.py"
TRAINING_LAUNCHER = "scripts/training/setup_experiment.py"
LIBRARY_RECIPES = "src/megatron/bridge/recipes/"
BRIDGE_GUIDE = "docs/bridge-guide.md"

GATED = {
    # model as printed: the Hugging Face repository its library recipe reads, which asks each account
    # to accept Meta's licence before it grants access (every meta-llama repository does).
    "LLAMA3_8B": "meta-llama/Meta-Llama-3-8B",
    "LLAMA3_70B": "meta-llama/Meta-Llama-3-70B",
    "LLAMA3.1_405B": "meta-llama/Meta-Llama-3.1-405B",
}
"""Models whose Hugging Face repository is gated; the repository must be named in the release's
library recipes for the launch to ask for a token."""

ENVIRONMENT = "<virtual environment on the login node>"
TASKS = ("pretrain", "sft", "lora")


@dataclass(frozen=True)
class Step:
    """A preparation step as the launch writes it."""

    what: str
    cited: Cited
    """The file and lines the step is read from."""
    commands: str
    notes: str
    inputs: tuple[dict[str, str], ...] = ()
    rests_on: tuple[Cited, ...] = ()
    """Other lines the step rests on (the version uv.lock pins), cited with the launch."""


@dataclass(frozen=True)
class Token:
    """The launcher's Hugging Face token option, and why this launch needs it."""

    option: str
    """The command's line that passes it (`-hf "$HF_TOKEN"`, `--env HF_TOKEN`)."""
    why: str
    """What follows "A Hugging Face access token" when the launch asks for it (` of an account granted …`)."""
    cited: tuple[Cited, ...]


def environment_steps(releases: Releases, found: Documented) -> tuple[list[Step], list[dict[str, str]], list[str]]:
    """The steps that make the launcher's environment, the launch's own input for it, and notes."""
    commit = found.release.commit
    if found.launcher == "train.sh":
        return [], [], []
    if found.prelude:
        return _pip_step(releases, commit, found.prelude[0])
    if found.runner.startswith("uv run"):
        return _uv_steps(releases, commit)
    return [], [], []


def _pip_step(releases: Releases, commit: str, written: str) -> tuple[list[Step], list[dict[str, str]], list[str]]:
    readme = releases.text(commit, PERFORMANCE_README) or ""
    line = _line_of(readme, written)
    heading = _heading_above(readme, line)
    pin = _locked(releases, commit, "nemo-run")
    environment = {
        "name": ENVIRONMENT,
        "description": (
            "A Python virtual environment on the login node, created where you prefer and active, as the "
            f"README's {heading or 'setup'} says; setup_experiment.py runs in it"
        ),
        "origin": "your login node (`python3 -m venv <folder>`, then `source <folder>/bin/activate`)",
        "kind": "python-environment",
    }
    if pin is None:
        notes = "The release pins no NeMo-Run (its uv.lock names none): the README's command, unpinned, as written."
        commands, rests_on = written, ()
    else:
        commands = f"pip install {pin.requirement}"
        notes = (
            f"The README installs NeMo-Run's default branch, unpinned (`{written}`); this step installs the "
            f"NeMo-Run this release resolves in its uv.lock ({pin.described}, lines {pin.cited.first}-"
            f"{pin.cited.last}), so that the launcher runs with what the release was made with."
        )
        rests_on = (pin.cited,)
    step = Step(
        f"Install NeMo-Run, which the launcher runs with, in a Python virtual environment ({heading or 'the README'})",
        Cited(PERFORMANCE_README, line, line, "install NeMo-Run"),
        commands + "\n",
        notes,
        (environment,),
        rests_on,
    )
    launch_input = {
        **environment,
        "description": (
            "The Python virtual environment prepare.sh installed NeMo-Run into, active on the login node: "
            "setup_experiment.py imports nemo_run"
        ),
        "origin": "step 1 of the preparation (the README's " + (heading or "setup") + ")",
    }
    return [step], [launch_input], []


def _uv_steps(releases: Releases, commit: str) -> tuple[list[Step], list[dict[str, str]], list[str]]:
    steps: list[Step] = []
    notes: list[str] = []
    pyproject = releases.text(commit, PYPROJECT) or ""
    source = re.search(r'^megatron-core\s*=\s*\{\s*path\s*=\s*"([^"]+)"', pyproject, re.M)
    if source is not None:
        folder = source.group(1).rstrip("/")
        source_line = pyproject.count("\n", 0, source.start()) + 1
        command = f"git submodule update --init {folder}"
        documented = [
            (path, line)
            for path, line, text in releases.source.at(commit).grep(command)
            if path.endswith(".md") and text.strip() == command
        ]
        if documented:
            path, line = documented[0]
            steps.append(
                Step(
                    f"Check out the {folder} submodule, which the project's uv environment installs megatron-core from",
                    Cited(path, line, line, "the submodule, checked out"),
                    command + "\n",
                    (
                        f"pyproject.toml line {source_line} installs megatron-core from {folder}, a submodule a "
                        "clone leaves empty: `uv run` cannot make the environment without it. The command is the "
                        f"release's own ({path} line {line}); the performance README does not say it."
                    ),
                    rests_on=(Cited(PYPROJECT, source_line, source_line, "megatron-core from the submodule"),),
                )
            )
        else:
            notes.append(
                f"pyproject.toml line {source_line} installs megatron-core from the {folder} submodule, which a "
                "clone leaves empty, and the release documents no command that checks it out: `git submodule "
                f"update --init {folder}` would."
            )
    extra = _extra_holding(pyproject, "nemo-run")
    imports = _import_line(releases.text(commit, LAUNCHER) or "", "nemo_run")
    pin = _locked(releases, commit, "nemo-run")
    if extra is not None:
        name, first, last = extra
        rests_on = [pin.cited] if pin is not None else []
        if imports:
            rests_on.append(Cited(LAUNCHER, imports, imports, "the launcher imports nemo_run"))
        pinned = f" at the versions uv.lock pins ({pin.described}, lines {pin.cited.first}-{pin.cited.last})"
        steps.append(
            Step(
                f"Install NeMo-Run, which the launcher imports, into the project's environment: pyproject.toml "
                f"keeps it in the optional `{name}` extra, which `uv run` leaves out",
                Cited(PYPROJECT, first, last, f"the {name} extra (NeMo-Run)"),
                f"uv sync --locked --extra {name}\n",
                (
                    f"The README names no such step. `uv sync --locked --extra {name}` is uv's own way to install "
                    f"the project's `{name}` extra{pinned if pin else ''} into the environment `uv run` then "
                    "uses, which keeps what is installed beyond the project's own dependencies."
                ),
                rests_on=tuple(rests_on),
            )
        )
    elif imports:
        notes.append(
            f"setup_experiment.py imports nemo_run (line {imports}), which the release's pyproject.toml names in no "
            "extra: the launch's uv environment may not have it."
        )
    return steps, [], notes


@dataclass(frozen=True)
class _Pin:
    requirement: str
    """What pip installs: `nemo-run==0.5.0`, or `git+URL@commit`."""
    described: str
    cited: Cited


def _locked(releases: Releases, commit: str, package: str) -> _Pin | None:
    """The version of `package` the release's uv.lock resolves, as pip installs it, and its lines."""
    text = releases.text(commit, UV_LOCK)
    if text is None:
        return None
    block = re.search(
        rf'^\[\[package\]\]\nname = "{re.escape(package)}"\nversion = "([^"]+)"\nsource = \{{ (\w+) = "([^"]+)" \}}',
        text,
        re.M,
    )
    if block is None:
        return None
    version, kind, where = block.groups()
    first = text.count("\n", 0, block.start()) + 2  # the name's line
    last = text.count("\n", 0, block.end()) + 1
    cited = Cited(UV_LOCK, first, last, f"the {package} the release resolves")
    if kind == "registry":
        return _Pin(f"{package}=={version}", f"{package} {version} from {where}", cited)
    git = re.fullmatch(r"(https://[^?#]+)(?:\?[^#]*)?#([0-9a-f]{40})", where) if kind == "git" else None
    if git is None:
        return None
    return _Pin(f"git+{git.group(1)}@{git.group(2)}", f"{package} {version} at commit {git.group(2)}", cited)


def _extra_holding(pyproject: str, package: str) -> tuple[str, int, int] | None:
    """The optional extra of pyproject.toml whose list holds `package` alone by name: (its name, its lines)."""
    section = re.search(r"^\[project\.optional-dependencies\]\n(.*?)(?=^\[)", pyproject, re.M | re.S)
    if section is None:
        return None
    for extra in re.finditer(r"^([A-Za-z0-9_-]+)\s*=\s*\[(.*?)\]", section.group(1), re.M | re.S):
        names = re.findall(r'"([A-Za-z0-9_.-]+)', extra.group(2))
        if package in names:
            start = section.start(1) + extra.start()
            end = section.start(1) + extra.end()
            return extra.group(1), pyproject.count("\n", 0, start) + 1, pyproject.count("\n", 0, end) + 1
    return None


def _import_line(text: str, module: str) -> int:
    for number, line in enumerate(text.splitlines(), start=1):
        if re.match(rf"\s*(import {module}\b|from {module}\b)", line):
            return number
    return 0


def hf_token(releases: Releases, found: Documented, model: str) -> Token | None:
    """The launcher's token option where the launch needs a Hugging Face token, with why; else None."""
    commit = found.release.commit
    why: str | None = None
    cited: list[Cited] = []
    repository = GATED.get(model)
    if repository is not None:
        hits = [
            (path, line)
            for path, line, _ in releases.source.at(commit).grep(f'"{repository}"')
            if path.startswith(LIBRARY_RECIPES) and path.endswith(".py")
        ]
        if hits:
            path, line = hits[0]
            why = (
                f" of an account granted access to {repository}, a gated Hugging Face repository: the library "
                f"recipe reads the model's configuration from it ({path} line {line})"
            )
            cited.append(Cited(path, line, line, f"the model's configuration, read from {repository}"))
            cited += _gated_guide(releases, commit)
    asserted = _asserted(releases, commit, found) if found.launcher != "train.sh" else None
    if asserted is not None:
        first, last = asserted
        why = why or (
            f", any account's: the launcher refuses to start this model's run without one ({LAUNCHER} lines "
            f"{first}-{last})"
        )
        cited.append(Cited(LAUNCHER, first, last, "the launcher asks this model for a token"))
    if why is None:
        return None
    if found.launcher == "train.sh":
        text = releases.text(commit, TRAINING_LAUNCHER) or ""
        line = _line_of(text, "--env HF_TOKEN")
        if not line:
            return None
        cited.append(Cited(TRAINING_LAUNCHER, line, line, "--env HF_TOKEN passes the token to the job"))
        return Token("--env HF_TOKEN", why, tuple(cited))
    readme = releases.text(commit, PERFORMANCE_README) or ""
    line = _line_of(readme, "-hf <HF_TOKEN>") or _line_of(readme, "-hf/--hf_token")
    if not line:
        return None
    cited.append(Cited(PERFORMANCE_README, line, line, "the launcher's Hugging Face token option"))
    return Token('-hf "$HF_TOKEN"', why, tuple(cited))


def token_input(token: Token) -> dict[str, str]:
    return {
        "name": "HF_TOKEN",
        "description": f"A Hugging Face access token{token.why}; the command passes it ({token.option})",
        "origin": "https://huggingface.co/settings/tokens, as the performance README says",
        "kind": "access-token",
    }


def _gated_guide(releases: Releases, commit: str) -> list[Cited]:
    text = releases.text(commit, BRIDGE_GUIDE) or ""
    start = _line_of(text, "Accessing Gated")
    if not start:
        return []
    end = _line_of(text, "export HF_TOKEN", start) or start
    return [Cited(BRIDGE_GUIDE, start, end, "accessing gated Hugging Face models")]


def _asserted(releases: Releases, commit: str, found: Documented) -> tuple[int, int] | None:
    """The lines of the launcher's test that asserts a token for this configuration, if it has one."""
    module = releases.module(commit, LAUNCHER)
    if module is None:
        return None
    options = dict(found.selection)
    names = {options.get(flag) for flag in ("-m", "-mr", "-s")} - {None}
    task = options.get("--task", "pretrain")
    if not names:
        return None
    for node in ast.walk(module.tree):
        if not isinstance(node, ast.If):
            continue
        asserts = [
            inner for inner in node.body if isinstance(inner, ast.Assert) and "hf_token" in ast.unparse(inner.test)
        ]
        if not asserts:
            continue
        constants = {item.value for item in ast.walk(node.test) if isinstance(item, ast.Constant)}
        tasks = constants & set(TASKS)
        if names <= constants and (not tasks or task in tasks):
            return node.lineno, asserts[-1].end_lineno or asserts[-1].lineno
    return None


def _line_of(text: str, needle: str, start: int = 1) -> int:
    for number, line in enumerate(text.splitlines(), start=1):
        if number >= start and needle in line:
            return number
    return 0


def _heading_above(text: str, line: int) -> str:
    lines = text.splitlines()
    for number in range(line - 1, 0, -1):
        heading = re.match(r"#{1,6}\s+(.*)", lines[number - 1])
        if heading:
            return heading.group(1).strip()
    return ""
