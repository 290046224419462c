"""The GPU count, global batch and sequence length an MLPerf result's documented launch runs.

A `config_*.sh` exports variables (`DGXNNODES`, `DGXNGPU`, `MINIBS`, `TP`…); the implementation
turns them into its run's configuration. NVIDIA's NeMo implementations, and the many submissions
built on them, do so in a Hydra YAML configuration that their training script names
(`@hydra_runner(config_path="conf", config_name="megatron_gpt_peft_tuning_config")`), where
`model.global_batch_size` is computed from `MINIBS` and the layout and `model.encoder_seq_length`
is written or taken from `MAX_SEQLEN`. This module reads that configuration (`hydraconf.py`) with
the environment the launch gives it:

- a variable the configuration exports unconditionally has its value;
- one it sets only under a condition, or as a shell expression, or one a file it sources (missing
  at the commit) or a command it runs (not read) may set, is not known;
- one it does not set takes the default `run.sub` gives it (`: "${DGXNGPU:=8}"`), where `run.sub`
  sets it only that way; else the YAML's own default (`${oc.env:MAX_SEQLEN,8192}`).

The GPU count is `DGXNNODES` × `DGXNGPU` from the same environment. A value that cannot be read
is left out of `sets`, and the notes say why; nothing is guessed from file names.
"""

from __future__ import annotations

import ast
import posixpath
import re
from dataclasses import dataclass, field

from ..reading.gitrev import GitError
from . import hydraconf
from . import mlperf as mp
from .common import Cited, MissingFile
from .gitsource import GitSource
from .hydraconf import Resolved

KEYS = {"gbs": "model.global_batch_size", "seq_length": "model.encoder_seq_length"}
"""`launch.sets` key -> the NeMo configuration key that holds it."""

_OVERRIDE = re.compile(r"\b(?:model\.)?(global_batch_size|encoder_seq_length)=")


@dataclass
class Effective:
    values: dict[str, int] = field(default_factory=dict)
    cited: list[Cited] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    missing: list[MissingFile] = field(default_factory=list)
    """The training configuration the code names, where it is not at the commit."""


@dataclass
class _Environment:
    """The variables the implementation reads, as the launch leaves them, and where each comes from."""

    source: GitSource
    workdir: str
    config: mp.ShellConfig
    used: dict[str, str] = field(default_factory=dict)
    """NAME -> where its value comes from, in words, for the notes."""
    cited: list[Cited] = field(default_factory=list)

    def __call__(self, name: str) -> Resolved | None:
        found = self.config.values.get(name)
        if found is not None:
            if found.expression:
                return hydraconf.not_known(f"{name} is set by a shell expression ({found.path} line {found.line})")
            self.used[name] = f"{name}={found.value} ({found.path.rsplit('/', 1)[-1]} line {found.line})"
            return Resolved(found.value)
        if any(item.name == name for item in self.config.conditional):
            return hydraconf.not_known(f"the configuration sets {name} only under a condition")
        if self.config.missing or self.config.unread:
            return hydraconf.not_known(
                f"the configuration does not set {name}, but sources a file missing at this commit or runs a command "
                "not read, which may"
            )
        default = self._run_sub_default(name)
        if default is not None:
            return default
        self.used[name] = f"{name} not set (the YAML's default)"
        return None

    def _run_sub_default(self, name: str) -> Resolved | None:
        path = f"{self.workdir}/run.sub"
        if not self.source.exists(path):
            return None
        lines = self.source.show(path).splitlines()
        pattern = re.compile(rf'^\s*:\s*"\$\{{{name}:=([^}}"$`]*)\}}"\s*$')
        defaults = [(number, match.group(1)) for number, line in enumerate(lines, 1) if (match := pattern.match(line))]
        others = [
            number
            for number, line in enumerate(lines, 1)
            if re.search(rf"(^|[\s;]){name}=|export\s+{name}\b|\$\{{{name}:?=", line) and not pattern.match(line)
        ]
        if others:
            return hydraconf.not_known(f"run.sub sets {name} at line {others[0]} otherwise than as a default")
        if len(defaults) != 1:
            return None
        number, value = defaults[0]
        self.used[name] = f"{name}={value} (run.sub's default, line {number})"
        self.cited.append(Cited(path, number, number, f"{name}'s default where the configuration sets none"))
        return Resolved(value)


def read(source: GitSource, workdir: str, config: mp.ShellConfig, code: str | None = None) -> Effective:
    """What the launch run from `workdir` with `config` sourced runs of GPUs, global batch and sequence
    length; `code` is the implementation whose training code and configuration its image holds, where
    not `workdir`'s own (mlperf_launch.Documented.code)."""
    found = Effective()
    code = code or workdir
    env = _Environment(source, workdir, config)
    nodes, per_node = env("DGXNNODES"), env("DGXNGPU")
    gpus = _whole(nodes) * _whole(per_node) if _whole(nodes) and _whole(per_node) else None
    if gpus:
        found.values["gpus"] = gpus
    else:
        why = next((item.why for item in (nodes, per_node) if item is not None and not item.known), "")
        found.notes.append(
            "Not in sets: the GPU count, since DGXNNODES × DGXNGPU cannot be read"
            + (f" ({why})." if why else " (the configuration does not set them).")
        )
    composed, entry = _configuration(source, code, env, found)
    if composed is not None and entry is not None:
        _batch_and_sequence(source, code, composed, entry, env, found)
    found.cited = [*env.cited, *found.cited]
    return found


