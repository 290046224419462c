"""Sourced reference data (reference/*.yaml): GPU peaks, instance prices and model sizes."""

from __future__ import annotations

import datetime as dt
import difflib
import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..flops import parameter_counts
from ..problems import Problem
from .schema import Schema
from .yamlsource import SourceMap, read_document, read_file

REFERENCE_DIR = "reference"
REFERENCE_SCHEMA = "schema/reference.schema.yaml"

PEAK_COLUMN = {"bf16": "bf16", "fp16": "bf16", "fp8": "fp8", "mxfp8": "fp8", "nvfp4": "fp4", "mxfp4": "fp4"}
"""Which dense peak a training precision is measured against. FP16 and BF16 tensor rates are
equal on every listed GPU; MXFP8 runs at the FP8 rate, NVFP4 and MXFP4 at the FP4 rate."""


def normalise(name: str) -> str:
    """`H100 SXM`, `h100-sxm` and `H100_SXM` name the same GPU."""
    return re.sub(r"[^0-9a-z]", "", name.casefold())


@dataclass(frozen=True, slots=True)
class Sourced:
    source: str
    as_of: dt.date
    notes: str | None


@dataclass(frozen=True, slots=True)
class GpuSpec:
    key: str
    name: str
    vendor: str
    aliases: tuple[str, ...]
    memory_gb: float
    other_memory_gb: tuple[float, ...]
    bf16_tflops: float | None
    fp8_tflops: float | None
    fp4_tflops: float | None
    precisions: tuple[str, ...]
    """The formats its tensor cores multiply in."""
    sourced: Sourced
    colour: str | None = None
    """Its chart colour (`#RRGGBB`) when the reference gives one; charts choose one from the key otherwise."""

    def runs(self, precision: str) -> bool:
        return precision in self.precisions

    def peak_tflops(self, precision: str) -> float | None:
        """The dense peak a run at `precision` is measured against; None when the GPU cannot run it
        or no source publishes the peak."""
        if not self.runs(precision):
            return None
        column = PEAK_COLUMN[precision]
        return {"bf16": self.bf16_tflops, "fp8": self.fp8_tflops, "fp4": self.fp4_tflops}[column]

    @property
    def memory_options(self) -> tuple[float, ...]:
        return (self.memory_gb, *self.other_memory_gb)


@dataclass(frozen=True, slots=True)
class InstanceSpec:
    key: str
    provider: str
    kind: str
    """`hyperscaler` or `neocloud`: which price-basis preset it belongs to (pricebasis.py)."""
    gpu: str
    gpus: int
    usd_per_hour: float
    region: str | None
    sourced: Sourced

    @property
    def usd_per_gpu_hour(self) -> float:
        return self.usd_per_hour / self.gpus


@dataclass(frozen=True, slots=True)
class ModelSpec:
    key: str
    total_params: int
    active_params: int
    sourced: Sourced
    aliases: tuple[str, ...] = ()
    architecture: Mapping[str, Any] | None = None
    """The published configuration model FLOPs are computed from (flops.py), when it is known."""
    counts: str = "derived"
    """`derived` from `architecture` (exact) or the publisher's rounded `headline` figures."""
    same_architecture: tuple[str, ...] = ()
    """Keys of other models with exactly this architecture, as this entry writes them (one side of
    the relation: `Reference.same_architecture` gives both)."""
    same_architecture_source: str | None = None
    same_architecture_notes: str | None = None


@dataclass(frozen=True)
class Reference:
    gpus: Mapping[str, GpuSpec]
    instances: Mapping[str, InstanceSpec]
    models: Mapping[str, ModelSpec]

    def gpu(self, name: str) -> GpuSpec | None:
        """The GPU a recipe's `gpu.type` names, by key or alias, ignoring case and punctuation."""
        return self._gpu_names.get(normalise(name))

    def instance(self, name: str) -> InstanceSpec | None:
        return self._instance_names.get(normalise(name))

    def model(self, name: str) -> ModelSpec | None:
        """The model a recipe's `model` names, by key or alias, ignoring case and punctuation."""
        return self._model_names.get(normalise(name))

    # Every recipe looks up its GPU, instance and model: by index, not by normalising every name
    # of the reference data again for each one (a third of the checks' time at 1,000 recipes).
    # The first spec to claim a name wins, as the scan in the order of the file did.

    @functools.cached_property
    def _gpu_names(self) -> dict[str, GpuSpec]:
        return _by_name(self.gpus.values(), aliases=True)

    @functools.cached_property
    def _instance_names(self) -> dict[str, InstanceSpec]:
        return _by_name(self.instances.values(), aliases=False)

    @functools.cached_property
    def _model_names(self) -> dict[str, ModelSpec]:
        return _by_name(self.models.values(), aliases=True)

    def same_architecture(self, key: str) -> tuple[str, ...]:
        """The other models of the same architecture as model `key`, in the file's order: written on
        either side of the pair (a reader of Llama 3.1 8B's page wants Llama 3 8B's recipes, and the
        other way round), and through a chain of pairs (A = B and B = C make A = C)."""
        return self._architecture_groups.get(key, ())

    @functools.cached_property
    def _architecture_groups(self) -> dict[str, tuple[str, ...]]:
        linked: dict[str, set[str]] = {key: set() for key in self.models}
        for spec in self.models.values():
            for other in spec.same_architecture:
                if other in linked and other != spec.key:
                    linked[spec.key].add(other)
                    linked[other].add(spec.key)
        order = {key: index for index, key in enumerate(self.models)}
        groups: dict[str, tuple[str, ...]] = {}
        for key in self.models:
            seen, frontier = {key}, [key]
            while frontier:
                for other in linked[frontier.pop()]:
                    if other not in seen:
                        seen.add(other)
                        frontier.append(other)
            if len(seen) > 1:
                groups[key] = tuple(sorted(seen - {key}, key=order.__getitem__))
        return groups


