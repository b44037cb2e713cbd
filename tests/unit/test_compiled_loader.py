"""`warroom.compiled`: when a compiled build is used, and when the engine runs pure Python instead (no build
needed: these tests make fake overlays; `tests/e2e/test_compiled_engine.py` runs the real one)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from warroom import compiled


def fake_overlay(tmp_path: Path) -> tuple[Path, Path]:
    """(overlay, source root): one source `warroom/x.py` and its 'compiled' module, fresh."""
    root, where = tmp_path / "src", tmp_path / "overlay"
    (root / "warroom").mkdir(parents=True)
    (root / "warroom" / "x.py").write_text("X = 1\n", encoding="utf-8")
    so = "warroom/x" + compiled.extension_suffix()
    (where / "warroom").mkdir(parents=True)
    (where / so).write_bytes(b"")
    manifest = {"format": compiled.FORMAT, "suffix": compiled.extension_suffix(), "mypy": "9.9",
                "modules": {"warroom.x": so, "warroom_engine__mypyc": so},
                "sources": {"warroom/x.py": compiled.digest(root / "warroom" / "x.py")}}
    (where / compiled.MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    return where, root


def rewrite(where: Path, **changes: object) -> None:
    path = where / compiled.MANIFEST
    manifest = json.loads(path.read_text(encoding="utf-8"))
    manifest.update(changes)
    path.write_text(json.dumps(manifest), encoding="utf-8")


def test_a_fresh_build_is_used(tmp_path: Path) -> None:
    where, root = fake_overlay(tmp_path)
    found = compiled.check(where, root)
    assert found.compiled, found.reason
    assert found.modules["warroom.x"] == where / ("warroom/x" + compiled.extension_suffix())
    assert found.describe() == "engine: compiled (mypyc 9.9, 1 modules)"


def test_a_changed_source_makes_the_build_stale(tmp_path: Path) -> None:
    where, root = fake_overlay(tmp_path)
    (root / "warroom" / "x.py").write_text("X = 2\n", encoding="utf-8")
    found = compiled.check(where, root)
    assert not found.compiled and not found.modules
    assert found.reason == "the compiled build is stale: warroom/x.py changed since (make compiles it again)"


def test_a_deleted_source_makes_the_build_stale(tmp_path: Path) -> None:
    where, root = fake_overlay(tmp_path)
    (root / "warroom" / "x.py").unlink()
    assert compiled.check(where, root).reason == "the compiled build is stale: warroom/x.py is gone"


@pytest.mark.parametrize(("change", "reason"), [
    ({"suffix": ".cpython-39-x86_64-linux-gnu.so"}, "the compiled build is for .cpython-39-x86_64-linux-gnu.so"),
    ({"format": 0}, "is of another format"),
    ({"modules": {}}, "is incomplete"),
    ({"modules": {"warroom.y": "warroom/y.so"}}, "is incomplete: "),
])
def test_a_build_for_another_python_or_incomplete_is_not_used(tmp_path: Path, change: dict[str, object],
                                                                 reason: str) -> None:
    where, root = fake_overlay(tmp_path)
    rewrite(where, **change)
    found = compiled.check(where, root)
    assert not found.compiled and reason in found.reason


def test_no_build_or_an_unreadable_manifest(tmp_path: Path) -> None:
    assert compiled.check(tmp_path, tmp_path).reason == f"no compiled build in {tmp_path}"
    (tmp_path / compiled.MANIFEST).write_text("{", encoding="utf-8")
    assert "cannot be read" in compiled.check(tmp_path, tmp_path).reason


@pytest.mark.parametrize(("value", "pure"), [("1", True), ("yes", True), ("0", False), ("", False)])
def test_warroom_pure_forces_pure_python(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str,
                                         pure: bool) -> None:
    where, root = fake_overlay(tmp_path)
    monkeypatch.setenv(compiled.PURE_ENV, value)
    found = compiled.decide(where, root)
    assert found.compiled is not pure
    if pure:
        assert found.describe() == f"engine: pure Python (WARROOM_PURE={value})"


def test_the_overlay_is_looked_for_in_the_venv_or_where_the_environment_says(monkeypatch: pytest.MonkeyPatch,
                                                                             tmp_path: Path) -> None:
    monkeypatch.delenv(compiled.DIR_ENV, raising=False)
    assert compiled.overlay_dir() == Path(sys.prefix) / "warroom-compiled"
    monkeypatch.setenv(compiled.DIR_ENV, str(tmp_path))
    assert compiled.overlay_dir() == tmp_path
    monkeypatch.chdir(tmp_path)  # a relative path: from where the process started, made absolute for its children
    monkeypatch.setenv(compiled.DIR_ENV, "build/overlay")
    assert compiled.overlay_dir() == tmp_path / "build" / "overlay"


def test_the_finder_serves_only_the_compiled_modules(tmp_path: Path) -> None:
    where, root = fake_overlay(tmp_path)
    finder = compiled.OverlayFinder(compiled.check(where, root).modules)
    spec = finder.find_spec("warroom.x")
    assert spec is not None and spec.origin == str(where / ("warroom/x" + compiled.extension_suffix()))
    assert finder.find_spec("warroom.y") is None


def test_the_suite_runs_pure_python() -> None:
    """The root conftest sets WARROOM_PURE=1 before warroom is imported: doctests need the sources themselves, and
    tests patch rule classes (`tests/e2e/test_compiled_engine.py` compares the compiled engine with this one)."""
    if not compiled.is_pure_forced():
        pytest.skip("WARROOM_PURE=0 was asked for: the suite runs whichever engine is built")
    assert not compiled.status().compiled
    assert compiled.status().reason.startswith("WARROOM_PURE=")
