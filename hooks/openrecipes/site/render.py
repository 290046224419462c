"""Page bodies from templates: a Markdown skeleton of our own, with every value kept out of it.

Templates are ours; values are not (recipes and reference data come by pull request). Values are
never template source, and every `{{ expression }}` that is not already trusted markup becomes a
fragment (see `fragments.py`): escaped HTML that MkDocs' Markdown never reads, put back after
conversion. Filters choose how a value is rendered (`code`, `markdown`, `attr` for a raw HTML
attribute's value, `attributes` for the attributes a page script finds an element by); a
template that forgets a filter still shows text, never markup.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
import yaml
from markupsafe import Markup

from .. import describe, flops, fmt
from ..checking import flags
from ..markup import code_block, html_text, linked_text, markdown_html, markdown_inline_html
from . import facts
from .fragments import FragmentError, block, collecting, fragment, holds_token, restore

TEMPLATES_DIR = Path(__file__).parent.parent / "templates"
_FRONT_MATTER = "---\n"


@dataclass(frozen=True)
class RenderedPage:
    """A generated page: its front matter, its Markdown skeleton and the HTML its tokens stand for."""

    meta: Mapping[str, Any]
    markdown: str
    fragments: tuple[str | None, ...]

    def inline_markdown(self) -> str:
        """The page as one Markdown file with the fragments written in place, as a hand-written
        page holding the same HTML would be. Only for the benchmark's plain site: Markdown would
        read the fragments again, which is exactly what the catalogue never lets it do."""
        front = yaml.safe_dump(dict(self.meta), allow_unicode=True, sort_keys=False) if self.meta else ""
        body = restore(self.markdown, self.fragments)
        return f"{_FRONT_MATTER}{front}{_FRONT_MATTER}{body}" if front else body


def _at_render_time(function: Any) -> Any:
    """`function` made a context filter, which Jinja never calls while compiling: given constant
    arguments (`{{ "Dataset" | heading(3) }}`), it would otherwise make the fragment once, when the
    template is compiled, and every page rendered with it would hold that page's token."""

    @jinja2.pass_context
    def at_render(context: Any, *args: Any, **kwargs: Any) -> Any:
        return function(*args, **kwargs)

    return at_render


@_at_render_time
def _finalize(value: Any) -> Any:
    if isinstance(value, Markup):
        return value
    if value is None:
        return ""
    return fragment(html_text(value))


def _trusted(function: Any) -> Any:
    """Our number formatting cannot produce markup; mark it so `finalize` leaves it in the skeleton."""
    return lambda *args, **kwargs: Markup(function(*args, **kwargs))


def _heading(value: Any, level: int = 1, anchor: str | None = None, search: bool = True) -> Markup:
    """A heading holding a value: HTML in a fragment, so it stays out of the table of contents
    (`search=False`: its section stays out of the search index too)."""
    ident = f' id="{html_text(anchor)}"' if anchor else ""
    excluded = "" if search else " data-search-exclude"
    return fragment(f"<h{level}{ident}{excluded}>{html_text(value)}</h{level}>")


_ATTRIBUTE_NAME = re.compile(r"[a-z][a-z-]*")


def _attributes(pairs: Iterable[tuple[str, Any]]) -> str:
    """` name="value"` for each (name, value), ` name` alone where the value is None: the names are
    ours (facts.Attributes), the values escaped as `attr` escapes them."""
    written = []
    for name, value in pairs:
        if not _ATTRIBUTE_NAME.fullmatch(name):
            raise ValueError(f"{name!r} is not an attribute name of ours")
        written.append(f" {name}" if value is None else f' {name}="{html_text(value)}"')
    return "".join(written)


def environment(templates_dir: Path = TEMPLATES_DIR) -> jinja2.Environment:
    """A fresh environment: `mkdocs serve` picks up template edits on the next build."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(templates_dir),
        undefined=jinja2.StrictUndefined,
        finalize=_finalize,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    # Every filter that makes a fragment runs while a page renders (see _at_render_time).
    fragments = {
        "attr": lambda value: fragment(html_text(value)),
        "attributes": lambda pairs: fragment(_attributes(pairs)),
        "code": lambda text, language="bash", file=None: fragment(code_block(text, language, file)),
        "markdown": lambda text: fragment(markdown_html(text)),
        "inline_markdown": lambda text: fragment(markdown_inline_html(text)),
        "code_text": lambda text: fragment(f"<code>{html_text(text)}</code>"),
        "linked": lambda text: fragment(linked_text(text)),  # prose whose http(s) addresses are links
        "heading": _heading,
        "block": block,
    }
    env.filters.update({name: _at_render_time(function) for name, function in fragments.items()})
    env.filters.update(
        json_string=lambda value: Markup(json.dumps(str(value))),
        number=_trusted(fmt.number),
        usd=_trusted(fmt.usd),
        percent=_trusted(fmt.percent),
        as_written=_trusted(fmt.as_written),
    )
    env.globals.update(describe=describe, facts=facts, flags=flags, flops=flops)
    return env


@functools.cache
def shared_environment(templates_dir: Path = TEMPLATES_DIR) -> jinja2.Environment:
    """One environment for every build of a process: `mkdocs serve` rebuilds would otherwise
    compile every template again (a fifth of a rebuild). Jinja checks each template file's time
    whenever it is used, so an edited template is still picked up on the next build."""
    return environment(templates_dir)


def render(env: jinja2.Environment, template: str, **context: Any) -> RenderedPage:
    """Render a page template: front matter (YAML between `---` lines), skeleton and fragments."""
    with collecting() as fragments:
        text = env.get_template(template).render(**context)
    meta: Mapping[str, Any] = {}
    if text.startswith(_FRONT_MATTER):
        end = text.index("\n" + _FRONT_MATTER, len(_FRONT_MATTER) - 1)
        meta = yaml.load(text[len(_FRONT_MATTER) : end + 1], Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        text = text[end + 1 + len(_FRONT_MATTER) :]
    if holds_token(json.dumps(meta, default=str)):
        raise FragmentError(f"{template}: a value reached the front matter without the json_string filter")
    return RenderedPage(meta or {}, text, tuple(fragments.html))