def _by_name(specs: Iterable[Any], *, aliases: bool) -> dict[str, Any]:
    index: dict[str, Any] = {}
    for spec in specs:
        for name in (spec.key, *(spec.aliases if aliases else ())):
            index.setdefault(normalise(name), spec)
    return index


def closest(name: str, known: list[str]) -> str | None:
    by_normal = {normalise(option): option for option in known}
    match = difflib.get_close_matches(normalise(name), list(by_normal), n=1, cutoff=0.6)
    return by_normal[match[0]] if match else None


_KINDS = ("gpus", "instances", "models")


def load_reference(root: Path) -> tuple[Reference | None, list[Problem]]:
    """Read and validate reference/{gpus,instances,models}.yaml; None if any of them is broken.

    The same bytes give the same result (shared: never change it) without being parsed again: a
    build reads the reference data several times, and `mkdocs serve` once per rebuild."""
    raws, unread = [], []
    for kind in _KINDS:
        display = f"{REFERENCE_DIR}/{kind}.yaml"
        raw, problem = read_file(root / display, display)
        raws.append(raw)
        unread.append([problem] if problem else [])
    schema_text = (root / REFERENCE_SCHEMA).read_text(encoding="utf-8")
    reference, parsed, after = _parsed(schema_text, tuple(raws))
    problems = [problem for found, more in zip(unread, parsed, strict=True) for problem in (*found, *more)]
    if problems:
        return None, problems
    return (None if after else reference), list(after)


@functools.lru_cache(maxsize=4)
def _parsed(
    schema_text: str, raws: tuple[bytes | None, ...]
) -> tuple[Reference | None, tuple[tuple[Problem, ...], ...], tuple[Problem, ...]]:
    """The reference built from the files' bytes (None where a file could not be read): the problems
    of each file, and those found across files once every file is sound."""
    data: dict[str, Any] = {}
    maps: dict[str, SourceMap] = {}
    per_file = []
    for kind, raw in zip(_KINDS, raws, strict=True):
        display = f"{REFERENCE_DIR}/{kind}.yaml"
        file_problems: list[Problem] = []
        if raw is not None:
            document, file_problems = read_document(raw, display)
            if document is not None:
                file_problems += Schema.from_text(schema_text, f"{kind}_file").problems(
                    document.data, document.source_map, display, refused=file_problems
                )
            if document is not None and not file_problems:
                data[kind] = document.data
                maps[kind] = document.source_map
        per_file.append(tuple(file_problems))
    if any(per_file) or len(data) < len(_KINDS):
        return None, tuple(per_file), ()
    problems = _peak_columns(data["gpus"])
    reference = Reference(
        gpus={key: _gpu(key, entry) for key, entry in data["gpus"].items()},
        instances={key: _instance(key, entry) for key, entry in data["instances"].items()},
        models={key: _model(key, entry) for key, entry in data["models"].items()},
    )
    problems += _consistency(reference)
    problems += _same_architecture(reference, maps["models"])
    return reference, tuple(per_file), tuple(problems)


def _sourced(entry: Mapping[str, Any]) -> Sourced:
    return Sourced(entry["source"], entry["as_of"], entry.get("notes"))


def _gpu(key: str, entry: Mapping[str, Any]) -> GpuSpec:
    return GpuSpec(
        key=key,
        name=entry["name"],
        vendor=entry["vendor"],
        aliases=tuple(entry["aliases"]),
        memory_gb=entry["memory_gb"],
        other_memory_gb=tuple(entry.get("other_memory_gb", ())),
        bf16_tflops=entry["dense_tflops"]["bf16"],
        fp8_tflops=entry["dense_tflops"]["fp8"],
        fp4_tflops=entry["dense_tflops"].get("fp4"),
        precisions=tuple(entry["precisions"]),
        sourced=_sourced(entry),
        colour=entry.get("colour"),
    )


def _instance(key: str, entry: Mapping[str, Any]) -> InstanceSpec:
    return InstanceSpec(
        key=key,
        provider=entry["provider"],
        kind=entry["kind"],
        gpu=entry["gpu"],
        gpus=entry["gpus"],
        usd_per_hour=entry["usd_per_hour"],
        region=entry["region"],
        sourced=_sourced(entry),
    )


