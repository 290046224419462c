"""Valid recipes made up from a few parameters, with every derived figure consistent.

Used by the tests (fixture sets of several GPUs and prices) and by `openrecipes bench` (thousands
of recipes); the figures are computed the way the checks recompute them, so they pass.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Any

from . import yamlwrite
from .reference import Reference


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
