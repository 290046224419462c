"""A safe, position-keeping YAML reader for files written by strangers.

PyYAML alone would silently keep the last of two duplicate keys, run `!!python/...` tags under a
full loader, expand an alias bomb into gigabytes, and forget where each value came from. This
reader parses with libyaml into a node tree, then builds plain Python data from the nodes itself,
so it can refuse tags and duplicates, bound alias expansion, and remember the line and column of
every key and value for error messages.
"""

from __future__ import annotations

import datetime as dt
import errno
import functools
import math
import os
import re
import stat
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..problems import Problem, json_path

MAX_FILE_BYTES = 256 * 1024
"""A recipe is a few kilobytes; anything this large is a mistake or an attack."""

MAX_NODES = 20_000
"""Upper bound on values built from one file, aliases counted each time they are used."""

MAX_TEXT = MAX_FILE_BYTES
"""Upper bound on the characters of text (keys and values) built from one file, aliases counted each
time they are used: what a file of the largest size allowed could hold written out. Without aliases
no file comes near it (its text is shorter than its bytes), so an alias can repeat text only as much
as writing it out could: nothing built from a recipe (its page, its records) is larger than a recipe
of the largest size written out, whatever the aliases. (A 20 kB string used 3,000 times through
aliases, a 67 kB file, once built a 60 MB page.)"""

MAX_DEPTH = 32
"""Recipes nest four levels deep. (libyaml itself refuses flow nesting beyond 1,000 levels.)"""

MAX_NUMBER = 2**53
"""Every number read stays below this in size: the largest integer JSON readers and the site's
scripts keep exactly, and far beyond any figure of a training run. The schema sets each field's
own, tighter bounds; this one holds for every number, so no later arithmetic or formatting can
overflow, whatever field a number is in."""

MIN_NUMBER = 1e-12
"""Every number read is 0 or at least this in size: no figure is smaller, and a number with
hundreds of decimals cannot be formatted."""

_BaseLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Loader(_BaseLoader):  # type: ignore[misc, valid-type]
    """libyaml's loader, with the tag of each plain scalar looked up once per distinct text.

    libyaml calls back into Python's regex-based resolver for every key and value; recipes
    repeat the same keys, so a cache halves the time spent composing a file.
    """

    def resolve(self, kind: type, value: Any, implicit: Any) -> str:
        if kind is ScalarNode:
            return _scalar_tag(value, tuple(implicit))
        return super().resolve(kind, value, implicit)


_STR = "tag:yaml.org,2002:str"
_MAP = "tag:yaml.org,2002:map"
_SEQ = "tag:yaml.org,2002:seq"
_MERGE = "tag:yaml.org,2002:merge"
_IMPLICIT_SCALAR_TAGS = {
    _STR,
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:timestamp",
}

# Characters no recipe needs, refused by Unicode category wherever they are, in keys and values:
# they display as nothing or differently from what they are, so text that reads one way could
# run or compare another ("Trojan Source"), and several are not allowed in XML (the feed) at all.
_REFUSED_CATEGORIES = {
    "Cc": "control character",  # bar tab and newline, which are never looked up
    "Cf": "invisible character",  # zero-width spaces and joiners, bidi overrides, BOM, tag characters
    "Zl": "invisible line break",  # U+2028: a line break to some readers, none to others
    "Zp": "invisible line break",  # U+2029
    "Cs": "lone surrogate",
    "Co": "private-use character",
    "Cn": "unassigned code point",  # noncharacters (U+FFFE, U+FDD0...) are unassigned too
}
# Characters worth looking up: every one but the printable ASCII ones, tab and newline. Plain
# ASCII text, nearly all of a recipe, is passed over by the regex engine without a lookup.
_SUSPECT = re.compile("[\x00-\x08\x0b-\x1f\x7f-\U0010ffff]")


def first_refused(text: str) -> int | None:
    """The index of the first character of `text` that a recipe may not hold, or None."""
    first = _SUSPECT.search(text)  # nearly always None: one call, no iterator
    if first is None:
        return None
    for match in _SUSPECT.finditer(text, first.start()):
        if unicodedata.category(match.group()) in _REFUSED_CATEGORIES:
            return match.start()
    return None


