"""Where the project is, and which recipe files a command line names."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from .loader import RECIPES_DIR
from .reading.schema import SCHEMA_RELATIVE_PATH


class UsageError(Exception):
    """The command line asks for something that cannot be done; exit status 2."""


def find_root(start: Path) -> Path | None:
    """The nearest folder at or above `start` that holds mkdocs.yml and recipes/."""
    for folder in (start, *start.parents):
        if (folder / "mkdocs.yml").is_file() and (folder / RECIPES_DIR).is_dir():
            return folder
    return None


def project_root(option: str | None, hints: Sequence[str] = ()) -> Path:
    if option is not None:
        root = Path(option).absolute()
        if not (root / SCHEMA_RELATIVE_PATH).is_file():
            raise UsageError(f"--root {option}: not an OpenRecipes project (it has no {SCHEMA_RELATIVE_PATH})")
        return root
    for start in (Path.cwd(), *(Path(hint).absolute() for hint in hints)):
        root = find_root(start if start.is_dir() else start.parent)
        if root is not None and (root / SCHEMA_RELATIVE_PATH).is_file():
            return root
    raise UsageError(
        f"no OpenRecipes project here: no folder above {Path.cwd()} holds mkdocs.yml and recipes/; use --root"
    )


def recipe_paths(arguments: Sequence[str], root: Path) -> list[Path]:
    """Files as given; folders as everything in recipes/ below them but folders (a folder above
    recipes/ means all of it): what is not a recipe file is reported as such, never skipped."""
    recipes = (root / RECIPES_DIR).absolute()
    found: list[Path] = []
    for argument in arguments:
        path = Path(argument).absolute()
        if path.is_dir() and not path.is_symlink():
            below = [p for p in sorted(path.rglob("*")) if p.is_symlink() or not p.is_dir()]
            found += [p for p in below if p.is_relative_to(recipes) or p.resolve().is_relative_to(recipes.resolve())]
        elif path.exists() or path.is_symlink():
            found.append(path)
        else:
            raise UsageError(f"{argument}: no such file or folder")
    return found
