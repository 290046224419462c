"""A model verification card's command as a launch: what it runs at the commit the card names, read, never run.

A card's performance run gives the exact command that ran (`./scripts/training/train.sh --nodes N
--gpus-per-node G --recipe <function> --max_steps 50 …`) and the Megatron-Bridge commit it ran at. The
launch is that command at that commit (`publisher-verified`: not a way to launch the configuration, but
the command behind the figures). What it runs, dimension by dimension (`launch.sets`), is read from the
files at that commit:

- **The function** `--recipe` names, found as the runner's `load_recipe` finds it (a benchmark recipe of
  `src/megatron/bridge/perf_recipes/` before a library recipe of `src/megatron/bridge/recipes/`), and
  evaluated with `ast` as a release's flat perf recipe is (megatron_bridge_launch.flat_configuration).
- **The command's own words**, applied on top: the GPUs are `--nodes` × `--gpus-per-node`
  (setup_experiment.py); a dimension's option of the runner's parser at that commit (`--seq_length`,
  `-gb`, …: megatron_bridge_overrides.read_options) or a trailing `KEY=VALUE` override of its field sets
  it. `--dataset` replaces the configuration's dataset, so its sequence length is not known; a benchmark
  recipe run on another GPU count than its name's has its global batch scaled by the runner (weak
  scaling) unless the command sets it, so it is not known either. What is not known is left out of
  `sets`, with why.

The card's command is quoted word for word, as the card lays it out; the launcher's `--account`,
`--partition` and `--container-image`, which the card's run took from its environment (setup_experiment.py
reads `SLURM_ACCOUNT`, `SLURM_PARTITION` and `CONTAINER_IMAGE`), follow it, the container being the card's
`base_container`.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from typing import Any

from . import megatron_bridge as mb
from . import megatron_bridge_effective as effective
from . import megatron_bridge_launch as launches
from .common import Cited, withhold
from .megatron_bridge_cards import Run
from .megatron_bridge_overrides import LONG_OPTIONS, Overrides, first_line
from .megatron_bridge_recipes import CLONE_URL, SETS_READ, launch_inputs, sets_notes

TRAIN_SH = "./scripts/training/train.sh"
TRAIN_SH_PATH = "scripts/training/train.sh"
SETUP = "scripts/training/setup_experiment.py"
RECIPE_RUNNER = "scripts/training/recipe_runner.py"

FLAGS = frozenset(
    {"--wait", "--dry-run", "--dry_run", "--deterministic", "--dump-env", "--dump_env", "--submission-dry-run"}
)
"""Options of train.sh's launcher and runner that take no value."""

GPUS_PER_NODE = ("--gpus-per-node", "--gpus_per_node")
MAX_STEPS = ("--max_steps", "-ms")
MODES = {"pretrain": "pre-training"}
"""`--mode` (or, left out, the task the function's name says) -> `workload.method.kind` of a run from
scratch; from a `--pretrained_checkpoint` it is continued pre-training."""

FIELD_OVERRIDES: dict[str, str] = {
    **{f"{part}.{field}": key for key, (part, field) in effective.FIELDS.items()},
    "dataset.seq_length": "seq_length",
    "dataset.sequence_length": "seq_length",
}
"""A trailing `KEY=VALUE` override -> the `sets` key it sets."""

_NAMED_GPUS = re.compile(r"_(\d+)gpu_")
_DTYPES = re.compile(r"_(bf16|fp8cs|fp8sc|fp8mx|nvfp4)_")
_DTYPE_WORDS = {"bf16": "bf16", "fp8cs": "fp8_cs", "fp8sc": "fp8_sc", "fp8mx": "fp8_mx", "nvfp4": "nvfp4"}


@dataclass(frozen=True)
class Command:
    """A card's command read as train.sh's launcher reads it (setup_experiment.py's `parse_known_args`)."""

    words: tuple[str, ...]
    options: dict[str, str]
    flags: tuple[str, ...]
    overrides: tuple[str, ...]
    """Trailing `KEY=VALUE` words, in order."""

    def option(self, *names: str) -> str | None:
        for name in names:
            if name in self.options:
                return self.options[name]
        return None

    def whole(self, *names: str) -> int | None:
        value = self.option(*names)
        return int(value) if value is not None and value.isdigit() and int(value) > 0 else None

    def override(self, key: str) -> str | None:
        found = None
        for word in self.overrides:
            name, _, value = word.partition("=")
            if name.lstrip("+~") == key:
                found = value
        return found