def describe_refused(char: str) -> str:
    """`U+200B` as a problem: what kind of character it is and its name."""
    code = ord(char)
    kind = _REFUSED_CATEGORIES[unicodedata.category(char)]
    if code & 0xFFFE == 0xFFFE or 0xFDD0 <= code <= 0xFDEF:
        kind = "noncharacter"
    name = unicodedata.name(char, "")
    if kind == "unassigned code point":
        name = f"not a character in Unicode {unicodedata.unidata_version}"
    return f"contains the {kind} U+{code:04X}" + (f" ({name})" if name else "") + "; remove it"


Path = tuple[str | int, ...]


@dataclass(frozen=True, slots=True)
class Position:
    line: int
    column: int


class SourceMap:
    """Where each part of a document was written: values, keys, and original scalar text.

    Positions are packed into one int each: a catalogue holds hundreds of thousands of them, and
    ints, unlike node or position objects, cost the garbage collector nothing to keep. A map read
    from a file is worked out when first asked for (`locate`): only a file with a problem needs
    one, and recording every position of every valid file took a quarter of a load.
    """

    __slots__ = ("_keys", "_locate", "_scalar_text", "_values")

    def __init__(
        self,
        values: dict[Path, int] | None = None,
        keys: dict[Path, int] | None = None,
        scalar_text: dict[Path, str] | None = None,
        *,
        locate: Callable[[], SourceMap] | None = None,
    ) -> None:
        self._values = {} if values is None else values
        self._keys = {} if keys is None else keys
        self._scalar_text = {} if scalar_text is None else scalar_text
        self._locate = locate

    def _located(self) -> SourceMap:
        if self._locate is not None:
            found, self._locate = self._locate(), None
            self._values, self._keys, self._scalar_text = found.values, found.keys, found.scalar_text
        return self

    @property
    def values(self) -> dict[Path, int]:
        return self._located()._values

    @property
    def keys(self) -> dict[Path, int]:
        return self._located()._keys

    @property
    def scalar_text(self) -> dict[Path, str]:
        return self._located()._scalar_text

    def value_at(self, path: Path) -> Position:
        """The position of `path`'s value, or of its closest located ancestor."""
        values = self.values
        for end in range(len(path), -1, -1):
            packed = values.get(path[:end])
            if packed is not None:
                return _unpack(packed)
        return Position(1, 1)

    def key_at(self, path: Path) -> Position:
        """The position of the key that holds `path` (its value's position for list items)."""
        packed = self.keys.get(path)
        return _unpack(packed) if packed is not None else self.value_at(path)


_COLUMNS = 1 << 32


def _pack(node: Node) -> int:
    mark = node.start_mark
    return mark.line * _COLUMNS + mark.column


def _unpack(packed: int) -> Position:
    line, column = divmod(packed, _COLUMNS)
    return Position(line + 1, column + 1)


@dataclass(frozen=True)
class Document:
    data: Any
    source_map: SourceMap


def _position(node: Node) -> Position:
    return _unpack(_pack(node))


