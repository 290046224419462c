"""How Megatron-Bridge documents launching a row of its performance summary, read from its own files.

A row was measured in a release's NeMo container (`nvcr.io/nvidia/nemo:XX.YY`). The performance
README says how to run a configuration again: check out the revision that built that container and
start the launcher with the row's model, GPU type, GPU count and precision. For one row this module
finds that revision and the configuration the launcher would load, and reads what the configuration
sets with Python's `ast` (Megatron is never imported, nothing is run):

- **Which revision.** `docs/versions1.json`, the documentation's version picker, names the
  Megatron-Bridge version of each container ("0.6.0 (latest) · 26.08"); it is read at one pinned
  commit (`VERSION_INDEX`), and the release is the tag `v<version>` of the clone.
- **Which configuration**, in one of three shapes, told apart by the files at that tag:
  - `flat` (0.6 on): a function per configuration in
    `src/megatron/bridge/perf_recipes/<family>/<gpu>/<model>.py`
    (`deepseek_v3_pretrain_256gpu_gb200_fp8mx_config`), run with
    `scripts/training/train.sh --recipe <function>`. Its values are read by following its
    statements, the perf-recipe function it starts from and the perf-recipe helpers it calls;
    `cfg.env_vars = {**COMMON_PERF_ENV_VARS, ...}` is resolved where every value is a constant.
  - `variants` (0.5): module constants of `scripts/performance/configs/<family>/*_workload_base_configs.py`
    (`DEEPSEEK_V3_PRETRAIN_CONFIG_GB300_FP8_MX_V2`, built with `dataclasses.replace`), picked by
    the launcher's `--config_variant` (its default read from argument_parser.py) as its
    `get_workload_base_config` does, and run with `setup_experiment.py -m <family> -mr <recipe>`.
  - `base` (0.2): constants `<MODEL>_<SIZE>_<GPU>[_<TASK>]_<PRECISION>_BASE_CONFIG` of
    `scripts/performance/configs/<model>/workload_base_configs.py`, run with `setup_experiment.py -m -s`.
    In both, what the launcher always exports is `PERF_ENV_VARS` of `scripts/performance/utils/executors.py`.

What a configuration sets under a condition, or to a value that is not a constant, is not read
(it is named in `unresolved`). A row none of this finds is `NotDocumented`, with why; a clone that
lacks the pinned index or the release's tag gives `Unknown`. This module only reads:
`megatron_bridge_recipes` turns what it finds into each recipe's `launch`.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from . import megatron_bridge_effective as effective
from . import pyconfig
from .common import Cited
from .gitsource import GitSource
from .megatron_bridge_overrides import Overrides, first_line, read_options

VERSION_INDEX = ("51885cf132b2814188b6855c25a8588254274c2a", "docs/versions1.json")
"""The commit (tag v0.6.0) whose version picker maps containers to Megatron-Bridge versions, and the
file: pinned, so an import reads the same mapping from any clone. A release it does not name gets
no launch until this is moved to a commit that names it."""

PERF_ROOT = "src/megatron/bridge/perf_recipes"
LIBRARY_ROOT = "src/megatron/bridge/recipes"
PERF_PACKAGE = "megatron.bridge.perf_recipes"
CONFIGS_ROOT = "scripts/performance/configs"
PERFORMANCE_README = "scripts/performance/README.md"
TRAINING_README = "scripts/training/README.md"
UTILS = "scripts/performance/utils/utils.py"
EXECUTORS = "scripts/performance/utils/executors.py"
ARGUMENTS = "scripts/performance/argument_parser.py"
RUN_SCRIPT = "scripts/performance/run_script.py"
OVERRIDES = "scripts/performance/utils/overrides.py"
HELPERS = "scripts/performance/utils/helpers.py"
RUN_RECIPE = "scripts/training/run_recipe.py"

FAMILIES: dict[str, tuple[str, str]] = {
    # model as printed: (-m/--model_family_name, -mr/--model_recipe_name and the flat functions' stem)
    "LLAMA3_8B": ("llama", "llama3_8b"),
    "LLAMA3_70B": ("llama", "llama3_70b"),
    "LLAMA3.1_405B": ("llama", "llama31_405b"),
    "DeepSeekV3": ("deepseek", "deepseek_v3"),
    "DeepSeekV4 Flash": ("deepseek", "deepseek_v4_flash"),
    "GPT OSS 120B": ("gpt_oss", "gpt_oss_120b"),
    "Qwen3_30B_a3B": ("qwen", "qwen3_30b_a3b"),
    "Qwen3_235B_a22B": ("qwen", "qwen3_235b_a22b"),
    "Kimi_K2": ("kimi", "kimi_k2"),
    "Nemotron_3_Nano": ("nemotronh", "nemotron_3_nano"),
    "Nemotron_3_5_Lightning": ("nemotronh", "nemotron_3_5_lightning"),
    "Nemotron_3_Super": ("nemotronh", "nemotron_3_super"),
    "Nemotron_3_Ultra": ("nemotronh", "nemotron_3_ultra"),
}
"""The names 0.5 and later give the models the tables print."""

BASE_NAMES: dict[str, tuple[str, str]] = {
    # model as printed: (-m/--model_name, -s/--model_size) of the 0.2 launcher
    "LLAMA3_8B": ("llama3", "8b"),
    "LLAMA3_70B": ("llama3", "70b"),
    "LLAMA3.1_405B": ("llama31", "405b"),
    "DeepSeekV3": ("deepseek", "v3"),
    "GPT OSS 120B": ("gpt_oss", "120b"),
    "Qwen3_30B_a3B": ("qwen3", "30b_a3b"),
    "Qwen3_235B_a22B": ("qwen3", "235b_a22b"),
}
"""The names 0.2 gives them."""

PRECISIONS: dict[str, tuple[str, ...]] = {
    # label as printed: the -c/--compute_dtype values it may be
    "BF16": ("bf16",),
    "FP8-CS": ("fp8_cs",),
    "FP8-MX": ("fp8_mx",),
    "MXFP8": ("fp8_mx",),
    "NVFP4": ("nvfp4",),
    "FP8": ("fp8_cs", "fp8_sc"),  # 26.x: the scaling is not printed; the release's configurations decide
}

TASKS: dict[str, tuple[str, str, str]] = {
    # "### <workload> Performance": (the launcher's task, the flat functions' task, train.sh --mode)
    "Pre-Training": ("pretrain", "pretrain", "pretrain"),
    "SFT": ("sft", "sft", "sft"),
    "LoRA": ("lora", "peft", "lora"),
}

WORKLOAD_FIELDS: dict[str, str] = {
    "num_gpus": "gpus",
    "tensor_model_parallel_size": "tp",
    "pipeline_model_parallel_size": "pp",
    "virtual_pipeline_model_parallel_size": "vp",
    "context_parallel_size": "cp",
    "expert_model_parallel_size": "ep",
    "expert_tensor_parallel_size": "etp",
    "global_batch_size": "gbs",
    "micro_batch_size": "mbs",
}
"""`WorkloadBaseConfig` fields (0.2 and 0.5) and the `sets` key each fills."""

ORDER = ("gpus", "tp", "pp", "vp", "cp", "ep", "etp", "gbs", "mbs", "seq_length", "precision")

_PICKER_NAME = re.compile(r"^(\S+?)(?: \(latest\))? · (\S+)$")
_RUNNER = re.compile(r"`((?:uv run )?python) scripts/performance/setup_experiment\.py --account")
_NEMO_RUN_INSTALL = "pip install git+https://github.com/NVIDIA-NeMo/Run.git"


@dataclass(frozen=True)
class Row:
    """What identifies a published row's configuration."""

    release: str
    workload: str
    """As the page heads it: `Pre-Training`, `SFT`, `LoRA`."""
    model: str
    """As printed, without its qualifier: `DeepSeekV3`."""
    gpu: str
    """As the scripts spell the GPU type: `gb200`."""
    gpus: int
    precision: str
    """As printed: `MXFP8`, `FP8-CS`, `FP8`."""
    gbs: int


