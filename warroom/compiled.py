"""The compiled engine: hot rule modules built by mypyc, used only while they match the sources.

`scripts/compile.py` (run by `make run` and `make test`) compiles the engine's hot modules with mypyc into an
*overlay* outside the source tree (`<venv>/warroom-compiled/`, or `WARROOM_COMPILED_DIR`): one extension module
per compiled source plus mypyc's shared library, and a `manifest.json` naming each module's file and the SHA-256
of every source the build read (the compiled modules and every module of `warroom/core` and `warroom/rulesets`
whose types they were compiled against). The pure-Python sources stay where they are and stay the reference.

`install()` runs once, from `warroom/__init__.py`, before any engine module is imported. It puts a finder at the
front of `sys.meta_path` that serves the manifest's modules from the overlay, and only if the manifest was made
for this Python (the same extension suffix) and every hash matches the sources imported now. Otherwise nothing
is installed and the engine runs as pure Python, silently: a source edited after the build takes effect at once,
it never runs stale compiled code. It is all or nothing, so compiled and pure classes never meet. The check
hashes about 0.7 MB of sources (2-3 ms). `WARROOM_PURE=1` forces pure Python (`0` or empty does not).
`status()` says which engine runs and why, for `warroom --version`, `warroom scenarios` and the benchmarks.
"""

from __future__ import annotations

import copyreg
import dataclasses
import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType
from typing import Any

PURE_ENV = "WARROOM_PURE"
"""Set to anything but '' or '0' to force pure Python."""
DIR_ENV = "WARROOM_COMPILED_DIR"
"""Where the overlay is, instead of `<sys.prefix>/warroom-compiled`."""
MANIFEST = "manifest.json"
FORMAT = 1
"""The manifest's format; a manifest of another format is not used."""
SOURCE_ROOT = Path(__file__).resolve().parent.parent
"""The directory holding the `warroom` package whose sources are running (paths in a manifest are relative to
it, with '/')."""


def overlay_dir() -> Path:
    """Where the compiled overlay is looked for: `WARROOM_COMPILED_DIR`, or `warroom-compiled` in the environment's
    prefix (the venv), as an absolute path: a relative `WARROOM_COMPILED_DIR` is taken from the current directory
    when asked (pass the absolute path on to a process started in another directory)."""
    return Path(os.environ.get(DIR_ENV) or Path(sys.prefix) / "warroom-compiled").absolute()


def extension_suffix() -> str:
    """The file suffix of this interpreter's extension modules (ABI and platform), e.g.
    '.cpython-311-x86_64-linux-gnu.so'; a manifest built for another one is not used."""
    return importlib.machinery.EXTENSION_SUFFIXES[0]


