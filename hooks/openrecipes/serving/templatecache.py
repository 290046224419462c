"""Compiled templates kept for the life of the process.

MkDocs makes a new template environment for every build, so every build of one process (each
rebuild of a plain `mkdocs serve`, each site a test builds) compiled the theme's fifty templates
again: about a quarter of a small build's CPU. Jinja's bytecode cache hands a new environment the
code compiled before. A bucket is keyed by the template's name and file and checked against its
source's checksum, so an edited template is compiled again. (`serve --dirty` goes further and keeps
the whole environment while the theme is unchanged: incremental.Rebuilds.theme_environment.)
"""

from __future__ import annotations

import jinja2
from jinja2.bccache import Bucket


class CompiledTemplates(jinja2.BytecodeCache):
    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)  # resets the bucket when the source has changed

    def dump_bytecode(self, bucket: Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()


COMPILED = CompiledTemplates()