def parse_command(text: str) -> Command | str:
    """The command's words, options and overrides, or why it is not one this importer reads."""
    try:
        words = tuple(shlex.split(text, comments=False, posix=True))
    except ValueError as error:
        return f"the command is not read as shell words ({error})"
    if not words or words[0] != TRAIN_SH:
        return f"the command runs {words[0] if words else 'nothing'!r}, not {TRAIN_SH}"
    options: dict[str, str] = {}
    flags: list[str] = []
    overrides: list[str] = []
    index = 1
    while index < len(words):
        word = words[index]
        following = words[index + 1] if index + 1 < len(words) else None
        if word.startswith("-") and "=" in word:
            return f"{word!r}: an option written with = is not read"
        if word.startswith("-") and word in FLAGS:
            flags.append(word)
        elif word.startswith("-"):
            if following is None or following.startswith("-") or "=" in following:
                return f"the option {word} has no value this importer can tell apart"
            if word in options:
                return f"the option {word} is given twice"
            options[word] = following
            index += 1
        elif "=" in word:
            overrides.append(word)
        else:
            return f"{word!r} is neither an option nor a KEY=VALUE override"
        index += 1
    return Command(words, options, tuple(flags), tuple(overrides))


@dataclass(frozen=True)
class CardLaunch:
    """What a card's command runs at its commit, and the launch a recipe writes for it."""

    function: str
    kind: str
    """`benchmark` or `library`: where the runner finds the function."""
    gpus: int
    per_node: int
    max_steps: int
    method: str
    sets: dict[str, int | str | None]
    unresolved: dict[str, str]
    launch: dict[str, Any]


def card_launch(run: Run, command: Command, releases: launches.Releases, system: str) -> CardLaunch | str:
    """The launch of a card's run, or why there is none (a command this importer does not read, a commit
    this clone does not hold, a function the commit does not define)."""
    commit = run.bridge_commit.value if run.bridge_commit is not None else None
    if commit is None:
        return "neither the item nor the card's verification_environment names a bridge_commit"
    if releases.source.resolve(commit) != commit:
        return f"the bridge commit {commit} is not in this clone, so what the command runs there cannot be read"
    nodes, per_node = command.whole("--nodes"), command.whole(*GPUS_PER_NODE)
    name, steps = command.option("--recipe"), command.whole(*MAX_STEPS)
    if nodes is None or per_node is None or name is None or steps is None:
        return "the command does not give each of --nodes, --gpus-per-node, --recipe and --max_steps"
    mode = command.option("--mode") or ("pretrain" if "_pretrain_" in name else None)
    if mode not in MODES:
        return f"the command trains in mode {mode!r}; a performance run of pretrain only is read"
    method = "continued-pre-training" if command.option("--pretrained_checkpoint") else MODES[mode]
    dtype = _DTYPES.search(name)
    if dtype is None:
        return f"the function's name ({name}) does not say its compute dtype"
    found = releases.recipe_function(commit, name)
    if isinstance(found, str):
        return f"the card's command does not run at the commit it names: {found}"
    path, kind = found
    gpus = nodes * per_node
    flat = releases.flat_configuration(commit, path, name, _DTYPE_WORDS[dtype.group(1)], gpus)
    overrides = releases.overrides_at(commit, "flat")
    sets, unresolved, said, cited = _command_sets(command, flat, overrides, name, kind, gpus)
    launch = _launch(run, command, releases, system, commit, path, kind, flat, sets, unresolved, said, cited)
    return CardLaunch(name, kind, gpus, per_node, steps, method, sets, unresolved, launch)


