"""Megatron-Bridge's performance rows as `published` recipes (schema version 2).

Every value is the table's, or stated elsewhere by the publisher at the same commit and cited
(GPUs per node, the container image, software versions); a value not published is left out.
The names NVIDIA prints are mapped to this project's reference keys in one table each (MODELS,
SYSTEMS, PRECISIONS, WORKLOADS); a name not in them makes the row a skipped one, named in the
output, so the next release's new model is seen rather than guessed.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..checking import launchvalues
from ..checking.scriptinputs import script_inputs
from . import firstseen, pyconfig
from . import megatron_bridge as mb
from . import megatron_bridge_inputs as needs
from . import megatron_bridge_launch as launches
from .common import Import, Planned, Skipped, github_permalink, name_part, recipe_id, withhold
from .gitsource import FileAtCommit, GitSource
from .megatron_bridge_context import Cited, Context, read_context
from .supersede import Configuration, supersede

IMPORTER = "megatron-bridge"
PUBLISHER = "NVIDIA"

MODELS: dict[str, tuple[str, bool]] = {
    # name as printed: (reference/models.yaml key, mixture of experts)
    "LLAMA3_8B": ("Llama 3 8B", False),
    "LLAMA3_70B": ("Llama 3 70B", False),
    "LLAMA3.1_8B": ("Llama 3.1 8B", False),
    "LLAMA3.1_70B": ("Llama 3.1 70B", False),
    "LLAMA3.1_405B": ("Llama 3.1 405B", False),
    "DeepSeekV3": ("DeepSeek-V3", True),
    "DeepSeekV4 Flash": ("DeepSeek-V4-Flash", True),
    "GPT OSS 120B": ("GPT-OSS 120B", True),
    "Qwen3_30B_a3B": ("Qwen3-30B-A3B", True),
    "Qwen3_235B_a22B": ("Qwen3-235B-A22B", True),
    "Kimi_K2": ("Kimi K2", True),
    "Nemotron_3_Nano": ("Nemotron 3 Nano 30B-A3B", True),
    "Nemotron_3_5_Lightning": ("Nemotron 3.5 Lightning 30B-A3B", True),
    "Nemotron_3_Super": ("Nemotron 3 Super 120B-A12B", True),
    "Nemotron_3_Ultra": ("Nemotron 3 Ultra 550B-A55B", True),
}

SYSTEMS: dict[str, tuple[str, str]] = {
    # system as printed: (reference/gpus.yaml key, GPU type as scripts/performance spells it)
    "DGX-H100": ("H100", "h100"),
    "DGX-B200": ("B200", "b200"),
    "DGX-B300": ("B300", "b300"),
    "DGX-GB200": ("GB200", "gb200"),
    "DGX-GB300": ("GB300", "gb300"),
}

PRECISIONS: dict[str, tuple[str, str | None, str]] = {
    # label as printed: (workload.precision, workload.fp8_scaling, the id's token)
    "BF16": ("bf16", None, "bf16"),
    "FP8": ("fp8", None, "fp8"),  # 26.x: the scaling recipe is not stated
    "FP8-CS": ("fp8", "tensorwise", "fp8cs"),  # current scaling: one scale per tensor
    "FP8-MX": ("mxfp8", None, "mxfp8"),
    "MXFP8": ("mxfp8", None, "mxfp8"),
    "NVFP4": ("nvfp4", None, "nvfp4"),
}

WORKLOADS: dict[str, tuple[str, str]] = {
    # "### <workload> Performance": (workload.method.kind, the id's token)
    "Pre-Training": ("pre-training", ""),
    "SFT": ("full-fine-tune", "sft"),
    "LoRA": ("lora", "lora"),
}

_XX_YY = re.compile(r"\d{2}\.\d{2}")
_DDP = re.compile(r"FSDP\s*=\s*0:\s*([^;]+)")
_FSDP_GROUP = re.compile(r"FSDP\s*>\s*0:\s*([^;]+)")
_FSDP_ON = re.compile(r"FSDP\s*=\s*1:\s*([^;]+)")
MIN_ROWS_FOR_ROUNDING = 8
"""A release's tokens/s all sharing a factor of 8 or more says they were rounded only with this many rows."""


@dataclass(frozen=True)
class PageFile:
    file: FileAtCommit
    page: mb.Page


def permalink(file: FileAtCommit, line: int | None = None) -> str:
    return github_permalink(mb.REPOSITORY, file.commit, file.path, line)


def read_pages(source: GitSource) -> list[PageFile]:
    pages = []
    for path in mb.PAGES:
        if source.exists(path):
            file = source.read(path)
            pages.append(PageFile(file, mb.parse_page(path, file.text)))
    if not pages:
        raise mb.ParseError(f"none of {', '.join(mb.PAGES)} exists at {source.commit}")
    return pages


def build(source: GitSource, releases: Sequence[str] | None = None) -> Import:
    """The recipes of `releases` (every release the pages print when None) at the source's commit."""
    pages = read_pages(source)
    context = read_context(source)
    printed = [release for page in pages for release in page.page.releases]
    duplicated = [release for release, count in Counter(printed).items() if count > 1]
    if duplicated:
        raise mb.ParseError(f"release {duplicated[0]} is printed on more than one page")
    unknown = [release for release in releases or () if release not in printed]
    if unknown:
        raise ValueError(f"release {unknown[0]} is not in the performance summary (it has {', '.join(printed)})")
    selected = set(releases or printed)
    found = launches.Releases(source)
    history = firstseen.walk(source, mb.PAGES, _history_rows, (mb.ParseError,))
    planned: list[Planned] = []
    skipped: list[Skipped] = []
    for page in pages:
        rounding = _rounding(page.page)
        for row in page.page.rows:
            if row.release not in selected:
                continue
            made = _recipe(row, page, context, rounding.get(row.release), found, history)
            if isinstance(made, Skipped):
                skipped.append(made)
            else:
                planned.append(made)
    planned = _distinct_ids(planned)
    prefixes = tuple(f"mb-{release}-" for release in selected)
    return Import(
        IMPORTER,
        tuple(supersede(planned)),
        tuple(skipped),
        lambda recipe: recipe.rsplit("/", 1)[-1].startswith(prefixes),
        _releases_skipped(pages, selected, planned, skipped),
    )


