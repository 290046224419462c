"""A publisher's own figures of every kind (a TFLOP/s per GPU, an MFU, an HFU) recomputed in the
publisher's convention, and a throughput derived from one of them (`result.tokens_per_s_per_gpu_from`).

Each figure counts FLOPs by a convention (`megatron`, `6n`, `6n-attention`, `other`) and a utilisation
divides them by a peak it names. A figure is recomputed from the recipe's tokens/s per GPU in that
convention where the recipe and the reference data hold every input, and otherwise says, in words for
the page, which input is missing. A throughput derived from a figure is recomputed from that figure
(its FLOP/s per GPU ÷ the FLOPs per token of its convention), and the figure it comes from is not
recomputed from it: that would only give it back.

Megatron-Bridge's TFLOP/s, the one kind imported by the hundred, stays in `derive._publisher_figures`;
this module takes every other kind, and any figure a throughput is derived from."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .. import flops, fmt
from ..reading import records
from ..reading.reference import GpuSpec, ModelSpec
from .figures import CONVENTION_NAMES, PUBLISHER_TOLERANCE, PublisherFigure, RecipeFields, lookup

THROUGHPUT = "TFLOP/s per GPU"
UTILISATIONS = ("MFU %", "HFU %")

DERIVED_TOLERANCE = 0.005
"""A derived tokens/s per GPU within 0.5% of its figure's FLOP/s ÷ FLOPs per token: the author rounds
the quotient, and nothing else stands between the two."""

PerToken = tuple[float | None, str | None]
"""FLOPs per token and how they were counted, or None and why they could not be."""


@dataclass(frozen=True, slots=True)
class Inputs:
    """What recomputing a figure reads beside the figure: the recipe and the reference data."""

    f: RecipeFields
    model: ModelSpec | None
    gpu: GpuSpec | None
    params: int | None
    """N as the site counts it (Derived.params)."""
    method: str | None
    seq: int | None
    megatron: Callable[[str | None], float]
    """Megatron-Bridge's model FLOPs per token at a release (derive: the model, MTP layers and TP)."""
    megatron_why_not: str | None
    """Why Megatron-Bridge's FLOPs cannot be counted for this recipe (derive._not_recomputed), or None."""


@dataclass(frozen=True, slots=True)
class DerivedThroughput:
    """`result.tokens_per_s_per_gpu_from`: the figure the throughput is derived from, recomputed."""

    figure: str
    index: int | None
    """The figure's place in `publisher_figures`; None when no figure has that name."""
    stated: float
    recomputed: float | None
    formula: str
    """The recomputation in words and numbers, or why it cannot be made."""
    how: str
    """The derivation as the recipe writes it."""
    label: str
    """The figure as the page writes it after "derived from": `BF16 MFU 41%`."""


def value_text(value: float, unit: str) -> str:
    """A figure as published with its unit: `41%`, `400 TFLOP/s per GPU`."""
    return f"{fmt.as_written(value)}%" if unit in UTILISATIONS else f"{fmt.as_written(value)} {unit}"


