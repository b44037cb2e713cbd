"""The Firestorm campaign system (Flames of War): Caen, Lorraine and (later) Norway."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from warroom.core.errors import ScenarioError, shown
from warroom.core.tomlfiles import read_toml_tree
from warroom.rulesets.firestorm.model import REVISION, FirestormScenario, parse_scenario
from warroom.rulesets.firestorm.state import FirestormRules, FirestormState

MODES = ("gw", "tabletop", "mixed")
MAX_ALLOTMENT = 1000
LIST_KEYS = ("map", "area", "border", "troop", "turn", "air", "counter")
"""The arrays of tables a campaign folder may spread over several files (each file adds its entries)."""


def read_tree(path: Path) -> tuple[dict[str, Any], str]:
    """A campaign's data: one TOML file, or every file of a folder merged (`LIST_KEYS` concatenated)."""
    return read_toml_tree(path, LIST_KEYS)


def load(path: Path) -> FirestormScenario:
    """Read and validate a Firestorm campaign from a TOML file or a folder of them."""
    data, where = read_tree(path)
    head = data.get("scenario", {})
    system = head.get("system", "firestorm") if isinstance(head, dict) else "firestorm"  # not a table: said below
    if system != "firestorm":
        raise ScenarioError([f"{where}: [scenario] system {system!r} is not supported here: this is read as a "
                             "Firestorm campaign"])
    return parse_scenario(data, where)


def check_params(params: Mapping[str, Any]) -> None:
    """Raise `ValueError`, naming the parameter, unless the rule parameters in `params` are well formed:
    `mode` one of `MODES`; `allotment` a whole number of battles, in mixed mode only; `parallel` true or false.

    >>> check_params({"mode": "mixed", "allotment": 2, "parallel": True})
    >>> check_params({"mode": "nuke"})
    Traceback (most recent call last):
    ...
    ValueError: mode: unknown resolution mode 'nuke' (use gw, tabletop, mixed)
    """
    mode = params.get("mode", "gw")
    if not isinstance(mode, str) or mode not in MODES:
        raise ValueError(f"mode: unknown resolution mode {shown(mode)} (use {', '.join(MODES)})")
    allotment = params.get("allotment")
    if allotment is not None:
        if not isinstance(allotment, int) or isinstance(allotment, bool) or not 0 <= allotment <= MAX_ALLOTMENT:
            raise ValueError(f"allotment: the tabletop allotment must be a whole number of battles from 0 to "
                             f"{MAX_ALLOTMENT}, got {shown(allotment)}")
        if mode != "mixed":
            raise ValueError("allotment: a tabletop allotment only applies in mixed mode")
    if not isinstance(params.get("parallel", False), bool):
        raise ValueError(f"parallel: must be true or false, got {shown(params['parallel'])}")
    revision = params.get("revision", REVISION)
    if not isinstance(revision, int) or isinstance(revision, bool) or not 1 <= revision <= REVISION:
        raise ValueError(f"revision: the rules' revision is a whole number from 1 to {REVISION}, "
                         f"got {shown(revision)}")


@cache
def flow() -> FirestormRules:
    from warroom.rulesets.firestorm.steps import build_flow

    return build_flow()


def new_game(scenario: FirestormScenario, params: dict[str, Any] | None = None) -> FirestormState:
    """A new campaign at the start of turn 1.

    `params['mode']`: gw (default), tabletop or mixed. In mixed mode, `params['allotment']` (optional)
    is how many battles each side may claim for the tabletop per turn (Caen 3.1 mini-campaign).
    """
    params = dict(params or {})
    params.setdefault("mode", "gw")
    params.setdefault("revision", REVISION)
    check_params(params)
    st = FirestormState(scenario, flow(), params)
    st.flow.enter(st, "turn_start")
    return st


__all__ = ["LIST_KEYS", "MODES", "FirestormScenario", "FirestormState", "check_params", "load",
           "new_game", "parse_scenario", "read_tree"]