def _releases_skipped(
    pages: Sequence[PageFile], selected: set[str], planned: Sequence[Planned], skipped: Sequence[Skipped]
) -> tuple[Skipped, ...]:
    """Each selected release none of whose rows makes a recipe, with the reason its rows share."""
    imported = {recipe.release_name for recipe in planned}
    found = []
    for page in pages:
        for release in page.page.releases:
            if release not in selected or release in imported:
                continue
            marker = f"({release} NeMo Container,"
            reasons = Counter(item.reason for item in skipped if marker in item.where)
            rows = sum(1 for row in page.page.rows if row.release == release and row.variant == "primary")
            where = f"release {release} ({page.file.path}:{page.page.release_lines[release]})"
            if not reasons:
                found.append(Skipped(where, "it prints no performance table"))
            elif len(reasons) == 1:
                found.append(Skipped(where, f"{next(iter(reasons))} (all {rows} rows)"))
            else:
                found.append(Skipped(where, f"none of its {rows} rows makes a recipe (each is listed above, with why)"))
    return tuple(found)


def _rounding(page: mb.Page) -> dict[str, int]:
    """Releases whose tokens/s are all multiples of 8 or more: the figure they share."""
    by_release: dict[str, list[int]] = defaultdict(list)
    for row in page.rows:
        if row.variant == "primary" and isinstance(row.values.tokens, int):
            by_release[row.release].append(row.values.tokens)
    found = {}
    for release, values in by_release.items():
        factor = math.gcd(*values)
        if len(values) >= MIN_ROWS_FOR_ROUNDING and factor >= 8:
            found[release] = factor
    return found


def _where(row: mb.Row) -> str:
    values = row.values
    what = ", ".join(
        part
        for part in (
            values.system if row.table.startswith("Model") else _model_as_printed(values),
            f"{values.gpus} GPUs",
            values.precision,
        )
        if part
    )
    text = (
        f'{row.release} NeMo Container, {row.workload} Performance, table "{row.table}", '
        f"row {row.number} of {row.rows_in_table} ({what})"
    )
    if row.variant == "alternative":
        text += ", the values in parentheses"
    return text


def _model_as_printed(values: mb.Values) -> str:
    return f"{values.model} ({values.qualifier})" if values.qualifier else values.model


def row_key(row: mb.Row) -> tuple[Any, ...]:
    """What makes a row in a past version of the pages the same row (firstseen): its release,
    workload and variant and every value read from it; not its table, which a release reorders,
    nor its footnote marks."""
    values = dataclasses.replace(row.values, footnotes=(), columns=frozenset(), alternative_in=frozenset())
    return (row.release, row.workload, row.variant, values)


def _history_rows(path: str, text: str) -> Iterator[tuple[tuple[Any, ...], int]]:
    for row in mb.parse_page(path, text, lenient=True).rows:
        yield row_key(row), row.line


def _first_published(row: mb.Row, history: firstseen.History) -> tuple[dict[str, Any] | None, list[str]]:
    return firstseen.first_published(history, row_key(row), lambda seen: _permalink(seen.commit, seen.path, seen.line))


def _recipe(
    row: mb.Row,
    page: PageFile,
    context: Context,
    rounding: int | None,
    found: launches.Releases,
    history: firstseen.History,
) -> Planned | Skipped:
    values = row.values
    where = f"{page.file.path}:{row.line} ({_where(row)})"
    if values.precision is None:
        if "precision" in values.columns:
            return Skipped(where, "the Precision cell is n/a: the precision is not published")
        return Skipped(where, f"the {row.release} tables have no Precision column: the precision is not published")
    if values.tokens is None:
        return Skipped(where, "the alternative run's Tokens / sec / GPU is not printed (no value in parentheses)")
    model = MODELS.get(values.model)
    system = SYSTEMS.get(values.system)
    precision = PRECISIONS.get(values.precision)
    workload = WORKLOADS.get(row.workload)
    for missing, name, table in (
        (model, values.model, "MODELS"),
        (system, values.system, "SYSTEMS"),
        (precision, values.precision, "PRECISIONS"),
        (workload, row.workload, "WORKLOADS"),
    ):
        if missing is None:
            return Skipped(where, f"{name!r} is not in {table} of megatron_bridge_recipes.py")
    assert model and system and precision and workload  # narrowed above, for the type checker
    model_key, is_moe = model
    gpu, scripts_gpu = system
    per_node = context.per_node.get(scripts_gpu)
    if per_node is None:
        return Skipped(where, f"GPUs per node for {scripts_gpu!r} are not in the performance scripts at this commit")
    kind, method_token = workload
    precision_value, scaling, precision_token = precision

    name = "-".join(
        part
        for part in (
            "mb",
            row.release,
            method_token,
            precision_token,
            f"{values.gpus}gpu",
            name_part((values.qualifier or "").replace("/", "").lower()),
        )
        if part
    )
    launch = found.find(
        launches.Row(row.release, row.workload, values.model, scripts_gpu, values.gpus, values.precision, values.gbs)
    )
    notes = _notes(
        row, page.page, per_node, scripts_gpu, rounding, is_moe, documented=isinstance(launch, launches.Documented)
    )
    first, first_notes = _first_published(row, history)
    data: dict[str, Any] = {
        "schema_version": 2,
        "model": model_key,
        "gpu": {"type": gpu, "count": values.gpus, "per_node": int(per_node.value), "system": values.system},
        "author": {"name": PUBLISHER, "url": permalink(page.file)},
        "status": "published",
        "source": {
            "url": permalink(page.file, row.line),
            "where": _where(row),
            "publisher": PUBLISHER,
            "published": dt.date.fromisoformat(page.file.date),
            **({"first_published": first} if first else {}),
            "excerpt": row.excerpt,
            "importer": IMPORTER,
        },
        "stack": _stack(row.release, context),
        "workload": {
            "row_tokens": values.seq_len,
            "global_batch": values.gbs,
            "precision": precision_value,
            **({"fp8_scaling": scaling} if scaling else {}),
            "method": {"kind": kind},
        },
        "layout": _layout(values, page.page),
        **({"moe": moe} if is_moe and (moe := _moe(row, page.page)) else {}),
        "result": {
            "tokens_per_s_per_gpu": values.tokens,
            "throughput_note": _throughput_note(page.page),
            "publisher_figures": [_figure(row, page.page)] if values.tflops is not None else [],
        },
        "notes": notes + "".join(f"- {note}\n" for note in first_notes),
    }
    if not data["result"]["publisher_figures"]:
        del data["result"]["publisher_figures"]
    mtp = _MTP_QUALIFIERS.get((values.qualifier or "").lower())
    if mtp is not None:
        data["layout"]["mtp_layers"] = mtp
    if isinstance(launch, launches.Documented):
        data["launch"] = _launch(
            launch, int(per_node.value), context, found, values.system, _row_values(data), values.model
        )
    elif isinstance(launch, launches.NotDocumented):
        data["launch"] = {"kind": "not-published", "reason": _not_documented(launch)}
    disagreements = [
        *_ga_disagreement(values),
        *_lora_disagreement(row, values),
        *_known_disagreements(row, values),
        *_launch_disagreement(data, launch),
    ]
    if disagreements:
        data["disagreements"] = disagreements
    configuration = Configuration(
        model=_model_as_printed(values),
        system=values.system,
        gpus=values.gpus,
        method=kind,
        sequence_length=values.seq_len,
        **_compared_precision(precision_value, scaling, launch),
    )
    return Planned(recipe_id(model_key, gpu, name), data, configuration, mb.release_key(row.release), row.release)


