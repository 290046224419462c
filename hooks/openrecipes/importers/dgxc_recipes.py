"""NVIDIA's DGX Cloud Benchmarking figures (NVIDIA/dgxc-benchmarking) as `published` recipes.

Every release tag from v24.11.1 to v25.05.05 prints performance tables (`dgxc.py` reads them); from
v25.07 none does, and each such tag is said once as not imported. Releases reprint a table
unchanged for months (v24.11.1, v25.01 and v25.01.1 print the same Llama 3.1 70B figures), so a
cell — a model, precision, GPU type and count with its figures — is one recipe however many tags
print it: it is read from the newest tag that prints it (`source.url`), and `source.first_published`
is the README version of the first tag that did. A tag that prints other figures for the same
configuration makes a new recipe, and the older one is deprecated by the one rule of `supersede.py`;
a weak-scaling series keeps every GPU count, each its own configuration.

Only what is published: a cell makes a recipe when its model is one of `reference/models.yaml`
(MODELS), its GPU type one of `reference/gpus.yaml` (GPUS), and the README or the workload's own
files at the tag state its total throughput, sequence length, global batch, tensor- and
pipeline-parallel degrees and GPUs per node (`dgxc_context.py`); a cell that misses one is skipped
with why. What is derived is said so, with the lines it rests on: tokens/s per GPU is the printed
total ÷ the GPU count (the tables print no per-GPU figure). NVIDIA's MFU is kept in its own convention
(`publisher_figures`, convention `other`: global batch × the README's model FLOPs per sequence ÷ step
time ÷ GPUs ÷ the peak it states), and recomputed from the README's own numbers in the notes, as are
the throughput (sequence length × global batch ÷ step time, their formula) and the days to 1T tokens.

The launch: NVIDIA publishes the scripts behind the figures at each tag (`launch.sh`,
`configure.sh`, the model YAML or `metadata.yaml`), but this catalogue records a launch only as a
documented launch (pinned checkout, container, command, the values it sets, dry-run) and does not
read NVIDIA's launchers as one yet: the launch is `not-published`, its reason naming the tag's files.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .. import fmt
from . import dgxc, firstseen
from .common import Import, Planned, Skipped, github_permalink, name_part, recipe_id
from .dgxc_context import FRAMEWORKS, Workload, workload
from .gitsource import FileAtCommit, GitSource
from .supersede import Configuration, supersede

IMPORTER = "dgxc-benchmarking"
PUBLISHER = "NVIDIA (DGX Cloud Benchmarking)"

MODELS = {
    # model as printed, lower case with single spaces: reference/models.yaml key
    "llama 3.1 8b": "Llama 3.1 8B",
    "llama 3.1 70b": "Llama 3.1 70B",
    "llama 3.1 405b": "Llama 3.1 405B",
    "llama3.1 405b": "Llama 3.1 405B",  # v25.05's spelling
    # The fine-tuning tables (`Llama3 70b Finetuning LORA BF16`): the READMEs fine-tune Meta-Llama-3-8B/70B.
    "llama3 8b": "Llama 3 8B",
    "llama3 70b": "Llama 3 70B",
    "maxtext llama2 70b": "Llama 2 70B",
    "maxtext llama3 70b": "Llama 3 70B",
    "deepseek v3": "DeepSeek-V3",
}

GPUS = {
    # GPU type as printed: reference/gpus.yaml key
    "H100": "H100",
    "GB200": "GB200",
}

PRECISIONS = {"BF16": "bf16", "FP8": "fp8"}

SCHEMES = {
    # the caption's fine-tuning scheme: (workload.method.kind, the id's token)
    None: ("pre-training", ""),
    "SFT": ("full-fine-tune", "sft"),
    "LORA": ("lora", "lora"),
}

TOLERANCE = 0.01
"""How far a figure recomputed from the README's own numbers may be from the printed one and still be
said to agree: 1%, beyond the rounding of any printed figure."""


@dataclass(frozen=True)
class Printed:
    """One tag's printing of a cell."""

    release: dgxc.Release
    readme: dgxc.Readme
    cell: dgxc.Cell


