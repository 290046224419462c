"""`openrecipes bench`: how many recipes per second the full load -> validate -> check pipeline handles."""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

from .catalogue import load_catalogue
from .problems import Problem
from .reference import load_reference
from .synthetic import recipe_data, yaml_text


def measure(root: Path, count: int) -> tuple[int, float, list[Problem]]:
    """Validate `count` generated recipes against root's schema and reference data: (count, seconds, problems)."""
    reference, problems = load_reference(root)
    if reference is None:
        return 0, 0.0, problems
    with tempfile.TemporaryDirectory(prefix="openrecipes-bench-") as temporary:
        project = Path(temporary)
        for part in ("schema", "reference"):
            shutil.copytree(root / part, project / part)
        for index in range(count):
            name = f"bench-{index:05d}"
            # Varied throughput, so the table order and every derived figure differ from recipe to recipe.
            data = recipe_data(reference, name=name, tokens_per_s=600.0 + index % 997)
            path = project / "recipes" / "llama-3.1-70b" / "h100" / f"{name}.yaml"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(yaml_text(data), encoding="utf-8")
        start = time.perf_counter()
        catalogue = load_catalogue(project)
        seconds = time.perf_counter() - start
    return catalogue.files_read, seconds, list(catalogue.problems)
