"""The Firestorm campaign system (Flames of War): Caen, Lorraine and (later) Norway."""

from __future__ import annotations

from functools import cache
from typing import Any

from warroom.core.flow import Flow
from warroom.rulesets.firestorm.model import FirestormScenario, parse_scenario
from warroom.rulesets.firestorm.state import FirestormState

MODES = ("gw", "tabletop", "mixed")


@cache
def flow() -> Flow[FirestormState]:
    from warroom.rulesets.firestorm.steps import build_flow

    return build_flow()


def new_game(scenario: FirestormScenario, params: dict[str, Any] | None = None) -> FirestormState:
    """A new campaign at the start of turn 1.

    `params['mode']`: gw (default), tabletop or mixed. In mixed mode, `params['allotment']` (optional)
    is how many battles each side may claim for the tabletop per turn (Caen 3.1 mini-campaign).
    """
    params = dict(params or {})
    params.setdefault("mode", "gw")
    if params["mode"] not in MODES:
        raise ValueError(f"unknown resolution mode {params['mode']!r} (use {', '.join(MODES)})")
    allotment = params.get("allotment")
    if allotment is not None and params["mode"] != "mixed":
        raise ValueError("a tabletop allotment only applies in mixed mode")
    if allotment is not None and (not isinstance(allotment, int) or isinstance(allotment, bool) or allotment < 0):
        raise ValueError(f"the tabletop allotment must be a whole number of battles, got {allotment!r}")
    st = FirestormState(scenario, flow(), params)
    st.flow.enter(st, "turn_start")
    return st


__all__ = ["FirestormScenario", "FirestormState", "new_game", "parse_scenario"]