def permalink(commit: str, path: str, first: int | None = None, last: int | None = None) -> str:
    return github_permalink(dgxc.REPOSITORY, commit, path, first, last)


def build(source: GitSource, names: Sequence[str] | None = None) -> Import:
    read = dgxc.releases(source, names)
    skipped: list[Skipped] = []
    releases_skipped: list[Skipped] = []
    groups: dict[tuple[Any, ...], list[Printed]] = defaultdict(list)
    for release in read:
        if not release.cells:
            releases_skipped.append(
                Skipped(f"tag {release.tag}", "its READMEs print no performance table (none does from v25.07)")
            )
            continue
        skipped += [
            Skipped(f"{release.tag} {problem.path}:{problem.line}", f"not read: {problem.reason}")
            for problem in release.problems
        ]
        for readme in release.readmes:
            for cell in readme.cells:
                groups[row_key(cell)].append(Printed(release, readme, cell))
    files: dict[tuple[str, str], FileAtCommit] = {}
    workloads: dict[tuple[str, str], Workload] = {}
    planned: list[Planned] = []
    history = _history(source, read)
    for printings in groups.values():
        made = _recipe(printings, source, files, workloads, history)
        (skipped if isinstance(made, Skipped) else planned).append(made)
    planned = _distinct(planned)
    owned = tuple(f"/dgxc-{tag}-" for tag in names or ())
    return Import(
        IMPORTER,
        tuple(supersede(planned)),
        tuple(skipped),
        (lambda recipe: any(token in recipe for token in owned)) if owned else (lambda recipe: True),
        tuple(releases_skipped),
    )


def _history(source: GitSource, read: list[dgxc.Release]) -> firstseen.History | None:
    """Every README that prints figures, walked from the first commit to the newest tag read: where
    each row first appeared with its values (firstseen), whatever tag first carried it."""
    printing = [release for release in read if release.cells]
    if not printing:
        return None
    paths = tuple(sorted({cell.path for release in printing for cell in release.cells}))
    return firstseen.walk(source.at(printing[-1].commit), paths, _history_rows, (dgxc.ParseError,))


def _history_rows(path: str, text: str) -> Iterator[tuple[tuple[Any, ...], int]]:
    for cell in dgxc.parse_readme(path, text).cells:
        yield row_key(cell), cell.header_line


def row_key(cell: dgxc.Cell) -> tuple[Any, ...]:
    """What makes two tags' printings the same row: the model as printed (spacing aside), scheme,
    precision, GPU type and count, scaling series, global batch and every figure's value."""
    caption = cell.caption
    batch = cell.global_batch
    return (
        caption.model.lower().replace(" ", ""),
        caption.scheme,
        caption.precision,
        cell.gpu,
        cell.gpus,
        caption.strong_scaling or cell.header.strong_scaling,
        batch[0] if batch else None,
        tuple(sorted((kind, figure.value) for kind, figure in cell.figures)),
    )


def _file(
    source: GitSource, release: dgxc.Release, path: str, files: dict[tuple[str, str], FileAtCommit]
) -> FileAtCommit:
    key = (release.tag, path)
    if key not in files:
        files[key] = source.at(release.commit).read(path)
    return files[key]


def _workload(source: GitSource, release: dgxc.Release, path: str, cache: dict[tuple[str, str], Workload]) -> Workload:
    key = (release.tag, path.rsplit("/", 1)[0])
    if key not in cache:
        cache[key] = workload(source.at(release.commit), path)
    return cache[key]


def _where(cell: dgxc.Cell) -> str:
    return f'{cell.path}, table "{cell.caption.text}", column {cell.column} ({cell.header.text})'