def read_file(path: os.PathLike[str] | str, display_path: str) -> tuple[bytes | None, Problem | None]:
    """The bytes of the regular file at `path`, or the problem that stops reading it.

    Checked on the open file, so nothing can swap it in between: a symbolic link is not followed,
    a named pipe or device is not waited on (a FIFO named `x.yaml` would block a read forever),
    and an oversized file is not read whole.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        descriptor = os.open(path, flags)
    except OSError as error:
        if error.errno == errno.ELOOP:
            return None, Problem(display_path, 0, 0, "", "is a symbolic link; commit the file itself")
        return None, Problem(display_path, 0, 0, "", f"cannot be read: {error.strerror or error}")
    with os.fdopen(descriptor, "rb") as handle:
        mode, size = (info := os.fstat(descriptor)).st_mode, info.st_size
        if not stat.S_ISREG(mode):
            return None, Problem(display_path, 0, 0, "", f"is {file_kind(mode)}, not a file; remove it")
        raw = b"" if size > MAX_FILE_BYTES else handle.read(MAX_FILE_BYTES + 1)
    if size > MAX_FILE_BYTES or len(raw) > MAX_FILE_BYTES:
        size = max(size, len(raw))
        message = f"file is {size:,} bytes; a recipe may be at most {MAX_FILE_BYTES:,} bytes"
        return None, Problem(display_path, 0, 0, "", message)
    return raw, None


def file_kind(mode: int) -> str:
    """`a named pipe (FIFO)`: what a file that is not a regular file is, for messages."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def read_document(raw: bytes, display_path: str) -> tuple[Document | None, list[Problem]]:
    """Parse one recipe file. Returns the document (None if unreadable) and the problems found.

    Problems that leave the data usable (a duplicate key, a forbidden character) are reported
    alongside the document so that schema errors in the same file are reported in the same run.
    """

    def whole_file(message: str) -> tuple[None, list[Problem]]:
        return None, [Problem(display_path, 0, 0, "", message)]

    if len(raw) > MAX_FILE_BYTES:
        return whole_file(f"file is {len(raw):,} bytes; a recipe may be at most {MAX_FILE_BYTES:,} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        column = error.start - (raw.rfind(b"\n", 0, error.start) + 1) + 1
        return None, [
            Problem(
                display_path,
                line,
                column,
                "",
                f"not valid UTF-8 (byte 0x{raw[error.start]:02x}); save the file as UTF-8",
            )
        ]
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text.strip() or all(not line.strip() or line.lstrip().startswith("#") for line in text.splitlines()):
        return whole_file("the file is empty; a recipe is a YAML mapping of fields")

    loader = _Loader(text)
    try:
        root = loader.get_single_node()
    except yaml.MarkedYAMLError as error:
        # A raw U+2028 or U+0085 is a line break to YAML and none to an editor: the syntax error
        # it causes is best explained by the character, which has to go anyway.
        refused = first_refused(text)
        mark = error.problem_mark or error.context_mark
        if refused is not None and mark is not None and refused <= mark.index:
            return None, [_refused_character(text, refused, display_path)]
        return None, [_yaml_error(error, display_path)]
    except yaml.YAMLError as error:
        # libyaml refuses some characters (U+FFFE, most controls) before parsing, without a line.
        refused = first_refused(text)
        if isinstance(error, yaml.reader.ReaderError) and refused is not None:
            return None, [_refused_character(text, refused, display_path)]
        return whole_file(f"YAML error: {error}")
    finally:
        loader.dispose()
    if root is None:
        return whole_file("the file is empty; a recipe is a YAML mapping of fields")

    # Most files are regular: their data is built without recording positions, which are worked
    # out from the same nodes only if a problem needs them. Anything irregular takes the full way.
    try:
        data = _build_plain(root, loader, 0, [0, 0])
    except _IrregularError:
        pass
    else:
        return Document(data, SourceMap(locate=lambda: _located(root, loader, display_path))), []
    builder = _Builder(loader, display_path)
    try:
        data = builder.build(root, ())
    except _TooLargeError as error:
        position, path = _alias_past(text, error.measure, error.limit) or (error.position, ())
        where = json_path(path) if path else ""
        return None, [Problem(display_path, position.line, position.column, where, str(error))]
    return Document(data, builder.source_map), builder.problems


def _located(root: Node, loader: Any, display_path: str) -> SourceMap:
    builder = _Builder(loader, display_path)
    builder.build(root, ())
    return builder.source_map


class _IrregularError(Exception):
    """The document needs the full builder: it has a problem, or a value it must look at closely."""


def _build_plain(node: Node, loader: Any, depth: int, budget: list[int]) -> Any:
    """The data `_Builder` makes of a document without any problem, with no positions recorded;
    `_IrregularError` wherever `_Builder` would report one (or a value needs a closer look).
    `budget` is [values, characters of text] built so far."""
    budget[0] += 1
    if budget[0] > MAX_NODES or depth > MAX_DEPTH:
        raise _IrregularError
    if isinstance(node, MappingNode):
        if node.tag != _MAP:
            raise _IrregularError
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, ScalarNode) or key_node.tag == _MERGE:
                raise _IrregularError
            key = key_node.value
            if key in result or first_refused(key) is not None:
                raise _IrregularError
            budget[1] += len(key)
            if budget[1] > MAX_TEXT:
                raise _IrregularError
            result[key] = _build_plain(value_node, loader, depth + 1, budget)
        return result
    if isinstance(node, SequenceNode):
        if node.tag != _SEQ:
            raise _IrregularError
        return [_build_plain(item, loader, depth + 1, budget) for item in node.value]
    text = node.value
    budget[1] += len(text)
    if budget[1] > MAX_TEXT:
        raise _IrregularError
    tag = _STR if node.style else _implicit_tag(text)
    if node.tag != tag:
        raise _IrregularError
    if tag == _STR:
        if first_refused(text) is not None:
            raise _IrregularError
        return text
    if tag not in _PLAIN_TAGS:
        raise _IrregularError
    try:
        value = loader.yaml_constructors[tag](loader, node)
    except (yaml.YAMLError, ValueError):
        raise _IrregularError from None
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        if abs(value) >= MAX_NUMBER:
            raise _IrregularError
        return value
    if isinstance(value, float):
        # Infinities, NaN, out of range, too close to 0; a 0.0 may be a tiny mantissa read as 0,
        # which the full builder tells apart from a written 0.
        if not MIN_NUMBER <= abs(value) < MAX_NUMBER:
            raise _IrregularError
        return value
    if isinstance(value, dt.datetime):
        return value.isoformat()
    if isinstance(value, dt.date):
        return value
    raise _IrregularError


