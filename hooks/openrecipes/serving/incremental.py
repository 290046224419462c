"""The generated files of one build, and what `mkdocs serve --dirty` keeps between builds.

A build hands MkDocs every output of the plan (site.py). `mkdocs build` renders them while MkDocs
converts the pages already rendered (pagerender.py). Under `mkdocs serve --dirty`, an edit of one
recipe must rebuild only what it changes, and the served site must stay exactly what a full build
makes. MkDocs' dirty mode rebuilds a page only when its source file is newer than the page it
wrote, and a generated file has no source file: `File.generated(content=...)` always counts as
changed, so one edit would rebuild every page. So here:

- an output unchanged since the last build is given to MkDocs as a copy of one empty file dated
  1970, outside docs/: older than the page it wrote, so MkDocs leaves that page alone; a changed
  one is given as text (`content`), which MkDocs always writes;
- an output is made again only when its inputs changed (`Output.inputs`, and what every output
  reads: the templates, the schema, the reference data, the date, the URLs); recipes whose bytes
  are unchanged are not even checked again (loader.LoadMemo), nor their records, rows and feed
  entries made again (pieces.Pieces);
- what dirty mode gets wrong is put right: the search index (the search plugin indexes only the
  pages rebuilt) is written whole from every page's entries, kept per page; files a full build
  would no longer write (a removed recipe's) are deleted; and a change MkDocs cannot see page by
  page (mkdocs.yml, overrides/, a docs file added or removed, a failed build) empties the site so
  that the next build is a full one.

That file lives in a folder of its own for the life of the server.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..loader import LoadMemo, collector_paused
from ..reading.schema import SCHEMA_RELATIVE_PATH
from ..site import csp
from ..site.outputs import Output
from ..site.pieces import Pieces
from ..site.plan import SitePlan
from ..site.render import TEMPLATES_DIR, RenderedPage
from ..site.urls import destination
from .pagerender import Renderer, renderer

SEARCH_INDEX = "search/search_index.json"
SearchEntry = Mapping[str, Any]


@dataclass(frozen=True)
class GeneratedFile:
    """One output as MkDocs gets it: a file to read or copy (`source`), or text to write
    (`content`; empty until the output is made, for a page or a text made while MkDocs works)."""

    src_uri: str
    source: Path | None
    content: str | bytes | None
    edit_path: str | None


def _digest(value: RenderedPage | str | bytes) -> str:
    """What an output holds, as a digest: equal digests, equal files in the site."""
    if isinstance(value, RenderedPage):
        text = json.dumps([value.meta, value.markdown, value.fragments], sort_keys=True, default=str)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()
    return hashlib.sha256(value.encode("utf-8") if isinstance(value, str) else value).hexdigest()


def _with_digest(render: Callable[[], Any]) -> tuple[Any, str]:
    value = render()
    return value, _digest(value)


@dataclass
class _Made:
    key: str
    digest: str


class Rebuilds:
    """What `mkdocs serve --dirty` keeps from one build to the next (see the module's description)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.loads = LoadMemo()
        self.pieces = Pieces()
        self._made: dict[str, _Made] = {}
        self._written: set[str] = set()  # files of the site, as the last complete build wrote them
        self._search: dict[str, list[SearchEntry]] | None = None  # page URL -> its search entries
        self._seen: tuple[object, ...] | None = None
        self._theme: tuple[Hashable, Any] | None = None
        self._complete = False
        self.unchanged = folder / "unchanged"
        """What an unchanged output is given to MkDocs as: empty, and older than any page MkDocs wrote."""

    def start(self, root: Path, config_file: Path, docs_dir: Path, site_dir: Path) -> bool:
        """At the start of a build: empties the site when this build must be a full one; whether it did."""
        seen = _unseen_inputs(root, config_file, docs_dir)
        full = self._seen is not None and (seen != self._seen or not self._complete)
        if full:
            _empty(site_dir)
            self._written.clear()
        self._seen, self._complete = seen, False
        return full

    @property
    def built_before(self) -> bool:
        """Whether a build has started before: the next is a rebuild."""
        return self._seen is not None

    @property
    def indexes_pages(self) -> bool:
        """Whether this build hands over the search entries of the pages it rebuilds. The first
        build does not need to: the search plugin's index of it is complete."""
        return self._search is not None

    def finish(
        self,
        site_dir: Path,
        written: Iterable[str],
        pages: Sequence[str],
        fresh: Mapping[str, list[SearchEntry]],
        made: Mapping[str, _Made],
    ) -> None:
        """After a build that succeeded: `written` are the files MkDocs wrote or kept (paths in
        the site), `pages` the URLs of every page in the order MkDocs built them, `fresh` the
        search entries of the pages rebuilt, `made` what each output was made from."""
        written = set(written)
        for stale in sorted(self._written - written, reverse=True):
            _remove(site_dir, stale)
        self._written = written
        self._made = dict(made)
        index = site_dir / SEARCH_INDEX
        if not index.is_file():  # no search plugin (or not the theme's): nothing to keep
            self._search = None
        elif self._search is None:
            self._search = _entries_by_page(index)
        else:
            self._search.update(fresh)
            _write_search_index(index, pages, self._search)
        if self._search is not None:
            self._search = {url: self._search.get(url, []) for url in pages}
        self._complete = True

    def theme_environment(self, fresh: Any, theme: Hashable) -> Any:
        """The theme's template environment of the last build when the theme (`theme`: its
        folders and language) and the files it is read from are the same: MkDocs makes a new one
        for every build, and compiling the theme's templates again took a fifth of a rebuild."""
        key = (theme, self._seen)
        if self._theme is None or self._theme[0] != key:
            self._theme = (key, fresh)
        return self._theme[1]

    def made(self, src_uri: str) -> _Made | None:
        return self._made.get(src_uri)

    def wrote(self, dest_uri: str) -> bool:
        """Whether the last complete build left `dest_uri` in the site."""
        return dest_uri in self._written

    def unchanged_file(self) -> Path:
        """`unchanged`, made if it is missing (dated 1970: MkDocs compares times, not contents)."""
        if not self.unchanged.is_file():
            self.folder.mkdir(parents=True, exist_ok=True)
            self.unchanged.write_bytes(b"")
            os.utime(self.unchanged, (0, 0))
        return self.unchanged


class Generation:
    """The outputs of one build: which files MkDocs gets, and what each holds when MkDocs asks.

    `rebuilds` is None for a plain build. `parallel` allows rendering in a forked worker while
    MkDocs works (pagerender.py: only where that is safe).
    """

    def __init__(
        self,
        plan: SitePlan,
        *,
        root: Path,
        use_directory_urls: bool,
        site_url: str | None,
        rebuilds: Rebuilds | None,
        parallel: bool,
    ) -> None:
        self._plan = plan
        self._rebuilds = rebuilds
        self._use_directory_urls = use_directory_urls
        self._by_src = {output.src_uri: output for output in plan.outputs}
        self._ready: dict[str, Any] = {}  # made in this build, before MkDocs asks for it
        self._late: list[str] = []  # outputs MkDocs gets as text once it has read every page
        self._made: dict[str, _Made] = {}
        self._keys: dict[str, str] = {}
        self._files: list[GeneratedFile] = []
        self._left_on_site: list[str] = []
        self._rendering: Renderer | None = None
        self._index_of: dict[str, int] = {}
        self._pieces_index: int | None = None
        if rebuilds is not None:
            self._keys = _keys(plan, root, use_directory_urls, site_url)
        if rebuilds is None or not _any_made(rebuilds, plan):
            self._plan_all_late(parallel=parallel, digests=rebuilds is not None)
        else:
            with collector_paused():
                self._plan_changed_only(rebuilds)

    def files(self) -> list[GeneratedFile]:
        return self._files

    def owns(self, src_uri: str) -> bool:
        return src_uri in self._by_src

    def page(self, src_uri: str) -> RenderedPage:
        """The rendered page MkDocs asks for (it reads pages in order, then the other files)."""
        value = self._value(src_uri)
        assert isinstance(value, RenderedPage)
        return value

    def late_texts(self) -> Iterator[tuple[str, str]]:
        """Once every page is read: the other outputs MkDocs writes from text made meanwhile."""
        for src_uri in self._late:
            if not src_uri.endswith(".md"):
                value = self._value(src_uri)
                assert isinstance(value, str)
                yield src_uri, value
        if self._pieces_index is not None and self._rendering is not None and self._rebuilds is not None:
            self._rebuilds.pieces.adopt(self._rendering.get(self._pieces_index), self._plan.catalogue.entries)

    def made(self) -> dict[str, _Made]:
        """What each output was made from and holds, for the next build."""
        return self._made

    def close(self) -> None:
        if self._rendering is not None:
            self._rendering.close()
            self._rendering = None

    # -- planning -------------------------------------------------------------------------------

    def _plan_all_late(self, *, parallel: bool, digests: bool) -> None:
        """Every output made while MkDocs works, in the order it asks for them: every page's
        Markdown first, then the other files (with digests, under serve, for the next build)."""
        rendered = sorted(
            (output for output in self._plan.outputs if output.render is not None),
            key=lambda output: not output.src_uri.endswith(".md"),
        )
        pages = [output for output in rendered if output.src_uri.endswith(".md")]
        others = rendered[len(pages) :]
        renders: list[Callable[[], Any]] = [output.render for output in rendered]  # type: ignore[misc]
        index_of = {output.src_uri: index for index, output in enumerate(rendered)}
        if digests and self._rebuilds is not None:
            renders = [_bound(_with_digest, render) for render in renders]
            # After the pages, so after the other files too (those are made first, in the
            # background): what the worker made from each recipe, so that the next build makes
            # only an edited recipe's records, rows and feed entries.
            self._pieces_index = len(pages)
            renders.insert(len(pages), self._rebuilds.pieces.export)
            index_of.update({output.src_uri: len(pages) + 1 + index for index, output in enumerate(others)})
        self._rendering = renderer(renders, parallel=parallel, background=len(others))
        self._index_of = index_of
        self._late = [output.src_uri for output in rendered]
        for output in self._plan.outputs:
            if output.copy_of is not None:
                self._files.append(GeneratedFile(output.src_uri, output.copy_of, None, output.edit_path))
                if self._rebuilds is not None:
                    self._made[output.src_uri] = _Made(self._keys[output.src_uri], "")
            else:
                self._files.append(GeneratedFile(output.src_uri, None, "", output.edit_path))

    def _plan_changed_only(self, rebuilds: Rebuilds) -> None:
        """Outputs whose inputs are unchanged and whose file the site still has are left alone;
        the others are made now, and MkDocs rebuilds only those whose text changed."""
        unchanged = rebuilds.unchanged_file()
        rebuilds.pieces.keep_only(self._plan.catalogue.entries)
        for output in self._plan.outputs:
            src_uri, key = output.src_uri, self._keys[output.src_uri]
            before = rebuilds.made(src_uri)
            # The last build's files, as MkDocs listed them: no look at the disk for each output.
            on_site = rebuilds.wrote(destination(src_uri, self._use_directory_urls))
            kept = before is not None and on_site
            if output.copy_of is not None:
                self._made[src_uri] = _Made(key, "")
                if kept and before.key == key:
                    self._keep(output, unchanged)
                else:  # written whatever the file times say
                    self._files.append(GeneratedFile(src_uri, None, output.copy_of.read_bytes(), output.edit_path))
                continue
            if kept and before.key == key:
                self._made[src_uri] = before
                self._keep(output, unchanged)
                continue
            assert output.render is not None
            value = output.render()
            digest = _digest(value)
            self._made[src_uri] = _Made(key, digest)
            if kept and before.digest == digest:  # made again, the same: the site's file stays
                self._keep(output, unchanged)
            elif isinstance(value, RenderedPage):
                self._ready[src_uri] = value
                self._files.append(GeneratedFile(src_uri, None, "", output.edit_path))
            else:
                self._files.append(GeneratedFile(src_uri, None, value, output.edit_path))

    def _keep(self, output: Output, unchanged: Path) -> None:
        """An output whose file in the site stays as the last build wrote it. A recipe's own files
        but its page (its YAML, scripts, record) are not handed to MkDocs at all: no page links them
        in Markdown, and a File for each of a large catalogue's thousands cost a third of a rebuild;
        the others stand as `unchanged`, which MkDocs skips."""
        if output.origin is not None and not output.src_uri.endswith(".md") and not csp.is_script(output.src_uri):
            self._left_on_site.append(destination(output.src_uri, self._use_directory_urls))
        else:
            self._files.append(GeneratedFile(output.src_uri, unchanged, None, output.edit_path))

    def left_on_site(self) -> list[str]:
        """Files of the site (paths in it) this build keeps as they are without handing them to
        MkDocs: part of the site all the same (`_keep`)."""
        return self._left_on_site

    # -- making ---------------------------------------------------------------------------------

    def _value(self, src_uri: str) -> Any:
        if src_uri in self._ready:
            return self._ready.pop(src_uri)
        output = self._by_src[src_uri]
        if self._rendering is None:  # a page the site lost although its inputs are unchanged
            assert output.render is not None
            return output.render()
        value = self._rendering.get(self._index_of[src_uri])
        if self._rebuilds is None:
            return value
        value, digest = value
        self._made[src_uri] = _Made(self._keys[src_uri], digest)
        return value


def _bound(function: Callable[[Callable[[], Any]], Any], render: Callable[[], Any]) -> Callable[[], Any]:
    # A closure over one render, picklable by reference in a forked worker like the render itself.
    return lambda: function(render)


def _any_made(rebuilds: Rebuilds, plan: SitePlan) -> bool:
    return any(rebuilds.made(output.src_uri) is not None for output in plan.outputs)


def _keys(plan: SitePlan, root: Path, use_directory_urls: bool, site_url: str | None) -> dict[str, str]:
    """Each output's key: a digest of everything it is made from."""
    site = hashlib.sha256()
    for part in _site_inputs(root, plan, use_directory_urls, site_url):
        site.update(part + b"\0")
    every = hashlib.sha256()  # what lists recipes reads: their listings, and the problems
    for entry in plan.catalogue.entries:
        every.update(entry.listing.encode("ascii"))
    for problem in plan.problems:
        every.update(str(problem).encode("utf-8") + b"\0")
    common, everything = site.hexdigest(), every.hexdigest()
    keys = {}
    for output in plan.outputs:
        inputs = (everything,) if output.inputs is None else output.inputs
        key = hashlib.sha256(f"{common}\0{output.src_uri}\0".encode())
        for part in inputs:
            key.update(part.encode("utf-8") + b"\0")
        keys[output.src_uri] = key.hexdigest()
    return keys


def _site_inputs(root: Path, plan: SitePlan, use_directory_urls: bool, site_url: str | None) -> Iterator[bytes]:
    """What any output may read besides the recipes it shows."""
    yield f"{use_directory_urls} {site_url} {plan.catalogue.today}".encode()
    yield (root / SCHEMA_RELATIVE_PATH).read_bytes()
    for folder in (root / "reference", TEMPLATES_DIR):
        for path in sorted(folder.iterdir()):
            if path.is_file():
                yield path.name.encode("utf-8") + b"\0" + path.read_bytes()


def _unseen_inputs(root: Path, config_file: Path, docs_dir: Path) -> tuple[object, ...]:
    """What changes pages in ways dirty mode cannot follow page by page: the configuration, the
    theme's overrides (contents), the set of hand-written files (names), and the page scripts'
    bytes (every page's policy lists their hashes: csp.py)."""
    overrides = root / "overrides"
    theme = sorted(
        (str(path.relative_to(overrides)), path.stat().st_mtime_ns, path.stat().st_size)
        for path in overrides.rglob("*")
        if path.is_file()
    )
    docs = sorted(
        (str(path.relative_to(docs_dir)), hashlib.sha256(path.read_bytes()).hexdigest() if path.suffix == ".js" else "")
        for path in docs_dir.rglob("*")
        if path.is_file()
    )
    return (config_file.read_bytes(), tuple(theme), tuple(docs))


def _empty(site_dir: Path) -> None:
    if not site_dir.is_dir():
        return
    for child in site_dir.iterdir():
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child)
        else:
            child.unlink()


