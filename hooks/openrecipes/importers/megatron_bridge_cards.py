"""Megatron-Bridge's model verification cards, read into typed rows: nothing of the publisher's is imported or run.

NVIDIA-NeMo/Megatron-Bridge keeps one card per model, `examples/model_verification_cards/<model>/card.yaml`
("agent-readable model verification card"): what was verified about the model, each with the command that
ran, and the Megatron-Bridge commit and container it ran with. Two kinds of item are performance runs:

- `items.pretrain_performance.<GPU>`: one run of `./scripts/training/train.sh … --recipe <function>
  --max_steps N`, with its `metrics`: the initial and final loss, and the step time, model TFLOP/s and
  tokens/s per GPU averaged over the last 10 steps (`last_10_steps_…_avg`); some cards add the peak
  allocated and reserved memory.
- `items.pretrain_weak_scaling.<GPU>`: a series of such runs (`points`), one per GPU count, each with its
  command, GPU count, global batch and metrics.

An item without a `bridge_commit` of its own names the card's `verification_environment.bridge_commit`
(`commit_of` says which); every run's container is that environment's `base_container`.

A card is read with the project's YAML reader (reading/yamlsource.py: no tags, no duplicate keys, every
value's line). A card, item or value in a shape this module does not know (a key it does not know in a
performance item, a value of another type) is a `Problem` at its line, with why, never an exception: the
card's other items are still read. Which runs make recipes, and how, is megatron_bridge_cards_recipes.py's.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from ..problems import Problem, json_path
from ..reading.yamlsource import Document, read_document
from .gitsource import GitSource

CARDS = "examples/model_verification_cards"
CARD_NAME = "card.yaml"
PERFORMANCE = "pretrain_performance"
WEAK_SCALING = "pretrain_weak_scaling"

STATUSES = ("unverified", "verified", "unsupported", "not_applicable")
"""An item's `status`, as the card's own header comment lists them."""

WINDOW_STEPS = 10
"""The steps each `last_10_steps_…_avg` metric averages: the last 10 the run logs."""

METRICS: dict[str, str] = {
    # as the card writes it: the field of `Metrics`
    "initial_loss": "initial_loss",
    "final_loss": "final_loss",
    "last_10_steps_step_time_ms_avg": "step_time_ms",
    "last_10_steps_model_tflops_per_gpu_avg": "tflops_per_gpu",
    "last_10_steps_tokens_per_second_per_gpu_avg": "tokens_per_gpu",
    "peak_allocated_memory_gib": "peak_allocated_gib",
    "peak_reserved_memory_gib": "peak_reserved_gib",
}

_PERFORMANCE_KEYS = frozenset(
    {"status", "precision", "bridge_commit", "command", "last_verified", "metrics", "expected_result"}
)
_WEAK_SCALING_KEYS = frozenset({"status", "precision", "bridge_commit", "last_verified", "points", "expected_result"})
_POINT_KEYS = frozenset({"num_gpus", "global_batch_size", "command", "metrics"})
_COMMIT = re.compile(r"[0-9a-f]{40}")
_PERFORMANCE_LIKE = re.compile(r"performance|scaling|throughput|benchmark")
_BLOCK = re.compile(r"^\s*command:\s*[>|][+-]?\s*(#.*)?$")

T = TypeVar("T")
Path = tuple[str | int, ...]


@dataclass(frozen=True)
class At(Generic[T]):
    """A value of a card, with the file and line it is written on."""

    value: T
    path: str
    line: int
    written: str = ""
    """A number or date as the card writes it (`12.347540`, where the number is 12.34754); empty for text."""


@dataclass(frozen=True)
class Metrics:
    """A run's `metrics`; a metric the card does not write is None."""

    initial_loss: At[float] | None = None
    final_loss: At[float] | None = None
    step_time_ms: At[float] | None = None
    """The step time in milliseconds, averaged over the last `WINDOW_STEPS` steps."""
    tflops_per_gpu: At[float] | None = None
    """Model TFLOP/s per GPU, averaged over the same steps (Megatron-Bridge's model FLOPs)."""
    tokens_per_gpu: At[float] | None = None
    """Tokens/s per GPU, averaged over the same steps."""
    peak_allocated_gib: At[float] | None = None
    peak_reserved_gib: At[float] | None = None


