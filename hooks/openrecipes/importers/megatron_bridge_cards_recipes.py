"""Megatron-Bridge's model verification cards as `publisher-verified` recipes (schema version 2).

Each verified performance run of a card (megatron_bridge_cards.py: a `pretrain_performance` item, or a
point of a `pretrain_weak_scaling` series) is one recipe: the publisher ran exactly the card's command at
the commit the card names and published that run's figures, so the recipe's launch is that command at
that commit (megatron_bridge_cards_launch.py), and its level of evidence is above `published`.

What comes from where:

- **The card**: the model (`model.hf_id`, mapped to reference/ in MODELS), the GPU type (the item's key,
  GPUS), the precision (`precision`, the launcher's compute dtype), the figures (`metrics`: tokens/s and
  model TFLOP/s per GPU over the last 10 steps, the initial and final loss, the peak memory where
  published), the date (`last_verified`), the container, the commit and the command. A weak-scaling
  point adds its GPU count and global batch.
- **The command at its commit**: the GPU count and GPUs per node (`--nodes` × `--gpus-per-node`), the
  steps (`--max_steps`), and the layout, batch and sequence length the run had, which the card's
  metrics do not print: what the command runs, read from the configuration at that commit (`sets`).
  A run whose layout, global batch or sequence length cannot be read makes no recipe (it is skipped,
  with why), as a table row that does not print them.

A run that makes no recipe (not verified, a model or GPU not in the tables, a command that does not
run at its commit, a commit not in the clone) is skipped with its card, line and why; so is every
problem of a card's shape. Only what is published or read at the commit is written: a value neither
gives is left out.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Hashable, Iterator
from typing import Any

from . import firstseen
from . import megatron_bridge as mb
from . import megatron_bridge_cards as cards
from . import megatron_bridge_launch as launches
from .common import Import, Planned, Skipped, github_permalink, recipe_id
from .gitsource import FileAtCommit, GitSource
from .megatron_bridge_cards import WINDOW_STEPS, Run
from .megatron_bridge_cards_launch import CardLaunch, card_launch, parse_command
from .megatron_bridge_effective import COMPUTE_PRECISION
from .megatron_bridge_recipes import LAUNCHED_SCALING

IMPORTER = "megatron-bridge-cards"
PUBLISHER = "NVIDIA"
PREFIX = "mb-card-"

MODELS: dict[str, str] = {
    # a card's model.hf_id: its reference/models.yaml key
    "deepseek-ai/DeepSeek-V3": "DeepSeek-V3",
    "deepseek-ai/DeepSeek-V4-Flash": "DeepSeek-V4-Flash",
    "openai/gpt-oss-120b": "GPT-OSS 120B",
    "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16": "Nemotron 3 Nano 30B-A3B",
    "nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-BF16": "Nemotron 3 Super 120B-A12B",
    "nvidia/NVIDIA-Nemotron-3.5-Lightning-30B-A3B-BF16": "Nemotron 3.5 Lightning 30B-A3B",
    "Qwen/Qwen3-30B-A3B": "Qwen3-30B-A3B",
    "Qwen/Qwen3-235B-A22B": "Qwen3-235B-A22B",
    "Qwen/Qwen3.8-27B": "Qwen3.8-27B",
}

GPUS: dict[str, str] = {
    # an item's GPU key: the reference/gpus.yaml key
    "H100": "H100",
    "B200": "B200",
    "B300": "B300",
    "GB200": "GB200",
    "GB300": "GB300",
}

PRECISION_TOKENS = {"bf16": "bf16", "fp8": "fp8", "mxfp8": "mxfp8", "nvfp4": "nvfp4"}


def build(source: GitSource) -> Import:
    """A recipe for each verified performance run of the cards at the source's commit."""
    read = cards.read_cards(source)
    releases = launches.Releases(source)
    history = _history(source)
    made: list[tuple[Run, Planned]] = []
    skipped = [
        Skipped(f"{problem.path}:{problem.line} ({problem.where})", problem.message) for problem in read.problems
    ]
    files: dict[str, FileAtCommit] = {}
    for run in read.runs:
        file = files.setdefault(run.path, source.read(run.path))
        recipe = _recipe(run, file, releases, history)
        if isinstance(recipe, str):
            skipped.append(Skipped(f"{run.path}:{run.line} ({run.where})", recipe))
        else:
            made.append((run, recipe))
    planned = _series(made)
    clashes = [name for name, count in Counter(recipe.id for recipe in planned).items() if count > 1]
    if clashes:
        raise cards.CardError(f"two runs make the recipe {clashes[0]}")
    return Import(IMPORTER, tuple(planned), tuple(skipped), lambda recipe: recipe.rsplit("/", 1)[-1].startswith(PREFIX))