@dataclass(frozen=True)
class Release:
    name: str
    """The container release, `26.08`."""
    version: str
    """Megatron-Bridge's version in it, `0.6.0`."""
    tag: str
    commit: str
    index_line: int
    """The line of the version picker (`VERSION_INDEX`) that names the two together."""
    shape: str
    """`flat`, `variants` or `base`: where this release keeps its performance configurations."""


@dataclass(frozen=True)
class Documented:
    release: Release
    launcher: str
    """`train.sh` (flat) or `setup_experiment.py`."""
    configuration: str
    """The function (`deepseek_v3_pretrain_256gpu_gb200_fp8mx_config`) or constant (`..._V2`) loaded."""
    selection: tuple[tuple[str, str], ...]
    """The launcher's options that select it, in order: (`--recipe`, name), (`-m`, `deepseek`), ..."""
    compute_dtype: str
    sets: dict[str, int | str | None]
    """`sets` keys in ORDER: what the run's configuration holds (megatron_bridge_effective.py); a value
    not known is absent, None is `None` as written."""
    unresolved: dict[str, str]
    """`sets` keys whose value is not known, each with why."""
    env: dict[str, str] | None
    """The environment the configuration (flat) or the launcher (0.2, 0.5) sets; None when not constant."""
    env_lines: tuple[tuple[str, str, int], ...]
    """(name, file, line) of each name of `env`: where the publisher's file sets it."""
    cited: tuple[Cited, ...]
    notes: tuple[str, ...]
    gpus: int
    """The GPU count the launch asks for: the row's."""
    runner: str = ""
    """What runs setup_experiment.py as the README writes it (`uv run python`, `python`); empty for train.sh."""
    prelude: tuple[str, ...] = ()
    """Setup the README runs before the launcher (0.2: `pip install git+https://github.com/NVIDIA-NeMo/Run.git`)."""
    origins: dict[str, pyconfig.Where] = field(default_factory=dict)
    """Where each value of `sets` is written."""
    overrides: Overrides | None = None
    """The options by which this release's launcher sets a dimension from its command line."""


