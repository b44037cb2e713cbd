"""Read a scenario (a TOML file or a folder of them) of any registered rule system, validated.

The scenario names its system (`[scenario] system`, in a folder's scenario.toml); the registry's system reads
it. Errors name the file, the key and what was expected; every problem is reported at once.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from warroom import rulesets
from warroom.core.errors import ScenarioError, UnknownNameError, shown
from warroom.core.tomlfiles import MAX_FILE_BYTES, declared_system

if TYPE_CHECKING:
    from warroom.rulesets.firestorm.model import FirestormScenario

DATA = Path(__file__).parent / "data"
__all__ = ["DATA", "MAX_FILE_BYTES", "bundled_ids", "load_game", "load_game_path", "load_path", "load_scenario",
           "system_of"]


def bundled_ids(drafts: bool = False, system: str | None = None) -> list[str]:
    """Bundled games: folders of `data/` with a `scenario.toml`. Those whose `[scenario]` says
    `status = "draft"` (data being built, not yet playable) are listed only with `drafts=True`; `system`
    keeps only one rule system's (firestorm, kampen)."""
    return list(_bundled_ids(drafts, system))


@cache
def _bundled_ids(drafts: bool, system: str | None) -> tuple[str, ...]:
    """`bundled_ids`, read once a process (as the bundled scenarios themselves are, `_bundled`): it parses every
    bundled scenario file to learn its system and status, about 0.1 s, and the server asks on every creation,
    import, upload and start page."""
    return tuple(p.name for p in sorted(DATA.iterdir())
                 if p.is_dir() and (p / "scenario.toml").is_file()
                 and (drafts or not _is_draft(p / "scenario.toml")) and (system is None or system_of(p) == system))


def _is_draft(path: Path) -> bool:
    try:
        head = tomllib.loads(path.read_text(encoding="utf-8")).get("scenario", {})
    except (tomllib.TOMLDecodeError, UnicodeDecodeError):
        return False  # a broken file is reported when it is loaded
    return isinstance(head, dict) and head.get("status") == "draft"


def system_of(path: Path) -> str:
    """The rule system a scenario file or folder declares (the registry's default when it says none, '' when
    what it says is not a text)."""
    declared = declared_system(path, rulesets.DEFAULT)
    return declared if isinstance(declared, str) else ""


def load_game_path(path: Path) -> Any:
    """Load and validate a scenario from a file or folder, by the rule system it declares."""
    declared = declared_system(path, rulesets.DEFAULT)
    if not isinstance(declared, str):
        raise ScenarioError([f"{path}: [scenario] system must be the text id of a rule system "
                             f"({', '.join(rulesets.systems())}), got {shown(declared)}"])
    system_id = declared
    system = rulesets.find(system_id)
    if system is None:
        raise ScenarioError([f"{path}: [scenario] system {system_id!r} is not supported "
                             f"(known: {', '.join(rulesets.systems())})"])
    folder = Path(path)
    try:
        return system.load(folder)
    except ScenarioError as exc:
        if folder.is_dir() and not (folder / "scenario.toml").is_file():  # read as the default system: say so
            raise ScenarioError([f"{path}: the folder has no scenario.toml naming its rule system, so it was read as "
                                 f"a {rulesets.DEFAULT} scenario", *exc.problems]) from exc
        raise


load_path = load_game_path
"""A scenario from a file or folder (the older name of `load_game_path`)."""


@cache
def _bundled(name: str) -> Any:
    return load_game_path(DATA / name)


def load_game(name: str) -> Any:
    """A bundled game by id, or a scenario file/folder by path, of any rule system."""
    if name in bundled_ids(drafts=True):
        return _bundled(name)
    p = Path(name)
    if p.exists():
        return load_game_path(p)
    raise UnknownNameError(f"unknown scenario {name!r} (bundled: {', '.join(bundled_ids())}; or give a path)")


def load_scenario(name: str) -> FirestormScenario:
    """A Firestorm campaign by id or path (`load_game` takes any rule system)."""
    sc = load_game(name)
    system = rulesets.of(sc)
    if system.id != "firestorm":
        raise UnknownNameError(f"{name!r} is {system.name}, not a Firestorm campaign")
    return cast("FirestormScenario", sc)