def row_key(run: Run) -> Hashable:
    """What makes a run in a past version of a card the same run (firstseen): the model, item, GPU and
    point, and every value the recipe is read from; not the card's path (a card renamed keeps its runs)
    nor where in it the run is written."""
    metrics = tuple(
        (name, value.written or value.value)
        for name, value in vars(run.metrics).items()
        if value is not None and isinstance(value, cards.At)
    )
    return (
        run.hf_id.value if run.hf_id else None,
        run.item,
        run.gpu.value,
        run.num_gpus.value if run.num_gpus else None,
        run.global_batch.value if run.global_batch else None,
        run.status.value,
        run.precision.value if run.precision else None,
        run.bridge_commit.value if run.bridge_commit else None,
        run.container.value if run.container else None,
        " ".join(run.command.value.split()),
        run.last_verified.value if run.last_verified else None,
        metrics,
    )


def _history(source: GitSource) -> firstseen.History:
    """Every card's runs over the history of the cards' folder, by first appearance."""
    paths = sorted(
        {path for commit, _ in source.history((cards.CARDS,)) for path in cards.card_paths(source.at(commit))}
    )
    return firstseen.walk(source, tuple(paths), _history_rows, (cards.CardError,))


def _history_rows(path: str, text: str) -> Iterator[tuple[Hashable, int]]:
    card = cards.read_card(path, text)
    if not card.runs and any(problem.line == 0 for problem in card.problems):
        raise cards.CardError(card.problems[0].message)
    for run in card.runs:
        yield row_key(run), run.line


def _recipe(run: Run, file: FileAtCommit, releases: launches.Releases, history: firstseen.History) -> Planned | str:
    """The recipe of one run, or why it makes none."""
    if run.status.value != "verified":
        return f"status {run.status.value}: the card does not say this run is verified"
    hf_id = run.hf_id.value if run.hf_id else None
    model = MODELS.get(hf_id or "")
    if model is None:
        return f"the card's model {hf_id!r} is not in MODELS of megatron_bridge_cards_recipes.py"
    gpu = GPUS.get(run.gpu.value)
    if gpu is None:
        return f"the GPU {run.gpu.value!r} is not in GPUS of megatron_bridge_cards_recipes.py"
    word = run.precision.value if run.precision else None
    if word not in COMPUTE_PRECISION:
        return f"the precision {word!r} is not a compute dtype of Megatron-Bridge's launcher"
    tokens = run.metrics.tokens_per_gpu
    if tokens is None:
        return "the card publishes no tokens/s per GPU for this run"
    command = parse_command(run.command.value)
    if isinstance(command, str):
        return command
    found = card_launch(run, command, releases, gpu)
    if isinstance(found, str):
        return found
    gpus = run.num_gpus.value if run.num_gpus else found.gpus
    if gpus != found.gpus:
        return f"the point's num_gpus ({gpus}) is not the command's --nodes × --gpus-per-node ({found.gpus})"
    missing = [key for key in ("tp", "pp", "gbs", "seq_length") if key not in found.sets]
    if missing:
        why = "; ".join(f"{key}: {found.unresolved.get(key, 'not known')}" for key in missing)
        return f"what the command runs at its commit is not known of {', '.join(missing)} ({why})"
    precision = COMPUTE_PRECISION[word]
    scaling = LAUNCHED_SCALING.get(word)
    global_batch = run.global_batch.value if run.global_batch else int(found.sets["gbs"] or 0)
    sequence = int(found.sets["seq_length"] or 0)
    kind = "weak-" if run.item == cards.WEAK_SCALING else ""
    name = f"{PREFIX}{kind}{PRECISION_TOKENS[precision]}{'cs' if scaling else ''}-{gpus}gpu"
    first, first_notes = firstseen.first_published(
        history, row_key(run), lambda seen: github_permalink(mb.REPOSITORY, seen.commit, seen.path, seen.line)
    )
    data: dict[str, Any] = {
        "schema_version": 2,
        "model": model,
        "gpu": {"type": gpu, "count": gpus, "per_node": found.per_node},
        "author": {"name": PUBLISHER, "url": _permalink(file)},
        "status": "publisher-verified",
        "source": {
            "url": _permalink(file, run.line),
            "where": _where(run),
            "publisher": PUBLISHER,
            "published": dt.date.fromisoformat(file.date),
            **({"first_published": first} if first else {}),
            "excerpt": run.excerpt,
            "importer": IMPORTER,
        },
        "stack": _stack(run),
        "workload": {
            "row_tokens": sequence,
            "global_batch": global_batch,
            "precision": precision,
            **({"fp8_scaling": scaling} if scaling else {}),
            "method": {"kind": found.method},
        },
        "layout": _layout(found),
        "result": _result(run, found, global_batch, sequence),
        "correctness": _correctness(run, found),
        "launch": found.launch,
        "notes": "".join(f"- {note}\n" for note in [*_notes(run, found), *first_notes]),
    }
    return Planned(recipe_id(model, gpu, name), data)


