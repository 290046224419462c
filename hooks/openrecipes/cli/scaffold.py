"""Recipe skeletons for `openrecipes new`: the schema's fields, given values filled in, placeholders elsewhere.

The skeleton is read from schema/recipe.schema.yaml at run time, so it never drifts from it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from ..reading import yamlwrite
from ..reading.placeholders import PLACEHOLDER, FieldPath, Node, SchemaWalker, conditional_requirements, schema_types
from ..reading.schema import first_sentence


def skeleton(
    document: Node, given: Mapping[FieldPath, Any], *, core_only: bool = False, leave_out: Collection[FieldPath] = ()
) -> dict[str, Any]:
    """The schema's fields, in its order: `given` values where stated, placeholders elsewhere.

    Every field, or with `core_only` only those the schema requires of a recipe like this one
    (its own `required` lists and the conditions that apply to the given schema version and
    status), which is what every published report has. `leave_out` names fields not to write.
    """
    walker = SchemaWalker(document)
    conditions = {path[0]: value for path, value in given.items() if len(path) == 1}
    required = conditional_requirements(document, conditions, walker)

    def build(node: Node, path: FieldPath) -> Any:
        if path in given:
            return given[path]
        node = walker.resolve(node)
        types = schema_types(node)
        if "object" in types and "properties" in node:
            wanted = set(node.get("required", ())) | required.get(path, set())
            return {
                name: build(child, (*path, name))
                for name, child in node["properties"].items()
                if (*path, name) not in leave_out
                and (not core_only or name in wanted or any(key[: len(path) + 1] == (*path, name) for key in given))
            }
        items = walker.resolve(node.get("items", {})) if "array" in types else {}
        if "object" in schema_types(items) and "properties" in items:
            # One example item shows its fields; the author removes it if there is none.
            return [build(items, (*path, 0))]
        return f"{PLACEHOLDER}: {first_sentence(node.get('description', 'a value'))}"

    return build(document, ())


def recipe_text(data: Mapping[str, Any], relative_path: str) -> str:
    header = (
        f"# {relative_path}\n"
        "# An OpenRecipes recipe; the fields are documented in schema/recipe.schema.yaml.\n"
        f"# Replace every '{PLACEHOLDER}' value, then run: openrecipes validate {relative_path}\n"
    )
    return yamlwrite.dump(data, header)
