"""A stand-in written for tests/test_cards.py: how --recipe finds its function."""


def load_recipe(recipe_name: str, benchmarks: dict, library: dict) -> object:
    """A benchmark recipe of that name, else a library recipe."""
    if recipe_name in benchmarks:
        return benchmarks[recipe_name]()
    return library[recipe_name]()
