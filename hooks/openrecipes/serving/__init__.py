"""Serving: what makes `mkdocs serve --dirty` fast and exact.

`incremental` keeps each output's inputs between rebuilds and makes again only what an edit
changed; `pagerender` renders pages on the second core while MkDocs converts the others;
`templatecache` keeps the theme's compiled templates for the life of the process; `collector` keeps
the cyclic garbage collector out of a rebuild.
"""
