"""Turning recipe text into page markup that shows exactly what the author wrote, and nothing more.

Recipe strings come from strangers and land in Markdown that MkDocs renders again, so every
string is encoded for the context it lands in:

- inline text (table cells, headings, paragraphs): every character that HTML or any Markdown
  extension could read as syntax becomes a numeric character reference, which Markdown passes
  through untouched and the browser shows as the character;
- code (launch script, environment): highlighted here and emitted as a raw HTML block, with the
  whitespace that Markdown's preprocessing would rewrite (tabs, blank-looking lines) encoded, so
  the text a reader copies is the text in the file;
- Markdown fields (notes): rendered here by a separate Markdown instance with raw HTML disabled,
  links limited to http(s) and mailto, and images turned into links so no page loads from
  another host.
"""

from __future__ import annotations

import html
import re
from urllib.parse import urlsplit
from xml.etree import ElementTree

import markdown
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor
from markupsafe import Markup
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name

_INLINE_ENTITIES = {
    "&": "&amp;",
    "<": "&lt;",
    ">": "&gt;",
    '"': "&quot;",
    "'": "&#39;",
    # Markdown syntax that can act mid-line (emphasis, code, links, attribute lists, table cells,
    # closing hashes of a heading). Templates never start a line with a value, so line-start
    # syntax (lists, quotes, fences) cannot trigger.
    **{char: f"&#{ord(char)};" for char in "\\`*_{}[]#|~^"},
    "\n": " ",
    "\t": " ",
}
_INLINE_TABLE = str.maketrans(_INLINE_ENTITIES)


def inline_text(value: object) -> Markup:
    """Text safe anywhere inline in Markdown: tables, headings, list items, raw HTML."""
    return Markup(str(value).translate(_INLINE_TABLE))


def html_text(value: object) -> Markup:
    """Text for raw HTML blocks and attribute values (always double-quoted in our templates).

    None becomes empty: an attribute holding a missing figure is present but blank.
    """
    return Markup("" if value is None else html.escape(str(value), quote=True))


_FORMATTER = HtmlFormatter(nowrap=True)  # building its style table is slow; it holds no state per block


def code_block(text: str, language: str = "bash") -> Markup:
    """A highlighted, copyable code block whose text content is exactly `text`."""
    lexer = get_lexer_by_name(language, stripnl=False, stripall=False, ensurenl=False)
    body = highlight(text, lexer, _FORMATTER) if text else ""
    if not _same_text(body, text):  # the lexer normalised something: show it unhighlighted
        body = html.escape(text, quote=False)
    body = _protect_whitespace(body)
    return Markup(
        f'<div class="language-{language} highlight" data-search-exclude>'
        f"<pre><span></span><code>{body}</code></pre></div>"
    )


def _same_text(highlighted: str, text: str) -> bool:
    return html.unescape(re.sub(r"<[^>]+>", "", highlighted)) == text


def _protect_whitespace(body: str) -> str:
    # Markdown expands tabs and empties lines that hold only spaces before it looks at HTML.
    body = body.replace("\t", "&#9;")
    return re.sub(r"(?m)^( +)$", lambda match: "&#32;" * len(match.group(1)), body)


class _SafeTree(Treeprocessor):
    """Links only to http(s) and mailto; images become links; headings sit below the page's own."""

    def run(self, root: ElementTree.Element) -> None:
        for parent in root.iter():
            for index, element in enumerate(list(parent)):
                if element.tag == "img":
                    replacement = ElementTree.Element("a", {"href": element.get("src", "")})
                    replacement.text = element.get("alt") or element.get("src", "image")
                    replacement.tail = element.tail
                    parent.remove(element)
                    parent.insert(index, replacement)
        for element in root.iter():
            if element.tag == "a":
                href = element.get("href", "")
                if _safe_href(href):
                    element.set("rel", "nofollow noopener")
                else:
                    element.attrib.pop("href", None)
                    element.attrib.pop("title", None)
            elif re.fullmatch(r"h[1-6]", element.tag):
                element.tag = f"h{min(6, int(element.tag[1]) + 3)}"


def _safe_href(href: str) -> bool:
    scheme = urlsplit(href.strip()).scheme.lower()
    return scheme in {"http", "https", "mailto"}


class _NoRawHtml(Extension):
    def extendMarkdown(self, md: markdown.Markdown) -> None:  # noqa: N802 (Python-Markdown's API)
        md.preprocessors.deregister("html_block")
        md.inlinePatterns.deregister("html")
        md.treeprocessors.register(_SafeTree(md), "openrecipes_safe_tree", 0)


_markdown = markdown.Markdown(extensions=[_NoRawHtml(), "sane_lists", "fenced_code", "tables"])


def markdown_html(text: str) -> Markup:
    """Markdown written by an author, rendered with raw HTML shown as text."""
    _markdown.reset()
    rendered = _markdown.convert(text)
    return Markup(f'<div class="or-prose">\n{_protect_whitespace(rendered)}\n</div>')
