"""Recipe text rendered to HTML: exactly what the author wrote, and nothing more.

Every function here returns HTML that is final: `render.py` hands it to the page as a fragment
(see `fragments.py`), which the site's Markdown never reads. So:

- text becomes escaped HTML text;
- code (launch script, environment) is highlighted, and shows exactly the text written;
- Markdown fields (notes) are rendered by markdown-it-py (CommonMark and tables, in time linear in
  the text) with raw HTML shown as text, links limited to http(s) and mailto, images turned into
  links so no page loads from another host, headings pushed below the page's own, and no
  attribute but those Markdown gives meaning to.
"""

from __future__ import annotations

import html
import re
from collections import OrderedDict
from collections.abc import Callable
from urllib.parse import urlsplit

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock, table
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
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


_LANGUAGE = re.compile(r"[A-Za-z0-9_+-]{1,40}")  # with fullmatch: a fenced block's language class
_ALIGN = re.compile(r"text-align: ?(left|right|center);?")  # with fullmatch: a table column's alignment
_SAFE_SCHEME = re.compile(r"(?:https?|mailto):", re.IGNORECASE)  # with match, on the stripped address

MAX_NESTING = 20
"""Block quotes and list items nested deeper than this are refused: markdown-it-py stops there (its
`maxNesting`, which keeps its recursion bounded) and would drop what is deeper without a word."""

MAX_TABLE_CELLS = 10_000
"""Cells of all the tables of one Markdown text. A table row has as many cells as its header has
columns, whatever it writes, so a wide header over short rows makes far more HTML than text (a
1,000-column header over 66 one-letter rows is 66,000 cells from 4 kB); a recipe's tables have tens."""

HTML_PER_CHARACTER = 16
HTML_SPARE = 1_024
"""A Markdown text may render to at most 16 characters of HTML per character written, and 1,024
more: a right-aligned table of one-digit cells written without spaces (`|1|2|3|`), about the
densest markup that reads as something, makes 15 (with spaces, 8.5; prose makes 1 to 2). What
makes more is a link reference used again and again, each use repeating its address (a 32 kB
address used 5,000 times is 160 MB of HTML), or a table of empty cells."""


_URL = re.compile(r"https?://[^\s<>\"'`\\]+", re.IGNORECASE)
"""An address written out in prose: http(s) only, up to the first space, quote or angle bracket."""
_TRAILING = frozenset(".,;:!?*'\"")
_BRACKETS = {")": "(", "]": "["}


def url_spans(text: str) -> list[tuple[int, int]]:
    """Where `text` writes out an http(s) address, as (start, end): the address a reader means, so
    the full stop or comma after it, and a closing bracket it does not open itself ("(see
    https://example.org/a)"), are not part of it; a bracket it opens is (".../Foo_(bar)"). Only
    addresses with a host; linear in the text. Plain text and Markdown notes both link with it."""
    spans = []
    for match in _URL.finditer(text):
        start, end = match.span()
        opened = {closing: text.count(opening, start, end) for closing, opening in _BRACKETS.items()}
        closed = {closing: text.count(closing, start, end) for closing in _BRACKETS}
        while end > start:
            last = text[end - 1]
            if last in _TRAILING:
                end -= 1
            elif last in _BRACKETS and closed[last] > opened[last]:
                closed[last] -= 1
                end -= 1
            else:
                break
        if _has_host(text[start:end]):
            spans.append((start, end))
    return spans


def _has_host(url: str) -> bool:
    try:
        return bool(urlsplit(url).hostname)
    except ValueError:  # a bracket that is no IPv6 address ("http://[x"): no address at all
        return False


def _link_html(url: str) -> str:
    return f'<a href="{html_text(url)}" rel="nofollow noopener">{html_text(url)}</a>'


def linked_text(value: object) -> str:
    """Prose as HTML text (`html_text`) with each address written out in it (`url_spans`) a link,
    rel="nofollow noopener": the one way plain-text notes reach a page with their links."""
    text = "" if value is None else str(value)
    parts, at = [], 0
    for start, end in url_spans(text):
        parts += [html_text(text[at:start]), _link_html(text[start:end])]
        at = end
    parts.append(html_text(text[at:]))
    return "".join(parts)


def _linkify(state: StateCore) -> None:
    """Markdown notes: an address written out in text (not in a link or code) becomes a link, as in
    plain-text notes (`url_spans`). markdown-it's own linkify needs linkify-it-py, whose fuzzy
    matching (addresses without http://) is what these notes must not have."""
    for block in state.tokens:
        if block.type != "inline" or not block.children:
            continue
        children, depth = [], 0
        for token in block.children:
            depth += 1 if token.type == "link_open" else -1 if token.type == "link_close" else 0
            spans = url_spans(token.content) if token.type == "text" and depth == 0 else []
            if not spans:
                children.append(token)
                continue
            at = 0
            for start, end in spans:
                children += _text_tokens(token.content[at:start])
                link = Token("link_open", "a", 1)
                link.attrs = {"href": token.content[start:end]}
                children += [link, *_text_tokens(token.content[start:end]), Token("link_close", "a", -1)]
                at = end
            children += _text_tokens(token.content[at:])
        block.children = children


