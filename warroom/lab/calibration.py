"""Calibration: each bundled scenario states the real campaign's result in its own outcome levels (`[scenario]
historical = { outcome = ..., source = ... }` in scenario.toml), and the lab reports how often a pairing of bots
reproduces it: a scenario whose bots never reach history, or always do, tells the designer something."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from warroom import rulesets
from warroom.core.errors import ScenarioError


def historical(source: Path, sc: Any) -> dict[str, str] | None:
    """The scenario's historical result ({outcome, source[, assumption]}), or None where it states none; raises
    `ScenarioError` naming the problem where it states one that is not among its outcome levels."""
    head = source / "scenario.toml" if source.is_dir() else source
    try:
        data = tomllib.loads(head.read_text(encoding="utf-8")).get("scenario", {})
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None  # the loader has said what is wrong with the file
    given = data.get("historical") if isinstance(data, dict) else None
    if given is None:
        return None
    where = f"{head}: [scenario] historical"
    if not isinstance(given, dict) or not isinstance(given.get("outcome"), str) or not isinstance(
            given.get("source"), str) or set(given) - {"outcome", "source", "assumption"}:
        raise ScenarioError([f"{where} must be {{ outcome = \"<an outcome level>\", source = \"<where it comes "
                             f"from>\" }} (an assumption may be added), got {given!r}"])
    system = rulesets.of(sc)
    levels = system.levels(sc) if system.levels is not None else ()
    if levels and given["outcome"] not in levels:
        raise ScenarioError([f"{where}: {given['outcome']!r} is not one of its outcome levels ({', '.join(levels)})"])
    return {k: str(v) for k, v in given.items()}