def _recipe(
    printings: list[Printed],
    source: GitSource,
    files: dict[tuple[str, str], FileAtCommit],
    workloads: dict[tuple[str, str], Workload],
    history: firstseen.History | None,
) -> Planned | Skipped:
    first, latest = printings[0], printings[-1]
    release, readme, cell = latest.release, latest.readme, latest.cell
    caption = cell.caption
    where = f"{release.tag} {cell.path}:{cell.header_line} ({_where(cell)})" + (
        f", first printed at {first.release.tag}" if first is not latest else ""
    )
    total = cell.figure("tokens_per_s")
    if total is None:
        printed = ", ".join(sorted(kind for kind, _ in cell.figures))
        return Skipped(where, f"no throughput in tokens per second (the column prints {printed})")
    model = MODELS.get(" ".join(caption.model.lower().split()))
    if model is None:
        return Skipped(where, f"model {caption.model!r} is not in reference/models.yaml (MODELS of dgxc_recipes.py)")
    gpu = GPUS.get(cell.gpu)
    if gpu is None:
        return Skipped(where, f"GPU type {cell.gpu!r} is not in GPUS of dgxc_recipes.py")
    precision = PRECISIONS.get(caption.precision)
    if precision is None:
        return Skipped(where, f"precision {caption.precision!r} is not in PRECISIONS of dgxc_recipes.py")
    if cell.proxy:
        return Skipped(where, f"a proxy of the model, not the model: {cell.proxy}")
    context = _workload(source, release, cell.path, workloads)
    per_node = context.gpus_per_node(cell.gpu)
    if per_node is None:
        return Skipped(where, f"GPUs per node are not stated for {cell.gpu} in {context.launch or 'a launch script'}")
    seq = _sequence_length(cell, context)
    if seq is None:
        return Skipped(
            where, "the sequence length is not published (not in the README, nor in a model YAML of the tag)"
        )
    batch = _global_batch(cell)
    if batch is None:
        return Skipped(where, "the global batch size is not published")
    layout, layout_note = _layout(cell)
    if layout is None:
        return Skipped(where, "the tensor- and pipeline-parallel degrees are not published")
    method, scheme_token = SCHEMES[caption.scheme]
    file = _file(source, release, cell.path, files)
    first_published, unread = (
        firstseen.first_published(history, row_key(cell), lambda seen: permalink(seen.commit, seen.path, seen.line))
        if history is not None
        else (None, [])
    )
    notes = _notes(cell, readme, total, seq, batch, layout_note, first, latest) + unread
    gpu_data: dict[str, Any] = {"type": gpu, "count": cell.gpus, "per_node": per_node.value}
    last_line = cell.header_line + 1 + cell.excerpt.count("\n") - 1
    data: dict[str, Any] = {
        "schema_version": 2,
        "model": model,
        "gpu": gpu_data,
        "author": {"name": "NVIDIA", "url": permalink(file.commit, file.path)},
        "status": "published",
        "source": {
            "url": permalink(file.commit, file.path, cell.header_line, last_line),
            "where": f"release {release.tag}, {_where(cell)}",
            "publisher": PUBLISHER,
            "published": dt.date.fromisoformat(file.date),
            **({"first_published": first_published} if first_published else {}),
            "excerpt": cell.excerpt + (f"\n\n{cell.setup.excerpt}" if cell.setup else ""),
            "importer": IMPORTER,
        },
        "stack": _stack(context, release),
        "workload": {
            "row_tokens": seq[0],
            "global_batch": batch[0],
            "precision": precision,
            "method": {"kind": method},
        },
        "layout": layout,
        "result": _result(cell, readme, total, batch[0]),
        "launch": _launch(context, release, readme),
        "notes": "\n".join(f"- {note}" for note in notes) + "\n",
    }
    disagreements = _disagreements(cell, layout)
    if disagreements:
        data["disagreements"] = disagreements
    if not data["stack"]:
        del data["stack"]
    framework = _framework(context)
    qualifiers = [framework] if framework and framework not in ("NeMo", "NeMo 2") else []
    if caption.strong_scaling or cell.header.strong_scaling:
        qualifiers.append("strong scaling")
    label = f"{model} ({', '.join(qualifiers)})" if qualifiers else model
    name = "-".join(
        part
        for part in (
            "dgxc",
            first.release.tag,
            name_part(framework.lower()) if qualifiers and framework in qualifiers else "",
            scheme_token,
            precision,
            "strong" if "strong scaling" in qualifiers else "",
            f"{cell.gpus}gpu",
        )
        if part
    )
    return Planned(
        recipe_id(model, gpu, name),
        data,
        Configuration(label, gpu, cell.gpus, precision, method, seq[0]),
        dgxc.release_key(release.tag),
        release.tag,
    )