@dataclass(frozen=True)
class FlatConfiguration:
    """What a flat configuration function sets (megatron_bridge_effective.py), and where."""

    sets: dict[str, int | str | None]
    """`sets` keys in ORDER; a value not known is absent, None is `None` as written."""
    unresolved: dict[str, str]
    env: dict[str, str] | None
    """Its cfg.env_vars; None when not constant."""
    env_lines: tuple[tuple[str, str, int], ...]
    cited: tuple[Cited, ...]
    notes: tuple[str, ...]
    origins: dict[str, pyconfig.Where]


@dataclass(frozen=True)
class NotDocumented:
    release: Release
    reason: str


@dataclass(frozen=True)
class Unknown:
    """This clone cannot say: the pinned version index, or the release's tag, is not in it."""

    reason: str


Found = Documented | NotDocumented | Unknown


class Releases:
    """The releases of one clone, read once each (files, parsed modules) for every row of an import."""

    def __init__(self, source: GitSource) -> None:
        self.source = source
        self._index: dict[str, tuple[str, int]] | None = None
        self._releases: dict[str, Release | Unknown] = {}
        self._text: dict[tuple[str, str], str | None] = {}
        self._modules: dict[tuple[str, str], _Module | None] = {}
        self._constants: dict[tuple[str, str], dict[str, _Constant]] = {}

    # -- reading files at a commit ----------------------------------------------------------------

    def text(self, commit: str, path: str) -> str | None:
        key = (commit, path)
        if key not in self._text:
            at = self.source.at(commit)
            self._text[key] = at.show(path) if at.exists(path) else None
        return self._text[key]

    def module(self, commit: str, path: str) -> _Module | None:
        key = (commit, path)
        if key not in self._modules:
            text = self.text(commit, path)
            self._modules[key] = _Module(path, ast.parse(text)) if text is not None else None
        return self._modules[key]

    def evaluator(
        self, commit: str, scripts: bool, intercepts: dict[str, Callable[..., pyconfig.Val]] | None = None
    ) -> pyconfig.Evaluator:
        """An evaluator of the configuration functions at `commit` (megatron_bridge_effective.py)."""
        return effective.evaluator(lambda path: self.text(commit, path), scripts, intercepts)

    def overrides(self, release: Release) -> Overrides | None:
        """The options by which the release's launcher sets each dimension, read from its parser, and
        where it applies what its sequence-length words set."""
        return self.overrides_at(release.commit, release.shape)

    def overrides_at(self, commit: str, shape: str) -> Overrides | None:
        """`overrides` of the files at any commit whose configurations are of `shape`."""
        parser = RUN_RECIPE if shape == "flat" else ARGUMENTS
        text = self.text(commit, parser)
        if text is None:
            return None
        options = read_options(parser, text)
        trailing: list[Cited] = []
        sequence: list[Cited] = []
        if shape == "base":
            known = first_line(text, "parse_known_args()")
            applied = first_line(self.text(commit, RUN_SCRIPT) or "", "parse_hydra_overrides(")
            if known and applied:
                trailing = [
                    Cited(parser, known, known, "arguments the parser does not know are kept as overrides"),
                    Cited(RUN_SCRIPT, applied, applied, "and applied to the configuration as Hydra overrides"),
                ]
        elif shape == "variants":
            applied = first_line(self.text(commit, RUN_SCRIPT) or "", "set_cli_overrides(recipe")
            if applied:
                trailing = [Cited(RUN_SCRIPT, applied, applied, "arguments the parser does not know are overrides")]
            mock = first_line(
                self.text(commit, OVERRIDES) or "", "seq_length=args.seq_length or recipe.model.seq_length"
            )
            if mock:
                sequence = [
                    Cited(OVERRIDES, mock, mock, "the mock dataset is -sl long, else as long as the model's sequence")
                ]
        else:
            collected = first_line(text, "_collect_overrides(parser, unknown)")
            if collected:
                trailing = [Cited(parser, collected, collected, "trailing KEY=VALUE overrides")]
            synced = first_line(text, "recipe = sync_model_dataset_sequence_length(recipe)")
            if synced:
                sequence = [Cited(parser, synced, synced, "the model's sequence length is set from the dataset's")]
        return Overrides(shape, options, tuple(trailing), tuple(sequence))

    # -- which release --------------------------------------------------------------------------

    def index(self) -> dict[str, tuple[str, int]]:
        """Container release -> (Megatron-Bridge version, line), from the pinned version picker."""
        if self._index is None:
            commit, path = VERSION_INDEX
            text = self.text(commit, path) if self.source.resolve(commit) == commit else None
            self._index = {} if text is None else version_index(text)
        return self._index

    def release(self, name: str) -> Release | Unknown:
        if name in self._releases:
            return self._releases[name]
        index = self.index()
        found: Release | Unknown
        if not index:
            found = Unknown(f"the version index ({VERSION_INDEX[1]} at {VERSION_INDEX[0][:12]}) is not in this clone")
        elif name not in index:
            found = Unknown(
                f"{VERSION_INDEX[1]} at {VERSION_INDEX[0][:12]} names no Megatron-Bridge version for {name}"
            )
        else:
            version, line = index[name]
            tag = f"v{version}"
            commit = self.source.resolve(f"refs/tags/{tag}")
            if commit is None:
                found = Unknown(f"the tag {tag} (Megatron-Bridge {version}, the {name} container) is not in this clone")
            else:
                found = Release(name, version, tag, commit, line, self._shape(commit))
        self._releases[name] = found
        return found

    def _shape(self, commit: str) -> str:
        at = self.source.at(commit)
        if at.tree(PERF_ROOT):
            return "flat"
        configs = at.tree(CONFIGS_ROOT)
        if any(path.endswith("_workload_base_configs.py") for path in configs):
            return "variants"
        if any(path.endswith("/workload_base_configs.py") for path in configs):
            return "base"
        return "none"

    # -- one row --------------------------------------------------------------------------------

    def find(self, row: Row) -> Found:
        release = self.release(row.release)
        if isinstance(release, Unknown):
            return release
        task = TASKS.get(row.workload)
        dtypes = PRECISIONS.get(row.precision)
        if task is None or dtypes is None:
            what = f"workload {row.workload!r}" if task is None else f"precision {row.precision!r}"
            return NotDocumented(
                release, f"the {what} is not one the launcher of Megatron-Bridge {release.version} takes"
            )
        if release.shape == "flat":
            return self._flat(release, row, task, dtypes)
        if release.shape in ("variants", "base"):
            return self._workload(release, row, task, dtypes)
        return NotDocumented(
            release,
            f"Megatron-Bridge {release.version} ({release.tag}) has no performance configurations "
            f"({PERF_ROOT} or {CONFIGS_ROOT})",
        )

    # -- flat perf recipes (0.6 on) ---------------------------------------------------------------

    def _flat(self, release: Release, row: Row, task: tuple[str, str, str], dtypes: tuple[str, ...]) -> Found:
        names = FAMILIES.get(row.model)
        if names is None:
            return NotDocumented(release, f"model {row.model!r} is not in FAMILIES of megatron_bridge_launch.py")
        family, stem = names
        functions = self._flat_functions(release.commit, f"{family}/{row.gpu}")
        if not any(name in functions for name in self._flat_names(stem, task, row, dtypes)):
            functions = self._flat_functions(release.commit, family)
        candidates = dict(zip(dtypes, self._flat_names(stem, task, row, dtypes), strict=True))
        present = {dtype: name for dtype, name in candidates.items() if name in functions}
        if len(present) != 1:
            return NotDocumented(release, _none_or_two(release, present, candidates, f"{PERF_ROOT}/{family}"))
        ((dtype, name),) = present.items()
        flat = self.flat_configuration(release.commit, functions[name], name, dtype, row.gpus)
        return Documented(
            release=release,
            launcher="train.sh",
            configuration=name,
            selection=(("--recipe", name), ("--mode", task[2])),
            compute_dtype=dtype,
            sets=flat.sets,
            unresolved=flat.unresolved,
            env=flat.env,
            env_lines=flat.env_lines,
            cited=tuple(_unique([*self._readme_flat(release.commit), *flat.cited])),
            notes=flat.notes,
            gpus=row.gpus,
            origins=flat.origins,
            overrides=self.overrides(release),
        )

    def flat_configuration(self, commit: str, path: str, name: str, dtype: str, gpus: int) -> FlatConfiguration:
        """What the function `name` of `path` at `commit` sets, as `train.sh --recipe name` runs it on
        `gpus` GPUs in compute dtype `dtype`: a release's row (above), or a command a publisher ran at
        any commit (a model verification card's)."""
        ev = self.evaluator(commit, scripts=False)
        function = ev.function(effective.dotted(path), name)
        assert function is not None, f"{name} is not a function of {path} at {commit}"
        cfg = ev.call(pyconfig.Val(function), [], {})
        # The perf recipes it runs are cited, and the function itself wherever it is (a library recipe).
        found = effective.read_effective(
            cfg, "flat", dtype, gpus, ev, lambda read: read.startswith(PERF_ROOT) or read == path
        )
        env, where, env_cited, env_note = _env_vars(ev, cfg)
        return FlatConfiguration(
            sets=ordered(found.values),
            unresolved=found.unresolved,
            env=env,
            env_lines=tuple((key, *where[key]) for key in env or ()),
            cited=tuple(_unique([*found.cited, *env_cited])),
            notes=(env_note,) if env_note else (),
            origins=found.origins,
        )

    def recipe_function(self, commit: str, name: str) -> tuple[str, str] | str:
        """Where `train.sh --recipe name` finds its function at `commit`: (the file, `benchmark` or
        `library`), or why it finds none. A benchmark (perf) recipe comes before a library recipe of
        the same name, as the runner's load_recipe prefers it; two definitions in one of them are
        ambiguous."""
        found = [
            path
            for path, _, _ in self.source.at(commit).grep(f"def {name}(")
            if path.endswith(".py") and path.startswith((f"{PERF_ROOT}/", f"{LIBRARY_ROOT}/"))
        ]
        for root, kind in ((PERF_ROOT, "benchmark"), (LIBRARY_ROOT, "library")):
            paths = sorted({path for path in found if path.startswith(f"{root}/")})
            defined = [path for path in paths if (module := self.module(commit, path)) and name in module.functions]
            if len(defined) == 1:
                return defined[0], kind
            if len(defined) > 1:
                return f"{name} is defined in more than one file of {root}: {', '.join(defined)}"
        return f"no function {name} is defined under {PERF_ROOT} or {LIBRARY_ROOT} at {commit[:12]}"

    @staticmethod
    def _flat_names(stem: str, task: tuple[str, str, str], row: Row, dtypes: tuple[str, ...]) -> list[str]:
        """The function each compute dtype would be (scripts/performance/utils/utils.py, _recipe_function_name)."""
        return [f"{stem}_{task[1]}_{row.gpus}gpu_{row.gpu}_{dtype.replace('_', '')}_config" for dtype in dtypes]

    def _flat_functions(self, commit: str, folder: str) -> dict[str, str]:
        """Every function ending in `_config` under `folder` of the perf recipes -> its file."""
        found: dict[str, str] = {}
        for path in self.source.at(commit).tree(f"{PERF_ROOT}/{folder}"):
            if path.endswith(".py"):
                module = self.module(commit, path)
                assert module is not None
                for name in module.functions:
                    if name.endswith("_config"):
                        found.setdefault(name, path)
        return found

    def _readme_flat(self, commit: str) -> Iterator[Cited]:
        text = self.text(commit, PERFORMANCE_README)
        if text is not None:
            line = _first_line(text, "scripts/training/train.sh --recipe")
            if line:
                yield Cited(PERFORMANCE_README, line, line, "new runs of flat perf recipes use train.sh --recipe")
            yield from _clone_and_switch(text)
        text = self.text(commit, TRAINING_README)
        if text is not None:
            start = _first_line(text, "### Benchmark recipe")
            if start:
                end = _end_of_first_block(text, start)
                yield Cited(TRAINING_README, start, end, "the launch of a benchmark (perf) recipe")

    # -- workload base configs (0.2 and 0.5) ------------------------------------------------------

    def _workload(self, release: Release, row: Row, task: tuple[str, str, str], dtypes: tuple[str, ...]) -> Found:
        commit = release.commit
        variants = release.shape == "variants"
        names = FAMILIES.get(row.model) if variants else BASE_NAMES.get(row.model)
        if names is None:
            table = "FAMILIES" if variants else "BASE_NAMES"
            return NotDocumented(release, f"model {row.model!r} is not in {table} of megatron_bridge_launch.py")
        family, recipe = names
        files = [
            path
            for path in self.source.at(commit).tree(f"{CONFIGS_ROOT}/{family}")
            if path.endswith("_workload_base_configs.py" if variants else "/workload_base_configs.py")
        ]
        defaults = self._defaults(commit)
        if defaults is None:
            return NotDocumented(release, f"{UTILS} at {release.tag} defines no WorkloadBaseConfig")
        constants: dict[str, _Constant] = {}
        for path in files:
            constants.update(self._workload_constants(commit, path, defaults))
        default_variant, variant_line = self._default_variant(commit) if variants else (None, None)
        chosen: dict[str, tuple[str, str | None]] = {}  # dtype -> (constant, -cv value or None)
        tried: dict[str, list[str]] = {}
        for dtype in dtypes:
            if variants:
                base = f"{recipe}_{task[0]}_config_{row.gpu}_{dtype}".upper()
                order = _variant_order(base, default_variant or "v1")
                tried[dtype] = [name for name, _ in order]
                for name, _ in order:
                    if name in constants:
                        chosen[dtype] = (name, None)
                        break
                by_batch = f"{base}_GBS{row.gbs}"
                batch = constants[chosen[dtype][0]].values.get("global_batch_size") if dtype in chosen else None
                if batch is not None and batch != row.gbs and by_batch in constants:
                    chosen[dtype] = (by_batch, f"gbs{row.gbs}")  # a variant named for the row's batch size
            else:
                middle = f"_{task[0]}" if task[0] != "pretrain" else ""
                name = f"{family}_{recipe}_{row.gpu}{middle}_{dtype}".upper() + "_BASE_CONFIG"
                tried[dtype] = [name]
                if name in constants:
                    chosen[dtype] = (name, None)
        if len(chosen) != 1:
            looked = {dtype: " or ".join(names) for dtype, names in tried.items()}
            present = {dtype: name for dtype, (name, _) in chosen.items()}
            return NotDocumented(release, _none_or_two(release, present, looked, f"{CONFIGS_ROOT}/{family}"))
        ((dtype, (name, variant)),) = chosen.items()
        constant = constants[name]
        found, scaled = self._evaluate_workload(
            release, row, task, family, recipe, dtype, name, constant, variant or default_variant or "v1"
        )
        selection: list[tuple[str, str]] = [("-m", family), ("-mr" if variants else "-s", recipe)]
        if task[0] != "pretrain" or variants:
            selection.append(("--task", task[0]))
        selection += [("-g", row.gpu), ("-c", dtype)]
        if variant:
            selection.append(("-cv", variant))
        readme = self.text(commit, PERFORMANCE_README) or ""
        runner = _RUNNER.search(readme)
        prelude = _first_line(readme, _NEMO_RUN_INSTALL)
        cited = [*self._readme_workload(commit)]
        if prelude:
            cited.insert(0, Cited(PERFORMANCE_README, prelude, prelude, "install NeMo-Run"))
        cited += [Cited(path, first, last, what) for path, first, last, what in constant.cited]
        cited += self._utils_cited(commit, variants, variant_line)
        env, env_lines, env_cited = self._perf_env(commit)
        cited += env_cited
        cited += found.cited
        notes = [
            f"{name} gives num_gpus {constant.values.get('num_gpus')}; setup_experiment.py runs on the -ng GPUs, "
            "and when they differ from num_gpus it scales the global batch by -ng / num_gpus unless -gb is given "
            "(the configs' own comment says num_gpus is for representation)."
        ]
        if scaled:
            notes.append(scaled)
        if env is not None:
            notes.append(
                "env is PERF_ENV_VARS, which the launcher exports for every run; it also sets variables that depend "
                "on the GPU, the model and the precision at launch time (scripts/performance/utils/executors.py, "
                "scripts/performance/perf_plugins.py), which are computed rather than written as constants and are "
                "not listed."
            )
        return Documented(
            release=release,
            launcher="setup_experiment.py",
            configuration=name,
            selection=tuple(selection),
            compute_dtype=dtype,
            sets=ordered(found.values),
            unresolved=found.unresolved,
            env=env,
            env_lines=env_lines,
            cited=tuple(_unique(cited)),
            notes=tuple(notes),
            gpus=row.gpus,
            runner=runner.group(1) if runner else "python",
            prelude=(_NEMO_RUN_INSTALL,) if prelude else (),
            origins=found.origins,
            overrides=self.overrides(release),
        )

    def _evaluate_workload(
        self,
        release: Release,
        row: Row,
        task: tuple[str, str, str],
        family: str,
        recipe: str,
        dtype: str,
        name: str,
        constant: _Constant,
        variant: str,
    ) -> tuple[effective.Effective, str]:
        """What the launcher of 0.2 to 0.5 runs for this row: its configuration function evaluated
        (megatron_bridge_effective.py), and the global batch scaled as the launcher scales it; with
        a note when it scales it."""
        commit = release.commit
        path = constant.cited[-1][0]
        ev = self.evaluator(commit, scripts=True)

        def chosen_constant(*_: Any) -> pyconfig.Val:
            # get_workload_base_config picks the constant with importlib: the one chosen above, as it would.
            module = ev.module(effective.dotted(path))
            return ev.global_name(module, name) if module is not None else pyconfig.unknown(f"{path} is not read")

        ev.intercepts["get_workload_base_config"] = chosen_constant
        keywords: dict[str, pyconfig.Val] = {"precision": pyconfig.Val(dtype)}
        if release.shape == "variants":
            module, function_name = f"configs.{family}", f"{recipe}_{task[0]}_config_{row.gpu}"
            keywords["config_variant"] = pyconfig.Val(variant)
            if task[0] == "pretrain":
                keywords["mock"] = pyconfig.Val(True)
        else:
            kind = "finetune" if task[0] in ("sft", "lora") else "pretrain"
            module = f"configs.{family}.{family}_llm_{kind}"
            function_name = f"{family}_{recipe}_{row.gpu}" + (
                "_config" if task[0] == "pretrain" else f"_{task[0]}_config"
            )
        function = ev.function(module, function_name)
        if function is None:
            cfg = pyconfig.unknown(f"the launcher's configuration function {module}.{function_name} is not found")
        else:
            cfg = ev.call(pyconfig.Val(function), [], keywords)
        found = effective.read_effective(cfg, release.shape, dtype, row.gpus, ev, lambda p: p.startswith(CONFIGS_ROOT))
        num_gpus, batch = constant.values.get("num_gpus"), constant.values.get("global_batch_size")
        if not isinstance(num_gpus, int) or num_gpus == row.gpus:
            return found, ""
        values = dict(found.values)
        origins = dict(found.origins)
        origins.pop("gbs", None)
        if isinstance(batch, int):
            values["gbs"] = int(batch / num_gpus * row.gpus)
        note = (
            f"The command runs {row.gpus} GPUs and {name} is written for {num_gpus}, so the launcher scales its "
            f"global batch {batch} by {row.gpus} / {num_gpus}: sets holds {values.get('gbs')}."
        )
        return effective.Effective(values, origins, found.unresolved, found.cited), note

    def _defaults(self, commit: str) -> _Constant | None:
        module = self.module(commit, UTILS)
        if module is None:
            return None
        for node in module.tree.body:
            if isinstance(node, ast.ClassDef) and node.name == "WorkloadBaseConfig":
                values: dict[str, Any] = {}
                for statement in node.body:
                    if (
                        isinstance(statement, ast.AnnAssign)
                        and isinstance(statement.target, ast.Name)
                        and statement.value is not None
                    ):
                        values[statement.target.id] = _literal(statement.value)
                end = node.end_lineno or node.lineno
                return _Constant(values, (), ((UTILS, node.lineno, end, "WorkloadBaseConfig and its defaults"),))
        return None

    def _workload_constants(self, commit: str, path: str, defaults: _Constant) -> dict[str, _Constant]:
        key = (commit, path)
        if key in self._constants:
            return self._constants[key]
        module = self.module(commit, path)
        assert module is not None
        found: dict[str, _Constant] = {}
        for node in module.tree.body:
            if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
                continue
            name, value = node.targets[0].id, node.value
            here = (path, node.lineno, node.end_lineno or node.lineno, name)
            if isinstance(value, ast.Name) and value.id in found:
                source = found[value.id]
                found[name] = _Constant(source.values, source.unresolved, (*source.cited, here))
            elif isinstance(value, ast.Call) and ast.unparse(value.func) in ("replace", "dataclasses.replace"):
                first = value.args[0] if value.args else None
                if isinstance(first, ast.Name) and first.id in found:
                    found[name] = _with_keywords(found[first.id], value.keywords, here)
            elif isinstance(value, ast.Call) and ast.unparse(value.func) == "WorkloadBaseConfig":
                found[name] = _with_keywords(defaults, value.keywords, here)
        self._constants[key] = found
        return found

    def _default_variant(self, commit: str) -> tuple[str | None, int | None]:
        """The default of `--config_variant` in argument_parser.py, and its line."""
        module = self.module(commit, ARGUMENTS)
        if module is None:
            return None, None
        for node in ast.walk(module.tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "add_argument"
                and any(isinstance(arg, ast.Constant) and arg.value == "--config_variant" for arg in node.args)
            ):
                for keyword in node.keywords:
                    if keyword.arg == "default" and isinstance(keyword.value, ast.Constant):
                        return str(keyword.value.value), node.lineno
        return None, None

    def _utils_cited(self, commit: str, variants: bool, variant_line: int | None) -> Iterator[Cited]:
        module = self.module(commit, UTILS)
        if module is not None and "get_workload_base_config" in module.functions:
            node = module.functions["get_workload_base_config"]
            yield Cited(UTILS, node.lineno, node.end_lineno or node.lineno, "how the launcher picks the configuration")
        if variants and variant_line is not None:
            module = self.module(commit, ARGUMENTS)
            assert module is not None
            for node in ast.walk(module.tree):
                if isinstance(node, ast.Call) and node.lineno == variant_line:
                    yield Cited(
                        ARGUMENTS, node.lineno, node.end_lineno or node.lineno, "--config_variant and its default"
                    )
                    break

    def _perf_env(self, commit: str) -> tuple[dict[str, str] | None, tuple[tuple[str, str, int], ...], list[Cited]]:
        ev = self.evaluator(commit, scripts=True)
        module = ev.module(effective.dotted(EXECUTORS))
        if module is None or "PERF_ENV_VARS" not in module.definitions:
            return None, (), []
        env, where, cited, _ = _env_dict(ev, ev.global_name(module, "PERF_ENV_VARS"))
        return env, tuple((name, *where[name]) for name in env or ()), cited

    def _readme_workload(self, commit: str) -> Iterator[Cited]:
        text = self.text(commit, PERFORMANCE_README)
        if text is None:
            return
        yield from _clone_and_switch(text)
        line = _first_line(text, "setup_experiment.py --account")
        if line:
            yield Cited(PERFORMANCE_README, line, line, "the launch")

    def patch_release_example(self, commit: str, image: str) -> tuple[int, str] | None:
        """Where the performance README at `commit` writes a patch release's image (`image:25.11.01`):
        (line, the image), or None. The README's XX.YY rule says nothing of patch releases; its own
        example of one shows how their images are named."""
        text = self.text(commit, PERFORMANCE_README)
        if text is None:
            return None
        for number, line in enumerate(text.splitlines(), start=1):
            match = re.search(rf"{re.escape(image)}:(\d\d\.\d\d\.\d\d)(?![\w.])", line)
            if match:
                return number, match.group(0)
        return None

    def container_tag(self, import_commit: str, image: str, release: str) -> tuple[str, int] | None:
        """Where the publisher writes `image:release` at the import's commit (a patch release's tag,
        which the README's XX.YY rule does not give): (path, line), or None."""
        hits = self.source.at(import_commit).grep(f"{image}:{release}")
        exact = [
            (path, line)
            for path, line, text in hits
            if re.search(rf"{re.escape(image)}:{re.escape(release)}(?![\w.])", text)
        ]
        return exact[0] if exact else None


