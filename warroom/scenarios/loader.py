"""Read a scenario (a TOML file or a folder of them), validate it, and build the ruleset's model.

Errors name the file, the key and what was expected; every problem is reported at once.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any

from warroom.core.errors import ScenarioError, UnknownNameError
from warroom.rulesets.firestorm.model import FirestormScenario, parse_scenario

DATA = Path(__file__).parent / "data"
MAX_FILE_BYTES = 2_000_000
LIST_KEYS = ("map", "area", "border", "troop", "turn", "air", "counter")


def bundled_ids(drafts: bool = False) -> list[str]:
    """Bundled campaigns: folders of `data/` with a `scenario.toml`. Campaigns whose `[scenario]`
    says `status = "draft"` (data being built, not yet playable) are listed only with `drafts=True`."""
    out = []
    for p in sorted(DATA.iterdir()):
        head = p / "scenario.toml"
        if p.is_dir() and head.is_file() and (drafts or not _is_draft(head)):
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


def load_path(path: Path) -> FirestormScenario:
    """Load and validate a scenario from a file or folder."""
    data, where = read_toml_tree(path)
    system = data.get("scenario", {}).get("system", "firestorm") if isinstance(data.get("scenario"), dict) else ""
    if system != "firestorm":
        raise ScenarioError([f"{where}: [scenario] system {system!r} is not supported (known: firestorm)"])
    return parse_scenario(data, where)


@cache
def _bundled(name: str) -> FirestormScenario:
    return load_path(DATA / name)


def load_scenario(name: str) -> FirestormScenario:
    """A bundled scenario by id, or a scenario file/folder by path."""
    if name in bundled_ids(drafts=True):
        return _bundled(name)
    p = Path(name)
    if p.exists():
        return load_path(p)
    raise UnknownNameError(f"unknown scenario {name!r} (bundled: {', '.join(bundled_ids())}; or give a path)")