LAUNCHED_SCALING = {"fp8_cs": "tensorwise"}
"""The FP8 scaling of a launcher's -c value, as PRECISIONS records the label that names it (FP8-CS)."""


def _compared_precision(precision: str, scaling: str | None, launch: launches.Found) -> dict[str, str]:
    """The precision supersede.py compares: as recorded, and for an FP8 row whose scaling the page
    does not print (26.x), the scaling of the configuration the release's launcher loads for the row,
    when the launch is documented and that configuration says it."""
    if scaling:
        return {"precision": f"{precision} {scaling}"}
    if precision == "fp8" and isinstance(launch, launches.Documented):
        launched = LAUNCHED_SCALING.get(launch.compute_dtype)
        if launched:
            return {
                "precision": f"{precision} {launched}",
                "precision_from": (
                    f"the page prints FP8 without its scaling; the configuration Megatron-Bridge's launcher loads "
                    f"for the row at {launch.release.tag} is {launch.configuration} (-c {launch.compute_dtype}, "
                    f"{launched} current scaling)"
                ),
            }
    return {"precision": precision}


def _distinct_ids(planned: Iterable[Planned]) -> list[Planned]:
    """Rows of one release that would share an id are told apart by their global batch size (all of them)."""
    planned = list(planned)
    counts = Counter(recipe.id for recipe in planned)
    result = []
    for recipe in planned:
        if counts[recipe.id] > 1:
            recipe = dataclasses.replace(recipe, id=f"{recipe.id}-gbs{recipe.data['workload']['global_batch']}")
        result.append(recipe)
    clashes = [recipe_id for recipe_id, count in Counter(recipe.id for recipe in result).items() if count > 1]
    if clashes:
        raise mb.ParseError(f"two rows make the recipe {clashes[0]}: the table repeats a configuration")
    return result


def _layout(values: mb.Values, page: mb.Page) -> dict[str, Any]:
    layout: dict[str, Any] = {"tp": values.tp, "pp": values.pp}
    if values.vp is not None:
        layout["vpp"] = values.vp
    layout["cp"] = values.cp
    if values.ep is not None:
        layout["ep"] = values.ep
    if values.etp is not None:
        layout["etp"] = values.etp
    sharding = _sharding(values, page)
    if sharding is not None:
        layout["sharding"] = sharding
    if values.ga is not None:
        layout["gradient_accumulation"] = values.ga
    layout["rows_per_microbatch"] = values.mbs
    return layout


def _fsdp_definition(page: mb.Page) -> str | None:
    statement = page.terms.get("FSDP")
    return statement.text if statement else None


def _sharding(values: mb.Values, page: mb.Page) -> dict[str, Any] | None:
    """The FSDP cell read by the page's own definition of it; None when either is missing."""
    definition = _fsdp_definition(page)
    if values.fsdp is None or definition is None:
        return None
    if values.fsdp == 0:
        return {"kind": "ddp"} if _DDP.search(definition) else None
    if _FSDP_GROUP.search(definition):
        sharding: dict[str, Any] = {"kind": "fsdp"}
        data_parallel = values.gpus // (values.tp * values.pp * values.cp)
        if values.fsdp != data_parallel:  # the group is the whole data-parallel group unless CP joins it
            sharding["group_size"] = values.fsdp
        return sharding
    if _FSDP_ON.search(definition) and values.fsdp == 1:
        return {"kind": "fsdp"}
    return None


def _moe_statement(row: mb.Row, page: mb.Page) -> str | None:
    for statement in page.release_notes.get(row.release, ()):
        if re.search(r"\bMoE\b", statement.text):
            return statement.text
    for name in page.page_notes:
        footnote = page.footnotes.get(name)
        if footnote and re.search(r"\bMoE\b", footnote.text):
            return footnote.text
    return None


