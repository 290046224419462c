"""MkDocs hook: adds the recipe catalogue to the site. MkDocs events only; the work is in `openrecipes`.

MkDocs imports this file with its folder on sys.path only while the module first runs, so the
package is imported here at the top, never lazily inside an event.
"""

from __future__ import annotations

import html
import logging
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from jinja2 import Environment
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.pages import Page
from watchdog.observers.polling import PollingObserver

import openrecipes
from openrecipes.serving.collector import IdleCollector
from openrecipes.serving.incremental import Generation, Rebuilds, cache_folder
from openrecipes.serving.templatecache import COMPILED
from openrecipes.site import csp
from openrecipes.site.fragments import restore
from openrecipes.site.htmlspace import collapse_whitespace
from openrecipes.site.outputs import GENERATED_NAV_PAGES
from openrecipes.site.plan import plan_site
from openrecipes.site.render import TEMPLATES_DIR

# Under the `mkdocs` logger, so MkDocs shows these lines and counts them for --strict.
log = logging.getLogger("mkdocs.plugins.openrecipes")

# While serving, problems are printed but must not fail the build: MkDocs' server would hang
# every page request until the file is fixed. So they go to a logger of their own.
serve_log = logging.getLogger("openrecipes.serve")
if not serve_log.handlers:
    _handler = logging.StreamHandler()
    _handler.setFormatter(logging.Formatter("ERROR    -  %(message)s"))
    serve_log.addHandler(_handler)
    serve_log.propagate = False

WATCHED = ("recipes", "schema", "reference")
WATCH_SECONDS = 0.2
"""How often `mkdocs serve` looks for changes (MkDocs: 0.5): a look at 3,000 recipes takes 18 ms."""

# MkDocs' server reloads pages with an inline script, which the site's Content-Security-Policy
# refuses: while serving, a script of the site's own does it (see the file).
LIVE_RELOAD = "assets/openrecipes-livereload.js"
LIVE_RELOAD_SOURCE = Path(openrecipes.__file__).parent / "assets" / "livereload.js"

_command = "build"
_rebuilds: Rebuilds | None = None  # under `mkdocs serve --dirty`: what one build keeps for the next
_collector = IdleCollector()  # under `mkdocs serve --dirty`: the cyclic collector between rebuilds
_build: Generation | None = None
_searched: dict[str, list] = {}  # page URL -> its search entries, for the pages this build rebuilt
_indexed = 0  # how many entries the search plugin held after the last page
_written: tuple[set[str], list[str]] = (set(), [])  # the site's files and its pages in order
_integrities: dict[str, str] = {}  # each script of the site (path in the site) -> its integrity
_site_files: set[str] = set()  # every file of the site, by path in it


def _root(config: MkDocsConfig) -> Path:
    return Path(config.config_file_path).resolve().parent


def on_startup(command: str, dirty: bool) -> None:
    global _command, _rebuilds
    _command = command
    if command == "serve" and dirty:
        _rebuilds = Rebuilds(cache_folder())
    elif command == "serve":
        log.info("openrecipes: each edit rebuilds every page; `mkdocs serve --dirty` rebuilds only what it changes")


def on_shutdown() -> None:
    _close()
    _collector.close()
    if _rebuilds is not None:
        shutil.rmtree(_rebuilds.folder, ignore_errors=True)


def on_serve(server: LiveReloadServer, config: MkDocsConfig, builder: Callable[..., None]) -> LiveReloadServer:
    """Watch at a shorter interval than MkDocs' half second (WATCH_SECONDS). MkDocs polls rather
    than asking the system to be told of changes, which misses them on network and some container
    file systems; its interval was, on average, a third of the time from an edit to its page. The
    paths MkDocs watched before this event are watched again by the new observer; the others (the
    hook's, `-w`) it schedules after."""
    earlier = [path for path in (config.docs_dir, config.config_file_path, *config.theme.dirs) if path]
    watched = []
    for path in earlier:
        try:
            server.unwatch(path)
        except KeyError:  # a theme folder without --watch-theme
            continue
        watched.append(path)
    server.observer = PollingObserver(timeout=WATCH_SECONDS)
    for path in watched:
        server.watch(path)
    return server


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    root = _root(config)
    for path in (*(root / name for name in WATCHED), TEMPLATES_DIR):
        if path.is_dir() and str(path) not in config.watch:
            config.watch.append(str(path))
    if _command == "serve" and LIVE_RELOAD not in config.extra_javascript:
        config.extra_javascript.append(LIVE_RELOAD)
    return config


