"""Scenario data paths, and a scenario with some of its data changed: what a balance-lab sweep varies.

A path names one value in a scenario's TOML files: the file, a colon, then keys joined by dots, where a list is
entered by its position (`turn[2]`, from 0) or by a key its tables share (`troop[id=arm_7]`). Without a file it is
`scenario.toml`'s; a one-file scenario's file is the file itself. Examples:

    scenario.toml:rules.stacking            map.toml:area[id=B5].vp            rules.toml:naval.landing_lifts

A variant is made by copying the scenario's files, changing the values and loading the copy with the rule
system's own loader, so every value is checked as the scenario's own would be.
"""

from __future__ import annotations

import re
import shutil
import tempfile
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomli_w

from warroom.core.errors import ScenarioError, UnknownNameError
from warroom.scenarios.loader import DATA, bundled_ids, load_game_path

STEP = re.compile(r"([A-Za-z0-9_-]+)((?:\[[^\]]*\])*)$")
"""One step of a path: a key, then any number of list selectors."""
SELECTOR = re.compile(r"\[([^\]]*)\]")
Step = str | int | tuple[str, str]
"""A table key, a list position, or (key, value): the one table of a list whose key has that value."""


class PathError(ValueError):
    """A data path that is malformed or names nothing in the scenario."""


@dataclass(frozen=True, slots=True)
class DataPath:
    text: str
    file: str
    steps: tuple[Step, ...]


def parse_path(text: str) -> DataPath:
    """A path from its text; raises `PathError` naming what is wrong."""
    file, colon, rest = text.partition(":")
    if not colon:
        file, rest = "", text
    if file and not file.endswith(".toml"):
        raise PathError(f"path {text!r}: the part before the colon must be a .toml file of the scenario")
    if not rest:
        raise PathError(f"path {text!r}: no key after the file")
    steps: list[Step] = []
    for part in rest.split("."):
        m = STEP.match(part)
        if m is None:
            raise PathError(f"path {text!r}: {part!r} is not a key (letters, digits, _ and -) with optional "
                            "[N] or [key=value] after it")
        steps.append(m.group(1))
        for sel in SELECTOR.findall(m.group(2)):
            key, eq, value = sel.partition("=")
            if eq and key.strip() and value.strip():
                steps.append((key.strip(), value.strip()))
            elif sel.strip().isdigit():
                steps.append(int(sel))
            else:
                raise PathError(f"path {text!r}: [{sel}] must be a position from 0 ([2]) or key=value ([id=B5])")
    return DataPath(text, file, tuple(steps))


def source_of(scenario: str) -> Path:
    """The file or folder a scenario is read from: a bundled one by its name, else a path."""
    if scenario in bundled_ids(drafts=True):
        return DATA / scenario
    p = Path(scenario)
    if not p.exists():
        raise UnknownNameError(f"unknown scenario {scenario!r} (bundled: {', '.join(bundled_ids())}; or give a path)")
    return p


def file_of(source: Path, path: DataPath) -> Path:
    if source.is_file():
        if path.file and path.file != source.name:
            raise PathError(f"path {path.text!r}: the scenario is the one file {source.name}")
        return source
    target = source / (path.file or "scenario.toml")
    if not target.is_file():
        files = ", ".join(sorted(p.name for p in source.glob("*.toml")))
        raise PathError(f"path {path.text!r}: the scenario has no {target.name} (its files: {files})")
    return target


def _walk(data: Any, path: DataPath) -> tuple[Any, Step]:
    """The container holding the value a path names, and the last step into it."""
    here = data
    for i, step in enumerate(path.steps):
        where = ".".join(str(s) for s in path.steps[:i]) or "the file"
        last = i == len(path.steps) - 1
        if isinstance(step, str):
            if not isinstance(here, dict) or step not in here:
                keys = ", ".join(sorted(here)) if isinstance(here, dict) else ""
                raise PathError(f"path {path.text!r}: no key {step!r} in {where}" + (f" (keys: {keys})" if keys
                                                                                        else ""))
        elif isinstance(step, int):
            if not isinstance(here, list) or not 0 <= step < len(here):
                size = f"a list of {len(here)}" if isinstance(here, list) else "not a list"
                raise PathError(f"path {path.text!r}: no position [{step}] in {where} ({size})")
        else:
            key, value = step
            if not isinstance(here, list):
                raise PathError(f"path {path.text!r}: [{key}={value}] selects from a list, and {where} is not one")
            found = [n for n, t in enumerate(here) if isinstance(t, dict) and str(t.get(key)) == value]
            if len(found) != 1:
                raise PathError(f"path {path.text!r}: {len(found)} tables of {where} have {key} = {value!r} "
                                "(it must be exactly one)")
            step = found[0]
        if last:
            return here, step
        here = here[step]
    raise PathError(f"path {path.text!r}: empty")


def value_at(source: Path, path: DataPath) -> Any:
    """The value a path names in a scenario's files as they are."""
    data = _read(file_of(source, path))
    container, last = _walk(data, path)
    return container[last]


def checked(path: DataPath, now: Any, value: Any) -> Any:
    """`value` as it will be written in place of `now`: of the same kind (a whole number may stand for a decimal
    one); raises `PathError` otherwise."""
    def kind(v: Any) -> str:
        return "true or false" if isinstance(v, bool) else "a whole number" if isinstance(v, int) else \
            "a number" if isinstance(v, float) else "a text" if isinstance(v, str) else \
            "a list" if isinstance(v, list) else "a table" if isinstance(v, dict) else type(v).__name__
    if isinstance(now, bool) or isinstance(value, bool):
        ok = isinstance(now, bool) and isinstance(value, bool)
    elif isinstance(now, float):
        ok = isinstance(value, int | float)
        value = float(value) if ok else value
    else:
        ok = type(value) is type(now)
    if not ok:
        raise PathError(f"path {path.text!r}: {value!r} is {kind(value)}, but the scenario has {kind(now)} there "
                        f"({now!r})")
    return value


def _read(file: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise PathError(f"{file}: cannot be read ({exc})") from exc


def variant(scenario: str, changes: Sequence[tuple[str, Any]]) -> Any:
    """The scenario with each (path, value) of `changes` set, loaded and checked by its rule system's loader:
    raises `PathError` for a path or value of the wrong kind, `ScenarioError` for a value the loader refuses
    (its problems say which), `UnknownNameError` for an unknown scenario. No changes: the scenario itself."""
    source = source_of(scenario)
    if not changes:
        return load_game_path(source)
    with tempfile.TemporaryDirectory(prefix="warroom-lab-") as tmp:
        copy = Path(tmp) / source.name
        if source.is_dir():
            shutil.copytree(source, copy)
        else:
            shutil.copy(source, copy)
        edited: dict[Path, dict[str, Any]] = {}
        for text, value in changes:
            path = parse_path(text)
            file = file_of(copy, path)
            data = edited.setdefault(file, _read(file))
            container, last = _walk(data, path)
            container[last] = checked(path, container[last], value)
        for file, data in edited.items():
            file.write_text(tomli_w.dumps(data), encoding="utf-8")
        try:
            return load_game_path(copy)
        except ScenarioError as exc:
            said = ", ".join(f"{p} = {v!r}" for p, v in changes)
            raise ScenarioError([f"with {said}: " + p.replace(tmp + "/", "") for p in exc.problems]) from exc