def _command_sets(
    command: Command,
    flat: launches.FlatConfiguration,
    overrides: Overrides | None,
    name: str,
    kind: str,
    gpus: int,
) -> tuple[dict[str, int | str | None], dict[str, str], list[str], list[Cited]]:
    """The configuration's values with the command's own words applied: the sets, what is not known and
    why, each word that set a value (for the notes) and the parser's lines that define its options."""
    sets = dict(flat.sets)
    unresolved = dict(flat.unresolved)
    said: list[str] = []
    cited: list[Cited] = []
    own: set[str] = set()
    for key, long in LONG_OPTIONS.items():
        option = overrides.options.get(key) if overrides is not None else None
        names = (long, option.flag) if option is not None else (long,)
        value = command.whole(*names)
        if value is None:
            continue
        sets[key] = value
        unresolved.pop(key, None)
        own.add(key)
        written = next(name for name in names if name in command.options)
        said.append(f"{_label(key)} {value} (`{written} {value}`)")
        if option is not None:
            cited.append(option.cited)
            if key == "seq_length" and overrides is not None:
                cited += overrides.sequence
    for word in command.overrides:
        field, _, value = word.partition("=")
        key = FIELD_OVERRIDES.get(field.lstrip("+~"))
        if key is None:
            continue
        own.add(key)
        if value.isdigit() and int(value) > 0:
            sets[key] = int(value)
            unresolved.pop(key, None)
            said.append(f"{_label(key)} {value} (`{word}`)")
        else:
            sets.pop(key, None)
            unresolved[key] = f"the command's override {word} is not a whole number"
        if overrides is not None:
            cited += overrides.trailing
    dataset = command.option("--dataset")
    if dataset is not None and "seq_length" not in own:
        sets.pop("seq_length", None)
        unresolved["seq_length"] = (
            f"the command's --dataset {dataset} replaces the configuration's dataset, whose sequence length the "
            "runner's dataset presets set (not read)"
        )
    named = _NAMED_GPUS.search(name)
    if kind == "benchmark" and named and int(named.group(1)) != gpus and "gbs" not in own:
        sets.pop("gbs", None)
        unresolved["gbs"] = (
            f"the command runs {gpus} GPUs and the benchmark recipe is written for {named.group(1)}: the runner scales "
            "its global batch with the data-parallel size (weak scaling), which is not computed here"
        )
    sets["gpus"] = gpus
    return launches.ordered(sets), unresolved, said, cited


def _label(key: str) -> str:
    return {"seq_length": "sequence length", "gbs": "GBS", "mbs": "MBS"}.get(key, key.upper())


