"""`python -m openrecipes.cli`: the `openrecipes` command."""

import sys

from .main import main

sys.exit(main())