def _moe(row: mb.Row, page: mb.Page) -> dict[str, Any] | None:
    """Routing and token dropping from the release's MoE statement and the row's qualifier.

    26.x and 25.11: "we force-balance the token distribution among experts and all benchmarks are
    token-dropless". 25.09: "In token-dropless MoE training benchmarks, we force-balance ...", with
    `(tokendrop)` and `(dropless)` rows: a token-drop row's routing is not stated.
    """
    statement = _moe_statement(row, page)
    qualifier = (row.values.qualifier or "").lower()
    moe: dict[str, Any] = {}
    if qualifier == "tokendrop":
        moe["token_dropping"] = "capacity"
        if statement and "force-balance" in statement and "dropless MoE" not in statement:
            moe["routing"] = "force-balanced"
    elif statement or qualifier == "dropless":
        dropless = qualifier == "dropless" or (
            statement is not None and "all benchmarks are token-dropless" in statement
        )
        if statement and "force-balance" in statement:
            moe["routing"] = "force-balanced"
        if dropless:
            moe["token_dropping"] = "dropless"
    return {key: moe[key] for key in ("routing", "token_dropping") if key in moe} or None


def _throughput_note(page: mb.Page) -> str:
    statement = page.terms.get("Tokens/sec/GPU")
    defined = f'"Tokens/sec/GPU: {statement.text}", as the page defines it' if statement else "Tokens / sec / GPU"
    return f"{defined}; how and over which steps it was measured is not stated."


def _figure(row: mb.Row, page: mb.Page) -> dict[str, Any]:
    name = next(
        (term for term in page.terms if term.replace(" ", "") == "Model TFLOP / sec / GPU".replace(" ", "")),
        "Model TFLOP / sec / GPU",
    )
    figure: dict[str, Any] = {
        "name": name,
        "value": row.values.tflops,
        "unit": "TFLOP/s per GPU",
        "convention": "megatron",
        # The formula and the printed precision changed between releases (flops.py).
        "release": row.release,
    }
    footnotes = [page.footnotes[ref].text for ref in row.values.footnotes if ref in page.footnotes]
    if footnotes:
        figure["note"] = " ".join(f"Footnote: {text}" for text in footnotes)
    return figure


def _stack(release: str, context: Context) -> dict[str, Any]:
    versions = context.versions.get(release)
    stack: dict[str, Any] = {}
    sources = []
    if versions is not None:
        components = versions.components
        bridge = components.get("Megatron-Bridge")
        stack["framework"] = f"Megatron-Bridge {bridge}" if bridge else "Megatron-Bridge"
        if "Megatron Core" in components:
            stack["megatron_lm"] = f"Megatron Core {components['Megatron Core']}"
        for field, component in (
            ("transformer_engine", "Transformer Engine"),
            ("pytorch", "PyTorch"),
            ("cuda", "CUDA"),
        ):
            if component in components:
                stack[field] = components[component]
        extra = [f"cuDNN {components['cuDNN']}"] if "cuDNN" in components else []
        if versions.base:
            extra.append(f"built on {versions.base}")
        sources.append(
            f'Versions: the "NeMo Framework {release}" table of {versions.file.path} '
            f"({permalink(versions.file, versions.line)})" + (f"; it also gives {', '.join(extra)}" if extra else "")
        )
    else:
        stack["framework"] = "Megatron-Bridge"
        sources.append(f"Versions: not listed for {release} in docs/releases/software-versions.md")
    image = _image(release, context.image_rule)
    if image is not None:
        stack["container_image"] = image
        rule = context.image_rule
        assert rule is not None
        sources.append(
            f'image: {rule.file.path} says "{rule.text}" ({permalink(rule.file, rule.line)}); no digest is published'
        )
    else:
        sources.append(f"image: the {release} NeMo Container, no tag or digest published for it")
    stack["source"] = "; ".join(sources) + "."
    return stack


def _image(release: str, rule: Cited | None) -> str | None:
    """The image tag the README gives a release XX.YY; a patch release (26.06.01) gets none: the rule names none."""
    if rule is None or not _XX_YY.fullmatch(release):
        return None
    return f"{rule.value}:{release}"


def _notes(
    row: mb.Row,
    page: mb.Page,
    per_node: Cited,
    scripts_gpu: str,
    rounding: int | None,
    is_moe: bool,
    documented: bool = False,
) -> str:
    values = row.values
    notes = []
    for ref in values.footnotes:
        if ref in page.footnotes:
            notes.append(f'Footnote to this row: "{page.footnotes[ref].text}"')
    notes += [f'Printed under the table: "{text}"' for text in row.notes]
    if is_moe and (statement := _moe_statement(row, page)):
        notes.append(f'The page, of its MoE benchmarks: "{statement}"')
    for statement in page.release_notes.get(row.release, ()):
        if re.search(r"\bMoE\b", statement.text):
            continue  # above, for MoE models only
        if re.search("parenthes", statement.text, re.IGNORECASE):
            if row.variant == "alternative":
                notes.append(
                    f'This recipe is the run in parentheses of its row: "{statement.text}" The row prints '
                    f"{_shared(values)} once, for both runs."
                )
        else:
            notes.append(f'Printed for the whole release: "{statement.text}"')
    if values.qualifier and values.qualifier.lower() == "tokendrop":
        notes.append(
            "Token-drop run (`tokendrop`): tokens over an expert's capacity are dropped; the capacity "
            "factor is not stated."
        )
    if rounding:
        notes.append(
            f"Every Tokens / sec / GPU figure of the {row.release} tables is a multiple of {rounding}: they appear "
            "rounded, and the page does not say how. The Model TFLOP / sec / GPU figures are not rounded that way."
        )
    if values.precision == "FP8":
        notes.append("Precision FP8: the FP8 scaling recipe of this release is not stated.")
    notes += _sharding_notes(values, page)
    notes += _ga_notes(values)
    notes.append(
        f"GPUs per node: {per_node.value}, the performance scripts' value for `{scripts_gpu}` "
        f"GPUs ({per_node.file.path}, {permalink(per_node.file, per_node.line)}); the table does not state it."
    )
    unstated = (
        "the data, the measurement window"
        if documented
        else "the launch command for this row, the data, the measurement window"
    )
    if documented:
        notes.append(
            f"Launch: `launch` is how Megatron-Bridge documents launching this configuration with the {row.release} "
            "container, read from its files at that release; the page does not say it is the command that produced "
            "these figures."
        )
    if row.workload == "LoRA":
        unstated += ", the LoRA rank and which modules carry adapters"
    if row.workload in ("SFT", "LoRA"):
        unstated += ", whether sequences are packed"
    notes.append(
        f'Not published: {unstated}. The page says its results "were obtained using performance recipes" in '
        "`scripts/performance` (linked on `main`, not at a commit)."
    )
    return "\n".join(f"- {note}" for note in notes) + "\n"


