"""MkDocs hook: adds the recipe catalogue to the site. MkDocs events only; the work is in `openrecipes`.

MkDocs imports this file with its folder on sys.path only while the module first runs, so the
package is imported here at the top, never lazily inside an event.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.pages import Page

from openrecipes.fragments import restore
from openrecipes.outputs import GENERATED_NAV_PAGES
from openrecipes.pagerender import Renderer, renderer
from openrecipes.render import TEMPLATES_DIR, RenderedPage
from openrecipes.site import plan_site

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


class _Build:
    """What one build of the catalogue holds between MkDocs events."""

    def __init__(self, rendering: Renderer, index_of: dict[str, int]) -> None:
        self.rendering = rendering
        self.index_of = index_of  # generated src_uri -> its index in `rendering`
        self.fragments: dict[str, tuple[str, ...]] = {}  # pages converted, not yet restored

    def rendered(self, src_uri: str) -> RenderedPage | str:
        try:
            return self.rendering.get(self.index_of[src_uri])
        except Exception as error:  # a bug of ours in a template or a renderer, not a recipe problem
            raise PluginError(f"rendering the generated file {src_uri!r} failed: {error!r}") from error


_command = "build"
_build: _Build | None = None


def _root(config: MkDocsConfig) -> Path:
    return Path(config.config_file_path).resolve().parent


def on_startup(command: str, dirty: bool) -> None:
    global _command
    _command = command


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    root = _root(config)
    for path in (*(root / name for name in WATCHED), TEMPLATES_DIR):
        if path.is_dir() and str(path) not in config.watch:
            config.watch.append(str(path))
    return config


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
    # In the order MkDocs asks for them: every page's Markdown first, then the other files.
    rendered = sorted(
        (output for output in plan.outputs if output.render is not None),
        key=lambda output: not output.src_uri.endswith(".md"),
    )
    exports = sum(not output.src_uri.endswith(".md") for output in rendered)
    _build = _Build(
        renderer([output.render for output in rendered], parallel=not serving, background=exports),
        {output.src_uri: index for index, output in enumerate(rendered)},
    )
    docs_dir = Path(config.docs_dir).resolve()
    for output in plan.outputs:
        if output.copy_of is not None:
            file = File.generated(config, output.src_uri, abs_src_path=str(output.copy_of))
        else:
            # Filled in when MkDocs gets to it: pages in on_page_markdown, other files in on_env.
            file = File.generated(config, output.src_uri, content="")
        if output.edit_path:
            file.edit_uri = Path(os.path.relpath(root / output.edit_path, docs_dir)).as_posix()
        if output.src_uri not in GENERATED_NAV_PAGES:
            file.inclusion = InclusionLevel.NOT_IN_NAV
        files.append(file)
    return files


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    if _build is None or page.file.src_uri not in _build.index_of:
        return markdown
    rendered = _build.rendered(page.file.src_uri)
    assert isinstance(rendered, RenderedPage)
    page.meta = dict(rendered.meta)
    _build.fragments[page.file.src_uri] = rendered.fragments
    return rendered.markdown


def on_page_content(html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    fragments = _build.fragments.pop(page.file.src_uri, None) if _build is not None else None
    if fragments is None:
        return html
    try:
        return restore(html, fragments, page.file.src_uri)
    except RuntimeError as error:
        raise PluginError(str(error)) from error


def on_env(env: object, config: MkDocsConfig, files: Files) -> None:
    """Every page has been read: the other generated files get their text before MkDocs copies them."""
    if _build is None:
        return
    for src_uri in _build.index_of:
        if not src_uri.endswith(".md"):
            text = _build.rendered(src_uri)
            assert isinstance(text, str)
            file = files.get_file_from_path(src_uri)
            if file is not None:
                file.content_string = text


def on_post_build(config: MkDocsConfig) -> None:
    _close()


def on_build_error(error: Exception) -> None:
    _close()


def _close() -> None:
    global _build
    if _build is not None:
        _build.rendering.close()
        _build = None
