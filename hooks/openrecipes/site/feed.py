"""An Atom feed of recipes, newest measurement first."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Callable, Sequence

from .. import describe, fmt
from ..loader import Entry
from . import facts

ATOM = "http://www.w3.org/2005/Atom"
XML_BASE = "{http://www.w3.org/XML/1998/namespace}base"

NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
"""Characters XML 1.0 forbids (most C0 controls, lone surrogates, U+FFFE, U+FFFF). ElementTree
escapes markup but writes these as they are, and a feed reader then rejects the whole feed."""


def xml_text(text: str) -> str:
    """`text` with every character XML 1.0 forbids replaced by U+FFFD, so a reader sees that
    something was there (the loader refuses such recipes; this keeps the feed well-formed anyway)."""
    return NOT_XML.sub("\ufffd", text)


def _add(parent: ElementTree.Element, tag: str, text: str | None = None, **attributes: str) -> ElementTree.Element:
    element = ElementTree.SubElement(parent, tag, {name: xml_text(value) for name, value in attributes.items()})
    if text is not None:
        element.text = xml_text(text)
    return element


def _date(day_iso: str) -> str:
    # Recipes are measured on a day; Atom wants a date-time.
    return f"{day_iso}T00:00:00Z"


def atom_feed(
    entries: Sequence[tuple[Entry, str]],
    site_url: str | None,
    entry_xml: Callable[[Entry, str, str], str] | None = None,
) -> str:
    """`entries` are (entry, page URL relative to the site root), newest first.

    Dates come from the recipes (the run's date, else the source's: describe.dated), not the
    clock, so two builds of the same commit produce the same feed. Each entry is written on its
    own (`entry_xml`, which a caller may remember per recipe: `mkdocs serve` writes again only the
    entry of an edited recipe), exactly as ElementTree writes it inside the indented feed.
    """
    base = (site_url or "/").rstrip("/") + "/"
    updated = describe.dated(entries[0][0].recipe.fields).isoformat() if entries else "1970-01-01"
    # Atom is the default namespace, declared on the root, and the elements are left unqualified:
    # ElementTree's own default_namespace= refuses unqualified attributes (href, rel), which
    # Atom's are. The parsed feed is the same either way.
    feed = ElementTree.Element("feed", {"xmlns": ATOM, XML_BASE: xml_text(base)})
    _add(feed, "title", "OpenRecipes: new training recipes")
    _add(feed, "subtitle", "LLM training recipes with recomputed MFU and cost, newest measurement first.")
    _add(feed, "id", f"{base}feed.xml")
    _add(feed, "link", rel="self", href=f"{base}feed.xml")
    _add(feed, "link", href=base)
    _add(feed, "updated", _date(updated))
    ElementTree.indent(feed, space="  ")
    # Bytes, not encoding="unicode": for "unicode" the declaration names the locale's encoding,
    # which would make the file differ between machines. MkDocs writes the text as UTF-8.
    head = ElementTree.tostring(feed, encoding="utf-8", xml_declaration=True).decode("utf-8")
    head = head.removesuffix("\n</feed>")
    write = entry_xml or entry_xml_text
    items = "".join(f"\n  {write(entry, url, base)}" for entry, url in entries)
    return f"{head}{items}\n</feed>\n"


def _derived(entry: Entry) -> str:
    """After a throughput derived from a publisher's figure: what it is derived from."""
    source = entry.derived.tokens_from
    return "" if source is None else f" {facts.DERIVED} from the publisher's {source.label}"


def entry_xml_text(entry: Entry, url: str, base: str) -> str:
    """One `<entry>` as it stands in the feed, indented one level, without what follows it."""
    f, derived = entry.recipe.fields, entry.derived
    price = facts.BY_KEY["usd"].text(entry) + " per 1M tokens"
    if derived.basis is not None and derived.usd_per_million_tokens is not None:
        price += f" at the price basis ({derived.basis.instance.key})"
    mfu = facts.BY_KEY["mfu"].text(entry)
    correctness = f", correctness {f.correctness.result}" if f.correctness else ""
    method = describe.method_name(derived.method) if derived.method else "method not stated"
    summary = (
        f"{method}: {fmt.as_written(f.result.tokens_per_s_per_gpu)} tokens/s per GPU{_derived(entry)}, {price}, "
        f"MFU {mfu}; {f.status}{correctness}. {f.layout.summary or derived.label}"
    )
    item = ElementTree.Element("entry")
    _add(item, "title", describe.title(entry.recipe))
    _add(item, "id", f"urn:openrecipes:recipe:{entry.recipe.id}")
    _add(item, "link", href=base + url)
    _add(item, "updated", _date(describe.dated(f).isoformat()))
    credited = f.author or f.source
    author = _add(item, "author")
    _add(author, "name", f.author.name if f.author else (f.source.publisher or "the publisher"))
    _add(author, "uri", f.author.url if f.author else credited.url)
    _add(item, "summary", summary)
    ElementTree.indent(item, space="  ", level=1)
    return ElementTree.tostring(item, encoding="unicode")