def digest(path: Path) -> str:
    """The SHA-256 of a file's bytes, in hex."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def is_pure_forced() -> bool:
    """Whether `WARROOM_PURE` asks for pure Python."""
    return os.environ.get(PURE_ENV, "") not in ("", "0")


@dataclass(frozen=True)
class Status:
    """Which engine runs: `compiled` and, from the overlay, the file of each compiled module by name; `reason`
    says why in words."""

    compiled: bool
    reason: str
    modules: dict[str, Path] = field(default_factory=dict)

    def describe(self) -> str:
        """One line for people: 'engine: compiled (mypyc, 61 modules)' or 'engine: pure Python (why)'."""
        if self.compiled:
            return f"engine: compiled ({self.reason})"
        return f"engine: pure Python ({self.reason})"


def check(where: Path, root: Path = SOURCE_ROOT) -> Status:
    """Whether the overlay in `where` is fresh for the sources under `root`: its manifest is readable, of this
    format and Python, names files that exist, and every source it was built from has the recorded hash.
    Ignores `WARROOM_PURE` (see `decide`)."""
    try:
        manifest: Any = json.loads((where / MANIFEST).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Status(False, f"no compiled build in {where}")
    except (OSError, ValueError) as exc:
        return Status(False, f"the compiled build's manifest cannot be read: {exc}")
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        return Status(False, f"the compiled build in {where} is of another format: rebuild it")
    if manifest.get("suffix") != extension_suffix():
        return Status(False, f"the compiled build is for {manifest.get('suffix')}, not {extension_suffix()}")
    sources, files = manifest.get("sources"), manifest.get("modules")
    if not isinstance(sources, dict) or not isinstance(files, dict) or not files:
        return Status(False, f"the compiled build's manifest in {where} is incomplete: rebuild it")
    for name, recorded in sources.items():
        try:
            now = digest(root / name)
        except OSError:
            return Status(False, f"the compiled build is stale: {name} is gone")
        if now != recorded:
            return Status(False, f"the compiled build is stale: {name} changed since (make compiles it again)")
    modules = {str(module): where / str(file) for module, file in files.items()}
    missing = [str(path) for path in modules.values() if not path.is_file()]
    if missing:
        return Status(False, f"the compiled build is incomplete: {missing[0]} is missing")
    count = len(modules) - 1  # the shared library is not one of the sources
    return Status(True, f"mypyc {manifest.get('mypy', '?')}, {count} modules", modules)


def decide(where: Path | None = None, root: Path = SOURCE_ROOT) -> Status:
    """The engine this process should run: pure if `WARROOM_PURE` says so, else what `check` finds."""
    if is_pure_forced():
        return Status(False, f"{PURE_ENV}={os.environ[PURE_ENV]}")
    return check(overlay_dir() if where is None else where, root)


def rebuild(cls: Any, state: dict[str, Any]) -> Any:
    """An instance of `cls` with these attributes, set past a frozen dataclass's `__setattr__` (what unpickling
    and `copy` call for the classes `register_frozen` registers)."""
    obj = cls.__new__(cls)
    for name, value in state.items():
        object.__setattr__(obj, name, value)
    return obj


def reduce_frozen(obj: Any) -> tuple[Any, tuple[type, dict[str, Any]]]:
    """How pickle and `copy` take apart a compiled frozen dataclass: its class and its fields."""
    return rebuild, (type(obj), {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)})


def register_frozen(module: ModuleType) -> None:
    """Register the frozen dataclasses of a compiled module with `copyreg`, so that they pickle, copy and deep-copy
    as the pure ones do (mypyc's own `__setstate__` assigns each field through the frozen `__setattr__`, which
    refuses with `FrozenInstanceError`)."""
    for value in list(vars(module).values()):
        if isinstance(value, type) and value.__module__ == module.__name__ and dataclasses.is_dataclass(value) \
                and value.__dataclass_params__.frozen:  # type: ignore[attr-defined]
            copyreg.pickle(value, reduce_frozen)


class CompiledLoader(importlib.machinery.ExtensionFileLoader):
    """Loads a compiled module; then every compiled module loaded by then and not yet seen goes through
    `register_frozen` (mypyc initialises a module that another of the group imports itself, without asking the
    import system: this catches those too)."""

    def __init__(self, fullname: str, path: str, finder: OverlayFinder) -> None:
        super().__init__(fullname, path)
        self.finder = finder

    def exec_module(self, module: ModuleType) -> None:
        super().exec_module(module)
        finder = self.finder
        for name in finder.modules.keys() - finder.seen:
            loaded = sys.modules.get(name)
            if loaded is not None:
                finder.seen.add(name)
                register_frozen(loaded)


class OverlayFinder:
    """A meta-path finder serving the compiled modules (and mypyc's shared library) from the overlay's files; any
    other name goes on to the ordinary finders."""

    def __init__(self, modules: dict[str, Path]) -> None:
        self.modules = modules
        self.seen: set[str] = set()
        """The compiled modules whose frozen dataclasses are registered."""

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        file = self.modules.get(fullname)
        if file is None:
            return None
        return importlib.util.spec_from_file_location(fullname, file,
                                                      loader=CompiledLoader(fullname, str(file), self))

    def invalidate_caches(self) -> None:
        """Nothing cached (part of the finder protocol)."""


_status: Status | None = None


def install() -> Status:
    """Decide once which engine runs in this process and, for the compiled one, put its finder first on
    `sys.meta_path`. Called by `warroom/__init__.py`; later calls return the first decision."""
    global _status
    if _status is None:
        found = decide()
        if found.compiled and not any(isinstance(f, OverlayFinder) for f in sys.meta_path):
            clash = sorted(name for name in found.modules if name in sys.modules)
            if clash:  # imported pure already (cannot happen through `import warroom`): never mix the two
                found = Status(False, f"{clash[0]} was imported before the compiled build could be installed")
            else:
                sys.meta_path.insert(0, OverlayFinder(found.modules))
        _status = found
    return _status


def status() -> Status:
    """Which engine this process runs, and why."""
    return install()