def _sequence_length(cell: dgxc.Cell, context: Workload) -> tuple[int, str] | None:
    setup = cell.setup
    if setup is not None and setup.value("seq_len") is not None:
        return setup.value("seq_len"), f"the configuration table's SeqLen (line {setup.line})"  # type: ignore[return-value]
    stated = cell.caption.setting("SEQ")
    if stated is not None:
        return stated, f"the caption's SEQ={stated} (line {cell.header_line})"
    yaml = context.sequence_length(cell.caption.model)
    if yaml is not None and isinstance(yaml.value, int):
        return yaml.value, (
            f"`{yaml.text}` in {yaml.path} (line {yaml.line}), the model configuration the tag's launch runs; "
            "no script of the workload sets SEQ_LEN, with which configure.sh would override it"
        )
    return None


def _global_batch(cell: dgxc.Cell) -> tuple[int, str] | None:
    printed = cell.global_batch
    if printed is not None:
        return printed
    setup = cell.setup
    if setup is not None and setup.value("gbs") is not None:
        return setup.value("gbs"), f"line {setup.line}, the configuration table's GBS"  # type: ignore[return-value]
    return None


def _layout(cell: dgxc.Cell) -> tuple[dict[str, Any] | None, str]:
    """The degrees the column, its configuration row or its caption print, in that order of precedence
    (the Llama 3.1 405B tables print a column's own PP and VP under a caption that gives the largest)."""
    setup, caption = cell.setup, cell.caption
    found: dict[str, int] = {}
    said: list[str] = []
    for key, row, column, setting in (
        ("tp", None, "tp", "TP"),
        ("pp", "pp", "pp", "PP"),
        ("vpp", "vp", "vp", "VP"),
        ("cp", None, "cp", "CP"),
        ("ep", None, "ep", "EP"),
        ("etp", None, "etp", "ETP"),
        ("dp", None, "dp", "DP"),
        ("gradient_accumulation", None, "ga", "GA"),
        ("rows_per_microbatch", None, "mbs", "MBS"),
    ):
        figure = cell.figure(row) if row else None
        if row and figure is not None:
            if isinstance(figure.value, int):
                found[key] = figure.value
                said.append(f"{setting} {figure.value} (the column's {row.upper()} row, line {figure.line})")
            continue
        if row and any(kind in ("layers", "gbs") for kind, _ in cell.figures):
            continue  # the column prints its own settings; an empty one (VP n/a) is not the caption's
        if setup is not None and setup.states(column):
            value = setup.value(column)
            if value is not None:
                found[key] = value
            continue
        value = caption.setting(setting)
        if value is not None:
            found[key] = value
    if "tp" not in found or "pp" not in found:
        return None, ""
    layout: dict[str, Any] = {
        name: found[name] for name in ("tp", "pp", "vpp", "cp", "ep", "etp", "dp") if name in found
    }
    for name in ("gradient_accumulation", "rows_per_microbatch"):
        if name in found:
            layout[name] = found[name]
    origin = (
        f"the configuration table (line {setup.line})"
        if setup is not None
        else f"the caption `{caption.text}` (line {cell.header_line})"
    )
    note = f"Layout from {origin}" + (f", and the column's own rows: {'; '.join(said)}" if said else "") + "."
    return layout, note


def _disagreements(cell: dgxc.Cell, layout: dict[str, Any]) -> list[dict[str, str]]:
    """Checks the published figures fail, each with why: the fine-tuning configuration tables of v25.04
    print one DP for 8, 16 and 32 GPUs, so TP × PP × CP × DP is not the GPU count of all their rows."""
    if "dp" not in layout:
        return []
    product = layout["tp"] * layout["pp"] * layout.get("cp", 1) * layout["dp"]
    if product == cell.gpus:
        return []
    setup = cell.setup
    where = f"its configuration row (line {setup.line})" if setup is not None else "its layout"
    return [
        {
            "check": "GPU count",
            "note": (
                f"As published: {where} gives TP {layout['tp']}, PP {layout['pp']}, CP {layout.get('cp', 1)} and DP "
                f"{layout['dp']}, whose product is {product}, for the {cell.gpus} GPUs its column names "
                f"({cell.header.text}, line {cell.header_line}). The recipe keeps both as printed; which one is "
                "wrong the README does not say."
            ),
        }
    ]