def _refused_character(text: str, index: int, display_path: str) -> Problem:
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    return Problem(display_path, line, column, "", describe_refused(text[index]))


def _yaml_error(error: yaml.MarkedYAMLError, display_path: str) -> Problem:
    mark = error.problem_mark or error.context_mark
    parts = [part for part in (error.context, error.problem) if part]
    message = "YAML syntax error: " + ", ".join(parts) if parts else "YAML syntax error"
    if (
        error.context
        and error.context_mark
        and error.problem_mark
        and error.context_mark.line != error.problem_mark.line
    ):
        message += f" (the construct starts at line {error.context_mark.line + 1})"
    if "expected a single document" in message:
        message = "a recipe file holds exactly one YAML document; remove the extra '---' line"
    line, column = (mark.line + 1, mark.column + 1) if mark else (0, 0)
    return Problem(display_path, line, column, "", message)


def _alias_past(text: str, measure: str, limit: int) -> tuple[Position, Path] | None:
    """Where the document, expanded, first goes past `limit` values or characters of text (`measure`
    "values" or "text"): the position and path of the alias (or the value) that takes it past, or None.

    The node tree has lost where each alias was written (an alias is its anchor's node), so this
    reads the document's events again, adding up what each anchored node expands to; only a
    document past a limit is read twice. It counts as `_Builder` does, in the same order (values,
    and the characters of keys and scalar values), and more only in a document with problems of its
    own (a duplicate key, whose value the builder passes over).
    """
    if measure not in ("values", "text"):
        return None
    counted = 0 if measure == "values" else 1
    totals = [0, 0]  # values, characters
    anchors: dict[str, tuple[int, int, str | None]] = {}  # values, characters, a scalar's text
    frames: list[_Frame] = []
    loader = _Loader(text)
    try:
        while loader.check_event():
            event = loader.get_event()
            if isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                frame = frames.pop()
                if frame.anchor:
                    anchors[frame.anchor] = (totals[0] - frame.start[0], totals[1] - frame.start[1], None)
                if frames:
                    frames[-1].next()
                continue
            if not isinstance(event, yaml.NodeEvent):
                continue  # stream and document events
            parent = frames[-1] if frames else None
            is_key = parent is not None and parent.expects_key
            path = () if parent is None else parent.path if is_key else (*parent.path, parent.item)
            if isinstance(event, yaml.AliasEvent):
                values, characters, scalar = anchors.get(event.anchor or "", (0, 0, None))
                if is_key:
                    values, parent.item = 0, scalar if scalar is not None else "?"
            elif isinstance(event, yaml.ScalarEvent):
                values, characters, scalar = 1, len(event.value), event.value
                if event.anchor:
                    anchors[event.anchor] = (values, characters, scalar)
                if is_key:
                    values, parent.item = 0, scalar
            else:  # the start of a mapping or a list
                frames.append(_Frame(path, isinstance(event, yaml.MappingStartEvent), event.anchor, list(totals)))
                values, characters = 1, 0
            totals[0] += values
            totals[1] += characters
            if totals[counted] > limit:
                mark = event.start_mark
                return Position(mark.line + 1, mark.column + 1), path
            if parent is not None and not isinstance(event, yaml.CollectionStartEvent):
                parent.next()
    except yaml.YAMLError:
        return None
    finally:
        loader.dispose()
    return None


