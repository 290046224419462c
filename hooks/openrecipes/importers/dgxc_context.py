"""What a DGX Cloud Benchmarking workload's own files say at a release tag, beside its README's tables:
the GPUs per node, the framework and its container release, and the sequence length of the model
YAML a NeMo launcher workload runs. Read with `git show` and, for shell, with `reading/shellenv`
(bash's grammar, never run); each value with the file and line it is written on.

- GPUs per node: the launch script's `GPUS_PER_NODE=${GPUS_PER_NODE:-4}` (or `DEF_GPUS_PER_NODE=4`,
  `RUN_CONF_GPUS_PER_NODE=…`) in the branch of `if [ $GPU_TYPE = "gb200" ]` for the GPU type, or set
  whatever the GPU type; before v25.04, the Slurm header's `#SBATCH --ntasks-per-node=8`, where the
  script counts its GPUs as nodes × tasks per node. A value that differs between branches the GPU
  type does not decide (a model size) is not taken.
- The framework: the launch script's `export FRAMEWORK=nemo` (until v25.04) or `metadata.yaml`'s
  `framework: nemo2` (from v25.05); its release, the script's `export FW_VERSION=24.09` where it is
  set whatever the model size.
- The sequence length, for the NeMo launcher workloads (v24.11.1 to v25.03) whose tables do not
  print it: `model.encoder_seq_length` of the one YAML of the workload's folder named for the
  model size (`llama3.1_70b.yaml`), which the launch passes as `--config-name`; taken only where no
  script of the folder sets `SEQ_LEN`, the variable `configure.sh` overrides it with.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..reading import shellenv
from .dgxc import model_size
from .gitsource import GitSource

_DEFAULTED = re.compile(r"^\$\{[A-Za-z_]\w*:-(\d+)\}(?![\s\S])")
_PER_NODE_NAMES = ("GPUS_PER_NODE", "DEF_GPUS_PER_NODE", "RUN_CONF_GPUS_PER_NODE", "SLURM_NTASKS_PER_NODE")
_GPU_TYPES = ("H100", "H200", "B200", "B300", "GB200", "GB300")
_SBATCH_TASKS = re.compile(r"^#SBATCH\s+--ntasks-per-node=(\d+)\s*$")
_GUARD = "unless it returned"
_JOB_TOTAL_GPUS = re.compile(r"JOB_TOTAL_GPUS=.*SLURM_JOB_NUM_NODES\}? \* \$\{?SLURM_NTASKS_PER_NODE")
_GPU_WORD = re.compile(r"(?<![A-Za-z0-9])(gb200|gb300|b200|b300|h100|h200)(?![0-9])", re.IGNORECASE)
_SEQ_LENGTH = re.compile(r"^\s+encoder_seq_length:\s*(\d+)\s*(?:#.*)?$")
_METADATA_FRAMEWORK = re.compile(r"^\s+framework:\s*['\"]?([\w.-]+)['\"]?\s*$")
_SEQ_LEN_SET = re.compile(r"(?<![\w$])SEQ_LEN=")

FRAMEWORKS = {"nemo": "NeMo", "nemo2": "NeMo 2", "maxtext": "MaxText", "paxml": "PAXML", "hf": "Hugging Face TRL"}
"""The launch script's FRAMEWORK (metadata.yaml's framework) and how a reader knows it."""


@dataclass(frozen=True)
class Stated:
    """A value one of the publisher's files states, and where."""

    value: int | str
    path: str
    line: int
    text: str
    """The line as written, stripped."""


@dataclass(frozen=True)
class Workload:
    """A workload folder's files at a release tag."""

    folder: str
    launch: str | None
    """The launch script (`llama3.1/launch.sh`, `hf-llama2/launch_70b.sh`); None where there is none."""
    files: tuple[str, ...]
    """The scripts and configuration of the folder: what the README says produce its figures."""
    per_node: tuple[tuple[str, Stated], ...]
    """GPU type (`H100`) → GPUs per node."""
    framework: Stated | None
    version: Stated | None
    seq_len: tuple[tuple[str, Stated], ...]
    """Model size (`70b`) → the sequence length of its YAML."""

    def gpus_per_node(self, gpu: str) -> Stated | None:
        return dict(self.per_node).get(gpu)

    def sequence_length(self, model: str) -> Stated | None:
        size = model_size(model)
        return dict(self.seq_len).get(size) if size else None


