"""The `openrecipes` command: `validate`, `new`, `list`, `show`, `diff`, `import` (`main`).

`terminal` prints the catalogue for a terminal, `changes` compares two git revisions (read by
`reading.gitrev`), `newrecipe` and `scaffold` write a new recipe's skeleton.
"""

from .main import main

__all__ = ["main"]