_NOT_LISTED = "Its cfg.env_vars holds a value that is not a constant: the environment is not listed."


def _env_vars(
    ev: pyconfig.Evaluator, cfg: pyconfig.Val
) -> tuple[dict[str, str] | None, dict[str, tuple[str, int]], list[Cited], str]:
    """A flat configuration's `cfg.env_vars`: the environment (each value as str() of the Python
    value), the file and line of each name, the top-level statements its names are written in, and
    a note when it is set but not to constants; (None, {}, [], "") when no file read sets it."""
    if not isinstance(cfg.value, pyconfig.Obj) or "env_vars" not in cfg.value.fields:
        return None, {}, [], ""
    return _env_dict(ev, cfg.value.fields["env_vars"])


def _env_dict(
    ev: pyconfig.Evaluator, value: pyconfig.Val
) -> tuple[dict[str, str] | None, dict[str, tuple[str, int]], list[Cited], str]:
    if not isinstance(value.value, pyconfig.DictVal):
        return None, {}, [], _NOT_LISTED
    env: dict[str, str] = {}
    where: dict[str, tuple[str, int]] = {}
    cited: list[Cited] = []
    for key, written, item in value.value.items:
        if not isinstance(key, str) or not item.constant:
            return None, {}, [], _NOT_LISTED
        env[key] = str(item.value)  # the last one written wins, in the place of the first, as in Python
        if written.where is not None:
            where[key] = (written.where.path, written.where.line)
            enclosing = ev.enclosing(written.where)
            if enclosing is not None:
                cited.append(Cited(*enclosing))
    return env, where, cited, ""


