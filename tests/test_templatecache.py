"""The compiled-template cache every build's theme environment shares within a process."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jinja2

from openrecipes.serving.templatecache import CompiledTemplates


class _Counting(jinja2.Environment):
    compiled = 0

    def compile(self, *args: Any, **kwargs: Any) -> Any:
        _Counting.compiled += 1
        return super().compile(*args, **kwargs)


def _render(folder: Path, cache: CompiledTemplates) -> str:
    # A new environment each time, as MkDocs makes one for every build.
    env = _Counting(loader=jinja2.FileSystemLoader(folder), bytecode_cache=cache)
    return env.get_template("page.html").render(name="x")


def test_a_new_environment_reuses_the_code_and_an_edited_template_is_compiled_again(tmp_path: Path) -> None:
    cache = CompiledTemplates()
    page = tmp_path / "page.html"
    page.write_text("first {{ name }}", encoding="utf-8")
    _Counting.compiled = 0

    assert _render(tmp_path, cache) == "first x"
    assert _render(tmp_path, cache) == "first x"
    assert _Counting.compiled == 1

    page.write_text("second {{ name }}", encoding="utf-8")
    assert _render(tmp_path, cache) == "second x"
    assert _Counting.compiled == 2