def on_pre_build(config: MkDocsConfig) -> None:
    if _rebuilds is not None:
        if _rebuilds.built_before:
            _collector.rebuild_started()
        _rebuilds.start(_root(config), Path(config.config_file_path), Path(config.docs_dir), Path(config.site_dir))


def on_files(files: Files, config: MkDocsConfig) -> Files:
    root = _root(config)
    hand_written = [file.src_uri for file in files if not file.generated_by]
    serving = _command == "serve"
    plan = plan_site(
        root,
        hand_written=hand_written,
        use_directory_urls=config.use_directory_urls,
        keep_going=serving,
        site_url=config.site_url,
        memo=_rebuilds.loads if _rebuilds is not None else None,
        pieces=_rebuilds.pieces if _rebuilds is not None else None,
    )
    if plan.problems:
        for problem in plan.problems:
            (serve_log if serving else log).error(str(problem))
        files_with_problems = len({problem.path for problem in plan.problems})
        summary = (
            f"{len(plan.problems)} problem{'s' if len(plan.problems) != 1 else ''} in "
            f"{files_with_problems} file{'s' if files_with_problems != 1 else ''}"
        )
        if not serving:
            raise PluginError(f"{summary}; the site was not built")
        serve_log.error(f"{summary}; serving the site without them until they are fixed")
    global _build
    _close()
    _searched.clear()
    try:
        _build = Generation(
            plan,
            root=root,
            use_directory_urls=config.use_directory_urls,
            site_url=config.site_url,
            rebuilds=_rebuilds,
            parallel=True,
        )
    except Exception as error:  # a bug of ours in a template or a renderer, not a recipe problem
        raise _our_bug("making the generated files", error) from error
    if _command == "serve":
        files.append(File.generated(config, LIVE_RELOAD, abs_src_path=str(LIVE_RELOAD_SOURCE)))
    files.append(File.generated(config, csp.INTEGRITY_JS, content=""))  # written in on_env
    docs_dir = Path(config.docs_dir).resolve()
    for item in _build.files():
        if item.source is not None:
            file = File.generated(config, item.src_uri, abs_src_path=str(item.source))
        else:  # a page's text is given in on_page_markdown, another file's in on_env, when empty here
            file = File.generated(config, item.src_uri, content=item.content or "")
        if item.edit_path:
            file.edit_uri = Path(os.path.relpath(root / item.edit_path, docs_dir)).as_posix()
        if item.src_uri not in GENERATED_NAV_PAGES:
            file.inclusion = InclusionLevel.NOT_IN_NAV
        files.append(file)
    return files


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    if _build is None or not _build.owns(page.file.src_uri):
        return markdown
    try:
        rendered = _build.page(page.file.src_uri)
    except Exception as error:  # a bug of ours in a template or a renderer, not a recipe problem
        raise _our_bug(f"rendering the generated file {page.file.src_uri!r}", error) from error
    page.meta = dict(rendered.meta)
    _fragments[page.file.src_uri] = rendered.fragments
    return rendered.markdown


_fragments: dict[str, tuple[str | None, ...]] = {}  # pages converted, not yet restored