@dataclass(frozen=True)
class Run:
    """One performance run of a card: an item of `pretrain_performance`, or a point of `pretrain_weak_scaling`."""

    path: str
    """The card's path in the repository."""
    item: str
    """`pretrain_performance` or `pretrain_weak_scaling`."""
    gpu: At[str]
    """The item's GPU key as the card writes it (`GB300`), at its line."""
    point: int | None
    """The index of the point in the item's `points` (weak scaling), else None."""
    title: At[str] | None
    hf_id: At[str] | None
    status: At[str]
    precision: At[str] | None
    bridge_commit: At[str] | None
    commit_of: str
    """Whose `bridge_commit` it is: `item`, or `card` (the card's verification_environment)."""
    container: At[str] | None
    command: At[str]
    command_lines: tuple[str, ...]
    """The command as the card lays it out, one line each (its folded block's lines, unindented)."""
    last_verified: At[dt.date] | None
    num_gpus: At[int] | None
    """A weak-scaling point's `num_gpus`."""
    global_batch: At[int] | None
    """A weak-scaling point's `global_batch_size`."""
    metrics: Metrics
    expected_result: At[str] | None
    line: int
    """The line the run starts on: its GPU key, or its point's `-`."""
    excerpt: str
    """The card's lines the run is read from, verbatim: the verification environment, then the item (of a
    weak-scaling item, this point only), each block as written, blank-line separated."""
    excerpt_lines: tuple[tuple[int, int], ...]
    """The first and last line of each block of `excerpt`."""

    @property
    def where(self) -> str:
        """`items.pretrain_weak_scaling.GB300.points[1]`."""
        return f"items.{self.item}.{self.gpu.value}" + (f".points[{self.point}]" if self.point is not None else "")


@dataclass(frozen=True)
class Card:
    path: str
    runs: tuple[Run, ...]
    problems: tuple[Problem, ...]


@dataclass(frozen=True)
class Cards:
    """Every card at one commit."""

    cards: tuple[Card, ...]

    @property
    def runs(self) -> tuple[Run, ...]:
        return tuple(run for card in self.cards for run in card.runs)

    @property
    def problems(self) -> tuple[Problem, ...]:
        return tuple(problem for card in self.cards for problem in card.problems)


def card_paths(source: GitSource) -> list[str]:
    """The cards at the source's commit: `<CARDS>/<model>/card.yaml`."""
    return [path for path in source.tree(CARDS) if path.count("/") == CARDS.count("/") + 2 and path.endswith(CARD_NAME)]


def read_cards(source: GitSource) -> Cards:
    return Cards(tuple(read_card(path, source.show(path)) for path in card_paths(source)))


def read_card(path: str, text: str) -> Card:
    """The performance runs of one card, and every problem of their shape, each at its line."""
    document, problems = read_document(text.encode("utf-8"), path)
    if document is None:
        return Card(path, (), tuple(problems))
    reader = _Reader(path, document, text.splitlines())
    reader.problems += problems
    runs = tuple(reader.runs())
    return Card(path, runs, tuple(sorted(reader.problems)))


