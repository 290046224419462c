"""The `openrecipes` command."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from . import __version__


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="openrecipes", description="Work with OpenRecipes training recipes.")
    parser.add_argument("--version", action="version", version=f"openrecipes {__version__}")
    parser.parse_args(argv)
    parser.print_help()
    return 0


if __name__ == "__main__":
    sys.exit(main())
