"""Read a scenario (a TOML file or a folder of them), validate it, and build the ruleset's model.

Errors name the file, the key and what was expected; every problem is reported at once.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from warroom.core.errors import ScenarioError, UnknownNameError
from warroom.rulesets.firestorm.model import FirestormScenario, parse_scenario

if TYPE_CHECKING:
    from warroom.rulesets.kampen.scenario import KampenScenario

DATA = Path(__file__).parent / "data"
MAX_FILE_BYTES = 2_000_000
LIST_KEYS = ("map", "area", "border", "troop", "turn", "air", "counter")


def bundled_ids(drafts: bool = False, system: str | None = None) -> list[str]:
    """Bundled games: folders of `data/` with a `scenario.toml`. Those whose `[scenario]` says
    `status = "draft"` (data being built, not yet playable) are listed only with `drafts=True`; `system`
    keeps only one rule system's (firestorm, kampen)."""
    out = []
    for p in sorted(DATA.iterdir()):
        head = p / "scenario.toml"
        if p.is_dir() and head.is_file() and (drafts or not _is_draft(head)) and (
                system is None or system_of(p) == system):
            out.append(p.name)
    return out


def _is_draft(path: Path) -> bool:
    try:
        head = tomllib.loads(path.read_text(encoding="utf-8")).get("scenario", {})
    except (tomllib.TOMLDecodeError, UnicodeDecodeError):
        return False  # a broken file is reported when it is loaded
    return isinstance(head, dict) and head.get("status") == "draft"


def read_toml_tree(path: Path) -> tuple[dict[str, Any], str]:
    """Read one TOML file, or merge every TOML file of a folder (arrays of tables are concatenated)."""
    path = Path(path)
    if path.is_dir():
        files = sorted(path.glob("*.toml"))
        if not files:
            raise ScenarioError([f"{path}: folder holds no .toml files"])
    elif path.is_file():
        files = [path]
    else:
        raise ScenarioError([f"{path}: no such scenario file or folder"])
    merged: dict[str, Any] = {}
    problems: list[str] = []
    for f in files:
        if f.stat().st_size > MAX_FILE_BYTES:
            problems.append(f"{f}: file is larger than {MAX_FILE_BYTES} bytes")
            continue
        try:
            data = tomllib.loads(f.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            problems.append(f"{f}: not valid TOML: {exc}")
            continue
        except UnicodeDecodeError:
            problems.append(f"{f}: not UTF-8 text")
            continue
        for key, value in data.items():
            if key in LIST_KEYS and isinstance(value, list) and isinstance(merged.get(key), list):
                merged[key].extend(value)
            elif key in merged:
                problems.append(f"{f}: top-level key {key!r} is defined in more than one file")
            else:
                merged[key] = value
    if problems:
        raise ScenarioError(problems)
    return merged, str(path)


def system_of(path: Path) -> str:
    """The rule system a scenario folder declares in its scenario.toml ('firestorm' when it says none)."""
    head = Path(path) / "scenario.toml"
    if not head.is_file():
        return "firestorm"
    try:
        data = tomllib.loads(head.read_text(encoding="utf-8")).get("scenario", {})
    except (tomllib.TOMLDecodeError, UnicodeDecodeError):
        return "firestorm"  # reported in full when the folder is read
    return str(data.get("system", "firestorm")) if isinstance(data, dict) else "firestorm"


def load_game_path(path: Path) -> FirestormScenario | KampenScenario:
    """Load and validate a scenario from a file or folder: a Firestorm campaign, or Kampen om Norge."""
    if Path(path).is_dir() and system_of(path) == "kampen":
        from warroom.rulesets.kampen.scenario import load_folder

        return load_folder(Path(path))
    return load_path(path)


def load_path(path: Path) -> FirestormScenario:
    """Load and validate a Firestorm scenario from a file or folder."""
    data, where = read_toml_tree(path)
    system = data.get("scenario", {}).get("system", "firestorm") if isinstance(data.get("scenario"), dict) else ""
    if system != "firestorm":
        raise ScenarioError([f"{where}: [scenario] system {system!r} is not supported (known: firestorm, kampen)"])
    return parse_scenario(data, where)


@cache
def _bundled(name: str) -> FirestormScenario | KampenScenario:
    return load_game_path(DATA / name)


def load_game(name: str) -> FirestormScenario | KampenScenario:
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
    if not isinstance(sc, FirestormScenario):
        raise UnknownNameError(f"{name!r} is Kampen om Norge, not a Firestorm campaign")
    return sc
