"""Training FLOPs per token and parameter counts from a model's published configuration.

Two conventions, kept apart because publishers and this site use different ones:

- ``training_flops_per_token``: OpenRecipes' own MFU convention, per training method: 6 · N when every
  weight is trained (pre-training, continued pre-training, full fine-tuning, or a method not stated),
  4 · N + 6 · adapters for LoRA and QLoRA, whose frozen weights have no weight gradient. N is
  ``flops_params``: the parameters active per token *without the input embedding*, which is a lookup
  (no multiply), and with the output head, which is a GEMM. ``reference/models.yaml`` counts
  ``active_params`` with the input embedding, as model cards do; N leaves it out, as torchtitan,
  Megatron's formulas and PaLM's MFU do.
- ``model_flops_per_token``: NVIDIA Megatron-Bridge's "Model TFLOP/sec/GPU" convention, which counts
  attention and the logits as well, so a publisher's figure can be recomputed and shown beside ours.

Pure module: no MkDocs, no I/O. The ``architecture`` mappings are the ``architecture`` blocks of
``reference/models.yaml`` (schema: ``model.architecture`` in ``schema/reference.schema.yaml``).
Sources are resolved in ``reference/SOURCES.md`` section 3 and [S31].
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

CONVENTIONS = ("megatron-bridge",)
"""The publisher conventions ``model_flops_per_token`` implements."""

FIRST_RELEASE = (25, 9)
"""Megatron-Bridge's first performance summary with figures (the 25.09 NeMo container); its FLOPs
formula (``flop_utils.py``, commit d42316e9, 2025-09-26) is the one described below."""

WINDOW_AND_GLU_FROM = (26, 6)
"""From the 26.06 NeMo container (Megatron-Bridge v0.5.0, commit baa0259b, 2026-05-28) the formula
costs sliding-window attention layers over their window and counts every gated MLP as three GEMMs.
Earlier releases cost every layer as full causal attention and count a gated MLP as three GEMMs only
when its activation is SiLU (gpt-oss's clamped quick-GELU GLU was counted as two)."""

DEFAULT_VOCAB_DIVISIBLE_BY = 128
"""Megatron pads the vocabulary to a multiple of ``make_vocab_size_divisible_by`` × TP; Megatron-Bridge's
bridges take the largest power of two up to 128 dividing the vocabulary (128 for every model here) unless
the model's bridge sets its own (1280 for DeepSeek-V3 and Kimi K2)."""

ROUNDED_RELEASES = frozenset({"26.04.01", "26.06.01", "26.08"})
"""Releases whose performance summary prints Tokens/sec/GPU coarsely rounded (every value a multiple of
8 or 16, most of 128; the page does not say how or why). Every other release prints them unrounded."""

PUBLISHED_TOLERANCE = 0.005
"""How closely ``model_flops_per_token`` reproduces a published row's ``Model TFLOP/s/GPU × 10¹² ÷
Tokens/s/GPU``: the TFLOP/s are printed as whole numbers (±0.5, under 0.5 % above 100 TFLOP/s)."""

ROUNDED_TOLERANCE = 0.025
"""The same for ``ROUNDED_RELEASES``, where the rounded tokens/s move the quotient by up to 2.21 %
(26.04.01, DGX-H100 LLAMA3_70B) against at most 0.5 % in the unrounded releases."""

_RELEASE = re.compile(r"(\d{2})\.(\d{2})(?:\.(\d{2}))?")


def release_key(release: str) -> tuple[int, int, int]:
    """``'26.04.01'`` → ``(26, 4, 1)``: a NeMo container release as Megatron-Bridge's performance
    summary heads its sections (``## 26.04.01 NeMo Container``)."""
    match = _RELEASE.fullmatch(release.strip())
    if match is None:
        raise ValueError(f"release {release!r} is not a NeMo container release like '25.11' or '26.04.01'")
    year, month, patch = match.groups()
    return int(year), int(month), int(patch or 0)


def published_tolerance(release: str) -> float:
    """The relative difference within which a row of Megatron-Bridge's performance summary for
    ``release`` agrees with ``model_flops_per_token`` (see ``PUBLISHED_TOLERANCE``)."""
    release_key(release)  # refuses what is not a release
    return ROUNDED_TOLERANCE if release.strip() in ROUNDED_RELEASES else PUBLISHED_TOLERANCE


def counts_window_and_glu(release: str | None) -> bool:
    """Whether the Megatron-Bridge formula of ``release`` (None: the current one) costs sliding-window
    layers over their window and gated non-SiLU MLPs as three GEMMs (see ``WINDOW_AND_GLU_FROM``)."""
    if release is None:
        return True
    key = release_key(release)
    if key[:2] < FIRST_RELEASE:
        raise ValueError(f"Megatron-Bridge published no model FLOPs before {FIRST_RELEASE[0]}.{FIRST_RELEASE[1]:02d}")
    return key[:2] >= WINDOW_AND_GLU_FROM


def padded_vocab(vocab: int, tensor_parallel: int = 1, divisible_by: int = DEFAULT_VOCAB_DIVISIBLE_BY) -> int:
    """The vocabulary rounded up to a multiple of ``divisible_by`` × TP, as Megatron allocates it."""
    multiple = divisible_by * tensor_parallel
    return math.ceil(vocab / multiple) * multiple


FULL_TRAINING = ("pre-training", "continued-pre-training", "full-fine-tune")
"""Methods (``workload.method.kind``) that train every weight: 6 FLOPs per weight and token."""

ADAPTER_TRAINING = ("lora", "qlora")
"""Methods that train low-rank adapters beside frozen weights: 4 FLOPs per frozen weight and token."""


def input_embedding_params(architecture: Mapping[str, Any]) -> int:
    """The input embedding's parameters N leaves out: vocabulary × hidden when the embedding is its
    own matrix; none when it is tied to the output head, whose GEMM uses the same weights and is
    counted (every model here with an ``architecture`` is untied)."""
    if architecture.get("tied_embeddings", False):
        return 0
    return int(architecture["vocab"]) * int(architecture["hidden"])


def flops_params(active_params: int, architecture: Mapping[str, Any] | None) -> int:
    """N for the site's MFU: ``active_params`` (as reference/models.yaml counts them, input embedding
    included) without the input embedding, when the ``architecture`` says how large it is. A model
    known only by a publisher's headline count keeps that count: how much of it is embedding is not
    published (the recipe page says so)."""
    if architecture is None:
        return active_params
    return active_params - input_embedding_params(architecture)


def training_flops_per_token(params: int | float, method: str | None, adapter_params: int | float = 0) -> float:
    """Training FLOPs per token in OpenRecipes' convention for a training ``method``
    (``workload.method.kind``; None when the recipe does not say).

    A training step runs three GEMMs per weight matrix: the forward (2 FLOPs per weight and token),
    the activation gradient the layer below needs (2) and the weight gradient (2). Every weight is
    trained in pre-training, continued pre-training and full fine-tuning: 6 · N. LoRA and QLoRA
    freeze the N base weights: their forward and activation gradient are still computed, their
    weight gradient is not, so the base model costs 4 · N; the adapters (``adapter_params``, trained)
    cost 6 each, which is under 0.5 % of the total at the usual ranks and 0 when the rank and the
    modules that carry adapters are not published. QLoRA's base weights are stored in 4 bits but
    dequantised for the multiply: the same FLOPs. A recipe that does not state its method is counted
    as training every weight (6 · N), the upper bound, and is ranked apart from those that say."""
    if params <= 0:
        raise ValueError("params must be positive")
    if method in ADAPTER_TRAINING:
        return 4.0 * params + 6.0 * adapter_params
    if method is None or method in FULL_TRAINING:
        return 6.0 * params
    raise ValueError(f"unknown training method {method!r}; known: {', '.join(FULL_TRAINING + ADAPTER_TRAINING)}")


LORA_PUBLISHED_TOLERANCE = 0.005
"""How closely ``training_flops_per_token(N, "lora")`` reproduces a Megatron-Bridge LoRA row's
``Model TFLOP/s/GPU × 10¹² ÷ Tokens/s/GPU``. Their LoRA formula (``flop_utils.py``, Llama 3 70B on
packed SQuAD, from commit c8eefcff, 2026-03-03) is the pre-training GEMMs without the input embedding
× 2/3 (no weight gradient for frozen weights: 4 × N) over the real tokens of each packed sequence,
plus the attention products over the packed sequences' own lengths (Σ sᵢ², with weight gradients).
The two additions pull opposite ways and each moves the figure by under 1 %; on every LoRA row
published (26.06: H100, GB200, GB300, FP8 and MXFP8) 4 × N is within 0.4 % of theirs."""


def flops_formula(method: str | None) -> str:
    """The convention in words, as the pages write it: `6 × N` or `4 × N`."""
    return "4 × N" if method in ADAPTER_TRAINING else "6 × N"


def six_n_flops_per_token(active_params: int | float) -> float:
    """6 · N training FLOPs per token (2N forward, 4N backward): ``training_flops_per_token`` when every
    weight is trained, N as ``flops_params`` gives it. Attention scores (QKᵀ and AV) and recomputation
    are not counted; for a mixture of experts N holds the experts a token is routed to and the shared
    ones, not the rest."""
    if active_params <= 0:
        raise ValueError("active_params must be positive")
    return 6.0 * active_params


def unmasked_attention_flops_per_token(architecture: Mapping[str, Any], seq_len: int) -> float:
    """Core attention (QKᵀ and AV) per token, forward and backward, with no causal mask:
    ``12 · layers · heads · head_dim · s``, the term PaLM's appendix B adds to 6 · N for its MFU
    (``6N + 12·L·H·Q·T``) and llm-foundry's ``mfu_w_attn`` adds (``3 · 2 · 2 · L · d · s``). Defined
    for multi-head attention (grouped-query too: the query heads count); multi-head latent attention
    has no single head dimension in that formula, so it is refused."""
    if seq_len < 1:
        raise ValueError("seq_len must be positive")
    if architecture.get("attention") == "mla":
        raise ValueError("the 12 · L · H · Q · s attention term is not defined for multi-head latent attention")
    head_dim = architecture.get("head_dim", architecture["hidden"] // architecture["heads"])
    return 12.0 * architecture["layers"] * architecture["heads"] * head_dim * seq_len


def model_flops_per_token(
    architecture: Mapping[str, Any],
    seq_len: int,
    *,
    mtp_layers: int = 0,
    tensor_parallel: int = 1,
    convention: str = "megatron-bridge",
    release: str | None = None,
) -> float:
    """Training model FLOPs per token (forward + backward) in Megatron-Bridge's convention.

    This is the number Megatron-Bridge divides into its "Model TFLOP/sec/GPU" (``training/utils/
    flop_utils.py::num_floating_point_operations`` over step time and GPUs), so for a published row
    ``Model TFLOP/s/GPU × 10¹² ÷ Tokens/s/GPU`` should equal it. Precisely:

    - Every GEMM counts 3 times (forward, weight gradient, data gradient) at 2 FLOPs per
      multiply-accumulate, i.e. 6 FLOPs per weight per token. Recomputation (activation
      checkpointing) is not counted: these are model FLOPs, not hardware FLOPs.
    - Attention projections: Q, K, V and output, grouped-query aware
      (``6 · (h·(q + 2·kv) + q·h)`` with ``q = heads · head_dim``, ``kv = kv_heads · head_dim``), or,
      for multi-head latent attention, the low-rank Q and KV paths with their norms and the RoPE key.
    - Core attention (QKᵀ and AV) is counted with the causal halving: ``6 · q · s`` per layer and
      token for a full layer of sequence length ``s`` (MLA: ``6 · s · heads · (d_qk + d_v) / 2``).
      From 26.06 a sliding-window layer of window ``W < s`` costs ``12 · q · (W − W(W−1)/(2s))``.
    - MLP: ``6 · h · ffn · g`` with ``g = 3`` for a gated MLP (SwiGLU and kin) and 2 otherwise; MoE
      layers count the routed ``top_k`` experts and the shared experts, not the router. Leading
      ``dense_layers`` use ``ffn``.
    - Multi-token prediction: ``mtp_layers`` extra layers of the last decoder layer's kind (attention
      and MLP or MoE), their projection ``6 · 2h²`` and norms ``6 · 3h``, and one more logits GEMM each.
    - Logits: ``6 · h · V_padded · (1 + mtp_layers)``, the vocabulary padded to a multiple of
      ``vocab_divisible_by`` (default 128) × ``tensor_parallel``. The input embedding lookup, norms
      and softmax are not counted.

    ``release`` selects the formula of a NeMo container release (``'25.11'``, ``'26.04.01'``...; None
    for the current one). Before 26.06 sliding windows are ignored (every layer full causal attention)
    and a gated MLP counts 3 GEMMs only if its ``activation`` is ``silu``; this changes gpt-oss's
    figure by about 20 % at 4,096 tokens and no other model here. Padded-sequence (THD) batches, LoRA
    runs and hybrid Mamba models use other formulas and are not covered.
    """
    if convention not in CONVENTIONS:
        raise ValueError(f"unknown convention {convention!r}; known: {', '.join(CONVENTIONS)}")
    if seq_len < 1 or mtp_layers < 0 or tensor_parallel < 1:
        raise ValueError("seq_len and tensor_parallel must be positive and mtp_layers non-negative")
    arch = architecture
    current = counts_window_and_glu(release)
    hidden = arch["hidden"]
    layers = arch["layers"] + mtp_layers  # MTP layers are decoder layers too (the last layer's spec)
    s = seq_len

    # Which MLPs are dense and which MoE. The MTP layers copy the last decoder layer, which is MoE
    # whenever some are (the dense ones lead).
    experts = arch.get("experts")
    if experts:
        dense = arch.get("dense_layers", 0)
        moe = arch["layers"] - dense
        moe, dense = (moe + mtp_layers, dense) if moe > 0 else (moe, dense + mtp_layers)
    else:
        dense, moe = layers, 0
    # A gated MLP is three GEMMs (gate, up, down); before 26.06 only a SiLU-gated one was counted so.
    glu = arch.get("gated_mlp", False) and (current or arch.get("activation", "silu") == "silu")
    gemms = 3 if glu else 2
    mlp = 6 * hidden * gemms * arch["ffn"] * dense
    if moe:
        mlp += 6 * hidden * gemms * (arch["moe_ffn"] * arch["top_k"] + arch.get("shared_ffn", 0)) * moe

    if arch["attention"] == "mla":
        heads = arch["heads"]
        qk = arch["qk_nope_head_dim"] + arch["qk_rope_head_dim"]
        v = arch["v_head_dim"]
        q_lora = arch.get("q_lora_rank")
        q_term = q_lora * (hidden + heads * qk + 1) if q_lora else hidden * heads * qk
        kv_term = arch["kv_lora_rank"] * (hidden + heads * (arch["qk_nope_head_dim"] + v) + 1)
        kv_term += hidden * arch["qk_rope_head_dim"]
        per_layer = q_term + kv_term + heads * v * hidden + s * heads * qk / 2 + s * heads * v / 2
        attention = 6 * layers * per_layer
    else:
        head_dim = arch.get("head_dim", hidden // arch["heads"])
        q = arch["heads"] * head_dim
        kv = arch.get("kv_heads", arch["heads"]) * head_dim
        projections = hidden * (q + 2 * kv) + q * hidden
        window = arch.get("sliding_window") if current else None
        if window:
            swa_context = window - window * (window - 1) / (2 * s) if window < s else s / 2
            every = arch.get("full_attention_every")
            full = sum(1 for i in range(layers) if (i + 1) % every == 0) if every else 0
            attention = 6 * (full * (projections + q * s) + (layers - full) * (projections + 2 * q * swa_context))
        else:
            attention = 6 * layers * (projections + q * s)

    mtp = 6 * mtp_layers * (3 * hidden + 2 * hidden * hidden)
    vocab = padded_vocab(arch["vocab"], tensor_parallel, arch.get("vocab_divisible_by", DEFAULT_VOCAB_DIVISIBLE_BY))
    logits = 6 * hidden * vocab * (1 + mtp_layers)
    return float(mlp + attention + mtp + logits)


def parameter_counts(architecture: Mapping[str, Any]) -> tuple[int, int]:
    """(total, active) parameters of the model an ``architecture`` block describes, excluding any
    multi-token-prediction modules. Active counts the routed ``top_k`` experts, the shared experts,
    the router, the input embedding and the output head (untied unless ``tied_embeddings``).

    Counted: attention weights (Q/K/V/O, or MLA's low-rank paths with their two norms), per-head
    Q/K norms (``qk_norm``), MLP or expert weights (3 matrices if gated, else 2), the router and its
    score-correction bias (``router_bias``), biases on every linear layer and the router
    (``bias``), per-head attention sinks (``attention_sinks``), two RMSNorms per layer and the final
    one. RMSNorm has a weight only (no bias), which holds for every model in reference/models.yaml.
    """
    arch = architecture
    hidden, layers, vocab = arch["hidden"], arch["layers"], arch["vocab"]
    bias = arch.get("bias", False)
    if arch["attention"] == "mla":
        heads, q_lora, kv_lora = arch["heads"], arch.get("q_lora_rank"), arch["kv_lora_rank"]
        nope, rope, v = arch["qk_nope_head_dim"], arch["qk_rope_head_dim"], arch["v_head_dim"]
        q_path = hidden * q_lora + q_lora + q_lora * heads * (nope + rope) if q_lora else hidden * heads * (nope + rope)
        kv_path = hidden * (kv_lora + rope) + kv_lora + kv_lora * heads * (nope + v)
        attention = q_path + kv_path + heads * v * hidden
    else:
        head_dim = arch.get("head_dim", hidden // arch["heads"])
        q = arch["heads"] * head_dim
        kv = arch.get("kv_heads", arch["heads"]) * head_dim
        attention = hidden * (q + 2 * kv) + q * hidden
        attention += (q + 2 * kv + hidden) if bias else 0
        attention += 2 * head_dim if arch.get("qk_norm", False) else 0
        attention += arch["heads"] if arch.get("attention_sinks", False) else 0
    norms = 2 * hidden

    def mlp(width: int) -> int:
        gated = arch.get("gated_mlp", False)
        weights = (3 if gated else 2) * hidden * width
        return weights + (((2 if gated else 1) * width + hidden) if bias else 0)

    embeddings = vocab * hidden * (1 if arch.get("tied_embeddings", False) else 2) + hidden  # + final norm
    experts = arch.get("experts")
    if not experts:
        total = layers * (attention + mlp(arch["ffn"]) + norms) + embeddings
        return total, total
    dense = arch.get("dense_layers", 0)
    router = hidden * experts + (experts if bias or arch.get("router_bias", False) else 0)
    shared = mlp(arch["shared_ffn"]) if arch.get("shared_ffn") else 0
    dense_layer = attention + mlp(arch["ffn"]) + norms
    common = attention + router + shared + norms
    total = dense * dense_layer + (layers - dense) * (common + experts * mlp(arch["moe_ffn"])) + embeddings
    active = dense * dense_layer + (layers - dense) * (common + arch["top_k"] * mlp(arch["moe_ffn"])) + embeddings
    return total, active