def on_page_content(html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    fragments = _fragments.pop(page.file.src_uri, None)
    if fragments is None:
        return html
    try:
        return restore(html, fragments, page.file.src_uri)
    except RuntimeError as error:
        raise _our_bug(f"restoring the recipe text of {page.file.src_uri!r}", error) from error


@event_priority(-100)  # after the search plugin has indexed the page
def on_page_context(context: Any, page: Page, config: MkDocsConfig, nav: Any) -> Any:
    """The search entries the search plugin has just made of this page: titles as the search box
    shows them (markup), and under `serve --dirty` kept for the page (the plugin forgets the
    other pages; incremental.py writes the whole index)."""
    global _indexed
    index = getattr(config.plugins.get("material/search"), "search_index", None)
    if index is None:
        return context
    added = index.entries[_indexed:]
    _indexed = len(index.entries)
    _escape_title_entries(added, page)
    if _rebuilds is not None and _rebuilds.indexes_pages:
        _searched[page.url] = list(added)
    return context


def _escape_title_entries(entries: list[dict[str, Any]], page: Page) -> None:
    """The search box shows an entry's title as markup. Titles of sections are, escaped by the
    plugin; a section before the first heading gets the page's title as it is, which is text."""
    title = str(page.meta.get("title", page.title) or "").strip()
    escaped = html.escape(title, quote=False)
    if escaped == title:
        return
    for entry in entries:
        if entry.get("title") == title:
            entry["title"] = escaped


def on_env(env: Environment, config: MkDocsConfig, files: Files) -> Environment:
    """Every page has been read: the other generated files get their text before MkDocs copies them."""
    global _written, _indexed
    if env.bytecode_cache is None:
        env.bytecode_cache = COMPILED
    if _rebuilds is not None:
        env = _rebuilds.theme_environment(env, (tuple(config.theme.dirs), str(config.theme.locale)))
    if _build is None:
        return env
    try:
        for src_uri, text in _build.late_texts():
            file = files.get_file_from_path(src_uri)
            if file is not None:
                file.content_string = text
    except Exception as error:  # a bug of ours in a renderer
        raise _our_bug("rendering the generated files", error) from error
    _sign_scripts(env, config, files)
    _indexed = 0
    pages = files.documentation_pages(inclusion=InclusionLevel.is_in_serve)
    on_site = {file.dest_uri for file in files}.union(_build.left_on_site())
    _written = (on_site, [file.page.url for file in pages if file.page is not None])
    return env


def _sign_scripts(env: Environment, config: MkDocsConfig, files: Files) -> None:
    """The integrity of every script of the site, `assets/integrity.js` written from them, and
    the Content-Security-Policy that allows those scripts and no other (csp.py)."""
    global _integrities, _site_files
    site_dir = Path(config.site_dir)
    unchanged = str(_rebuilds.unchanged) if _rebuilds is not None else None
    integrities = {}
    for file in files:
        if csp.is_script(file.dest_uri) and file.dest_uri != csp.INTEGRITY_JS:
            # Under serve --dirty an unchanged output stands in for the file the last build wrote.
            kept = unchanged is not None and file.abs_src_path == unchanged
            content = (site_dir / file.dest_uri).read_bytes() if kept else file.content_bytes
            integrities[file.dest_uri] = csp.integrity(content)
    listing = files.get_file_from_path(csp.INTEGRITY_JS)
    if listing is not None:
        listing.content_string = csp.integrity_script(integrities)
        integrities[csp.INTEGRITY_JS] = csp.integrity(listing.content_bytes)
    _integrities = integrities
    _site_files = {file.dest_uri for file in files}.union(_build.left_on_site() if _build is not None else ())
    env.globals["openrecipes_csp"] = csp.policy(integrities.values())


def _signed(output: str, dest_uri: str, config: MkDocsConfig) -> str:
    root = urlsplit(config.site_url or "/").path or "/"
    try:
        return csp.with_integrity(output, dest_uri, _integrities, root, _site_files)
    except csp.ScriptError as error:
        raise _our_bug("signing the scripts of the page", error) from error


def on_post_page(output: str, page: Page, config: MkDocsConfig) -> str:
    return collapse_whitespace(_signed(output, page.file.dest_uri, config))


def on_post_template(output_content: str, template_name: str, config: MkDocsConfig) -> str:
    """Pages the theme makes without a source (404.html) carry signed scripts too."""
    return _signed(output_content, template_name, config) if template_name.endswith(".html") else output_content


def on_post_build(config: MkDocsConfig) -> None:
    if _rebuilds is not None and _build is not None:
        written, pages = _written
        _rebuilds.finish(Path(config.site_dir), written, pages, _searched, _build.made())
    _close()
    if _rebuilds is not None:
        _collector.rebuild_finished()


def on_build_error(error: Exception) -> None:
    _close()
    if _rebuilds is not None:
        _collector.rebuild_finished()


def _our_bug(doing: str, error: Exception) -> PluginError:
    """An error in OpenRecipes' own code or templates, said to be one: recipe and reference
    problems are reported before any page is made, with their file, line and field."""
    return PluginError(
        f"OpenRecipes failed while {doing}: {error}. This is a bug in OpenRecipes, not in the recipes or "
        "the reference data (they were checked first); please report it with this message."
    )


def _close() -> None:
    global _build
    _fragments.clear()
    if _build is not None:
        _build.close()
        _build = None