class _Reader:
    """One card's document, read path by path, collecting problems."""

    def __init__(self, path: str, document: Document, lines: list[str]) -> None:
        self.path = path
        self.document = document
        self.lines = lines
        self.problems: list[Problem] = []
        self._starts: list[tuple[int, Path]] | None = None

    # -- locating ------------------------------------------------------------------------------

    def line(self, path: Path) -> int:
        """The line of the key that holds `path` (of a list item, its value)."""
        return self.document.source_map.key_at(path).line

    def problem(self, path: Path, message: str) -> None:
        position = self.document.source_map.key_at(path)
        self.problems.append(Problem(self.path, position.line, position.column, json_path(path), message))

    def at(self, path: Path, value: T) -> At[T]:
        written = self.document.source_map.scalar_text.get(path, "")
        return At(value, self.path, self.document.source_map.value_at(path).line, written)

    def span(self, path: Path) -> tuple[int, int]:
        """The lines `path` is written on: from its key to the line before the next value that is
        not inside it, without the blank and comment lines that end it."""
        if self._starts is None:
            source_map = self.document.source_map
            found = {(source_map.key_at(key).line, key) for key in source_map.keys}
            found |= {(source_map.value_at(key).line, key) for key in source_map.values}
            self._starts = sorted(found, key=lambda item: item[0])
        start = self.line(path)
        end = len(self.lines)
        for line, other in self._starts:
            if line > start and other[: len(path)] != path:
                end = line - 1
                break
        while end > start and (not self.lines[end - 1].strip() or self.lines[end - 1].lstrip().startswith("#")):
            end -= 1
        return start, end

    # -- values --------------------------------------------------------------------------------

    def mapping(self, path: Path, value: Any, what: str) -> dict[str, Any] | None:
        if isinstance(value, dict):
            return value
        self.problem(path, f"{what} is {_kind(value)}, not a mapping: it is not read")
        return None

    def text(self, path: Path, value: Any, required: bool = False) -> At[str] | None:
        if value is None and not required:
            return None
        if isinstance(value, str) and value.strip():
            return self.at(path, value)
        self.problem(path, f"{'is missing' if value is None else f'is {_kind(value)}, not text'}: not read")
        raise _UnreadError

    def number(self, path: Path, value: Any) -> At[float] | None:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return self.at(path, float(value))
        self.problem(path, f"is {_kind(value)}, not a number: not read")
        raise _UnreadError

    def whole(self, path: Path, value: Any) -> At[int] | None:
        if value is None:
            return None
        if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
            return self.at(path, value)
        self.problem(path, f"is {_kind(value)}, not a whole number of at least 1: not read")
        raise _UnreadError

    def commit(self, path: Path, value: Any) -> At[str] | None:
        if value is None:
            return None
        if isinstance(value, str) and _COMMIT.fullmatch(value):
            return self.at(path, value)
        self.problem(path, f"{value!r} is not a full 40-character commit: not read")
        raise _UnreadError

    def day(self, path: Path, value: Any) -> At[dt.date] | None:
        if value is None:
            return None
        if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
            return self.at(path, value)
        self.problem(path, f"is {_kind(value)}, not a date: not read")
        raise _UnreadError

    def keys(self, path: Path, item: dict[str, Any], known: frozenset[str], what: str) -> None:
        for key in item:
            if key not in known:
                self.problem(
                    (*path, key),
                    f"{key!r} is not a key of {what} this importer knows ({', '.join(sorted(known))}): what it says "
                    "of the run cannot be known, so the run is not read",
                )
                raise _UnreadError

    def metrics(self, path: Path, value: Any) -> Metrics:
        if value is None:
            self.problem(path, "the run has no metrics: it is not read")
            raise _UnreadError
        found = self.mapping(path, value, "metrics")
        if found is None:
            raise _UnreadError
        read: dict[str, At[float] | None] = {}
        for key, number in found.items():
            if key not in METRICS:
                self.problem(
                    (*path, key),
                    f"{key!r} is not a metric this importer knows ({', '.join(METRICS)}): the run is not read",
                )
                raise _UnreadError
            read[METRICS[key]] = self.number((*path, key), number)
        return Metrics(**read)

    # -- the card ------------------------------------------------------------------------------

    def runs(self) -> Iterator[Run]:
        data = self.mapping((), self.document.data, "the card")
        if data is None:
            return
        items = data.get("items")
        if items is None:
            self.problem((), "the card has no items")
            return
        items = self.mapping(("items",), items, "items")
        if items is None:
            return
        card = _CardValues.read(self, data)
        for name in items:
            if name not in (PERFORMANCE, WEAK_SCALING) and _PERFORMANCE_LIKE.search(str(name)):
                # A kind of performance item the cards did not have yet: said, so that it is seen, not lost.
                self.problem(("items", name), f"{name} is not a kind of performance item this importer reads")
        for name in (PERFORMANCE, WEAK_SCALING):
            if name not in items:
                continue
            block = self.mapping(("items", name), items[name], name)
            for gpu, item in (block or {}).items():
                path: Path = ("items", name, gpu)
                if self.mapping(path, item, f"{name}.{gpu}") is None:
                    continue
                try:
                    yield from (self.performance if name == PERFORMANCE else self.weak_scaling)(path, item, card)
                except _UnreadError:
                    continue

    def performance(self, path: Path, item: dict[str, Any], card: _CardValues) -> Iterator[Run]:
        self.keys(path, item, _PERFORMANCE_KEYS, "a pretrain_performance item")
        yield self.run(path, item, item, None, card, [self.span(path)])

    def weak_scaling(self, path: Path, item: dict[str, Any], card: _CardValues) -> Iterator[Run]:
        self.keys(path, item, _WEAK_SCALING_KEYS, "a pretrain_weak_scaling item")
        points = item.get("points")
        if not isinstance(points, list) or not points:
            self.problem((*path, "points"), f"points is {_kind(points)}, not a list of runs: the item is not read")
            raise _UnreadError
        whole = self.span(path)
        spans = [self.span((*path, "points", index)) for index in range(len(points))]
        for index, point in enumerate(points):
            here: Path = (*path, "points", index)
            if self.mapping(here, point, f"point {index}") is None:
                continue
            try:
                self.keys(here, point, _POINT_KEYS, "a weak-scaling point")
                others = [span for number, span in enumerate(spans) if number != index]
                yield self.run(here, point, item, index, card, _without(whole, others))
            except _UnreadError:
                continue

    def run(
        self,
        path: Path,
        values: dict[str, Any],
        item: dict[str, Any],
        point: int | None,
        card: _CardValues,
        blocks: list[tuple[int, int]],
    ) -> Run:
        """A run read from `values` (the item, or its point) and the item's own keys."""
        item_path = path if point is None else path[:-2]
        status = self.text((*item_path, "status"), item.get("status"), required=True)
        assert status is not None
        if status.value not in STATUSES:
            self.problem((*item_path, "status"), f"{status.value!r} is not a status the card's header lists")
            raise _UnreadError
        own = self.commit((*item_path, "bridge_commit"), item.get("bridge_commit"))
        command = self.text((*path, "command"), values.get("command"), required=True)
        assert command is not None
        if card.environment is not None:
            blocks = [card.environment, *blocks]
        return Run(
            path=self.path,
            item=str(item_path[1]),
            gpu=At(str(item_path[2]), self.path, self.line(item_path)),
            point=point,
            title=card.title,
            hf_id=card.hf_id,
            status=status,
            precision=self.text((*item_path, "precision"), item.get("precision")),
            bridge_commit=own or card.bridge_commit,
            commit_of="item" if own is not None else "card",
            container=card.container,
            command=command,
            command_lines=self.command_lines((*path, "command"), command.value),
            last_verified=self.day((*item_path, "last_verified"), item.get("last_verified")),
            num_gpus=self.whole((*path, "num_gpus"), values.get("num_gpus")) if point is not None else None,
            global_batch=(
                self.whole((*path, "global_batch_size"), values.get("global_batch_size")) if point is not None else None
            ),
            metrics=self.metrics((*path, "metrics"), values.get("metrics")),
            expected_result=self.text((*item_path, "expected_result"), item.get("expected_result")),
            line=self.line(path),
            excerpt="\n\n".join("\n".join(self.lines[first - 1 : last]) for first, last in blocks),
            excerpt_lines=tuple(blocks),
        )

    def command_lines(self, path: Path, value: str) -> tuple[str, ...]:
        """The command's lines as the card's folded block lays them out; its one folded line where the
        block's lines are not the value's words (a quoted or literal scalar)."""
        first, last = self.span(path)
        if _BLOCK.match(self.lines[first - 1]):
            lines = tuple(line.strip() for line in self.lines[first:last] if line.strip())
            if " ".join(lines) == " ".join(value.split()):
                return lines
        return (" ".join(value.split()),)


