"""A stand-in written for tests/test_cards.py: the runner's options for each dimension, and where it
applies trailing overrides and sets the model's sequence length from the dataset's."""

import argparse


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    parser.add_argument("--recipe")
    parser.add_argument("--mode")
    parser.add_argument("-ms", "--max_steps", type=int)
    parser.add_argument("-gb", "--global_batch_size", type=int)
    parser.add_argument("-mb", "--micro_batch_size", type=int)
    parser.add_argument("-sl", "--seq_length", type=int)
    parser.add_argument("-tp", "--tensor_model_parallel_size", type=int)
    return parser


def collect_overrides(parser: argparse.ArgumentParser, unknown: list[str]) -> list[str]:
    return [word for word in unknown if "=" in word]


def sync_model_dataset_sequence_length(recipe: dict) -> dict:
    return recipe


def main(recipe: dict) -> dict:
    parser = build_parser()
    _, unknown = parser.parse_known_args()
    overrides = _collect_overrides(parser, unknown)
    recipe = sync_model_dataset_sequence_length(recipe)
    return {**recipe, "overrides": overrides}


_collect_overrides = collect_overrides