def _remove(site_dir: Path, relative: str) -> None:
    """Delete a file a full build would no longer write, and the folders it leaves empty."""
    path = site_dir / relative
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
    folder = path.parent
    while folder != site_dir and folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
        folder = folder.parent


def _entries_by_page(index: Path) -> dict[str, list[SearchEntry]]:
    """The search plugin's index of a full build, page by page (a location is the page's URL
    with, for a section, `#` and its anchor)."""
    by_page: dict[str, list[SearchEntry]] = {}
    if index.is_file():
        for entry in json.loads(index.read_text(encoding="utf-8"))["docs"]:
            by_page.setdefault(entry["location"].split("#", 1)[0], []).append(entry)
    return by_page


def _write_search_index(index: Path, pages: Sequence[str], by_page: Mapping[str, list[SearchEntry]]) -> None:
    """The index a full build writes: the search plugin's settings, then each page's entries in
    the order the pages were built, serialised as the plugin does."""
    config = json.loads(index.read_text(encoding="utf-8"))["config"]
    docs = [entry for url in pages for entry in by_page.get(url, ())]
    text = json.dumps({"config": config, "docs": docs}, separators=(",", ":"), default=str)
    index.parent.mkdir(parents=True, exist_ok=True)
    index.write_text(text, encoding="utf-8")


def cache_folder() -> Path:
    """A folder of its own for one server's file of unchanged outputs."""
    return Path(tempfile.mkdtemp(prefix="openrecipes-serve-"))
