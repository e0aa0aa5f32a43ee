"""The package layout: folders import one way, in the order README's "Where things are" lists."""

from __future__ import annotations

import ast
from pathlib import Path

import rubricate

PACKAGE = Path(rubricate.__file__).parent
# Each layer imports only from the layers before it ("foundation": the top-level private modules).
LAYERS = [
    "foundation",
    "checks",
    "_rubric",
    "_local",
    "_models",
    "_judge",
    "_loop",
    "_batch",
    "_report",
    "_ray",
    "_cli",
    # `rubricate.testing`: fake chat models for users' tests, imported as
    # `from rubricate.testing import ...`; it builds the judge's answers, so it sits after the
    # judge, and nothing in the package imports it.
    "testing",
    "rubricate",
]


def _layer(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1 or parts[1] in ("__init__", "__main__"):
        return "rubricate"
    return parts[1] if parts[1] in LAYERS else "foundation"


def _imports(path: Path) -> set[str]:
    """Every rubricate module `path` imports, at the top or inside a function."""
    relative = path.relative_to(PACKAGE.parent).with_suffix("")
    module = ".".join(relative.parts)
    package = module.removesuffix(".__init__") if path.name == "__init__.py" else module
    package = package if path.name == "__init__.py" else package.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            if target.startswith("rubricate"):
                found |= {f"{target}.{a.name}" for a in node.names} if not node.module else {target}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("rubricate")}
    return found


def test_every_import_points_to_an_earlier_layer() -> None:
    upward = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        source = _layer(module)
        for target in _imports(path):
            destination = _layer(target)
            if destination != source and LAYERS.index(destination) > LAYERS.index(source):
                upward.append(f"{module} imports {target} ({source} -> {destination})")
    assert upward == []


def test_every_module_belongs_to_a_listed_layer() -> None:
    folders = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert folders <= set(LAYERS), folders - set(LAYERS)


def test_nothing_in_the_package_imports_the_testing_fakes() -> None:
    importers = [
        str(path.relative_to(PACKAGE))
        for path in sorted(PACKAGE.rglob("*.py"))
        if "testing" not in path.relative_to(PACKAGE).parts
        and any(t.startswith("rubricate.testing") for t in _imports(path))
    ]
    assert importers == []