def _permalink(file: FileAtCommit, line: int | None = None) -> str:
    return github_permalink(mb.REPOSITORY, file.commit, file.path, line)


def _where(run: Run) -> str:
    blocks = ", ".join(f"{first}-{last}" for first, last in run.excerpt_lines)
    return f"model verification card {run.path}, {run.where} (lines {blocks}, with its verification_environment)"


def _stack(run: Run) -> dict[str, Any]:
    stack: dict[str, Any] = {}
    said = []
    if run.bridge_commit is not None:
        stack["framework"] = f"Megatron-Bridge: {mb.REPOSITORY} {run.bridge_commit.value}"
        whose = "the item's bridge_commit" if run.commit_of == "item" else "the card's verification_environment"
        said.append(f"the commit is {whose} (line {run.bridge_commit.line})")
    if run.container is not None:
        stack["container_image"] = run.container.value
        said.append(f"the image the verification_environment's base_container (line {run.container.line}), no digest")
    stack["source"] = f"The card ({run.path}): " + "; ".join(said) + "." if said else f"The card ({run.path})."
    return stack


def _layout(found: CardLaunch) -> dict[str, Any]:
    sets = found.sets
    layout: dict[str, Any] = {"tp": sets["tp"], "pp": sets["pp"]}
    if isinstance(sets.get("vp"), int):
        layout["vpp"] = sets["vp"]
    for key in ("cp", "ep", "etp"):
        if isinstance(sets.get(key), int):
            layout[key] = sets[key]
    if isinstance(sets.get("mbs"), int):
        layout["rows_per_microbatch"] = sets["mbs"]
    return layout


def _result(run: Run, found: CardLaunch, global_batch: int, sequence: int) -> dict[str, Any]:
    metrics = run.metrics
    assert metrics.tokens_per_gpu is not None
    steps = found.max_steps
    first = steps - WINDOW_STEPS + 1
    step_time = (
        f"; its step time over the same steps averaged {metrics.step_time_ms.written or metrics.step_time_ms.value} "
        f"ms (line {metrics.step_time_ms.line})"
        if metrics.step_time_ms is not None
        else ""
    )
    result: dict[str, Any] = {
        "tokens_per_s_per_gpu": metrics.tokens_per_gpu.value,
        "throughput_note": (
            f"The card's last_10_steps_tokens_per_second_per_gpu_avg (line {metrics.tokens_per_gpu.line}): tokens/s "
            f"per GPU averaged over the last {WINDOW_STEPS} of the run's {steps} steps{step_time}."
        ),
    }
    if metrics.tflops_per_gpu is not None:
        result["publisher_figures"] = [
            {
                "name": "last_10_steps_model_tflops_per_gpu_avg",
                "value": metrics.tflops_per_gpu.value,
                "unit": "TFLOP/s per GPU",
                "convention": "megatron",
                "note": f"Model TFLOP/s per GPU averaged over the same steps, as the card reports it (line "
                f"{metrics.tflops_per_gpu.line}).",
            }
        ]
    if run.last_verified is not None:
        result["measured"] = run.last_verified.value
    result["steps_per_run"] = steps
    if first >= 1:
        result["window"] = [first, steps]
        result["window_tokens"] = WINDOW_STEPS * global_batch * sequence
    if metrics.peak_allocated_gib is not None:
        result["memory_gib"] = metrics.peak_allocated_gib.value
    return result