def _launch(
    run: Run,
    command: Command,
    releases: launches.Releases,
    system: str,
    commit: str,
    path: str,
    kind: str,
    flat: launches.FlatConfiguration,
    sets: dict[str, int | str | None],
    unresolved: dict[str, str],
    said: list[str],
    cited: list[Cited],
) -> dict[str, Any]:
    container = run.container.value if run.container is not None else None
    per_node = command.whole(*GPUS_PER_NODE) or 1
    gpus = int(sets["gpus"] or 0)
    added = ['--account "$SLURM_ACCOUNT" --partition "$SLURM_PARTITION"']
    if container is not None:
        added.append(f"--container-image {container}")
    lines = [*run.command_lines, *added]
    text = " \\\n    ".join(lines) + "\n"
    env, withheld = (
        withhold(flat.env, {name: (file, line) for name, file, line in flat.env_lines})
        if flat.env is not None
        else (None, [])
    )
    files = [*_launcher_cited(releases, commit), *flat.cited, *cited]
    files += [Cited(item["file"], item["line"], item["line"], f"sets {item['name']}") for item in withheld]
    notes = [
        f"The command the card says ran ({run.path} line {run.command.line}, {run.where}), word for word and laid "
        f"out as the card lays it out, at the Megatron-Bridge commit "
        + (
            "the item names (its bridge_commit)"
            if run.commit_of == "item"
            else "the card's verification_environment names (the item names none of its own)"
        )
        + ". Then the launcher's --account, --partition"
        + (" and --container-image" if container else "")
        + ", which the card's command leaves to the environment (setup_experiment.py reads SLURM_ACCOUNT, "
        "SLURM_PARTITION and CONTAINER_IMAGE when they are not given)"
        + (f"; the container is the card's base_container, {container}." if container else "."),
        "setup_experiment.py runs scripts/training/run_recipe.py of the Megatron-Bridge at /opt/Megatron-Bridge in "
        "the container; the card does not say how its run's container held this commit's code, which the base "
        "container's own Megatron-Bridge may predate.",
        f"train.sh --recipe {command.option('--recipe')} loads the {kind} recipe of {path} (recipe_runner.py's "
        f"load_recipe: a benchmark recipe before a library recipe of the same name); {SETS_READ}, and the "
        "sequence length its dataset's, from which the runner sets the model's.",
        *flat.notes,
        *sets_notes(_Read(flat.sets, flat.origins, {}), sets),
    ]
    if said:
        notes.append("The card's command sets: " + "; ".join(said) + ".")
    notes.append(f"GPUs: {gpus}, the command's --nodes × --gpus-per-node.")
    if unresolved:
        notes.append(
            "Not in sets, since it could not be read: "
            + "; ".join(f"{_label(key)} ({why})" for key, why in unresolved.items())
            + "."
        )
    if withheld:
        notes.append(
            "Set by the function's environment, and withheld from env as names a recipe may not set (the page "
            "warns of each): " + ", ".join(item["name"] for item in withheld) + "."
        )
    if env is not None:
        notes.append(
            "env is the function's cfg.env_vars (each value as str() of the Python value): Megatron-Bridge sets them "
            "in the training process before it starts, unless the shell or Slurm already sets them."
        )
    paths = [value for option, value in command.options.items() if option in ("--pretrained_checkpoint", "--load_dir")]
    if paths:
        notes.append(
            "The command reads " + ", ".join(paths) + ", which the card's other items write; this launch does not "
            "make it."
        )
    data: dict[str, Any] = {
        "kind": "documented",
        "source": {
            "repository": mb.REPOSITORY,
            "commit": commit,
            "files": [item.launch_file(mb.REPOSITORY, commit) for item in _unique(files)],
        },
        "checkout": (
            f"git clone {CLONE_URL}\ncd Megatron-Bridge\n"
            f"git switch --detach {commit}  # the commit the card's run used\n"
        ),
        **({"container": container} if container else {}),
        "command": text,
        **({"env": env} if env is not None else {}),
        **({"withheld": withheld} if withheld else {}),
        "sets": sets,
        "inputs": launch_inputs(text, env or {}, gpus, per_node, system, "uv"),
        "notes": " ".join(notes),
    }
    return data


@dataclass(frozen=True)
class _Read:
    sets: dict[str, int | str | None]
    origins: dict[str, Any]
    unresolved: dict[str, str]


def _launcher_cited(releases: launches.Releases, commit: str) -> list[Cited]:
    """train.sh, the launcher's options the launch relies on, and how the runner finds the function."""
    found = (
        [Cited(TRAIN_SH_PATH, None, None, "runs setup_experiment.py with NeMo-Run")]
        if releases.text(commit, TRAIN_SH_PATH) is not None
        else []
    )
    setup = releases.text(commit, SETUP) or ""
    for needle, what in (
        ('"--nodes"', "--nodes"),
        ('"--gpus-per-node"', "--gpus-per-node"),
        ('"--account", default=os.environ.get("SLURM_ACCOUNT")', "--account, else SLURM_ACCOUNT"),
        ('"--partition", default=os.environ.get("SLURM_PARTITION")', "--partition, else SLURM_PARTITION"),
        ('default=os.environ.get("CONTAINER_IMAGE")', "--container-image, else CONTAINER_IMAGE"),
        ("Arguments not owned by this launcher are forwarded", "what it does not own goes to run_recipe.py"),
        ("CONTAINER_REPO_ROOT = ", "the Megatron-Bridge the container runs"),
    ):
        line = first_line(setup, needle)
        if line:
            found.append(Cited(SETUP, line, line, what))
    module = releases.module(commit, RECIPE_RUNNER)
    if module is not None and "load_recipe" in module.functions:
        node = module.functions["load_recipe"]
        found.append(Cited(RECIPE_RUNNER, node.lineno, node.end_lineno or node.lineno, "how --recipe is found"))
    return found


def _unique(items: list[Cited]) -> list[Cited]:
    seen: set[tuple[str, int | None, int | None]] = set()
    kept = []
    for item in items:
        key = (item.path, item.first, item.last)
        if key not in seen:
            seen.add(key)
            kept.append(item)
    return kept
