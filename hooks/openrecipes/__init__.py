"""OpenRecipes: a catalogue of LLM training recipes, checked and rendered from YAML files.

This package knows nothing about MkDocs: it reads recipe files, validates and checks them, and
renders Markdown, JSON and charts. `hooks/catalogue.py` connects it to an MkDocs build.
"""

__version__ = "0.1.0"