@dataclass(frozen=True)
class _CardValues:
    """What a card says once for all its items."""

    title: At[str] | None
    hf_id: At[str] | None
    bridge_commit: At[str] | None
    container: At[str] | None
    environment: tuple[int, int] | None
    """The lines of `verification_environment`."""

    @classmethod
    def read(cls, reader: _Reader, data: dict[str, Any]) -> _CardValues:
        def optional(read: Callable[[Path, Any], Any], path: Path, value: Any) -> Any:
            try:
                return read(path, value)
            except _UnreadError:  # said at its line; the card's runs go without it
                return None

        model = data.get("model")
        model = model if isinstance(model, dict) else {}
        environment = data.get("verification_environment")
        if environment is not None and not isinstance(environment, dict):
            reader.problem(("verification_environment",), f"is {_kind(environment)}, not a mapping: it is not read")
            environment = None
        environment = environment or {}
        return cls(
            title=optional(reader.text, ("title",), data.get("title")),
            hf_id=optional(reader.text, ("model", "hf_id"), model.get("hf_id")),
            bridge_commit=optional(
                reader.commit, ("verification_environment", "bridge_commit"), environment.get("bridge_commit")
            ),
            container=optional(
                reader.text, ("verification_environment", "base_container"), environment.get("base_container")
            ),
            environment=reader.span(("verification_environment",)) if environment else None,
        )


class CardError(ValueError):
    """The cards cannot be imported as they are: a card that is not read at all (a past version, which
    the history walk names), or two runs that would write one recipe."""


class _UnreadError(Exception):
    """A run not read, its problem said at its line."""


def _without(whole: tuple[int, int], others: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The lines of `whole` outside every span of `others`, as blocks of consecutive lines."""
    blocks: list[tuple[int, int]] = []
    start: int | None = None
    for line in range(whole[0], whole[1] + 1):
        inside = any(first <= line <= last for first, last in others)
        if not inside and start is None:
            start = line
        elif inside and start is not None:
            blocks.append((start, line - 1))
            start = None
    if start is not None:
        blocks.append((start, whole[1]))
    return blocks


def _kind(value: Any) -> str:
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return f"a yes/no ({value})"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, (int, float)):
        return f"a number ({value})"
    if isinstance(value, dt.date):
        return f"a date ({value.isoformat()})"
    return f"text ({str(value)[:40]!r})"