def _framework(context: Workload) -> str:
    if context.framework is None:
        return ""
    return FRAMEWORKS.get(str(context.framework.value), str(context.framework.value))


def _stack(context: Workload, release: dgxc.Release) -> dict[str, Any]:
    framework = _framework(context)
    if not framework:
        return {}
    version = context.version
    cited = [context.framework, *([version] if version else [])]
    return {
        "framework": f"{framework} {version.value}" if version else framework,
        "source": "; ".join(
            f"`{item.text}` ({permalink(release.commit, item.path, item.line)})" for item in cited if item
        )
        + f", at tag {release.tag}; the container release of the workload's launch script.",
    }


def _publisher_figures(cell: dgxc.Cell, readme: dgxc.Readme, batch: int) -> list[dict[str, Any]]:
    figures: list[dict[str, Any]] = []
    tflops = cell.figure("tflops_per_gpu")
    if tflops is not None:
        figures.append(
            {
                "name": "TFLOPS_per_GPU",
                "value": tflops.value,
                "unit": "TFLOP/s per GPU",
                "convention": "other",
                "note": (
                    f"As printed (line {tflops.line}): the achieved TFLOP/s per GPU NVIDIA's parse_train_timing.sh "
                    "reports, in the FLOPs NeMo counts for the model."
                ),
            }
        )
    mfu = cell.figure("mfu")
    if mfu is not None:
        precision = PRECISIONS[cell.caption.precision]
        peak = readme.peak(cell.gpu, cell.caption.precision)
        figure: dict[str, Any] = {
            "name": "Model flops utilization",
            "value": mfu.value,
            "unit": "MFU %",
            "convention": "other",
            "peak": {"precision": precision, **({"tflops": peak.tflops} if peak else {})},
            "note": _mfu_note(cell, readme, batch, mfu, peak, tflops),
        }
        figures.append(figure)
    return figures


def _mfu_note(
    cell: dgxc.Cell,
    readme: dgxc.Readme,
    batch: int,
    mfu: dgxc.Figure,
    peak: dgxc.Peak | None,
    tflops: dgxc.Figure | None,
) -> str:
    formula = readme.mfu_formula
    said = [f"As printed (line {mfu.line}), in NVIDIA's convention"]
    if formula is not None:
        said.append(f"`{formula.text}` (line {formula.line})")
    if peak is not None:
        said.append(f"peak {fmt.as_written(peak.tflops)} TFLOP/s, as the README states it (line {peak.line})")
    flops = readme.flops_for(cell)
    step = cell.figure("step_time")
    recomputed: float | None = None
    if formula is not None and "TFLOPS_per_GPU" in formula.text and tflops is not None and peak is not None:
        recomputed = float(tflops.value) / peak.tflops * 100
    elif flops is not None:
        said.append(
            f"model FLOPs per sequence (global batch of one): `{flops.statement.text}` (line {flops.statement.line})"
        )
        if step is not None and peak is not None and formula is not None and "global batch size" in formula.text:
            recomputed = batch * flops.value / float(step.value) / cell.gpus / (peak.tflops * 1e12) * 100
    text = "; ".join(said) + "."
    if recomputed is not None:
        printed = float(mfu.value)
        text += f" Recomputed from the README's own figures: {recomputed:.2f}%" + (
            "."
            if abs(recomputed - printed) <= TOLERANCE * printed
            else f"; the printed figure is {printed / recomputed:.2f} of it (the README does not say why)."
        )
    return text