def per_token(convention: str, hardware: bool, inputs: Inputs, release: str | None = None) -> PerToken:
    """Training FLOPs per token in a publisher's convention: the model's, or with `hardware` the
    FLOPs the GPUs ran (recomputed activations included, for an HFU)."""
    f, model = inputs.f, inputs.model
    forward: float | None  # what full recompute runs again, where flops.py can count it
    if convention == "other":
        return None, "not recomputed: in a convention of the publisher's own, which flops.py has no formula for"
    if convention == "megatron":
        if inputs.megatron_why_not:
            return None, inputs.megatron_why_not
        count, words = inputs.megatron(release), "Megatron-Bridge model FLOPs per token (flops.py)"
        forward = None  # what its full recompute reruns is not a formula flops.py has
    else:
        if not inputs.params:
            return (
                None,
                f"not recomputed: no parameter count for {f.model} (reference/models.yaml or result.active_params)",
            )
        count = flops.training_flops_per_token(inputs.params, inputs.method)
        forward = 2.0 * inputs.params  # what full recompute runs again: the forward (LoRA's too)
        words = f"{flops.flops_formula(inputs.method)} (N = {fmt.number(inputs.params)})"
        if convention == "6n-attention":
            architecture = model.architecture if model else None
            if architecture is None:
                return (
                    None,
                    f"not recomputed: the reference data holds no architecture for {f.model}, so attention "
                    "cannot be counted",
                )
            if inputs.seq is None:
                return None, "not recomputed: the recipe publishes no sequence length"
            if architecture.get("attention") == "mla":
                return None, (
                    f"not recomputed: {model.key if model else f.model} uses multi-head latent attention, for which "
                    "the 12 × layers × heads × head dim × sequence term is not defined"
                )
            attention = flops.unmasked_attention_flops_per_token(architecture, inputs.seq)
            count += attention
            forward += attention / 3  # of forward, activation gradient and weight gradient, one third
            words += f" + 12 × layers × heads × head dim × {fmt.number(inputs.seq)} tokens"
    if not hardware:
        return count, words
    layout = lookup(f, "layout")
    if layout is None or not records.given(layout, "recompute"):
        return None, (
            "not recomputed: an HFU counts recomputed activations, and the recipe does not say whether any were "
            "recomputed (layout.recompute)"
        )
    recompute = layout.recompute
    if recompute is None:
        return count, f"{words}; no recompute, so the hardware FLOPs are the model's"
    if recompute.granularity == "full" and forward is not None:
        # Full recompute runs each forward once more: 8 × N for 6 × N (llm-foundry's HFU: 4/3 of its MFU's
        # FLOPs), 6 × N for LoRA's 4 × N.
        return count + forward, f"{words} + the forward again (full recompute, as llm-foundry counts HFU)"
    return None, (
        f"not recomputed: {recompute.granularity} recompute in the {CONVENTION_NAMES[convention]} convention reruns "
        "work flops.py does not count"
    )


def peak_of(figure: Any, gpu: GpuSpec | None) -> tuple[float | None, str]:
    """The peak a utilisation divides by (TFLOP/s) and its words, or None and why there is none."""
    precision = figure.peak.precision
    if figure.peak.tflops is not None:
        return (
            figure.peak.tflops,
            f"{fmt.as_written(figure.peak.tflops)} TFLOP/s ({precision.upper()} peak as published)",
        )
    if gpu is None:
        return None, f"not recomputed: no {precision.upper()} peak (the publisher states none and the GPU is unknown)"
    peak = {"bf16": gpu.bf16_tflops, "fp8": gpu.fp8_tflops, "fp4": gpu.fp4_tflops}[precision]
    if peak is None:
        return None, f"not recomputed: reference/gpus.yaml sources no dense {precision.upper()} peak for {gpu.key}"
    return peak, f"{fmt.as_written(peak)} TFLOP/s ({gpu.key} dense {precision.upper()} peak, reference/gpus.yaml)"


def printed_half_unit(value: float) -> float:
    """Half a unit of the last decimal a figure is printed with: 41 → 0.5, 46.44 → 0.005."""
    return 0.5 * 10 ** -fmt.decimals(value)