def _text_tokens(content: str) -> list[Token]:
    if not content:
        return []
    token = Token("text", "", 0)
    token.content = content
    return [token]


def _safe_href(href: str) -> bool:
    """Only http(s) and mailto addresses: no javascript:, data:, relative or scheme-relative ones."""
    return _SAFE_SCHEME.match(href.strip()) is not None


class _RefusedError(Exception):
    """The text is one the renderer does not render: the message says why."""


_TABLE_CELLS = "openrecipes_table_cells"  # the cells so far, in the parse's env
_DASH_RUNS = re.compile(r"-+")


def _parser() -> MarkdownIt:
    """CommonMark with tables: no raw HTML or typographer, links checked as parsed, and addresses
    written out in text made links (`_linkify`: http(s) only, as in plain-text notes).

    markdown-it-py parses in time linear in the length of its input (delimiter runs, link labels
    and backtick runs are matched with bounded look-ups, and `maxNesting` caps the depth), which
    tests/test_bounded.py holds it to for every shape of text known to make Markdown parsers slow.
    Where its output is not bounded by its input (tables, link references) or it would drop text
    (nesting), the text is refused (`markdown_problem`).
    """
    md = MarkdownIt(
        "commonmark",
        {"html": False, "linkify": False, "typographer": False, "tasklists": False, "maxNesting": MAX_NESTING},
    )
    md.enable("table")
    # A link or image whose address is not http(s) or mailto is not a link: its Markdown is shown
    # as written (a reference definition to one is not a definition, an autolink to one is text).
    md.validateLink = _safe_href  # type: ignore[method-assign]
    md.block.ruler.at("table", _bounded_table(table), {"alt": ["paragraph", "reference"]})
    tokenize = md.block.tokenize

    def bounded_tokenize(state: StateBlock, start: int, end: int) -> None:
        line = state.skipEmptyLines(start)
        if state.level >= MAX_NESTING and line < end and state.sCount[line] >= state.blkIndent:
            raise _RefusedError(
                f"block quotes and lists nested more than {MAX_NESTING} levels deep (a list and each of its items "
                "are a level each); the renderer stops there and would drop what is deeper"
            )
        tokenize(state, start, end)

    md.block.tokenize = bounded_tokenize  # type: ignore[method-assign]
    md.core.ruler.push("openrecipes_linkify", _linkify)  # after text_join: each text is one token
    return md


def _bounded_table(table: Callable[[StateBlock, int, int, bool], bool]) -> Callable[..., bool]:
    """markdown-it-py's table rule, made to stop at `MAX_TABLE_CELLS` cells of the whole text.

    The rule is given no more rows than the cells left allow, and one more: a table that fills them
    is one that goes past the limit. Cut short that way, it never makes more than a row of cells
    beyond the limit (the rule's own limit, 65,536 cells a table, holds for each table alone).
    """

    def bounded(state: StateBlock, start: int, end: int, silent: bool) -> bool:
        if silent or not table(state, start, end, True):
            return table(state, start, end, silent) if silent else False
        delimiter = state.src[state.bMarks[start + 1] + state.tShift[start + 1] : state.eMarks[start + 1]]
        columns = max(1, len(_DASH_RUNS.findall(delimiter)))  # one run of dashes per column: `:--:`
        used = state.env.get(_TABLE_CELLS, 0)
        rows = (MAX_TABLE_CELLS - used) // columns - 1  # the body rows the cells left allow
        before = len(state.tokens)
        if rows >= 0 and not table(state, start, min(end, start + 2 + rows + 1), False):
            return False
        cells = sum(1 for token in state.tokens[before:] if token.type in ("th_open", "td_open"))
        state.env[_TABLE_CELLS] = used + (cells if rows >= 0 else columns)
        if state.env[_TABLE_CELLS] > MAX_TABLE_CELLS:
            raise _RefusedError(
                f"its tables have more than {MAX_TABLE_CELLS:,} cells (here a table of {columns:,} columns; every "
                "row has a cell for each column of its header, written or not); shorten or split the tables"
            )
        return True

    return bounded


_md = _parser()


def _safe_tokens(tokens: list[Token]) -> None:
    """Only the attributes Markdown itself gives meaning to survive, checked (in place).

    Links only to http(s) and mailto, with rel="nofollow noopener"; images become links to their
    address with their text; headings sit three levels below the page's own; a fenced block's
    language only as a plain `language-` class; no class, id or data attribute an author could aim
    at the page's scripts or styles.
    """
    for token in tokens:
        if token.type == "inline":
            token.children = _safe_inline(token.children or [])
            continue
        if token.type == "html_block":  # never made with html off; were it, it would be shown as text
            token.type = "text"
        attrs = token.attrs
        token.attrs = {}
        token.meta = {}  # a list item's meta could hold a task-list checkbox
        if token.type in ("heading_open", "heading_close"):
            token.tag = f"h{min(6, int(token.tag[1]) + 3)}"
        elif token.type == "fence":
            language = token.info.split(maxsplit=1)[0] if token.info.strip() else ""
            token.info = language if _LANGUAGE.fullmatch(language) else ""
        elif token.type in ("th_open", "td_open"):
            style = attrs.get("style")
            if isinstance(style, str) and _ALIGN.fullmatch(style):
                token.attrs = {"style": style}
        elif token.type == "ordered_list_open":
            start = attrs.get("start")
            if isinstance(start, int) and start >= 0:
                token.attrs = {"start": start}