def _whole(value: Resolved | None) -> int | None:
    if value is None or not value.known:
        return None
    text = str(value.value).strip()
    return int(text) if text.isdigit() and int(text) > 0 else None


def _configuration(
    source: GitSource, workdir: str, env: _Environment, found: Effective
) -> tuple[hydraconf.Config | None, tuple[str, int, str, str] | None]:
    entries = _hydra_entries(source, workdir)
    for script, line, _, _ in entries:  # cited whatever comes of them: the note rests on them
        found.cited.append(Cited(script, line, line, "the configuration the training script runs"))
    if len(entries) != 1:
        what = "names" if not entries else f"name {len(entries)} different"
        found.notes.append(
            f"Not in sets: the global batch and the sequence length, since no one training script of {workdir} "
            f"{what} the Hydra configuration it runs (hydra.main, hydra_runner)."
        )
        return None, None
    ((script, line, folder, name),) = entries
    resolvers = hydraconf.registered_resolvers(script, source.show(script))

    def read_file(path: str) -> str | None:
        return source.show(path) if source.exists(path) else None

    composed = hydraconf.compose(read_file, folder, name, {key: item[0] for key, item in resolvers.items()}, env)
    if composed is None:
        found.notes.append(f"Not in sets: the global batch and the sequence length: {folder}/{name}.yaml is missing.")
        runs = f"the Hydra configuration {script.rsplit('/', 1)[-1]} runs"
        found.missing.append(MissingFile(f"{folder}/{name}.yaml", script, line, runs))
        return None, None
    return composed, (script, line, folder, name)


def _batch_and_sequence(
    source: GitSource,
    workdir: str,
    composed: hydraconf.Config,
    entry: tuple[str, int, str, str],
    env: _Environment,
    found: Effective,
) -> None:
    overridden = _overridden(source, workdir)
    said = []
    for key, name in KEYS.items():
        label = "global batch" if key == "gbs" else "sequence length"
        if name.rsplit(".", 1)[-1] in overridden:
            path, number = overridden[name.rsplit(".", 1)[-1]]
            found.notes.append(f"Not in sets: the {label}, which {path} line {number} overrides on the command line.")
            continue
        value, written = composed.resolve(name)
        if written is not None:  # cited whatever its value: what the notes say rests on it
            if written.path != composed.primary and composed.defaults_lines is not None:
                first, last = composed.defaults_lines
                found.cited.append(Cited(composed.primary, first, last, "the defaults list naming the file below"))
            found.cited.append(Cited(written.path, written.line, written.line, f"{name}"))
        if not value.known or not isinstance(value.value, int) or isinstance(value.value, bool) or value.value < 1:
            why = value.why if not value.known else f"{value.value!r} is not a whole number"
            found.notes.append(f"Not in sets: the {label} ({name}), since {why}.")
            continue
        assert written is not None
        found.values[key] = value.value
        said.append(f"{label} {value.value:,} ({name}, {posixpath.relpath(written.path, workdir)} line {written.line})")
    if said:
        variables = "; ".join(env.used[name] for name in sorted(env.used))
        found.notes.append(
            f"The implementation's configuration ({entry[2]}/{entry[3]}.yaml, which {entry[0].rsplit('/', 1)[-1]} "
            f"runs) computes from the environment the launch gives it ({variables}): " + ", ".join(said) + "."
        )


def _overridden(source: GitSource, workdir: str) -> dict[str, tuple[str, int]]:
    """Keys a shell file of the implementation (not a configuration) passes as a Hydra override."""
    found: dict[str, tuple[str, int]] = {}
    for path in _files(source, workdir):
        name = path.rsplit("/", 1)[-1]
        if not (name.endswith((".sh", ".sub")) and not name.startswith("config_")):
            continue
        for number, line in enumerate(source.show(path).splitlines(), 1):
            if line.lstrip().startswith("#"):
                continue
            for match in _OVERRIDE.finditer(line):
                found.setdefault(match.group(1), (path, number))
    return found


def _hydra_entries(source: GitSource, workdir: str) -> list[tuple[str, int, str, str]]:
    """(script, line, config folder, config name) of each Hydra entry point of the implementation's
    own Python files (its folder and `src/`, not a bundled copy of NeMo)."""
    found: dict[tuple[str, str], tuple[str, int, str, str]] = {}
    for folder in (workdir, f"{workdir}/src"):
        for path in _files(source, folder):
            if not path.endswith(".py"):
                continue
            try:
                tree = ast.parse(source.show(path))
            except (SyntaxError, ValueError):
                continue
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call):
                    continue
                name = ast.unparse(node.func)
                if name not in ("hydra_runner", "hydra.main"):
                    continue
                words = {
                    keyword.arg: keyword.value.value
                    for keyword in node.keywords
                    if isinstance(keyword.value, ast.Constant) and isinstance(keyword.value.value, str)
                }
                if "config_path" in words and "config_name" in words:
                    config_folder = posixpath.normpath(posixpath.join(posixpath.dirname(path), words["config_path"]))
                    found.setdefault(
                        (config_folder, words["config_name"]), (path, node.lineno, config_folder, words["config_name"])
                    )
    return list(found.values())


def _files(source: GitSource, folder: str) -> list[str]:
    """The files directly in `folder`; none when there is no such folder."""
    try:
        return source.list(folder)
    except GitError:
        return []