def _result(cell: dgxc.Cell, readme: dgxc.Readme, total: dgxc.Figure, batch: int) -> dict[str, Any]:
    per_gpu = round(float(total.value) / cell.gpus, 2)
    timing = readme.timing
    note = (
        f"Derived: the README prints the total throughput, {total.text} tokens/s for {cell.gpus} GPUs (line "
        f"{total.line}); per GPU {total.text} ÷ {cell.gpus} = {fmt.as_written(per_gpu)} (to 0.01)."
    )
    if timing is not None:
        note += f' How the step time was taken: "{timing.text}" (line {timing.line}).'
    result: dict[str, Any] = {"tokens_per_s_per_gpu": per_gpu, "throughput_note": note}
    figures = _publisher_figures(cell, readme, batch)
    if figures:
        result["publisher_figures"] = figures
    return result


def _agreement(printed: float, recomputed: float) -> str:
    if abs(recomputed - printed) <= TOLERANCE * printed:
        return "agrees"
    return f"differs by {abs(recomputed - printed) / printed:.0%}"


def _notes(
    cell: dgxc.Cell,
    readme: dgxc.Readme,
    total: dgxc.Figure,
    seq: tuple[int, str],
    batch: tuple[int, str],
    layout_note: str,
    first: Printed,
    latest: Printed,
) -> list[str]:
    notes = []
    step = cell.figure("step_time")
    if step is not None:
        recomputed = seq[0] * batch[0] / float(step.value)
        notes.append(
            f"Step time: {step.text} s per step (line {step.line}). The README's throughput formula, sequence length "
            f"× global batch ÷ step time, gives {fmt.number(seq[0])} × {fmt.number(batch[0])} ÷ {step.text} = "
            f"{fmt.number(recomputed)} tokens/s, which {_agreement(float(total.value), recomputed)} with the printed "
            f"{total.text}."
        )
    days = cell.figure("days_1t")
    if days is not None:
        recomputed = 1e12 / float(total.value) / 86400
        notes.append(
            f"Time to train 1T tokens: {days.text} days as printed (line {days.line}); 10^12 ÷ {total.text} tokens/s "
            f"÷ 86,400 s = {recomputed:.2f} days, which {_agreement(float(days.value), recomputed)}."
        )
    notes.append(f"Sequence length {fmt.number(seq[0])}: {seq[1]}.")
    notes.append(f"Global batch {fmt.number(batch[0])}: {batch[1]}.")
    notes.append(layout_note)
    if cell.setup is None and cell.setup_note:
        notes.append(f"No configuration row: {cell.setup_note}.")
    if cell.caption.precision == "FP8":
        notes.append("FP8: the scaling recipe is not stated.")
    tags = [printed.release.tag for printed in (first, latest)]
    if tags[0] != tags[1]:
        notes.append(
            f"The same figures are printed by the release tags from {tags[0]} to {tags[1]}; the source is the "
            "latest, and first_published the first commit whose README holds them."
        )
    return notes


def _launch(context: Workload, release: dgxc.Release, readme: dgxc.Readme) -> dict[str, Any]:
    files = ", ".join(path.rsplit("/", 1)[-1] for path in context.files) or "none"
    tree = f"https://github.com/{dgxc.REPOSITORY}/tree/{release.commit}/{context.folder}"
    return {
        "kind": "not-published",
        "reason": (
            f"NVIDIA publishes the scripts these figures were produced with at tag {release.tag}, in "
            f"{context.folder}/ ({files}: {tree}), "
            f"launched as {readme.path} says; this catalogue records a launch only as a documented launch (a pinned "
            "checkout, container, command and the values it sets, dry-run before it is shown) and does not yet read "
            "NVIDIA's DGX Cloud Benchmarking launchers as one."
        ),
    }


def _distinct(planned: list[Planned]) -> list[Planned]:
    """Ids made unique: two cells of one tag that differ only in their global batch get `-gbsN`."""
    counts: dict[str, int] = defaultdict(int)
    for recipe in planned:
        counts[recipe.id] += 1
    made = []
    for recipe in planned:
        if counts[recipe.id] > 1:
            batch = recipe.data["workload"]["global_batch"]
            recipe = dataclasses.replace(recipe, id=f"{recipe.id}-gbs{batch}")
        made.append(recipe)
    ids = [recipe.id for recipe in made]
    clashes = sorted({item for item in ids if ids.count(item) > 1})
    if clashes:
        raise dgxc.ParseError(f"two cells make the recipe {clashes[0]}")
    return made
