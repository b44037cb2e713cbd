"""Architecture rules from DESIGN.md: the core is stdlib-only, and modules stay small."""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import warroom

ROOT = Path(warroom.__file__).parent


def statements(node: ast.AST) -> Iterator[ast.stmt]:
    """Every statement in `node`, at any depth (in functions, classes, branches, loops, handlers and cases). An
    import is a statement, and no expression holds one, so this finds every import without walking expressions:
    `ast.walk` over the whole tree is most of the cost of reading a module's imports."""
    for name in ("body", "orelse", "finalbody", "handlers", "cases"):
        for child in getattr(node, name, ()):
            if isinstance(child, ast.stmt):
                yield child
            yield from statements(child)


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in statements(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


COMPILER_HINTS = "mypy_extensions"
"""The one package besides the standard library that the core may import: mypyc's class markers (`mypyc_attr`),
which change nothing in pure Python (the compiled flow lets an uncompiled rule system subclass it)."""


def test_core_imports_only_the_standard_library_and_itself() -> None:
    files = sorted((ROOT / "core").glob("*.py"))
    assert files
    for path in files:
        for name in imported_modules(path):
            top = name.split(".")[0]
            if top == "warroom":
                assert name.startswith("warroom.core"), f"{path.name} imports {name} from outside the core"
            else:
                assert top in sys.stdlib_module_names or top in ("__future__", COMPILER_HINTS), \
                    f"{path.name} imports {name}"


LAYERS = {
    "rulesets": ("warroom.cli", "warroom.sim", "warroom.server", "warroom.ai", "warroom.scenarios", "warroom.adapters"),
    "ai": ("warroom.cli", "warroom.sim", "warroom.server", "warroom.scenarios", "warroom.adapters"),
    "scenarios": ("warroom.cli", "warroom.sim", "warroom.server", "warroom.ai", "warroom.adapters"),
    "sim": ("warroom.cli", "warroom.server", "warroom.adapters"),
    "server": ("warroom.cli", "warroom.sim", "warroom.adapters"),
    "adapters": ("warroom.cli", "warroom.sim", "warroom.server"),
}
"""Each package and the packages above it, which it must not import (adapters -> rulesets -> core)."""


@pytest.mark.parametrize("package", sorted(LAYERS))
def test_no_package_imports_a_layer_above_it(package: str) -> None:
    files = sorted((ROOT / package).rglob("*.py"))
    assert files
    for path in files:
        for name in imported_modules(path):
            for above in LAYERS[package]:
                assert not name.startswith(above), f"{path.relative_to(ROOT)} imports {name}, which sits above it"


ADAPTERS_OF_EVERY_SYSTEM = ("server/service.py", "server/results.py", "server/portable.py", "sim/runner.py",
                            "sim/conformance.py", "cli/main.py", "cli/common.py", "scenarios/loader.py", "ai/bots.py",
                            "adapters/openspiel.py")
"""Modules that serve every rule system: they reach a system through the registry (`warroom.rulesets`) and the
state API only, never a rule package's module."""


def runtime_imports(path: Path) -> set[str]:
    """The modules a file imports when it runs (at any depth; imports only for type checking left out), and for
    `from X import Y` also `X.Y`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = {id(n) for node in statements(tree) if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(
        node.test) for b in node.body for n in (b, *statements(b))}
    deps: set[str] = set()
    for node in statements(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            deps.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            deps.add(node.module)
            deps.update(f"{node.module}.{a.name}" for a in node.names)
    return deps


@pytest.mark.parametrize("module", ADAPTERS_OF_EVERY_SYSTEM)
def test_the_shared_adapters_import_no_rule_package(module: str) -> None:
    for name in runtime_imports(ROOT / module):
        where = ROOT.parent / name.replace(".", "/")
        is_module = where.with_suffix(".py").is_file() or (where / "__init__.py").is_file()
        assert not (name.startswith("warroom.rulesets.") and is_module), f"{module} imports {name}: use the registry"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """warroom's modules and the warroom modules each imports, at any depth of the file (function-level
    imports hold circles together too; imports only for type checking do not)."""
    modules = {module_name(p): p for p in ROOT.rglob("*.py") if "migrations" not in p.parts}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        graph[name] = {d for d in runtime_imports(path) if d in modules and d != name}
    return graph


def circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[frozenset[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(frozenset(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_circle() -> None:
    """Every package is layered: the position at the bottom, the verbs and the flow table above it, the adapters
    on top. No module reaches back up, not even from inside a function."""
    assert [sorted(group) for group in circles(import_graph())] == []


def test_no_module_reaches_the_size_limit() -> None:
    for path in ROOT.rglob("*.py"):
        lines = path.read_text(encoding="utf-8").count("\n")
        assert lines < 1000, f"{path} has {lines} lines: split it by concept"