def _safe_inline(children: list[Token]) -> list[Token]:
    safe: list[Token] = []
    for token in children:
        if token.type == "image":
            safe += _image_as_link(token)
            continue
        if token.type == "html_inline":  # as html_block above
            token.type = "text"
        attrs = token.attrs
        token.attrs = {}
        token.meta = {}
        if token.type == "link_open":
            href, title = attrs.get("href"), attrs.get("title")
            if isinstance(href, str) and href and _safe_href(href):
                token.attrs["href"] = href
                if isinstance(title, str) and title:
                    token.attrs["title"] = title
                token.attrs["rel"] = "nofollow noopener"
        safe.append(token)
    return safe


def _image_as_link(image: Token) -> list[Token]:
    """`![alt](src)` as a link to src reading alt (or src): no page loads from another host."""
    src = image.attrs.get("src")
    src = src if isinstance(src, str) and _safe_href(src) else ""
    alt = _md.renderer.renderInlineAsText(image.children or [], _md.options, {})
    link = Token("link_open", "a", 1)
    if src:
        link.attrs = {"href": src, "rel": "nofollow noopener"}
    text = Token("text", "", 0)
    text.content = alt or src or "image"
    return [link, text, Token("link_close", "a", -1)]


def _least_html(tokens: list[Token]) -> int:
    """A lower bound on the length of the HTML `tokens` render to, found without rendering: their
    text and attribute values, which escaping only lengthens."""
    total = 0
    for token in tokens:
        if token.children:
            total += _least_html(token.children)
        elif token.type != "inline":  # an inline token's content is its children's
            total += len(token.content)
        for value in token.attrs.values():
            total += len(str(value))
    return total


def _checked(text: str) -> tuple[str | None, str]:
    """(why `text` is refused, or None; its HTML, or "" when refused)."""
    env: dict[str, object] = {}
    try:
        tokens = _md.parse(text, env)
    except _RefusedError as error:
        return str(error), ""
    _safe_tokens(tokens)
    limit = HTML_PER_CHARACTER * len(text) + HTML_SPARE
    least = _least_html(tokens)
    rendered = _md.renderer.render(tokens, _md.options, env) if least <= limit else ""
    if least > limit or len(rendered) > limit:
        size = max(least, len(rendered))
        return (
            f"renders to {size:,} characters of HTML or more, over the limit of {HTML_PER_CHARACTER} per character "
            f"written and {HTML_SPARE:,} more ({limit:,}); a link reference repeats its address at every use, "
            "and a table row has a cell for each column"
        ), ""
    return None, rendered


class _Rendered:
    """The last texts checked and their HTML: the build checks every Markdown field when it loads
    the recipes and renders it afterwards (in a worker forked with this process's memory), so each
    is parsed once. Bounded in entries and in characters held."""

    ENTRIES = 4096
    CHARACTERS = 32 * 1024 * 1024

    def __init__(self) -> None:
        self._held: OrderedDict[str, tuple[str | None, str]] = OrderedDict()
        self._characters = 0

    def get(self, text: str) -> tuple[str | None, str]:
        found = self._held.get(text)
        if found is not None:
            self._held.move_to_end(text)
            return found
        found = _checked(text)
        self._held[text] = found
        self._characters += len(text) + len(found[1])
        while self._held and (len(self._held) > self.ENTRIES or self._characters > self.CHARACTERS):
            old_text, (_, old_html) = self._held.popitem(last=False)
            self._characters -= len(old_text) + len(old_html)
        return found


_rendered = _Rendered()


def markdown_problem(text: str) -> str | None:
    """Why the renderer refuses `text` (a Markdown field's value), or None: what validation reports,
    as `$.notes: <reason>`."""
    return _rendered.get(text)[0]


def markdown_html(text: str) -> str:
    """Markdown written by an author, rendered with raw HTML shown as text. A text that
    `markdown_problem` refuses is never rendered (the loader refused its recipe): ValueError."""
    problem, rendered = _rendered.get(text)
    if problem is not None:
        raise ValueError(f"Markdown refused: {problem}")
    return f'<div class="or-prose">\n{rendered}</div>'


def markdown_inline_html(text: str) -> str:
    """A short Markdown text (a description) as inline HTML: its one paragraph without the `<p>`."""
    problem, rendered = _rendered.get(text)
    if problem is not None:
        raise ValueError(f"Markdown refused: {problem}")
    rendered = rendered.strip()
    if rendered.startswith("<p>") and rendered.endswith("</p>") and rendered.count("<p>") == 1:
        return rendered[3:-4]
    return rendered