def version_index(text: str) -> dict[str, tuple[str, int]]:
    """`docs/versions1.json` -> {container release: (Megatron-Bridge version, line of its name)}."""
    entries = json.loads(text)
    lines = text.splitlines()
    found: dict[str, tuple[str, int]] = {}
    for entry in entries if isinstance(entries, list) else []:
        name = entry.get("name") if isinstance(entry, dict) else None
        match = _PICKER_NAME.match(name) if isinstance(name, str) else None
        if match is None:
            continue
        version, release = match.groups()
        line = next(
            (number for number, text_ in enumerate(lines, start=1) if json.dumps(name, ensure_ascii=False) in text_), 0
        )
        found.setdefault(release, (version, line))
    return found


def _variant_order(base: str, default: str) -> list[tuple[str, str | None]]:
    """The constants get_workload_base_config tries, in its order, for the default variant."""
    order = [(f"{base}_{default.upper()}", default)]
    if default.lower() == "v2":
        order.append((f"{base}_V1", "v1"))
    order.append((base, None))
    return order


def _none_or_two(release: Release, present: dict[str, str], looked: dict[str, str], where: str) -> str:
    if present:
        both = " and ".join(f"{name} (-c {dtype})" for dtype, name in present.items())
        return (
            f"the table's precision does not say which FP8 recipe ran, and Megatron-Bridge {release.version} "
            f"({release.tag}) has a configuration for each: {both}"
        )
    names = " or ".join(looked.values())
    return (
        f"Megatron-Bridge {release.version} ({release.tag}, the {release.name} container) has no performance "
        f"configuration for this row: no {names} in {where}"
    )