class _Frame:
    """A mapping or list open while `_alias_past` reads the events, and where in it the reading is."""

    __slots__ = ("anchor", "expects_key", "item", "mapping", "path", "start")

    def __init__(self, path: Path, mapping: bool, anchor: str | None, start: list[int]) -> None:
        self.path = path
        self.mapping = mapping
        self.anchor = anchor
        self.start = start
        self.expects_key = mapping
        self.item: str | int = "" if mapping else 0

    def next(self) -> None:
        """After a key, its value; after a value, the next key or item."""
        if not self.mapping:
            assert isinstance(self.item, int)
            self.item += 1
        else:
            self.expects_key = not self.expects_key


class _TooLargeError(Exception):
    """A document past a limit on what it builds: `measure` ("values", "text", "depth") past `limit`
    at the node at `position`."""

    def __init__(self, position: Position, message: str, measure: str = "depth", limit: int = 0) -> None:
        super().__init__(message)
        self.position = position
        self.measure = measure
        self.limit = limit


class _Builder:
    """Turns a composed node tree into dicts, lists and scalars, recording positions."""

    def __init__(self, loader: Any, display_path: str) -> None:
        self.loader = loader
        self.display_path = display_path
        self.values: dict[Path, int] = {}
        self.keys: dict[Path, int] = {}
        self.scalar_text: dict[Path, str] = {}
        self.problems: list[Problem] = []
        self.budget_nodes = 0
        self.budget_text = 0

    @property
    def source_map(self) -> SourceMap:
        return SourceMap(self.values, self.keys, self.scalar_text)

    def problem(self, node: Node, path: Path, message: str) -> None:
        position = _position(node)
        self.problems.append(
            Problem(self.display_path, position.line, position.column, json_path(path) if path else "", message)
        )

    def refuse_tag(self, node: Node, path: Path) -> None:
        tag = node.tag.replace("tag:yaml.org,2002:", "!!", 1)
        self.problem(
            node, path, f"the YAML tag {tag} is not allowed; recipes are plain YAML (quote the value if it is text)"
        )

    def build(self, node: Node, path: Path) -> Any:
        self.budget_nodes += 1
        if self.budget_nodes > MAX_NODES:
            raise _TooLargeError(
                _position(node),
                f"the document expands to more than {MAX_NODES:,} values (through YAML aliases?); "
                "write the values out instead",
                "values",
                MAX_NODES,
            )
        if len(path) > MAX_DEPTH:
            raise _TooLargeError(
                _position(node), f"nested more than {MAX_DEPTH} levels deep; a recipe is a few levels deep"
            )
        # Positions of aliased nodes repeat; the first use is where the author wrote the value.
        self.values.setdefault(path, _pack(node))
        if isinstance(node, MappingNode):
            if node.tag != _MAP:
                self.refuse_tag(node, path)
            return self.build_mapping(node, path)
        if isinstance(node, SequenceNode):
            if node.tag != _SEQ:
                self.refuse_tag(node, path)
            return [self.build(item, (*path, index)) for index, item in enumerate(node.value)]
        return self.build_scalar(node, path)

    def build_mapping(self, node: MappingNode, path: Path) -> dict[str, Any]:
        result: dict[str, Any] = {}
        first_seen: dict[str, Node] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, ScalarNode):
                self.problem(key_node, path, "a key must be a plain name, not a list or mapping")
                continue
            if key_node.tag == _MERGE:
                self.problem(key_node, path, "merge keys ('<<') are not supported; write the fields out")
                continue
            # Keys are names: keep the text as written, so `on:` or `1.10:` stay what the author typed.
            key = key_node.value
            key_path = (*path, key)
            if key in first_seen:
                first = _position(first_seen[key])
                self.problem(
                    key_node,
                    key_path,
                    f"duplicate key {key!r} (first at line {first.line}); YAML would silently keep only the last one",
                )
                continue
            first_seen[key] = key_node
            self.count_text(key_node, key)
            self.keys[key_path] = _pack(key_node)
            self._check_text(key_node, key_path, key)
            result[key] = self.build(value_node, key_path)
        return result

    def count_text(self, node: Node, text: str) -> None:
        self.budget_text += len(text)
        if self.budget_text > MAX_TEXT:
            raise _TooLargeError(
                _position(node),
                f"through YAML aliases the document expands to more than {MAX_TEXT:,} characters of text, more "
                f"than a recipe file may hold written out ({MAX_FILE_BYTES:,} bytes); write the text out once "
                "instead of repeating it",
                "text",
                MAX_TEXT,
            )

    def build_scalar(self, node: ScalarNode, path: Path) -> Any:
        self.count_text(node, node.value)
        implicit = _STR if node.style else _implicit_tag(node.value)
        if node.tag != implicit or node.tag not in _IMPLICIT_SCALAR_TAGS:
            self.refuse_tag(node, path)
            return node.value
        if node.tag == _STR:  # most values: text needs no constructing
            self._check_text(node, path, node.value)
            return node.value
        try:
            value = self.loader.yaml_constructors[node.tag](self.loader, node)
        except (yaml.YAMLError, ValueError) as error:
            # Python refuses to read integers of thousands of digits: that is a number out of range.
            message = _out_of_range(node.value) if node.tag == _INT else f"cannot read {_brief(node.value)}: {error}"
            self.problem(node, path, message)
            return node.value
        if not isinstance(value, str):
            self.scalar_text[path] = node.value
        if isinstance(value, float) and not math.isfinite(value) and not _INFINITY_OR_NAN.fullmatch(node.value):
            self.problem(node, path, _out_of_range(node.value))  # 1e999: a finite number too large for a float
        elif isinstance(value, float) and not math.isfinite(value):
            self.problem(node, path, f"{node.value} is not a finite number")
        elif isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) >= MAX_NUMBER:
            self.problem(node, path, _out_of_range(node.value))
        elif isinstance(value, float) and (0 < abs(value) < MIN_NUMBER or (value == 0 and _NONZERO.search(node.value))):
            self.problem(
                node,
                path,
                f"{_brief(node.value)} is too close to 0: no figure in a recipe is smaller than {MIN_NUMBER:g}, "
                "but for 0 itself",
            )
        elif isinstance(value, str):
            self._check_text(node, path, value)
        elif isinstance(value, dt.datetime):
            value = value.isoformat()
        return value

    def _check_text(self, node: Node, path: Path, text: str) -> None:
        index = first_refused(text)
        if index is not None:
            self.problem(node, path, describe_refused(text[index]))


