"""Page bodies from templates: Markdown with raw HTML where Markdown cannot say it.

Recipe values are never template source. Every `{{ expression }}` is encoded as inline text by
the environment's `finalize` unless a filter already produced trusted markup, so a template that
forgets a filter still shows text, never markup.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from . import describe, fmt
from .markup import code_block, html_text, inline_text, markdown_html

TEMPLATES_DIR = Path(__file__).parent / "templates"


def _finalize(value: Any) -> Any:
    if isinstance(value, Markup):
        return value
    if value is None:
        return ""
    return inline_text(value)


def _trusted(function: Any) -> Any:
    """Our number formatting cannot produce markup; mark it so `finalize` leaves it readable."""
    return lambda *args, **kwargs: Markup(function(*args, **kwargs))


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
    env.filters.update(
        attr=html_text,
        code=code_block,
        markdown=markdown_html,
        json_string=lambda value: Markup(json.dumps(str(value))),
        number=_trusted(fmt.number),
        usd=_trusted(fmt.usd),
        percent=_trusted(fmt.percent),
        as_written=_trusted(fmt.as_written),
    )
    env.globals.update(describe=describe)
    return env


def render(env: jinja2.Environment, template: str, **context: Any) -> str:
    return env.get_template(template).render(**context)