def figure(
    index: int,
    raw: Any,
    tokens: float | None,
    inputs: Inputs,
    derived_from: str | None,
    others: Sequence[Any],
) -> PublisherFigure:
    """One figure, recomputed in its convention where it can be. `derived_from` names the figure the
    recipe's throughput is derived from (None: measured); `others` are every figure of the recipe."""
    if (
        raw.value is None
        or raw.unit is None
        or raw.convention is None
        or (raw.unit in UTILISATIONS and raw.peak is None)
    ):
        # A partial record (the schema refused a value, reported as its own problem): nothing to recompute.
        return PublisherFigure(
            raw.name or "",
            raw.value,
            None,
            raw.convention or "",
            raw.note,
            0.0,
            "not recomputed: the figure is incomplete",
            unit=raw.unit or THROUGHPUT,
        )
    utilisation = raw.unit in UTILISATIONS
    hardware = raw.unit == "HFU %"
    peak, peak_words = peak_of(raw, inputs.gpu) if utilisation else (None, "")
    tolerance = printed_half_unit(raw.value) if utilisation else PUBLISHER_TOLERANCE
    count, words = per_token(raw.convention, hardware, inputs, raw.release)
    recomputed, formula, why_not = None, "", None
    if raw.name == derived_from:
        why_not = (
            "not recomputed: the recipe's tokens/s per GPU is derived from this figure, so it would only give it "
            "back; the Derived throughput check recomputes the derivation"
        )
    elif utilisation and peak is None:
        why_not = peak_words
    elif count is None or not tokens:
        why_not = words if count is None else "not recomputed: the recipe publishes no throughput"
    elif utilisation:
        recomputed = count * tokens / (peak * 1e12) * 100
        formula = f"({words}) × {fmt.as_written(tokens)} tokens/s ÷ {peak_words}"
        # The throughput is printed too: a unit of its last digit (llm-foundry truncates its tokens/s)
        # moves the recomputed figure by its share.
        tolerance += recomputed * 10 ** -fmt.decimals(tokens) / tokens
    else:
        recomputed = count * tokens / 1e12
        formula = f"({words}) × {fmt.as_written(tokens)} tokens/s"
    if recomputed is None and utilisation and peak is not None and not hardware:
        # An MFU the recipe cannot count from its throughput is still the publisher's TFLOP/s in the
        # same convention over the peak: the two published figures checked against each other.
        source = next(
            (
                other
                for other in others
                if other.unit == THROUGHPUT and other.convention == raw.convention != "other" and other.name != raw.name
            ),
            None,
        )
        if source is not None:
            recomputed = source.value / peak * 100
            tolerance += printed_half_unit(source.value) / peak * 100
            formula = f"{source.name} {fmt.as_written(source.value)} TFLOP/s ÷ {peak_words}"
            why_not = None
    return PublisherFigure(
        raw.name,
        raw.value,
        recomputed,
        raw.convention,
        raw.note,
        tolerance,
        why_not,
        unit=raw.unit,
        formula=formula,
        peak=peak_words if utilisation else None,
    )


def derived_throughput(raw_figures: Sequence[Any], inputs: Inputs) -> DerivedThroughput | None:
    """`result.tokens_per_s_per_gpu_from` recomputed from the figure it names, or None when the
    throughput is not derived."""
    source = lookup(inputs.f, "result", "tokens_per_s_per_gpu_from")
    tokens = lookup(inputs.f, "result", "tokens_per_s_per_gpu")
    if source is None or source.figure is None or tokens is None:
        return None
    found = [(i, raw) for i, raw in enumerate(raw_figures) if raw.name == source.figure]

    def result(index: int | None, recomputed: float | None, formula: str, label: str) -> DerivedThroughput:
        return DerivedThroughput(source.figure, index, tokens, recomputed, formula, source.how or "", label)

    if not found:
        names = ", ".join(repr(raw.name) for raw in raw_figures) or "none"
        return result(
            None,
            None,
            f"no publisher figure is named {source.figure!r} (result.publisher_figures: {names})",
            source.figure,
        )
    if len(found) > 1:
        return result(
            None,
            None,
            f"{len(found)} publisher figures are named {source.figure!r} (result.publisher_figures "
            f"{', '.join(str(i) for i, _ in found)}): name the one it is derived from apart",
            source.figure,
        )
    index, raw = found[0]
    if raw.value is None or raw.unit is None or (raw.unit in UTILISATIONS and raw.peak is None):
        return result(index, None, "cannot be recomputed: the figure is incomplete", source.figure)
    label = f"{raw.name} {value_text(raw.value, raw.unit)}"
    if raw.unit in UTILISATIONS:
        peak, peak_words = peak_of(raw, inputs.gpu)
        if peak is None:
            return result(index, None, peak_words.replace("not recomputed: ", "cannot be recomputed: "), label)
        flops_per_s = raw.value / 100 * peak * 1e12
        source_words = f"{fmt.as_written(raw.value)}% × {peak_words}"
    else:
        flops_per_s = raw.value * 1e12
        source_words = f"{fmt.as_written(raw.value)} TFLOP/s"
    if source.flops_per_token is not None:
        count, words = source.flops_per_token, f"{fmt.number(source.flops_per_token)} FLOPs per token (as stated)"
    else:
        count, words = per_token(raw.convention, raw.unit == "HFU %", inputs, raw.release)
        if count is None:
            why = words.replace("not recomputed: ", "")
            return result(
                index,
                None,
                f"cannot be recomputed: {why}; state the FLOPs per token it divides by in "
                "result.tokens_per_s_per_gpu_from.flops_per_token",
                label,
            )
    return result(index, flops_per_s / count, f"{source_words} ÷ {words}", label)
