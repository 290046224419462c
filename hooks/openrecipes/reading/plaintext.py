"""Rules for text that names things: what a reference name or a line of prose may hold.

Reference data (`reference/*.yaml`) comes by pull request like recipes, and its names reach
places no fragment covers: page titles, the header, meta descriptions, the search index, chart
legends, file and page addresses. The reader (`yamlsource.py`) already refuses invisible, bidi,
control and private-use code points everywhere. These rules go further for names, so a name
reads as what it is and compares as what it reads:

- a **name** (`name`, `vendor`, `provider`, `region`) is printable text without the characters
  markup gives meaning to (`< > & " ' ``), in one script, and unchanged by Unicode compatibility
  normalisation (NFKC), which maps look-alikes such as fullwidth `Ｈ` or mathematical `𝐇` to the
  letter they imitate;
- **prose** (`source`, `notes`) may hold any printable character, but no word mixes scripts: a
  Latin word with one Cyrillic letter (`Н200`) is the classic look-alike.

They are JSON Schema formats (`schema/reference.schema.yaml` declares which field has which),
checked by `schema.py` with the message returned here.
"""

from __future__ import annotations

import re
import unicodedata

MARKUP_CHARACTERS = "<>&\"'`"

_WORD = re.compile(r"\w+")


def script(char: str) -> str | None:
    """The script of a letter, as the first word of its Unicode name (`LATIN`, `CYRILLIC`,
    `GREEK`, `CJK`...); None for what is not a letter (digits, punctuation, marks, spaces), which
    every script shares. Python has no script property; the name's first word is that, for every
    alphabet a GPU, cloud or model is named in."""
    if not unicodedata.category(char).startswith("L"):
        return None
    name = unicodedata.name(char, "")
    return name.split(" ", 1)[0] if name else "UNNAMED"


def _scripts(text: str) -> list[str]:
    seen: list[str] = []
    for char in text:
        found = script(char)
        if found is not None and found not in seen:
            seen.append(found)
    return seen


def name_problem(text: str) -> str | None:
    """Why `text` cannot be a name, or None when it can."""
    markup = sorted({char for char in text if char in MARKUP_CHARACTERS})
    if markup:
        shown = " ".join(markup)
        return f"holds {shown}: a name is plain text, without the characters markup gives meaning to"
    normal = unicodedata.normalize("NFKC", text)
    if normal != text:
        odd = next(char for char in text if unicodedata.normalize("NFKC", char) != char)
        return (
            f"holds U+{ord(odd):04X} ({unicodedata.name(odd, 'unnamed')}), a look-alike of "
            f"{unicodedata.normalize('NFKC', odd)!r}; write {normal!r}"
        )
    scripts = _scripts(text)
    if len(scripts) > 1:
        return f"mixes scripts ({', '.join(s.title() for s in scripts)}): write a name in one script"
    if text != text.strip() or "  " in text:
        return "has leading, trailing or doubled spaces"
    return None


def prose_problem(text: str) -> str | None:
    """Why `text` cannot be prose (a source or a note), or None when it can."""
    for word in _WORD.finditer(text):
        scripts = _scripts(word.group())
        if len(scripts) > 1:
            return (
                f"has the word {word.group()!r}, which mixes scripts ({', '.join(s.title() for s in scripts)}) "
                "as a look-alike does: write it in one script"
            )
    return None
