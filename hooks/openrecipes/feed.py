"""An Atom feed of recipes, newest measurement first."""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape, quoteattr

from . import describe, fmt
from .catalogue import Entry


def atom_feed(entries: Sequence[tuple[Entry, str]], site_url: str | None) -> str:
    """`entries` are (entry, page URL relative to the site root), newest first.

    Dates come from the recipes (their measured dates), not the clock, so two builds of the
    same commit produce the same feed.
    """
    base = (site_url or "/").rstrip("/") + "/"
    updated = entries[0][0].recipe.fields.result.measured.isoformat() if entries else "1970-01-01"
    lines = [
        '<?xml version="1.0" encoding="utf-8"?>',
        f'<feed xmlns="http://www.w3.org/2005/Atom" xml:base={quoteattr(base)}>',
        "  <title>OpenRecipes: new training recipes</title>",
        "  <subtitle>LLM training recipes with recomputed MFU and cost, newest measurement first.</subtitle>",
        f"  <id>{escape(base)}feed.xml</id>",
        f'  <link rel="self" href={quoteattr(base + "feed.xml")}/>',
        f"  <link href={quoteattr(base)}/>",
        f"  <updated>{updated}T00:00:00Z</updated>",
    ]
    for entry, url in entries:
        f = entry.recipe.fields
        price = (
            "no public price" if f.result.usd_per_million_tokens is None else fmt.usd(f.result.usd_per_million_tokens)
        )
        summary = (
            f"{fmt.number(f.result.tokens_per_s_per_gpu, 1)} tokens/s per GPU, {price} per 1M tokens, "
            f"MFU {fmt.percent(f.result.mfu)}; {f.status}, correctness {f.correctness.result}. {f.layout.summary}"
        )
        lines += [
            "  <entry>",
            f"    <title>{escape(describe.title(entry.recipe))}</title>",
            f"    <id>urn:openrecipes:recipe:{escape(entry.recipe.id)}</id>",
            f"    <link href={quoteattr(base + url)}/>",
            f"    <updated>{f.result.measured.isoformat()}T00:00:00Z</updated>",
            f"    <author><name>{escape(f.author.name)}</name><uri>{escape(f.author.url)}</uri></author>",
            f"    <summary>{escape(summary)}</summary>",
            "  </entry>",
        ]
    lines.append("</feed>")
    return "\n".join(lines) + "\n"
