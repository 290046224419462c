"""A stand-in written for tests/test_cards.py: the launcher's options the importer cites.

Arguments not owned by this launcher are forwarded unchanged to run_recipe.py.
"""

import argparse
import os
from pathlib import Path

CONTAINER_REPO_ROOT = Path("/opt/Megatron-Bridge")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    parser.add_argument("--nodes", type=int, default=1)
    parser.add_argument("--gpus-per-node", "--gpus_per_node", type=int, dest="gpus_per_node")
    parser.add_argument("--account", default=os.environ.get("SLURM_ACCOUNT"))
    parser.add_argument("--partition", default=os.environ.get("SLURM_PARTITION"))
    parser.add_argument("--container-image", default=os.environ.get("CONTAINER_IMAGE"))
    parser.add_argument("--wait", action="store_true")
    return parser
