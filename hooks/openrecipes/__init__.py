"""OpenRecipes: a catalogue of LLM training recipes, checked and rendered from YAML files.

This package knows nothing about MkDocs: it reads recipe files, validates and checks them, and
renders Markdown, JSON and charts. `hooks/catalogue.py` connects it to an MkDocs build.

Data flows one way, and each subpackage imports only those before it (a test holds the order):

1. `reading/`: files written by strangers become data with positions, validated against the
   schema, then frozen records; the sourced reference data.
2. `checking/`: what is recomputed from a record and the reference data (`figures`, `derive`),
   the rules that compare it with what was stated (`rules`), FLOPs conventions, the price basis.
3. `loader.py`: the catalogue: every recipe file read and checked, and every problem found.
4. `site/`: the generated files: pages from templates, the facts registry, text rendered once
   into fragments, charts, exports, feed, and the plan that says which files the site gets.
5. `serving/`: what `mkdocs serve --dirty` keeps between rebuilds, and rendering on a second core.
6. `importers/` and `cli/`: publishers' tables as recipes; the `openrecipes` command.

Shared by all of them: `problems.py` (problems as values), `fmt.py` (numbers as people read
them), `describe.py` (facts in words), `flops.py` (model FLOPs and parameter counts),
`markup.py` (author Markdown to HTML, bounded), `builddate.py` (the build's one date),
`project.py` (where the project is).

The benchmark, synthetic catalogues and the Chromium helper are tooling, not the runtime: they
live in `tools/openrecipes_tools/`, which this package never imports.
"""

__version__ = "0.1.0"