def _first_line(text: str, needle: str, start: int = 1) -> int:
    for number, line in enumerate(text.splitlines(), start=1):
        if number >= start and needle in line:
            return number
    return 0


def _end_of_first_block(text: str, start: int) -> int:
    """The line closing the first fenced code block at or after line `start`."""
    lines = text.splitlines()
    opened = False
    for number in range(start, len(lines) + 1):
        if lines[number - 1].lstrip().startswith("```"):
            if opened:
                return number
            opened = True
    return start


def _clone_and_switch(text: str) -> Iterator[Cited]:
    clone = _first_line(text, "git clone https://github.com/NVIDIA-NeMo/Megatron-Bridge")
    switch = _first_line(text, "git switch", clone or 1)
    if clone and switch:
        example = _first_line(text, "git switch r", switch + 1) or switch
        yield Cited(PERFORMANCE_README, clone, max(switch, example), "clone, and switch to the release's branch")


def ordered(sets: dict[str, int | str | None]) -> dict[str, int | str | None]:
    """`sets` in the schema's order."""
    return {key: sets[key] for key in ORDER if key in sets}


def _unique(cited: list[Cited]) -> Iterator[Cited]:
    seen: set[tuple[str, int, int]] = set()
    for item in cited:
        key = (item.path, item.first, item.last)
        if key not in seen:
            seen.add(key)
            yield item