def _model(key: str, entry: Mapping[str, Any]) -> ModelSpec:
    same = entry.get("same_architecture") or {}
    return ModelSpec(
        key,
        entry["total_params"],
        entry["active_params"],
        _sourced(entry),
        aliases=tuple(entry.get("aliases", ())),
        architecture=entry.get("architecture"),
        counts=entry.get("counts", "derived"),
        same_architecture=tuple(same.get("models", ())),
        same_architecture_source=same.get("source"),
        same_architecture_notes=same.get("notes"),
    )


def _unique_names(kind: str, specs: Mapping[str, GpuSpec] | Mapping[str, ModelSpec]) -> list[Problem]:
    """Every key and alias names one entry only, compared as `Reference.gpu`/`model` compare them."""
    problems = []
    seen: dict[str, str] = {}
    for spec in specs.values():
        for name in (spec.key, *spec.aliases):
            other = seen.setdefault(normalise(name), spec.key)
            if other != spec.key:
                problems.append(
                    Problem(f"{REFERENCE_DIR}/{kind}.yaml", 0, 0, f"$[{spec.key!r}]", f"{name!r} also names {other!r}")
                )
    return problems


def _peak_columns(gpus: Mapping[str, Any]) -> list[Problem]:
    """A precision a GPU lists is measured against a peak column it writes, as a number or as an explicit
    null whose reason the notes give; a peak for a format it does not list would never be used."""
    problems = []
    for key, entry in gpus.items():
        peaks = entry["dense_tflops"]
        where = f"$[{key!r}].dense_tflops"
        listed: dict[str, list[str]] = {}
        for precision in entry["precisions"]:
            listed.setdefault(PEAK_COLUMN[precision], []).append(precision)
        for column, formats in listed.items():
            named = " and ".join(formats)
            if column not in peaks:
                message = f"{named} in precisions but no {column} peak (write null, with a note why)"
                problems.append(Problem(f"{REFERENCE_DIR}/gpus.yaml", 0, 0, where, message))
            elif peaks[column] is None and not entry.get("notes"):
                message = f"the {column} peak of {named} is null: the notes must say why"
                problems.append(Problem(f"{REFERENCE_DIR}/gpus.yaml", 0, 0, where, message))
        for column, value in peaks.items():
            if value is not None and column not in listed:
                message = f"a {column} peak is given but no {column} format is in precisions"
                problems.append(Problem(f"{REFERENCE_DIR}/gpus.yaml", 0, 0, where, message))
    return problems


def _consistency(reference: Reference) -> list[Problem]:
    problems = _unique_names("gpus", reference.gpus) + _unique_names("models", reference.models)
    for spec in reference.instances.values():
        if spec.gpu not in reference.gpus:
            problems.append(
                Problem(
                    f"{REFERENCE_DIR}/instances.yaml",
                    0,
                    0,
                    f"$[{spec.key!r}].gpu",
                    f"{spec.gpu!r} is not a GPU of reference/gpus.yaml",
                )
            )
    for spec in reference.models.values():
        if spec.architecture is None or spec.counts != "derived":
            continue
        # Derived counts are the architecture's exactly: a typo in either shows here, not as a wrong MFU.
        total, active = parameter_counts(spec.architecture)
        for field, stated, derived in (
            ("total_params", spec.total_params, total),
            ("active_params", spec.active_params, active),
        ):
            if stated != derived:
                problems.append(
                    Problem(
                        f"{REFERENCE_DIR}/models.yaml",
                        0,
                        0,
                        f"$[{spec.key!r}].{field}",
                        f"{stated} is not what its architecture gives ({derived}), which derived counts must equal",
                    )
                )
    return problems


def _same_architecture(reference: Reference, source_map: SourceMap) -> list[Problem]:
    """Each model named in a `same_architecture` is another key of models.yaml, and one whose data
    agrees: a claim the file itself contradicts would send readers to the wrong recipes."""
    problems = []
    display = f"{REFERENCE_DIR}/models.yaml"
    keys = list(reference.models)
    for spec in reference.models.values():
        for index, name in enumerate(spec.same_architecture):
            path = (spec.key, "same_architecture", "models", index)
            where = f"$[{spec.key!r}].same_architecture.models[{index}]"
            other = reference.models.get(name)
            message = None
            if name == spec.key:
                message = f"{name!r} is this model itself: name the other models of its architecture"
            elif other is None:
                aliased = reference.model(name)
                if aliased is not None:
                    message = f"{name!r} is an alias of {aliased.key!r}: write the model's key"
                else:
                    near = closest(name, keys)
                    hint = f" (did you mean {near!r}?)" if near else ""
                    message = f"{name!r} is not a model of {display}{hint}"
            elif spec.architecture is not None and other.architecture is not None:
                differs = sorted(
                    field
                    for field in set(spec.architecture) | set(other.architecture)
                    if spec.architecture.get(field) != other.architecture.get(field)
                )
                if differs:
                    message = f"{name!r} has another architecture: {', '.join(differs)} differ"
            elif (spec.total_params, spec.active_params) != (other.total_params, other.active_params):
                message = f"{name!r} has other parameter counts, so not the same architecture"
            if message:
                at = source_map.value_at(path)
                problems.append(Problem(display, at.line, at.column, where, message))
    return problems