def _shared(values: mb.Values) -> str:
    printed_once = [
        label
        for field, label in (
            ("gbs", "GBS"),
            ("mbs", "MBS"),
            ("seq_len", "sequence length"),
            ("fsdp", "FSDP"),
            ("tp", "TP"),
            ("pp", "PP"),
            ("cp", "CP"),
            ("vp", "VP"),
            ("ep", "EP"),
            ("ga", "GA"),
        )
        if field in values.columns and field not in values.alternative_in
    ]
    return ", ".join(printed_once) if printed_once else "every other value"


def _sharding_notes(values: mb.Values, page: mb.Page) -> list[str]:
    definition = _fsdp_definition(page)
    if values.fsdp is None:
        return []
    if definition is None:
        return [f"FSDP {values.fsdp}: the page does not define the FSDP column, so sharding is left out."]
    if values.fsdp == 0 and (match := _DDP.search(definition)):
        return [
            f'FSDP 0, which the page defines as "{match.group(1).strip()}"; whether the optimizer state is '
            "sharded (Megatron's distributed optimizer) is not stated."
        ]
    if match := _FSDP_GROUP.search(definition):
        return [f'FSDP {values.fsdp}, which the page defines as "{match.group(1).strip()}".']
    if match := _FSDP_ON.search(definition):
        return [f'FSDP {values.fsdp}, which the page defines as "{match.group(1).strip()}"; the group is not stated.']
    return [f'FSDP {values.fsdp}: not read (the page defines the column as "{definition}").']


_MTP_QUALIFIERS = {"w/o mtp": 0, "w/ mtp": 1}
"""DeepSeek-V3 rows that say whether the multi-token-prediction layer was trained; without the
qualifier, the model's own (one layer) is meant, as the figures show."""


def _ga_disagreement(values: mb.Values) -> list[dict[str, str]]:
    """The published GA against GBS / (MBS × DP): the Global batch check fails on the figures as
    printed, and the recipe says why rather than correcting either."""
    return [{"check": "Global batch", "note": note} for note in _ga_notes(values)]


def _lora_disagreement(row: mb.Row, values: mb.Values) -> list[dict[str, str]]:
    if row.workload != "LoRA" or values.tflops is None:
        return []
    return [
        {
            "check": "Publisher's figures",
            "note": "For LoRA, Megatron-Bridge counts model FLOPs with a formula of its own (frozen weights without "
            "their weight gradients, attention over the packed lengths of its SQuAD dataset; "
            "src/megatron/bridge/training/utils/flop_utils.py), which this site does not reproduce: the recomputed "
            "figure is the pre-training formula's, an upper bound.",
        }
    ]


_PACKED_SFT = (
    "Megatron-Bridge's Model TFLOP/s is {difference} this site's recomputation in its convention, more than "
    "its printing explains (whole TFLOP/s); the page does not say why. For SFT, its flop_utils.py can count "
    "attention over the real lengths of packed sequences (the sum of their squares) rather than the row's "
    "sequence length, and the page does not say whether these runs were packed."
)
KNOWN_DISAGREEMENTS: dict[tuple[str, str, str, str, str, int], tuple[str, str]] = {
    ("26.06", "SFT", "LLAMA3_70B", "DGX-GB300", "MXFP8", 32): (
        "Publisher's figures",
        _PACKED_SFT.format(difference="0.5% above"),
    ),
    ("26.02.01", "Pre-Training", "GPT OSS 120B", "DGX-B300", "BF16", 64): (
        "Publisher's figures",
        "Megatron-Bridge's Model TFLOP/s (412) is 0.9% above this site's recomputation in its convention from the "
        "row's 15,031 tokens/s, more than its printing explains (whole TFLOP/s); the page does not say why. The same "
        "model, system, GPU count and precision in 26.02, 26.04 and 26.04.01 (228, 410 and 414 TFLOP/s) agree with "
        "the recomputation within its tolerance.",
    ),
}
"""Rows whose printed figures disagree with a check beyond what their printing explains, found when
they were first imported, each with what can be said about why: the one place to add the next."""


def _known_disagreements(row: mb.Row, values: mb.Values) -> list[dict[str, str]]:
    key = (row.release, row.workload, values.model, values.system, values.precision or "", values.gpus)
    known = KNOWN_DISAGREEMENTS.get(key)
    return [{"check": known[0], "note": known[1]}] if known else []


def _ga_notes(values: mb.Values) -> list[str]:
    """Where the published GA disagrees with GBS / (MBS × DP), say so: both are kept as printed."""
    if values.ga is None:
        return []
    model_parallel = values.tp * values.pp * values.cp
    data_parallel, remainder = divmod(values.gpus, model_parallel)
    if remainder == 0 and values.gbs == values.ga * values.mbs * data_parallel:
        return []
    derived = values.gbs / (values.mbs * values.gpus / model_parallel)
    shown = f"{derived:g}"
    return [
        f"The published GA ({values.ga}) is not GBS / (MBS × DP) with DP = #-GPUs / (TP × PP × CP): "
        f"{values.gbs} / ({values.mbs} × {values.gpus} / {model_parallel}) = {shown}. Both are kept as printed."
    ]


