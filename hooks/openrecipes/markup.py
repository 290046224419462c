"""Recipe text rendered to HTML: exactly what the author wrote, and nothing more.

Every function here returns HTML that is final: `render.py` hands it to the page as a fragment
(see `fragments.py`), which the site's Markdown never reads. So:

- text becomes escaped HTML text;
- code (launch script, environment) is highlighted, and shows exactly the text written;
- Markdown fields (notes) are rendered by a separate Markdown instance with raw HTML disabled,
  links limited to http(s) and mailto, images turned into links so no page loads from another
  host, and headings pushed below the page's own.
"""

from __future__ import annotations

import html
import re
from urllib.parse import urlsplit
from xml.etree import ElementTree

import markdown
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name


def html_text(value: object) -> str:
    """Text as HTML, fit for element content and double-quoted attribute values; None is empty."""
    return "" if value is None else html.escape(str(value), quote=True)


_FORMATTER = HtmlFormatter(nowrap=True)  # building its style table is slow; it holds no state per block


def code_block(text: str, language: str = "bash", file: str | None = None) -> str:
    """A highlighted, copyable code block whose text content is exactly `text`; `file` names the
    download it is the text of (`launch.sh`), for readers and tests to find it by."""
    lexer = get_lexer_by_name(language, stripnl=False, stripall=False, ensurenl=False)
    body = highlight(text, lexer, _FORMATTER) if text else ""
    if not _same_text(body, text):  # the lexer normalised something: show it unhighlighted
        body = html.escape(text, quote=False)
    named = f' data-or-file="{html_text(file)}"' if file else ""
    return (
        f'<div class="language-{language} highlight" data-search-exclude{named}>'
        f"<pre><span></span><code>{body}</code></pre></div>"
    )


def _same_text(highlighted: str, text: str) -> bool:
    return html.unescape(re.sub(r"<[^>]+>", "", highlighted)) == text


class _SafeTree(Treeprocessor):
    """Only the attributes Markdown itself gives meaning to survive, checked.

    Links only to http(s) and mailto; images become links; headings sit below the page's own; no
    class, id or data attribute an author could aim at the page's scripts or styles.
    """

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
            kept = {name: value for name, value in element.attrib.items() if _allowed(element.tag, name, value)}
            element.attrib.clear()
            element.attrib.update(kept)
            if element.tag == "a" and "href" in kept:
                element.set("rel", "nofollow noopener")
            elif re.fullmatch(r"h[1-6]", element.tag):
                element.tag = f"h{min(6, int(element.tag[1]) + 3)}"


def _allowed(tag: str, name: str, value: str) -> bool:
    if tag == "a" and name == "href":
        return _safe_href(value)
    if tag == "a" and name == "title":
        return True
    if tag == "code" and name == "class":  # a fenced block's language
        return re.fullmatch(r"language-[A-Za-z0-9_+-]{1,40}", value) is not None
    if tag in ("th", "td") and name in ("align", "style"):  # table column alignment
        return re.fullmatch(r"(text-align: )?(left|right|center);?", value) is not None
    return tag == "ol" and name == "start" and value.isdigit()


def _safe_href(href: str) -> bool:
    scheme = urlsplit(href.strip()).scheme.lower()
    return scheme in {"http", "https", "mailto"}


class _NoRawHtml(Extension):
    def extendMarkdown(self, md: markdown.Markdown) -> None:  # noqa: N802 (Python-Markdown's API)
        md.preprocessors.deregister("html_block")
        md.inlinePatterns.deregister("html")
        md.treeprocessors.register(_SafeTree(md), "openrecipes_safe_tree", 0)


_markdown = markdown.Markdown(extensions=[_NoRawHtml(), "sane_lists", "fenced_code", "tables"])


def markdown_html(text: str) -> str:
    """Markdown written by an author, rendered with raw HTML shown as text."""
    _markdown.reset()
    return f'<div class="or-prose">\n{_markdown.convert(text)}\n</div>'


def markdown_inline_html(text: str) -> str:
    """A short Markdown text (a description) as inline HTML: its one paragraph without the `<p>`."""
    _markdown.reset()
    rendered = _markdown.convert(text)
    if rendered.startswith("<p>") and rendered.endswith("</p>") and rendered.count("<p>") == 1:
        return rendered[3:-4]
    return rendered
