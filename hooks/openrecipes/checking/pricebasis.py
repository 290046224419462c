"""The price basis: the one $ per GPU-hour each GPU type's $ / 1M tokens is computed at.

A recipe's own instance says what its author paid, which is mostly what made a row cheap; to rank
recipes by what they would cost the reader, every $ / 1M on the site is computed at the basis price
of the recipe's GPU type. The build uses the default preset (the cheapest sourced on-demand price
for each GPU type); the page scripts offer the other presets and the reader's own prices per type,
from the data `price_data` writes into `assets/prices.json` (docs/assets/price.js loads it).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from ..reading.reference import InstanceSpec, Reference

HYPERSCALER, NEOCLOUD = "hyperscaler", "neocloud"


@dataclass(frozen=True)
class Preset:
    key: str
    """Its name in the address (`?basis=neocloud`) and in the exports."""
    label: str
    kinds: frozenset[str] | None
    """The instance kinds it takes the cheapest of (reference/instances.yaml `kind`); None: any."""

    def describe(self, reference: Reference) -> str:
        """What it is, naming the providers it draws on."""
        providers = sorted(
            {spec.provider for spec in reference.instances.values() if self.kinds is None or spec.kind in self.kinds}
        )
        where = "any provider" if self.kinds is None else ", ".join(providers)
        return f"the cheapest sourced on-demand price per GPU-hour for each GPU type, at {where}"


PRESETS: tuple[Preset, ...] = (
    Preset("cheapest", "Cheapest sourced", None),
    Preset(HYPERSCALER, "On-demand hyperscaler", frozenset({HYPERSCALER})),
    Preset(NEOCLOUD, "Neocloud", frozenset({NEOCLOUD})),
)
DEFAULT = PRESETS[0]
"""What the build computes every $ / 1M at, and what a reader sees until they choose another."""

RESERVED_PARAMETERS = frozenset({"basis", "search", "sort", "dir", "q", "page"})
"""Query names the page scripts use for other things; a GPU type's own-price parameter is its key
(`?H100=2.5`), so no GPU key may be one of these (or a filter's name: tests/test_reference_data.py)."""


def basis_instance(reference: Reference, gpu_key: str, preset: Preset = DEFAULT) -> InstanceSpec | None:
    """The instance whose price is `preset`'s for GPU type `gpu_key`; None when it has none."""
    offers = [
        spec
        for spec in reference.instances.values()
        if spec.gpu == gpu_key and (preset.kinds is None or spec.kind in preset.kinds)
    ]
    return min(offers, key=lambda spec: (spec.usd_per_gpu_hour, spec.key), default=None)


def usd_per_million_tokens(usd_per_gpu_hour: float, tokens_per_s_per_gpu: float) -> float:
    """$ / 1M tokens = $ per GPU-hour ÷ (tokens/s per GPU × 3,600) × 1,000,000."""
    return usd_per_gpu_hour / (tokens_per_s_per_gpu * 3600) * 1e6


def price_data(reference: Reference) -> dict[str, object]:
    """Every preset's price for every GPU type of the reference data, for the page scripts."""
    presets = []
    for preset in PRESETS:
        prices = {}
        for gpu_key in reference.gpus:
            spec = basis_instance(reference, gpu_key, preset)
            if spec is not None:
                prices[gpu_key] = {
                    "instance": spec.key,
                    "provider": spec.provider,
                    "usd_per_gpu_hour": spec.usd_per_gpu_hour,
                    "as_of": spec.sourced.as_of.isoformat(),
                }
        presets.append(
            {"key": preset.key, "label": preset.label, "description": preset.describe(reference), "prices": prices}
        )
    return {"default": DEFAULT.key, "gpus": list(reference.gpus), "presets": presets}


def prices_json(reference: Reference) -> str:
    """`assets/prices.json`: the presets as data, so no script reads a price from the page. JSON and
    not a script: it changes with the reference data, which a pull request's preview may change,
    and a preview may bring no code of its own (.github/scripts/pages-publish.sh)."""
    return json.dumps(price_data(reference), ensure_ascii=False, separators=(",", ":")) + "\n"