def _literal(node: ast.expr) -> Any:
    try:
        return ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError):
        return _NOT_CONSTANT


_NOT_CONSTANT = object()


@dataclass(frozen=True)
class _Constant:
    """A workload base config: its fields, those not written as constants, and the lines that built it."""

    values: dict[str, Any]
    unresolved: tuple[str, ...]
    cited: tuple[tuple[str, int, int, str], ...]


def _with_keywords(source: _Constant, keywords: list[ast.keyword], here: tuple[str, int, int, str]) -> _Constant:
    values = dict(source.values)
    unresolved = list(source.unresolved)
    for keyword in keywords:
        if keyword.arg is None:
            continue
        value = _literal(keyword.value)
        if value is _NOT_CONSTANT:
            unresolved.append(keyword.arg)
            values.pop(keyword.arg, None)
        else:
            values[keyword.arg] = value
            if keyword.arg in unresolved:
                unresolved.remove(keyword.arg)
    return _Constant(values, tuple(unresolved), (*source.cited, here))


class _Module:
    """A Python file of the publisher's, parsed: its top-level functions (where the launcher finds a
    configuration by name)."""

    def __init__(self, path: str, tree: ast.Module) -> None:
        self.path = path
        self.tree = tree
        self.functions: dict[str, ast.FunctionDef] = {
            node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)
        }
