"""Valid recipes made up from a few parameters, with every derived figure consistent.

Used by the tests (fixture sets of several GPUs and prices) and by `./dev bench` (thousands
of recipes); the figures are computed the way the checks recompute them, so they pass.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Any

from openrecipes.reading import yamlwrite
from openrecipes.reading.reference import Reference


def _hex(seed: str) -> str:
    return hashlib.sha256(seed.encode()).hexdigest()


def recipe_data(
    reference: Reference,
    *,
    name: str = "example",
    model: str = "Llama 3.1 70B",
    gpu: str = "H100",
    count: int = 16,
    per_node: int = 8,
    instance: str | None = "AWS p5.48xlarge",
    tokens_per_s: float = 900.0,
    tp: int = 8,
    pp: int = 2,
    cp: int = 1,
    ep: int = 1,
    precision: str = "bf16",
    status: str = "verified",
    measured: dt.date = dt.date(2026, 9, 1),
) -> dict[str, Any]:
    """A complete recipe as data; `yaml_text` turns it into a file."""
    spec = reference.gpu(gpu)
    if spec is None:
        raise ValueError(f"unknown GPU {gpu!r}")
    peak = spec.peak_tflops(precision)
    if peak is None:
        raise ValueError(f"{gpu} has no {precision} peak")
    model_spec = reference.model(model)
    active = model_spec.active_params if model_spec else 8_000_000_000
    dp = count // (tp * pp * cp)
    if dp * tp * pp * cp != count:
        raise ValueError("count must be a multiple of tp × pp × cp")
    global_batch = 64 * dp
    row_tokens = 8192
    steps = 30
    window = [6, 29]
    price = None
    if instance is not None:
        instance_spec = reference.instance(instance)
        if instance_spec is None:
            raise ValueError(f"unknown instance {instance!r}")
        price = round(instance_spec.usd_per_gpu_hour / (tokens_per_s * 3600) * 1e6, 4)
    seed = f"{name}/{model}/{gpu}/{count}"
    return {
        "schema_version": 1,
        "model": model,
        "gpu": {
            "type": gpu,
            "memory_gb": spec.memory_gb,
            "count": count,
            "per_node": per_node,
            "instance": instance,
        },
        "author": {"name": "OpenRecipes test suite", "url": "https://example.org/openrecipes"},
        "status": status,
        "stack": {
            "framework": "Megatron-LM core_r0.16.0",
            "transformer_engine": "2.10.0",
            "pytorch": "2.11.0 (CUDA 12.9 build)",
            "cuda": "12.9",
            "nccl": "2.28.9",
            "python": "3.12",
            "network": f"{per_node} GPUs per node, InfiniBand",
            "source": "pip freeze of the training image",
        },
        "workload": {
            "row_tokens": row_tokens,
            "rows": "pre-training documents",
            "global_batch": global_batch,
            "precision": precision,
            "dataset": {
                "name": "FineWeb sample",
                "source": "HuggingFaceFW/fineweb",
                "revision": _hex(seed + "revision")[:40],
                "license": "ODC-By 1.0",
                "rows_sha256": _hex(seed + "rows"),
                "build": {
                    "name": f"{name}-rows-v1",
                    "tokenizer": f"{model} tokenizer",
                    "rows": steps * global_batch,
                    "row_tokens": row_tokens,
                    "seed": 1234,
                    "packing": "documents concatenated with EOS and cut into rows",
                    "builder": "scripts/build_rows.py",
                },
            },
        },
        "layout": {
            "label": f"TP{tp} PP{pp}" + (f" CP{cp}" if cp > 1 else "") + (f" EP{ep}" if ep > 1 else ""),
            "summary": f"TP {tp}, PP {pp}, CP {cp}, DP {dp}; full recompute.",
            "tp": tp,
            "pp": pp,
            "vpp": 1,
            "cp": cp,
            "ep": ep,
            "etp": 1,
            "dp": dp,
            "sequence_parallel": tp > 1,
            "layer_split": None,
            "max_tokens_per_gpu": None,
            "rows_per_microbatch": 1,
            "recompute": {"granularity": "full", "method": "uniform", "num_layers": 1},
            "offload": None,
            "dispatcher": "alltoall" if ep > 1 else None,
        },
        "result": {
            "tokens_per_s_per_gpu": tokens_per_s,
            "usd_per_million_tokens": price,
            "step_time_cv_percent": 1.5,
            "mfu": round(6 * active * tokens_per_s / (peak * 1e12), 4),
            "mfu_note": None,
            "active_params": {"count": active, "source": "https://example.org/config.json"},
            "measured": measured,
            "steps_per_run": steps,
            "window": window,
            "window_tokens": (window[1] - window[0] + 1) * global_batch * row_tokens,
            "runs": 1,
            "profiler": False,
            # At least what the steps take at this throughput (the GPU-hours check), with start-up.
            "gpu_hours": round(max(count * 0.75, steps * global_batch * row_tokens / tokens_per_s / 3600 * 1.2), 2),
        },
        "correctness": {
            "result": "pass" if status == "verified" else "not-run",
            "summary": "passed" if status == "verified" else "not run yet",
            "reference": "The same layout at TP 1 on one node.",
            "convergence": {
                "steps": 20,
                "result": "pass" if status == "verified" else "not-run",
                "correlation": 0.99999 if status == "verified" else None,
                "final_loss_difference": 0.0003 if status == "verified" else None,
                "pointwise_failures": 0 if status == "verified" else None,
            },
        },
        "env": {"CUDA_DEVICE_MAX_CONNECTIONS": "1", "NCCL_DEBUG": "WARN"},
        "patches": [],
        "run": f"torchrun --nproc-per-node {per_node} pretrain_gpt.py \\\n"
        f"  --tensor-model-parallel-size {tp} \\\n  --pipeline-model-parallel-size {pp}\n",
        "notes": None,
    }


def yaml_text(data: dict[str, Any], recipe_id: str | None = None) -> str:
    header = f"# recipes/{recipe_id}.yaml\n" if recipe_id else ""
    return yamlwrite.dump(data, header)


# --- Hostile text: the shapes that make Markdown parsers slow, and the worst recipes ------------

MARKDOWN_SHAPES: dict[str, tuple[str, str, str]] = {
    # name: (written once before, repeated, written once after)
    "runs of [": ("", "[", ""),
    "runs of *": ("", "*", ""),
    "runs of _": ("", "_", ""),
    "runs of `": ("", "`", ""),
    "runs of <": ("", "<", ""),
    "runs of ~": ("", "~", ""),
    "runs of \\": ("", "\\", ""),
    "image openers ![": ("", "![", ""),
    "image openers in brackets ![[": ("", "![[", ""),
    "link closers ](": ("", "](", ""),
    "unclosed links [a](": ("", "[a](", ""),
    'unclosed titles []( "': ("", '[]( "', ""),
    'unclosed titles [a](http://x "': ("", '[a](http://x "', ""),
    "[ on its own line": ("", "[\n", ""),
    "nested brackets [[[ ]]]": ("", "[[[[[[[[[[", "]]]]]]]]]]"),
    "links in links": ("", "[[a](http://b)](http://c)", ""),
    "code spans in link text": ("", "[`a](b)`", ""),
    "backtick runs of every length": ("", "".join("`" * k + "a" for k in range(1, 40)), ""),
    "backticks `a": ("", "`a", ""),
    "backticks ``a`": ("", "``a`", ""),
    "emphasis *_ alternating": ("", "*_", ""),
    "emphasis *a_ alternating": ("", "*a_", ""),
    "emphasis **a__b": ("", "**a__b", ""),
    "emphasis *a **b": ("", "*a **b", ""),
    "emphasis a_b_": ("", "a_b_", ""),
    "emphasis at line ends": ("", "a *\n", ""),
    "autolink openers <http:": ("", "<http://a", ""),
    "email openers <a@b": ("", "<a@b", ""),
    "html openers <a": ("", "<a ", ""),
    "html comments <!--": ("", "<!--", ""),
    "entities &#": ("", "&#", ""),
    "entities &copy;": ("", "&copy;", ""),
    "quotes nested 19 deep": ("", "> " * 19 + "x\n", ""),
    "lazy quote lines": ("", "> a\nb\n", ""),
    "lists nested 9 deep": ("", "".join("  " * depth + "- x\n" for depth in range(9)), ""),
    "list items": ("", "- a\n", ""),
    "ordered list items": ("", "1. a\n", ""),
    "setext headings": ("", "a\n=\n", ""),
    "setext underlines -": ("", "a\n-\n", ""),
    "atx headings": ("", "# a\n", ""),
    "thematic breaks": ("", "***\n", ""),
    "fence openers": ("", "```\n", ""),
    "indented code": ("", "    code\n", ""),
    "hard breaks": ("", "a  \n", ""),
    "backslash breaks": ("", "a\\\n", ""),
    "long link reference definition": ("[a]: https://e.example/", "x", ""),
    "link reference definitions": ("", "[ref]: https://e.example/a\n", ""),
    "labels of 999 characters": ("", "[" + "l" * 997 + "]: https://e.example\n", ""),
    "link references used": ("[a]: https://e.example/a\n\n", "[a]", ""),
    "table row of | only": ("a|b\n-|-\n", "|", ""),
    "table of many cells": ("|h" * 20 + "\n" + "|-" * 20 + "\n", "|xxxxxx" * 20 + "\n", ""),
    "aligned table": ("| a | b | c |\n|:-|:-:|-:|\n", "| 1 | 2 | 3 |\n", ""),
    "plain text": ("", "lorem ipsum dolor sit amet ", ""),
    "blank lines": ("", "\n", ""),
    "tabs": ("", "a\t", ""),
}
"""Markdown of every shape known to make some Markdown parser take time growing faster than the text
(runs of brackets, emphasis delimiters and backticks, unclosed links and titles, nesting, link
references, tables) and plain text: `markdown_shape(name, size)`. tests/test_bounded.py renders
each at two sizes and counts the work; `./dev bench` builds a recipe of the slowest."""


SLOWEST_MARKDOWN = "image openers ![", "image openers in brackets ![["
"""The shapes markdown-it-py spends longest on per character (about 15-20 µs each, measured over
every shape above at 16 kB and 64 kB on the development machine; plain text takes 0.1 µs)."""


def markdown_shape(name: str, size: int) -> str:
    """Markdown of the shape `name` (MARKDOWN_SHAPES), about `size` characters long."""
    before, unit, after = MARKDOWN_SHAPES[name]
    return before + unit * max(1, (size - len(before) - len(after)) // len(unit)) + after


WORST_KINDS = {
    "slowest-markdown": "Markdown slowest to parse",
    "most-html": "Markdown making the most HTML",
    "aliased-text": "text repeated through YAML aliases",
    "most-values": "as many values as a file may hold",
}
"""The recipes `worst_recipe` writes (name: what it is): what input that validates can cost a build most."""


def worst_recipe(reference: Reference, kind: str, size: int) -> tuple[str, str]:
    """A valid recipe of the `kind` (a key of WORST_KINDS) of at most `size` bytes, as large as that
    allows: (its id, its YAML).

    - slowest-markdown: its Markdown fields hold the shapes of SLOWEST_MARKDOWN.
    - most-html: a link reference used as often as the renderer allows (`markup.HTML_PER_CHARACTER`):
      about 16 characters of HTML per character of notes.
    - aliased-text: a 20 kB text (as in issue 19) used through aliases as many times as the reader
      allows (`yamlsource.MAX_TEXT`), in the Markdown of every patch; the file itself is small.
    - most-values: as many patches as the reader allows (`yamlsource.MAX_NODES`), each a row.
    """
    recipe_id = f"llama-3.1-70b/h100/worst-{kind}"
    if kind == "aliased-text":
        return recipe_id, _aliased_text(reference, recipe_id)

    def text(scale: int) -> str:
        data = recipe_data(reference, name="worst")
        if kind == "slowest-markdown":
            first, second = SLOWEST_MARKDOWN
            data["notes"] = markdown_shape(first, scale)
            data["layout"]["notes"] = markdown_shape(second, scale // 2)
        elif kind == "most-html":
            # Each use of [a] is an element holding the whole address: 16 uses of an address as
            # long as the notes allow make 16 times the notes in HTML, within the limit.
            data["notes"] = f"[a]: https://e.example/{'x' * scale}\n\n" + "[a] " * 16  # [a][a] is one link
        else:
            count = min(scale, 6_600)  # three values each, within MAX_NODES with the rest
            width = max(1, (scale - count) // max(count, 1))
            data["patches"] = [{"name": f"p{i}", "description": f"step {i} {'x' * width}"} for i in range(count)]
        return yaml_text(data, recipe_id)

    low, high = 1, size
    while low < high:  # the largest scale whose file fits in `size` bytes
        middle = (low + high + 1) // 2
        if len(text(middle).encode()) <= size:
            low = middle
        else:
            high = middle - 1
    return recipe_id, text(low)


def _aliased_text(reference: Reference, recipe_id: str) -> str:
    """The recipe with a 20 kB text written once and used again through aliases, as many times as
    the reader builds (MAX_TEXT characters of text in all)."""
    from openrecipes.reading.yamlsource import MAX_TEXT

    base = yaml_text(recipe_data(reference, name="worst"), recipe_id)
    written = "Twenty kilobytes of notes, written once and used again. " * 360  # 20,160 characters
    # Keys and values of the recipe itself count too: about 2,500 characters.
    uses = (MAX_TEXT - len(base) - len(written)) // (len(written) + len("description") + len("name") + 3)
    patches = f"patches:\n- name: p0\n  description: &text {written}\n"
    patches += "".join(f"- name: p{i}\n  description: *text\n" for i in range(1, uses + 1))
    return base.replace("patches: []\n", patches)