# -- the documented launch ------------------------------------------------------------------------

CLONE_URL = f"https://github.com/{mb.REPOSITORY}.git"
LAUNCH_INPUTS: dict[str, tuple[str, str, str]] = {
    # name: (what to provide, where it comes from, its kind)
    "SLURM_ACCOUNT": (
        "The Slurm account the job is charged to (the launcher's --account).",
        "your cluster's administrator (`sacctmgr show associations user=$USER` lists yours)",
        "account",
    ),
    "SLURM_PARTITION": (
        "The Slurm partition of the GPU nodes (the launcher's --partition).",
        "your cluster's administrator (`sinfo` lists the partitions)",
        "cluster",
    ),
    "CONTAINER_IMAGE": (
        "The NeMo container of this release: the page names the release, and no image tag for it is written down.",
        "NGC's list of NeMo containers (https://catalog.ngc.nvidia.com/orgs/nvidia/containers/nemo/tags)",
        "container-image",
    ),
}
"""What every Megatron-Bridge launch reads from whoever runs it."""


def _row_values(data: dict[str, Any]) -> dict[str, Any]:
    """What the row states of each dimension, keyed as launch.sets (checking/launchvalues.py)."""
    layout, workload = data["layout"], data["workload"]
    return {
        "gpus": data["gpu"]["count"],
        "tp": layout.get("tp"),
        "pp": layout.get("pp"),
        "vp": layout.get("vpp"),
        "cp": layout.get("cp"),
        "ep": layout.get("ep"),
        "etp": layout.get("etp"),
        "gbs": workload.get("global_batch"),
        "mbs": layout.get("rows_per_microbatch"),
        "seq_length": workload.get("row_tokens"),
        "precision": workload.get("precision"),
    }


@dataclass(frozen=True)
class _Overridden:
    """A dimension the command sets on its command line so that it runs the row."""

    key: str
    was: int | str | None
    """The configuration's value; None with `known` False when it could not be read."""
    known: bool
    value: int | None
    words: tuple[str, ...]


def _overrides(
    found: launches.Documented, row: dict[str, Any]
) -> tuple[dict[str, Any], list[_Overridden], list[str], list[str], list[launches.Cited]]:
    """The launcher's own options for every dimension the configuration runs otherwise than the row
    (or that could not be read), where this release's launcher has one: the sets the command then
    runs, what was overridden, the options, the trailing overrides and the lines to cite."""
    sets = dict(found.sets)
    overridden: list[_Overridden] = []
    options: list[str] = []
    trailing: list[str] = []
    cited: list[launches.Cited] = []
    gaps = launchvalues.compare(row, sets)
    wanted = [key for key in launchvalues.LABELS if key in gaps.differing or key in gaps.unstated]
    for key in wanted:
        value = row.get(key)
        if found.overrides is None or key in ("gpus", "precision") or not found.overrides.can_set(key):
            continue
        words, tail = found.overrides.words(key, value)
        options += words
        trailing += tail
        cited += found.overrides.cited(key, value)
        was = sets.get(key)
        overridden.append(_Overridden(key, was, key in sets, value, (*words, *tail)))
        sets[key] = None if key == "vp" and value == 1 else value
    return launches.ordered(sets), overridden, options, trailing, cited


def _launch(
    found: launches.Documented,
    per_node: int,
    context: Context,
    releases: launches.Releases,
    system: str,
    row: dict[str, Any],
    model: str,
) -> dict[str, Any]:
    release = found.release
    commit = release.commit
    sets, overridden, options, trailing, override_cited = _overrides(found, row)
    image, image_note, image_cited = _launch_image(release.name, commit, context, releases)
    cited_files = (*found.cited, image_cited) if image_cited and image_cited not in found.cited else found.cited
    cited_files = (*cited_files, *(item for item in override_cited if item not in cited_files))
    env, withheld = (
        withhold(found.env, {name: (path, line) for name, path, line in found.env_lines})
        if found.env is not None
        else (None, [])
    )
    # A withheld name is shown with the line that sets it: that file is cited with the launch.
    cited_paths = {cited.path for cited in cited_files}
    cited_files = (
        *cited_files,
        *(
            launches.Cited(item["file"], item["line"], item["line"], f"sets {item['name']}")
            for item in withheld
            if item["file"] not in cited_paths
        ),
    )
    nodes = found.gpus // per_node if found.launcher == "train.sh" else None
    steps, environment, environment_notes = needs.environment_steps(releases, found)
    token = needs.hf_token(releases, found, model)
    command = _command(found, per_node, nodes, image, token.option if token else None, options, trailing)
    rests_on = [*(cited for step in steps for cited in (step.cited, *step.rests_on)), *(token.cited if token else ())]
    cited_files = (*cited_files, *(cited for cited in dict.fromkeys(rests_on) if cited not in cited_files))
    notes = [
        f"Megatron-Bridge {release.version} is the {release.name} container's version, as the documentation's "
        f"version picker says ({launches.VERSION_INDEX[1]}, "
        f"{_permalink(launches.VERSION_INDEX[0], launches.VERSION_INDEX[1], release.index_line)}); its tag "
        f"{release.tag} is {commit}.",
        _configuration_note(found),
        *found.notes,
    ]
    if image_note:
        notes.append(image_note)
    if withheld:
        notes.append(
            "Set by the publisher's environment, and withheld from env as names a recipe may not set (the page "
            "warns of each): " + ", ".join(item["name"] for item in withheld) + "."
        )
    notes += sets_notes(found, sets, overridden)
    if found.launcher == "train.sh" and found.env is not None:
        notes.append(
            "env is the function's cfg.env_vars (each value as str() of the Python value): Megatron-Bridge sets them "
            "in the training process before it starts, unless the shell or Slurm already sets them."
        )
    elif found.launcher != "train.sh" and token is None:
        notes.append(
            "The README's longer example also passes `-hf <HF_TOKEN>` (a Hugging Face token, for gated tokenizers "
            "and configs; it sets TRANSFORMERS_OFFLINE=0); the command here is its shortest documented form."
        )
    if token is not None:
        notes.append(
            f"The command passes the launcher's Hugging Face token option ({token.option}), which the shortest "
            f"documented form leaves out: this launch needs a Hugging Face access token{token.why}."
        )
    notes += environment_notes
    data: dict[str, Any] = {
        "kind": "documented",
        "source": {
            "repository": mb.REPOSITORY,
            "commit": commit,
            "files": [cited.launch_file(mb.REPOSITORY, commit) for cited in cited_files],
        },
        "checkout": (
            f"git clone {CLONE_URL}\ncd Megatron-Bridge\n"
            f"git switch --detach {commit}  # tag {release.tag}, Megatron-Bridge {release.version} "
            f"({release.name} container)\n"
        ),
        **({"container": image} if image else {}),
        "command": command,
        **({"env": env} if env is not None else {}),
        **({"withheld": withheld} if withheld else {}),
        "sets": sets,
        "inputs": [
            *_inputs(command, found, per_node, system),
            *environment,
            *([needs.token_input(token)] if token else []),
        ],
        **({"preparation": [_step(step) for step in steps]} if steps else {}),
        "notes": " ".join(note for note in notes if note),
    }
    return data


