"""The package's plan, held: subpackages by job, imports that only run down the layers, and the
tooling outside the runtime (hooks/openrecipes/__init__.py describes the plan)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from conftest import REPO

PACKAGE = REPO / "hooks/openrecipes"
TOOLS = REPO / "tools/openrecipes_tools"

# Each part of the package, and the layer it sits in: a module imports only from its own layer or
# those below it (shared modules are layers of their own, where what they import puts them).
LAYERS = {
    "openrecipes.problems": 0,
    "openrecipes.fmt": 0,
    "openrecipes.flops": 0,
    "openrecipes.markup": 0,
    "openrecipes.builddate": 0,
    "openrecipes.reading": 1,
    "openrecipes.measuring": 1,
    "openrecipes.describe": 2,
    "openrecipes.checking": 3,
    "openrecipes.loader": 4,
    "openrecipes.project": 4,
    "openrecipes.site": 5,
    "openrecipes.serving": 6,
    "openrecipes.importers": 7,
    "openrecipes.cli": 8,
}
TOP = "openrecipes"  # the package's own __init__: its docstring and version, imported by anything


def _module_name(path: Path, root: Path, top: str) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join([top, *parts])


def _imports(path: Path, module: str) -> set[str]:
    """The modules `path` imports, absolute (relative imports resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)
    return found


def _layer(module: str) -> int | None:
    if module in (TOP, f"{TOP}.__version__"):
        return 0
    while module:
        if module in LAYERS:
            return LAYERS[module]
        module = module.rpartition(".")[0]
    return None


def _runtime_modules() -> list[tuple[Path, str]]:
    return [(path, _module_name(path, PACKAGE, "openrecipes")) for path in sorted(PACKAGE.rglob("*.py"))]


def test_at_most_twenty_modules_sit_directly_in_the_package() -> None:
    modules = sorted(path.name for path in PACKAGE.glob("*.py"))
    assert len(modules) <= 20, modules


@pytest.mark.parametrize("package", sorted(path.parent.name for path in PACKAGE.glob("*/__init__.py")))
def test_every_subpackage_says_what_it_is_for(package: str) -> None:
    docstring = ast.get_docstring(ast.parse((PACKAGE / package / "__init__.py").read_text(encoding="utf-8")))
    assert docstring and len(docstring) > 80, package


def test_every_module_has_a_layer_and_imports_only_down_the_layers() -> None:
    upward = []
    for path, module in _runtime_modules():
        own = _layer(module)
        assert own is not None, f"{module} is in no layer of LAYERS"
        for target in _imports(path, module):
            if not target.startswith("openrecipes") or target.startswith("openrecipes_tools"):
                continue
            theirs = _layer(target)
            if theirs is not None and theirs > own:
                upward.append(f"{module} (layer {own}) imports {target} (layer {theirs})")
    assert upward == []


def test_the_runtime_never_imports_the_tooling_nor_mkdocs() -> None:
    for path, module in _runtime_modules():
        imported = _imports(path, module)
        assert not any(name.split(".")[0] in ("openrecipes_tools", "mkdocs", "playwright") for name in imported), module
    hook = _imports(REPO / "hooks/catalogue.py", "catalogue")
    assert not any(name.startswith("openrecipes_tools") for name in hook)


def test_the_tooling_is_a_package_of_its_own() -> None:
    names = sorted(path.stem for path in TOOLS.glob("*.py"))
    assert {"bench", "synthetic", "chromium", "tablebench"} <= set(names)
    assert not any((PACKAGE / f"{name}.py").exists() for name in ("bench", "synthetic", "chromium", "tablebench"))
