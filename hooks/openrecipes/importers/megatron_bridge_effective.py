"""The configuration a Megatron-Bridge launch runs, dimension by dimension, read from the release's own files.

The launcher of a release loads a Python function that builds the run's `ConfigContainer`. What
the run's TP, batch sizes or sequence length are is what that function, the library recipe it
starts from and the defaults those inherit leave in it, and then what the launcher itself does
with it. This module evaluates the function with `pyconfig` (read with `ast`, never imported) and
applies the launcher's own rules, each of the release's shape:

- `flat` (0.6 on, `scripts/training/train.sh --recipe F`): F() is the configuration; the runner
  then sets the model's sequence length from the dataset's (`sync_model_dataset_sequence_length`),
  so the run's sequence length is the dataset's.
- `variants` (0.3 to 0.5, `setup_experiment.py -m … -mr … -c …`): the family's
  `<recipe>_<task>_config_<gpu>(precision=…, config_variant=…)`, whose `get_workload_base_config`
  call (an `importlib` lookup) gives the workload constant the importer chose as the launcher
  would; `set_user_overrides` then replaces the dataset by a mock dataset as long as the model's
  sequence length (the defaults `--data mock`, `--domain llm`), so the run's sequence length is
  the model's.
- `base` (0.2, `setup_experiment.py -m … -s … -c …`): `configs/<model>/<model>_llm_<task>.py`'s
  `<model>_<size>_<gpu>[_<task>]_config(precision=…)`; the run's sequence length is the dataset's,
  which the configuration's check requires the model's to equal.

In 0.2 to 0.5 the launcher scales the global batch by `-ng` / the workload constant's `num_gpus`
when they differ and no `-gb` is given; the GPU count is the command's own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from . import pyconfig
from .common import Cited
from .pyconfig import Val, Where

FIELDS: dict[str, tuple[str, str]] = {
    "tp": ("model", "tensor_model_parallel_size"),
    "pp": ("model", "pipeline_model_parallel_size"),
    "vp": ("model", "virtual_pipeline_model_parallel_size"),
    "cp": ("model", "context_parallel_size"),
    "ep": ("model", "expert_model_parallel_size"),
    "etp": ("model", "expert_tensor_parallel_size"),
    "gbs": ("train", "global_batch_size"),
    "mbs": ("train", "micro_batch_size"),
}
"""`launch.sets` key -> the `ConfigContainer` field that holds it."""

FIELDS_OBJECTS = ("model", "train", "dataset")
"""The parts of a `ConfigContainer` that hold the fields of sets."""

NULLABLE = ("vp", "etp")
"""Keys whose None means something (no interleaving; experts' TP left to TP)."""

COMPUTE_PRECISION: dict[str, str] = {
    "bf16": "bf16",
    "fp8_cs": "fp8",
    "fp8_sc": "fp8",
    "fp8_mx": "mxfp8",
    "nvfp4": "nvfp4",
}
"""The launcher's compute dtype (`-c`, or the flat function's name) -> `workload.precision`'s word."""

READABLE = ("megatron.bridge.recipes", "megatron.bridge.perf_recipes")
"""The packages of `src/` read: the perf recipes and the library recipes they start from."""

SCRIPT_PACKAGES = ("configs", "utils")
"""Top-level packages of `scripts/performance/` (on the launcher's path in 0.2 to 0.5)."""

ALIASES = {"seq_length": "sequence_length", "sequence_length": "seq_length"}
"""A dataset config's two names of its sequence length (one a property of the other from 0.4)."""

TRACKED = frozenset(
    {*(path[1] for path in FIELDS.values()), *FIELDS_OBJECTS, "seq_length", "sequence_length", "env_vars"}
)
"""The attributes whose assignments the evaluation reads (pyconfig's `tracked`): the fields of sets,
the objects holding them, and the environment."""
"""A dataset config's two names of its sequence length (one a property of the other from 0.4)."""


@dataclass(frozen=True)
class Effective:
    """What the run's configuration holds of each dimension, and where it is written."""

    values: dict[str, int | str | None]
    origins: dict[str, Where]
    unresolved: dict[str, str]
    """Keys whose value is not known, each with why."""
    cited: tuple[Cited, ...]


def evaluator(
    read: Callable[[str], str | None], scripts: bool, intercepts: dict[str, Callable[..., Val]] | None = None
) -> pyconfig.Evaluator:
    """An evaluator of one commit's files: the recipes under `src/`, and `scripts/performance/` when
    the launcher puts it on the path (`scripts`)."""

    def locate(dotted: str) -> tuple[str, ...]:
        if any(dotted == package or dotted.startswith(package + ".") for package in READABLE):
            base = "src/" + dotted.replace(".", "/")
            return (f"{base}.py", f"{base}/__init__.py")
        if scripts and dotted.split(".")[0] in SCRIPT_PACKAGES:
            base = "scripts/performance/" + dotted.replace(".", "/")
            return (f"{base}.py", f"{base}/__init__.py")
        return ()

    return pyconfig.Evaluator(
        read=read, locate=locate, intercepts=dict(intercepts or {}), aliases=ALIASES, tracked=TRACKED
    )


def dotted(path: str) -> str:
    """`src/megatron/bridge/x/y.py` -> `megatron.bridge.x.y`; `scripts/performance/configs/a.py` -> `configs.a`."""
    for root in ("src/", "scripts/performance/"):
        if path.startswith(root):
            path = path[len(root) :]
    return path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


def read_effective(
    cfg: Val, shape: str, precision: str, gpus: int, ev: pyconfig.Evaluator, cited_runs: Callable[[str], bool]
) -> Effective:
    """The dimensions of an evaluated configuration as the launcher of `shape` runs them."""
    values: dict[str, int | str | None] = {"gpus": gpus}
    origins: dict[str, Where] = {}
    unresolved: dict[str, str] = {}
    for key, path in FIELDS.items():
        found = pyconfig.field_at(cfg, *path)
        _keep(key, found, values, origins, unresolved)
    sequence = _sequence(cfg, shape)
    _keep("seq_length", sequence, values, origins, unresolved)
    if precision in COMPUTE_PRECISION:
        values["precision"] = COMPUTE_PRECISION[precision]
    else:
        unresolved["precision"] = f"the compute dtype {precision} is not one of {', '.join(COMPUTE_PRECISION)}"
    cited = list(_cited(ev, origins, cited_runs))
    return Effective(values, origins, unresolved, tuple(cited))


def _keep(
    key: str, found: Val, values: dict[str, int | str | None], origins: dict[str, Where], unresolved: dict[str, str]
) -> None:
    if not found.known:
        unresolved[key] = found.why or "not known"
        return
    value = found.value
    if value is None and key in NULLABLE:
        values[key] = None
    elif isinstance(value, int) and not isinstance(value, bool) and value >= 1:
        values[key] = value
    else:
        unresolved[key] = f"{value!r} is not a whole number of at least 1"
        return
    if found.where is not None:
        origins[key] = found.where


def _sequence(cfg: Val, shape: str) -> Val:
    model = pyconfig.field_at(cfg, "model", "seq_length")
    dataset = pyconfig.field_at(cfg, "dataset", "seq_length")
    if not dataset.known:
        dataset = pyconfig.field_at(cfg, "dataset", "sequence_length")
    if shape == "variants":
        return model
    if shape == "flat":
        return dataset
    if model.known and dataset.known and model.value != dataset.value:
        return pyconfig.unknown(
            f"the model's sequence length ({model.value}) and the dataset's ({dataset.value}) differ, which the "
            "configuration's own check refuses"
        )
    return dataset


def _cited(ev: pyconfig.Evaluator, origins: dict[str, Where], cited_runs: Callable[[str], bool]) -> Iterator[Cited]:
    """Every function run that the caller cites (`cited_runs(path)`), then the function or
    top-level statement each value of sets is written in."""
    for function in ev.run:
        if cited_runs(function.module.path):
            node = function.node
            yield Cited(function.module.path, node.lineno, node.end_lineno or node.lineno, node.name)
    for where in origins.values():
        enclosing = ev.enclosing(where)
        if enclosing is not None:
            yield Cited(*enclosing)