_INT = "tag:yaml.org,2002:int"
_PLAIN_TAGS = frozenset(_IMPLICIT_SCALAR_TAGS - {_STR})
_INFINITY_OR_NAN = re.compile(r"[-+]?\.(?:inf|nan)", re.IGNORECASE)  # with fullmatch
_NONZERO = re.compile(r"^[-+]?[0._]*[1-9]")  # a mantissa that is not zero (1e-400 reads as 0.0)


def _out_of_range(written: str) -> str:
    return (
        f"{_brief(written)} is out of range: no figure in a recipe comes near ±2^53 ({MAX_NUMBER:,}), "
        "the largest integer that JSON readers and the site's scripts keep exactly"
    )


def _brief(written: str) -> str:
    """A value as written, shortened: a number of 400 digits would fill the screen."""
    return written if len(written) <= 30 else f"{written[:12]}...{written[-6:]} ({len(written):,} characters)"


@functools.lru_cache(maxsize=8192)
def _scalar_tag(value: str, implicit: tuple[bool, bool]) -> str:
    return _RESOLVER.resolve(ScalarNode, value, implicit)


def _implicit_tag(value: str) -> str:
    """The tag YAML gives a plain scalar written as `value` (`5` -> int, `no` -> bool)."""
    return _scalar_tag(value, (True, False))


_RESOLVER = yaml.resolver.Resolver()