def _step(step: needs.Step) -> dict[str, Any]:
    first, last = step.cited.first, step.cited.last
    return {
        "what": step.what,
        "file": step.cited.path,
        "lines": [first, last or first],
        "commands": step.commands,
        **({"inputs": list(step.inputs)} if step.inputs else {}),
        "notes": step.notes,
    }


def _launch_image(
    release: str, commit: str, context: Context, releases: launches.Releases
) -> tuple[str | None, str, launches.Cited | None]:
    """The release's image, a note on how it was found, and the README line to cite for it: the
    README's XX.YY rule; for a patch release, the tag as the publisher writes it elsewhere, else the
    README's own example of a patch release's image at the release's revision (25.11.01's is
    `nvcr.io/nvidia/nemo:25.11.01`: a patch release's image is named by its whole release)."""
    image = _image(release, context.image_rule)
    if image is not None or context.image_rule is None:
        return image, "", None
    rule = context.image_rule
    written = releases.container_tag(releases.source.commit, rule.value, release)
    if written is not None:
        path, line = written
        return (
            f"{rule.value}:{release}",
            (
                f"The image tag: the README's rule names XX.YY releases only; {rule.value}:{release} is written "
                f"in {path} ({permalink_at(releases.source.commit, path, line)})."
            ),
            None,
        )
    example = releases.patch_release_example(commit, rule.value)
    if example is not None:
        line, written_image = example
        return (
            f"{rule.value}:{release}",
            (
                f"The image tag: the README's rule names XX.YY releases only, and its own example of a patch release "
                f"at this revision, {written_image} (line {line}), names that release's image by the whole release, so "
                f"the {release} container is {rule.value}:{release}; no digest is published."
            ),
            launches.Cited(launches.PERFORMANCE_README, line, line, "a patch release's image, as the README names one"),
        )
    return (
        None,
        (
            f"The README's rule names images of XX.YY releases only, and no {rule.value}:{release} is written in the "
            "repository: the image is an input."
        ),
        None,
    )


def _command(
    found: launches.Documented,
    per_node: int,
    nodes: int | None,
    image: str | None,
    token: str | None,
    options: Sequence[str] = (),
    trailing: Sequence[str] = (),
) -> str:
    """The launcher's documented command for the row, with the launcher's options that make it run the
    row (`options`, pairs of words), its token option where the launch needs one, and trailing
    `KEY=VALUE` overrides last, one to a line. What the README runs before it (installing NeMo-Run)
    is a preparation step, not part of the command."""
    container = image or '"$CONTAINER_IMAGE"'
    pairs = [" ".join(options[index : index + 2]) for index in range(0, len(options), 2)]
    extra = [*pairs, *([token] if token else []), *trailing]
    if found.launcher == "train.sh":
        selection = dict(found.selection)
        lines = [
            "./scripts/training/train.sh",
            f"    --nodes {nodes} --gpus-per-node {per_node}",
            '    --account "$SLURM_ACCOUNT" --partition "$SLURM_PARTITION"',
            f"    --container-image {container}",
            f"    --recipe {selection['--recipe']}",
            f"    --mode {selection['--mode']}",
            *(f"    {word}" for word in extra),
        ]
        return " \\\n".join(lines) + "\n"
    lines = [
        f"{found.runner} scripts/performance/setup_experiment.py",
        '  --account "$SLURM_ACCOUNT"',
        '  --partition "$SLURM_PARTITION"',
        f"  -i {container}",
        *(f"  {flag} {value}" for flag, value in found.selection),
        f"  -ng {found.gpus}",
        f"  -gn {per_node}",
        *(f"  {word}" for word in extra),
    ]
    return " \\\n".join(lines) + "\n"


class ReadSets(Protocol):
    """A configuration's values as read (a release's documented launch, or a card's function)."""

    @property
    def sets(self) -> dict[str, int | str | None]: ...
    @property
    def origins(self) -> dict[str, pyconfig.Where]: ...
    @property
    def unresolved(self) -> dict[str, str]: ...


