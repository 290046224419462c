"""Text from recipes and reference data reaches a page through one renderer, never through Markdown.

A generated page is a Markdown skeleton written by our templates: headings, tables, admonitions.
Every value from a recipe (or from the reference data, which pull requests change too) is
rendered to HTML here, once, and the skeleton holds only an opaque token in its place. After
MkDocs has converted the skeleton, `restore` puts the HTML back. So no Markdown preprocessor,
extension or attribute list ever sees an author's text: a line that looks like a fence inside a
launch script or a note stays text, whatever Python-Markdown or its extensions would make of it.

A token is a number between two private-use code points (U+E000, U+E001): Markdown passes them
through untouched in paragraphs, table cells, list items and raw HTML attributes, and no text
from outside can hold them, since every file read refuses private-use characters
(`yamlsource.first_refused`). So a value that spells a token is only ever text, never a
placeholder. A block fragment (a code block, a rendered note) stands alone on its line, so
Markdown wraps it in a paragraph, which `restore` replaces whole.
"""

from __future__ import annotations

import contextlib
import contextvars
import re
from collections.abc import Iterator, Sequence

from markupsafe import Markup

_PREFIX = "\ue000"
_SUFFIX = "\ue001"
_TOKEN = re.compile(rf"<p>{_PREFIX}(\d+){_SUFFIX}</p>|{_PREFIX}(\d+){_SUFFIX}")
_BARE_TOKEN = re.compile(rf"{_PREFIX}(\d+){_SUFFIX}")


class FragmentError(RuntimeError):
    """A page lost or repeated a fragment: a bug in a template or in the conversion, never in a recipe."""


class Fragments:
    """The HTML fragments of one page being rendered, in the order their tokens were issued.

    A fragment taken into a larger one (`absorb`) leaves None in its place: its token must not
    appear in the page any more.
    """

    def __init__(self) -> None:
        self.html: list[str | None] = []

    def token(self, html: str) -> Markup:
        self.html.append(html)
        return Markup(f"{_PREFIX}{len(self.html) - 1}{_SUFFIX}")

    def absorb(self, text: str) -> str:
        """`text` (HTML a template wrote around values) with the fragments its tokens stand for
        written in; those fragments now belong to `text`."""

        def place(match: re.Match[str]) -> str:
            index = int(match.group(1))
            html = self.html[index] if index < len(self.html) else None
            if html is None:
                raise FragmentError(f"fragment {match.group(0)!r} is unknown or already placed")
            self.html[index] = None
            return html

        return _BARE_TOKEN.sub(place, text)


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


def _fragments() -> Fragments:
    try:
        return _current.get()
    except LookupError:
        raise FragmentError("a fragment was made outside a page being rendered") from None


def fragment(html: str) -> Markup:
    """A token standing for `html` (already safe HTML) in the page being rendered."""
    return _fragments().token(html)


def block(html: str) -> Markup:
    """A token standing for a block of HTML a template wrote, values included: Markdown never
    parses it, which keeps generated tables and figure boxes out of its (slow) HTML parser too."""
    fragments = _fragments()
    return fragments.token(fragments.absorb(str(html)))


def holds_token(text: str) -> bool:
    return _TOKEN.search(text) is not None


def restore(html: str, fragments: Sequence[str | None], page: str = "the page") -> str:
    """`html` (the converted skeleton) with every token replaced by its fragment, each exactly once
    (and none of the fragments a block took in)."""
    placed = [0] * len(fragments)

    def place(match: re.Match[str]) -> str:
        index = int(match.group(1) or match.group(2))
        fragment = fragments[index] if index < len(fragments) else None
        if fragment is None:
            raise FragmentError(f"{page}: unknown or absorbed fragment {match.group(0)!r}")
        placed[index] += 1
        return fragment

    restored = _TOKEN.sub(place, html)
    wrong = [index for index, count in enumerate(placed) if count != (fragments[index] is not None)]
    if wrong:
        counts = ", ".join(f"#{index} {placed[index]} times" for index in wrong[:5])
        raise FragmentError(f"{page}: fragments placed other than once after conversion ({counts})")
    return restored
