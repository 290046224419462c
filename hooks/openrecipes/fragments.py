"""Text from recipes and reference data reaches a page through one renderer, never through Markdown.

A generated page is a Markdown skeleton written by our templates: headings, tables, admonitions.
Every value from a recipe (or from the reference data, which pull requests change too) is
rendered to HTML here, once, and the skeleton holds only an opaque token in its place. After
MkDocs has converted the skeleton, `restore` puts the HTML back. So no Markdown preprocessor,
extension or attribute list ever sees an author's text: a line that looks like a fence inside a
launch script or a note stays text, whatever Python-Markdown or its extensions would make of it.

Tokens are lower-case letters and digits only, which Markdown passes through untouched in
paragraphs, table cells, list items and raw HTML attributes. A block fragment (a code block, a
rendered note) stands alone on its line, so Markdown wraps it in a paragraph, which `restore`
replaces whole.
"""

from __future__ import annotations

import contextlib
import contextvars
import re
from collections.abc import Iterator, Sequence

from markupsafe import Markup

_PREFIX = "orfrag"
_SUFFIX = "z"
_TOKEN = re.compile(rf"<p>{_PREFIX}(\d+){_SUFFIX}</p>|{_PREFIX}(\d+){_SUFFIX}")


class FragmentError(RuntimeError):
    """A page lost or repeated a fragment: a bug in a template or in the conversion, never in a recipe."""


class Fragments:
    """The HTML fragments of one page being rendered, in the order their tokens were issued."""

    def __init__(self) -> None:
        self.html: list[str] = []

    def token(self, html: str) -> Markup:
        self.html.append(html)
        return Markup(f"{_PREFIX}{len(self.html) - 1}{_SUFFIX}")


_current: contextvars.ContextVar[Fragments] = contextvars.ContextVar("openrecipes_fragments")


@contextlib.contextmanager
def collecting() -> Iterator[Fragments]:
    """Collect the fragments issued while rendering one page."""
    fragments = Fragments()
    reset = _current.set(fragments)
    try:
        yield fragments
    finally:
        _current.reset(reset)


def fragment(html: str) -> Markup:
    """A token standing for `html` (already safe HTML) in the page being rendered."""
    try:
        fragments = _current.get()
    except LookupError:
        raise FragmentError("a fragment was made outside a page being rendered") from None
    return fragments.token(html)


def holds_token(text: str) -> bool:
    return _TOKEN.search(text) is not None


def restore(html: str, fragments: Sequence[str], page: str = "the page") -> str:
    """`html` (the converted skeleton) with every token replaced by its fragment, each exactly once."""
    placed = [0] * len(fragments)

    def place(match: re.Match[str]) -> str:
        index = int(match.group(1) or match.group(2))
        if index >= len(fragments):
            raise FragmentError(f"{page}: unknown fragment {match.group(0)!r}")
        placed[index] += 1
        return fragments[index]

    restored = _TOKEN.sub(place, html)
    wrong = [index for index, count in enumerate(placed) if count != 1]
    if wrong:
        counts = ", ".join(f"#{index} {placed[index]} times" for index in wrong[:5])
        raise FragmentError(f"{page}: fragments placed other than once after conversion ({counts})")
    return restored
