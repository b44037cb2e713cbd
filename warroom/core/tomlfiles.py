"""Reading scenario data: one TOML file, or a folder of them merged into one table."""

from __future__ import annotations

import tomllib
from collections.abc import Collection
from pathlib import Path
from typing import Any

from warroom.core.errors import ScenarioError

MAX_FILE_BYTES = 2_000_000


def declared_system(path: Path, default: str) -> object:
    """The rule system a scenario says it belongs to (`[scenario] system`, as written: the caller checks it is a
    text): in a folder, its scenario.toml; `default` when it says none or cannot be read (a broken file is
    reported in full when it is loaded)."""
    path = Path(path)
    head = path / "scenario.toml" if path.is_dir() else path
    if not head.is_file() or head.stat().st_size > MAX_FILE_BYTES:
        return default
    try:
        data = tomllib.loads(head.read_text(encoding="utf-8")).get("scenario", {})
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, OSError):
        return default
    return data.get("system", default) if isinstance(data, dict) else default


def read_toml_tree(path: Path, list_keys: Collection[str] = ()) -> tuple[dict[str, Any], str]:
    """Read one TOML file, or merge every TOML file of a folder: the arrays of tables named in `list_keys` are
    concatenated, and any other top-level key may be defined in one file only. Returns the data and where it
    came from; raises `ScenarioError` naming every problem (a file too large, not TOML, not UTF-8)."""
    path = Path(path)
    if path.is_dir():
        files = sorted(p for p in path.glob("*.toml") if p.is_file())
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
        except OSError as exc:
            problems.append(f"{f}: cannot be read: {exc.strerror or exc}")
            continue
        for key, value in data.items():
            if key in list_keys and isinstance(value, list) and isinstance(merged.get(key), list):
                merged[key].extend(value)
            elif key in merged:
                problems.append(f"{f}: top-level key {key!r} is defined in more than one file")
            else:
                merged[key] = value
    if problems:
        raise ScenarioError(problems)
    return merged, str(path)
