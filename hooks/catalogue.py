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

from openrecipes.prefetch import Renderer, renderer
from openrecipes.render import TEMPLATES_DIR
from openrecipes.site import GENERATED_NAV_PAGES, plan_site

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

_command = "build"
_rendering: Renderer | None = None  # the current build's page renderer, closed when the build ends

WATCHED = ("recipes", "schema", "reference")


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
    global _rendering
    _close_rendering()
    # In the order MkDocs reads them: every page's Markdown first, then the other files.
    rendered = sorted(
        (output for output in plan.outputs if output.render is not None),
        key=lambda output: not output.src_uri.endswith(".md"),
    )
    _rendering = renderer([output.render for output in rendered], parallel=not serving)
    index_of = {id(output): index for index, output in enumerate(rendered)}
    docs_dir = Path(config.docs_dir).resolve()
    for output in plan.outputs:
        if output.copy_of is not None:
            file = File.generated(config, output.src_uri, abs_src_path=str(output.copy_of))
        else:
            file = _RenderedFile.generated(config, output.src_uri, content="")
            file.render_with(_rendering, index_of[id(output)])
        if output.edit_path:
            file.edit_uri = Path(os.path.relpath(root / output.edit_path, docs_dir)).as_posix()
        if output.src_uri not in GENERATED_NAV_PAGES:
            file.inclusion = InclusionLevel.NOT_IN_NAV
        files.append(file)
    return files


def on_post_build(config: MkDocsConfig) -> None:
    _close_rendering()


def on_build_error(error: Exception) -> None:
    _close_rendering()


def _close_rendering() -> None:
    global _rendering
    if _rendering is not None:
        _rendering.close()
        _rendering = None


class _RenderedFile(File):
    """A generated file whose text is rendered (maybe in another process) when MkDocs first reads it."""

    _pending: tuple[Renderer, int] | None = None
    _text: str | bytes | None = None

    def render_with(self, rendering: Renderer, index: int) -> None:
        self._pending = (rendering, index)

    @property
    def _content(self) -> str | bytes | None:  # type: ignore[override]
        if self._pending is not None:
            rendering, index = self._pending
            self._pending = None
            self._text = rendering.get(index)
        return self._text

    @_content.setter
    def _content(self, value: str | bytes | None) -> None:
        self._pending = None
        self._text = value