def sets_notes(found: ReadSets, sets: dict[str, Any], overridden: Sequence[_Overridden] = ()) -> list[str]:
    """What the notes say of sets: where each value the configuration gives is written, what the
    command overrides and why, and what could not be read."""
    notes = []
    written = [
        f"{launchvalues.LABELS[key]} {launchvalues.show(found.sets[key]) if found.sets[key] is not None else 'None'} "
        f"({where.path} line {where.line})"
        for key, where in found.origins.items()
        if key in found.sets
    ]
    if written:
        notes.append("Where the configuration's values are written: " + "; ".join(written) + ".")
    if overridden:
        said = []
        for item in overridden:
            label = launchvalues.LABELS[item.key]
            shown = (
                "None"
                if item.value is None or (item.key == "vp" and item.value == 1)
                else launchvalues.show(item.value)
            )
            before = (
                f"the configuration runs {launchvalues.show(item.was) if item.was is not None else 'None'}"
                if item.known
                else f"the configuration's could not be read: {found.unresolved.get(item.key, 'not known')}"
            )
            said.append(f"{label} {shown} ({before}) with `{' '.join(item.words)}`")
        notes.append(
            "The command adds the launcher's own options so that it runs the row's configuration: "
            + "; ".join(said)
            + ". sets holds what the command runs with them; without them it would not run the row. Whether the "
            "configuration's other settings (recompute, CUDA graphs, a pipeline layout) suit the row's values is "
            "not checked."
        )
    left = {key: why for key, why in found.unresolved.items() if key not in sets}
    if left:
        notes.append(
            "Not in sets, since it could not be read from the files: "
            + "; ".join(f"{launchvalues.LABELS.get(key, key)} ({why})" for key, why in left.items())
            + "."
        )
    return notes


def _nodes(count: int) -> str:
    return "1 node" if count == 1 else f"{count} nodes"


def _inputs(command: str, found: launches.Documented, per_node: int, system: str) -> list[dict[str, str]]:
    tools = "uv" if "uv run" in command or found.launcher == "train.sh" else "pip and Python"
    return launch_inputs(command, found.env or {}, found.gpus, per_node, system, tools)


def launch_inputs(
    command: str, env: dict[str, str], gpus: int, per_node: int, system: str, tools: str
) -> list[dict[str, str]]:
    """What a Megatron-Bridge launch needs from its reader: a Slurm cluster of `gpus` GPUs on `system`
    nodes of `per_node`, and each of LAUNCH_INPUTS the command reads."""
    inputs = [
        {
            "name": "<Slurm cluster>",
            "description": (
                f"A Slurm cluster of {system} nodes, {gpus} GPUs in all ({_nodes(gpus // per_node)} of "
                f"{per_node}), whose jobs run in containers (Pyxis/Enroot, as the launcher's srun expects); the "
                f"commands run on its login node, with git and {tools} there."
            ),
            "origin": "your cluster; the README's setup runs on a Slurm login node",
            "kind": "cluster",
        }
    ]
    for item in script_inputs(command, env):
        if item.kind == "variable" and item.name in LAUNCH_INPUTS:
            description, origin, kind = LAUNCH_INPUTS[item.name]
            inputs.append({"name": item.name, "description": description, "origin": origin, "kind": kind})
    return inputs


SETS_READ = (
    "sets holds what the run's configuration holds, read with Python's ast (never imported or run): what the "
    "function, the library recipe it starts from and the defaults those inherit assign, with the precision of "
    "its compute dtype"
)


def _configuration_note(found: launches.Documented) -> str:
    if found.launcher == "train.sh":
        return (
            f"The row's configuration is the flat perf recipe {found.configuration} (-c {found.compute_dtype}); "
            f"{SETS_READ}, and the sequence length its dataset's, from which the runner sets the model's."
        )
    variant = dict(found.selection).get("-cv")
    picked = (
        f"the variant named for the row's global batch size (-cv {variant})"
        if variant
        else "as the launcher picks it for these options and its default --config_variant"
        if dict(found.selection).get("-mr")
        else "as the launcher names it for these options"
    )
    sequence = (
        "the model's, as long as which the launcher makes its mock dataset"
        if dict(found.selection).get("-mr")
        else "the dataset's, which the configuration's check requires the model's to equal"
    )
    return (
        f"The row's configuration is {found.configuration} (-c {found.compute_dtype}), {picked}, applied by the "
        f"launcher's configuration function with WorkloadBaseConfig's defaults for the fields it does not write; "
        f"{SETS_READ}, and the sequence length {sequence}."
    )


def _not_documented(found: launches.NotDocumented) -> str:
    return (
        f"Megatron-Bridge documents no launch for this row at the {found.release.name} container's revision "
        f"({found.release.tag}, {found.release.commit[:12]}): {found.reason}."
    )


def _launch_disagreement(data: dict[str, Any], found: launches.Found) -> list[dict[str, str]]:
    """Where the command runs other values than the row prints even with the launcher's options (the
    Launch values check), say so."""
    if not isinstance(found, launches.Documented) or "launch" not in data:
        return []
    gaps = launchvalues.compare(_row_values(data), data["launch"].get("sets", {}))
    if not gaps.differing:
        return []
    by_key = {item.key: item for item in gaps.comparisons}
    differing = [
        f"{item.label} {launchvalues.show(item.launch)} (the table: {launchvalues.show(item.row)})"
        for item in (by_key[key] for key in gaps.differing)
    ]
    return [
        {
            "check": "Launch values",
            "note": (
                f"The configuration Megatron-Bridge's launcher loads for this row at the {found.release.name} "
                f"container's revision ({found.configuration}, tag {found.release.tag}) runs "
                + ", ".join(differing)
                + ", and its launcher has no option for it. The page does not say which configuration produced "
                "its figures; both are kept as published."
            ),
        }
    ]


def permalink_at(commit: str, path: str, line: int | None = None) -> str:
    return _permalink(commit, path, line)


def _permalink(commit: str, path: str, first: int | None = None, last: int | None = None) -> str:
    return github_permalink(mb.REPOSITORY, commit, path, first, last)