def _correctness(run: Run, found: CardLaunch) -> dict[str, Any]:
    correctness: dict[str, Any] = {
        "result": "not-run",
        "summary": "not compared with a reference run; the publisher reports the loss of its own run",
    }
    initial, final = run.metrics.initial_loss, run.metrics.final_loss
    if initial is not None and final is not None:
        correctness["loss"] = {
            "initial": initial.value,
            "final": final.value,
            "note": (
                f"As the card reports them for the {found.max_steps} steps the command runs: initial_loss "
                f"{initial.written or initial.value} (line {initial.line}), final_loss {final.written or final.value} "
                f"(line {final.line}). The card's expected_result, in the excerpt, says what its check of them was."
            ),
        }
    return correctness


def _notes(run: Run, found: CardLaunch) -> list[str]:
    notes = [
        f"Run by {PUBLISHER} and reported in its model verification card with the command, the Megatron-Bridge "
        f"commit and the container it ran with, status verified"
        + (f" on {run.last_verified.value.isoformat()} (last_verified, which measured is)" if run.last_verified else "")
        + ".",
        "The layout, the micro batch and the sequence length are what the card's command runs at that commit "
        "(launch.sets, read from the configuration with Python's ast): the card's metrics do not print them"
        + (", nor the global batch" if run.global_batch is None else "")
        + ".",
        f"GPUs per node: {found.per_node}, the command's --gpus-per-node.",
    ]
    if found.max_steps - WINDOW_STEPS + 1 >= 1:
        notes.append(
            f"window: the last {WINDOW_STEPS} of the {found.max_steps} steps (--max_steps), which the card's "
            f"last_{WINDOW_STEPS}_steps_…_avg metrics average; window_tokens is {WINDOW_STEPS} × the global batch × "
            "the sequence length."
        )
    if run.metrics.peak_allocated_gib is not None:
        reserved = run.metrics.peak_reserved_gib
        notes.append(
            "memory_gib is the card's peak_allocated_memory_gib (PyTorch's allocator)"
            + (f"; it reports peak_reserved_memory_gib {reserved.written or reserved.value} too" if reserved else "")
            + "."
        )
    if found.method == "continued-pre-training":
        notes.append(
            "Continued pre-training: the command starts from a checkpoint (--pretrained_checkpoint) in mode pretrain."
        )
    return notes


def _series(made: list[tuple[Run, Planned]]) -> list[Planned]:
    """The recipes; each point of a weak-scaling series names the others, so that the series reads as one."""
    series: dict[tuple[str, str, str], list[Planned]] = {}
    for run, recipe in made:
        if run.item == cards.WEAK_SCALING:
            series.setdefault((run.path, run.item, run.gpu.value), []).append(recipe)
    result = []
    for run, recipe in made:
        members = series.get((run.path, run.item, run.gpu.value), [])
        if len(members) > 1:
            counts = ", ".join(str(member.data["gpu"]["count"]) for member in members)
            others = ", ".join(member.id for member in members if member is not recipe)
            data = dict(recipe.data)
            data["notes"] += (
                f"- One point of the card's weak-scaling series on {run.gpu.value} ({counts} GPUs, the global batch "
                f"growing with them); the others: {others}.\n"
            )
            recipe = Planned(recipe.id, data)
        result.append(recipe)
    return result
