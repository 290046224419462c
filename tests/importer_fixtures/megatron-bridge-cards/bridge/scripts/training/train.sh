#!/usr/bin/env bash
# A stand-in written for tests/test_cards.py: the launcher's entry point.
set -euo pipefail
exec uv run python "$(dirname "$0")/setup_experiment.py" "$@"
