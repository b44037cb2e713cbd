"""Architecture rules from DESIGN.md: the core is stdlib-only, and modules stay small."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import warroom

ROOT = Path(warroom.__file__).parent


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_core_imports_only_the_standard_library_and_itself() -> None:
    files = sorted((ROOT / "core").glob("*.py"))
    assert files
    for path in files:
        for name in imported_modules(path):
            top = name.split(".")[0]
            if top == "warroom":
                assert name.startswith("warroom.core"), f"{path.name} imports {name} from outside the core"
            else:
                assert top in sys.stdlib_module_names or top == "__future__", f"{path.name} imports {name}"


def test_rulesets_do_not_import_adapters() -> None:
    for path in sorted((ROOT / "rulesets").rglob("*.py")):
        for name in imported_modules(path):
            for adapter in ("warroom.cli", "warroom.sim", "warroom.web", "warroom.store", "warroom.ai"):
                assert not name.startswith(adapter), f"{path} imports the adapter {name}"


def test_no_module_reaches_the_size_limit() -> None:
    for path in ROOT.rglob("*.py"):
        lines = path.read_text(encoding="utf-8").count("\n")
        assert lines < 1000, f"{path} has {lines} lines: split it by concept"
