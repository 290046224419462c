"""Where generated files end up on the site, mirroring MkDocs' rules, and links between them.

Links written inside raw HTML blocks are not rewritten by MkDocs, so they are computed here as
relative URLs; the tests crawl every built page to prove each one resolves.
"""

from __future__ import annotations

import posixpath


def page_url(src_uri: str, use_directory_urls: bool = True) -> str:
    """The site URL (relative to the root, '' for the home page) of a file in the docs tree."""
    stem, extension = posixpath.splitext(src_uri)
    if extension != ".md":
        return src_uri
    if not use_directory_urls:
        return stem + ".html"
    folder, name = posixpath.split(stem)
    if name in ("index", "README"):
        return f"{folder}/" if folder else ""
    return f"{stem}/"


def destination(src_uri: str, use_directory_urls: bool = True) -> str:
    """The file that a file of the docs tree becomes in the built site (`a/b.md` -> `a/b/index.html`)."""
    stem, extension = posixpath.splitext(src_uri)
    if extension != ".md":
        return src_uri
    folder, name = posixpath.split(stem)
    name = "index" if name == "README" else name
    # Joined by hand: asked for every output on every build (posixpath.join costs a tenth of a
    # rebuild at 3,000 recipes), and neither part is absolute or empty but the folder.
    within = f"{folder}/" if folder else ""
    if not use_directory_urls or name == "index":
        return f"{within}{name}.html"
    return f"{within}{name}/index.html"


def relative_url(from_url: str, to_url: str) -> str:
    """A link from the page at `from_url` to `to_url`, both relative to the site root."""
    base = from_url if from_url.endswith("/") or not from_url else posixpath.dirname(from_url) + "/"
    target, _, fragment = to_url.partition("#")
    relative = _relpath(target, base)
    if target.endswith("/") or not target:
        relative = "./" if relative == "." else relative + "/"
    return relative + (f"#{fragment}" if fragment else "")


def _relpath(target: str, base: str) -> str:
    """`posixpath.relpath('/' + target, '/' + base)`, without its normalising: a large catalogue
    makes tens of thousands of links, and URLs of the site hold no `.` or `..` segments (those
    still go the long way)."""
    to = [part for part in target.split("/") if part]
    start = [part for part in base.split("/") if part]
    if "." in to or ".." in to or "." in start or ".." in start:
        return posixpath.relpath("/" + target, "/" + base)
    common = 0
    for a, b in zip(to, start, strict=False):
        if a != b:
            break
        common += 1
    parts = [".."] * (len(start) - common) + to[common:]
    return "/".join(parts) if parts else "."
