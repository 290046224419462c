"""Model FLOPs per token in publishers' conventions (placeholder until the reference-data branch lands)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def model_flops_per_token(
    architecture: Mapping[str, Any], seq_len: int, *, mtp_layers: int = 0, tensor_parallel: int = 1
) -> float:
    raise NotImplementedError("no model in reference/models.yaml has an architecture yet")
