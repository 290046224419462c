"""What Megatron-Bridge states outside the tables, read at the same commit: each with its line.

- GPUs per node: `NUM_GPUS_PER_NODE_MAP` in scripts/performance/argument_parser.py, the value the
  performance scripts use for a GPU type unless told otherwise.
- The container image: scripts/performance/README.md, "For release container XX.YY use
  nvcr.io/nvidia/nemo:XX.YY".
- Software versions: docs/releases/software-versions.md, a `## NeMo Framework <release>` section
  per release that has one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import tables
from .gitsource import FileAtCommit, GitSource

PER_NODE_PATH = "scripts/performance/argument_parser.py"
README_PATH = "scripts/performance/README.md"
VERSIONS_PATH = "docs/releases/software-versions.md"

_MAP_START = re.compile(r"^NUM_GPUS_PER_NODE_MAP\s*=\s*\{")
_MAP_ENTRY = re.compile(r"""^\s*["']([a-z0-9]+)["']\s*:\s*(\d+)\s*,?\s*$""")
_IMAGE_RULE = re.compile(r"For release container XX\.YY use (\S+?):XX\.YY\b")
_FRAMEWORK = re.compile(r"^## NeMo Framework (\S+)\s*$")
_BASE = re.compile(r"built on top of (.+?) container")


@dataclass(frozen=True)
class Cited:
    """A value and the line of the file (at its last-changing commit) that states it."""

    value: str
    file: FileAtCommit
    line: int
    text: str
    """The line as written."""


@dataclass(frozen=True)
class Versions:
    release: str
    components: dict[str, str]
    """`Megatron-Bridge` -> `0.5.0`, as the table prints them."""
    base: str | None
    """What the container is built on (`NVIDIA Optimized Frameworks PyTorch 26.04`), when said."""
    file: FileAtCommit
    line: int


@dataclass(frozen=True)
class Context:
    per_node: dict[str, Cited]
    """GPU type as the scripts spell it (`gb200`) -> GPUs per node."""
    image_rule: Cited | None
    """The image prefix (`nvcr.io/nvidia/nemo`) a release XX.YY is tagged under."""
    versions: dict[str, Versions]


def read_context(source: GitSource) -> Context:
    per_node: dict[str, Cited] = {}
    if source.exists(PER_NODE_PATH):
        per_node = _per_node(source.read(PER_NODE_PATH))
    image_rule = None
    if source.exists(README_PATH):
        image_rule = _image_rule(source.read(README_PATH))
    versions: dict[str, Versions] = {}
    if source.exists(VERSIONS_PATH):
        versions = _versions(source.read(VERSIONS_PATH))
    return Context(per_node, image_rule, versions)


def _per_node(file: FileAtCommit) -> dict[str, Cited]:
    found: dict[str, Cited] = {}
    inside = False
    for number, line in enumerate(file.text.splitlines(), start=1):
        if _MAP_START.match(line):
            inside = True
        elif inside and line.strip().startswith("}"):
            break
        elif inside and (match := _MAP_ENTRY.match(line)):
            found[match.group(1)] = Cited(match.group(2), file, number, line.strip())
    return found


def _image_rule(file: FileAtCommit) -> Cited | None:
    for number, line in enumerate(file.text.splitlines(), start=1):
        if match := _IMAGE_RULE.search(line):
            return Cited(match.group(1), file, number, match.group(0))
    return None


def _versions(file: FileAtCommit) -> dict[str, Versions]:
    lines = file.text.splitlines()
    found_tables = tables.tables(lines)
    found: dict[str, Versions] = {}
    release: str | None = None
    start = 0
    for index, line in enumerate(lines):
        if match := _FRAMEWORK.match(line):
            release, start = match.group(1), index + 1
            found[release] = Versions(release, {}, None, file, start)
        elif release is not None and index in found_tables:
            for _, row in found_tables[index].rows:
                name, *rest = tables.cells(row)
                if rest:
                    found[release].components[name] = rest[0]
        elif release is not None and (match := _BASE.search(line)):
            found[release] = Versions(release, found[release].components, match.group(1), file, start)
    return found