def workload(source: GitSource, readme: str) -> Workload:
    """The files of the README's folder at the source's commit."""
    folder = readme.rsplit("/", 1)[0] if "/" in readme else "."
    files = [path for path in source.list(folder) if path.endswith((".sh", ".yaml", ".py"))] if folder != "." else []
    scripts = [path for path in files if path.endswith(".sh")]
    launch = next((path for path in scripts if path.endswith("/launch.sh")), None)
    if launch is None:
        named = [path for path in scripts if path.rsplit("/", 1)[-1].startswith("launch")]
        launch = named[0] if len(named) == 1 else None
    settings: tuple[shellenv.Setting, ...] = ()
    text = ""
    if launch is not None:
        text = source.show(launch)
        settings = shellenv.read(launch, text, lambda *_: None).settings
    return Workload(
        folder=folder,
        launch=launch,
        files=tuple(files),
        per_node=tuple(_per_node(launch, text, settings)),
        framework=_framework(source, folder, settings, files),
        version=_unconditional(settings, "FW_VERSION"),
        seq_len=tuple(_sequence_lengths(source, files, scripts)),
    )


def _guarded_only(setting: shellenv.Setting) -> bool:
    """Whether the setting runs whatever the script's tests find, but for its early exits."""
    return all(condition.test.startswith(_GUARD) for condition in setting.conditions)


def _for_gpu(setting: shellenv.Setting, gpu: str) -> bool:
    """Whether the setting runs for the GPU type: every test of a branch it is in that names GPU types
    names this one (an `else` of such a test is not known to)."""
    for condition in setting.conditions:
        if condition.test.startswith(_GUARD):
            continue
        own = condition.test.split(" of ", 1)[0]
        names = {name.lower() for name in _GPU_WORD.findall(own)}
        if own.startswith("else"):
            if _GPU_WORD.search(condition.test):
                return False
            continue
        if names and gpu.lower() not in names:
            return False
    return True


def _number(value: str) -> int | None:
    if value.isdigit():
        return int(value)
    match = _DEFAULTED.match(value)
    return int(match.group(1)) if match else None


def _per_node(launch: str | None, text: str, settings: tuple[shellenv.Setting, ...]) -> list[tuple[str, Stated]]:
    if launch is None:
        return []
    lines = text.splitlines()
    found = []
    for gpu in _GPU_TYPES:
        values = {
            (number, setting.line)
            for setting in settings
            if setting.name in _PER_NODE_NAMES
            and setting.kind == "assign"
            and (number := _number(setting.value)) is not None
            and _for_gpu(setting, gpu)
        }
        if len({number for number, _ in values}) == 1:
            number, line = min(values, key=lambda item: item[1])
            found.append((gpu, Stated(number, launch, line, lines[line - 1].strip())))
    if found:
        return found
    # Before the GPU_TYPE branches (H100 only): Slurm starts a task per GPU, and the script counts its
    # GPUs as nodes × tasks per node.
    counted = _JOB_TOTAL_GPUS.search(text)
    for number, line in enumerate(lines, start=1):
        match = _SBATCH_TASKS.match(line)
        if match and counted:
            return [("H100", Stated(int(match.group(1)), launch, number, line.strip()))]
    return []


def _unconditional(settings: tuple[shellenv.Setting, ...], name: str) -> Stated | None:
    assigned = [setting for setting in settings if setting.name == name and setting.kind == "assign"]
    if len(assigned) != 1 or not _guarded_only(assigned[0]) or assigned[0].expression:
        return None
    setting = assigned[0]
    return Stated(setting.value, setting.path, setting.line, f"{name}={setting.value}")


def _framework(
    source: GitSource, folder: str, settings: tuple[shellenv.Setting, ...], files: list[str]
) -> Stated | None:
    stated = _unconditional(settings, "FRAMEWORK")
    if stated is not None:
        return stated
    metadata = f"{folder}/metadata.yaml"
    if metadata in files:
        for number, line in enumerate(source.show(metadata).splitlines(), start=1):
            match = _METADATA_FRAMEWORK.match(line)
            if match:
                return Stated(match.group(1), metadata, number, line.strip())
    return None


def _sequence_lengths(source: GitSource, files: list[str], scripts: list[str]) -> list[tuple[str, Stated]]:
    if any(_SEQ_LEN_SET.search(source.show(path)) for path in scripts):
        return []
    by_size: dict[str, list[str]] = {}
    for path in files:
        name = path.rsplit("/", 1)[-1]
        size = model_size(name.replace("_", " ").replace("-", " ").removesuffix(".yaml"))
        if path.endswith(".yaml") and name != "metadata.yaml" and size:
            by_size.setdefault(size, []).append(path)
    found = []
    for size, paths in sorted(by_size.items()):
        if len(paths) != 1:
            continue
        for number, line in enumerate(source.show(paths[0]).splitlines(), start=1):
            match = _SEQ_LENGTH.match(line)
            if match:
                found.append((size, Stated(int(match.group(1)), paths[0], number, line.strip())))
                break
    return found
