"""Whitespace between tags collapsed in a built page: the theme's templates are indented for
their authors, and that indentation was a tenth of a recipe page's HTML."""

from __future__ import annotations

import re

# Where whitespace is content: preformatted text (launch scripts, formulas), form text, and the
# bodies of scripts and styles. An element's name is matched whole (`<pre>`, not `<preview>`).
_VERBATIM = re.compile(r"(<(pre|textarea|script|style)\b.*?</\2\s*>)", re.S | re.I)
_LINE_BREAK_RUN = re.compile(r"[ \t\r]*\n[ \t\r\n]*")


def collapse_whitespace(html: str) -> str:
    """`html` with every run of whitespace that holds a line break, outside the elements whose
    whitespace is content, made one line break. The page renders the same: outside those
    elements, a browser shows any run of whitespace as at most one space."""
    parts = _VERBATIM.split(html)
    # split() gives: text, (element, its name, text)*
    for index in range(0, len(parts), 3):
        parts[index] = _LINE_BREAK_RUN.sub("\n", parts[index])
    return "".join(part for index, part in enumerate(parts) if index % 3 != 2)
